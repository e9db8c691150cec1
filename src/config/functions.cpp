// The function tables of a Terraform module's scope and of its console, as
// Terraform 1.11.4 builds them (internal/lang/functions.go): the standard
// library (hclvm/function.h, every function also as core::NAME) with the
// file functions reading relative to the root module's directory, plus
//  - plantimestamp, which outside a plan has no time to give: its result
//    is unknown, as in `terraform console`'s walk;
//  - ephemeralasnull, which replaces the ephemeral parts of a value by
//    nulls of their types;
// and without the console-only type(). The console's table has type()
// (returning the type in a capsule with a mark, so that the console can
// tell a bare type() call from one used inside an expression) and lacks
// plantimestamp.
#include <hclvm/body.h>
#include <hclvm/format.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/syntax.h>
#include <hclvm/typeexpr.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "config/internal.h"
#include "util/meter.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/render.h"

namespace hclvm::config::detail {

namespace {

Param any_param(std::string name) {
  Param p;
  p.name = std::move(name);
  p.type = Type::dynamic();
  p.allow_null = p.allow_unknown = p.allow_dynamic_type = p.allow_marked = true;
  return p;
}

Function plantimestamp_fn() {
  Function f;
  f.description =
      "Returns the timestamp of the current plan, which is unknown outside of a plan.";
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value>, const Type*) {
    return FuncResult::of(Value::unknown(Type::string()));
  };
  return f;
}

// [v] with each ephemeral part replaced by a null of its type.
Value ephemeral_as_null(const Value& v) {
  auto [plain, marks] = v.unmark_with_marks();
  if (marks.has(kEphemeral)) return Value::null(plain.type());
  if (!plain.is_known() || plain.is_null() || !plain.contains_marked()) return v;
  const Type* t = plain.type();
  Value out;
  if (t->is_object()) {
    std::vector<Value> vals;
    for (size_t i = 0; i < t->size(); ++i) vals.push_back(ephemeral_as_null(plain.attr(i)));
    out = Value::object(t, std::move(vals));
  } else if (t->is_tuple()) {
    std::vector<Value> vals;
    for (size_t i = 0; i < plain.length(); ++i) vals.push_back(ephemeral_as_null(plain.element(i)));
    out = Value::tuple(std::move(vals));
  } else if (t->is_list() || t->is_set()) {
    std::vector<Value> vals;
    for (size_t i = 0; i < plain.length(); ++i) vals.push_back(ephemeral_as_null(plain.element(i)));
    out = t->is_list() ? Value::list(t->element(), std::move(vals))
                       : Value::set(t->element(), std::move(vals));
  } else if (t->is_map()) {
    std::vector<std::pair<std::string, Value>> vals;
    for (size_t i = 0; i < plain.length(); ++i)
      vals.emplace_back(std::string(plain.map_key(i)), ephemeral_as_null(plain.map_value(i)));
    out = Value::map(t->element(), std::move(vals));
  } else {
    return v;
  }
  return out.mark(marks);
}

Function ephemeralasnull_fn() {
  Function f;
  f.description =
      "Takes a value of any type and returns a similar value of the same type with any ephemeral "
      "values replaced with non-ephemeral null values.";
  f.params = {any_param("value")};
  f.type = [](std::span<const Value> args) { return TypeResult{args[0].type(), std::nullopt}; };
  f.impl = [](std::span<const Value> args, const Type*) {
    return FuncResult::of(ephemeral_as_null(args[0]));
  };
  return f;
}

Function console_type_fn() {
  Function f;
  f.description = "Returns the type of the given value.";
  f.params = {any_param("value")};
  f.returns(type_constraint_type());
  f.impl = [](std::span<const Value> args, const Type*) {
    const Type* t = args[0].unmark_deep().first.type();
    return FuncResult::of(type_constraint_val(t).mark(kTypeTypeMark));
  };
  return f;
}

// Adds [f] as [name] and core::[name] to [t].
void add_both(FunctionTable& t, const std::string& name, Function f) {
  auto p = std::make_shared<const Function>(std::move(f));
  t.add(name, p);
  t.add("core::" + name, p);
}

// --- the functions of the built-in provider terraform.io/builtin/terraform ---------
//
// Terraform's internal/builtin/providers/terraform/functions.go, called as a
// provider's functions are (providers.FunctionDecl.BuildFunction): a null
// argument is refused, marks go from the arguments to the result.

// Appends the text of wholly known, unmarked [v] as hclwrite.TokensForValue
// writes it, before its layout: null, bools and numbers ('f', -1) as they
// are, strings quoted, sequences on one line, and a non-empty object or map
// an item a line, the key bare when it is an identifier. The text is
// counted by [meter] as it grows (the string size limit and the deadline),
// each level checked against the stack of the run_deep it runs in.
void append_value_text(const Value& v, std::string& out, util::TextMeter& meter) {
  util::enter_level();
  const Type* t = v.type();
  if (v.is_null()) {
    out += "null";
  } else if (t == Type::boolean()) {
    out += v.as_bool() ? "true" : "false";
  } else if (t == Type::number()) {
    v.as_number().append_text(out);
  } else if (t == Type::string()) {
    out += '"';
    append_hcl_escaped(out, v.as_string(), true);
    out += '"';
  } else if (t->is_list() || t->is_set() || t->is_tuple()) {
    out += '[';
    for (size_t i = 0; i < v.length(); ++i) {
      if (i > 0) out += ", ";
      append_value_text(v.element(i), out, meter);
    }
    out += ']';
  } else if (t->is_object() || t->is_map()) {
    size_t n = t->is_object() ? t->size() : v.length();
    out += n > 0 ? "{\n" : "{";
    for (size_t i = 0; i < n; ++i) {
      std::string_view key = t->is_object() ? t->attr_name(i) : v.map_key(i);
      if (valid_identifier(key)) {
        out += key;
      } else {
        out += '"';
        append_hcl_escaped(out, key, true);
        out += '"';
      }
      out += " = ";
      append_value_text(t->is_object() ? v.attr(i) : v.map_value(i), out, meter);
      out += '\n';
    }
    out += '}';
  }
  meter.check();
}

// The text [write] appends (to a string counted as a string value, in a
// run_deep), laid out as hclwrite's format lays it out.
template <class F>
std::string laid_out(F&& write) {
  std::string text = util::run_deep([&](const util::StackBudget&) {
    std::string out;
    util::TextMeter meter(out, util::TextMeter::Use::StringValue);
    write(out, meter);
    meter.finish();
    return out;
  });
  return format::format_hcl(text);
}

// The one parameter of the provider's functions: [type], unknowns
// accepted when [unknown], never null.
Param provider_param(std::string name, const Type* type, bool unknown) {
  Param p;
  p.name = std::move(name);
  p.type = type;
  p.allow_unknown = unknown;
  p.allow_dynamic_type = type == Type::dynamic();
  return p;
}

// encode_tfvars: an object or map as the lines of a .tfvars file, its
// attributes sorted by name.
Function encode_tfvars_fn() {
  Function f;
  f.description =
      "A rarely-needed function which takes an object value and produces a string containing a "
      "description of that object using the same syntax as Terraform CLI would expect in a "
      "`.tfvars`.";
  f.params = {provider_param("value", Type::dynamic(), true)};
  f.returns(Type::string());
  f.impl = [](std::span<const Value> args, const Type*) {
    const Value& v = args[0];
    Refinement not_null;
    not_null.not_null = true;
    if (!v.is_wholly_known()) return FuncResult::of(Value::unknown(Type::string(), not_null));
    const Type* t = v.type();
    if (!t->is_object() && !t->is_map())
      return FuncResult::fail(
          "invalid value to encode: must be an object whose attribute names will become the "
          "encoded variable names");
    std::vector<std::pair<std::string_view, Value>> items;
    size_t n = t->is_object() ? t->size() : v.length();
    for (size_t i = 0; i < n; ++i) {
      if (t->is_object())
        items.emplace_back(t->attr_name(i), v.attr(i));
      else
        items.emplace_back(v.map_key(i), v.map_value(i));
    }
    std::sort(items.begin(), items.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [key, value] : items) {
      if (!valid_identifier(key))
        return FuncResult::fail("invalid variable name " + uni::go_quote(key) +
                                ": must be a valid identifier, per Terraform's rules for input "
                                "variable declarations");
    }
    return FuncResult::of(Value::string(laid_out([&](std::string& text, util::TextMeter& meter) {
      for (const auto& [key, value] : items) {
        text.append(key);
        text += " = ";
        append_value_text(value, text, meter);
        text += '\n';
      }
    })));
  };
  return f;
}

// decode_tfvars: the variables a .tfvars text sets, as an object.
Function decode_tfvars_fn() {
  Function f;
  f.description =
      "A rarely-needed function which takes a string containing the content of a `.tfvars` file "
      "and returns an object describing the raw variable values it defines.";
  f.params = {provider_param("src", Type::string(), false)};
  f.type = [](std::span<const Value>) { return TypeResult{Type::dynamic(), std::nullopt}; };
  f.impl = [](std::span<const Value> args, const Type*) {
    ConfigFile file = parse_native_body(
        make_source("<decode_tfvars argument>", std::string(args[0].as_string())));
    if (file.has_errors())
      return FuncResult::fail("invalid tfvars syntax: " + diagnostics_error(file.diagnostics));
    AttributesResult attrs = file.body.just_attributes();
    if (attrs.has_errors())
      return FuncResult::fail("invalid tfvars content: " + diagnostics_error(attrs.diagnostics));
    std::vector<std::pair<std::string, Value>> vals;
    for (const Attribute& a : attrs.attributes) {
      EvalResult r = a.expr.value(nullptr);
      if (r.has_errors())
        return FuncResult::fail("invalid expression for variable " + uni::go_quote(a.name) + ": " +
                                diagnostics_error(r.diagnostics));
      vals.emplace_back(a.name, std::move(r.value));
    }
    return FuncResult::of(Value::object(std::move(vals)));
  };
  return f;
}

// encode_expr: any value as the expression that writes it.
Function encode_expr_fn() {
  Function f;
  f.description =
      "A rarely-needed function which takes any value and produces a string containing Terraform "
      "language expression syntax approximating that value.";
  f.params = {provider_param("value", Type::dynamic(), true)};
  f.returns(Type::string());
  f.impl = [](std::span<const Value> args, const Type*) {
    const Value& v = args[0];
    if (!v.is_wholly_known()) {
      // Refined as far as the grammar allows when the value is not null.
      Refinement r;
      r.not_null = true;
      bool could_be_null = v.is_known() ? v.is_null() : !v.refinement().not_null;
      const Type* t = v.type();
      if (!could_be_null) {
        if (t->is_object() || t->is_map())
          r.prefix = "{";
        else if (t->is_tuple() || t->is_list() || t->is_set())
          r.prefix = "[";
        else if (t == Type::string())
          r.prefix = "\"";
      }
      return FuncResult::of(Value::unknown(Type::string(), std::move(r)));
    }
    std::string out = laid_out(
        [&](std::string& text, util::TextMeter& meter) { append_value_text(v, text, meter); });
    size_t b = out.find_first_not_of(" \t\n\r\v\f");
    size_t e = out.find_last_not_of(" \t\n\r\v\f");
    return FuncResult::of(Value::string(b == std::string::npos ? "" : out.substr(b, e - b + 1)));
  };
  return f;
}

}  // namespace

namespace {

// Builds the table terraform_functions returns.
std::shared_ptr<const FunctionTable> build_table(const std::string& base_dir, bool confine,
                                                 bool console,
                                                 const std::vector<std::string>& builtin) {
  LibraryOptions lib;
  lib.base_dir = base_dir.empty() ? "." : base_dir;
  lib.confine = confine;
  lib.core_namespace = true;
  FunctionTable t = standard_functions(lib);
  t.remove("type");
  t.remove("core::type");
  add_both(t, "ephemeralasnull", ephemeralasnull_fn());
  if (console) {
    add_both(t, "type", console_type_fn());
  } else {
    add_both(t, "plantimestamp", plantimestamp_fn());
  }
  if (!builtin.empty()) {
    auto tfvars = std::make_shared<const Function>(encode_tfvars_fn());
    auto decode = std::make_shared<const Function>(decode_tfvars_fn());
    auto expr = std::make_shared<const Function>(encode_expr_fn());
    for (const std::string& name : builtin) {
      t.add("provider::" + name + "::encode_tfvars", tfvars);
      t.add("provider::" + name + "::decode_tfvars", decode);
      t.add("provider::" + name + "::encode_expr", expr);
    }
  }
  return std::make_shared<const FunctionTable>(std::move(t));
}

}  // namespace

std::shared_ptr<const FunctionTable> terraform_functions(const std::string& base_dir, bool confine,
                                                         bool console,
                                                         const std::vector<std::string>& builtin) {
  // Tables are immutable: one per directory, kind and set of built-in
  // provider names serves every evaluation (making one costs more than
  // evaluating a small module).
  static std::mutex mu;
  static std::map<std::tuple<std::string, bool, bool, std::vector<std::string>>,
                  std::shared_ptr<const FunctionTable>>
      tables;
  auto key = std::make_tuple(base_dir, confine, console, builtin);
  std::lock_guard<std::mutex> lock(mu);
  auto it = tables.find(key);
  if (it != tables.end()) return it->second;
  if (tables.size() >= 64) tables.clear();  // a bound for processes that load many directories
  auto t = build_table(base_dir, confine, console, builtin);
  tables.emplace(std::move(key), t);
  return t;
}

}  // namespace hclvm::config::detail

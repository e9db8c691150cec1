// Terraform's own functions (hashicorp/terraform internal/lang/funcs,
// newest release) where its function table does not take go-cty's: the
// functions go-cty does not have (sum, alltrue, anytrue, index, matchkeys,
// one, transpose, startswith, endswith, strcontains, templatestring, and
// the removed list and map, which only fail), and Terraform's versions of
// coalesce, length and lookup. conversion.cpp adds Terraform's to*, type,
// sensitive, nonsensitive and issensitive, regex.cpp its replace.
//
// How Terraform's versions differ from go-cty's:
//  - coalesce skips empty strings when the arguments unify to string, and
//    skips an argument that fails to convert as if it were null;
//  - length counts an unknown tuple's or object's elements from its type,
//    refines an unknown string's length by its known prefix and an unknown
//    collection's by its length bounds, and never returns null;
//  - lookup takes the default as an optional variadic argument, finds a
//    key in a known map whose other elements are unknown, fails without a
//    default when the key is missing, and does not quote a sensitive key;
//  - replace treats a substring between slashes as a regular expression;
//  - the to* functions take unknowns and do not quote sensitive values.
// Everything else in Terraform's table is go-cty's (log and pow included).
//
// templatestring renders with a snapshot of the table it is added to (see
// add_templatestring_function), in which templatestring and templatefile
// fail as recursive calls and the filesystem functions fail as not
// allowed, as in Terraform. Terraform also insists that the template
// argument be written as a reference (it receives the expression); here
// functions receive values, so any expression giving a string is taken.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "funcs/funcs.h"
#include "hclvm/analysis.h"
#include "hclvm/eval.h"
#include "hclvm/syntax.h"
#include "hclvm/functions.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "value/ops.h"
#include "value/refine.h"

namespace hclvm::funcs {

namespace {

const Type* dyn() { return Type::dynamic(); }

// --- numeric -------------------------------------------------------------------

constexpr const char* kNotNumbers = "argument must be list, set, or tuple of number values";

Function sum_fn() {
  Function f;
  f.description = "Returns the sum of the numbers in the given list, set or tuple.";
  f.params = {param("list", dyn())};
  f.returns(Type::number());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    const Value& l = args[0];
    const Type* t = l.type();
    if (!t->is_collection() && !t->is_structural()) return arg_error("cannot sum noniterable", 0);
    if (l.length() == 0) return arg_error("cannot sum an empty list", 0);
    if (!t->is_list() && !t->is_set() && !t->is_tuple()) {
      return arg_error("argument must be list, set, or tuple. Received " + t->friendly_name(), 0);
    }
    if (!l.is_wholly_known()) return FuncResult::of(Value::unknown(Type::number()));
    Value sum;
    for (size_t i = 0; i < l.length(); ++i) {
      poll_every(i);
      const Value& e = l.element(i);
      if (e.is_null()) return arg_error(kNotNumbers, 0);
      ConvertResult n = convert(e, Type::number());
      if (!n.ok()) return arg_error(kNotNumbers, 0);
      if (i == 0) {
        sum = n.take();
        continue;
      }
      // The only way adding known numbers fails is +Inf + -Inf, which
      // Terraform reports in its own words.
      ops::Result r = ops::add(sum, n.value());
      if (!r.ok()) return FuncResult::fail("can't compute sum of opposing infinities");
      sum = std::move(r.value);
    }
    return FuncResult::of(std::move(sum));
  };
  return f;
}

// --- collections -------------------------------------------------------------------

// alltrue (when [all]) or anytrue.
Function bool_list_fn(bool all) {
  Function f;
  f.description = all ? "Returns true if every element of the given list is true, or if the list "
                        "is empty; a null element counts as false."
                      : "Returns true if any element of the given list is true; false for an "
                        "empty list. Null elements are skipped.";
  f.params = {param("list", Type::list(Type::boolean()))};
  f.returns(Type::boolean());
  f.result_not_null = true;
  f.impl = [all](std::span<const Value> args, const Type*) {
    const Value& l = args[0];
    bool unknown = false;
    for (size_t i = 0; i < l.length(); ++i) {
      const Value& e = l.element(i);
      if (!e.is_known()) {
        // alltrue stops at the first unknown; anytrue may still find a true.
        if (all) return FuncResult::of(Value::unknown(Type::boolean()));
        unknown = true;
        continue;
      }
      if (e.is_null()) {
        if (all) return FuncResult::of(Value::boolean(false));
        continue;
      }
      if (e.as_bool() != all) return FuncResult::of(Value::boolean(!all));
    }
    if (unknown) return FuncResult::of(Value::unknown(Type::boolean()));
    return FuncResult::of(Value::boolean(all));
  };
  return f;
}

Function coalesce_fn() {
  Function f;
  f.description =
      "Returns the first of the given arguments that is neither null nor an empty string, or "
      "raises an error if there is none.";
  f.var_param = param("vals", dyn(), kUnknown | kDynamic | kNull);
  f.type = unified_args_type;
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    for (const Value& a : args) {
      // Terraform ignores a failed conversion, whose nil result then
      // passes for a null.
      ConvertResult c = convert(a, ret);
      if (!c.ok()) continue;
      const Value& v = c.value();
      if (!v.is_known()) return FuncResult::of(Value::unknown(ret));
      if (v.is_null()) continue;
      if (ret == Type::string() && v.as_string().empty()) continue;
      return FuncResult::of(c.take());
    }
    return FuncResult::fail("no non-null, non-empty-string arguments");
  };
  return f;
}

Function index_fn() {
  Function f;
  f.description =
      "Returns the index of the first element of the given list or tuple that equals the given "
      "value, or raises an error if there is none.";
  f.params = {param("list", dyn()), param("value", dyn())};
  f.returns(Type::number());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    const Value& l = args[0];
    if (!l.type()->is_list() && !l.type()->is_tuple()) {
      return FuncResult::fail("argument must be a list or tuple");
    }
    if (l.length() == 0) return FuncResult::fail("cannot search an empty list");
    for (size_t i = 0; i < l.length(); ++i) {
      poll_every(i);
      Value eq = ops::equals(l.element(i), args[1]);
      if (!eq.is_known()) return FuncResult::of(Value::unknown(Type::number()));
      if (eq.unmark().as_bool()) return FuncResult::of(Value::integer(int64_t(i)));
    }
    return FuncResult::fail("item not found");
  };
  return f;
}

Function length_fn() {
  Function f;
  f.description =
      "Returns the number of elements of the given collection or structure, or of characters "
      "(grapheme clusters) of the given string.";
  f.params = {param("value", dyn(), kDynamic | kUnknown | kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t == Type::string() || t->is_dynamic() || t->is_collection() || t->is_structural()) {
      return type_ok(Type::number());
    }
    return type_error("argument must be a string, a collection type, or a structural type");
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    auto [v, marks] = args[0].unmark_with_marks();
    const Type* t = v.type();
    if (t->is_dynamic()) return FuncResult::of(Value::unknown(Type::number()).mark(marks));
    if (t->is_structural()) return FuncResult::of(Value::integer(int64_t(t->size())).mark(marks));
    if (t == Type::string()) {
      if (v.is_known()) return FuncResult::of(strlen_value(v).mark(marks));
      // cty's strlen of an unknown: at least as long as its known prefix.
      int64_t min = int64_t(uni::count_graphemes(value_range(v).string_prefix()));
      Value n = refine(Value::unknown(Type::number()))
                    .not_null()
                    .number_lower_bound(Value::integer(min), true)
                    .new_value();
      return FuncResult::of(n.mark(marks));
    }
    ops::Result r = ops::length(v);
    if (!r.ok()) return FuncResult::fail(r.error);
    return FuncResult::of(r.value.mark(marks));
  };
  return f;
}

// list or map, which Terraform removed in v0.12: any call fails.
Function removed_fn(std::string_view name, std::string_view syntax) {
  std::string msg = "the \"" + std::string(name) +
                    "\" function was deprecated in Terraform v0.12 and is no longer available; "
                    "use " +
                    std::string(syntax) + " syntax to write a literal " + std::string(name);
  Function f;
  f.description = "Removed in Terraform v0.12: write " + std::string(syntax) + " instead.";
  f.var_param = param("vals", dyn(), kUnknown | kDynamic | kNull);
  f.type = [msg](std::span<const Value>) { return type_error(msg); };
  f.impl = [msg](std::span<const Value>, const Type*) { return FuncResult::fail(msg); };
  return f;
}

Function lookup_fn() {
  Function f;
  f.description =
      "Returns the element of the given map (or attribute of the given object) with the given "
      "key, or the default value when there is none (an error without a default).";
  f.params = {param("inputMap", dyn(), kMarked), param("key", Type::string(), kMarked)};
  f.var_param = param("default", dyn(), kUnknown | kDynamic | kNull | kMarked);
  f.type = [](std::span<const Value> args) {
    if (args.size() > 3) {
      return type_error("lookup() takes two or three arguments, got " +
                        std::to_string(args.size()));
    }
    const Type* t = args[0].type();
    if (t->is_object()) {
      if (!args[1].is_known()) return type_ok(dyn());
      std::string key(args[1].unmark().as_string());
      if (auto i = t->find_attr(key)) return type_ok(t->attr_type(*i));
      if (args.size() == 3) return type_ok(args[2].type());
      return type_error("the given object has no attribute " + quote(key), 0);
    }
    if (t->is_map()) {
      if (args.size() == 3 && !convert(args[2], t->element()).ok()) {
        return type_error("the default value must have the same type as the map elements", 2);
      }
      return type_ok(t->element());
    }
    return type_error("lookup() requires a map as the first argument", 0);
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [m, marks] = args[0].unmark_with_marks();
    auto [key, key_marks] = args[1].unmark_with_marks();
    marks.add(key_marks);
    std::string_view k = key.as_string();
    if (m.type()->is_object()) {
      if (const Value* a = m.attr(k)) return FuncResult::of(a->mark(marks));
    } else if (const Value* e = m.map_find(k)) {
      return FuncResult::of(e->mark(marks));
    }
    if (args.size() == 3) {
      // The default keeps its own marks and gains the map's and the key's.
      ConvertResult d = convert(args[2], ret);
      if (!d.ok()) return FuncResult::fail(d.error().message);
      return FuncResult::of(d.value().mark(marks));
    }
    std::string shown = key_marks.has("sensitive") ? "(sensitive value)" : quote(k);
    return FuncResult::fail("lookup failed to find key " + shown);
  };
  return f;
}

Function matchkeys_fn() {
  Function f;
  f.description =
      "Returns the elements of the first list whose counterparts (at the same index) in the "
      "second list are among the elements of the third.";
  f.params = {param("values", Type::list(dyn())), param("keys", Type::list(dyn())),
              param("searchset", Type::list(dyn()))};
  f.type = [](std::span<const Value> args) {
    const Type* tys[] = {args[1].type(), args[2].type()};
    if (!unify_unsafe(tys).type) return type_error("keys and searchset must be of the same type");
    return type_ok(args[0].type());
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& values = args[0];
    const Type* ety = ret->element();
    if (values.length() != args[1].length()) {
      return FuncResult::fail("length of keys and values should be equal");
    }
    const Type* tys[] = {args[1].type(), args[2].type()};
    const Type* common = unify_unsafe(tys).type;
    Value keys = convert(args[1], common).take();
    Value search = convert(args[2], common).take();
    if (search.length() == 0) return FuncResult::of(Value::list(ety, {}));
    if (!values.is_wholly_known() || !keys.is_wholly_known()) {
      return FuncResult::of(Value::unknown(ret));
    }
    std::vector<Value> out;
    for (size_t i = 0; i < keys.length(); ++i) {
      // Quadratic, as the reference: each comparison is a step.
      util::charge_steps(search.length());
      for (size_t j = 0; j < search.length(); ++j) {
        Value eq = ops::equals(keys.element(i), search.element(j));
        // Terraform gives up with an empty list when it cannot tell.
        if (!eq.is_known()) return FuncResult::of(Value::list(ety, {}));
        if (eq.unmark().as_bool()) {
          out.push_back(values.element(i));
          break;
        }
      }
    }
    return FuncResult::of(Value::list(ety, std::move(out)));
  };
  return f;
}

constexpr const char* kNotOne =
    "must be a list, set, or tuple value with either zero or one elements";

Function one_fn() {
  Function f;
  f.description =
      "Returns the only element of the given list, set or tuple, null when it is empty, or "
      "raises an error when it has more than one element.";
  f.params = {param("list", dyn())};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_list() || t->is_set()) return type_ok(t->element());
    if (t->is_tuple() && t->size() == 0) return type_ok(dyn());
    if (t->is_tuple() && t->size() == 1) return type_ok(t->tuple_element(0));
    return type_error(kNotOne, 0);
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& v = args[0];
    if (v.type()->is_tuple()) {
      if (v.length() == 0) return FuncResult::of(Value::null(ret));
      return FuncResult::of(v.element(0));
    }
    // A set whose unknown elements may still coalesce has no known length.
    ops::Result n = ops::length(v);
    if (!n.ok()) return FuncResult::fail(n.error);
    if (!n.value.is_known()) return FuncResult::of(Value::unknown(ret));
    int64_t len = 0;
    std::string err;
    if (!to_int(n.value, len, err)) return FuncResult::fail("invalid collection length: " + err);
    if (len == 0) return FuncResult::of(Value::null(ret));
    if (len == 1) return FuncResult::of(v.element(0));
    return arg_error(kNotOne, 0);
  };
  return f;
}

Function transpose_fn() {
  Function f;
  f.description =
      "Swaps the keys and the values of a map of lists of strings: each string becomes a key "
      "whose value lists, sorted, the keys it appeared under.";
  const Type* mls = Type::map(Type::list(Type::string()));
  f.params = {param("values", mls)};
  f.returns(mls);
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& in = args[0];
    if (!in.is_wholly_known()) return FuncResult::of(Value::unknown(ret));
    std::map<std::string, std::vector<std::string>, std::less<>> out;
    for (size_t i = 0; i < in.length(); ++i) {
      const Value& l = in.map_value(i);
      if (l.is_null()) return FuncResult::fail("input must not contain null list");
      poll_every(i);
      for (size_t j = 0; j < l.length(); ++j) {
        const Value& s = l.element(j);
        if (s.is_null()) return FuncResult::fail("input list must not contain null string");
        out[std::string(s.as_string())].emplace_back(in.map_key(i));
      }
    }
    std::vector<std::pair<std::string, Value>> entries;
    for (auto& [k, keys] : out) {
      std::sort(keys.begin(), keys.end());
      std::vector<Value> vals;
      for (const std::string& key : keys) vals.push_back(Value::string(key));
      entries.emplace_back(k, Value::list(Type::string(), std::move(vals)));
    }
    return FuncResult::of(Value::map(ret->element(), std::move(entries)));
  };
  return f;
}

// --- strings -------------------------------------------------------------------

Function startswith_fn() {
  Function f;
  f.description = "Returns whether the given string starts with the given prefix.";
  f.params = {param("str", Type::string(), kUnknown), param("prefix", Type::string())};
  f.returns(Type::boolean());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view prefix = args[1].as_string();
    if (!args[0].is_known()) {
      // A known prefix of the unknown string may already decide.
      if (prefix.empty()) return FuncResult::of(Value::boolean(true));
      ValueRange range = value_range(args[0]);  // the prefix points into it
      std::string_view known = range.string_prefix();
      if (!known.empty()) {
        if (known.starts_with(prefix)) return FuncResult::of(Value::boolean(true));
        if (known.size() >= prefix.size()) return FuncResult::of(Value::boolean(false));
      }
      return FuncResult::of(Value::unknown(Type::boolean()));
    }
    return FuncResult::of(Value::boolean(args[0].as_string().starts_with(prefix)));
  };
  return f;
}

Function endswith_fn() {
  Function f;
  f.description = "Returns whether the given string ends with the given suffix.";
  f.params = {param("str", Type::string()), param("suffix", Type::string())};
  f.returns(Type::boolean());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    return FuncResult::of(Value::boolean(args[0].as_string().ends_with(args[1].as_string())));
  };
  return f;
}

Function strcontains_fn() {
  Function f;
  f.description = "Returns whether the given string contains the given substring.";
  f.params = {param("str", Type::string()), param("substr", Type::string())};
  f.returns(Type::boolean());
  // Terraform does not refine this one's unknown results.
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view s = args[0].as_string();
    return FuncResult::of(Value::boolean(s.find(args[1].as_string()) != std::string_view::npos));
  };
  return f;
}

// --- templatestring -------------------------------------------------------------

FunctionTable template_scope(const FunctionTable& t, const Function& templatestring);

// The functions a template rendered by templatestring may call: the table
// as it was when templatestring was added (add_templatestring_function),
// turned into the templates' scope at the first call only, since most
// programs never render one.
struct TemplateFunctions {
  FunctionTable snapshot;
  // templatestring's signature, for the failing stand-in the scope has.
  Function shape;
  std::once_flag once;
  FunctionTable scope;

  const FunctionTable& table() {
    std::call_once(once, [this] {
      scope = template_scope(snapshot, shape);
      snapshot = FunctionTable();
    });
    return scope;
  }
};

// A Vm for rendering on this thread. Rendering cannot nest (templatestring
// is a failing stub in the table templates see), but the thread's Vm may
// be busy if an embedder calls in some other way, and then a new one serves.
struct RenderVm {
  Vm vm;
  bool busy = false;
};
thread_local RenderVm t_render;

// The names of the variables [vars] (a map or an object) holds, sorted.
std::vector<std::pair<std::string, Value>> vars_entries(const Value& vars) {
  std::vector<std::pair<std::string, Value>> out;
  const Type* t = vars.type();
  if (t->is_object()) {
    for (size_t i = 0; i < t->size(); ++i) out.emplace_back(t->attr_name(i), vars.attr(i));
  } else {
    for (size_t i = 0; i < vars.length(); ++i) out.emplace_back(vars.map_key(i), vars.map_value(i));
  }
  return out;
}

Function templatestring_fn(std::shared_ptr<TemplateFunctions> fns) {
  Function f;
  f.description =
      "Renders a string defined elsewhere (the template argument must be a reference to it, not "
      "a template written in place) as a template, with the given map or object as its "
      "variables.";
  // Terraform's first parameter takes the expression itself (a cty
  // expression closure): it must be a reference to a string defined
  // elsewhere, not a template written in place; its value is then checked
  // below as Terraform checks it.
  f.params = {param("template", dyn(), kNull | kUnknown | kDynamic | kMarked),
              param("vars", dyn())};
  f.expression_arg = ExpressionArg{
      [](ArgSyntax syntax) -> std::string {
        constexpr std::string_view only =
            "invalid template expression: templatestring is only for rendering templates "
            "retrieved dynamically from elsewhere";
        switch (syntax) {
          case ArgSyntax::TemplateWrap:
            return std::string(only) +
                   "; to treat the inner expression as template syntax, write the reference "
                   "expression directly without any template interpolation syntax";
          case ArgSyntax::LiteralTemplate:
            return std::string(only) +
                   ", and so does not support providing a literal template; consider using a "
                   "template string expression instead";
          case ArgSyntax::Template:
            return std::string(only) +
                   "; to render an inline template, consider using a plain template string "
                   "expression";
          case ArgSyntax::Reference:
            return "";
          case ArgSyntax::Other:
            break;
        }
        return "invalid template expression: must be a direct reference to a single string "
               "from elsewhere, containing valid Terraform template syntax";
      },
      "invalid template expression: "};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [fns](std::span<const Value> args, const Type*) {
    // Terraform drops the template's marks when it is unknown.
    if (!args[0].is_known()) return FuncResult::of(Value::unknown(Type::string()));
    auto [tmpl, marks] = args[0].unmark_with_marks();
    if (tmpl.type() != Type::string() || tmpl.is_null()) {
      return arg_error("invalid template value: a string is required", 0);
    }
    ExprParse p =
        parse_template(make_source("<templatestring argument>", std::string(tmpl.as_string())));
    if (p.has_errors())
      return arg_error("invalid template: " + diagnostics_error(p.diagnostics), 0);

    const Value& vars = args[1];
    if (!vars.type()->is_map() && !vars.type()->is_object()) {
      return arg_error("invalid vars value: must be a map", 1);
    }
    std::vector<std::pair<std::string, Value>> entries = vars_entries(vars);
    for (const auto& [name, v] : entries) {
      if (!valid_identifier(name)) {
        return arg_error("invalid template variable name " + quote(name) +
                             ": must start with a letter, followed by zero or more letters, "
                             "digits, and underscores",
                         1);
      }
    }
    // Checked before rendering, for a clearer message than HCL's.
    for (const Traversal& tr : variables(*p.expr, *p.source)) {
      std::string_view root = tr.root_name();
      bool found = std::any_of(entries.begin(), entries.end(),
                               [&](const auto& e) { return e.first == root; });
      if (!found) {
        return arg_error("vars map does not contain key " + quote(root) + ", referenced at " +
                             range_string(tr.steps[0].range),
                         1);
      }
    }

    EvalContext ctx;
    for (auto& [name, v] : entries) ctx.set(name, std::move(v));
    // The scope lives as long as the function that holds [fns].
    ctx.set_functions(std::shared_ptr<const FunctionTable>(fns, &fns->table()));
    CompileResult c = compile_expression(*p.expr, p.source);
    EvalResult r;
    if (has_errors(c.diagnostics)) {
      r.diagnostics = std::move(c.diagnostics);
    } else if (t_render.busy) {
      Vm vm;
      r = vm.run(*c.program, ctx);
    } else {
      struct Busy {
        Busy() { t_render.busy = true; }
        ~Busy() { t_render.busy = false; }
      } busy;
      r = t_render.vm.run(*c.program, ctx);
    }
    if (r.has_errors()) return FuncResult::fail(diagnostics_error(r.diagnostics));
    ConvertResult s = convert(r.value, Type::string());
    if (!s.ok()) return FuncResult::fail("invalid template result: " + s.error().message);
    return FuncResult::of(s.value().mark(marks));
  };
  return f;
}

// A function with [f]'s parameters whose every call fails with [message].
Function failing_like(const Function& f, std::string message) {
  Function stub;
  stub.description = f.description;
  stub.params = f.params;
  stub.var_param = f.var_param;
  stub.type = [message](std::span<const Value>) { return type_error(message); };
  stub.impl = [message](std::span<const Value>, const Type*) { return FuncResult::fail(message); };
  return stub;
}

// [t] as templates rendered by templatestring see it (Terraform's
// makeRenderTemplateFunc without filesystem access).
FunctionTable template_scope(const FunctionTable& t, const Function& templatestring) {
  static constexpr std::string_view kTemplateFns[] = {"templatefile", "templatestring"};
  static constexpr std::string_view kFilesystemFns[] = {
      "file",    "fileexists", "fileset",    "filebase64", "filebase64sha256", "filebase64sha512",
      "filemd5", "filesha1",   "filesha256", "filesha512", "templatefile"};
  FunctionTable scope = t;
  auto member = [](std::span<const std::string_view> names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<std::string_view> names = t.names();
  names.push_back("templatestring");
  for (std::string_view full : names) {
    std::string_view name = full;
    if (name.starts_with("core::")) name.remove_prefix(6);
    const Function* f = name == "templatestring" ? &templatestring : t.find(full);
    if (!f) continue;
    if (member(kTemplateFns, name)) {
      add(scope, std::string(full),
          failing_like(*f, "cannot recursively call " + std::string(name) +
                               " from inside another template function"));
    } else if (member(kFilesystemFns, name)) {
      add(scope, std::string(full),
          failing_like(*f, "cannot use filesystem access functions like " + std::string(name) +
                               " in templatestring templates; consider passing the function "
                               "result as a template variable instead"));
    }
  }
  return scope;
}

}  // namespace

void add_terraform_functions(FunctionTable& t, const LibraryOptions& /*opts*/) {
  add_terraform_conversion_functions(t);
  add_terraform_regex_functions(t);
  add(t, "alltrue", bool_list_fn(true));
  add(t, "anytrue", bool_list_fn(false));
  add(t, "coalesce", coalesce_fn());
  add(t, "endswith", endswith_fn());
  add(t, "index", index_fn());
  add(t, "length", length_fn());
  add(t, "list", removed_fn("list", "tolist([ ... ])"));
  add(t, "lookup", lookup_fn());
  add(t, "map", removed_fn("map", "tomap({ ... })"));
  add(t, "matchkeys", matchkeys_fn());
  add(t, "one", one_fn());
  add(t, "startswith", startswith_fn());
  add(t, "strcontains", strcontains_fn());
  add(t, "sum", sum_fn());
  add(t, "transpose", transpose_fn());
  // go-cty's strlen is not in Terraform's table (length counts strings).
  t.remove("strlen");
}

void add_templatestring_function(FunctionTable& t) {
  auto fns = std::make_shared<TemplateFunctions>();
  Function f = templatestring_fn(fns);
  fns->snapshot = t;
  fns->shape.description = f.description;
  fns->shape.params = f.params;
  fns->shape.var_param = f.var_param;
  add(t, "templatestring", std::move(f));
}

}  // namespace hclvm::funcs

// Type conversion functions, as go-cty's stdlib MakeToFunc makes them:
// tobool, tolist, tomap, tonumber, toset, tostring. Each converts its
// argument with the unsafe conversions (convert.h) and words the failures
// for an explicit conversion.
//
// Terraform's versions of them (internal/lang/funcs/conversion.go) also
// take unknowns, keep marks where they are inside the value, and do not
// quote a sensitive value in their errors; with them come Terraform's
// type, sensitive, nonsensitive and issensitive, which read and write the
// "sensitive" mark.
#include <string>
#include <string_view>

#include "funcs/funcs.h"
#include "util/meter.h"
#include "util/stack.h"
#include "value/convert.h"

namespace hclvm::funcs {

namespace {

// The type check both versions of the to* functions share: [want] when
// [got] converts to it (perhaps failing for some values), else the error
// for an explicit conversion.
TypeResult to_type(const Type* got, const Type* want) {
  if (got == want || get_conversion_unsafe(got, want)) return type_ok(want);
  if (got->is_tuple() && want->is_tuple()) {
    return type_error("incompatible tuple type for conversion: " + mismatch_message(got, want), 0);
  }
  if (got->is_object() && want->is_object()) {
    return type_error("incompatible object type for conversion: " + mismatch_message(got, want), 0);
  }
  return type_error(
      "cannot convert " + got->friendly_name() + " to " + want->friendly_name_for_constraint(), 0);
}

constexpr std::string_view kSensitive = "sensitive";

// The error for [in], which did not convert to [want], worded for an
// explicit conversion; with [redact], Terraform's: a value marked
// sensitive anywhere is not quoted.
FuncResult conversion_error(const Value& in, const Type* want, bool redact) {
  auto [v, marks] = in.unmark_deep();
  const Type* got = v.type();
  std::string to = want->friendly_name_for_constraint();
  if (redact && marks.has(kSensitive)) {
    return arg_error("cannot convert this sensitive " + got->friendly_name() + " to " + to, 0);
  }
  std::string what = v.is_null() ? "string" : "";
  if (got == Type::string() && want == Type::boolean()) {
    if (!v.is_null()) what = quote(v.as_string());
    return arg_error(
        "cannot convert " + what + " to bool; only the strings \"true\" or \"false\" are allowed",
        0);
  }
  if (got == Type::string() && want == Type::number()) {
    if (!v.is_null()) what = quote(v.as_string());
    return arg_error("cannot convert " + what +
                         " to number; given string must be a decimal representation of a number",
                     0);
  }
  return arg_error("cannot convert " + got->friendly_name() + " to " + to, 0);
}

// cty's MakeToFunc([want]).
Function make_to_fn(const Type* want) {
  Function f;
  f.description = "Converts the given value to " + want->friendly_name() +
                  ", or raises an error if that conversion is impossible.";
  // The parameter is dynamic so that every value reaches the type function,
  // whose messages are about an explicit conversion.
  f.params = {param("v", Type::dynamic(), kNull | kMarked | kDynamic)};
  f.type = [want](std::span<const Value> args) { return to_type(args[0].type(), want); };
  f.impl = [want](std::span<const Value> args, const Type* ret) {
    ConvertResult r = convert(args[0], ret);
    if (r.ok()) return FuncResult::of(r.take());
    return conversion_error(args[0], want, /*redact=*/false);
  };
  return f;
}

// Terraform's MakeToFunc([want]).
Function terraform_to_fn(const Type* want) {
  Function f;
  f.description = "Converts the given value to " + want->friendly_name() +
                  ", or raises an error if that conversion is impossible.";
  f.params = {param("v", Type::dynamic(), kNull | kMarked | kDynamic | kUnknown)};
  f.type = [want](std::span<const Value> args) { return to_type(args[0].type(), want); };
  f.impl = [want](std::span<const Value> args, const Type* ret) {
    const Value& in = args[0];
    // Only the top-level marks: an unknown has nothing inside.
    if (!in.is_known()) return FuncResult::of(Value::unknown(ret).mark(in.marks()));
    ConvertResult r = convert(in, ret);
    if (r.ok()) return FuncResult::of(r.take());
    return conversion_error(in, want, /*redact=*/true);
  };
  return f;
}

// Terraform's TypeString: [t] written as a type constraint, objects and
// tuples over several lines indented by four spaces per level, and a
// collection of them with one more level around its element. The text is
// counted by [meter] as it grows: indentation makes it quadratic in the
// nesting, and a type that repeats a shared part writes it every time.
void write_type(std::string& out, const Type* t, int indent, util::TextMeter& meter) {
  meter.check();
  if (t->is_collection() || t->is_structural()) util::enter_level();
  auto pad = [&out](int level) { out.append(size_t(level) * 4, ' '); };
  if (t->is_object()) {
    if (t->size() == 0) {
      out += "object({})";
      return;
    }
    out += "object({\n";
    for (size_t i = 0; i < t->size(); ++i) {
      pad(indent + 1);
      out += t->attr_name(i);
      out += ": ";
      write_type(out, t->attr_type(i), indent + 1, meter);
      out += ",\n";
    }
    pad(indent);
    out += "})";
  } else if (t->is_tuple()) {
    if (t->size() == 0) {
      out += "tuple([])";
      return;
    }
    out += "tuple([\n";
    for (size_t i = 0; i < t->size(); ++i) {
      pad(indent + 1);
      write_type(out, t->tuple_element(i), indent + 1, meter);
      out += ",\n";
    }
    pad(indent);
    out += "])";
  } else if (t->is_collection()) {
    out += t->is_list() ? "list(" : t->is_map() ? "map(" : "set(";
    const Type* e = t->element();
    bool complex = e->is_object() || e->is_tuple();
    if (complex) {
      out += "\n";
      pad(indent + 1);
      write_type(out, e, indent + 1, meter);
      out += ",\n";
      pad(indent);
    } else {
      write_type(out, e, indent, meter);
    }
    out += ")";
  } else {
    out += t->friendly_name();
  }
}

// Terraform's type() (of terraform console), as the versions before its
// type capsule wrote it: the argument's type as a string.
Function type_fn() {
  Function f;
  f.description = "Returns the type of the given value, written as a type constraint.";
  f.params = {param("value", Type::dynamic(), kDynamic | kUnknown | kNull)};
  f.returns(Type::string());
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string out = util::run_deep([&](const util::StackBudget&) {
      std::string text;
      util::TextMeter meter(text, util::TextMeter::Use::StringValue);
      write_type(text, args[0].type(), 0, meter);
      return text;
    });
    return FuncResult::of(Value::string(out));
  };
  return f;
}

// A parameter that takes any value as it is.
Param any_value(std::string name) {
  return param(std::move(name), Type::dynamic(), kNull | kUnknown | kDynamic | kMarked);
}

// The type of the argument: what sensitive and nonsensitive return.
TypeResult same_type(std::span<const Value> args) { return type_ok(args[0].type()); }

Function sensitive_fn() {
  Function f;
  f.description = "Returns the given value marked as sensitive.";
  f.params = {any_value("value")};
  f.type = same_type;
  f.impl = [](std::span<const Value> args, const Type*) {
    return FuncResult::of(args[0].mark(kSensitive));
  };
  return f;
}

Function nonsensitive_fn() {
  Function f;
  f.description =
      "Returns the given value without its sensitive mark (marks inside it stay where they are).";
  f.params = {any_value("value")};
  f.type = same_type;
  f.impl = [](std::span<const Value> args, const Type*) {
    auto [v, marks] = args[0].unmark_with_marks();
    Marks kept;
    for (std::string_view label : marks.labels()) {
      if (label != kSensitive) kept.add(label);
    }
    return FuncResult::of(v.mark(kept));
  };
  return f;
}

Function issensitive_fn() {
  Function f;
  f.description =
      "Returns whether the given value is marked as sensitive (unknown when it is unknown and "
      "not marked).";
  f.params = {any_value("value")};
  f.returns(Type::boolean());
  f.impl = [](std::span<const Value> args, const Type*) {
    const Value& v = args[0];
    if (v.marks().has(kSensitive)) return FuncResult::of(Value::boolean(true));
    if (!v.is_known()) return FuncResult::of(Value::unknown(Type::boolean()));
    return FuncResult::of(Value::boolean(false));
  };
  return f;
}

}  // namespace

void add_conversion_functions(FunctionTable& t) {
  add(t, "tobool", make_to_fn(Type::boolean()));
  add(t, "tolist", make_to_fn(Type::list(Type::dynamic())));
  add(t, "tomap", make_to_fn(Type::map(Type::dynamic())));
  add(t, "tonumber", make_to_fn(Type::number()));
  add(t, "toset", make_to_fn(Type::set(Type::dynamic())));
  add(t, "tostring", make_to_fn(Type::string()));
}

void add_terraform_conversion_functions(FunctionTable& t) {
  add(t, "tobool", terraform_to_fn(Type::boolean()));
  add(t, "tolist", terraform_to_fn(Type::list(Type::dynamic())));
  add(t, "tomap", terraform_to_fn(Type::map(Type::dynamic())));
  add(t, "tonumber", terraform_to_fn(Type::number()));
  add(t, "toset", terraform_to_fn(Type::set(Type::dynamic())));
  add(t, "tostring", terraform_to_fn(Type::string()));
  add(t, "type", type_fn());
  add(t, "sensitive", sensitive_fn());
  add(t, "nonsensitive", nonsensitive_fn());
  add(t, "issensitive", issensitive_fn());
}

}  // namespace hclvm::funcs

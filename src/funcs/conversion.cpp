// Type conversion functions, as go-cty's stdlib MakeToFunc makes them:
// tobool, tolist, tomap, tonumber, toset, tostring. Each converts its
// argument with the unsafe conversions (convert.h) and words the failures
// for an explicit conversion.
#include <string>

#include "funcs/funcs.h"
#include "value/convert.h"

namespace hclvm::funcs {

namespace {

// cty's MakeToFunc([want]).
Function make_to_fn(const Type* want) {
  Function f;
  f.description = "Converts the given value to " + want->friendly_name() +
                  ", or raises an error if that conversion is impossible.";
  // The parameter is dynamic so that every value reaches the type function,
  // whose messages are about an explicit conversion.
  f.params = {param("v", Type::dynamic(), kNull | kMarked | kDynamic)};
  f.type = [want](std::span<const Value> args) {
    const Type* got = args[0].type();
    if (got == want) return type_ok(want);
    if (!get_conversion_unsafe(got, want)) {
      if (got->is_tuple() && want->is_tuple()) {
        return type_error("incompatible tuple type for conversion: " + mismatch_message(got, want),
                          0);
      }
      if (got->is_object() && want->is_object()) {
        return type_error("incompatible object type for conversion: " + mismatch_message(got, want),
                          0);
      }
      return type_error(
          "cannot convert " + got->friendly_name() + " to " + want->friendly_name_for_constraint(),
          0);
    }
    return type_ok(want);
  };
  f.impl = [want](std::span<const Value> args, const Type* ret) {
    ConvertResult r = convert(args[0], ret);
    if (r.ok()) return FuncResult::of(r.take());
    Value v = args[0].unmark_deep().first;
    const Type* got = v.type();
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
    return arg_error(
        "cannot convert " + got->friendly_name() + " to " + want->friendly_name_for_constraint(),
        0);
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

}  // namespace hclvm::funcs

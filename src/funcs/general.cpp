// General functions: go-cty's coalesce, and the declarations of hcl's
// ext/tryfunc try and can, whose calls the compiler lowers to code that
// evaluates the argument expressions itself (Function::special).
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "value/convert.h"

namespace hclvm::funcs {

namespace {

Function coalesce_fn() {
  Function f;
  f.description =
      "Returns the first of the given arguments that isn't null, or raises an error if there "
      "are no non-null arguments.";
  f.var_param = param("vals", Type::dynamic(), kUnknown | kDynamic | kNull);
  f.type = unified_args_type;
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    for (const Value& a : args) {
      if (!a.is_known()) return FuncResult::of(Value::unknown(ret));
      if (a.is_null()) continue;
      ConvertResult r = convert(a, ret);
      if (!r.ok()) return FuncResult::fail(r.error().message);
      return FuncResult::of(r.take());
    }
    return FuncResult::fail("no non-null arguments");
  };
  return f;
}

// try or can: arguments are expressions, evaluated by the VM.
Function special_fn(Function::Special s) {
  Function f;
  f.special = s;
  Param p = param(s == Function::Special::Try ? "expressions" : "expression", Type::dynamic(),
                  kNull | kUnknown | kDynamic | kMarked);
  if (s == Function::Special::Try) {
    f.description =
        "Evaluates each of the given expressions in turn and returns the result of the first "
        "one that succeeds without errors; an error if none does.";
    f.var_param = p;
    f.type = [](std::span<const Value>) { return type_ok(Type::dynamic()); };
  } else {
    f.description =
        "Evaluates the given expression and returns whether it succeeded without errors.";
    f.params = {p};
    f.returns(Type::boolean());
  }
  return f;
}

}  // namespace

void add_general_functions(FunctionTable& t) {
  add(t, "coalesce", coalesce_fn());
  add(t, "try", special_fn(Function::Special::Try));
  add(t, "can", special_fn(Function::Special::Can));
}

}  // namespace hclvm::funcs

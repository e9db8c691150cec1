// User-defined functions: functions declared in the configuration itself,
// as the reference's ext/userfunc reads them.
//
//   function "add_one" {
//     params         = [n]
//     variadic_param = rest      # optional: the extra arguments, as a tuple
//     result         = n + 1
//   }
//
//   hclvm::UserFunctionsResult r = hclvm::decode_user_functions(body, "function", provider);
//   auto table = std::make_shared<hclvm::FunctionTable>(hclvm::default_functions());
//   r.add_to(*table);                      // then ctx.set_functions(table)
//   r.remain.content(app_schema);          // the rest of the body, for the application
//
// Each function takes its parameters with any value but null (cty's
// DynamicPseudoType parameters): an unknown argument makes the result
// unknown, of the type the result expression has for it. A call
// evaluates `result` in a new context whose variables are the parameters
// and whose parent is the base context the provider gives; errors there
// make the call fail with the reference's text for them
// ("file:3,12-13: Invalid operand; ...", ", and N other diagnostic(s)").
//
// The functions are immutable and may be called from any number of threads
// at once, and from inside one another (a function's result may call the
// others, or itself, through the base context's function table). Each
// nested call evaluates on a Vm of its own, taken from a per-thread pool.
// Calls nested more than kMaxUserFunctionDepth deep fail: the reference
// has no limit and overflows its stack on a function that calls itself
// without end (which is any self-call in a conditional, as HCL evaluates
// both results of `?:`).
#pragma once

#include <hclvm/body.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace hclvm {

// Gives the base context of a set of user functions: their results see its
// variables and functions (and its parents'). Called at the first call of
// any function of the set, not when decoding, so that the context may hold
// the functions themselves. A null result is allowed: then results see
// only their parameters and may call no function, and the provider is
// asked again at the next call (as the reference asks again); the first
// non-null context is kept for every later call.
//
// The functions own what the provider returns for as long as they live.
// A context whose function table holds these very functions would own
// them in turn, a reference cycle that is never freed: keep such a
// context elsewhere and return a non-owning pointer to it,
// `std::shared_ptr<const EvalContext>(std::shared_ptr<void>(), &ctx)`,
// valid as long as any of the functions may be called.
using UserFunctionContext = std::function<std::shared_ptr<const EvalContext>()>;

// How deep calls of user functions may nest (on one thread) before a call
// fails ("calls of user-defined functions nested too deeply") instead of
// overflowing the stack. A call also fails when the calls below the
// outermost one use more than 512 KiB of stack (which builds without
// optimization may reach first; optimized, 100 levels take about 330 KiB).
inline constexpr size_t kMaxUserFunctionDepth = 100;

struct UserFunctionsResult {
  // The functions by name; where two blocks have one name, the later wins.
  std::map<std::string, std::shared_ptr<const Function>, std::less<>> functions;
  Body remain;  // what the schema of the function blocks did not take
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
  // Adds the functions to [table] (replacing any of the same name).
  void add_to(FunctionTable& table) const;
};

// Reads the blocks of type [block_type] in [body], each with one label (the
// function's name), as function declarations (userfunc.DecodeUserFunctions).
// A block in error is left out, and so is every function when the blocks
// themselves are in error (a missing or extra label).
UserFunctionsResult decode_user_functions(const Body& body, std::string_view block_type,
                                          UserFunctionContext context = nullptr);

}  // namespace hclvm

// Functions callable from expressions, as go-cty's function package defines
// them: typed parameters (with what each accepts: null, unknown, dynamic
// type, marks), an optional variadic parameter, a rule that computes the
// return type from the arguments, and an implementation. Function::call
// applies cty's calling convention exactly (Function.Call): marks are
// removed from arguments that do not accept them and put on the result,
// an unknown argument that is not accepted makes the result unknown of the
// return type, the result is refined as cty refines it. Argument counts,
// conversions to the parameter types and the diagnostics about them are
// the evaluator's job (hclsyntax's FunctionCallExpr), which reads the same
// declarations.
//
// A FunctionTable maps names (namespaced names keep their "::") to shared,
// immutable functions; tables are cheap to copy and safe to share between
// threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hclvm/type.h"
#include "hclvm/value.h"

namespace hclvm {

struct Param {
  std::string name;
  const Type* type = nullptr;  // may be or contain the dynamic pseudo-type
  bool allow_null = false;
  bool allow_unknown = false;
  bool allow_dynamic_type = false;
  bool allow_marked = false;
};

// What a function reports instead of a result: a message and, when one
// argument is to blame (cty's function.ArgError), its index.
struct FuncError {
  std::string message;
  int arg = -1;  // index into the arguments, -1 when none
};

// A value or a FuncError.
struct FuncResult {
  Value value;
  std::optional<FuncError> error;
  bool ok() const { return !error; }
  static FuncResult of(Value v) { return {std::move(v), std::nullopt}; }
  static FuncResult fail(std::string message, int arg = -1) {
    return {Value(), FuncError{std::move(message), arg}};
  }
};

// A type or a FuncError.
struct TypeResult {
  const Type* type = nullptr;
  std::optional<FuncError> error;
  // cty's dynTypedArgs: an argument of the dynamic pseudo-type (an unknown
  // or null of no particular type) met a parameter that does not accept
  // one, so the type is the dynamic pseudo-type and the function is not
  // called at all (call() returns cty.DynamicVal).
  bool dynamic_args = false;
  bool ok() const { return !error; }
};

// How a call's first argument is written, for a function that takes it as
// an expression rather than a value (Terraform's templatestring, through
// cty's expression closures), in hclsyntax's terms.
enum class ArgSyntax : uint8_t {
  Other,            // any other expression
  TemplateWrap,     // "${x}": an interpolation alone
  LiteralTemplate,  // "text" or a heredoc without template sequences
  Template,         // a template with sequences
  Reference,        // a traversal from a name (a.b, a[i], a[*].b, a.b[i].c ...)
};

// A first parameter taken as an expression: [check] sees how the argument
// is written before anything is evaluated; a non-empty message fails the
// call as an error of that argument, which is then not evaluated (its
// diagnostics are dropped). Otherwise the argument is evaluated when the
// function runs: its diagnostics are dropped unless there are errors, which
// fail the call as "[eval_prefix]<the errors as hcl.Diagnostics.Error()>".
struct ExpressionArg {
  std::function<std::string(ArgSyntax)> check;
  std::string eval_prefix;
};

class Function {
 public:
  // The return type for [args] (already converted to the parameter types;
  // unknowns where the parameter allows them, else with their type only).
  using TypeFn = std::function<TypeResult(std::span<const Value> args)>;
  // The result for [args], of type [ret].
  using ImplFn = std::function<FuncResult(std::span<const Value> args, const Type* ret)>;

  std::string description;
  std::vector<Param> params;
  std::optional<Param> var_param;
  TypeFn type;
  ImplFn impl;
  // cty's RefineResult: an unknown result is refined as not null.
  bool result_not_null = false;
  // ext/tryfunc's try and can take their arguments as unevaluated
  // expressions; the compiler lowers calls to a table entry marked so
  // into code that evaluates the arguments one by one and keeps or drops
  // their diagnostics (impl is not called).
  enum class Special : uint8_t { None, Try, Can };
  Special special = Special::None;
  // Set when the first parameter is taken as an expression (see
  // ExpressionArg); its type is then the type of the value the expression
  // gives.
  std::optional<ExpressionArg> expression_arg;

  // The return type when it does not depend on the arguments (set by
  // returns()): calls with plain arguments then skip the type function.
  const Type* fixed_type = nullptr;
  // Whether a call may give a different result for the same arguments
  // (timestamp, uuid, bcrypt): such calls are never folded or cached, and
  // an embedder can leave them out (LibraryOptions::impure).
  bool impure = false;
  // Whether a call reads what lies outside its arguments and can change
  // between two calls with the same ones, and cannot be checked again: the
  // environment, the home directory, a directory's listing (env,
  // pathexpand, fileset). Like an impure call, it makes what
  // called it unrepeatable for a host that reuses results
  // (config::reevaluate). The functions that read files by name (file,
  // templatefile, filemd5...) are not marked: they note each file they read
  // instead, for the host to check.
  bool reads_outside = false;

  // A function whose return type is always [t].
  static TypeFn static_return(const Type* t);
  // Declares that this function always returns [t].
  void returns(const Type* t) {
    type = static_return(t);
    fixed_type = t;
  }

  // cty's Function.ReturnTypeForValues.
  TypeResult return_type(std::span<const Value> args) const;
  // cty's Function.Call: [args] already checked for count and converted.
  FuncResult call(std::span<const Value> args) const { return call(args, nullptr); }
  // The same, but where the implementation would run, [instead] (when not
  // null) is the result: an expression argument's failure (see
  // ExpressionArg), which cty's checks of the other arguments come before.
  FuncResult call(std::span<const Value> args, const FuncError* instead) const;
};

class FunctionTable {
 public:
  void add(std::string name, std::shared_ptr<const Function> f);
  // Makes [name] call what [existing] calls; false when there is no [existing].
  bool alias(std::string name, std::string_view existing);
  void remove(std::string_view name);
  const Function* find(std::string_view name) const;
  // Names in order, for listing and for did-you-mean suggestions. Each
  // view stays valid while its entry is in the table (adding others does
  // not move it).
  std::vector<std::string_view> names() const;
  // Calls [f] with each name (a std::string_view), in order, without
  // making a list of them.
  template <class F>
  void each_name(F&& f) const {
    for (const auto& entry : fns_) f(std::string_view(entry.first));
  }
  size_t size() const { return fns_.size(); }
  // Names what the table holds: a number no other table, and no earlier
  // state of this one, ever had (a copy, a move and every change take a
  // new one). A Vm keeps the functions it found while it stays the same.
  uint64_t serial() const { return serial_.value; }

 private:
  struct Serial {
    Serial() : value(next()) {}
    Serial(const Serial&) : value(next()) {}
    Serial(Serial&& o) noexcept : value(next()) { o.value = next(); }
    Serial& operator=(const Serial&) {
      value = next();
      return *this;
    }
    Serial& operator=(Serial&& o) noexcept {
      value = next();
      o.value = next();
      return *this;
    }
    static uint64_t next();
    uint64_t value;
  };
  std::map<std::string, std::shared_ptr<const Function>, std::less<>> fns_;
  Serial serial_;
};

// The function library (default_functions, standard_functions) is in
// <hclvm/functions.h>.

}  // namespace hclvm

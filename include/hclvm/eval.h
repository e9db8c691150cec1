// Evaluating expressions: compile a parsed expression once into an
// immutable Program (bytecode, constants, names, source map), then run it
// as often as needed, from any number of threads, each with its own Vm,
// against an EvalContext that supplies variables and functions.
//
//   hclvm::ExprParse p = hclvm::parse_expression(src);
//   auto prog = hclvm::compile_expression(*p.expr, p.source);
//   hclvm::EvalContext ctx;
//   ctx.set("name", hclvm::Value::string("web"));
//   hclvm::Vm vm;
//   hclvm::EvalResult r = vm.run(*prog.program, ctx);
//
// Results and diagnostics are the reference's (hclsyntax's Expression.Value)
// for every expression kind.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hclvm/ast.h"
#include "hclvm/diagnostic.h"
#include "hclvm/function.h"
#include "hclvm/limits.h"
#include "hclvm/syntax.h"
#include "hclvm/value.h"

namespace hclvm {

// Variables and functions for an evaluation, with nested scopes: lookups
// walk from a child to its parents (hcl.EvalContext). A context must
// outlive its children and is not modified while an evaluation reads it.
class EvalContext {
 public:
  EvalContext();
  explicit EvalContext(const EvalContext* parent);
  EvalContext(const EvalContext& other);
  EvalContext& operator=(const EvalContext& other);

  // The variables of this context itself, sorted by name.
  using Variables = std::vector<std::pair<std::string, Value>>;

  void set(std::string name, Value v);
  // Makes room for [n] variables (a context is often filled at once).
  void reserve(size_t n) { vars_.reserve(n); }
  // The variable [name] here or in a parent, or null.
  const Value* lookup(std::string_view name) const;
  // Sets the function table. A Vm keeps the functions it found in a table
  // from run to run while the table is unchanged (FunctionTable::serial),
  // so a table may change between runs, but not while a run uses it.
  void set_functions(std::shared_ptr<const FunctionTable> fns);
  // The nearest function table, or null when no context has one.
  const FunctionTable* functions() const;
  // This context's own table (set_functions), or null: only a context
  // given functions itself names them in "Did you mean" suggestions, as
  // the reference lists the functions of the context it was given only.
  const FunctionTable* own_functions() const { return fns_.get(); }
  const EvalContext* parent() const { return parent_; }
  const Variables& variables() const { return vars_; }
  // Whether this context has variables at all (the reference's Variables
  // map is not nil; default yes). A context without them is skipped by
  // look-ups, and when no context of a chain has variables, a variable
  // outside every `for` is "Variables not allowed" rather than "Unknown
  // variable".
  void set_variables_allowed(bool allowed);
  bool variables_allowed() const { return variables_allowed_; }
  // Changes whenever this context changes (and differs between any two
  // contexts ever made), so a Vm can keep what it looked up here from one
  // run to the next while the stamps of the context and its parents stay.
  uint64_t stamp() const { return stamp_; }

 private:
  const EvalContext* parent_ = nullptr;
  uint64_t stamp_;
  bool variables_allowed_ = true;
  // Sorted by name: a few variables each, most contexts, so a vector
  // costs one allocation where a tree costs one per variable.
  Variables vars_;
  std::shared_ptr<const FunctionTable> fns_;
};

// A compiled expression: immutable, shareable between threads.
class Program;

struct CompileResult {
  std::shared_ptr<const Program> program;
  Diagnostics diagnostics;  // errors found while compiling (constant folding)
};

// Compiles [expr], parsed from [source] (kept alive by the program for
// diagnostics).
CompileResult compile_expression(const ast::Expr& expr, std::shared_ptr<const Source> source);

struct EvalResult {
  Value value;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Per-thread evaluation state; reuses its memory from run to run. Each
// run is bounded by the Vm's limits (limits.h; the defaults unless set).
class Vm {
 public:
  Vm();
  explicit Vm(const Limits& limits);
  ~Vm();
  Vm(const Vm&) = delete;
  Vm& operator=(const Vm&) = delete;

  void set_limits(const Limits& limits);
  const Limits& limits() const;
  // What the last run consumed, and whether it hit a limit.
  const EvalStats& stats() const;

  EvalResult run(const Program& program, const EvalContext& ctx);
  // Runs [program] without a context (the reference's Value(nil)): any
  // variable is "Variables not allowed" and any call "Function calls not
  // allowed", except inside `for` expressions, whose variables exist.
  EvalResult run(const Program& program, const EvalContext* ctx);

 private:
  struct State;
  // run() past a constant result (which it returns itself).
  EvalResult run_program(const Program& program, const EvalContext& ctx);
  std::unique_ptr<State> state_;
};

// Prints [program] as readable bytecode (hclvm disasm).
std::string disassemble(const Program& program);

// Sets one variable of [ctx] per property of the JSON object [json], each
// of the type its JSON implies (as `hclvm eval --vars-file` does). Returns
// the error ("" on success); on error [ctx] is unchanged.
std::string set_variables_from_json(EvalContext& ctx, std::string_view json);

}  // namespace hclvm

// Static analysis of expressions: what an application can learn from the
// syntax of an expression without evaluating it, with the reference's
// answers and diagnostics (the hcl and hclsyntax packages):
//
//   variables(expr, src)               hclsyntax.Variables
//   abs_traversal_for_expr(expr, src)  hcl.AbsTraversalForExpr   `a.b[0]`
//   rel_traversal_for_expr(expr, src)  hcl.RelTraversalForExpr   `a.b[0]` read as `.a.b[0]`
//   expr_as_keyword(expr)              hcl.ExprAsKeyword         `allow`
//   expr_list(expr, src)               hcl.ExprList              `[a, b]`
//   expr_map(expr, src)                hcl.ExprMap               `{k = v}`
//   expr_call(expr, src)               hcl.ExprCall              `f(a, b)`
//
//   hclvm::ExprParse p = hclvm::parse_expression(src);
//   for (const hclvm::Traversal& t : hclvm::variables(*p.expr, *p.source))
//     std::cout << t.to_string() << "\n";                 // "var.region", "local.tags[\"env\"]"
//
// Traversals own their names and keys. The expressions that expr_list,
// expr_map and expr_call return, and the names of expr_as_keyword and
// StaticCall, point into the tree: they live as long as its ParseResult.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hclvm/ast.h"
#include "hclvm/diagnostic.h"
#include "hclvm/syntax.h"
#include "hclvm/value.h"

namespace hclvm {

// One step of a traversal (hcl.TraverseRoot, TraverseAttr, TraverseIndex).
struct TraversalStep {
  enum class Kind : uint8_t { Root, Attr, Index };
  Kind kind = Kind::Root;
  std::string name;  // Root, Attr
  Value key;         // Index: the constant key (null for the other kinds)
  Range range;       // `a`, `.b`, `[0]`
};

// A static traversal (hcl.Traversal): absolute when the first step is the
// Root, relative when it is an Attr or an Index.
struct Traversal {
  std::vector<TraversalStep> steps;

  bool empty() const { return steps.empty(); }
  bool is_relative() const { return !steps.empty() && steps[0].kind != TraversalStep::Kind::Root; }
  // The root name of an absolute traversal, or "".
  std::string_view root_name() const;
  // The range from the first step to the last (hcl.Traversal.SourceRange).
  Range range() const;
  // The traversal written as hclwrite's TokensForTraversal writes it:
  // `a.b[0]["k"]`, `.b[true]`; keys are HCL literals (an unknown key, which
  // only a tree with syntax errors holds, is written `?`).
  std::string to_string() const;
};

// Returns the traversal that parsed [steps] of [src] stand for (a
// ScopeTraversalExpr's steps, or what parse_traversal_abs/_rel return).
Traversal make_traversal(ast::List<ast::Traverser> steps, const Source& src);
// The same without the steps' ranges (left empty), for a reader of names
// and keys only: a range costs a line and a column from the source.
Traversal make_traversal_names(ast::List<ast::Traverser> steps);

// The variables [expr] reads: every ScopeTraversalExpr under it, in the
// reference's walk order, except those whose root is a symbol of a `for`
// inside [expr] around them (the key, value and condition of a `for` see its
// symbols; its collection does not). Keys of objects that stand for their
// own name (`{a = 1}`) read nothing; splat items are no variables.
std::vector<Traversal> variables(const ast::Expr& expr, const Source& src);

// The nodes behind variables([expr]), in the same order: for callers that
// resolve the roots themselves. Does not recurse (any depth is fine).
std::vector<const ast::ScopeTraversalExpr*> variable_nodes(const ast::Expr& expr);

struct TraversalResult {
  Traversal traversal;  // empty when there are errors
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns [expr] read as an absolute traversal: a variable with attribute
// and constant index steps; `null`, `true` and `false` read as variables of
// those names; an object key unless parenthesized. Anything else (also
// parentheses, templates, splats, variable keys) gets "Invalid
// expression" on [expr]'s range.
TraversalResult abs_traversal_for_expr(const ast::Expr& expr, const Source& src);

// Returns what abs_traversal_for_expr does, with the root as an Attr step.
TraversalResult rel_traversal_for_expr(const ast::Expr& expr, const Source& src);

// Returns the name of [expr] when it is a lone identifier (or `null`,
// `true`, `false`, or an object key that is one of those), else "".
std::string_view expr_as_keyword(const ast::Expr& expr);

struct ExprListResult {
  std::vector<const ast::Expr*> items;  // may be empty without errors: `[]`
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns the items of a tuple constructor [expr]; anything else
// (parentheses around one, an object key that is one, a `for`) gets
// "Invalid expression" on its start range.
ExprListResult expr_list(const ast::Expr& expr, const Source& src);

// One item of an object constructor; [key] is the ObjectKeyExpr.
struct KeyValuePair {
  const ast::Expr* key;
  const ast::Expr* value;
};

struct ExprMapResult {
  std::vector<KeyValuePair> pairs;  // source order; may be empty without errors
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns the items of an object constructor [expr]; anything else gets
// "Invalid expression" on its start range.
ExprMapResult expr_map(const ast::Expr& expr, const Source& src);

// A function call read statically (hcl.StaticCall).
struct StaticCall {
  std::string_view name;  // namespaced names keep their "::"
  Range name_range;
  std::vector<const ast::Expr*> arguments;
  Range args_range;           // from `(` to `)`
  bool expand_final = false;  // the last argument has `...` (not in hcl.StaticCall)
};

struct ExprCallResult {
  StaticCall call;  // empty when there are errors
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns the function call [expr]; anything else gets "Invalid
// expression" on its start range.
ExprCallResult expr_call(const ast::Expr& expr, const Source& src);

}  // namespace hclvm

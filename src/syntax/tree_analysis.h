// What can be read off a syntax tree without evaluating it, for the
// compiler and for diagnostics: the reference's source ranges of each node
// (Range and StartRange, which diagnostics use), and which subtrees are closed — they read no variable
// from outside themselves and call no function — so that constant folding
// may evaluate them once at compile time.
#pragma once

#include <hclvm/ast.h>

#include <unordered_set>

#include "util/stack.h"

namespace hclvm::syntax {

// The reference's Range() of [e].
ast::Span range_of(const ast::Expr& e);

// The reference's StartRange() of [e] (what "Invalid function argument"
// points at).
ast::Span start_range_of(const ast::Expr& e);

// For an object key that is not parenthesized: the name it stands for
// when written as a bare identifier or keyword (hcl.ExprAsKeyword), or "".
std::string_view key_keyword(const ast::ObjectKeyExpr& k);

// Reports whether [k] is a bare multi-step traversal ("Ambiguous attribute key").
bool key_is_ambiguous(const ast::ObjectKeyExpr& k);

// The closed subtrees of a tree.
class Closedness {
 public:
  // Analyzes the whole tree under [root], recursing within [budget].
  Closedness(const ast::Expr& root, const util::StackBudget& budget);
  bool closed(const ast::Expr* e) const { return closed_.count(e) != 0; }
  // Whether the tree was too deep to analyze within the budget.
  bool too_deep() const { return too_deep_; }

 private:
  std::unordered_set<const ast::Expr*> closed_;
  bool too_deep_ = false;
};

}  // namespace hclvm::syntax

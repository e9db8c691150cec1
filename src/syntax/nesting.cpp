// Nesting limits (nesting.h). The reference nests as deep as its growable
// stacks allow and dies beyond; here each later pass over a tree (lowering,
// analysis, the values it builds) would recurse as deep, so trees are cut
// to a depth that any of them survives on any thread's stack. The walk
// itself keeps its own stack and so measures any depth.
#include "syntax/nesting.h"

#include <hclvm/syntax.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace hclvm::syntax {

namespace {

// The first expression of the tree under [root] (at depth 1) that stands
// deeper than kMaxNesting, or null.
// Its stack is per thread and keeps its memory: this runs for every
// attribute of every file parsed, and growing a new vector for each was
// several allocations an attribute.
const Expr* too_deep(const Expr* root) {
  thread_local std::vector<std::pair<const Expr*, uint32_t>> todo;
  todo.clear();
  todo.emplace_back(root, 1);
  while (!todo.empty()) {
    const Expr* e = todo.back().first;
    uint32_t depth = todo.back().second;  // a plain variable: clang 14 cannot capture a binding
    todo.pop_back();
    if (depth > kMaxNesting) return e;
    ast::for_each_child(*e, [&](const Expr& c) { todo.emplace_back(&c, depth + 1); });
  }
  return nullptr;
}

void report(Diagnostics& diags, const Source& src, ast::Span at, std::string_view what) {
  diags.push_back(Diagnostic{Severity::Error, "Nesting too deep",
                             std::string(what) + " nested more than " +
                                 std::to_string(kMaxNesting) +
                                 " levels deep, which hclvm does not accept.",
                             src.range(at), std::nullopt});
}

}  // namespace

uint32_t depth(const Expr& root) {
  std::vector<std::pair<const Expr*, uint32_t>> todo{{&root, 1}};
  uint32_t most = 0;
  while (!todo.empty()) {
    const Expr* e = todo.back().first;
    uint32_t d = todo.back().second;
    todo.pop_back();
    most = std::max(most, d);
    ast::for_each_child(*e, [&](const Expr& c) { todo.emplace_back(&c, d + 1); });
  }
  return most;
}

Expr* limit_nesting(Builder& b, Expr* root, Diagnostics& diags) {
  if (root == nullptr) return root;
  // A tree nests no deeper than the bytes it spans plus kNestingSlack,
  // so one spanning under a quarter of the limit cannot stand too deep:
  // nearly every expression is let through without a walk.
  if (short_enough(root->span)) return root;
  const Expr* deep = too_deep(root);
  if (deep == nullptr) return root;
  report(diags, b.source(), deep->span, "Expressions are");
  return b.dynamic(root->span);
}

void limit_nesting(Builder& b, Body* body, Diagnostics& diags, bool exprs) {
  if (body == nullptr) return;
  std::vector<std::pair<Body*, uint32_t>> todo{{body, 1}};
  while (!todo.empty()) {
    auto [cur, depth] = todo.back();
    todo.pop_back();
    if (exprs)
      for (ast::Attribute* a : cur->attributes) a->expr = limit_nesting(b, a->expr, diags);
    for (ast::Block* blk : cur->blocks) {
      if (blk->body == nullptr) continue;
      if (depth + 1 > kMaxNesting) {
        report(diags, b.source(), blk->type_span, "Blocks are");
        blk->body = b.body(blk->open_brace_span, {}, {}, blk->close_brace_span);
        continue;
      }
      todo.emplace_back(blk->body, depth + 1);
    }
  }
}

}  // namespace hclvm::syntax

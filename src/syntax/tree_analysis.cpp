// Ranges and closedness of syntax trees (see tree_analysis.h).
#include "syntax/tree_analysis.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace hclvm::syntax {

using namespace hclvm::ast;

Span range_of(const Expr& e) {
  if (e.kind == ExprKind::ObjectKey) return range_of(*as<ObjectKeyExpr>(e).wrapped);
  return e.span;
}

Span start_range_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::FunctionCall: {
      const auto& c = as<FunctionCallExpr>(e);
      return join(c.name_span, c.open_paren_span);
    }
    case ExprKind::Conditional: return start_range_of(*as<ConditionalExpr>(e).condition);
    case ExprKind::Index: return as<IndexExpr>(e).open_span;
    case ExprKind::Tuple: return as<TupleExpr>(e).open_span;
    case ExprKind::Object: return as<ObjectExpr>(e).open_span;
    case ExprKind::For: return as<ForExpr>(e).open_span;
    case ExprKind::Splat: return as<SplatExpr>(e).marker_span;
    case ExprKind::Binary: return start_range_of(*as<BinaryExpr>(e).lhs);
    case ExprKind::Unary: return as<UnaryExpr>(e).symbol_span;
    case ExprKind::Template: {
      const auto& t = as<TemplateExpr>(e);
      return t.parts.empty() ? e.span : start_range_of(*t.parts[0]);
    }
    case ExprKind::TemplateJoin: return start_range_of(*as<TemplateJoinExpr>(e).tuple);
    case ExprKind::Parens: return start_range_of(*as<ParensExpr>(e).inner);
    case ExprKind::ObjectKey: return start_range_of(*as<ObjectKeyExpr>(e).wrapped);
    default: return e.span;
  }
}

std::string_view key_keyword(const ObjectKeyExpr& k) {
  if (k.force_non_literal) return {};
  const Expr& w = *k.wrapped;
  if (w.kind == ExprKind::ScopeTraversal) {
    const auto& t = as<ScopeTraversalExpr>(w);
    if (t.steps.size == 1) return t.steps[0].name();
    return {};
  }
  if (w.kind == ExprKind::Literal) {
    const Literal& v = as<LiteralExpr>(w).value;
    if (v.kind == LitKind::Null) return "null";
    if (v.kind == LitKind::Bool) return v.boolean ? "true" : "false";
  }
  return {};
}

bool key_is_ambiguous(const ObjectKeyExpr& k) {
  return !k.force_non_literal && k.wrapped->kind == ExprKind::ScopeTraversal &&
         as<ScopeTraversalExpr>(*k.wrapped).steps.size > 1;
}

namespace {

// What a subtree reads from outside itself.
struct Free {
  std::vector<std::string_view> names;  // roots of traversals not bound inside
  std::vector<const Expr*> anons;       // splat symbols not bound inside
  bool impure = false;                  // calls a function

  bool empty() const { return !impure && names.empty() && anons.empty(); }
  void add(Free&& o) {
    impure = impure || o.impure;
    names.insert(names.end(), o.names.begin(), o.names.end());
    anons.insert(anons.end(), o.anons.begin(), o.anons.end());
  }
};

class Walker {
 public:
  Walker(std::unordered_set<const Expr*>& closed, const util::StackBudget& budget, bool& too_deep)
      : closed_(closed), budget_(budget), too_deep_(too_deep) {}

  // Returns what [e] reads from outside; records [e] when it reads nothing.
  Free walk(const Expr* e) {
    Free f;
    if (e == nullptr) return f;
    if (budget_.exhausted()) {
      too_deep_ = true;
      f.impure = true;
      return f;
    }
    switch (e->kind) {
      case ExprKind::Literal: break;
      case ExprKind::Template:
        for (const Expr* p : as<TemplateExpr>(*e).parts) f.add(walk(p));
        break;
      case ExprKind::TemplateWrap: f = walk(as<TemplateWrapExpr>(*e).wrapped); break;
      case ExprKind::TemplateJoin: f = walk(as<TemplateJoinExpr>(*e).tuple); break;
      case ExprKind::ScopeTraversal:
        f.names.push_back(as<ScopeTraversalExpr>(*e).steps[0].name());
        break;
      case ExprKind::RelativeTraversal: f = walk(as<RelativeTraversalExpr>(*e).source); break;
      case ExprKind::FunctionCall:
        for (const Expr* a : as<FunctionCallExpr>(*e).args) f.add(walk(a));
        f.impure = true;
        break;
      case ExprKind::Conditional: {
        const auto& c = as<ConditionalExpr>(*e);
        f = walk(c.condition);
        f.add(walk(c.true_result));
        f.add(walk(c.false_result));
        break;
      }
      case ExprKind::Binary: {
        const auto& b = as<BinaryExpr>(*e);
        f = walk(b.lhs);
        f.add(walk(b.rhs));
        break;
      }
      case ExprKind::Unary: f = walk(as<UnaryExpr>(*e).operand); break;
      case ExprKind::Tuple:
        for (const Expr* i : as<TupleExpr>(*e).items) f.add(walk(i));
        break;
      case ExprKind::Object:
        for (const ObjectItem& i : as<ObjectExpr>(*e).items) {
          f.add(walk(i.key));
          f.add(walk(i.value));
        }
        break;
      case ExprKind::ObjectKey: {
        const auto& k = as<ObjectKeyExpr>(*e);
        if (!key_is_ambiguous(k) && key_keyword(k).empty()) f = walk(k.wrapped);
        break;
      }
      case ExprKind::For: {
        const auto& x = as<ForExpr>(*e);
        f = walk(x.collection);
        Free body = walk(x.key);
        body.add(walk(x.value));
        body.add(walk(x.condition));
        std::erase_if(body.names,
                      [&](std::string_view n) { return n == x.val_var || n == x.key_var; });
        f.add(std::move(body));
        break;
      }
      case ExprKind::Index: {
        const auto& x = as<IndexExpr>(*e);
        f = walk(x.collection);
        f.add(walk(x.key));
        break;
      }
      case ExprKind::Splat: {
        const auto& s = as<SplatExpr>(*e);
        f = walk(s.source);
        Free each = walk(s.each);
        std::erase(each.anons, static_cast<const Expr*>(s.item));
        f.add(std::move(each));
        break;
      }
      case ExprKind::AnonSymbol: f.anons.push_back(e); break;
      case ExprKind::Parens: f = walk(as<ParensExpr>(*e).inner); break;
    }
    if (f.names.size() > 8) {
      std::sort(f.names.begin(), f.names.end());
      f.names.erase(std::unique(f.names.begin(), f.names.end()), f.names.end());
    }
    if (f.empty()) closed_.insert(e);
    return f;
  }

 private:
  std::unordered_set<const Expr*>& closed_;
  const util::StackBudget& budget_;
  bool& too_deep_;
};

}  // namespace

Closedness::Closedness(const Expr& root, const util::StackBudget& budget) {
  Walker(closed_, budget, too_deep_).walk(&root);
}

}  // namespace hclvm::syntax

// Static analysis of expressions (see hclvm/analysis.h). The reference
// answers these questions through optional methods on its node types:
// AsTraversal (ScopeTraversalExpr, RelativeTraversalExpr, LiteralValueExpr,
// ObjectConsKeyExpr), ExprList (TupleConsExpr), ExprMap (ObjectConsExpr)
// and ExprCall (FunctionCallExpr). Its generic unwrapping finds no wrapper
// among the native nodes: ParenthesesExpr has no UnwrapExpression, and
// ObjectConsKeyExpr's returns hclsyntax's Expression type rather than
// hcl's, so it does not count. Hence `(a)` is neither a traversal nor a
// keyword, `([1])` is no static list, and an object key `[1]` is none
// either. Here each question is one switch over the node kinds that answer
// it.
//
// The variables walk visits nodes in the reference's order (each node's
// walkChildNodes) with an explicit stack, so deep trees cannot overflow
// the thread's stack.
#include <hclvm/analysis.h>

#include <optional>

#include "syntax/tree_analysis.h"
#include "value/render.h"

namespace hclvm {

using namespace hclvm::ast;

namespace {

constexpr const char* kInvalidExpression = "Invalid expression";

// Returns an error "Invalid expression" with [detail] on [span] of [src].
Diagnostic invalid_expression(const char* detail, Span span, const Source& src) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.summary = kInvalidExpression;
  d.detail = detail;
  d.subject = src.range(span);
  return d;
}

// Returns the value of constant index key [k], as the parser's traversal
// steps hold it (cty.ParseNumberVal for numbers).
Value key_value(const Literal& k) {
  switch (k.kind) {
    case LitKind::Null: return Value::null(Type::dynamic());
    case LitKind::Bool: return Value::boolean(k.boolean);
    case LitKind::Number: {
      std::optional<Number> n = Number::parse(k.text);
      return n ? Value::number(std::move(*n)) : Value::unknown(Type::number());
    }
    case LitKind::String: return Value::string(k.text);
    case LitKind::Dynamic: return Value::dynamic();
    case LitKind::UnknownNumber: return Value::unknown(Type::number());
  }
  return Value::dynamic();
}

// Appends the steps of [steps] of [src] to [out]; without [src], with
// empty ranges.
void append_steps(Traversal& out, List<Traverser> steps, const Source* src) {
  for (const Traverser& t : steps) {
    TraversalStep s;
    if (src != nullptr) s.range = src->range(t.span);
    switch (t.kind) {
      case StepKind::Root:
        s.kind = TraversalStep::Kind::Root;
        s.name = t.name();
        break;
      case StepKind::Attr:
        s.kind = TraversalStep::Kind::Attr;
        s.name = t.name();
        break;
      case StepKind::Index:
        s.kind = TraversalStep::Kind::Index;
        s.key = key_value(t.key());
        break;
    }
    out.steps.push_back(std::move(s));
  }
}

// The keyword a literal stands for when read as a traversal root: the
// parser made `null`, `true` and `false` literals, and the reference
// reads them back as the names they were written with.
const char* literal_keyword(const LiteralExpr& lit) {
  switch (lit.value.kind) {
    case LitKind::Null: return "null";
    case LitKind::Bool: return lit.value.boolean ? "true" : "false";
    default: return nullptr;
  }
}

// The parts of the traversal an expression stands for (its AsTraversal):
// a root node, a ScopeTraversalExpr or a keyword LiteralExpr, and the
// relative traversals applied to it, outermost first.
struct Chain {
  const Expr* root = nullptr;
  std::vector<const RelativeTraversalExpr*> rels;

  // The number of steps of the traversal.
  size_t size() const {
    size_t n = 1;
    if (root->kind == ExprKind::ScopeTraversal) n = as<ScopeTraversalExpr>(*root).steps.size;
    for (const RelativeTraversalExpr* r : rels) n += r->steps.size;
    return n;
  }
};

// Returns the chain of [e] when [e] stands for a traversal. A relative
// traversal does when its source does; an object key when it is not
// parenthesized and what it wraps does.
std::optional<Chain> chain_of(const Expr& e) {
  const Expr* cur = &e;
  if (cur->kind == ExprKind::ObjectKey) {
    const auto& k = as<ObjectKeyExpr>(*cur);
    if (k.force_non_literal) return std::nullopt;
    cur = k.wrapped;
  }
  Chain c;
  while (cur != nullptr && cur->kind == ExprKind::RelativeTraversal) {
    c.rels.push_back(&as<RelativeTraversalExpr>(*cur));
    cur = as<RelativeTraversalExpr>(*cur).source;
  }
  if (cur == nullptr) return std::nullopt;
  if (cur->kind == ExprKind::ScopeTraversal && !as<ScopeTraversalExpr>(*cur).steps.empty()) {
    c.root = cur;
    return c;
  }
  if (cur->kind == ExprKind::Literal && literal_keyword(as<LiteralExpr>(*cur)) != nullptr) {
    c.root = cur;
    return c;
  }
  return std::nullopt;
}

// Returns the traversal of chain [c] of [src].
Traversal chain_traversal(const Chain& c, const Source& src) {
  Traversal t;
  t.steps.reserve(c.size());
  if (c.root->kind == ExprKind::ScopeTraversal) {
    append_steps(t, as<ScopeTraversalExpr>(*c.root).steps, &src);
  } else {
    TraversalStep s;
    s.name = literal_keyword(as<LiteralExpr>(*c.root));
    s.range = src.range(c.root->span);
    t.steps.push_back(std::move(s));
  }
  for (auto it = c.rels.rbegin(); it != c.rels.rend(); ++it) append_steps(t, (*it)->steps, &src);
  return t;
}

// One entry of the variables walk's work stack: visit a node, or enter or
// leave the scope of a `for`.
struct Work {
  enum class Op : uint8_t { Visit, Enter, Leave };
  Op op;
  const Expr* e;
};

// Reports whether [name] is a symbol of one of the `for` expressions in
// [scopes].
bool is_local(std::string_view name, const std::vector<const ForExpr*>& scopes) {
  for (const ForExpr* f : scopes)
    if ((!f->key_var.empty() && f->key_var == name) || (!f->val_var.empty() && f->val_var == name))
      return true;
  return false;
}

}  // namespace

// Returns the root name (see analysis.h).
std::string_view Traversal::root_name() const {
  if (steps.empty() || steps[0].kind != TraversalStep::Kind::Root) return {};
  return steps[0].name;
}

// Returns the range of all steps (see analysis.h).
Range Traversal::range() const {
  if (steps.empty()) return Range{};
  Range r = steps.front().range;
  r.end = steps.back().range.end;
  return r;
}

// Writes the traversal as hclwrite does (see analysis.h).
std::string Traversal::to_string() const {
  std::string out;
  for (const TraversalStep& s : steps) {
    switch (s.kind) {
      case TraversalStep::Kind::Root: out += s.name; break;
      case TraversalStep::Kind::Attr:
        out += '.';
        out += s.name;
        break;
      case TraversalStep::Kind::Index:
        out += '[';
        if (!s.key.is_known())
          out += '?';
        else if (s.key.is_null())
          out += "null";
        else if (s.key.type() == Type::boolean())
          out += s.key.as_bool() ? "true" : "false";
        else if (s.key.type() == Type::number())
          out += s.key.as_number().text();
        else if (s.key.type() == Type::string())
          out += hcl_quote(s.key.as_string());
        else
          out += '?';
        out += ']';
        break;
    }
  }
  return out;
}

// Returns the traversal of [steps] of [src] (see analysis.h).
Traversal make_traversal(List<Traverser> steps, const Source& src) {
  Traversal t;
  t.steps.reserve(steps.size);
  append_steps(t, steps, &src);
  return t;
}

Traversal make_traversal_names(List<Traverser> steps) {
  Traversal t;
  t.steps.reserve(steps.size);
  append_steps(t, steps, nullptr);
  return t;
}

// Walks [expr] as hclsyntax.Walk does, collecting the variables (see analysis.h).
std::vector<const ScopeTraversalExpr*> variable_nodes(const Expr& expr) {
  std::vector<const ScopeTraversalExpr*> out;
  std::vector<const ForExpr*> scopes;
  std::vector<Work> stack;
  // Children are pushed last first, so that they are visited in order.
  auto push = [&stack](const Expr* e) {
    if (e != nullptr) stack.push_back({Work::Op::Visit, e});
  };
  push(&expr);
  while (!stack.empty()) {
    Work item = stack.back();
    stack.pop_back();
    if (item.op == Work::Op::Enter) {
      scopes.push_back(&as<ForExpr>(*item.e));
      continue;
    }
    if (item.op == Work::Op::Leave) {
      scopes.pop_back();
      continue;
    }
    const Expr& e = *item.e;
    switch (e.kind) {
      case ExprKind::Literal:
      case ExprKind::AnonSymbol: break;
      case ExprKind::ScopeTraversal: {
        const auto& t = as<ScopeTraversalExpr>(e);
        if (!t.steps.empty() && !is_local(t.steps[0].name(), scopes)) out.push_back(&t);
        break;
      }
      case ExprKind::Template: {
        const auto& parts = as<TemplateExpr>(e).parts;
        for (uint32_t i = parts.size; i-- > 0;) push(parts[i]);
        break;
      }
      case ExprKind::TemplateWrap: push(as<TemplateWrapExpr>(e).wrapped); break;
      case ExprKind::TemplateJoin: push(as<TemplateJoinExpr>(e).tuple); break;
      case ExprKind::RelativeTraversal: push(as<RelativeTraversalExpr>(e).source); break;
      case ExprKind::FunctionCall: {
        const auto& args = as<FunctionCallExpr>(e).args;
        for (uint32_t i = args.size; i-- > 0;) push(args[i]);
        break;
      }
      case ExprKind::Conditional: {
        const auto& c = as<ConditionalExpr>(e);
        push(c.false_result);
        push(c.true_result);
        push(c.condition);
        break;
      }
      case ExprKind::Binary: {
        const auto& b = as<BinaryExpr>(e);
        push(b.rhs);
        push(b.lhs);
        break;
      }
      case ExprKind::Unary: push(as<UnaryExpr>(e).operand); break;
      case ExprKind::Tuple: {
        const auto& items = as<TupleExpr>(e).items;
        for (uint32_t i = items.size; i-- > 0;) push(items[i]);
        break;
      }
      case ExprKind::Object: {
        const auto& items = as<ObjectExpr>(e).items;
        for (uint32_t i = items.size; i-- > 0;) {
          push(items[i].value);
          push(items[i].key);
        }
        break;
      }
      case ExprKind::ObjectKey: {
        // A key that reads as a keyword is its own name, not a reference.
        // The reference asks the wrapped expression and ignores
        // force_non_literal: a parenthesized key wraps a ParensExpr,
        // which is never a keyword, so it is walked.
        const Expr* w = as<ObjectKeyExpr>(e).wrapped;
        if (w != nullptr && expr_as_keyword(*w).empty()) push(w);
        break;
      }
      case ExprKind::For: {
        // The key, value and condition are walked in the scope of the
        // `for` symbols; the collection outside it. One scope around the
        // three masks the same names as the reference's one per part.
        const auto& f = as<ForExpr>(e);
        stack.push_back({Work::Op::Leave, &e});
        push(f.condition);
        push(f.value);
        push(f.key);
        stack.push_back({Work::Op::Enter, &e});
        push(f.collection);
        break;
      }
      case ExprKind::Index: {
        const auto& x = as<IndexExpr>(e);
        push(x.key);
        push(x.collection);
        break;
      }
      case ExprKind::Splat: {
        // The item symbol is reached through `each` only; it is no variable.
        const auto& s = as<SplatExpr>(e);
        push(s.each);
        push(s.source);
        break;
      }
      case ExprKind::Parens: push(as<ParensExpr>(e).inner); break;
    }
  }
  return out;
}

// Returns the variables of [expr] of [src] (see analysis.h).
std::vector<Traversal> variables(const Expr& expr, const Source& src) {
  std::vector<Traversal> out;
  for (const ScopeTraversalExpr* t : variable_nodes(expr))
    out.push_back(make_traversal(t->steps, src));
  return out;
}

// Returns [expr] of [src] as an absolute traversal (see analysis.h).
TraversalResult abs_traversal_for_expr(const Expr& expr, const Source& src) {
  TraversalResult r;
  if (std::optional<Chain> c = chain_of(expr)) {
    r.traversal = chain_traversal(*c, src);
    return r;
  }
  r.diagnostics.push_back(invalid_expression(
      "A single static variable reference is required: only attribute access and indexing with "
      "constant keys. No calculations, function calls, template expressions, etc are allowed here.",
      syntax::range_of(expr), src));
  return r;
}

// Returns [expr] of [src] as a relative traversal (see analysis.h).
TraversalResult rel_traversal_for_expr(const Expr& expr, const Source& src) {
  TraversalResult r = abs_traversal_for_expr(expr, src);
  if (!r.traversal.empty()) r.traversal.steps[0].kind = TraversalStep::Kind::Attr;
  return r;
}

// Returns the keyword [expr] stands for (see analysis.h).
std::string_view expr_as_keyword(const Expr& expr) {
  std::optional<Chain> c = chain_of(expr);
  if (!c || c->size() != 1) return {};
  if (c->root->kind == ExprKind::ScopeTraversal)
    return as<ScopeTraversalExpr>(*c->root).steps[0].name();
  return literal_keyword(as<LiteralExpr>(*c->root));
}

// Returns the items of static list [expr] of [src] (see analysis.h).
ExprListResult expr_list(const Expr& expr, const Source& src) {
  ExprListResult r;
  if (expr.kind == ExprKind::Tuple) {
    const auto& items = as<TupleExpr>(expr).items;
    r.items.assign(items.begin(), items.end());
    return r;
  }
  r.diagnostics.push_back(invalid_expression("A static list expression is required.",
                                             syntax::start_range_of(expr), src));
  return r;
}

// Returns the pairs of static map [expr] of [src] (see analysis.h).
ExprMapResult expr_map(const Expr& expr, const Source& src) {
  ExprMapResult r;
  if (expr.kind == ExprKind::Object) {
    for (const ObjectItem& i : as<ObjectExpr>(expr).items) r.pairs.push_back({i.key, i.value});
    return r;
  }
  r.diagnostics.push_back(invalid_expression("A static map expression is required.",
                                             syntax::start_range_of(expr), src));
  return r;
}

// Returns static call [expr] of [src] (see analysis.h).
ExprCallResult expr_call(const Expr& expr, const Source& src) {
  ExprCallResult r;
  if (expr.kind == ExprKind::FunctionCall) {
    const auto& c = as<FunctionCallExpr>(expr);
    r.call.name = c.name;
    r.call.name_range = src.range(c.name_span);
    r.call.arguments.assign(c.args.begin(), c.args.end());
    r.call.args_range = src.range(join(c.open_paren_span, c.close_paren_span));
    r.call.expand_final = c.expand_final;
    return r;
  }
  r.diagnostics.push_back(invalid_expression("A static function call is required.",
                                             syntax::start_range_of(expr), src));
  return r;
}

}  // namespace hclvm

// Expression handles: one type for an expression of either syntax, over
// the tree that holds it. Evaluation compiles the node once (the Tree keeps
// the program) and runs it: native programs on the Vm, JSON ones with
// run_json. Static analysis forwards to hclvm/analysis.h's native and JSON
// functions and wraps what they return in handles on the same tree (or, for
// the arguments of a call written in a JSON string, on the tree parsed from
// that string).
//
// A native expression evaluated without a context runs as the reference's
// Value(nil) does (Vm::run with no context).
//
// A wrapped handle (internal.h's ExprWrap) evaluates and lists variables
// through its wrapping; everything else still reads the node, as the
// reference's helpers unwrap an expression before they look at its syntax.
// A static handle has no node: the analyses give it the reference's
// answers for an expression of no syntax at all.
#include <hclvm/body.h>
#include <hclvm/json_program.h>

#include <utility>

#include "body/internal.h"
#include "syntax/tree_analysis.h"

namespace hclvm {

using body_detail::Access;
using body_detail::Tree;

namespace {

// The native node behind [e].
const ast::Expr& native_of(const Expression& e) {
  return *static_cast<const ast::Expr*>(Access::node(e));
}

// The JSON node behind [e].
const json::Node& json_of(const Expression& e) {
  return *static_cast<const json::Node*>(Access::node(e));
}

// Reports whether [e] is a JSON value.
bool is_json(const Expression& e) { return e.syntax() == Syntax::Json; }

// What a static analysis says of a static expression, which has no node
// (the reference's answer for an expression not of its syntax): [detail],
// on [subject].
Diagnostics not_static(std::string detail, Range subject) {
  Diagnostic d;
  d.summary = "Invalid expression";
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  return {std::move(d)};
}

// The wrapping of a static expression.
class StaticWrap final : public body_detail::ExprWrap {
 public:
  StaticWrap(Value v, Range r) : value_(std::move(v)), range_(std::move(r)) {}
  EvalResult value(Vm&, const EvalContext*) const override { return EvalResult{value_, {}}; }
  std::vector<Traversal> variables() const override { return {}; }
  const Range* static_range() const override { return &range_; }

 private:
  Value value_;
  Range range_;
};

// A handle on [node] of the tree of [e].
Expression sibling(const Expression& e, const void* node) {
  return Access::expression(Access::tree(e), node);
}

}  // namespace

// --- the handle ------------------------------------------------------------------------

Syntax Expression::syntax() const { return tree_ ? tree_->syntax : Syntax::Native; }

const ast::Expr* Expression::native_expr() const {
  return syntax() == Syntax::Native ? static_cast<const ast::Expr*>(node_) : nullptr;
}

const json::Node* Expression::json_node() const {
  return syntax() == Syntax::Json ? static_cast<const json::Node*>(node_) : nullptr;
}

const Source& Expression::source() const {
  if (tree_) return tree_->source();
  static const std::shared_ptr<const Source> none = make_source("", "");
  return *none;
}

Range Expression::range() const {
  if (node_ == nullptr) return *wrap_->static_range();
  if (is_json(*this)) return json::range(json_of(*this), source().name());
  return source().range(syntax::range_of(native_of(*this)));
}

Range Expression::start_range() const {
  if (node_ == nullptr) return *wrap_->static_range();
  if (is_json(*this)) return json::start_range(json_of(*this), source().name());
  return source().range(syntax::start_range_of(native_of(*this)));
}

std::vector<Traversal> Expression::variables() const {
  if (wrap_) return wrap_->variables();
  if (is_json(*this)) return hclvm::variables(json_of(*this), tree_->json());
  return hclvm::variables(native_of(*this), source());
}

EvalResult Expression::value(Vm& vm, const EvalContext* ctx) const {
  if (wrap_) return wrap_->value(vm, ctx);
  return node_value(vm, ctx);
}

EvalResult Expression::node_value(Vm& vm, const EvalContext* ctx) const {
  const body_detail::Compiled* c = compiled_.load(std::memory_order_acquire);
  if (c == nullptr) {
    c = tree_->compiled(node_).get();  // the tree keeps it as long as tree_ lives
    compiled_.store(c, std::memory_order_release);
  }
  EvalResult r;
  if (c->json) {
    r = run_json(vm, *c->json, ctx);
  } else {
    r = vm.run(*c->native, ctx);
  }
  if (!c->diagnostics.empty())
    r.diagnostics.insert(r.diagnostics.begin(), c->diagnostics.begin(), c->diagnostics.end());
  return r;
}

EvalResult Expression::value(const EvalContext* ctx) const {
  thread_local Vm vm;
  return value(vm, ctx);
}

Expression Expression::from_parse(ExprParse p) {
  if (p.expr == nullptr) return Expression();
  const void* node = p.expr;
  auto tree = std::make_shared<Tree>();
  tree->syntax = Syntax::Native;
  tree->parse = std::move(p);
  return Access::expression(std::move(tree), node);
}

Expression Expression::from_parse(JsonParse p) {
  if (p.root == nullptr) return Expression();
  const void* node = p.root;
  auto tree = std::make_shared<Tree>();
  tree->syntax = Syntax::Json;
  tree->parse = std::move(p);
  return Access::expression(std::move(tree), node);
}

Expression Expression::make_static(Value v, Range r) {
  Expression e;
  e.wrap_ = std::make_shared<StaticWrap>(std::move(v), std::move(r));
  return e;
}

// --- static analysis -------------------------------------------------------------------

namespace {

const char kNotTraversal[] =
    "A single static variable reference is required: only attribute access and indexing with "
    "constant keys. No calculations, function calls, template expressions, etc are allowed here.";

}  // namespace

TraversalResult abs_traversal_for_expr(const Expression& e) {
  if (e.is_static()) return TraversalResult{{}, not_static(kNotTraversal, e.range())};
  if (is_json(e)) return abs_traversal_for_expr(json_of(e), Access::tree(e)->json());
  return abs_traversal_for_expr(native_of(e), e.source());
}

TraversalResult rel_traversal_for_expr(const Expression& e) {
  if (e.is_static()) return TraversalResult{{}, not_static(kNotTraversal, e.range())};
  if (is_json(e)) return rel_traversal_for_expr(json_of(e), Access::tree(e)->json());
  return rel_traversal_for_expr(native_of(e), e.source());
}

std::string expr_as_keyword(const Expression& e) {
  if (e.is_static()) return "";
  if (is_json(e)) return expr_as_keyword(json_of(e), Access::tree(e)->json());
  return std::string(expr_as_keyword(native_of(e)));
}

ExpressionListResult expr_list(const Expression& e) {
  ExpressionListResult r;
  if (e.is_static()) {
    r.diagnostics = not_static("A static list expression is required.", e.start_range());
    return r;
  }
  if (is_json(e)) {
    JsonExprListResult l = expr_list(json_of(e), Access::tree(e)->json());
    for (const json::Node* n : l.items) r.items.push_back(sibling(e, n));
    r.diagnostics = std::move(l.diagnostics);
  } else {
    ExprListResult l = expr_list(native_of(e), e.source());
    for (const ast::Expr* n : l.items) r.items.push_back(sibling(e, n));
    r.diagnostics = std::move(l.diagnostics);
  }
  return r;
}

ExpressionMapResult expr_map(const Expression& e) {
  ExpressionMapResult r;
  if (e.is_static()) {
    r.diagnostics = not_static("A static map expression is required.", e.start_range());
    return r;
  }
  if (is_json(e)) {
    JsonExprMapResult m = expr_map(json_of(e), Access::tree(e)->json());
    for (const JsonKeyValuePair& p : m.pairs)
      r.pairs.push_back({sibling(e, static_cast<const json::Node*>(p.key)), sibling(e, p.value)});
    r.diagnostics = std::move(m.diagnostics);
  } else {
    ExprMapResult m = expr_map(native_of(e), e.source());
    for (const KeyValuePair& p : m.pairs)
      r.pairs.push_back({sibling(e, p.key), sibling(e, p.value)});
    r.diagnostics = std::move(m.diagnostics);
  }
  return r;
}

ExpressionCallResult expr_call(const Expression& e) {
  ExpressionCallResult r;
  if (e.is_static()) {
    r.diagnostics = not_static("A static function call is required.", e.start_range());
    return r;
  }
  if (!is_json(e)) {
    ExprCallResult c = expr_call(native_of(e), e.source());
    r.diagnostics = std::move(c.diagnostics);
    if (r.has_errors()) return r;
    r.call.name = std::string(c.call.name);
    r.call.name_range = c.call.name_range;
    r.call.args_range = c.call.args_range;
    r.call.expand_final = c.call.expand_final;
    for (const ast::Expr* a : c.call.arguments) r.call.arguments.push_back(sibling(e, a));
    return r;
  }
  JsonExprCallResult c = expr_call(json_of(e), Access::tree(e)->json());
  r.diagnostics = std::move(c.diagnostics);
  if (r.has_errors()) return r;
  r.call.name = std::string(c.call.name);
  r.call.name_range = c.call.name_range;
  r.call.args_range = c.call.args_range;
  r.call.expand_final = c.call.expand_final;
  // The arguments belong to the native tree parsed from the string, which
  // their handles keep alive.
  std::vector<const ast::Expr*> args = std::move(c.call.arguments);
  auto tree = std::make_shared<Tree>();
  tree->syntax = Syntax::Native;
  tree->parse = std::move(c.parse);
  body_detail::TreePtr shared = std::move(tree);
  for (const ast::Expr* a : args) r.call.arguments.push_back(Access::expression(shared, a));
  return r;
}

}  // namespace hclvm

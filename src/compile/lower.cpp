// Lowering: the syntax tree of an expression to bytecode (compile_expression
// of eval.h). Each expression kind of ast.h becomes a short sequence that
// leaves its value on the stack; the constructs that the reference
// evaluates with intermediate state (templates, objects, conditionals, for,
// splat, calls) become a BEGIN instruction, the code of their parts, and
// instructions that consume each part. For variables and splat items are
// local slots resolved here, so only root names of the context are looked
// up at run time. The tables below show what each construct emits (stack
// after each instruction; "end" labels receive the construct's result).
//
// Closed subtrees (no variables from outside, no calls) are folded: the
// subtree is compiled alone, run once on the same VM, and replaced by the
// constant it produced when it reported nothing. A subtree that reports an
// error is compiled normally, so its diagnostics appear at run time. Folding
// goes bottom-up (a node folds once its closed parts are constants).
#include <hclvm/eval.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compile/emitter.h"
#include "syntax/tree_analysis.h"
#include "util/stack.h"
#include "vm/program.h"

namespace hclvm {

namespace compile {

using namespace hclvm::ast;
using syntax::Closedness;
using syntax::key_is_ambiguous;
using syntax::key_keyword;
using syntax::range_of;
using syntax::start_range_of;
using vm::Op;

namespace {

// The value of literal [v].
Value literal_value(const Literal& v) {
  switch (v.kind) {
    case LitKind::Null: return Value::null(Type::dynamic());
    case LitKind::Bool: return Value::boolean(v.boolean);
    case LitKind::Number: {
      std::optional<Number> n = Number::parse(v.text);
      return n ? Value::number(std::move(*n)) : Value::unknown(Type::number());
    }
    case LitKind::String: return Value::string(v.text);
    case LitKind::Dynamic: return Value::dynamic();
    case LitKind::UnknownNumber: return Value::unknown(Type::number());
  }
  return Value::dynamic();
}

// How [e] is written, as a function taking it as an expression sees it
// (hclsyntax's node types: a quoted string or heredoc without sequences is
// one literal part, "" included; parentheses are a node of their own).
ArgSyntax arg_syntax(const Expr& e) {
  switch (e.kind) {
    case ExprKind::TemplateWrap:
      return ArgSyntax::TemplateWrap;
    case ExprKind::Template: {
      const auto& t = as<TemplateExpr>(e);
      bool literal =
          t.parts.size == 0 || (t.parts.size == 1 && t.parts[0]->kind == ExprKind::Literal);
      return literal ? ArgSyntax::LiteralTemplate : ArgSyntax::Template;
    }
    default:
      break;
  }
  // A reference: a scope traversal, or an index, splat or relative
  // traversal whose source is one (the key of an index may be anything).
  const Expr* x = &e;
  for (;;) {
    switch (x->kind) {
      case ExprKind::ScopeTraversal:
        return ArgSyntax::Reference;
      case ExprKind::RelativeTraversal:
        x = as<RelativeTraversalExpr>(*x).source;
        break;
      case ExprKind::Index:
        x = as<IndexExpr>(*x).collection;
        break;
      case ExprKind::Splat:
        x = as<SplatExpr>(*x).source;
        break;
      default:
        return ArgSyntax::Other;
    }
  }
}

// What the lowerers of one compilation share: the results of folding and
// the VM that folds.
struct FoldState {
  std::unordered_map<const Expr*, std::optional<Value>> folds;
  std::unique_ptr<Vm> vm;
};

class Lowerer {
 public:
  // Lowers into [p]; folds closed subtrees unless [fold] is null.
  Lowerer(Program& p, const Closedness& closed, FoldState* fold, const util::StackBudget& budget)
      : em_(p), closed_(closed), shared_(fold), fold_(fold != nullptr), budget_(budget) {}

  Emitter& emitter() { return em_; }
  // Whether the tree was too deep to compile within the stack budget.
  bool too_deep() const { return too_deep_; }

  // Emits code that pushes the value of [e].
  void expr(const Expr& e) {
    if (budget_.exhausted()) {
      too_deep_ = true;
      em_.emit(Op::CONST, {em_.constant(Value::dynamic())});
      return;
    }
    if (fold_ && e.kind != ExprKind::Literal && closed_.closed(&e)) {
      if (const Value* v = folded(e)) {
        em_.emit(Op::CONST, {em_.constant(*v)});
        return;
      }
    }
    switch (e.kind) {
      case ExprKind::Literal:
        em_.emit(Op::CONST, {em_.constant(literal_value(as<LiteralExpr>(e).value))});
        break;
      case ExprKind::Template: template_expr(as<TemplateExpr>(e)); break;
      case ExprKind::TemplateWrap: expr(*as<TemplateWrapExpr>(e).wrapped); break;
      case ExprKind::TemplateJoin: {
        expr(*as<TemplateJoinExpr>(e).tuple);
        em_.site(em_.emit(Op::TPL_JOIN), {range_of(e)});
        break;
      }
      case ExprKind::ScopeTraversal: scope_traversal(as<ScopeTraversalExpr>(e)); break;
      case ExprKind::RelativeTraversal: relative_traversal(as<RelativeTraversalExpr>(e)); break;
      case ExprKind::FunctionCall: call(as<FunctionCallExpr>(e)); break;
      case ExprKind::Conditional: conditional(as<ConditionalExpr>(e)); break;
      case ExprKind::Binary: binary(as<BinaryExpr>(e)); break;
      case ExprKind::Unary: unary(as<UnaryExpr>(e)); break;
      case ExprKind::Tuple: {
        const auto& t = as<TupleExpr>(e);
        for (const Expr* i : t.items) expr(*i);
        em_.emit(Op::TUPLE, {t.items.size, em_.new_cache()});
        break;
      }
      case ExprKind::Object: object(as<ObjectExpr>(e)); break;
      case ExprKind::ObjectKey: object_key(as<ObjectKeyExpr>(e)); break;
      case ExprKind::For: for_expr(as<ForExpr>(e)); break;
      case ExprKind::Index: {
        const auto& x = as<IndexExpr>(e);
        expr(*x.collection);
        expr(*x.key);
        em_.site(em_.emit(Op::INDEX), {x.bracket_span, range_of(e)});
        break;
      }
      case ExprKind::Splat: splat(as<SplatExpr>(e)); break;
      case ExprKind::AnonSymbol: {
        auto it = anon_slots_.find(&e);
        if (it != anon_slots_.end())
          em_.emit(Op::LOAD, {it->second});
        else
          em_.emit(Op::CONST, {em_.constant(Value::dynamic())});
        break;
      }
      case ExprKind::Parens: expr(*as<ParensExpr>(e).inner); break;
    }
  }

 private:
  // A for variable in scope.
  struct Binding {
    std::string_view name;
    uint16_t slot;
    int level;  // which for expression bound it (its nesting depth)
  };

  // --- analysis on demand -------------------------------------------------------

  // The constant [e] folds to, or null when it cannot be folded.
  const Value* folded(const Expr& e) {
    auto it = shared_->folds.find(&e);
    if (it == shared_->folds.end()) {
      // While [e] itself is compiled for folding it is not a constant.
      shared_->folds.emplace(&e, std::nullopt);
      std::optional<Value> v = fold(e);
      it = shared_->folds.find(&e);
      it->second = std::move(v);
    }
    return it->second ? &*it->second : nullptr;
  }

  // The limits of a folding run: far below a run's, since the compiler runs
  // outside the host's limits and a constant too costly to fold is simply
  // computed when the program runs (under the host's limits).
  static Limits fold_limits() {
    Limits l;
    l.max_steps = 1'000'000;
    l.max_memory = 16 << 20;
    l.max_string_bytes = 1 << 20;
    l.max_collection_size = 100'000;
    l.timeout = std::chrono::milliseconds(250);
    return l;
  }

  // Folds closed subtree [e] bottom-up: once each closed part of it is a
  // constant, [e] alone is compiled over those constants and run; its value
  // is kept when it reported nothing. Each node is compiled for folding at
  // most once, so folding costs time linear in the size of the tree.
  std::optional<Value> fold(const Expr& e) {
    if (e.kind == ExprKind::Literal) return literal_value(as<LiteralExpr>(e).value);
    bool parts_constant = true;
    for_each_child(e, [&](const Expr& c) {
      if (parts_constant && closed_.closed(&c) && !folded(c)) parts_constant = false;
    });
    if (!parts_constant) return std::nullopt;
    Program sub;
    sub.source = em_.program().source;
    Lowerer l(sub, closed_, shared_, budget_);
    l.expr(e);
    l.em_.emit(Op::RETURN);
    l.em_.finish();
    if (!shared_->vm) shared_->vm = std::make_unique<Vm>(fold_limits());
    EvalResult r = shared_->vm->run(sub, EvalContext());
    if (!r.diagnostics.empty()) return std::nullopt;
    return std::move(r.value);
  }

  // Whether [e] may report a diagnostic (false only where certain).
  bool may_diag(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Literal:
      case ExprKind::AnonSymbol: return false;
      case ExprKind::Parens: return may_diag(*as<ParensExpr>(e).inner);
      case ExprKind::TemplateWrap: return may_diag(*as<TemplateWrapExpr>(e).wrapped);
      case ExprKind::ScopeTraversal: {
        const auto& t = as<ScopeTraversalExpr>(e);
        if (t.steps.size == 1 && lookup(t.steps[0].name())) return false;
        break;
      }
      default: break;
    }
    return !(fold_ && closed_.closed(&e) && folded(e));
  }

  // The type every value of [e] has, when the compiler can be sure of it.
  const Type* static_type(const Expr& e) {
    auto it = types_.find(&e);
    if (it != types_.end()) return it->second;
    const Type* t = compute_type(e);
    types_.emplace(&e, t);
    return t;
  }

  const Type* compute_type(const Expr& e) {
    if (fold_ && e.kind != ExprKind::Literal && closed_.closed(&e))
      if (const Value* v = folded(e)) return v->type();
    switch (e.kind) {
      case ExprKind::Literal: return literal_value(as<LiteralExpr>(e).value).type();
      case ExprKind::Template:
      case ExprKind::TemplateJoin: return Type::string();
      case ExprKind::TemplateWrap: return static_type(*as<TemplateWrapExpr>(e).wrapped);
      case ExprKind::Parens: return static_type(*as<ParensExpr>(e).inner);
      case ExprKind::Binary: {
        BinaryOp op = as<BinaryExpr>(e).op;
        return op >= BinaryOp::Add ? Type::number() : Type::boolean();
      }
      case ExprKind::Unary:
        return as<UnaryExpr>(e).op == UnaryOp::Negate ? Type::number() : Type::boolean();
      case ExprKind::Conditional: {
        const auto& c = as<ConditionalExpr>(e);
        const Type* t = static_type(*c.true_result);
        const Type* f = static_type(*c.false_result);
        return t && t == f && !t->is_dynamic() ? t : nullptr;
      }
      case ExprKind::Tuple: {
        std::vector<const Type*> elems;
        for (const Expr* i : as<TupleExpr>(e).items) {
          const Type* t = static_type(*i);
          if (!t) return nullptr;
          elems.push_back(t);
        }
        return Type::tuple(elems);
      }
      default: return nullptr;
    }
  }

  // Tells the emitter which for variables are in scope now.
  void sync_scope() {
    std::vector<vm::SiteLocal> locals;
    for (size_t i = scope_.size(); i-- > 0;)
      locals.push_back({em_.name(scope_[i].name), scope_[i].slot});
    em_.set_scope(locals);
  }

  // The local slot of for variable [name] in scope, if any.
  std::optional<uint16_t> lookup(std::string_view name) const {
    for (size_t i = scope_.size(); i-- > 0;)
      if (scope_[i].name == name) return scope_[i].slot;
    return std::nullopt;
  }

  // --- constructs -----------------------------------------------------------------

  // Template "a${x}b":
  //   TPL_BEGIN          |
  //   TPL_LIT "a"        |
  //   <x>                | x
  //   TPL_PART           |
  //   TPL_LIT "b"        |
  //   TPL_END            | s
  void template_expr(const TemplateExpr& t) {
    em_.emit(Op::TPL_BEGIN);
    for (const Expr* p : t.parts) {
      if (p->kind == ExprKind::Literal && as<LiteralExpr>(*p).value.kind == LitKind::String) {
        std::string_view s = as<LiteralExpr>(*p).value.text;
        if (!s.empty()) em_.emit(Op::TPL_LIT, {em_.constant(Value::string(s))});
        continue;
      }
      expr(*p);
      em_.site(em_.emit(Op::TPL_PART), {range_of(*p), t.span});
    }
    em_.emit(Op::TPL_END);
  }

  // Adds the steps of [steps] (from [first]) to a new traversal descriptor.
  uint32_t traversal(vm::TraversalDesc d, const List<Traverser>& steps, uint32_t first) {
    Program& p = em_.program();
    d.first_step = uint32_t(p.steps.size());
    for (uint32_t i = first; i < steps.size; ++i) {
      const Traverser& s = steps[i];
      vm::StepDesc sd;
      if (s.kind == StepKind::Attr) {
        sd.kind = vm::StepDesc::Attr;
        sd.operand = em_.name(s.name());
        sd.cache = em_.new_cache();
      } else {
        sd.kind = vm::StepDesc::Index;
        sd.operand = em_.constant(literal_value(s.key()));
        // A string key on an object is an attribute look-up: cached too.
        if (s.key().kind == LitKind::String) sd.cache = em_.new_cache();
      }
      p.steps.push_back(sd);
    }
    d.num_steps = steps.size - first;
    p.traversals.push_back(d);
    return uint32_t(p.traversals.size() - 1);
  }

  // var.a[0] (one instruction):
  //   TRAVERSE t         | v        (spans: root, each step)
  void scope_traversal(const ScopeTraversalExpr& t) {
    const Traverser& root = t.steps[0];
    vm::TraversalDesc d;
    if (std::optional<uint16_t> slot = lookup(root.name())) {
      if (t.steps.size == 1) {
        em_.emit(Op::LOAD, {*slot});
        return;
      }
      d.root = vm::TraversalDesc::Local;
      d.root_index = *slot;
    } else {
      d.root = vm::TraversalDesc::Variable;
      d.root_index = em_.name(root.name());
      Program& p = em_.program();
      d.first_scope_name = uint32_t(p.scope_names.size());
      // Innermost first, kNone between the variables of two for expressions.
      for (size_t i = scope_.size(); i-- > 0;) {
        p.scope_names.push_back(em_.name(scope_[i].name));
        if (i > 0 && scope_[i].level != scope_[i - 1].level) p.scope_names.push_back(vm::kNone);
      }
      d.num_scope_names = uint32_t(p.scope_names.size()) - d.first_scope_name;
    }
    uint32_t ti = traversal(d, t.steps, 1);
    std::vector<Span> spans;
    for (const Traverser& s : t.steps) spans.push_back(s.span);
    em_.site(em_.emit(Op::TRAVERSE, {ti}), spans);
  }

  // (expr).a[0]:
  //   <expr>             | v
  //   TRAVERSE_REL t     | v'       (spans: expr, each step, whole)
  // with the splat symbol as source, TRAVERSE from its local slot.
  void relative_traversal(const RelativeTraversalExpr& r) {
    vm::TraversalDesc d;
    Op op = Op::TRAVERSE_REL;
    auto it =
        r.source->kind == ExprKind::AnonSymbol ? anon_slots_.find(r.source) : anon_slots_.end();
    if (it != anon_slots_.end()) {
      d.root = vm::TraversalDesc::Local;
      d.root_index = it->second;
      op = Op::TRAVERSE;
    } else {
      expr(*r.source);
    }
    uint32_t ti = traversal(d, r.steps, 0);
    std::vector<Span> spans{range_of(*r.source)};
    for (const Traverser& s : r.steps) spans.push_back(s.span);
    spans.push_back(range_of(r));  // the whole, for the values of diagnostics
    em_.site(em_.emit(op, {ti}), spans);
  }

  // f(a, b):                       f(a, xs...):
  //   CALL_BEGIN f 2 end  |          CALL_BEGIN f 2 expand end |
  //   <a>                 | a        <xs>                      | xs
  //   CALL_ARG 0 end      | a'       CALL_EXPAND end           |
  //   <b>                 | a' b     <a>                       | a
  //   CALL_ARG 1 end      | a' b'    CALL_ARG 0 end            | a'
  //   CALL_END 2          | r        CALL_END 1                | r
  // end:                  | r      end:                        | r
  // Spans (shared): call, name, ")", start, each argument's start, and the
  // expanded argument.
  void call(const FunctionCallExpr& c) {
    uint32_t n = c.args.size;
    bool expand = c.expand_final && n > 0;
    uint8_t flags =
        uint8_t((expand ? vm::kCallExpand : 0) | (for_depth_ > 0 ? vm::kCallChildScope : 0));
    if (n > (expand ? 1u : 0u))
      flags |= uint8_t(uint8_t(arg_syntax(*c.args[0])) << vm::kCallArgSyntaxShift);
    std::vector<Span> spans{c.span, c.name_span, c.close_paren_span,
                            join(c.name_span, c.open_paren_span)};
    for (const Expr* a : c.args) spans.push_back(start_range_of(*a));
    if (expand) spans.push_back(range_of(*c.args[n - 1]));
    for (const Expr* a : c.args) spans.push_back(range_of(*a));  // for the values of diagnostics
    Label end = em_.label();
    int base = em_.depth();
    uint32_t pc = em_.emit(Op::CALL_BEGIN, {em_.name(c.name), n, flags, end.id});
    uint32_t first = em_.site(pc, spans);
    auto share = [&](uint32_t at) { em_.share_site(at, first, uint32_t(spans.size())); };
    uint32_t plain = expand ? n - 1 : n;
    if (expand) {
      expr(*c.args[n - 1]);
      share(em_.emit(Op::CALL_EXPAND, {end.id}));
    }
    for (uint32_t i = 0; i < plain; ++i) {
      expr(*c.args[i]);
      share(em_.emit(Op::CALL_ARG, {i, end.id}));
    }
    share(em_.emit(Op::CALL_END, {plain}));
    em_.bind(end);
    em_.set_depth(base + 1);
  }

  // c ? a : b (spans: c, whole, a, b, from a to b):
  //   [DMARK]                 |          (general mode only)
  //   <c>                     | c
  //   COND_TEST ty false end  |          (ty: static result type, or none)
  //   <a>                     | a
  //   COND_ELSE end           |          (keeps a and jumps when only a is needed)
  // false:                    |
  //   <b>                     | b
  //   COND_END                | r
  // end:                      | r
  // The result carries the marks of both results, so only when both are
  // closed (no marks possible) and of one static type is the unchosen one
  // skipped (unless the condition is unknown); otherwise both are
  // evaluated, their types unified, and COND_END drops the diagnostics of
  // the one not chosen.
  void conditional(const ConditionalExpr& c) {
    const Type* t = static_type(*c.true_result);
    const Type* f = static_type(*c.false_result);
    bool general = !(t && t == f && !t->is_dynamic() && closed_.closed(c.true_result) &&
                     closed_.closed(c.false_result));
    std::vector<Span> spans{range_of(*c.condition), c.span, range_of(*c.true_result),
                            range_of(*c.false_result),
                            join(range_of(*c.true_result), range_of(*c.false_result))};
    int base = em_.depth();
    Label on_false = em_.label(), end = em_.label();
    if (general) em_.emit(Op::DMARK);
    expr(*c.condition);
    uint32_t test =
        em_.emit(Op::COND_TEST, {general ? vm::kNone : em_.type(t), on_false.id, end.id});
    uint32_t first = em_.site(test, spans);
    expr(*c.true_result);
    em_.emit(Op::COND_ELSE, {end.id});
    em_.bind(on_false);
    em_.set_depth(base);
    expr(*c.false_result);
    em_.share_site(em_.emit(Op::COND_END), first, uint32_t(spans.size()));
    em_.bind(end);
    em_.set_depth(base + 1);
  }

  // a + b (spans: a, b, whole):       a && b:
  //   [DMARK]      |                    [DMARK]     |
  //   <a>          | a                  <a>         | a
  //   <b>          | a b                [DMARK]     | a
  //   ADD flags    | r                  <b>         | a b
  //                                     AND flags   | r
  // The marks are emitted when an operand may report a diagnostic.
  void binary(const BinaryExpr& b) {
    static constexpr Op kOps[] = {
        Op::OR, Op::AND, Op::EQ,  Op::NE,  Op::GT,  Op::GE, Op::LT,
        Op::LE, Op::ADD, Op::SUB, Op::MUL, Op::DIV, Op::MOD};  // ORDER BinaryOp
    Op op = kOps[static_cast<size_t>(b.op)];
    bool marks = may_diag(*b.lhs) || may_diag(*b.rhs);
    bool logic = op == Op::AND || op == Op::OR;
    if (marks) em_.emit(Op::DMARK);
    expr(*b.lhs);
    if (marks && logic) em_.emit(Op::DMARK);
    expr(*b.rhs);
    uint32_t pc = em_.emit(op, {marks ? vm::kFlagMarks : 0u});
    em_.site(pc, {range_of(*b.lhs), range_of(*b.rhs), b.span});
  }

  // -a (spans: a, whole):
  //   [DMARK]      |
  //   <a>          | a
  //   NEG flags    | r
  void unary(const UnaryExpr& u) {
    bool marks = may_diag(*u.operand);
    if (marks) em_.emit(Op::DMARK);
    expr(*u.operand);
    uint32_t pc =
        em_.emit(u.op == UnaryOp::Negate ? Op::NEG : Op::NOT, {marks ? vm::kFlagMarks : 0u});
    em_.site(pc, {range_of(*u.operand), u.span});
  }

  // {k = v, ...} (spans of OBJ_ITEM: key, value):
  //   OBJ_BEGIN         |
  //   [DMARK]           |
  //   <k>               | k
  //   [DMARK]           | k
  //   <v>               | k v
  //   OBJ_ITEM flags    |
  //   ...
  //   OBJ_END           | o
  void object(const ObjectExpr& o) {
    if (static_object(o)) return;
    em_.emit(Op::OBJ_BEGIN);
    for (const ObjectItem& i : o.items) {
      const auto& k = as<ObjectKeyExpr>(*i.key);
      bool marks = key_is_ambiguous(k) || (key_keyword(k).empty() && may_diag(*k.wrapped));
      if (marks) em_.emit(Op::DMARK);
      object_key(k);
      if (marks) em_.emit(Op::DMARK);
      expr(*i.value);
      uint32_t pc = em_.emit(Op::OBJ_ITEM, {marks ? vm::kFlagMarks : 0u});
      em_.site(pc, {range_of(k), range_of(*i.value)});
    }
    em_.emit(Op::OBJ_END);
  }

  // The text of object key [k] when it is known now: a bare name or a
  // string literal.
  static std::optional<std::string_view> static_key(const ObjectKeyExpr& k) {
    if (key_is_ambiguous(k)) return std::nullopt;
    std::string_view kw = key_keyword(k);
    if (!kw.empty()) return kw;
    const Expr* w = k.wrapped;
    if (w->kind == ExprKind::Template) {
      const auto& t = as<TemplateExpr>(*w);
      if (t.parts.size != 1) return std::nullopt;
      w = t.parts[0];
    }
    if (w->kind != ExprKind::Literal) return std::nullopt;
    const auto& l = as<LiteralExpr>(*w);
    if (l.value.kind != LitKind::String) return std::nullopt;
    return l.value.text;
  }

  // {k1 = v1, ...} with every key known now: the values, then one
  // instruction that builds the object.
  //   <v1> ... <vn>      | v1..vn
  //   OBJ_STATIC n O     | object
  bool static_object(const ObjectExpr& o) {
    std::vector<std::string> keys;  // as strings are: NFC
    for (const ObjectItem& i : o.items) {
      std::optional<std::string_view> k = static_key(as<ObjectKeyExpr>(*i.key));
      if (!k) return false;
      keys.emplace_back(Value::string(*k).as_string());
    }
    std::vector<std::string> names = keys;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    Program& p = em_.program();
    vm::ObjectDesc d;
    d.first_name = uint32_t(p.object_names.size());
    d.num_attrs = uint32_t(names.size());
    for (const std::string& n : names) p.object_names.push_back(em_.name(n));
    d.first_slot = uint32_t(p.object_slots.size());
    d.num_items = uint32_t(keys.size());
    for (const std::string& k : keys) {
      auto at = std::lower_bound(names.begin(), names.end(), k);
      p.object_slots.push_back(uint32_t(at - names.begin()));
    }
    d.cache = em_.new_cache();
    uint32_t index = uint32_t(p.objects.size());
    p.objects.push_back(d);
    for (const ObjectItem& i : o.items) expr(*i.value);
    em_.emit(Op::OBJ_STATIC, {d.num_items, index});
    return true;
  }

  // An object key: a bare name is its own text; a bare a.b is an error.
  void object_key(const ObjectKeyExpr& k) {
    if (key_is_ambiguous(k)) {
      Program& p = em_.program();
      p.static_diags.push_back(vm::StaticDiag{
          "Ambiguous attribute key",
          "If this expression is intended to be a reference, wrap it in parentheses. If it's "
          "instead intended "
          "as a literal name containing periods, wrap it in quotes to create a string literal."});
      em_.site(em_.emit(Op::ERROR, {uint32_t(p.static_diags.size() - 1)}), {range_of(k)});
      return;
    }
    std::string_view kw = key_keyword(k);
    if (!kw.empty()) {
      em_.emit(Op::CONST, {em_.constant(Value::string(kw))});
      return;
    }
    expr(*k.wrapped);
  }

  // [for k, v in coll : val if cond] / {for k, v in coll : key => val... if cond}:
  //   <coll>             | c
  //   FOR_BEGIN F end    |           (spans: coll, whole)
  // next:                |
  //   FOR_NEXT done      |           (binds k and v)
  //   <cond>             | b
  //   FOR_COND next      |           (spans: cond, whole)
  //   <key>              | k         (object only)
  //   FOR_KEY next       | k'        (spans: key, whole)
  //   <val>              | k' v
  //   FOR_ITEM_KV        |           (FOR_ITEM for a tuple)
  //   JUMP next          |
  // done:                |
  //   FOR_END            | r
  // end:                 | r
  // With an `if`, the first pass through FOR_NEXT binds unknown values and
  // the condition runs once as the reference's early type check.
  void for_expr(const ForExpr& x) {
    Program& p = em_.program();
    vm::ForDesc d;
    d.val_slot = em_.new_local();
    if (!x.key_var.empty() && x.key_var != x.val_var) d.key_slot = em_.new_local();
    d.object = x.key != nullptr;
    d.group = x.group;
    d.has_cond = x.condition != nullptr;
    p.fors.push_back(d);
    uint32_t fi = uint32_t(p.fors.size() - 1);

    int base = em_.depth();
    Label next = em_.label(), done = em_.label(), end = em_.label();
    expr(*x.collection);
    em_.site(em_.emit(Op::FOR_BEGIN, {fi, end.id}), {range_of(*x.collection), x.span});
    em_.bind(next);
    em_.emit(Op::FOR_NEXT, {done.id});

    size_t scope_size = scope_.size();
    if (d.key_slot != vm::kNoSlot) scope_.push_back({x.key_var, d.key_slot, for_depth_});
    scope_.push_back({x.val_var, d.val_slot, for_depth_});
    sync_scope();
    ++for_depth_;
    if (x.condition) {
      expr(*x.condition);
      em_.site(em_.emit(Op::FOR_COND, {next.id}), {range_of(*x.condition), x.span});
    }
    if (x.key) {
      expr(*x.key);
      em_.site(em_.emit(Op::FOR_KEY, {next.id}), {range_of(*x.key), x.span});
      expr(*x.value);
      em_.site(em_.emit(Op::FOR_ITEM_KV), {range_of(*x.key), x.span});
    } else {
      expr(*x.value);
      em_.emit(Op::FOR_ITEM);
    }
    --for_depth_;
    scope_.resize(scope_size);
    sync_scope();
    em_.emit(Op::JUMP, {next.id});
    em_.bind(done);
    em_.set_depth(base);
    em_.emit(Op::FOR_END);
    em_.bind(end);
    em_.set_depth(base + 1);
  }

  // src[*].attr:
  //   [DMARK]            |
  //   <src>              | s
  //   SPLAT_BEGIN S end  |           (spans: src, src to marker)
  // next:                |
  //   SPLAT_NEXT done    |           (binds the item)
  //   <each>             | v
  //   SPLAT_ITEM         |
  //   JUMP next          |
  // done:                |
  //   SPLAT_END next     | r         (or back to next over element types;
  //                      |            spans: each, whole)
  // end:                 | r
  void splat(const SplatExpr& s) {
    Program& p = em_.program();
    vm::SplatDesc d;
    d.item_slot = em_.new_local();
    d.marks = may_diag(*s.source);
    p.splats.push_back(d);
    uint32_t si = uint32_t(p.splats.size() - 1);

    int base = em_.depth();
    Label next = em_.label(), done = em_.label(), end = em_.label();
    if (d.marks) em_.emit(Op::DMARK);
    expr(*s.source);
    em_.site(em_.emit(Op::SPLAT_BEGIN, {si, end.id}),
             {range_of(*s.source), join(range_of(*s.source), s.marker_span)});
    em_.bind(next);
    em_.emit(Op::SPLAT_NEXT, {done.id});
    anon_slots_[s.item] = d.item_slot;
    expr(*s.each);
    anon_slots_.erase(s.item);
    em_.emit(Op::SPLAT_ITEM);
    em_.emit(Op::JUMP, {next.id});
    em_.bind(done);
    em_.set_depth(base);
    em_.site(em_.emit(Op::SPLAT_END, {next.id}), {range_of(*s.each), s.span});
    em_.bind(end);
    em_.set_depth(base + 1);
  }

  Emitter em_;
  const Closedness& closed_;
  FoldState* shared_;
  bool fold_;
  const util::StackBudget& budget_;
  bool too_deep_ = false;
  std::vector<Binding> scope_;
  std::unordered_map<const Expr*, uint16_t> anon_slots_;
  int for_depth_ = 0;
  std::unordered_map<const Expr*, const Type*> types_;
};

}  // namespace

}  // namespace compile

namespace {

// A program that returns [v].
std::shared_ptr<Program> constant_program(Value v, std::shared_ptr<const Source> source) {
  auto p = Program::make();
  p->source = std::move(source);
  compile::Emitter em(*p);
  em.emit(vm::Op::CONST, {em.constant(std::move(v))});
  em.emit(vm::Op::RETURN);
  em.finish();
  return p;
}

// The value of [e] when it is a literal, or a quoted string or heredoc
// without interpolations or directives (and not long enough for folding
// to give up on it): what lowering and folding it would make a constant
// of, found without either. Most expressions of a configuration are such
// (descriptions, names, types, sizes).
std::optional<Value> plain_literal(const ast::Expr& e) {
  using namespace ast;
  if (e.kind == ExprKind::Literal) return compile::literal_value(as<LiteralExpr>(e).value);
  if (e.kind != ExprKind::Template) return std::nullopt;
  const auto& t = as<TemplateExpr>(e);
  if (t.parts.size == 0) return Value::string("");
  if (t.parts.size != 1 || t.parts[0]->kind != ExprKind::Literal) return std::nullopt;
  const Literal& lit = as<LiteralExpr>(*t.parts[0]).value;
  if (lit.kind != LitKind::String || lit.text.size() > 4096) return std::nullopt;
  return Value::string(lit.text);
}

}  // namespace

CompileResult compile_expression(const ast::Expr& expr, std::shared_ptr<const Source> source) {
  // The compiler recurses once per level of nesting: a tree too deep for
  // this thread's stack is compiled again on a big one (util/stack.h).
  if (std::optional<Value> v = plain_literal(expr)) {
    CompileResult r;
    r.program = constant_program(std::move(*v), std::move(source));
    return r;
  }
  return util::run_deep([&](const util::StackBudget& budget) {
    auto p = Program::make();
    p->source = source;
    syntax::Closedness closed(expr, budget);
    compile::FoldState fold;
    compile::Lowerer l(*p, closed, closed.too_deep() ? nullptr : &fold, budget);
    l.expr(expr);
    l.emitter().emit(vm::Op::RETURN);
    l.emitter().finish();
    CompileResult r;
    if (closed.too_deep() || l.too_deep()) {
      // Even the big stack was not enough: a program that gives DynamicVal.
      Diagnostic d;
      d.summary = "Expression too deeply nested";
      d.detail = "This expression has more levels of nesting than the compiler can handle.";
      if (source) d.subject = source->range(expr.span);
      r.program = constant_program(Value::dynamic(), source);
      r.diagnostics.push_back(std::move(d));
      return r;
    }
    r.program = std::move(p);
    return r;
  });
}

}  // namespace hclvm

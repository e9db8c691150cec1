// Node construction for both parsers. Each method builds the node the
// reference builds for the same construct, with the same source ranges; the
// comments name the reference behaviour where it is not obvious.
#include "syntax/builder.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_set>

#include "syntax/nesting.h"

namespace hclvm::syntax {

// Reports whether number token text [s] has a value, as the reference's
// cty.ParseNumberVal (big.Float, 512 bits) decides: the exponent must fit in
// 64 bits, and the binary exponent of a non-zero value in 32 bits.
bool number_readable(std::string_view s) {
  size_t i = 0;
  std::string_view int_digits, frac_digits;
  size_t from = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  int_digits = s.substr(from, i - from);
  if (i < s.size() && s[i] == '.') {
    from = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    frac_digits = s.substr(from, i - from);
  }
  int64_t exp = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i == s.size()) return false;
    // Accumulate as negative so that INT64_MIN is representable.
    int64_t acc = 0;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      int d = s[i] - '0';
      if (acc < (INT64_MIN + d) / 10) return false;
      acc = acc * 10 - d;
    }
    if (!neg) {
      if (acc == INT64_MIN) return false;
      acc = -acc;
    }
    exp = acc;
  }
  if (i != s.size()) return false;
  // The mantissa is all the digits as one integer; zero is always fine.
  std::string digits = std::string(int_digits) + std::string(frac_digits);
  size_t nz = digits.find_first_not_of('0');
  if (nz == std::string::npos) return true;
  std::string_view sig = std::string_view(digits).substr(nz);
  // Bit length of the mantissa, from its leading digits (exact enough away
  // from the 2^31 boundary, which no real literal comes near).
  size_t lead = std::min<size_t>(sig.size(), 18);
  double head = 0;
  for (size_t k = 0; k < lead; ++k) head = head * 10 + (sig[k] - '0');
  double bits = std::floor(std::log2(head) + double(sig.size() - lead) * std::log2(10.0)) + 1;
  double exp2 = bits - double(frac_digits.size()) + double(exp);
  return exp2 >= double(INT32_MIN) && exp2 <= double(INT32_MAX);
}

void Builder::error(std::string summary, std::string detail, Span subject) {
  failed_ = true;
  diags_.push_back(Diagnostic{Severity::Error, std::move(summary), std::move(detail), src_.range(subject), std::nullopt});
}

void Builder::error(std::string summary, std::string detail, Span subject, Span context) {
  failed_ = true;
  diags_.push_back(Diagnostic{Severity::Error, std::move(summary), std::move(detail), src_.range(subject),
                              src_.range(context)});
}

template <class T>
static T* node(Arena& a, ExprKind k, Span s) {
  T* n = a.make<T>();
  n->kind = k;
  n->span = s;
  return n;
}

Expr* Builder::literal(Span span, Literal v) {
  auto* e = node<LiteralExpr>(a_, ExprKind::Literal, span);
  e->value = v;
  return e;
}

void Builder::check_number(std::string_view num) {
  // Only an exponent, a second dot ("1..2", "1.5.2": the scanner takes them
  // as one token) or hundreds of millions of digits can make a literal
  // unreadable: the common case costs one scan.
  bool suspect = num.size() > 64 || num.find_first_of("eE") != std::string_view::npos ||
                 num.find('.') != num.rfind('.');
  if (suspect && !number_readable(num)) failed_ = true;
}

Expr* Builder::number(Span tok) {
  std::string_view num = text(tok);
  check_number(num);
  return literal(tok, Literal{LitKind::Number, false, num});
}
Expr* Builder::boolean(Span tok, bool b) { return literal(tok, Literal{LitKind::Bool, b, {}}); }
Expr* Builder::null(Span tok) { return literal(tok, Literal{LitKind::Null, false, {}}); }
Expr* Builder::dynamic(Span span) { return literal(span, Literal{LitKind::Dynamic, false, {}}); }

Expr* Builder::variable(Span name_tok) {
  std::string_view name = text(name_tok);
  if (name == "true") return boolean(name_tok, true);
  if (name == "false") return boolean(name_tok, false);
  if (name == "null") return null(name_tok);
  auto* e = node<ScopeTraversalExpr>(a_, ExprKind::ScopeTraversal, name_tok);
  e->steps.data = a_.array<Traverser>(1);
  e->steps.data[0] = Traverser::root(name, name_tok);
  e->steps.size = e->steps.cap = 1;
  return e;
}

// Returns [steps] with [step] appended: in place when there is room or the
// array is the arena's latest allocation (the usual case: a chain is built
// step after step), else in a new array twice the size.
static List<Traverser> append(Arena& a, List<Traverser> steps, const Traverser& step) {
  uint32_t n = steps.size;
  if (n >= steps.cap && !a.try_extend(steps.data, sizeof(Traverser) * n, sizeof(Traverser) * (n + 1))) {
    uint32_t cap = n < 2 ? 2 : 2 * n;
    Traverser* grown = a.array<Traverser>(cap);
    if (n) std::memcpy(static_cast<void*>(grown), steps.data, sizeof(Traverser) * n);
    steps.data = grown;
    steps.cap = cap;
  }
  steps.data[n] = step;
  steps.size = n + 1;
  if (steps.cap < steps.size) steps.cap = steps.size;
  return steps;
}

// The reference's makeRelativeTraversal: a step on a traversal extends it,
// on anything else starts a relative traversal.
static Expr* make_relative(Arena& a, Expr* from, const Traverser& step) {
  if (from->kind == ExprKind::ScopeTraversal) {
    auto* t = static_cast<ScopeTraversalExpr*>(from);
    t->steps = append(a, t->steps, step);
    t->span = join(t->span, step.span);
    return t;
  }
  if (from->kind == ExprKind::RelativeTraversal) {
    auto* t = static_cast<RelativeTraversalExpr*>(from);
    t->steps = append(a, t->steps, step);
    t->span = join(t->span, step.span);
    return t;
  }
  auto* t = node<RelativeTraversalExpr>(a, ExprKind::RelativeTraversal, join(from->span, step.span));
  t->source = from;
  t->steps = append(a, {}, step);
  return t;
}

// Reports whether [s] is a full splat (`[*]`) rather than attribute-only (`.*`).
static bool is_full_splat(std::string_view text, const SplatExpr* s) { return text[s->marker_span.begin] == '['; }

// Reports whether [e] is a full splat (`[*]`).
static bool is_full_splat(std::string_view text, const Expr* e) {
  return e->kind == ExprKind::Splat && is_full_splat(text, static_cast<const SplatExpr*>(e));
}

// A chain of open full splats deeper than this is cut by the nesting limit
// (each splat nests its successor), so it takes no more steps.
static constexpr size_t kMaxSplatChain = kMaxNesting + 1;

// Applies [make] to the node a postfix step on [from] belongs to: the
// innermost `each` of an open full splat (see builder.h), else [from].
// Bison builds `a[*][*]...` one step at a time on the same root, so the
// chain of open full splats under it is remembered (chain_) instead of
// descended again for every step, and only the root's span is kept up to
// date (spans only grow, so joining the new innermost span is exact); the
// spans inside the chain are refreshed once, by settle(). A chain past
// kMaxSplatChain takes no more steps: its tree is cut when parsing ends
// (nesting.h), which reports it.
template <class F>
Expr* Builder::apply_step(Expr* from, F&& make) {
  if (!is_full_splat(text_, from)) return make(from);
  if (from != chain_root_) {
    settle();
    for (Expr* e = from; is_full_splat(text_, e) && chain_.size() <= kMaxSplatChain;
         e = static_cast<SplatExpr*>(e)->each)
      chain_.push_back(static_cast<SplatExpr*>(e));
    chain_root_ = from;
  }
  if (chain_.size() > kMaxSplatChain) return from;
  SplatExpr* inner = chain_.back();
  inner->each = make(inner->each);
  if (is_full_splat(text_, inner->each)) chain_.push_back(static_cast<SplatExpr*>(inner->each));
  from->span = join(from->span, inner->each->span);
  return from;
}

void Builder::settle() {
  for (size_t i = chain_.size(); i-- > 0;) chain_[i]->span = join(chain_[i]->source->span, chain_[i]->each->span);
  chain_.clear();
  chain_root_ = nullptr;
}

// Appends [step] to the `each` of attribute-only splat [s]; the reference's
// step traversal there spans the steps only, not the splat marker.
static void attr_splat_append(Arena& a, SplatExpr* s, const Traverser& step) {
  if (s->each->kind == ExprKind::AnonSymbol) {
    auto* t = node<RelativeTraversalExpr>(a, ExprKind::RelativeTraversal, step.span);
    t->source = s->item;
    t->steps = append(a, {}, step);
    s->each = t;
  } else {
    auto* t = static_cast<RelativeTraversalExpr*>(s->each);
    t->steps = append(a, t->steps, step);
    t->span = join(t->span, step.span);
  }
  s->span = join(s->source->span, step.span);
}

// Applies traversal [step] (attribute or legacy index) to [from].
Expr* Builder::apply_attr_step(Expr* from, const Traverser& step) {
  return apply_step(from, [&](Expr* target) -> Expr* {
    if (target->kind == ExprKind::Splat && !is_full_splat(text_, static_cast<SplatExpr*>(target))) {
      attr_splat_append(a_, static_cast<SplatExpr*>(target), step);
      return target;
    }
    return make_relative(a_, target, step);
  });
}

Expr* Builder::attr(Expr* from, Span dot, Span name_tok) {
  return apply_attr_step(from, attr_step(dot, name_tok));
}

Traverser Builder::attr_step(Span dot, Span name_tok) {
  return Traverser::attr(text(name_tok), join(dot, name_tok));
}

Expr* Builder::legacy_index(Expr* from, Span dot, Span number_tok) {
  std::string_view num = text(number_tok);
  check_number(num);
  Traverser step = Traverser::index(Literal{LitKind::Number, false, num}, join(dot, number_tok));
  if (size_t i = num.find('.'); i != std::string_view::npos) {
    error("Invalid legacy index syntax",
          "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper "
          "index syntax instead, like [" + std::string(num.substr(0, i)) + "][" + std::string(num.substr(i + 1)) + "].",
          number_tok);
    step.set_key(Literal{LitKind::Dynamic, false, {}});
  }
  return apply_attr_step(from, step);
}

Traverser Builder::index_step(Span dot, Span number_tok, Span star) {
  std::string_view num = text(number_tok);
  Traverser step = Traverser::index(Literal{LitKind::Number, false, num}, join(dot, number_tok));
  if (size_t i = num.find('.'); i != std::string_view::npos) {
    error("Invalid legacy index syntax",
          "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper "
          "index syntax with a full splat expression [*] instead, like [" + std::string(num.substr(0, i)) + "][" +
              std::string(num.substr(i + 1)) + "].",
          star);
    step.set_key(Literal{LitKind::Dynamic, false, {}});
  }
  return step;
}

// Returns the constant key of an index expression, as the reference folds it
// into a traversal step: a literal, or a template that is one literal string.
static const Literal* constant_key(const Expr* key) {
  if (key->kind == ExprKind::Literal) return &static_cast<const LiteralExpr*>(key)->value;
  if (key->kind == ExprKind::Template) {
    const auto* t = static_cast<const TemplateExpr*>(key);
    if (t->parts.size == 1 && t->parts[0]->kind == ExprKind::Literal) {
      const Literal* v = &static_cast<const LiteralExpr*>(t->parts[0])->value;
      if (v->kind == LitKind::String) return v;
    }
  }
  return nullptr;
}

Expr* Builder::index(Expr* from, Span open, Expr* key, Span close) {
  Span rng = join(open, close);
  return apply_step(from, [&](Expr* target) -> Expr* {
    if (const Literal* k = constant_key(key)) return make_relative(a_, target, Traverser::index(*k, rng));
    auto* e = node<IndexExpr>(a_, ExprKind::Index, join(target->span, rng));
    e->collection = target;
    e->key = key;
    e->open_span = open;
    e->bracket_span = rng;
    return e;
  });
}

AnonSymbolExpr* Builder::anon(Span span) { return node<AnonSymbolExpr>(a_, ExprKind::AnonSymbol, span); }

Expr* Builder::attr_splat(Expr* from, Span dot, Span star, const std::vector<Traverser>& steps, Span first,
                          Span last) {
  auto* s = node<SplatExpr>(a_, ExprKind::Splat, join(from->span, last));
  s->source = from;
  s->item = anon(join(dot, star));
  s->marker_span = join(dot, star);
  if (steps.empty()) {
    s->each = s->item;
  } else {
    auto* t = node<RelativeTraversalExpr>(a_, ExprKind::RelativeTraversal, join(first, last));
    t->source = s->item;
    for (const Traverser& st : steps) t->steps = append(a_, t->steps, st);
    s->each = t;
  }
  return s;
}

Expr* Builder::full_splat(Expr* from, AnonSymbolExpr* item, Expr* each, Span open, Span close) {
  auto* s = node<SplatExpr>(a_, ExprKind::Splat, join(from->span, each->span));
  s->source = from;
  s->item = item;
  s->each = each;
  s->marker_span = join(open, close);
  return s;
}

Expr* Builder::splat_attr_open(Expr* from, Span dot, Span star) {
  return apply_step(from, [&](Expr* target) -> Expr* {
    // `.*` right after an attribute-only splat is the reference's "Nested
    // splat expression not allowed".
    if (target->kind == ExprKind::Splat) failed_ = true;
    return attr_splat(target, dot, star, {}, star, star);
  });
}

Expr* Builder::splat_full_open(Expr* from, Span open, Span close) {
  return apply_step(from, [&](Expr* target) -> Expr* {
    AnonSymbolExpr* item = anon(join(open, close));
    return full_splat(target, item, item, open, close);
  });
}

Expr* Builder::call(Span name, std::string_view full_name, List<Expr*> args, bool expand_final, Span open,
                    Span close) {
  auto* e = node<FunctionCallExpr>(a_, ExprKind::FunctionCall, join(name, close));
  e->name = full_name;
  e->args = args;
  e->expand_final = expand_final;
  e->name_span = name;
  e->open_paren_span = open;
  e->close_paren_span = close;
  return e;
}

Expr* Builder::conditional(Expr* c, Expr* t, Expr* f, Span start) {
  auto* e = node<ConditionalExpr>(a_, ExprKind::Conditional, join(start, f->span));
  e->condition = c;
  e->true_result = t;
  e->false_result = f;
  return e;
}

Expr* Builder::binary(BinaryOp op, Expr* lhs, Expr* rhs) {
  auto* e = node<BinaryExpr>(a_, ExprKind::Binary, join(lhs->span, rhs->span));
  e->op = op;
  e->lhs = lhs;
  e->rhs = rhs;
  return e;
}

Expr* Builder::unary(UnaryOp op, Span symbol, Expr* operand) {
  auto* e = node<UnaryExpr>(a_, ExprKind::Unary, join(symbol, operand->span));
  e->op = op;
  e->operand = operand;
  e->symbol_span = symbol;
  return e;
}

Expr* Builder::parens(Span open, Expr* inner, Span close) {
  auto* e = node<ParensExpr>(a_, ExprKind::Parens, join(open, close));
  e->inner = inner;
  return e;
}

Expr* Builder::tuple(Span open, List<Expr*> items, Span close) {
  auto* e = node<TupleExpr>(a_, ExprKind::Tuple, join(open, close));
  e->items = items;
  e->open_span = open;
  return e;
}

Expr* Builder::object_key(Expr* key, bool force_non_literal) {
  auto* e = node<ObjectKeyExpr>(a_, ExprKind::ObjectKey, key->span);
  e->wrapped = key;
  e->force_non_literal = force_non_literal;
  return e;
}

Expr* Builder::object(Span open, List<ObjectItem> items, Span close) {
  auto* e = node<ObjectExpr>(a_, ExprKind::Object, join(open, close));
  e->items = items;
  e->open_span = open;
  return e;
}

Expr* Builder::for_expr(Span open, std::string_view key_var, std::string_view val_var, Expr* coll, Expr* key,
                        Expr* value, bool group, Expr* cond, Span close) {
  auto* e = node<ForExpr>(a_, ExprKind::For, join(open, close));
  e->key_var = key_var;
  e->val_var = val_var;
  e->collection = coll;
  e->key = key;
  e->value = value;
  e->group = group;
  e->condition = cond;
  e->open_span = open;
  e->close_span = close;
  return e;
}

Attribute* Builder::attribute(Span name, Span equals, Expr* value, Span end) {
  if (value != nullptr && !short_enough(value->span)) long_attribute_ = true;
  return a_.make<Attribute>(Attribute{text(name), value, join(name, end), name, equals});
}

Block* Builder::block(Span type, List<std::string_view> labels, List<Span> label_spans, Span open, Body* body,
                      Span close) {
  return a_.make<Block>(Block{text(type), labels, label_spans, body, join(type, close), type, open, close});
}

Body* Builder::body(Span begin, List<Attribute*> attrs, List<Block*> blocks, Span end) {
  // First definition wins; later ones are dropped (and reported by the
  // recovering parser). Small bodies are checked pairwise, large ones hashed.
  uint32_t kept = 0;
  if (attrs.size <= 16) {
    for (uint32_t i = 0; i < attrs.size; ++i) {
      bool dup = false;
      for (uint32_t j = 0; j < kept && !dup; ++j) dup = attrs[j]->name == attrs[i]->name;
      if (dup) failed_ = true;
      else attrs.data[kept++] = attrs[i];
    }
  } else {
    std::unordered_set<std::string_view> seen;
    seen.reserve(attrs.size);
    for (uint32_t i = 0; i < attrs.size; ++i) {
      if (!seen.insert(attrs[i]->name).second) failed_ = true;
      else attrs.data[kept++] = attrs[i];
    }
  }
  attrs.size = kept;
  return a_.make<Body>(Body{attrs, blocks, join(begin, end), Span{end.end, end.end}});
}

Body* Builder::single_attr_body(Attribute* attr) {
  List<Attribute*> attrs;
  attrs.data = a_.array<Attribute*>(1);
  attrs.data[0] = attr;
  attrs.size = 1;
  return a_.make<Body>(Body{attrs, {}, attr->span, Span{attr->span.end, attr->span.end}});
}

}  // namespace hclvm::syntax

// The adapter between the Bison grammar (parser.yy) and the Builder: the
// semantic value type, the token feed that gives the grammar the context it
// cannot see (newline significance, contextual keywords), and one method per
// grammar action so that every action stays a single call.
#pragma once

#include "syntax/builder.h"
#include "syntax/token.h"

#include <vector>

namespace hclvm::syntax {

// A semantic value: a node or list pointer and the span of the token or
// construct. 16 bytes, trivially copyable, as Bison's GLR stacks require.
struct RawSpan {
  uint32_t begin, end;
  RawSpan() = default;
  RawSpan(Span x) : begin(x.begin), end(x.end) {}
  operator Span() const { return Span{begin, end}; }
};

struct Sem {
  void* p;
  RawSpan s;
};

// Accumulators for lists the grammar builds left to right.
struct BodyAcc { Seq* attrs; Seq* blocks; };
struct LabelAcc { Seq* texts; Seq* spans; };
struct ForIntro { Span key, val, in; Expr* coll; bool has_key; };

class Grammar {
 public:
  enum class Start { Config, Expr, Template };

  Grammar(Builder& b, const Tokens& tokens, Start start);

  // Returns the next grammar token for Bison, filling [lval].
  int lex(Sem* lval);

  // Results.
  bool syntax_error = false;
  Body* result_body = nullptr;
  Expr* result_expr = nullptr;

  void set_body(Sem acc) { result_body = make_body(root_begin_, acc, eof_span_); }
  void set_expr(Sem e) { result_expr = E(e); }
  void set_template(Sem acc) { result_expr = b_.template_root(assemble(acc, eof_span_, false)); }

  Sem none() { return Sem{nullptr, {}}; }
  Sem seq_empty() { return Sem{b_.seq_empty(), {}}; }
  Sem seq(Sem first) { return Sem{b_.seq(first.p), {}}; }
  Sem push(Sem s, Sem item) { return Sem{b_.push(S(s), item.p), {}}; }
  Sem push_span(Sem s, Sem tok) { return Sem{b_.push(S(s), b_.arena().make<Span>(Span(tok.s))), {}}; }
  Sem span_join(Sem a, Sem b) { return Sem{nullptr, join(a.s, b.s)}; }

  // Structure.
  Sem body_start() {
    auto* acc = b_.arena().make<BodyAcc>(BodyAcc{b_.seq_empty(), b_.seq_empty()});
    return Sem{acc, {}};
  }
  Sem body_add_attr(Sem acc, Sem attr) { b_.push(static_cast<BodyAcc*>(acc.p)->attrs, attr.p); return acc; }
  Sem body_add_block(Sem acc, Sem block) { b_.push(static_cast<BodyAcc*>(acc.p)->blocks, block.p); return acc; }
  Sem attribute(Sem name, Sem eq, Sem value) {
    return Sem{b_.attribute(name.s, eq.s, E(value), E(value)->span), join(name.s, E(value)->span)};
  }
  Sem block(Sem type, Sem labels, Sem open, Sem body_acc, Sem close) {
    Body* body = make_body(open.s, body_acc, close.s);
    return make_block(type, labels, open, body, close);
  }
  Sem one_line_block(Sem type, Sem labels, Sem open, Sem attr, Sem close) {
    Body* body = b_.single_attr_body(static_cast<Attribute*>(attr.p));
    return make_block(type, labels, open, body, close);
  }
  Sem labels_start() {
    return Sem{b_.arena().make<LabelAcc>(LabelAcc{b_.seq_empty(), b_.seq_empty()}), {}};
  }
  Sem label_ident(Sem acc, Sem tok) {
    std::string_view text = b_.text(tok.s);
    return add_label(acc, b_.arena().make<std::string_view>(text), tok.s);
  }
  Sem label_string(Sem acc, Sem open, Sem lits, Sem close);

  // Expressions.
  Sem number(Sem tok) { return X(b_.number(tok.s)); }
  Sem variable(Sem tok) { return X(b_.variable(tok.s)); }
  Sem parens(Sem open, Sem e, Sem close) { return X(b_.parens(open.s, E(e), close.s)); }
  Sem conditional(Sem c, Sem t, Sem f) { return X(b_.conditional(E(c), E(t), E(f), E(c)->span)); }
  Sem binary(BinaryOp op, Sem l, Sem r) { return X(b_.binary(op, E(l), E(r))); }
  Sem unary(UnaryOp op, Sem sym, Sem operand) { return X(b_.unary(op, sym.s, E(operand))); }
  Sem attr(Sem from, Sem dot, Sem name) { return X(b_.attr(E(from), dot.s, name.s)); }
  Sem legacy_index(Sem from, Sem dot, Sem num) { return X(b_.legacy_index(E(from), dot.s, num.s)); }
  Sem splat_attr(Sem from, Sem dot, Sem star) { return X(b_.splat_attr_open(E(from), dot.s, star.s)); }
  Sem splat_full(Sem from, Sem open, Sem close) { return X(b_.splat_full_open(E(from), open.s, close.s)); }
  Sem index(Sem from, Sem open, Sem key, Sem close) { return X(b_.index(E(from), open.s, E(key), close.s)); }
  Sem call(Sem name, Sem open, Sem args, bool expand, Sem close) {
    return X(b_.call(name.s, b_.text(name.s), b_.list<Expr*>(S(args)), expand, open.s, close.s));
  }
  Sem tuple(Sem open, Sem items, Sem close) { return X(b_.tuple(open.s, b_.list<Expr*>(S(items)), close.s)); }
  Sem object_item(Sem key, Sem value);
  Sem object(Sem open, Sem items, Sem close);
  Sem for_intro(Sem key, Sem val, Sem in, Sem coll);
  Sem for_cond(Sem if_tok, Sem cond);
  Sem for_expr(Sem open, Sem intro, Sem key, Sem value, bool group, Sem cond, Sem close);

  // Templates.
  // Template parts go on a stack shared by all templates of the parse: an
  // inner template (in an interpolation) is complete before its outer
  // template continues, so each template's parts are the top of the stack.
  // The accumulator is the index where the template's parts begin.
  Sem tpl_start() { return Sem{nullptr, Span{uint32_t(tpl_stack_.size()), 0}}; }
  Sem tpl_add(Sem acc, Sem) { return acc; }
  Sem tpl_lit(Sem tok, bool quoted);
  Sem tpl_interp(Sem open, Sem e, Sem close);
  Sem tpl_if(Sem open, Sem cond, Sem close);
  Sem tpl_end(TplPart::Kind kind, Sem open, Sem close);
  Sem tpl_for(Sem open, Sem key, Sem val, Sem in, Sem coll, Sem close);
  Sem template_expr(Sem open, Sem acc, Sem close);

 private:
  static Expr* E(Sem s) { return static_cast<Expr*>(s.p); }
  static Seq* S(Sem s) { return static_cast<Seq*>(s.p); }
  static Sem X(Expr* e) { return Sem{e, e->span}; }

  Body* make_body(Span begin, Sem acc, Span end) {
    auto* a = static_cast<BodyAcc*>(acc.p);
    return b_.body(begin, b_.list<Attribute*>(a->attrs), b_.list<Block*>(a->blocks), end);
  }
  Sem make_block(Sem type, Sem labels, Sem open, Body* body, Sem close);
  Sem add_label(Sem acc, std::string_view* text, Span span);
  TplResult assemble(Sem acc, Span end, bool flush);
  // Pushes a part of [kind] covering [span], opened by token [open].
  TplPart& part(TplPart::Kind kind, Span span, Span open);
  // Reports whether the token at [i] (an opener) is followed by the word
  // `for` (skipping newlines and comments) and returns its index in [at].
  bool followed_by_for(size_t i, size_t* at) const;

  Builder& b_;
  const Tokens& toks_;
  std::string_view text_;
  size_t next_ = 0;
  Start start_;
  bool started_ = false;
  Span root_begin_{};
  Span eof_span_{};
  std::vector<bool> newlines_;      // the include-newlines stack
  size_t keyword_at_ = size_t(-1);  // index of a token to deliver as a keyword
  int keyword_tok_ = 0;
  std::vector<TplPart> tpl_stack_;   // parts of the templates being parsed
  std::vector<Span> tpl_open_;       // the first token of each part
  std::vector<TplPart> tpl_scratch_; // one template's parts during assembly
};

}  // namespace hclvm::syntax

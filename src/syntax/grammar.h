// The adapter between the Bison grammar (parser.yy) and the Builder: the
// semantic value type, the token feed that gives the grammar the context it
// cannot see (newline significance, contextual keywords), and one method per
// grammar action so that every action stays a single call.
#pragma once

#include "syntax/builder.h"
#include "syntax/token.h"

#include <algorithm>
#include <cstddef>
#include <memory>
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

struct ForIntro { Span key, val, in; Expr* coll; bool has_key; };

// The deepest the Bison parser's stack may grow (YYMAXDEPTH in parser.yy).
// The stack holds a few entries per level of nesting (a bracket, the list
// begun in it, an operator), never more than ten, so every input whose tree
// stays within kMaxNesting fits; deeper input fails here and goes to the
// recovering parser, which reports it.
inline constexpr std::ptrdiff_t kGrammarMaxDepth = 10 * std::ptrdiff_t(kMaxNesting) + 1000;

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
  Sem span_join(Sem a, Sem b) { return Sem{nullptr, join(a.s, b.s)}; }

  // Lists. The grammar's lists are built on stacks shared by the whole
  // parse: an inner list (in an element) is complete before its outer list
  // continues, so each list is the top of its stack, and its accumulator is
  // the index where it begins. Finished lists are copied to the arena.
  Sem items_start() { return Sem{nullptr, Span{uint32_t(items_.size()), 0}}; }
  Sem item_add(Sem acc, Sem e) { items_.push_back(e.p); return acc; }

  // Structure.
  // A body's accumulator: where its attributes and its blocks begin.
  Sem body_start() { return Sem{nullptr, Span{uint32_t(attrs_.size()), uint32_t(blocks_.size())}}; }
  Sem body_add_attr(Sem acc, Sem attr) { attrs_.push_back(static_cast<Attribute*>(attr.p)); return acc; }
  Sem body_add_block(Sem acc, Sem block) { blocks_.push_back(static_cast<Block*>(block.p)); return acc; }
  // An ATTR token (`name =`): the name ends at [tok].p, the `=` is its last byte.
  Sem attribute_tok(Sem tok, Sem value) {
    Span name{tok.s.begin, uint32_t(reinterpret_cast<uintptr_t>(tok.p))};
    return attribute(Sem{nullptr, name}, Sem{nullptr, Span{tok.s.end - 1, tok.s.end}}, value);
  }
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
  Sem labels_start() { return Sem{nullptr, Span{uint32_t(labels_.size()), 0}}; }
  Sem label_ident(Sem acc, Sem tok) {
    labels_.push_back(b_.text(tok.s));
    label_spans_.push_back(tok.s);
    return acc;
  }
  Sem label_string(Sem acc, Sem str);

  // Expressions.
  Sem number(Sem tok) { return X(b_.number(tok.s)); }
  Sem variable(Sem tok) { return X(b_.variable(tok.s)); }
  Sem parens(Sem open, Sem e, Sem close) { return X(b_.parens(open.s, E(e), close.s)); }
  Sem conditional(Sem c, Sem t, Sem f) { return X(b_.conditional(E(c), E(t), E(f), E(c)->span)); }
  Sem binary(BinaryOp op, Sem l, Sem r) { return X(b_.binary(op, E(l), E(r))); }
  Sem unary(UnaryOp op, Sem sym, Sem operand) { return X(b_.unary(op, sym.s, E(operand))); }
  Sem attr(Sem from, Sem dot, Sem name) { return X(b_.attr(E(from), dot.s, name.s)); }
  // A GETATTR token: the dot is its first byte, the name starts at [step].p.
  Sem getattr(Sem from, Sem step) {
    uint32_t name = uint32_t(reinterpret_cast<uintptr_t>(step.p));
    return X(b_.attr(E(from), Span{step.s.begin, step.s.begin + 1}, Span{name, step.s.end}));
  }
  Sem legacy_index(Sem from, Sem dot, Sem num) { return X(b_.legacy_index(E(from), dot.s, num.s)); }
  Sem splat_attr(Sem from, Sem dot, Sem star) { return X(b_.splat_attr_open(E(from), dot.s, star.s)); }
  Sem splat_full(Sem from, Sem open, Sem close) { return X(b_.splat_full_open(E(from), open.s, close.s)); }
  Sem index(Sem from, Sem open, Sem key, Sem close) { return X(b_.index(E(from), open.s, E(key), close.s)); }
  Sem call(Sem name, Sem open, Sem args, bool expand, Sem close) {
    return X(b_.call(name.s, b_.text(name.s), take_exprs(args), expand, open.s, close.s));
  }
  Sem tuple(Sem open, Sem items, Sem close) { return X(b_.tuple(open.s, take_exprs(items), close.s)); }
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
  // A STRING token: [str].p is the index of its OQuote token.
  Sem string_expr(Sem str);

 private:
  static Expr* E(Sem s) { return static_cast<Expr*>(s.p); }
  static Sem X(Expr* e) { return Sem{e, e->span}; }

  // Moves the top of [stack] from index [from] into an arena list.
  template <class T>
  List<T> take(std::vector<T>& stack, uint32_t from) {
    List<T> out;
    out.size = uint32_t(stack.size() - from);
    out.data = b_.arena().array<T>(out.size);
    if (out.size) std::copy(stack.begin() + from, stack.end(), out.data);
    stack.resize(from);
    return out;
  }
  List<Expr*> take_exprs(Sem acc);
  Body* make_body(Span begin, Sem acc, Span end) {
    List<Block*> blocks = take(blocks_, acc.s.end);
    return b_.body(begin, take(attrs_, acc.s.begin), blocks, end);
  }
  Sem make_block(Sem type, Sem labels, Sem open, Body* body, Sem close);
  TplResult assemble(Sem acc, Span end, bool flush);
  // Pushes a part of [kind] covering [span], opened by token [open].
  TplPart& part(TplPart::Kind kind, Span span, Span open);
  // Consumes the newlines and comments after a newline; returns NL.
  int newline();
  // Returns the next grammar token; [at_item] tells that it starts a body
  // item, where `name =` is one ATTR token.
  int next_token(Sem* lval, bool at_item);

  // Flags of an entry of the newline stack.
  static constexpr uint8_t kNewlines = 1;  // newlines are significant
  static constexpr uint8_t kBody = 2;      // a body: the file or a block's braces
  bool newlines_count() const { return newlines_.back() & kNewlines; }
  bool in_body() const { return newlines_.back() & kBody; }
  bool item_start_ = false;  // the next token starts a body item
  int last_tok_ = 0;         // the token delivered last
  // Returns the index of the CQuote that closes the OQuote at [i] when only
  // QuotedLit tokens lie between, else 0.
  size_t plain_string_end(size_t i) const;
  // Fills spans_ with the QuotedLit tokens of the STRING [str].
  void string_lits(Sem str);

  Builder& b_;
  const Tokens& toks_;
  std::string_view text_;
  size_t next_ = 0;
  Start start_;
  bool started_ = false;
  Span root_begin_{};
  Span eof_span_{};
  size_t keyword_at_ = size_t(-1);  // index of a token to deliver as a keyword
  int keyword_tok_ = 0;

  // The stacks, kept per thread between parses so that parsing many small
  // files does not allocate them again and again.
  struct Stacks {
    std::vector<uint8_t> newlines;   // the include-newlines stack (kNewlines | kBody)
    std::vector<TplPart> tpl;        // parts of the templates being parsed
    std::vector<Span> tpl_open;      // the first token of each part
    std::vector<void*> items;        // elements, arguments, object keys and values
    std::vector<Attribute*> attrs;
    std::vector<Block*> blocks;
    std::vector<std::string_view> labels;
    std::vector<Span> label_spans;
    std::vector<Span> spans;         // literal tokens of a quoted string
    bool in_use = false;
    void clear();
    // Gives back what a big parse grew, so that one huge file does not
    // hold memory in every thread that ever parsed it.
    void release_large();
  };
  static Stacks& thread_stacks();
  // Returns this thread's stacks, or fresh ones in [own] when they are in use.
  static Stacks& take_stacks(std::unique_ptr<Stacks>& own, Stacks& shared);

  std::unique_ptr<Stacks> own_;  // when this thread's stacks are taken (a parse within a parse)
  Stacks& st_;
  std::vector<uint8_t>& newlines_;
  std::vector<TplPart>& tpl_stack_;
  std::vector<Span>& tpl_open_;
  std::vector<void*>& items_;
  std::vector<Attribute*>& attrs_;
  std::vector<Block*>& blocks_;
  std::vector<std::string_view>& labels_;
  std::vector<Span>& label_spans_;
  std::vector<Span>& spans_;

 public:
  ~Grammar() {
    st_.release_large();
    st_.in_use = false;
  }
  Grammar(const Grammar&) = delete;
  Grammar& operator=(const Grammar&) = delete;
};

}  // namespace hclvm::syntax

// The parse driver and the token feed of the Bison grammar.
//
// Every entry point scans once and runs the Bison parser; when it accepts
// and the builder saw nothing the reference rejects, its tree is the result.
// Otherwise the scanner's diagnostics are collected and the same tokens go
// to the recovering parser, whose diagnostics and tree are the reference's.
#include "syntax/parse.h"

#include "parser.hpp"
#include "syntax/grammar.h"
#include "syntax/nesting.h"
#include "syntax/recover.h"

namespace hclvm::syntax {

void Grammar::Stacks::clear() {
  newlines.clear();
  tpl.clear();
  tpl_open.clear();
  items.clear();
  attrs.clear();
  blocks.clear();
  labels.clear();
  label_spans.clear();
  spans.clear();
}

// Frees [v]'s memory when it holds more than a small parse needs.
template <class T>
static void release_if_large(std::vector<T>& v) {
  constexpr size_t kKeepBytes = size_t(256) << 10;
  if (v.capacity() * sizeof(T) > kKeepBytes) std::vector<T>().swap(v);
}

void Grammar::Stacks::release_large() {
  release_if_large(newlines);
  release_if_large(tpl);
  release_if_large(tpl_open);
  release_if_large(items);
  release_if_large(attrs);
  release_if_large(blocks);
  release_if_large(labels);
  release_if_large(label_spans);
  release_if_large(spans);
}

Grammar::Stacks& Grammar::thread_stacks() {
  thread_local Stacks stacks;
  return stacks;
}

Grammar::Stacks& Grammar::take_stacks(std::unique_ptr<Stacks>& own, Stacks& shared) {
  if (!shared.in_use) {
    shared.in_use = true;
    shared.clear();
    return shared;
  }
  own = std::make_unique<Stacks>();
  own->in_use = true;
  return *own;
}

Grammar::Grammar(Builder& b, const Tokens& tokens, Start start)
    : b_(b),
      toks_(tokens),
      text_(b.source().text()),
      start_(start),
      st_(take_stacks(own_, thread_stacks())),
      newlines_(st_.newlines),
      tpl_stack_(st_.tpl),
      tpl_open_(st_.tpl_open),
      items_(st_.items),
      attrs_(st_.attrs),
      blocks_(st_.blocks),
      labels_(st_.labels),
      label_spans_(st_.label_spans),
      spans_(st_.spans) {
  newlines_.push_back(start == Start::Config ? kNewlines | kBody : 0);
  eof_span_ = toks_.back().span;
  root_begin_ = eof_span_;
  for (const Token& t : toks_) {
    if (t.type == Tok::Comment && (t.span.end == t.span.begin || text_[t.span.end - 1] != '\n')) continue;
    root_begin_ = t.span;
    break;
  }
}


int Grammar::newline() {
  // Wherever the grammar takes a newline it takes any number of them, so a
  // run of blank lines and line comments is one NL token: fewer shifts.
  while (next_ < toks_.size()) {
    const Token& t = toks_[next_];
    if (t.type == Tok::Newline || (t.type == Tok::Comment && t.span.end > t.span.begin &&
                                   text_[t.span.end - 1] == '\n'))
      ++next_;
    else if (t.type == Tok::Comment)
      ++next_;  // a block comment between newlines is nothing
    else
      break;
  }
  return NL;
}

int Grammar::lex(Sem* lval) {
  int tok = next_token(lval, item_start_);
  // A body item starts after the file's start, a newline in a body, and
  // a block's opening brace.
  item_start_ = (tok == NL || tok == LBRACE || tok == START_CONFIG) && in_body();
  last_tok_ = tok;
  return tok;
}

int Grammar::next_token(Sem* lval, bool at_item) {
  if (!started_) {
    started_ = true;
    switch (start_) {
      case Start::Config: return START_CONFIG;
      case Start::Expr: return START_EXPR;
      case Start::Template: return START_TEMPLATE;
    }
  }
  auto open = [this](uint8_t flags) { newlines_.push_back(flags); };
  auto close = [this] { if (newlines_.size() > 1) newlines_.pop_back(); };
  while (next_ < toks_.size()) {
    size_t i = next_++;
    const Token& t = toks_[i];
    lval->p = nullptr;
    lval->s = t.span;
    switch (t.type) {
      case Tok::Comment:
        // A line comment ends a line where newlines count.
        if (newlines_count() && t.span.end > t.span.begin && text_[t.span.end - 1] == '\n') return newline();
        continue;
      case Tok::Newline:
        if (newlines_count()) return newline();
        continue;
      case Tok::EOF_: next_ = toks_.size(); return 0;
      case Tok::OBrace: {
        size_t at = for_keyword_after(toks_, i, text_);
        bool is_for = at != 0;
        if (is_for) { keyword_at_ = at; keyword_tok_ = FOR_KW; }
        // Braces in a body right after a block's type or label hold a body;
        // any other (after `=`, `(`, `,`, `:`, or `in` inside a for) an
        // object. A wrong guess on invalid input only changes which tokens
        // the grammar rejects.
        bool block = !is_for && in_body() && (last_tok_ == IDENT || last_tok_ == STRING);
        uint8_t nl = newlines_count_inside(Tok::OBrace, is_for) ? kNewlines : 0;
        open(block ? nl | kBody : nl);
        return LBRACE;
      }
      case Tok::OBrack: {
        size_t at = for_keyword_after(toks_, i, text_);
        if (at != 0) { keyword_at_ = at; keyword_tok_ = FOR_KW; }
        open(newlines_count_inside(Tok::OBrack, at != 0) ? kNewlines : 0);
        return LBRACK;
      }
      case Tok::OParen: open(newlines_count_inside(Tok::OParen, false) ? kNewlines : 0); return LPAREN;
      case Tok::CBrace: close(); return RBRACE;
      case Tok::CBrack: close(); return RBRACK;
      case Tok::CParen: close(); return RPAREN;
      case Tok::TemplateInterp:
        open(newlines_count_inside(Tok::TemplateInterp, false) ? kNewlines : 0);
        return INTERP;
      case Tok::TemplateControl: {
        open(newlines_count_inside(Tok::TemplateControl, false) ? kNewlines : 0);
        for (size_t j = i + 1; j < toks_.size(); ++j) {
          Tok k = toks_[j].type;
          if (k == Tok::Newline || k == Tok::Comment) continue;
          if (k == Tok::Ident) {
            std::string_view w = b_.text(toks_[j].span);
            int kw = w == "if" ? KW_IF : w == "else" ? KW_ELSE : w == "endif" ? KW_ENDIF
                   : w == "for" ? KW_FOR : w == "endfor" ? KW_ENDFOR : 0;
            if (kw) { keyword_at_ = j; keyword_tok_ = kw; }
          }
          break;
        }
        return CONTROL;
      }
      case Tok::TemplateSeqEnd: close(); return SEQ_END;
      case Tok::Ident:
        if (at_item && toks_[i + 1].type == Tok::Equal) {
          lval->p = reinterpret_cast<void*>(uintptr_t(t.span.end));
          lval->s = join(t.span, toks_[i + 1].span);
          next_ = i + 2;
          return ATTR;
        }
        return i == keyword_at_ ? keyword_tok_ : IDENT;
      case Tok::OQuote:
        if (size_t end = plain_string_end(i)) {
          lval->p = reinterpret_cast<void*>(i);
          lval->s = join(t.span, toks_[end].span);
          next_ = end + 1;
          return STRING;
        }
        return OQUOTE;
      case Tok::CQuote: return CQUOTE;
      case Tok::OHeredoc: return OHEREDOC;
      case Tok::CHeredoc: return CHEREDOC;
#define BINARY_OP(level, tok, grammar_tok, op) \
  case Tok::tok:                               \
    return grammar_tok;
#include "syntax/binary_ops.def"
#undef BINARY_OP
      case Tok::Equal: return EQUAL;
      case Tok::Bang: return BANG;
      case Tok::Dot:
        if (next_ < toks_.size() && toks_[next_].type == Tok::Ident && toks_[next_].span.begin == t.span.end &&
            next_ != keyword_at_) {
          lval->p = reinterpret_cast<void*>(uintptr_t(toks_[next_].span.begin));
          lval->s = join(t.span, toks_[next_].span);
          ++next_;
          return GETATTR;
        }
        return DOT;
      case Tok::Comma: return COMMA;
      case Tok::DoubleColon: return DCOLON;
      case Tok::Ellipsis: return ELLIPSIS;
      case Tok::FatArrow: return ARROW;
      case Tok::Question: return QUESTION;
      case Tok::Colon: return COLON;
      case Tok::QuotedLit: return QLIT;
      case Tok::StringLit: return SLIT;
      case Tok::NumberLit: return NUMBER;
      default: return BAD;
    }
  }
  return 0;
}

void Grammar::string_lits(Sem str) {
  spans_.clear();
  for (size_t j = reinterpret_cast<size_t>(str.p) + 1; toks_[j].type == Tok::QuotedLit; ++j)
    spans_.push_back(toks_[j].span);
}

Sem Grammar::label_string(Sem acc, Sem str) {
  string_lits(str);
  labels_.push_back(b_.label_text(spans_));
  label_spans_.push_back(str.s);
  return acc;
}

Sem Grammar::string_expr(Sem str) {
  size_t open = reinterpret_cast<size_t>(str.p);
  // Zero or one literal token: the template is that one literal (or an
  // empty one at the end of the closing quote, where the reference puts
  // it), which is what assembly would build, without assembling.
  if (toks_[open + 1].type == Tok::CQuote || toks_[open + 2].type == Tok::CQuote) {
    bool empty = toks_[open + 1].type == Tok::CQuote;
    Span close = toks_[empty ? open + 1 : open + 2].span;
    Span lit = empty ? Span{close.end, close.end} : Span(toks_[open + 1].span);
    std::string_view text = empty ? std::string_view{} : b_.decode_literal(lit, true);
    TplResult t;
    t.exprs.data = b_.arena().array<Expr*>(1);
    t.exprs.size = 1;
    t.exprs.data[0] = b_.literal(lit, Literal{LitKind::String, false, text});
    return X(b_.template_expr(toks_[open].span, t, close));
  }
  string_lits(str);
  size_t close = open + 1 + spans_.size();
  size_t first = tpl_stack_.size();
  for (Span lit : spans_) part(TplPart::Lit, lit, lit).quoted = true;
  TplResult t = assemble(Sem{nullptr, Span{uint32_t(first), 0}}, toks_[close].span, false);
  return X(b_.template_expr(toks_[open].span, t, toks_[close].span));
}

size_t Grammar::plain_string_end(size_t i) const {
  size_t j = i + 1;
  while (toks_[j].type == Tok::QuotedLit) ++j;
  return toks_[j].type == Tok::CQuote ? j : 0;
}

Sem Grammar::make_block(Sem type, Sem labels, Sem open, Body* body, Sem close) {
  List<std::string_view> texts = take(labels_, labels.s.begin);
  List<Span> spans = take(label_spans_, labels.s.begin);
  return Sem{b_.block(type.s, texts, spans, open.s, body, close.s), join(type.s, close.s)};
}

List<Expr*> Grammar::take_exprs(Sem acc) {
  List<Expr*> out;
  out.size = uint32_t(items_.size() - acc.s.begin);
  out.data = b_.arena().array<Expr*>(out.size);
  for (uint32_t i = 0; i < out.size; ++i) out.data[i] = static_cast<Expr*>(items_[acc.s.begin + i]);
  items_.resize(acc.s.begin);
  return out;
}

Sem Grammar::object_item(Sem key, Sem value) {
  // A key whose first token is `(` is never read as a bare name.
  bool force = text_[E(key)->span.begin] == '(';
  uint32_t at = uint32_t(items_.size());
  items_.push_back(b_.object_key(E(key), force));
  items_.push_back(value.p);
  return Sem{nullptr, Span{at, 0}};
}

Sem Grammar::object(Sem open, Sem items, Sem close) {
  List<ObjectItem> list;
  uint32_t from = items.s.begin;
  list.size = uint32_t(items_.size() - from) / 2;
  list.data = b_.arena().array<ObjectItem>(list.size);
  for (uint32_t i = 0; i < list.size; ++i)
    list.data[i] = ObjectItem{static_cast<Expr*>(items_[from + 2 * i]), static_cast<Expr*>(items_[from + 2 * i + 1])};
  items_.resize(from);
  return X(b_.object(open.s, list, close.s));
}

// Reports whether [s] is a token (a keyword or name) rather than none().
static bool present(Sem s) { return s.s.end > s.s.begin; }

Sem Grammar::for_intro(Sem key, Sem val, Sem in, Sem coll) {
  if (b_.text(in.s) != "in") b_.fail();
  return Sem{b_.arena().make<ForIntro>(ForIntro{key.s, val.s, in.s, E(coll), present(key)}), {}};
}

Sem Grammar::for_cond(Sem if_tok, Sem cond) {
  if (b_.text(if_tok.s) != "if") b_.fail();
  return cond;
}

Sem Grammar::for_expr(Sem open, Sem intro, Sem key, Sem value, bool group, Sem cond, Sem close) {
  auto* f = static_cast<ForIntro*>(intro.p);
  std::string_view key_var = f->has_key ? b_.text(f->key) : std::string_view{};
  return X(b_.for_expr(open.s, key_var, b_.text(f->val), f->coll, E(key), E(value), group, E(cond), close.s));
}

TplPart& Grammar::part(TplPart::Kind kind, Span span, Span open) {
  if (tpl_stack_.size() == tpl_stack_.capacity()) {
    // A part takes at least one token, so the tokens left bound the parts
    // still to come: growing straight to that bound (at most four times the
    // room) saves the copies, each resident beside its source, that
    // doubling makes of a string with millions of parts. Never by less
    // than half again, though: the tokens scanned so far may be fewer than
    // the file's, and growing by a constant would copy quadratically (200,000
    // escaped "$${" in one string took 36 s).
    size_t cap = tpl_stack_.capacity();
    size_t bound = tpl_stack_.size() + (toks_.size() - std::min(next_, toks_.size())) + 16;
    size_t want = std::max(cap + cap / 2 + 16, std::min(bound, 4 * cap));
    tpl_stack_.reserve(want);
    tpl_open_.reserve(want);
  }
  TplPart& p = tpl_stack_.emplace_back();
  p.kind = kind;
  p.span = span;
  tpl_open_.push_back(open);
  return p;
}

Sem Grammar::tpl_lit(Sem tok, bool quoted) {
  part(TplPart::Lit, tok.s, tok.s).quoted = quoted;
  return none();
}

// Sets the strip flags of [p] from its opening and closing tokens.
static void strip_flags(TplPart& p, std::string_view open, std::string_view close) {
  p.open_strip = open.size() == 3 && open[2] == '~';
  p.close_strip = close.size() == 2 && close[0] == '~';
}

Sem Grammar::tpl_interp(Sem open, Sem e, Sem close) {
  TplPart& p = part(TplPart::Interp, join(open.s, close.s), open.s);
  p.expr = E(e);
  strip_flags(p, b_.text(open.s), b_.text(close.s));
  return none();
}

Sem Grammar::tpl_if(Sem open, Sem cond, Sem close) {
  TplPart& p = part(TplPart::If, join(open.s, close.s), open.s);
  p.expr = E(cond);
  strip_flags(p, b_.text(open.s), b_.text(close.s));
  return none();
}

Sem Grammar::tpl_end(TplPart::Kind kind, Sem open, Sem close) {
  TplPart& p = part(kind, join(open.s, close.s), open.s);
  strip_flags(p, b_.text(open.s), b_.text(close.s));
  return none();
}

Sem Grammar::tpl_for(Sem open, Sem key, Sem val, Sem in, Sem coll, Sem close) {
  if (b_.text(in.s) != "in") b_.fail();
  TplPart& p = part(TplPart::For, join(open.s, close.s), open.s);
  p.expr = E(coll);
  if (present(key)) p.key_var = key.s;
  p.val_var = val.s;
  strip_flags(p, b_.text(open.s), b_.text(close.s));
  return none();
}

TplResult Grammar::assemble(Sem acc, Span end, bool flush) {
  size_t begin = acc.s.begin;
  Span start = begin < tpl_open_.size() ? tpl_open_[begin] : end;
  // Assembled in place: the parts are only read, and nothing pushes onto
  // the stack until they are dropped.
  TplResult t = b_.assemble_template(std::span<const TplPart>(tpl_stack_).subspan(begin), start, end, flush);
  tpl_stack_.resize(begin);
  tpl_open_.resize(begin);
  return t;
}

Sem Grammar::template_expr(Sem open, Sem acc, Sem close) {
  bool flush = b_.text(open.s).substr(0, 3) == "<<-";
  TplResult t = assemble(acc, close.s, flush);
  return X(b_.template_expr(open.s, t, close.s));
}

}  // namespace hclvm::syntax

extern int hclvm_yyparse(hclvm::syntax::Grammar* G);

namespace hclvm {

using syntax::Builder;
using syntax::Grammar;
using syntax::Path;

// Offsets are 32-bit: the largest input a parse takes.
constexpr size_t kMaxInput = size_t(UINT32_MAX) - 1;

// Reports whether [src] is too large to parse, adding the diagnostic to [r].
static bool too_large(ParseResult& r, const std::shared_ptr<const Source>& src) {
  r.source = src;
  r.arena = std::make_unique<Arena>();
  if (src->text().size() <= kMaxInput) return false;
  r.diagnostics.push_back(Diagnostic{Severity::Error, "File too large",
                                     "hclvm reads files of up to 4 GiB; this one has " +
                                         std::to_string(src->text().size()) + " bytes.",
                                     std::nullopt, std::nullopt});
  return true;
}

// Scans [src] in [mode]. Characters the language does not use become
// tokens that the grammar never accepts, so the scanner's diagnostics are
// only collected (recovering()) when the fast path has failed.
static syntax::Tokens lex(ParseResult& r, const std::shared_ptr<const Source>& src, syntax::ScanMode mode) {
  r.source = src;
  r.arena = std::make_unique<Arena>();
  syntax::Tokens toks = syntax::scan(src->text(), mode);
  if (mode == syntax::ScanMode::Template) src->scan_as_template();
  return toks;
}

// Returns a builder for the recovering parser, after adding the scanner's
// diagnostics to [r] (the reference reports them before any other).
static Builder recovering(ParseResult& r, const syntax::Tokens& toks) {
  syntax::check_invalid_tokens(toks, *r.source, r.diagnostics);
  return Builder(*r.arena, *r.source);
}

// Runs the Bison parser from [start]; returns it if the tree is clean.
// [long_attribute] (when given) tells whether an attribute was built that
// might nest too deep (Builder::long_attribute).
static bool fast(ParseResult& r, const syntax::Tokens& toks, Grammar::Start start,
                 syntax::Body** body, syntax::Expr** expr, bool* long_attribute = nullptr) {
  Builder b(*r.arena, *r.source);
  Grammar g(b, toks, start);
  int status = hclvm_yyparse(&g);
  b.settle();
  if (long_attribute) *long_attribute = b.long_attribute();
  if (status != 0 || g.syntax_error || b.failed()) return false;
  if (body) *body = g.result_body;
  if (expr) *expr = g.result_expr;
  return true;
}

// parse_config_via, leaving the tokens in [toks].
static FileParse parse_config_into(std::shared_ptr<const Source> src, Path path,
                                   syntax::Tokens& toks) {
  FileParse r;
  if (too_large(r, src)) return r;
  toks = lex(r, src, syntax::ScanMode::Normal);
  syntax::Body* body = nullptr;
  bool long_attribute = true;
  if (path != Path::Recover &&
      fast(r, toks, Grammar::Start::Config, &body, nullptr, &long_attribute)) {
    r.body = body;
    // Only what could nest too deep is walked: nearly always nothing.
    if (long_attribute || r.source->text().size() >= syntax::kBlockNestingBytes) {
      Builder b(*r.arena, *r.source);
      syntax::limit_nesting(b, body, r.diagnostics, long_attribute);
    }
    return r;
  }
  if (path == Path::Fast) return r;
  Builder b = recovering(r, toks);
  syntax::Body* rb = syntax::recover_config(b, toks, r.diagnostics);
  syntax::limit_nesting(b, rb, r.diagnostics);
  r.body = rb;
  return r;
}

FileParse syntax::parse_config_via(std::shared_ptr<const Source> src, Path path) {
  syntax::Tokens toks;
  return parse_config_into(std::move(src), path, toks);
}

FileParse syntax::parse_config_tokens(std::shared_ptr<const Source> src, Tokens& tokens) {
  return parse_config_into(std::move(src), Path::Auto, tokens);
}

ExprParse syntax::parse_expression_via(std::shared_ptr<const Source> src, Path path) {
  ExprParse r;
  if (too_large(r, src)) return r;
  Tokens toks = lex(r, src, ScanMode::Normal);
  Expr* expr = nullptr;
  if (path != Path::Recover && fast(r, toks, Grammar::Start::Expr, nullptr, &expr)) {
    Builder b(*r.arena, *r.source);
    r.expr = limit_nesting(b, expr, r.diagnostics);
    return r;
  }
  if (path == Path::Fast) return r;
  Builder b = recovering(r, toks);
  r.expr = limit_nesting(b, recover_expression(b, toks, r.diagnostics), r.diagnostics);
  return r;
}

ExprParse syntax::parse_template_via(std::shared_ptr<const Source> src, Path path) {
  ExprParse r;
  if (too_large(r, src)) return r;
  Tokens toks = lex(r, src, ScanMode::Template);
  Expr* expr = nullptr;
  if (path != Path::Recover && fast(r, toks, Grammar::Start::Template, nullptr, &expr)) {
    Builder b(*r.arena, *r.source);
    r.expr = limit_nesting(b, expr, r.diagnostics);
    return r;
  }
  if (path == Path::Fast) return r;
  Builder b = recovering(r, toks);
  r.expr = limit_nesting(b, recover_template(b, toks, r.diagnostics), r.diagnostics);
  return r;
}

FileParse parse_config(std::shared_ptr<const Source> src) { return syntax::parse_config_via(std::move(src), Path::Auto); }
ExprParse parse_expression(std::shared_ptr<const Source> src) {
  return syntax::parse_expression_via(std::move(src), Path::Auto);
}
ExprParse parse_template(std::shared_ptr<const Source> src) {
  return syntax::parse_template_via(std::move(src), Path::Auto);
}

// Traversals are a flat sequence of steps with no grammar to speak of: the
// recovering parser reads them directly.
TraversalParse parse_traversal_abs(std::shared_ptr<const Source> src) {
  TraversalParse r;
  if (too_large(r, src)) return r;
  syntax::Tokens toks = lex(r, src, syntax::ScanMode::Normal);
  Builder b = recovering(r, toks);
  r.traversal = syntax::recover_traversal_abs(b, toks, r.diagnostics);
  return r;
}

TraversalParse parse_traversal_rel(std::shared_ptr<const Source> src) {
  TraversalParse r;
  if (too_large(r, src)) return r;
  syntax::Tokens toks = lex(r, src, syntax::ScanMode::Normal);
  Builder b = recovering(r, toks);
  r.traversal = syntax::recover_traversal_rel(b, toks, r.diagnostics);
  return r;
}

bool valid_identifier(std::string_view s) {
  // ASCII, the common case, without the scanner: a letter or `_`, then
  // letters, digits, `_` and `-` (ID_Start and ID_Continue in ASCII).
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  bool ascii = true;
  for (char c : s) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) {
    if (s.empty() || !(letter(s[0]) || s[0] == '_')) return false;
    for (char c : s.substr(1))
      if (!(letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
    return true;
  }
  // The scanner skips a leading byte order mark, which no identifier has.
  if (s.substr(0, 3) == "\xEF\xBB\xBF") return false;
  syntax::Tokens toks = syntax::scan(s, syntax::ScanMode::IdentOnly);
  return toks.size() == 2 && toks[0].type == syntax::Tok::Ident &&
         toks[1].type == syntax::Tok::EOF_;
}

}  // namespace hclvm

// Template assembly: turns the flat parts of a quoted string, heredoc or
// standalone template into expressions, in the reference's three passes
// (parseTemplateParts, flushHeredocTemplateParts plus
// meldConsecutiveStringLiterals, then templateParser). First literals are
// decoded and strip markers applied, then `<<-` indentation is removed and
// adjacent literals are joined, and last `%{if}`/`%{for}` directives are
// nested into ConditionalExpr and TemplateJoinExpr nodes, with the
// reference's diagnostics for unbalanced directives.
//
// The reference works on its scanner's tokens, and several of its quirks
// come from that: a heredoc literal is one token per line, so `${~` trims
// only the end of its own line and a line following a `~}` is not seen as
// the start of a line by the `<<-` rule (it keeps its indentation).
#include "syntax/builder.h"
#include "util/unicode.h"

#include <cstddef>
#include <limits>
#include <string>

namespace hclvm::syntax {

namespace {

// The reference's RangeBetween: from the start of [a] to the end of [b]
// (no min/max: the reference does not order them either).
Span between(Span a, Span b) { return Span{a.begin, b.end}; }

// One of the reference's template tokens: a literal with its final text, an
// interpolation, an opening or closing directive, or the end.
struct TTok {
  enum Kind : uint8_t { Lit, Interp, If, For, Else, EndIf, EndFor, End };
  Kind kind;
  Span span;
  std::string_view val = {};      // Lit
  Expr* expr = nullptr;           // Interp: the expression; If: condition; For: collection
  const TplPart* for_ = nullptr;  // For: the part, with the names
};

// Returns the directive name of closing token [t] for messages.
const char* directive_name(const TTok& t) {
  switch (t.kind) {
    case TTok::Else: return "else";
    case TTok::EndIf: return "endif";
    default: return "endfor";
  }
}

// Removes the common leading white space of the lines of a `<<-` heredoc
// from [toks], as flushHeredocTemplateParts does: a line counts from a
// token that follows a literal ending in a newline; lines that are all
// space are ignored, a line that starts with a sequence counts as zero, and
// the prefix is measured and cut in grapheme clusters.
void flush_heredoc(std::vector<TTok>& toks) {
  constexpr size_t none = std::numeric_limits<size_t>::max();
  size_t min_spaces = none;
  bool newline = true;
  std::vector<size_t> adjust;
  for (size_t i = 0; i < toks.size(); ++i) {
    const TTok& t = toks[i];
    if (newline) {
      newline = false;
      size_t spaces = 0;
      if (t.kind == TTok::Lit) {
        std::string_view trimmed = uni::trim_left_space(t.val);
        if (trimmed.empty() && t.val.ends_with('\n')) {
          spaces = none;
        } else {
          spaces = uni::count_graphemes(t.val.substr(0, t.val.size() - trimmed.size()));
          adjust.push_back(i);
        }
      } else if (t.kind == TTok::End) {
        break;
      }
      if (spaces < min_spaces) min_spaces = spaces;
    }
    if (t.kind == TTok::Lit && t.val.ends_with('\n')) newline = true;
  }
  for (size_t i : adjust) {
    TTok& t = toks[i];
    // Cut whole clusters of the full text: a space followed by a combining
    // mark goes as one, as in the reference.
    size_t cut = 0;
    for (size_t k = 0; k < min_spaces && cut < t.val.size(); ++k) cut += uni::grapheme_len(t.val, cut);
    t.val = t.val.substr(cut);
    t.span.begin += uint32_t(cut);
  }
}

// Joins each run of adjacent literals of [toks] into one literal spanning
// the run (meldConsecutiveStringLiterals). Texts that are still adjacent in
// memory (untouched source) are joined without copying.
void meld_literals(Arena& arena, std::vector<TTok>& toks) {
  size_t out = 0;
  for (size_t i = 0; i < toks.size();) {
    if (toks[i].kind != TTok::Lit || i + 1 == toks.size() || toks[i + 1].kind != TTok::Lit) {
      toks[out++] = toks[i++];
      continue;
    }
    size_t j = i;
    bool contiguous = true;
    size_t total = 0;
    for (; j < toks.size() && toks[j].kind == TTok::Lit; ++j) {
      if (j > i && toks[j - 1].val.data() + toks[j - 1].val.size() != toks[j].val.data()) contiguous = false;
      total += toks[j].val.size();
    }
    TTok joined = toks[i];
    joined.span.end = toks[j - 1].span.end;
    if (contiguous) {
      joined.val = std::string_view(toks[i].val.data(), total);
    } else {
      std::string buf;
      buf.reserve(total);
      for (size_t k = i; k < j; ++k) buf += toks[k].val;
      joined.val = arena.copy(buf);
    }
    toks[out++] = joined;
    i = j;
  }
  toks.resize(out);
}

// The reference's templateParser: nests directives over a token list that
// always ends with an End token.
class TplParser {
 public:
  // Reads [toks] (ending with End), building nodes with [b].
  TplParser(Builder& b, const std::vector<TTok>& toks) : b_(b), toks_(toks) {}

  // Parses expressions up to the End token (parseRoot). The reference's
  // parseExpr/parseIf/parseFor recursion runs here on an explicit stack of
  // open directives, so 100,000 nested `%{if}`s cannot overflow the C++
  // stack.
  std::vector<Expr*> root() {
    std::vector<Frame> stack;
    stack.push_back(Frame{nullptr, {}, {}, false});
    stack.back().first.reserve(toks_.size());  // most parts stay at the root
    for (;;) {
      Frame& f = stack.back();
      const TTok& t = peek();
      Expr* done = nullptr;  // a finished part for the frame below the top
      if (f.open == nullptr) {
        if (t.kind == TTok::End) return std::move(f.first);
      } else if (t.kind == TTok::End) {
        const char* want = f.open->kind == TTok::If ? "if directive at " : "for directive at ";
        const char* closer = f.open->kind == TTok::If ? "endif" : "endfor";
        b_.error("Unexpected end of template",
                 std::string("The ") + want + where(f.open->span) + " is missing its corresponding " + closer +
                     " directive.",
                 t.span);
        done = placeholder(t.span);
      } else if (t.kind == TTok::Else || t.kind == TTok::EndIf || t.kind == TTok::EndFor) {
        read();
        done = f.open->kind == TTok::If ? close_if(f, t) : close_for(f, t);
        if (done == nullptr) continue;  // `%{else}` switched branches
      }
      if (done != nullptr) {
        stack.pop_back();
        stack.back().current().push_back(done);
        continue;
      }
      switch (t.kind) {
        case TTok::Lit:
          read();
          f.current().push_back(string_lit(t.span, t.val));
          break;
        case TTok::Interp:
          read();
          f.current().push_back(t.expr);
          break;
        case TTok::If:
        case TTok::For:
          stack.push_back(Frame{&read(), {}, {}, false});
          break;
        default:  // an else/endif/endfor outside any directive
          read();
          b_.error(std::string("Unexpected ") + directive_name(t) + " directive",
                   "The control directives within this template are unbalanced.", t.span);
          f.current().push_back(placeholder(t.span));
          break;
      }
    }
  }

 private:
  // A directive being parsed: its opening token (null for the root), the
  // parts of its first branch and of its else branch.
  struct Frame {
    const TTok* open;
    std::vector<Expr*> first, second;
    bool in_else;
    std::vector<Expr*>& current() { return in_else ? second : first; }
  };

  // Returns the next token without moving past it.
  const TTok& peek() const { return toks_[pos_]; }
  // Returns the next token and moves past it, except past the End token.
  const TTok& read() {
    const TTok& t = toks_[pos_];
    if (t.kind != TTok::End) ++pos_;
    return t;
  }

  // Returns a string literal node with text [val] over [span].
  Expr* string_lit(Span span, std::string_view val) {
    return b_.arena().make<LiteralExpr>(Expr{ExprKind::Literal, span}, Literal{LitKind::String, false, val});
  }
  // Returns the reference's placeholder for a part that failed, over [span].
  Expr* placeholder(Span span) {
    return b_.arena().make<LiteralExpr>(Expr{ExprKind::Literal, span}, Literal{LitKind::Dynamic, false, {}});
  }
  // Returns a template of [parts] (non-empty) spanning them.
  Expr* sub_template(const std::vector<Expr*>& parts) {
    return b_.arena().make<TemplateExpr>(Expr{ExprKind::Template, between(parts.front()->span, parts.back()->span)},
                                         b_.list(parts));
  }
  // Formats [s] as the reference prints a range inside a message.
  std::string where(Span s) const { return range_string(b_.source().range(s)); }

  // Handles closing token [t] (else/endif/endfor) inside the `%{if}` of
  // [f]: returns the finished conditional, a placeholder after an error, or
  // null when `%{else}` only switched to the else branch (parseIf).
  Expr* close_if(Frame& f, const TTok& t) {
    const TTok& open = *f.open;
    if (t.kind == TTok::Else && !f.in_else) {
      f.in_else = true;
      return nullptr;
    }
    if (t.kind != TTok::EndIf) {
      if (t.kind == TTok::Else)
        b_.error("Unexpected else directive",
                 "Already in the else clause for the if started at " + where(open.span) + ".", t.span);
      else
        b_.error(std::string("Unexpected ") + directive_name(t) + " directive",
                 "Expecting an endif directive for the if started at " + where(open.span) + ".", t.span);
      return placeholder(t.span);
    }
    Span endif = t.span;
    if (f.first.empty()) f.first.push_back(string_lit(Span{open.span.end, open.span.end}, {}));
    if (f.second.empty()) f.second.push_back(string_lit(Span{endif.begin, endif.begin}, {}));
    Expr* yes = sub_template(f.first);
    Expr* no = sub_template(f.second);
    return b_.arena().make<ConditionalExpr>(Expr{ExprKind::Conditional, between(open.span, endif)}, open.expr, yes,
                                            no);
  }

  // Handles closing token [t] inside the `%{for}` of [f]: returns the join
  // over the for expression, or a placeholder after an error (parseFor).
  Expr* close_for(Frame& f, const TTok& t) {
    const TTok& open = *f.open;
    if (t.kind != TTok::EndFor) {
      if (t.kind == TTok::Else)
        b_.error("Unexpected else directive", "An else clause is not expected for a for directive.", t.span);
      else
        b_.error(std::string("Unexpected ") + directive_name(t) + " directive",
                 "Expecting an endfor directive corresponding to the for directive at " + where(open.span) + ".",
                 t.span);
      return placeholder(t.span);
    }
    Span endfor = t.span;
    if (f.first.empty()) f.first.push_back(string_lit(Span{open.span.end, open.span.end}, {}));
    Span span = between(open.span, endfor);
    auto* fe = b_.arena().make<ForExpr>(Expr{ExprKind::For, span}, b_.text(open.for_->key_var),
                                        b_.text(open.for_->val_var), open.expr,
                                        static_cast<Expr*>(nullptr), sub_template(f.first),
                                        static_cast<Expr*>(nullptr), false, open.span, endfor);
    // A TemplateJoinExpr's range is its tuple's.
    return b_.arena().make<TemplateJoinExpr>(Expr{ExprKind::TemplateJoin, span}, fe);
  }

  Builder& b_;
  const std::vector<TTok>& toks_;
  size_t pos_ = 0;
};

}  // namespace

// Assembles template [parts] from [start] to [end] (see builder.h).
TplResult Builder::assemble_template(std::span<const TplPart> parts, Span start, Span end, bool flush) {
  std::vector<TTok> toks;
  toks.reserve(parts.size() + 1);

  // Pass 1 (parseTemplateParts): literal text and strip markers. A `~}`
  // trims the literal right after it; a `${~`/`%{~` trims the literal right
  // before it, and only when that literal was the previous part.
  bool ltrim_next = false;
  bool next_can_trim_prev = false;
  for (const TplPart& p : parts) {
    bool ltrim = ltrim_next;
    bool can_trim_prev = next_can_trim_prev;
    ltrim_next = next_can_trim_prev = false;

    if (p.kind == TplPart::Lit) {
      std::string_view val = decode_literal(p.span, p.quoted);
      if (ltrim) val = uni::trim_left_space(val);
      toks.push_back(TTok{TTok::Lit, p.span, val});
      next_can_trim_prev = true;
      continue;
    }

    if (can_trim_prev && p.open_strip && !toks.empty() && toks.back().kind == TTok::Lit)
      toks.back().val = uni::trim_right_space(toks.back().val);
    if (p.kind == TplPart::Broken) continue;

    TTok t{TTok::End, p.span, {}, p.expr};
    switch (p.kind) {
      case TplPart::Interp: t.kind = TTok::Interp; break;
      case TplPart::If: t.kind = TTok::If; break;
      case TplPart::Else: t.kind = TTok::Else; break;
      case TplPart::EndIf: t.kind = TTok::EndIf; break;
      case TplPart::EndFor: t.kind = TTok::EndFor; break;
      default:
        t.kind = TTok::For;
        t.for_ = &p;
        break;
    }
    toks.push_back(t);
    ltrim_next = p.close_strip;
  }

  // An empty template is one empty literal, placed at the end of the token
  // that follows the opener (for `""` that is after the closing quote).
  if (toks.empty()) toks.push_back(TTok{TTok::Lit, Span{start.end, start.end}, {}});
  toks.push_back(TTok{TTok::End, end, {}});

  // Pass 2: `<<-` indentation, then joining adjacent literals.
  if (flush) flush_heredoc(toks);
  meld_literals(a_, toks);

  // Pass 3: directive nesting.
  TplResult r;
  r.exprs = list(TplParser(*this, toks).root());
  r.passthru = toks.size() == 2 && toks[0].kind == TTok::Interp;
  r.span = between(start, end);
  return r;
}

// Wraps [t] as a quoted or heredoc template from [open] to [close].
Expr* Builder::template_expr(Span open, const TplResult& t, Span close) {
  Span span = between(open, close);
  if (t.passthru) return a_.make<TemplateWrapExpr>(Expr{ExprKind::TemplateWrap, span}, t.exprs[0]);
  return a_.make<TemplateExpr>(Expr{ExprKind::Template, span}, t.exprs);
}

// Wraps [t] as a standalone template over the parts' own range.
Expr* Builder::template_root(const TplResult& t) {
  if (t.passthru) return a_.make<TemplateWrapExpr>(Expr{ExprKind::TemplateWrap, t.span}, t.exprs[0]);
  return a_.make<TemplateExpr>(Expr{ExprKind::Template, t.span}, t.exprs);
}

}  // namespace hclvm::syntax

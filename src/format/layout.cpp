// The layout of hclwrite's format (layout.h), pass by pass as the reference
// runs them:
//
//  1. Lines. A line ends after a Newline token or a `#`/`//` comment (which
//     holds its newline); whatever follows the last one, up to EOF, is the
//     final line. So a heredoc, a multi-line `/* */` comment and a string
//     broken over lines are inside one line each.
//  2. Cells. A line's tokens are its lead; if the lead has more than one
//     token and ends with a comment, that comment is the comment cell; then
//     the first `=` after the lead's first token starts the assign cell
//     (through the end of the lead) when the brackets from it to the end
//     balance. Only that first `=` is tried.
//  3. Indentation. The lead's brackets up to its first heredoc opener are
//     summed: a line that opens pushes one level remembering how many it
//     opened; a line that closes pops levels by those counts (a partly
//     closed level stays). Its first token gets two spaces a level, counted
//     after the pops. Blank lines lose their blanks.
//  4. Spacing. Inside each lead and each assign cell, the spaces before a
//     token follow from it, the token before it and the one before that
//     (space_after, the reference's table).
//  5. Alignment. In each run of consecutive lines with an assign cell the
//     `=` goes one column after the widest lead; then in each run of lines
//     with a comment cell the comment goes one column after the widest lead
//     and assign. Widths count grapheme clusters and spaces.
//
// The line table is per thread and reused, so laying out a file allocates
// nothing once the table has grown to the longest file seen.
#include "format/layout.h"

#include <utf8proc.h>

#include <algorithm>

#include "util/budget.h"
#include "util/meter.h"
#include "util/unicode.h"

namespace hclvm::format {

using syntax::Tok;
using syntax::Token;

namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr size_t kKinds = size_t(Tok::Count_);

// One formatting line: its first token, where its assign and comment
// cells start (kNone: no such cell), and the widths alignment needs: the
// lead's, and the assign cell's without the spaces before its `=`.
struct Line {
  uint32_t begin;
  uint32_t assign = kNone, comment = kNone;
  uint32_t lead_cols = 0, assign_rest = 0;
};

// Returns +1 for a token that opens a bracket, -1 for one that closes one.
constexpr int bracket_change(Tok t) {
  switch (t) {
    case Tok::OBrace:
    case Tok::OBrack:
    case Tok::OParen:
    case Tok::TemplateInterp:
    case Tok::TemplateControl: return 1;
    case Tok::CBrace:
    case Tok::CBrack:
    case Tok::CParen:
    case Tok::TemplateSeqEnd: return -1;
    default: return 0;
  }
}

// Reports whether a minus after [before] (Nil: none) is a negation.
constexpr bool negation_after(Tok before) {
  switch (before) {
    case Tok::Nil:
    case Tok::OParen: case Tok::OBrace: case Tok::OBrack:
    case Tok::Equal: case Tok::Colon: case Tok::Comma: case Tok::Question:
    case Tok::Plus: case Tok::Star: case Tok::Slash: case Tok::Percent: case Tok::Minus:
    case Tok::EqualOp: case Tok::NotEqual: case Tok::GreaterThan: case Tok::GreaterThanEq:
    case Tok::LessThan: case Tok::LessThanEq:
    case Tok::And: case Tok::Or: case Tok::Bang:
      return true;
    default:
      return false;
  }
}

// What the spacing rules decide from a subject and the token after it:
// no space, one, or (kMinus) it depends on the token before; kIn marks an
// identifier subject for which `in` after an identifier means one space
// (rule 8), whatever the low bits say.
enum : uint8_t { kNo = 0, kOne = 1, kMinus = 2, kIn = 4 };

// The reference's spaceAfterToken for [subject] and [after], in its order,
// with the rules that read the token before left to the caller.
constexpr uint8_t space_rule(Tok subject, Tok after) {
  if (after == Tok::Newline || after == Tok::Nil) return kNo;
  if (subject == Tok::Ident && after == Tok::OParen) return kNo;  // a call
  if ((subject == Tok::Ident && after == Tok::DoubleColon) || (subject == Tok::DoubleColon && after == Tok::Ident))
    return kNo;
  if (subject == Tok::Dot || after == Tok::Dot) return kNo;
  if (after == Tok::Comma || after == Tok::Ellipsis) return kNo;
  if (subject == Tok::Comma) return kOne;
  if (subject == Tok::QuotedLit || subject == Tok::StringLit || subject == Tok::OQuote || subject == Tok::OHeredoc ||
      after == Tok::QuotedLit || after == Tok::StringLit || after == Tok::CQuote || after == Tok::CHeredoc)
    return kNo;  // template text is never spaced
  // Rule 8 (`for x in [a]` would otherwise read as an index on `in`).
  uint8_t in = subject == Tok::Ident ? kIn : 0;
  if (after == Tok::OBrack && (subject == Tok::Ident || subject == Tok::NumberLit || bracket_change(subject) < 0))
    return in | kNo;
  if (subject == Tok::Bang) return kNo;
  if (subject == Tok::Minus) return kMinus;
  if (subject == Tok::OBrace || after == Tok::CBrace)
    return in | (subject == Tok::OBrace && after == Tok::CBrace ? kNo : kOne);
  if ((subject == Tok::TemplateInterp || subject == Tok::TemplateControl) && after == Tok::OBrace) return kOne;
  if (subject == Tok::CBrace && after == Tok::TemplateSeqEnd) return kOne;
  if (subject == Tok::TemplateSeqEnd && (after == Tok::TemplateInterp || after == Tok::TemplateControl)) return kNo;
  if (bracket_change(subject) > 0) return kNo;
  if (bracket_change(after) < 0) return in | kNo;
  return in | kOne;
}

// space_rule for every pair of kinds, and negation_after for every kind.
struct Tables {
  uint8_t space[kKinds][kKinds];
  bool negation[kKinds];
  int8_t bracket[kKinds];
};

constexpr Tables make_tables() {
  Tables t{};
  for (size_t s = 0; s < kKinds; ++s) {
    for (size_t a = 0; a < kKinds; ++a) t.space[s][a] = space_rule(Tok(s), Tok(a));
    t.negation[s] = negation_after(Tok(s));
    t.bracket[s] = int8_t(bracket_change(Tok(s)));
  }
  return t;
}

constexpr Tables kTables = make_tables();

// Sets the spaces before tokens (begin, end) of [toks] from the spacing
// rules; the cell is [begin, end).
inline void space_cell(const Token* toks, const TokenText& text, uint32_t begin, uint32_t end, uint32_t* spaces) {
  Tok before = Tok::Nil;
  for (uint32_t i = begin; i + 1 < end; ++i) {
    Tok subject = toks[i].type;
    uint8_t v = kTables.space[size_t(subject)][size_t(toks[i + 1].type)];
    if (v & kIn) {
      v = before == Tok::Ident && text(toks[i].span) == "in" ? uint8_t(kOne) : uint8_t(v & 3);
    }
    if (v == kMinus) v = kTables.negation[size_t(before)] ? uint8_t(kNo) : uint8_t(kOne);
    spaces[i + 1] = v;
    before = subject;
  }
}

// Returns the columns of tokens [begin, end) of [toks] with their spaces.
inline uint32_t cell_columns(const Token* toks, const TokenText& text, uint32_t begin, uint32_t end,
                             const uint32_t* spaces) {
  size_t n = 0;
  for (uint32_t i = begin; i < end; ++i) n += spaces[i] + columns(text(toks[i].span));
  return uint32_t(n);
}

// Aligns the assign cells, then the comment cells, of [lines] (pass 5).
void align(std::vector<Line>& lines, uint32_t* spaces) {
  // Runs of assign lines.
  for (size_t i = 0; i < lines.size();) {
    if (lines[i].assign == kNone) {
      ++i;
      continue;
    }
    size_t j = i;
    uint32_t widest = 0;
    for (; j < lines.size() && lines[j].assign != kNone; ++j) widest = std::max(widest, lines[j].lead_cols);
    for (size_t k = i; k < j; ++k) {
      Line& l = lines[k];
      spaces[l.assign] = widest - l.lead_cols + 1;
      l.assign_rest += spaces[l.assign];  // now the whole assign cell's width
    }
    i = j;
  }
  // Runs of comment lines.
  for (size_t i = 0; i < lines.size();) {
    if (lines[i].comment == kNone) {
      ++i;
      continue;
    }
    size_t j = i;
    uint32_t widest = 0;
    for (; j < lines.size() && lines[j].comment != kNone; ++j)
      widest = std::max(widest, lines[j].lead_cols + lines[j].assign_rest);
    for (size_t k = i; k < j; ++k) spaces[lines[k].comment] = widest - (lines[k].lead_cols + lines[k].assign_rest) + 1;
    i = j;
  }
}

}  // namespace

size_t columns(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i) {
    unsigned char c = p[i];
    if (c >= 0x80) break;
    n += !(c == '\n' && i > 0 && p[i - 1] == '\r');
  }
  if (i == s.size()) return n;
  // Not all ASCII: count clusters as the reference's segmenter reads
  // characters (a stray byte is a cluster of its own).
  n = 0;
  const unsigned char* end = p + s.size();
  int32_t prev = -1, state = 0;
  for (const unsigned char* q = p; q < end;) {
    int32_t cp;
    size_t len = uni::textseg_char(q, end, cp);
    if (len == 0) {
      ++n;
      prev = -1;
      state = 0;
      ++q;
      continue;
    }
    if (cp < 0x80 && prev >= 0 && prev < 0x80 && !(prev == '\r' && cp == '\n')) {
      ++n;
      state = 0;
    } else if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state)) {
      ++n;
    }
    prev = cp;
    q += len;
  }
  return n;
}

std::vector<uint32_t> spaces_before(std::span<const Token> toks) {
  std::vector<uint32_t> out(toks.size());
  uint32_t last = 0;
  for (size_t i = 0; i < toks.size(); ++i) {
    out[i] = toks[i].span.begin - last;
    last = toks[i].span.end;
  }
  return out;
}

void layout(std::span<const Token> tokens, const TokenText& text, std::span<uint32_t> spaces_span) {
  thread_local std::vector<Line> lines;
  thread_local std::vector<int> levels;
  lines.clear();
  levels.clear();
  const Token* toks = tokens.data();
  uint32_t* spaces = spaces_span.data();
  const uint32_t n = uint32_t(tokens.size()) - 1;  // EOF belongs to no line
  bool align_any = false;
  // Laying out the text of a value inside an evaluation (the built-in
  // provider's encode_expr) watches the run's deadline, a line at a time.
  util::Budget* budget = util::current_budget();
  uint32_t unpolled = 0;
  for (uint32_t b = 0;;) {
    // Passes 1 to 4 for the line [b, e): it ends after a newline or a
    // comment that holds one.
    uint32_t e = b;
    while (e < n) {
      const Token& t = toks[e++];
      if (t.type == Tok::Newline ||
          (t.type == Tok::Comment && t.span.end > t.span.begin && text(t.span).back() == '\n'))
        break;
    }
    if (b == e) break;  // the empty final line
    if (budget != nullptr && (unpolled += e - b) >= (1u << 14)) {
      unpolled = 0;
      budget->poll();
    }
    Line l{b};
    if (e - b > 1 && toks[e - 1].type == Tok::Comment) l.comment = e - 1;
    uint32_t lead_end = l.comment != kNone ? l.comment : e;
    // One walk finds the first `=` after the first token, the brackets
    // from it to the end (balanced: an assign cell), and the lead's
    // brackets up to its first heredoc opener, before the `=` and in all.
    uint32_t eq = kNone;
    int total = 0, total_at_eq = 0, lead_net = 0, lead_net_at_eq = 0;
    bool heredoc = false;
    for (uint32_t i = b; i < lead_end; ++i) {
      Tok k = toks[i].type;
      if (k == Tok::Equal && eq == kNone && i > b) {
        eq = i;
        total_at_eq = total;
        lead_net_at_eq = lead_net;
      }
      int d = kTables.bracket[size_t(k)];
      total += d;
      if (!heredoc) lead_net += d;
      heredoc |= k == Tok::OHeredoc;
    }
    if (eq != kNone && total == total_at_eq) l.assign = eq;
    int net = l.assign != kNone ? lead_net_at_eq : lead_net;
    uint32_t lead_stop = l.assign != kNone ? l.assign : lead_end;
    // Indentation (pass 3).
    if (toks[b].type == Tok::Newline) {
      spaces[b] = 0;
    } else if (net > 0) {
      spaces[b] = uint32_t(2 * levels.size());
      levels.push_back(net);
    } else {
      for (int closed = -net; closed > 0 && !levels.empty();) {
        int& top = levels.back();
        if (closed > top) {
          closed -= top;
          levels.pop_back();
        } else if (closed < top) {
          top -= closed;
          closed = 0;
        } else {
          levels.pop_back();
          closed = 0;
        }
      }
      spaces[b] = uint32_t(2 * levels.size());
    }
    // Spacing (pass 4).
    space_cell(toks, text, b, lead_stop, spaces);
    if (l.assign != kNone) space_cell(toks, text, l.assign, lead_end, spaces);
    if (l.assign != kNone || l.comment != kNone) {
      align_any = true;
      l.lead_cols = cell_columns(toks, text, b, lead_stop, spaces);
      if (l.assign != kNone && l.comment != kNone)
        l.assign_rest = 1 + cell_columns(toks, text, l.assign + 1, l.comment, spaces);
    }
    lines.push_back(l);
    if (e >= n) break;
    b = e;
  }
  if (align_any) align(lines, spaces);
  // A file's worth of lines is kept for the next call on this thread, but
  // not the table of an unusually big one.
  if (lines.capacity() > (size_t(1) << 20)) std::vector<Line>().swap(lines);
}

namespace {

// write_tokens, its text counted by [meter] when [kMetered].
template <bool kMetered>
void write_runs(std::span<const Token> toks, const TokenText& text,
                std::span<const uint32_t> spaces, std::string& out, util::TextMeter& meter) {
  // Most tokens keep the blanks they had: the output copies runs of the
  // source whole, and breaks a run only where the bytes between two tokens
  // are not the spaces wanted there (blanks that change, tokens a rewrite
  // removed or made up). Copying a run gives the same bytes as writing
  // its tokens one by one, since every gap in it is the spaces wanted.
  std::string_view src = text.src;
  auto in_src = [&](ast::Span s) { return s.end <= src.size() && (s.begin < src.size() || s.begin == s.end); };
  uint32_t run = 0, at = 0;  // the pending run of the source: [run, at)
  bool in_run = false;
  for (size_t i = 0; i < toks.size(); ++i) {
    if constexpr (kMetered) meter.check();
    const Token& t = toks[i];
    uint32_t want = spaces[i];
    bool same = in_run && in_src(t.span) && t.span.begin >= at && t.span.begin - at == want;
    for (uint32_t k = at; same && k < t.span.begin; ++k) same = src[k] == ' ';
    if (same) {
      at = t.span.end;
      continue;
    }
    if (in_run) out.append(src.substr(run, at - run));
    out.append(want, ' ');
    in_run = in_src(t.span);
    if (in_run) {
      run = t.span.begin;
      at = t.span.end;
    } else {
      out.append(text(t.span));
    }
  }
  if (in_run) out.append(src.substr(run, at - run));
}

}  // namespace

void write_tokens(std::span<const Token> toks, const TokenText& text,
                  std::span<const uint32_t> spaces, std::string& out) {
  // Inside an evaluation the text is counted as it grows, as the string
  // value it becomes there (the built-in provider's encode_expr): deep
  // nesting makes its indentation grow with the square of the depth.
  util::TextMeter meter(out, util::TextMeter::Use::StringValue);
  if (util::current_budget() != nullptr)
    write_runs<true>(toks, text, spaces, out, meter);
  else
    write_runs<false>(toks, text, spaces, out, meter);
}

}  // namespace hclvm::format

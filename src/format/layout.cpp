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

#include "util/unicode.h"

#include <algorithm>

namespace hclvm::format {

using syntax::Tok;
using syntax::Token;

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// One formatting line: tokens [begin, end), and where its assign and
// comment cells start (kNone: no such cell). The widths are filled in for
// alignment.
struct Line {
  uint32_t begin, end;
  uint32_t assign = kNone, comment = kNone;
  uint32_t lead_cols = 0, assign_cols = 0;
};

// Returns +1 for a token that opens a bracket, -1 for one that closes one.
int bracket_change(Tok t) {
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

// Reports whether token [t] with bytes from [text] ends a line: a newline,
// or a comment whose last byte is a newline.
bool ends_line(const Token& t, const TokenText& text) {
  if (t.type == Tok::Newline) return true;
  if (t.type != Tok::Comment || t.span.end == t.span.begin) return false;
  return text(t.span).back() == '\n';
}

// Reports whether a minus after [before] (Nil: none) is a negation.
bool negation_after(Tok before) {
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

// Reports whether one space goes between [subject] and the token [after]
// it, [before] being the token before the subject in the same cell (Nil at
// the cell's start); [subject_text] is the subject's bytes. The rules and
// their order are the reference's spaceAfterToken.
bool space_after(Tok before, Tok subject, std::string_view subject_text, Tok after) {
  if (after == Tok::Newline || after == Tok::Nil) return false;
  if (subject == Tok::Ident && after == Tok::OParen) return false;  // a call
  if ((subject == Tok::Ident && after == Tok::DoubleColon) || (subject == Tok::DoubleColon && after == Tok::Ident))
    return false;
  if (subject == Tok::Dot || after == Tok::Dot) return false;
  if (after == Tok::Comma || after == Tok::Ellipsis) return false;
  if (subject == Tok::Comma) return true;
  if (subject == Tok::QuotedLit || subject == Tok::StringLit || subject == Tok::OQuote || subject == Tok::OHeredoc ||
      after == Tok::QuotedLit || after == Tok::StringLit || after == Tok::CQuote || after == Tok::CHeredoc)
    return false;  // template text is never spaced
  // `for x in [a]` would otherwise read as an index on `in`.
  if (subject == Tok::Ident && subject_text == "in" && before == Tok::Ident) return true;
  if (after == Tok::OBrack && (subject == Tok::Ident || subject == Tok::NumberLit || bracket_change(subject) < 0))
    return false;
  if (subject == Tok::Bang) return false;
  if (subject == Tok::Minus) return !negation_after(before);
  if (subject == Tok::OBrace || after == Tok::CBrace) return !(subject == Tok::OBrace && after == Tok::CBrace);
  if ((subject == Tok::TemplateInterp || subject == Tok::TemplateControl) && after == Tok::OBrace) return true;
  if (subject == Tok::CBrace && after == Tok::TemplateSeqEnd) return true;
  if (subject == Tok::TemplateSeqEnd && (after == Tok::TemplateInterp || after == Tok::TemplateControl))
    return false;
  if (bracket_change(subject) > 0) return false;
  if (bracket_change(after) < 0) return false;
  return true;
}

// Sets the spaces before tokens (begin, end) of [toks] from the spacing
// rules; the cell is [begin, end).
void space_cell(std::span<const Token> toks, const TokenText& text, uint32_t begin, uint32_t end,
                std::span<uint32_t> spaces) {
  Tok before = Tok::Nil;
  for (uint32_t i = begin; i + 1 < end; ++i) {
    Tok subject = toks[i].type;
    std::string_view subject_text = subject == Tok::Ident ? text(toks[i].span) : std::string_view{};
    spaces[i + 1] = space_after(before, subject, subject_text, toks[i + 1].type) ? 1 : 0;
    before = subject;
  }
}

// Returns the columns of tokens [begin, end) of [toks] with their spaces.
uint32_t cell_columns(std::span<const Token> toks, const TokenText& text, uint32_t begin, uint32_t end,
                      std::span<const uint32_t> spaces) {
  size_t n = 0;
  for (uint32_t i = begin; i < end; ++i) n += spaces[i] + columns(text(toks[i].span));
  return uint32_t(n);
}

// Splits [toks] (without the final EOF) into [lines] and finds their cells.
void split_lines(std::span<const Token> toks, const TokenText& text, std::vector<Line>& lines) {
  lines.clear();
  uint32_t n = uint32_t(toks.size()) - 1;  // EOF belongs to no line
  uint32_t start = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!ends_line(toks[i], text)) continue;
    lines.push_back(Line{start, i + 1});
    start = i + 1;
  }
  lines.push_back(Line{start, n});
  for (Line& l : lines) {
    if (l.end - l.begin > 1 && toks[l.end - 1].type == Tok::Comment) l.comment = l.end - 1;
    uint32_t lead_end = l.comment != kNone ? l.comment : l.end;
    for (uint32_t i = l.begin + 1; i < lead_end; ++i) {
      if (toks[i].type != Tok::Equal) continue;
      int net = 0;
      for (uint32_t j = i; j < lead_end; ++j) net += bracket_change(toks[j].type);
      if (net == 0) l.assign = i;
      break;
    }
  }
}

// Indents the first token of each of [lines] (pass 3).
void indent(std::span<const Token> toks, std::vector<Line>& lines, std::span<uint32_t> spaces) {
  thread_local std::vector<int> levels;
  levels.clear();
  for (const Line& l : lines) {
    if (l.begin == l.end) continue;
    if (toks[l.begin].type == Tok::Newline) {
      spaces[l.begin] = 0;
      continue;
    }
    uint32_t lead_end = l.assign != kNone ? l.assign : l.comment != kNone ? l.comment : l.end;
    int net = 0;
    for (uint32_t i = l.begin; i < lead_end; ++i) {
      net += bracket_change(toks[i].type);
      if (toks[i].type == Tok::OHeredoc) break;
    }
    if (net > 0) {
      spaces[l.begin] = uint32_t(2 * levels.size());
      levels.push_back(net);
      continue;
    }
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
    spaces[l.begin] = uint32_t(2 * levels.size());
  }
}

// Aligns the assign cells, then the comment cells, of [lines] (pass 5).
void align(std::span<const Token> toks, const TokenText& text, std::vector<Line>& lines,
           std::span<uint32_t> spaces) {
  for (Line& l : lines) {
    if (l.assign == kNone && l.comment == kNone) continue;
    uint32_t lead_end = l.assign != kNone ? l.assign : l.comment;
    l.lead_cols = cell_columns(toks, text, l.begin, lead_end, spaces);
  }
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
      if (l.comment != kNone) l.assign_cols = cell_columns(toks, text, l.assign, l.comment, spaces);
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
      widest = std::max(widest, lines[j].lead_cols + lines[j].assign_cols);
    for (size_t k = i; k < j; ++k) spaces[lines[k].comment] = widest - (lines[k].lead_cols + lines[k].assign_cols) + 1;
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

void layout(std::span<const Token> toks, const TokenText& text, std::span<uint32_t> spaces) {
  thread_local std::vector<Line> lines;
  split_lines(toks, text, lines);
  indent(toks, lines, spaces);
  for (const Line& l : lines) {
    uint32_t lead_end = l.assign != kNone ? l.assign : l.comment != kNone ? l.comment : l.end;
    space_cell(toks, text, l.begin, lead_end, spaces);
    if (l.assign != kNone) space_cell(toks, text, l.assign, l.comment != kNone ? l.comment : l.end, spaces);
  }
  align(toks, text, lines, spaces);
  // A file's worth of lines is kept for the next call on this thread, but
  // not the table of an unusually big one.
  if (lines.capacity() > (size_t(1) << 20)) std::vector<Line>().swap(lines);
}

void write_tokens(std::span<const Token> toks, const TokenText& text, std::span<const uint32_t> spaces,
                  std::string& out) {
  for (size_t i = 0; i < toks.size(); ++i) {
    out.append(spaces[i], ' ');
    out.append(text(toks[i].span));
  }
}

}  // namespace hclvm::format

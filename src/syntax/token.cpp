// Token names, token ranges, and the reference's pass over the token stream
// that reports characters the language never uses (hclsyntax
// checkInvalidTokens). The pass runs before parsing, so these errors come
// first and the parser needs no special cases for them. Some kinds are
// reported once or a few times only, with the reference's counters, so a
// file full of tabs or single quotes gives the same short list of errors.
//
// Token ranges follow the reference's scanner, which counts columns token by
// token (see token_range in token.h). Its grapheme segmenter (go-textseg)
// takes any lead byte with the right number of continuation bytes as one
// character, even when the sequence is overlong or a surrogate, and such a
// character can take combining marks; other invalid bytes are clusters of
// their own.
#include "syntax/token.h"

#include <hclvm/syntax.h>

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace hclvm::syntax {

namespace {

// ORDER TOK
constexpr std::array<std::string_view, size_t(Tok::Count_)> kNames = {
    "OBrace", "CBrace", "OBrack", "CBrack", "OParen", "CParen",
    "OQuote", "CQuote",
    "OHeredoc", "CHeredoc",
    "Star", "Slash", "Plus", "Minus", "Percent",
    "Equal", "EqualOp", "NotEqual", "LessThan", "LessThanEq", "GreaterThan", "GreaterThanEq",
    "And", "Or", "Bang",
    "Dot", "Comma", "DoubleColon",
    "Ellipsis", "FatArrow",
    "Question", "Colon",
    "TemplateInterp",
    "TemplateControl",
    "TemplateSeqEnd",
    "QuotedLit",
    "StringLit",
    "NumberLit",
    "Ident",
    "Comment",
    "Newline",
    "EOF",
    "BitwiseAnd", "BitwiseOr", "BitwiseNot", "BitwiseXor", "StarStar",
    "Apostrophe", "Backtick", "Semicolon", "Tabs", "Invalid", "BadUTF8", "QuotedNewline",
    "Nil",
};

// Returns the number of bytes of the character at [p] (before [end]) and
// sets [cp] to it (U+E000, a code point without grapheme properties, for a
// well-formed but invalid sequence), or returns 0 for a stray byte.
size_t next_char(const unsigned char* p, const unsigned char* end, int32_t& cp) {
  unsigned char c = *p;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  size_t n = c >= 0xC0 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF7 ? 4 : 0;
  if (n == 0 || size_t(end - p) < n) return 0;
  int32_t v = c & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (p[i] & 0x3F);
  }
  static constexpr int32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  bool valid = v >= kMin[n] && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF);
  cp = valid ? v : 0xE000;
  return n;
}

// Walks the tokens of a file forward, computing positions the way the
// reference's scanner does. Queries must come in increasing byte order to
// stay linear overall; an earlier one starts the walk over.
class PosWalker {
 public:
  PosWalker(const Tokens& tokens, std::string_view text) : toks_(tokens), text_(text) { reset(); }

  // Returns the position of byte [x], which must be a token boundary.
  Pos at(uint32_t x) {
    if (x < off_) reset();
    const char* base = text_.data();
    // Jump to the start of x's line: every newline lies inside a token, and
    // a newline always ends a grapheme cluster, so counting restarts there.
    if (x > off_) {
      const void* nl = memrchr(base + off_, '\n', x - off_);
      if (nl != nullptr) {
        uint32_t line_start = uint32_t(static_cast<const char*>(nl) - base) + 1;
        line_ += uint32_t(std::count(base + off_, base + line_start, '\n'));
        col_ = 1;
        off_ = line_start;
        while (k_ < toks_.size() && toks_[k_].span.end <= off_) ++k_;
      }
    }
    while (off_ < x) {
      if (k_ >= toks_.size()) {  // cannot happen: the EOF token ends the input
        col_ += x - off_;
        off_ = x;
        break;
      }
      const Token& t = toks_[k_];
      if (off_ < t.span.begin) {  // spaces between tokens: a column per byte
        uint32_t to = std::min(x, t.span.begin);
        col_ += to - off_;
        off_ = to;
        continue;
      }
      uint32_t to = std::min(x, t.span.end);
      col_ += clusters(off_, to);
      off_ = to;
      if (off_ == t.span.end) ++k_;
    }
    return Pos{line_, col_, x};
  }

 private:
  // Starts at the beginning of the file, after a BOM, which takes no column.
  void reset() {
    off_ = text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    line_ = col_ = 1;
    k_ = 0;
  }

  // Counts the grapheme clusters of the bytes [from, to), which hold no newline.
  uint32_t clusters(uint32_t from, uint32_t to) const {
    auto p = reinterpret_cast<const unsigned char*>(text_.data()) + from;
    auto end = reinterpret_cast<const unsigned char*>(text_.data()) + to;
    uint32_t n = 0;
    int32_t prev = -1, state = 0;
    while (p < end) {
      int32_t cp;
      size_t len = next_char(p, end, cp);
      if (len == 0) {  // a stray byte: a cluster that nothing joins
        ++n;
        prev = -1;
        state = 0;
        ++p;
        continue;
      }
      if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state)) ++n;
      prev = cp;
      p += len;
    }
    return n;
  }

  const Tokens& toks_;
  std::string_view text_;
  uint32_t off_ = 0, line_ = 1, col_ = 1;
  size_t k_ = 0;  // the first token that ends after off_
};

// Appends an error with [summary] and [detail] about the token at [i].
void report(Diagnostics& diags, const Source& src, PosWalker& walk, const Token& tok,
            std::string_view summary, std::string_view detail) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.summary = summary;
  d.detail = detail;
  Pos start = walk.at(tok.span.begin);
  d.subject = Range{src.name(), start, walk.at(tok.span.end)};
  diags.push_back(std::move(d));
}

}  // namespace

Range token_range(const Tokens& tokens, size_t i, const Source& src) {
  PosWalker walk(tokens, src.text());
  Pos start = walk.at(tokens[i].span.begin);
  return Range{src.name(), start, walk.at(tokens[i].span.end)};
}

std::string_view token_name(Tok t) {
  size_t i = size_t(t);
  return i < kNames.size() ? kNames[i] : std::string_view("?");
}

void check_invalid_tokens(const Tokens& tokens, const Source& src, Diagnostics& diags) {
  // How many of each the reference has told already. Backticks and quotes
  // come in pairs, so only every other one is reported (the counters stop
  // at 3, which keeps the parity the reference ends up with).
  int told_bitwise = 0, told_exponent = 0, told_backtick = 0, told_apostrophe = 0;
  int told_semicolon = 0, told_tabs = 0, told_bad_utf8 = 0;
  std::string_view text = src.text();
  PosWalker walk(tokens, text);

  for (const Token& tok : tokens) {
    switch (tok.type) {
      case Tok::BitwiseAnd:
      case Tok::BitwiseOr:
      case Tok::BitwiseXor:
      case Tok::BitwiseNot:
        if (told_bitwise < 4) {
          std::string_view detail = "Bitwise operators are not supported.";
          if (tok.type == Tok::BitwiseAnd)
            detail = "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?";
          else if (tok.type == Tok::BitwiseOr)
            detail = "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?";
          else if (tok.type == Tok::BitwiseNot)
            detail = "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?";
          report(diags, src, walk, tok, "Unsupported operator", detail);
          ++told_bitwise;
        }
        break;
      case Tok::StarStar:
        if (told_exponent < 1) {
          report(diags, src, walk, tok, "Unsupported operator",
                 "\"**\" is not a supported operator. Exponentiation is not supported as an "
                 "operator.");
          ++told_exponent;
        }
        break;
      case Tok::Backtick:
        if (told_backtick % 2 == 0)
          report(diags, src, walk, tok, "Invalid character",
                 "The \"`\" character is not valid. To create a multi-line string, use the "
                 "\"heredoc\" syntax, like \"<<EOT\".");
        if (told_backtick <= 2) ++told_backtick;
        break;
      case Tok::Apostrophe:
        if (told_apostrophe % 2 == 0)
          report(diags, src, walk, tok, "Invalid character",
                 "Single quotes are not valid. Use double quotes (\") to enclose strings.");
        if (told_apostrophe <= 2) ++told_apostrophe;
        break;
      case Tok::Semicolon:
        if (told_semicolon < 1) {
          report(diags, src, walk, tok, "Invalid character",
                 "The \";\" character is not valid. Use newlines to separate arguments and "
                 "blocks, and commas to separate items in collection values.");
          ++told_semicolon;
        }
        break;
      case Tok::Tabs:
        if (told_tabs < 1) {
          report(diags, src, walk, tok, "Invalid character",
                 "Tab characters may not be used. The recommended indentation style is two "
                 "spaces per indent.");
          ++told_tabs;
        }
        break;
      case Tok::BadUTF8:
        if (told_bad_utf8 < 1) {
          report(diags, src, walk, tok, "Invalid character encoding",
                 "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected "
                 "in your editor.");
          ++told_bad_utf8;
        }
        break;
      case Tok::QuotedNewline:
        report(diags, src, walk, tok, "Invalid multi-line string",
               "Quoted strings may not be split over multiple lines. To produce a multi-line "
               "string, either use the \\n escape to represent a newline character or use the "
               "\"heredoc\" multi-line template syntax.");
        break;
      case Tok::Invalid: {
        std::string_view chars = text.substr(tok.span.begin, tok.span.end - tok.span.begin);
        if (chars == "\u201C" || chars == "\u201D")
          report(diags, src, walk, tok, "Invalid character",
                 "\"Curly quotes\" are not valid here. These can sometimes be inadvertently "
                 "introduced when sharing code via documents or discussion forums. It might "
                 "help to replace the character with a \"straight quote\".");
        else
          report(diags, src, walk, tok, "Invalid character",
                 "This character is not used within the language.");
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace hclvm::syntax

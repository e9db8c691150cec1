// Token names, token ranges, and the reference's pass over the token stream
// that reports characters the language never uses (hclsyntax
// checkInvalidTokens). The pass runs before parsing, so these errors come
// first and the parser needs no special cases for them. Some kinds are
// reported once or a few times only, with the reference's counters, so a
// file full of tabs or single quotes gives the same short list of errors.
//
// Token ranges follow the reference's scanner, which counts columns token by
// token: token_boundaries gives the Source the places where tokens start
// next to non-ASCII bytes, the only places where that differs from counting
// the whole line.
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

// Appends an error with [summary] and [detail] about the token at [i].
void report(Diagnostics& diags, const Source& src, const Token& tok, std::string_view summary,
            std::string_view detail) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.summary = summary;
  d.detail = detail;
  d.subject = src.range(tok.span);
  diags.push_back(std::move(d));
}

}  // namespace

std::vector<uint32_t> token_boundaries(const Tokens& tokens, std::string_view text) {
  std::vector<uint32_t> breaks;
  for (const Token& t : tokens) {
    uint32_t at = t.span.begin;
    if (at == 0 || at >= text.size()) continue;
    if (uint8_t(text[at]) >= 0x80 || uint8_t(text[at - 1]) >= 0x80) breaks.push_back(at);
  }
  return breaks;
}

Range token_range(const Tokens& tokens, size_t i, const Source& src) { return src.range(tokens[i].span); }

size_t for_keyword_after(const Tokens& tokens, size_t open, std::string_view text) {
  for (size_t j = open + 1; j < tokens.size(); ++j) {
    const Token& t = tokens[j];
    if (t.type == Tok::Newline || t.type == Tok::Comment) continue;
    bool is_for = t.type == Tok::Ident && text.substr(t.span.begin, t.span.end - t.span.begin) == "for";
    return is_for ? j : 0;
  }
  return 0;
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
          report(diags, src, tok, "Unsupported operator", detail);
          ++told_bitwise;
        }
        break;
      case Tok::StarStar:
        if (told_exponent < 1) {
          report(diags, src, tok, "Unsupported operator",
                 "\"**\" is not a supported operator. Exponentiation is not supported as an "
                 "operator.");
          ++told_exponent;
        }
        break;
      case Tok::Backtick:
        if (told_backtick % 2 == 0)
          report(diags, src, tok, "Invalid character",
                 "The \"`\" character is not valid. To create a multi-line string, use the "
                 "\"heredoc\" syntax, like \"<<EOT\".");
        if (told_backtick <= 2) ++told_backtick;
        break;
      case Tok::Apostrophe:
        if (told_apostrophe % 2 == 0)
          report(diags, src, tok, "Invalid character",
                 "Single quotes are not valid. Use double quotes (\") to enclose strings.");
        if (told_apostrophe <= 2) ++told_apostrophe;
        break;
      case Tok::Semicolon:
        if (told_semicolon < 1) {
          report(diags, src, tok, "Invalid character",
                 "The \";\" character is not valid. Use newlines to separate arguments and "
                 "blocks, and commas to separate items in collection values.");
          ++told_semicolon;
        }
        break;
      case Tok::Tabs:
        if (told_tabs < 1) {
          report(diags, src, tok, "Invalid character",
                 "Tab characters may not be used. The recommended indentation style is two "
                 "spaces per indent.");
          ++told_tabs;
        }
        break;
      case Tok::BadUTF8:
        if (told_bad_utf8 < 1) {
          report(diags, src, tok, "Invalid character encoding",
                 "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected "
                 "in your editor.");
          ++told_bad_utf8;
        }
        break;
      case Tok::QuotedNewline:
        report(diags, src, tok, "Invalid multi-line string",
               "Quoted strings may not be split over multiple lines. To produce a multi-line "
               "string, either use the \\n escape to represent a newline character or use the "
               "\"heredoc\" multi-line template syntax.");
        break;
      case Tok::Invalid: {
        std::string_view chars = text.substr(tok.span.begin, tok.span.end - tok.span.begin);
        if (chars == "\u201C" || chars == "\u201D")
          report(diags, src, tok, "Invalid character",
                 "\"Curly quotes\" are not valid here. These can sometimes be inadvertently "
                 "introduced when sharing code via documents or discussion forums. It might "
                 "help to replace the character with a \"straight quote\".");
        else
          report(diags, src, tok, "Invalid character",
                 "This character is not used within the language.");
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace hclvm::syntax

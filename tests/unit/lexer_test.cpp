// Tests of the scanner (lexer.re) and of token.cpp: token kinds, byte spans
// and positions as the reference scanner (hclsyntax/scan_tokens.rl) gives
// them, and the reference's invalid-token diagnostics.
//
// The first tables re-express the cases of the reference's
// scan_tokens_test.go; the edge-case tables were checked against the
// reference scanner itself (hcl 2.14.1, plus the newest reference's "::"
// token), and the diagnostics against `gohcl-bench dump`.
#include "syntax/token.h"

#include <hclvm/syntax.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::syntax {
namespace {

using namespace std::string_view_literals;
using T = Tok;

// One expected token: kind, then byte/line/column of its start and end.
struct Tk {
  Tok type;
  uint32_t begin, begin_line, begin_col, end, end_line, end_col;
};

struct RefCase {
  std::string_view input;
  std::vector<Tk> want;
};

struct ModeCase {
  ScanMode mode;
  std::string_view input;
  std::vector<Tk> want;
};

// Formats [toks] of [src] one per line, with the reference's positions
// when [src] is given, so that a failure shows a readable diff.
std::string show(const Tokens& toks, const Source* src) {
  std::string out;
  for (size_t i = 0; i < toks.size(); ++i) {
    out += std::string(token_name(toks[i].type)) + " " + std::to_string(toks[i].span.begin) + "-" +
           std::to_string(toks[i].span.end);
    if (src != nullptr) {
      Range r = token_range(toks, i, *src);
      out += " " + std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
             std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
    }
    out += "\n";
  }
  return out;
}

// Formats the expected tokens [want] like show().
std::string show(const std::vector<Tk>& want) {
  std::string out;
  for (const Tk& t : want)
    out += std::string(token_name(t.type)) + " " + std::to_string(t.begin) + "-" +
           std::to_string(t.end) + " " + std::to_string(t.begin_line) + ":" +
           std::to_string(t.begin_col) + "-" + std::to_string(t.end_line) + ":" +
           std::to_string(t.end_col) + "\n";
  return out;
}

// Scans [input] in [mode] and compares kinds, spans and positions with [want].
void expect_scan(ScanMode mode, std::string_view input, const std::vector<Tk>& want) {
  Source src("test.hcl", std::string(input));
  Tokens got = scan(input, mode);
  EXPECT_EQ(show(got, &src), show(want)) << "input: \"" << input << "\"";
}

// --- The reference's own scanner tests --------------------------------------

const std::vector<RefCase> kRefNormal = {
    {""sv, {{T::EOF_, 0, 1, 1, 0, 1, 1}}},
    {" "sv, {{T::EOF_, 1, 1, 2, 1, 1, 2}}},
    {"\n\n"sv, {{T::Newline, 0, 1, 1, 1, 2, 1}, {T::Newline, 1, 2, 1, 2, 3, 1}, {T::EOF_, 2, 3, 1, 2, 3, 1}}},
    {"\357\273\277"sv, {{T::EOF_, 3, 1, 1, 3, 1, 1}}},
    {" \357\273\277"sv, {{T::Invalid, 1, 1, 2, 4, 1, 3}, {T::EOF_, 4, 1, 3, 4, 1, 3}}},
    {"\376\377"sv, {{T::BadUTF8, 0, 1, 1, 1, 1, 2}, {T::BadUTF8, 1, 1, 2, 2, 1, 3}, {T::EOF_, 2, 1, 3, 2, 1, 3}}},
    {"1"sv, {{T::NumberLit, 0, 1, 1, 1, 1, 2}, {T::EOF_, 1, 1, 2, 1, 1, 2}}},
    {"12"sv, {{T::NumberLit, 0, 1, 1, 2, 1, 3}, {T::EOF_, 2, 1, 3, 2, 1, 3}}},
    {"12.3"sv, {{T::NumberLit, 0, 1, 1, 4, 1, 5}, {T::EOF_, 4, 1, 5, 4, 1, 5}}},
    {"1e2"sv, {{T::NumberLit, 0, 1, 1, 3, 1, 4}, {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    {"1e+2"sv, {{T::NumberLit, 0, 1, 1, 4, 1, 5}, {T::EOF_, 4, 1, 5, 4, 1, 5}}},
    {"hello"sv, {{T::Ident, 0, 1, 1, 5, 1, 6}, {T::EOF_, 5, 1, 6, 5, 1, 6}}},
    {"_ello"sv, {{T::Ident, 0, 1, 1, 5, 1, 6}, {T::EOF_, 5, 1, 6, 5, 1, 6}}},
    {"hel_o"sv, {{T::Ident, 0, 1, 1, 5, 1, 6}, {T::EOF_, 5, 1, 6, 5, 1, 6}}},
    {"hel-o"sv, {{T::Ident, 0, 1, 1, 5, 1, 6}, {T::EOF_, 5, 1, 6, 5, 1, 6}}},
    {"h3ll0"sv, {{T::Ident, 0, 1, 1, 5, 1, 6}, {T::EOF_, 5, 1, 6, 5, 1, 6}}},
    {"he\314\201llo"sv, {{T::Ident, 0, 1, 1, 7, 1, 6}, {T::EOF_, 7, 1, 6, 7, 1, 6}}},
    {"\"\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::CQuote, 1, 1, 2, 2, 1, 3}, {T::EOF_, 2, 1, 3, 2, 1, 3}}},
    {"\"hello\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 6, 1, 7}, {T::CQuote, 6, 1, 7, 7, 1, 8}, {T::EOF_, 7, 1, 8, 7, 1, 8}}},
    {"\"hello, \\\"world\\\"!\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 18, 1, 19}, {T::CQuote, 18, 1, 19, 19, 1, 20}, {T::EOF_, 19, 1, 20, 19, 1, 20}}},
    {"\"hello $$\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 8, 1, 9}, {T::QuotedLit, 8, 1, 9, 9, 1, 10}, {T::CQuote, 9, 1, 10, 10, 1, 11}, {T::EOF_, 10, 1, 11, 10, 1, 11}}},
    {"\"hello %%\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 8, 1, 9}, {T::QuotedLit, 8, 1, 9, 9, 1, 10}, {T::CQuote, 9, 1, 10, 10, 1, 11}, {T::EOF_, 10, 1, 11, 10, 1, 11}}},
    {"\"hello $\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 8, 1, 9}, {T::CQuote, 8, 1, 9, 9, 1, 10}, {T::EOF_, 9, 1, 10, 9, 1, 10}}},
    {"\"hello %\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 8, 1, 9}, {T::CQuote, 8, 1, 9, 9, 1, 10}, {T::EOF_, 9, 1, 10, 9, 1, 10}}},
    {"\"hello $${world}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 10, 1, 11}, {T::QuotedLit, 10, 1, 11, 16, 1, 17}, {T::CQuote, 16, 1, 17, 17, 1, 18}, {T::EOF_, 17, 1, 18, 17, 1, 18}}},
    {"\"hello %%{world}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 10, 1, 11}, {T::QuotedLit, 10, 1, 11, 16, 1, 17}, {T::CQuote, 16, 1, 17, 17, 1, 18}, {T::EOF_, 17, 1, 18, 17, 1, 18}}},
    {"\"hello %${world}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 7, 1, 8}, {T::QuotedLit, 7, 1, 8, 8, 1, 9}, {T::TemplateInterp, 8, 1, 9, 10, 1, 11}, {T::Ident, 10, 1, 11, 15, 1, 16}, {T::TemplateSeqEnd, 15, 1, 16, 16, 1, 17}, {T::CQuote, 16, 1, 17, 17, 1, 18}, {T::EOF_, 17, 1, 18, 17, 1, 18}}},
    {"\"${1}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::NumberLit, 3, 1, 4, 4, 1, 5}, {T::TemplateSeqEnd, 4, 1, 5, 5, 1, 6}, {T::CQuote, 5, 1, 6, 6, 1, 7}, {T::EOF_, 6, 1, 7, 6, 1, 7}}},
    {"\"%{a}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateControl, 1, 1, 2, 3, 1, 4}, {T::Ident, 3, 1, 4, 4, 1, 5}, {T::TemplateSeqEnd, 4, 1, 5, 5, 1, 6}, {T::CQuote, 5, 1, 6, 6, 1, 7}, {T::EOF_, 6, 1, 7, 6, 1, 7}}},
    {"\"${{}}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::OBrace, 3, 1, 4, 4, 1, 5}, {T::CBrace, 4, 1, 5, 5, 1, 6}, {T::TemplateSeqEnd, 5, 1, 6, 6, 1, 7}, {T::CQuote, 6, 1, 7, 7, 1, 8}, {T::EOF_, 7, 1, 8, 7, 1, 8}}},
    {"\"${\"\"}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::OQuote, 3, 1, 4, 4, 1, 5}, {T::CQuote, 4, 1, 5, 5, 1, 6}, {T::TemplateSeqEnd, 5, 1, 6, 6, 1, 7}, {T::CQuote, 6, 1, 7, 7, 1, 8}, {T::EOF_, 7, 1, 8, 7, 1, 8}}},
    {"\"${\"${a}\"}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::OQuote, 3, 1, 4, 4, 1, 5}, {T::TemplateInterp, 4, 1, 5, 6, 1, 7}, {T::Ident, 6, 1, 7, 7, 1, 8}, {T::TemplateSeqEnd, 7, 1, 8, 8, 1, 9}, {T::CQuote, 8, 1, 9, 9, 1, 10}, {T::TemplateSeqEnd, 9, 1, 10, 10, 1, 11}, {T::CQuote, 10, 1, 11, 11, 1, 12}, {T::EOF_, 11, 1, 12, 11, 1, 12}}},
    {"\"${\"${a} foo\"}\""sv, {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::OQuote, 3, 1, 4, 4, 1, 5}, {T::TemplateInterp, 4, 1, 5, 6, 1, 7}, {T::Ident, 6, 1, 7, 7, 1, 8}, {T::TemplateSeqEnd, 7, 1, 8, 8, 1, 9}, {T::QuotedLit, 8, 1, 9, 12, 1, 13}, {T::CQuote, 12, 1, 13, 13, 1, 14}, {T::TemplateSeqEnd, 13, 1, 14, 14, 1, 15}, {T::CQuote, 14, 1, 15, 15, 1, 16}, {T::EOF_, 15, 1, 16, 15, 1, 16}}},
    {"<<EOT\nhello world\nEOT\n"sv, {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 18, 3, 1}, {T::CHeredoc, 18, 3, 1, 21, 3, 4}, {T::Newline, 21, 3, 4, 22, 4, 1}, {T::EOF_, 22, 4, 1, 22, 4, 1}}},
    {"<<EOT\r\nhello world\r\nEOT\r\n"sv, {{T::OHeredoc, 0, 1, 1, 7, 2, 1}, {T::StringLit, 7, 2, 1, 20, 3, 1}, {T::CHeredoc, 20, 3, 1, 23, 3, 4}, {T::Newline, 23, 3, 4, 25, 4, 1}, {T::EOF_, 25, 4, 1, 25, 4, 1}}},
    {"<<EOT\nhello ${name}\nEOT\n"sv, {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 12, 2, 7}, {T::TemplateInterp, 12, 2, 7, 14, 2, 9}, {T::Ident, 14, 2, 9, 18, 2, 13}, {T::TemplateSeqEnd, 18, 2, 13, 19, 2, 14}, {T::StringLit, 19, 2, 14, 20, 3, 1}, {T::CHeredoc, 20, 3, 1, 23, 3, 4}, {T::Newline, 23, 3, 4, 24, 4, 1}, {T::EOF_, 24, 4, 1, 24, 4, 1}}},
    {"<<EOT\n${name}EOT\nEOT\n"sv, {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::TemplateInterp, 6, 2, 1, 8, 2, 3}, {T::Ident, 8, 2, 3, 12, 2, 7}, {T::TemplateSeqEnd, 12, 2, 7, 13, 2, 8}, {T::StringLit, 13, 2, 8, 17, 3, 1}, {T::CHeredoc, 17, 3, 1, 20, 3, 4}, {T::Newline, 20, 3, 4, 21, 4, 1}, {T::EOF_, 21, 4, 1, 21, 4, 1}}},
    {"<<EOT\n  hello world\nEOT\n"sv, {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 20, 3, 1}, {T::CHeredoc, 20, 3, 1, 23, 3, 4}, {T::Newline, 23, 3, 4, 24, 4, 1}, {T::EOF_, 24, 4, 1, 24, 4, 1}}},
    {"<<-EOT\n  hello world\nEOT\n"sv, {{T::OHeredoc, 0, 1, 1, 7, 2, 1}, {T::StringLit, 7, 2, 1, 21, 3, 1}, {T::CHeredoc, 21, 3, 1, 24, 3, 4}, {T::Newline, 24, 3, 4, 25, 4, 1}, {T::EOF_, 25, 4, 1, 25, 4, 1}}},
    {"<<-EOT\n  hello world\n EOT\n"sv, {{T::OHeredoc, 0, 1, 1, 7, 2, 1}, {T::StringLit, 7, 2, 1, 21, 3, 1}, {T::CHeredoc, 21, 3, 1, 25, 3, 5}, {T::Newline, 25, 3, 5, 26, 4, 1}, {T::EOF_, 26, 4, 1, 26, 4, 1}}},
    {"<<EOF\n${<<-EOF\nhello\nEOF\n}\nEOF\n"sv, {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::TemplateInterp, 6, 2, 1, 8, 2, 3}, {T::OHeredoc, 8, 2, 3, 15, 3, 1}, {T::StringLit, 15, 3, 1, 21, 4, 1}, {T::CHeredoc, 21, 4, 1, 24, 4, 4}, {T::Newline, 24, 4, 4, 25, 5, 1}, {T::TemplateSeqEnd, 25, 5, 1, 26, 5, 2}, {T::StringLit, 26, 5, 2, 27, 6, 1}, {T::CHeredoc, 27, 6, 1, 30, 6, 4}, {T::Newline, 30, 6, 4, 31, 7, 1}, {T::EOF_, 31, 7, 1, 31, 7, 1}}},
    {"<<EOF \nhello\nEOF\n"sv, {{T::LessThan, 0, 1, 1, 1, 1, 2}, {T::LessThan, 1, 1, 2, 2, 1, 3}, {T::Ident, 2, 1, 3, 5, 1, 6}, {T::Newline, 6, 1, 7, 7, 2, 1}, {T::Ident, 7, 2, 1, 12, 2, 6}, {T::Newline, 12, 2, 6, 13, 3, 1}, {T::Ident, 13, 3, 1, 16, 3, 4}, {T::Newline, 16, 3, 4, 17, 4, 1}, {T::EOF_, 17, 4, 1, 17, 4, 1}}},
    {"<<EOF \nhello\nEOF \n"sv, {{T::LessThan, 0, 1, 1, 1, 1, 2}, {T::LessThan, 1, 1, 2, 2, 1, 3}, {T::Ident, 2, 1, 3, 5, 1, 6}, {T::Newline, 6, 1, 7, 7, 2, 1}, {T::Ident, 7, 2, 1, 12, 2, 6}, {T::Newline, 12, 2, 6, 13, 3, 1}, {T::Ident, 13, 3, 1, 16, 3, 4}, {T::Newline, 17, 3, 5, 18, 4, 1}, {T::EOF_, 18, 4, 1, 18, 4, 1}}},
    {" (1 + 2) * 3 "sv, {{T::OParen, 1, 1, 2, 2, 1, 3}, {T::NumberLit, 2, 1, 3, 3, 1, 4}, {T::Plus, 4, 1, 5, 5, 1, 6}, {T::NumberLit, 6, 1, 7, 7, 1, 8}, {T::CParen, 7, 1, 8, 8, 1, 9}, {T::Star, 9, 1, 10, 10, 1, 11}, {T::NumberLit, 11, 1, 12, 12, 1, 13}, {T::EOF_, 13, 1, 14, 13, 1, 14}}},
    {"9%8"sv, {{T::NumberLit, 0, 1, 1, 1, 1, 2}, {T::Percent, 1, 1, 2, 2, 1, 3}, {T::NumberLit, 2, 1, 3, 3, 1, 4}, {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    {"\na = 1\n"sv, {{T::Newline, 0, 1, 1, 1, 2, 1}, {T::Ident, 1, 2, 1, 2, 2, 2}, {T::Equal, 3, 2, 3, 4, 2, 4}, {T::NumberLit, 5, 2, 5, 6, 2, 6}, {T::Newline, 6, 2, 6, 7, 3, 1}, {T::EOF_, 7, 3, 1, 7, 3, 1}}},
    {"# hello\n"sv, {{T::Comment, 0, 1, 1, 8, 2, 1}, {T::EOF_, 8, 2, 1, 8, 2, 1}}},
    {"// hello\n"sv, {{T::Comment, 0, 1, 1, 9, 2, 1}, {T::EOF_, 9, 2, 1, 9, 2, 1}}},
    {"// hello\n// hello"sv, {{T::Comment, 0, 1, 1, 9, 2, 1}, {T::Comment, 9, 2, 1, 17, 2, 9}, {T::EOF_, 17, 2, 9, 17, 2, 9}}},
    {"// hello\nfoo\n// hello"sv, {{T::Comment, 0, 1, 1, 9, 2, 1}, {T::Ident, 9, 2, 1, 12, 2, 4}, {T::Newline, 12, 2, 4, 13, 3, 1}, {T::Comment, 13, 3, 1, 21, 3, 9}, {T::EOF_, 21, 3, 9, 21, 3, 9}}},
    {"# hello\n# hello"sv, {{T::Comment, 0, 1, 1, 8, 2, 1}, {T::Comment, 8, 2, 1, 15, 2, 8}, {T::EOF_, 15, 2, 8, 15, 2, 8}}},
    {"# hello\nfoo\n# hello"sv, {{T::Comment, 0, 1, 1, 8, 2, 1}, {T::Ident, 8, 2, 1, 11, 2, 4}, {T::Newline, 11, 2, 4, 12, 3, 1}, {T::Comment, 12, 3, 1, 19, 3, 8}, {T::EOF_, 19, 3, 8, 19, 3, 8}}},
    {"/* hello */"sv, {{T::Comment, 0, 1, 1, 11, 1, 12}, {T::EOF_, 11, 1, 12, 11, 1, 12}}},
    {"/* hello */ howdy /* hey */"sv, {{T::Comment, 0, 1, 1, 11, 1, 12}, {T::Ident, 12, 1, 13, 17, 1, 18}, {T::Comment, 18, 1, 19, 27, 1, 28}, {T::EOF_, 27, 1, 28, 27, 1, 28}}},
    {"\360\237\214\273"sv, {{T::Invalid, 0, 1, 1, 4, 1, 2}, {T::EOF_, 4, 1, 2, 4, 1, 2}}},
    {"|"sv, {{T::BitwiseOr, 0, 1, 1, 1, 1, 2}, {T::EOF_, 1, 1, 2, 1, 1, 2}}},
    {"\200"sv, {{T::BadUTF8, 0, 1, 1, 1, 1, 2}, {T::EOF_, 1, 1, 2, 1, 1, 2}}},
    {" \200\200"sv, {{T::BadUTF8, 1, 1, 2, 2, 1, 3}, {T::BadUTF8, 2, 1, 3, 3, 1, 4}, {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    {"\t\t"sv, {{T::EOF_, 2, 1, 3, 2, 1, 3}}},
    {"locals {\n  is_percent = percent_sign == \"%\" ? true : false\n}\n"sv, {{T::Ident, 0, 1, 1, 6, 1, 7}, {T::OBrace, 7, 1, 8, 8, 1, 9}, {T::Newline, 8, 1, 9, 9, 2, 1}, {T::Ident, 11, 2, 3, 21, 2, 13}, {T::Equal, 22, 2, 14, 23, 2, 15}, {T::Ident, 24, 2, 16, 36, 2, 28}, {T::EqualOp, 37, 2, 29, 39, 2, 31}, {T::OQuote, 40, 2, 32, 41, 2, 33}, {T::QuotedLit, 41, 2, 33, 42, 2, 34}, {T::CQuote, 42, 2, 34, 43, 2, 35}, {T::Question, 44, 2, 36, 45, 2, 37}, {T::Ident, 46, 2, 38, 50, 2, 42}, {T::Colon, 51, 2, 43, 52, 2, 44}, {T::Ident, 53, 2, 45, 58, 2, 50}, {T::Newline, 58, 2, 50, 59, 3, 1}, {T::CBrace, 59, 3, 1, 60, 3, 2}, {T::Newline, 60, 3, 2, 61, 4, 1}, {T::EOF_, 61, 4, 1, 61, 4, 1}}},
};

const std::vector<RefCase> kRefTemplate = {
    {""sv, {{T::EOF_, 0, 1, 1, 0, 1, 1}}},
    {" hello "sv, {{T::StringLit, 0, 1, 1, 7, 1, 8}, {T::EOF_, 7, 1, 8, 7, 1, 8}}},
    {"\nhello\n"sv, {{T::StringLit, 0, 1, 1, 1, 2, 1}, {T::StringLit, 1, 2, 1, 7, 3, 1}, {T::EOF_, 7, 3, 1, 7, 3, 1}}},
    {"hello ${foo} hello"sv, {{T::StringLit, 0, 1, 1, 6, 1, 7}, {T::TemplateInterp, 6, 1, 7, 8, 1, 9}, {T::Ident, 8, 1, 9, 11, 1, 12}, {T::TemplateSeqEnd, 11, 1, 12, 12, 1, 13}, {T::StringLit, 12, 1, 13, 18, 1, 19}, {T::EOF_, 18, 1, 19, 18, 1, 19}}},
    {"hello ${~foo~} hello"sv, {{T::StringLit, 0, 1, 1, 6, 1, 7}, {T::TemplateInterp, 6, 1, 7, 9, 1, 10}, {T::Ident, 9, 1, 10, 12, 1, 13}, {T::TemplateSeqEnd, 12, 1, 13, 14, 1, 15}, {T::StringLit, 14, 1, 15, 20, 1, 21}, {T::EOF_, 20, 1, 21, 20, 1, 21}}},
};

TEST(LexerReference, Normal) {
  for (const RefCase& c : kRefNormal) expect_scan(ScanMode::Normal, c.input, c.want);
}

TEST(LexerReference, Template) {
  for (const RefCase& c : kRefTemplate) expect_scan(ScanMode::Template, c.input, c.want);
}

// --- Edge cases, checked against the reference scanner ------------------------

const std::vector<ModeCase> kEdge = {
    // newest: "::" is one token, ":::" is "::" then ":"
    {ScanMode::Normal, "provider::aws::f() a:::b"sv,
     {{T::Ident, 0, 1, 1, 8, 1, 9}, {T::DoubleColon, 8, 1, 9, 10, 1, 11}, {T::Ident, 10, 1, 11, 13, 1, 14},
      {T::DoubleColon, 13, 1, 14, 15, 1, 16}, {T::Ident, 15, 1, 16, 16, 1, 17}, {T::OParen, 16, 1, 17, 17, 1, 18},
      {T::CParen, 17, 1, 18, 18, 1, 19}, {T::Ident, 19, 1, 20, 20, 1, 21}, {T::DoubleColon, 20, 1, 21, 22, 1, 23},
      {T::Colon, 22, 1, 23, 23, 1, 24}, {T::Ident, 23, 1, 24, 24, 1, 25}, {T::EOF_, 24, 1, 25, 24, 1, 25}}},
    // operators, longest match first
    {ScanMode::Normal, "a==b!=c>=d<=e&&f||g...h=>i<j>k!l?m:n"sv,
     {{T::Ident, 0, 1, 1, 1, 1, 2}, {T::EqualOp, 1, 1, 2, 3, 1, 4}, {T::Ident, 3, 1, 4, 4, 1, 5},
      {T::NotEqual, 4, 1, 5, 6, 1, 7}, {T::Ident, 6, 1, 7, 7, 1, 8}, {T::GreaterThanEq, 7, 1, 8, 9, 1, 10},
      {T::Ident, 9, 1, 10, 10, 1, 11}, {T::LessThanEq, 10, 1, 11, 12, 1, 13}, {T::Ident, 12, 1, 13, 13, 1, 14},
      {T::And, 13, 1, 14, 15, 1, 16}, {T::Ident, 15, 1, 16, 16, 1, 17}, {T::Or, 16, 1, 17, 18, 1, 19},
      {T::Ident, 18, 1, 19, 19, 1, 20}, {T::Ellipsis, 19, 1, 20, 22, 1, 23}, {T::Ident, 22, 1, 23, 23, 1, 24},
      {T::FatArrow, 23, 1, 24, 25, 1, 26}, {T::Ident, 25, 1, 26, 26, 1, 27}, {T::LessThan, 26, 1, 27, 27, 1, 28},
      {T::Ident, 27, 1, 28, 28, 1, 29}, {T::GreaterThan, 28, 1, 29, 29, 1, 30}, {T::Ident, 29, 1, 30, 30, 1, 31},
      {T::Bang, 30, 1, 31, 31, 1, 32}, {T::Ident, 31, 1, 32, 32, 1, 33}, {T::Question, 32, 1, 33, 33, 1, 34},
      {T::Ident, 33, 1, 34, 34, 1, 35}, {T::Colon, 34, 1, 35, 35, 1, 36}, {T::Ident, 35, 1, 36, 36, 1, 37},
      {T::EOF_, 36, 1, 37, 36, 1, 37}}},
    // characters the language does not use
    {ScanMode::Normal, "& | ~ ^ ; ` ' **"sv,
     {{T::BitwiseAnd, 0, 1, 1, 1, 1, 2}, {T::BitwiseOr, 2, 1, 3, 3, 1, 4}, {T::BitwiseNot, 4, 1, 5, 5, 1, 6},
      {T::BitwiseXor, 6, 1, 7, 7, 1, 8}, {T::Semicolon, 8, 1, 9, 9, 1, 10}, {T::Backtick, 10, 1, 11, 11, 1, 12},
      {T::Apostrophe, 12, 1, 13, 13, 1, 14}, {T::Star, 14, 1, 15, 15, 1, 16}, {T::Star, 15, 1, 16, 16, 1, 17},
      {T::EOF_, 16, 1, 17, 16, 1, 17}}},
    // tabs are spaces between tokens
    {ScanMode::Normal, "\ta\t=\t1"sv,
     {{T::Ident, 1, 1, 2, 2, 1, 3}, {T::Equal, 3, 1, 4, 4, 1, 5}, {T::NumberLit, 5, 1, 6, 6, 1, 7},
      {T::EOF_, 6, 1, 7, 6, 1, 7}}},
    // CRLF newlines
    {ScanMode::Normal, "a = 1\r\nb = 2\r\n"sv,
     {{T::Ident, 0, 1, 1, 1, 1, 2}, {T::Equal, 2, 1, 3, 3, 1, 4}, {T::NumberLit, 4, 1, 5, 5, 1, 6},
      {T::Newline, 5, 1, 6, 7, 2, 1}, {T::Ident, 7, 2, 1, 8, 2, 2}, {T::Equal, 9, 2, 3, 10, 2, 4},
      {T::NumberLit, 11, 2, 5, 12, 2, 6}, {T::Newline, 12, 2, 6, 14, 3, 1}, {T::EOF_, 14, 3, 1, 14, 3, 1}}},
    // a lone CR is invalid
    {ScanMode::Normal, "a\rb"sv,
     {{T::Ident, 0, 1, 1, 1, 1, 2}, {T::Invalid, 1, 1, 2, 2, 1, 3}, {T::Ident, 2, 1, 3, 3, 1, 4},
      {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    // number literals end in a digit
    {ScanMode::Normal, "1..5 1. 1e 1e+ 1.e5 1e5. 0.5e-3"sv,
     {{T::NumberLit, 0, 1, 1, 4, 1, 5}, {T::NumberLit, 5, 1, 6, 6, 1, 7}, {T::Dot, 6, 1, 7, 7, 1, 8},
      {T::NumberLit, 8, 1, 9, 9, 1, 10}, {T::Ident, 9, 1, 10, 10, 1, 11}, {T::NumberLit, 11, 1, 12, 12, 1, 13},
      {T::Ident, 12, 1, 13, 13, 1, 14}, {T::Plus, 13, 1, 14, 14, 1, 15}, {T::NumberLit, 15, 1, 16, 19, 1, 20},
      {T::NumberLit, 20, 1, 21, 23, 1, 24}, {T::Dot, 23, 1, 24, 24, 1, 25}, {T::NumberLit, 25, 1, 26, 31, 1, 32},
      {T::EOF_, 31, 1, 32, 31, 1, 32}}},
    // comments keep their newline; an unclosed /* is not a comment
    {ScanMode::Normal, "# a\r\n// b\n/* c\n */x /* d"sv,
     {{T::Comment, 0, 1, 1, 5, 2, 1}, {T::Comment, 5, 2, 1, 10, 3, 1}, {T::Comment, 10, 3, 1, 18, 4, 4},
      {T::Ident, 18, 4, 4, 19, 4, 5}, {T::Slash, 20, 4, 6, 21, 4, 7}, {T::Star, 21, 4, 7, 22, 4, 8},
      {T::Ident, 23, 4, 9, 24, 4, 10}, {T::EOF_, 24, 4, 10, 24, 4, 10}}},
    // NUL is an invalid character
    {ScanMode::Normal, "a\000b"sv,
     {{T::Ident, 0, 1, 1, 1, 1, 2}, {T::Invalid, 1, 1, 2, 2, 1, 3}, {T::Ident, 2, 1, 3, 3, 1, 4},
      {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    // bad UTF-8: stray continuation, truncated sequence, invalid lead
    {ScanMode::Normal, "\200 \303 \342\202 \377"sv,
     {{T::BadUTF8, 0, 1, 1, 1, 1, 2}, {T::BadUTF8, 2, 1, 3, 3, 1, 4}, {T::BadUTF8, 4, 1, 5, 5, 1, 6},
      {T::BadUTF8, 5, 1, 6, 6, 1, 7}, {T::BadUTF8, 7, 1, 8, 8, 1, 9}, {T::EOF_, 8, 1, 9, 8, 1, 9}}},
    // valid non-identifier characters are Invalid, curly quotes too
    {ScanMode::Normal, "\342\200\234x\342\200\235 \302\240"sv,
     {{T::Invalid, 0, 1, 1, 3, 1, 2}, {T::Ident, 3, 1, 2, 4, 1, 3}, {T::Invalid, 4, 1, 3, 7, 1, 4},
      {T::Invalid, 8, 1, 5, 10, 1, 6}, {T::EOF_, 10, 1, 6, 10, 1, 6}}},
    // identifiers: Unicode letters and marks, "-" inside
    {ScanMode::Normal, "na\303\257ve caf\303\251-2 \320\266\320\270\320\262 _x- -a"sv,
     {{T::Ident, 0, 1, 1, 6, 1, 6}, {T::Ident, 7, 1, 7, 14, 1, 13}, {T::Ident, 15, 1, 14, 21, 1, 17},
      {T::Ident, 22, 1, 18, 25, 1, 21}, {T::Minus, 26, 1, 22, 27, 1, 23}, {T::Ident, 27, 1, 23, 28, 1, 24},
      {T::EOF_, 28, 1, 24, 28, 1, 24}}},
    // the reference's identifier tables are Unicode 9.0's (hcl v2.24.0):
    // U+08B6 (9.0) is a letter, U+0860 (10.0) and U+1C89 (16.0) are not
    {ScanMode::Normal, "\340\242\266 \340\241\240 \341\262\211"sv,
     {{T::Ident, 0, 1, 1, 3, 1, 2}, {T::Invalid, 4, 1, 3, 7, 1, 4}, {T::Invalid, 8, 1, 5, 11, 1, 6},
      {T::EOF_, 11, 1, 6, 11, 1, 6}}},
    // the reference widens some ranges: "\xC4=" is one identifier character
    {ScanMode::Normal, "\304= a\304\n"sv,
     {{T::Ident, 0, 1, 1, 2, 1, 3}, {T::Ident, 3, 1, 4, 6, 2, 1}, {T::EOF_, 6, 2, 1, 6, 2, 1}}},
    // a BOM only counts at the start
    {ScanMode::Normal, "\357\273\277a = \357\273\277"sv,
     {{T::Ident, 3, 1, 1, 4, 1, 2}, {T::Equal, 5, 1, 3, 6, 1, 4}, {T::Invalid, 7, 1, 5, 10, 1, 6},
      {T::EOF_, 10, 1, 6, 10, 1, 6}}},
    // quoted: escapes and $/% not starting a sequence
    {ScanMode::Normal, "\"a\\\"b\\\\ $ $$ $x %% $${ %%{ $${~ $%{}\""sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 8, 1, 9}, {T::QuotedLit, 8, 1, 9, 9, 1, 10},
      {T::QuotedLit, 9, 1, 10, 10, 1, 11}, {T::QuotedLit, 10, 1, 11, 11, 1, 12}, {T::QuotedLit, 11, 1, 12, 12, 1, 13},
      {T::QuotedLit, 12, 1, 13, 13, 1, 14}, {T::QuotedLit, 13, 1, 14, 14, 1, 15}, {T::QuotedLit, 14, 1, 15, 16, 1, 17},
      {T::QuotedLit, 16, 1, 17, 17, 1, 18}, {T::QuotedLit, 17, 1, 18, 18, 1, 19}, {T::QuotedLit, 18, 1, 19, 19, 1, 20},
      {T::QuotedLit, 19, 1, 20, 22, 1, 23}, {T::QuotedLit, 22, 1, 23, 23, 1, 24}, {T::QuotedLit, 23, 1, 24, 26, 1, 27},
      {T::QuotedLit, 26, 1, 27, 27, 1, 28}, {T::QuotedLit, 27, 1, 28, 31, 1, 32}, {T::QuotedLit, 31, 1, 32, 32, 1, 33},
      {T::QuotedLit, 32, 1, 33, 33, 1, 34}, {T::TemplateControl, 33, 1, 34, 35, 1, 36}, {T::TemplateSeqEnd, 35, 1, 36, 36, 1, 37},
      {T::CQuote, 36, 1, 37, 37, 1, 38}, {T::EOF_, 37, 1, 38, 37, 1, 38}}},
    // quoted: newlines and CR
    {ScanMode::Normal, "\"a\nb\r\n\rc\""sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 2, 1, 3}, {T::QuotedNewline, 2, 1, 3, 3, 2, 1},
      {T::QuotedLit, 3, 2, 1, 4, 2, 2}, {T::QuotedNewline, 4, 2, 2, 7, 3, 2}, {T::QuotedLit, 7, 3, 2, 8, 3, 3},
      {T::CQuote, 8, 3, 3, 9, 3, 4}, {T::EOF_, 9, 3, 4, 9, 3, 4}}},
    // quoted: unterminated
    {ScanMode::Normal, "\"abc"sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 4, 1, 5}, {T::EOF_, 4, 1, 5, 4, 1, 5}}},
    // quoted: $ at the end
    {ScanMode::Normal, "\"$"sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::Invalid, 1, 1, 2, 2, 1, 3}, {T::EOF_, 2, 1, 3, 2, 1, 3}}},
    // quoted: $$ at the end
    {ScanMode::Normal, "\"$$"sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 2, 1, 3}, {T::Invalid, 2, 1, 3, 3, 1, 4},
      {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    // quoted: backslash at the end and before a newline
    {ScanMode::Normal, "\"a\\\n\"b\\"sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 2, 1, 3}, {T::Invalid, 2, 1, 3, 3, 1, 4},
      {T::QuotedNewline, 3, 1, 4, 4, 2, 1}, {T::CQuote, 4, 2, 1, 5, 2, 2}, {T::Ident, 5, 2, 2, 6, 2, 3},
      {T::Invalid, 6, 2, 3, 7, 2, 4}, {T::EOF_, 7, 2, 4, 7, 2, 4}}},
    // quoted: invalid UTF-8 and NUL inside
    {ScanMode::Normal, "\"a\377b\000c\303\""sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::QuotedLit, 1, 1, 2, 2, 1, 3}, {T::BadUTF8, 2, 1, 3, 3, 1, 4},
      {T::QuotedLit, 3, 1, 4, 6, 1, 7}, {T::BadUTF8, 6, 1, 7, 7, 1, 8}, {T::CQuote, 7, 1, 8, 8, 1, 9},
      {T::EOF_, 8, 1, 9, 8, 1, 9}}},
    // nested templates: brace counting decides which } closes
    {ScanMode::Normal, "\"${ {a = \"${b}\"} }\" { } } \"${~ x ~}\""sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::OBrace, 4, 1, 5, 5, 1, 6},
      {T::Ident, 5, 1, 6, 6, 1, 7}, {T::Equal, 7, 1, 8, 8, 1, 9}, {T::OQuote, 9, 1, 10, 10, 1, 11},
      {T::TemplateInterp, 10, 1, 11, 12, 1, 13}, {T::Ident, 12, 1, 13, 13, 1, 14}, {T::TemplateSeqEnd, 13, 1, 14, 14, 1, 15},
      {T::CQuote, 14, 1, 15, 15, 1, 16}, {T::CBrace, 15, 1, 16, 16, 1, 17}, {T::TemplateSeqEnd, 17, 1, 18, 18, 1, 19},
      {T::CQuote, 18, 1, 19, 19, 1, 20}, {T::OBrace, 20, 1, 21, 21, 1, 22}, {T::CBrace, 22, 1, 23, 23, 1, 24},
      {T::CBrace, 24, 1, 25, 25, 1, 26}, {T::OQuote, 26, 1, 27, 27, 1, 28}, {T::TemplateInterp, 27, 1, 28, 30, 1, 31},
      {T::Ident, 31, 1, 32, 32, 1, 33}, {T::TemplateSeqEnd, 33, 1, 34, 35, 1, 36}, {T::CQuote, 35, 1, 36, 36, 1, 37},
      {T::EOF_, 36, 1, 37, 36, 1, 37}}},
    // a } at the top level makes the depth negative
    {ScanMode::Normal, "} } \"${a}\" }"sv,
     {{T::CBrace, 0, 1, 1, 1, 1, 2}, {T::CBrace, 2, 1, 3, 3, 1, 4}, {T::OQuote, 4, 1, 5, 5, 1, 6},
      {T::TemplateInterp, 5, 1, 6, 7, 1, 8}, {T::Ident, 7, 1, 8, 8, 1, 9}, {T::TemplateSeqEnd, 8, 1, 9, 9, 1, 10},
      {T::CQuote, 9, 1, 10, 10, 1, 11}, {T::CBrace, 11, 1, 12, 12, 1, 13}, {T::EOF_, 12, 1, 13, 12, 1, 13}}},
    // ~} outside a template is still TemplateSeqEnd
    {ScanMode::Normal, "a ~} b ~"sv,
     {{T::Ident, 0, 1, 1, 1, 1, 2}, {T::TemplateSeqEnd, 2, 1, 3, 4, 1, 5}, {T::Ident, 5, 1, 6, 6, 1, 7},
      {T::BitwiseNot, 7, 1, 8, 8, 1, 9}, {T::EOF_, 8, 1, 9, 8, 1, 9}}},
    // template control
    {ScanMode::Normal, "\"%{ if a }x%{ else ~}y%{~ endif }\""sv,
     {{T::OQuote, 0, 1, 1, 1, 1, 2}, {T::TemplateControl, 1, 1, 2, 3, 1, 4}, {T::Ident, 4, 1, 5, 6, 1, 7},
      {T::Ident, 7, 1, 8, 8, 1, 9}, {T::TemplateSeqEnd, 9, 1, 10, 10, 1, 11}, {T::QuotedLit, 10, 1, 11, 11, 1, 12},
      {T::TemplateControl, 11, 1, 12, 13, 1, 14}, {T::Ident, 14, 1, 15, 18, 1, 19}, {T::TemplateSeqEnd, 19, 1, 20, 21, 1, 22},
      {T::QuotedLit, 21, 1, 22, 22, 1, 23}, {T::TemplateControl, 22, 1, 23, 25, 1, 26}, {T::Ident, 26, 1, 27, 31, 1, 32},
      {T::TemplateSeqEnd, 32, 1, 33, 33, 1, 34}, {T::CQuote, 33, 1, 34, 34, 1, 35}, {T::EOF_, 34, 1, 35, 34, 1, 35}}},
    // heredoc: marker line, flush heredoc, CRLF
    {ScanMode::Normal, "a = <<EOT\nhello\nEOT\nb = <<-EOT\r\n  x\r\n  EOT\r\n"sv,
     {{T::Ident, 0, 1, 1, 1, 1, 2}, {T::Equal, 2, 1, 3, 3, 1, 4}, {T::OHeredoc, 4, 1, 5, 10, 2, 1},
      {T::StringLit, 10, 2, 1, 16, 3, 1}, {T::CHeredoc, 16, 3, 1, 19, 3, 4}, {T::Newline, 19, 3, 4, 20, 4, 1},
      {T::Ident, 20, 4, 1, 21, 4, 2}, {T::Equal, 22, 4, 3, 23, 4, 4}, {T::OHeredoc, 24, 4, 5, 32, 5, 1},
      {T::StringLit, 32, 5, 1, 37, 6, 1}, {T::CHeredoc, 37, 6, 1, 42, 6, 6}, {T::Newline, 42, 6, 6, 44, 7, 1},
      {T::EOF_, 44, 7, 1, 44, 7, 1}}},
    // heredoc: marker must be alone on its line, spaces around it are allowed
    {ScanMode::Normal, "<<EOT\nEOT x\n xEOT\n\tEOT \nz"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 12, 3, 1}, {T::StringLit, 12, 3, 1, 18, 4, 1},
      {T::CHeredoc, 18, 4, 1, 23, 4, 6}, {T::Newline, 23, 4, 6, 24, 5, 1}, {T::Ident, 24, 5, 1, 25, 5, 2},
      {T::EOF_, 25, 5, 2, 25, 5, 2}}},
    // heredoc: Unicode spaces around the marker count as spaces
    {ScanMode::Normal, "<<EOT\n\302\240EOT\343\200\200\nz"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::CHeredoc, 6, 2, 1, 14, 2, 6}, {T::Newline, 14, 2, 6, 15, 3, 1},
      {T::Ident, 15, 3, 1, 16, 3, 2}, {T::EOF_, 16, 3, 2, 16, 3, 2}}},
    // heredoc: not closed
    {ScanMode::Normal, "<<EOT\nabc\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 10, 3, 1}, {T::EOF_, 10, 3, 1, 10, 3, 1}}},
    // heredoc: not closed, no final newline
    {ScanMode::Normal, "<<EOT\nabc"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 9, 2, 4}, {T::EOF_, 9, 2, 4, 9, 2, 4}}},
    // heredoc: introducer without newline is not a heredoc
    {ScanMode::Normal, "<<EOT"sv,
     {{T::LessThan, 0, 1, 1, 1, 1, 2}, {T::LessThan, 1, 1, 2, 2, 1, 3}, {T::Ident, 2, 1, 3, 5, 1, 6},
      {T::EOF_, 5, 1, 6, 5, 1, 6}}},
    // heredoc: sequences, escapes, and a marker after a sequence
    {ScanMode::Normal, "<<EOT\na${b}c%{ if d }EOT\n$${x} %%{y}\nEOT\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 7, 2, 2}, {T::TemplateInterp, 7, 2, 2, 9, 2, 4},
      {T::Ident, 9, 2, 4, 10, 2, 5}, {T::TemplateSeqEnd, 10, 2, 5, 11, 2, 6}, {T::StringLit, 11, 2, 6, 12, 2, 7},
      {T::TemplateControl, 12, 2, 7, 14, 2, 9}, {T::Ident, 15, 2, 10, 17, 2, 12}, {T::Ident, 18, 2, 13, 19, 2, 14},
      {T::TemplateSeqEnd, 20, 2, 15, 21, 2, 16}, {T::StringLit, 21, 2, 16, 25, 3, 1}, {T::StringLit, 25, 3, 1, 28, 3, 4},
      {T::StringLit, 28, 3, 4, 31, 3, 7}, {T::StringLit, 31, 3, 7, 34, 3, 10}, {T::StringLit, 34, 3, 10, 37, 4, 1},
      {T::CHeredoc, 37, 4, 1, 40, 4, 4}, {T::Newline, 40, 4, 4, 41, 5, 1}, {T::EOF_, 41, 5, 1, 41, 5, 1}}},
    // heredoc: $ or % followed by a byte and a newline keeps the byte
    {ScanMode::Normal, "<<EOT\n$a\n%b\r\n$\n\n$$\nEOT\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 8, 2, 3}, {T::StringLit, 8, 2, 3, 9, 3, 1},
      {T::StringLit, 9, 3, 1, 11, 3, 3}, {T::StringLit, 11, 3, 3, 13, 4, 1}, {T::StringLit, 13, 4, 1, 15, 5, 1},
      {T::StringLit, 15, 5, 1, 16, 6, 1}, {T::StringLit, 16, 6, 1, 18, 6, 3}, {T::StringLit, 18, 6, 3, 19, 7, 1},
      {T::CHeredoc, 19, 7, 1, 22, 7, 4}, {T::Newline, 22, 7, 4, 23, 8, 1}, {T::EOF_, 23, 8, 1, 23, 8, 1}}},
    // heredoc: $ or % followed by something else is one byte
    {ScanMode::Normal, "<<EOT\n$ab %c\nEOT\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 7, 2, 2}, {T::StringLit, 7, 2, 2, 10, 2, 5},
      {T::StringLit, 10, 2, 5, 12, 2, 7}, {T::StringLit, 12, 2, 7, 13, 3, 1}, {T::CHeredoc, 13, 3, 1, 16, 3, 4},
      {T::Newline, 16, 3, 4, 17, 4, 1}, {T::EOF_, 17, 4, 1, 17, 4, 1}}},
    // heredoc: $${ followed by a newline
    {ScanMode::Normal, "<<EOT\n$${\nEOT\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 10, 3, 1}, {T::CHeredoc, 10, 3, 1, 13, 3, 4},
      {T::Newline, 13, 3, 4, 14, 4, 1}, {T::EOF_, 14, 4, 1, 14, 4, 1}}},
    // heredoc: a lone CR stops the scanner: Invalid to the end
    {ScanMode::Normal, "<<EOT\na\rb\nEOT\nzz"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 7, 2, 2}, {T::Invalid, 7, 2, 2, 16, 4, 3},
      {T::EOF_, 16, 4, 3, 16, 4, 3}}},
    // heredoc: $ at the end stops the scanner
    {ScanMode::Normal, "<<EOT\nab$"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 8, 2, 3}, {T::Invalid, 8, 2, 3, 9, 2, 4},
      {T::EOF_, 9, 2, 4, 9, 2, 4}}},
    // heredoc: $x at the end
    {ScanMode::Normal, "<<EOT\n$x"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 7, 2, 2}, {T::StringLit, 7, 2, 2, 8, 2, 3},
      {T::EOF_, 8, 2, 3, 8, 2, 3}}},
    // heredoc: bad UTF-8 does not end the start of a line
    {ScanMode::Normal, "<<EOT\n\377EOT\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::BadUTF8, 6, 2, 1, 7, 2, 2}, {T::CHeredoc, 7, 2, 2, 10, 2, 5},
      {T::Newline, 10, 2, 5, 11, 3, 1}, {T::EOF_, 11, 3, 1, 11, 3, 1}}},
    // heredoc inside a sequence inside a heredoc
    {ScanMode::Normal, "<<A\n${<<B\nb\nB\n}\nA\n"sv,
     {{T::OHeredoc, 0, 1, 1, 4, 2, 1}, {T::TemplateInterp, 4, 2, 1, 6, 2, 3}, {T::OHeredoc, 6, 2, 3, 10, 3, 1},
      {T::StringLit, 10, 3, 1, 12, 4, 1}, {T::CHeredoc, 12, 4, 1, 13, 4, 2}, {T::Newline, 13, 4, 2, 14, 5, 1},
      {T::TemplateSeqEnd, 14, 5, 1, 15, 5, 2}, {T::StringLit, 15, 5, 2, 16, 6, 1}, {T::CHeredoc, 16, 6, 1, 17, 6, 2},
      {T::Newline, 17, 6, 2, 18, 7, 1}, {T::EOF_, 18, 7, 1, 18, 7, 1}}},
    // heredoc marker taken from a widened identifier keeps its bytes
    {ScanMode::Normal, "<<A\304\r\n\nA\304\n"sv,
     {{T::OHeredoc, 0, 1, 1, 6, 2, 1}, {T::StringLit, 6, 2, 1, 7, 3, 1}, {T::StringLit, 7, 3, 1, 8, 3, 2},
      {T::BadUTF8, 8, 3, 2, 9, 3, 3}, {T::StringLit, 9, 3, 3, 10, 4, 1}, {T::EOF_, 10, 4, 1, 10, 4, 1}}},
    // bare: lines keep their newline
    {ScanMode::Template, "a\nb\r\nc"sv,
     {{T::StringLit, 0, 1, 1, 2, 2, 1}, {T::StringLit, 2, 2, 1, 5, 3, 1}, {T::StringLit, 5, 3, 1, 6, 3, 2},
      {T::EOF_, 6, 3, 2, 6, 3, 2}}},
    // bare: sequences and escapes
    {ScanMode::Template, "a${b}c%{ if d }$${e}%%{f}"sv,
     {{T::StringLit, 0, 1, 1, 1, 1, 2}, {T::TemplateInterp, 1, 1, 2, 3, 1, 4}, {T::Ident, 3, 1, 4, 4, 1, 5},
      {T::TemplateSeqEnd, 4, 1, 5, 5, 1, 6}, {T::StringLit, 5, 1, 6, 6, 1, 7}, {T::TemplateControl, 6, 1, 7, 8, 1, 9},
      {T::Ident, 9, 1, 10, 11, 1, 12}, {T::Ident, 12, 1, 13, 13, 1, 14}, {T::TemplateSeqEnd, 14, 1, 15, 15, 1, 16},
      {T::StringLit, 15, 1, 16, 18, 1, 19}, {T::StringLit, 18, 1, 19, 20, 1, 21}, {T::StringLit, 20, 1, 21, 23, 1, 24},
      {T::StringLit, 23, 1, 24, 25, 1, 26}, {T::EOF_, 25, 1, 26, 25, 1, 26}}},
    // bare: $ and % not starting a sequence
    {ScanMode::Template, "$a %b $\n%\r\n$"sv,
     {{T::StringLit, 0, 1, 1, 1, 1, 2}, {T::StringLit, 1, 1, 2, 3, 1, 4}, {T::StringLit, 3, 1, 4, 4, 1, 5},
      {T::StringLit, 4, 1, 5, 6, 1, 7}, {T::StringLit, 6, 1, 7, 7, 1, 8}, {T::StringLit, 7, 1, 8, 8, 2, 1},
      {T::StringLit, 8, 2, 1, 10, 2, 3}, {T::StringLit, 10, 2, 3, 11, 3, 1}, {T::StringLit, 11, 3, 1, 12, 3, 2},
      {T::EOF_, 12, 3, 2, 12, 3, 2}}},
    // bare: a lone CR: the rest is one StringLit
    {ScanMode::Template, "ab\rc"sv,
     {{T::StringLit, 0, 1, 1, 2, 1, 3}, {T::StringLit, 2, 1, 3, 4, 1, 5}, {T::EOF_, 4, 1, 5, 4, 1, 5}}},
    // bare: a lone CR inside a sequence: the rest is Invalid
    {ScanMode::Template, "${<<EOT\n\rx"sv,
     {{T::TemplateInterp, 0, 1, 1, 2, 1, 3}, {T::OHeredoc, 2, 1, 3, 8, 2, 1}, {T::Invalid, 8, 2, 1, 10, 2, 3},
      {T::EOF_, 10, 2, 3, 10, 2, 3}}},
    // bare: bad UTF-8
    {ScanMode::Template, "a\377b"sv,
     {{T::StringLit, 0, 1, 1, 1, 1, 2}, {T::BadUTF8, 1, 1, 2, 2, 1, 3}, {T::StringLit, 2, 1, 3, 3, 1, 4},
      {T::EOF_, 3, 1, 4, 3, 1, 4}}},
    // bare: quoted string inside a sequence
    {ScanMode::Template, "${\"a${b}\"}c"sv,
     {{T::TemplateInterp, 0, 1, 1, 2, 1, 3}, {T::OQuote, 2, 1, 3, 3, 1, 4}, {T::QuotedLit, 3, 1, 4, 4, 1, 5},
      {T::TemplateInterp, 4, 1, 5, 6, 1, 7}, {T::Ident, 6, 1, 7, 7, 1, 8}, {T::TemplateSeqEnd, 7, 1, 8, 8, 1, 9},
      {T::CQuote, 8, 1, 9, 9, 1, 10}, {T::TemplateSeqEnd, 9, 1, 10, 10, 1, 11}, {T::StringLit, 10, 1, 11, 11, 1, 12},
      {T::EOF_, 11, 1, 12, 11, 1, 12}}},
    // ident only
    {ScanMode::IdentOnly, "abc.d-e f\377\303\251"sv,
     {{T::Ident, 0, 1, 1, 3, 1, 4}, {T::Invalid, 3, 1, 4, 4, 1, 5}, {T::Ident, 4, 1, 5, 7, 1, 8},
      {T::Invalid, 7, 1, 8, 8, 1, 9}, {T::Ident, 8, 1, 9, 9, 1, 10}, {T::BadUTF8, 9, 1, 10, 10, 1, 11},
      {T::Ident, 10, 1, 11, 12, 1, 12}, {T::EOF_, 12, 1, 12, 12, 1, 12}}},
    // ident only: quirky widened characters
    {ScanMode::IdentOnly, "\304=\312\376"sv,
     {{T::Ident, 0, 1, 1, 4, 1, 5}, {T::EOF_, 4, 1, 5, 4, 1, 5}}},
};

TEST(LexerEdge, MatchesReference) {
  for (const ModeCase& c : kEdge) expect_scan(c.mode, c.input, c.want);
}

// --- Robustness ---------------------------------------------------------------

// Checks what holds for every token stream: spans in order, inside the input,
// exactly one EOF_ and it is last and empty at the end.
void expect_well_formed(std::string_view input, const Tokens& toks) {
  ASSERT_FALSE(toks.empty());
  uint32_t n = uint32_t(input.size());
  EXPECT_EQ(toks.back().type, Tok::EOF_);
  EXPECT_EQ(toks.back().span, (ast::Span{n, n}));
  uint32_t at = 0;
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    EXPECT_NE(toks[i].type, Tok::EOF_);
    EXPECT_LE(at, toks[i].span.begin);
    EXPECT_LT(toks[i].span.begin, toks[i].span.end) << "empty token " << i;
    EXPECT_LE(toks[i].span.end, n);
    at = toks[i].span.end;
  }
}

TEST(LexerRobust, EveryPrefixOfATrickyInput) {
  // Cut anywhere: inside strings, heredocs, sequences, comments, escapes,
  // multi-byte characters and CRLF pairs.
  std::string text =
      "\xEF\xBB\xBF" "a = \"x${ {b = \"${c}\"} }%{ if d ~}$${e}\\\"\xC3\xA9\"\r\n"
      "h = <<-EOT\r\n  ${<<X\nq\nX\n}$a\n%\r\n  EOT\r\n/* c */ # d\n"
      "t = \"\xFF\x00\xE2\x80\x9C\" ~} } ::";
  for (ScanMode mode : {ScanMode::Normal, ScanMode::Template, ScanMode::IdentOnly}) {
    for (size_t len = 0; len <= text.size(); ++len) {
      // An exact-size heap copy, so a read past the end is caught by ASan.
      std::unique_ptr<char[]> buf(new char[len + 1]);
      std::memcpy(buf.get(), text.data(), len);
      std::string_view view(buf.get(), len);
      SCOPED_TRACE("prefix length " + std::to_string(len));
      expect_well_formed(view, scan(view, mode));
    }
  }
}

TEST(LexerRobust, StopsAtTheEndOfTheView) {
  // The bytes after the view must not be read as part of it.
  std::string text = "x = 12345";
  std::string_view view(text.data(), 5);  // "x = 1"
  Tokens toks = scan(view, ScanMode::Normal);
  ASSERT_EQ(toks.size(), 4u);
  EXPECT_EQ(toks[2].type, Tok::NumberLit);
  EXPECT_EQ(toks[2].span, (ast::Span{4, 5}));

  std::string tmpl = "ab$c";
  Tokens t2 = scan(std::string_view(tmpl.data(), 3), ScanMode::Template);  // "ab$"
  ASSERT_EQ(t2.size(), 3u);
  EXPECT_EQ(t2[1].type, Tok::StringLit);  // the reference's leftover "$"
  EXPECT_EQ(t2[1].span, (ast::Span{2, 3}));
}

TEST(LexerRobust, NulIsACharacterNotTheEnd) {
  std::string text("a\0b", 3);
  Tokens toks = scan(text, ScanMode::Normal);
  ASSERT_EQ(toks.size(), 4u);
  EXPECT_EQ(toks[1].type, Tok::Invalid);
  EXPECT_EQ(toks[2].type, Tok::Ident);
  EXPECT_EQ(toks[3].span, (ast::Span{3, 3}));
}

TEST(LexerRobust, DeepNestingUsesNoRecursion) {
  const int depth = 100000;
  std::string open, close;
  for (int i = 0; i < depth; ++i) open += "\"${";
  for (int i = 0; i < depth; ++i) close += "}\"";
  std::string text = "x = " + open + "a" + close;
  Tokens toks = scan(text, ScanMode::Normal);
  // x, =, then per level OQuote + TemplateInterp, a, per level SeqEnd + CQuote, EOF.
  ASSERT_EQ(toks.size(), size_t(2 + 4 * depth + 1 + 1));
  EXPECT_EQ(toks[2].type, Tok::OQuote);
  EXPECT_EQ(toks[3].type, Tok::TemplateInterp);
  EXPECT_EQ(toks[2 + 2 * depth].type, Tok::Ident);
  EXPECT_EQ(toks[3 + 2 * depth].type, Tok::TemplateSeqEnd);
  EXPECT_EQ(toks[toks.size() - 2].type, Tok::CQuote);

  // Unclosed all the way down, and heredocs inside sequences.
  expect_well_formed(open, scan(open, ScanMode::Normal));
  std::string docs;
  for (int i = 0; i < depth / 2; ++i) docs += "<<EOT\n${";
  expect_well_formed(docs, scan(docs, ScanMode::Template));
}

TEST(LexerRobust, RandomBytesNeverBreakTheStream) {
  // A fixed seed keeps the test deterministic.
  uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0xFF; };
  const std::string_view alphabet = "ab$%{}~\"\\\n\r\t #/*<-EOT:1.e+";
  for (int round = 0; round < 3000; ++round) {
    size_t len = next() % 48;
    std::string text;
    for (size_t i = 0; i < len; ++i) {
      uint32_t r = next();
      text.push_back(r < 160 ? alphabet[r % alphabet.size()] : char(next()));
    }
    std::unique_ptr<char[]> buf(new char[len + 1]);
    std::memcpy(buf.get(), text.data(), len);
    std::string_view view(buf.get(), len);
    for (ScanMode mode : {ScanMode::Normal, ScanMode::Template, ScanMode::IdentOnly})
      expect_well_formed(view, scan(view, mode));
  }
}

TEST(LexerRobust, LargeInputScansInLinearTime) {
  std::string unit =
      "resource \"aws_instance\" \"web\" {\n  ami = \"ami-${var.region}\"\n"
      "  tags = { Name = \"web-${count.index}\" }\n  # comment\n  n = 1.5e3\n}\n";
  std::string text;
  while (text.size() < (8u << 20)) text += unit;
  auto t0 = std::chrono::steady_clock::now();
  Tokens toks = scan(text, ScanMode::Normal);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  expect_well_formed(text, toks);
  // Generous even for an unoptimized, loaded machine: 8 MB in under 20 s.
  EXPECT_LT(secs, 20.0);
}

// --- Names ---------------------------------------------------------------------

TEST(TokenName, EveryKindHasItsOwnName) {
  std::set<std::string_view> seen;
  for (int i = 0; i < int(Tok::Count_); ++i) {
    std::string_view name = token_name(Tok(i));
    EXPECT_NE(name, "?") << i;
    EXPECT_TRUE(seen.insert(name).second) << name;
  }
  EXPECT_EQ(token_name(Tok::TemplateSeqEnd), "TemplateSeqEnd");
  EXPECT_EQ(token_name(Tok::DoubleColon), "DoubleColon");
  EXPECT_EQ(token_name(Tok::EOF_), "EOF");
  EXPECT_EQ(token_name(Tok::Count_), "?");
}

// --- check_invalid_tokens -------------------------------------------------------

struct WantDiag {
  std::string_view summary, detail;
  Pos start, end;
};

struct DiagCase {
  std::string_view input;
  std::vector<WantDiag> want;
};

const std::vector<DiagCase> kDiag = {
    // bitwise operators: four at most, with a suggestion for & | ~
    {"a = 1 & 2 | 3 ^ 4 ~ 5 & 6\n"sv,
     {{"Unsupported operator", "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?"sv, {1, 7, 6}, {1, 8, 7}},
      {"Unsupported operator", "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?"sv, {1, 11, 10}, {1, 12, 11}},
      {"Unsupported operator", "Bitwise operators are not supported."sv, {1, 15, 14}, {1, 16, 15}},
      {"Unsupported operator", "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?"sv, {1, 19, 18}, {1, 20, 19}}}},
    // backticks and single quotes: every other one, counters stop at 3
    {"a = `x` `y` `z`\nb = 'p' 'q' 'r' 's'\n"sv,
     {{"Invalid character", "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\"."sv, {1, 5, 4}, {1, 6, 5}},
      {"Invalid character", "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\"."sv, {1, 9, 8}, {1, 10, 9}},
      {"Invalid character", "Single quotes are not valid. Use double quotes (\") to enclose strings."sv, {2, 5, 20}, {2, 6, 21}},
      {"Invalid character", "Single quotes are not valid. Use double quotes (\") to enclose strings."sv, {2, 9, 24}, {2, 10, 25}}}},
    // one semicolon and one bad byte only
    {"a = 1; b = 2;\nc = \"\377\376\"\n"sv,
     {{"Invalid character", "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values."sv, {1, 6, 5}, {1, 7, 6}},
      {"Invalid character encoding", "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor."sv, {2, 6, 19}, {2, 7, 20}}}},
    // every newline inside a quoted string
    {"a = \"x\ny\"\nb = \"p\r\nq\"\n"sv,
     {{"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."sv, {1, 7, 6}, {2, 1, 7}},
      {"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."sv, {3, 7, 16}, {4, 1, 18}}}},
    // every invalid character, curly quotes explained
    {"a = \342\200\234hi\342\200\235\nb = 1 \302\247 \001\n"sv,
     {{"Invalid character", "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\"."sv, {1, 5, 4}, {1, 6, 7}},
      {"Invalid character", "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\"."sv, {1, 8, 9}, {1, 9, 12}},
      {"Invalid character", "This character is not used within the language."sv, {2, 7, 19}, {2, 8, 21}},
      {"Invalid character", "This character is not used within the language."sv, {2, 9, 22}, {2, 10, 23}}}},
    // columns count clusters within each token: a combining mark after ":" is a token of its own
    {"a = {b:\314\201 = 1}\n"sv,
     {{"Invalid character", "This character is not used within the language."sv, {1, 8, 7}, {1, 9, 9}}}},
    // columns count clusters within each token: a BOM takes no column
    {"\357\273\277a = 1 ;\n"sv,
     {{"Invalid character", "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values."sv, {1, 7, 9}, {1, 8, 10}}}},
    // the rest of a heredoc after a lone CR is one Invalid token
    {"a = <<EOT\nx\ry\nEOT\n"sv,
     {{"Invalid character", "This character is not used within the language."sv, {2, 2, 11}, {4, 1, 18}}}},
};

// Formats [p] as "line:column@byte".
std::string show(const Pos& p) {
  return std::to_string(p.line) + ":" + std::to_string(p.column) + "@" + std::to_string(p.byte);
}

TEST(CheckInvalidTokens, MatchesReference) {
  for (const DiagCase& c : kDiag) {
    SCOPED_TRACE(std::string(c.input));
    Source src("main.tf", std::string(c.input));
    Diagnostics diags;
    check_invalid_tokens(scan(c.input, ScanMode::Normal), src, diags);
    ASSERT_EQ(diags.size(), c.want.size());
    for (size_t i = 0; i < diags.size(); ++i) {
      EXPECT_EQ(diags[i].severity, Severity::Error);
      EXPECT_EQ(diags[i].summary, c.want[i].summary);
      EXPECT_EQ(diags[i].detail, c.want[i].detail);
      ASSERT_TRUE(diags[i].subject.has_value());
      EXPECT_EQ(diags[i].subject->filename, "main.tf");
      EXPECT_EQ(show(diags[i].subject->start), show(c.want[i].start));
      EXPECT_EQ(show(diags[i].subject->end), show(c.want[i].end));
      EXPECT_FALSE(diags[i].context.has_value());
    }
  }
}

TEST(CheckInvalidTokens, TabsAndExponentOnceEach) {
  // The scanner never makes these kinds (tabs are spaces, `**` is two
  // stars), but the pass still reports them as the reference does.
  std::string text = "\t\t** **";
  Source src("t.hcl", text);
  Tokens toks = {{Tok::Tabs, {0, 1}}, {Tok::Tabs, {1, 2}}, {Tok::StarStar, {2, 4}},
                 {Tok::StarStar, {5, 7}}, {Tok::EOF_, {7, 7}}};
  Diagnostics diags;
  check_invalid_tokens(toks, src, diags);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].summary, "Invalid character");
  EXPECT_EQ(diags[0].detail,
            "Tab characters may not be used. The recommended indentation style is two spaces per "
            "indent.");
  EXPECT_EQ(show(diags[0].subject->start), "1:1@0");
  EXPECT_EQ(diags[1].summary, "Unsupported operator");
  EXPECT_EQ(diags[1].detail,
            "\"**\" is not a supported operator. Exponentiation is not supported as an operator.");
  EXPECT_EQ(show(diags[1].subject->start), "1:3@2");
  EXPECT_EQ(show(diags[1].subject->end), "1:5@4");
}

TEST(CheckInvalidTokens, CleanInputHasNoDiagnostics) {
  std::string text = "a = \"${b}\" # ok\nc = <<EOT\nx\nEOT\n";
  Source src("ok.hcl", text);
  Diagnostics diags;
  check_invalid_tokens(scan(text, ScanMode::Normal), src, diags);
  EXPECT_TRUE(diags.empty());
}

TEST(TokenRange, CountsClustersPerToken) {
  // "e" + combining acute inside one identifier is one column; the same mark
  // after a colon is a token of its own and a column of its own (counting
  // along the line, ":" + mark would be one cluster and the token would end
  // at column 8).
  std::string text = "e\xCC\x81 = {b:\xCC\x81}";
  Source src("r.hcl", text);
  Tokens toks = scan(text, ScanMode::Normal);
  ASSERT_EQ(toks[0].type, Tok::Ident);
  EXPECT_EQ(show(token_range(toks, 0, src).end), "1:2@3");
  ASSERT_EQ(toks[5].type, Tok::Invalid);
  EXPECT_EQ(show(token_range(toks, 5, src).start), "1:8@9");
  EXPECT_EQ(show(token_range(toks, 5, src).end), "1:9@11");
}

}  // namespace
}  // namespace hclvm::syntax

// Tests for string literal decoding (Builder::decode_literal, label_text):
// the reference's escape table, its `$${`/`%%{` rules and the exact cuts of
// its string-literal scanner, and the diagnostics for bad escapes with the
// reference's detail texts and line:column ranges. Expected values come from
// the reference's scan_string_lit_test.go and parser tests, and from the
// oracle (hcldec / gohcl-bench) where noted.
#include "syntax/builder.h"
#include "util/unicode.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace hclvm::syntax {
namespace {

// A decoded literal and what decoding reported.
struct Decoded {
  std::string text;
  Diagnostics diags;
  bool failed = false;
};

// Decodes [lit] as it appears inside `a = "...."` in a file named t.hcl.
Decoded decode(const std::string& lit, bool quoted = true) {
  Source src("t.hcl", "a = \"" + lit + "\"\n");
  Arena arena;
  Builder b(arena, src);
  Span tok{5, uint32_t(5 + lit.size())};
  Decoded d;
  d.text = std::string(b.decode_literal(tok, quoted));
  d.diags = b.diags();
  d.failed = b.failed();
  return d;
}

// Formats the subject of [d] as "line:col-line:col".
std::string subject(const Diagnostic& d) {
  if (!d.subject) return "none";
  const Range& r = *d.subject;
  return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" + std::to_string(r.end.line) + ":" +
         std::to_string(r.end.column);
}

struct DecodeCase {
  const char* input;
  bool quoted;
  const char* want;
  const char* detail;  // nullptr: no diagnostic
};

class DecodeTable : public ::testing::TestWithParam<DecodeCase> {};

TEST_P(DecodeTable, Decodes) {
  const DecodeCase& c = GetParam();
  Decoded d = decode(c.input, c.quoted);
  EXPECT_EQ(d.text, c.want) << c.input;
  if (c.detail == nullptr) {
    EXPECT_TRUE(d.diags.empty()) << c.input << ": " << (d.diags.empty() ? "" : d.diags[0].detail);
    EXPECT_FALSE(d.failed);
  } else {
    ASSERT_EQ(d.diags.size(), 1u) << c.input;
    EXPECT_EQ(d.diags[0].summary, "Invalid escape sequence");
    EXPECT_EQ(d.diags[0].detail, c.detail) << c.input;
    EXPECT_TRUE(d.failed);
  }
}

const char* const kFour = "The \\u escape sequence must be followed by four hexadecimal digits.";
const char* const kEight = "The \\U escape sequence must be followed by eight hexadecimal digits.";
const char* const kBare = "Backslash must be followed by an escape sequence selector character.";

INSTANTIATE_TEST_SUITE_P(
    Reference, DecodeTable,
    ::testing::Values(
        DecodeCase{"", true, "", nullptr},
        DecodeCase{"hello world", true, "hello world", nullptr},
        DecodeCase{"hello\\nworld", true, "hello\nworld", nullptr},
        DecodeCase{"hello\\nworld", false, "hello\\nworld", nullptr},
        DecodeCase{"\\r\\t\\\"\\\\", true, "\r\t\"\\", nullptr},
        DecodeCase{"\\\\u0041", true, "\\u0041", nullptr},  // `\\` is one escape; `u0041` is plain
        DecodeCase{"hello\\uabcdworld", true, "hello\xea\xaf\x8dworld", nullptr},
        DecodeCase{"hello\\uabcdabcdworld", true, "hello\xea\xaf\x8d" "abcdworld", nullptr},
        DecodeCase{"\\u00e9", true, "\xc3\xa9", nullptr},
        DecodeCase{"\\U0001F600", true, "\xf0\x9f\x98\x80", nullptr},
        DecodeCase{"\\U0010FFFF", true, "\xf4\x8f\xbf\xbf", nullptr},
        DecodeCase{"\\U012345670123world", true, "\\U012345670123world",
                   "Cannot encode character U+1234567 in UTF-8."},
        DecodeCase{"\\UFF11FF22", true, "\\UFF11FF22", "Cannot encode character U+ff11ff22 in UTF-8."},
        DecodeCase{"\\ud800", true, "\\ud800", "Cannot encode character U+d800 in UTF-8."},
        DecodeCase{"\\U00110000", true, "\\U00110000", "Cannot encode character U+110000 in UTF-8."},
        DecodeCase{"hello\\uabcworld", true, "hello\\uabcworld", kFour},
        DecodeCase{"hello\\uworld", true, "hello\\uworld", kFour},
        DecodeCase{"hello\\u", true, "hello\\u", kFour},
        DecodeCase{"hello\\Uabcdworld", true, "hello\\Uabcdworld", kEight},
        DecodeCase{"hello\\U", true, "hello\\U", kEight},
        DecodeCase{"hello\\", true, "hello\\", kBare},
        DecodeCase{"hello\\", false, "hello\\", nullptr},
        // A bad selector is kept without its backslash; %q quoting as Go's.
        DecodeCase{"hello\\\xf0\x9f\xa5\x81world", true, "hello\xf0\x9f\xa5\x81world",
                   "The symbol \"\xf0\x9f\xa5\x81\" is not a valid escape sequence selector."},
        DecodeCase{"hello\\${world}", true, "hello${world}",
                   "The symbol \"$\" is not a valid escape sequence selector."},
        DecodeCase{"hello\\${world}", false, "hello\\${world}", nullptr},
        DecodeCase{"\\'", true, "'", "The symbol \"'\" is not a valid escape sequence selector."},
        DecodeCase{"\\\t", true, "\t", "The symbol \"\\t\" is not a valid escape sequence selector."},
        DecodeCase{"\\\x01", true, "\x01", "The symbol \"\\x01\" is not a valid escape sequence selector."},
        DecodeCase{"\\\xc2\xa0", true, "\xc2\xa0", "The symbol \"\\u00a0\" is not a valid escape sequence selector."},
        DecodeCase{"\\\xc3\xa9", true, "\xc3\xa9", "The symbol \"\xc3\xa9\" is not a valid escape sequence selector."},
        // Overlong and surrogate forms pass the scanner's lax UTF-8 pattern
        // but Go's %q shows them byte by byte.
        DecodeCase{"\\\xed\xa0\x80", true, "\xed\xa0\x80",
                   "The symbol \"\\xed\\xa0\\x80\" is not a valid escape sequence selector."},
        // Template escapes: only a complete `$${` / `%%{`, cut greedily.
        DecodeCase{"hello$${world}", true, "hello${world}", nullptr},
        DecodeCase{"hello$${world}", false, "hello${world}", nullptr},
        DecodeCase{"hello%%{world}", false, "hello%{world}", nullptr},
        DecodeCase{"hello$$world", true, "hello$$world", nullptr},
        DecodeCase{"hello%%world", true, "hello%%world", nullptr},
        DecodeCase{"hello$", true, "hello$", nullptr},
        DecodeCase{"$$${", true, "$$${", nullptr},
        DecodeCase{"$$$${", true, "$$${", nullptr},
        DecodeCase{"%%%%{x}", true, "%%%{x}", nullptr},
        DecodeCase{"$%%{", true, "$%{", nullptr},
        DecodeCase{"a\r\nb", false, "a\r\nb", nullptr}));

TEST(DecodeLiteral, PlainTokenIsAViewIntoTheSource) {
  Source src("t.hcl", "a = \"plain $$ %% text\"");
  Arena arena;
  Builder b(arena, src);
  std::string_view v = b.decode_literal(Span{5, 21}, true);
  EXPECT_EQ(v, "plain $$ %% text");
  EXPECT_EQ(v.data(), src.text().data() + 5);
  EXPECT_EQ(arena.bytes_reserved(), 0u);
  // An unquoted (heredoc) literal keeps its backslashes, so needs no copy.
  Source src2("t.hcl", "a\\nb");
  Builder b2(arena, src2);
  EXPECT_EQ(b2.decode_literal(Span{0, 4}, false).data(), src2.text().data());
}

TEST(DecodeLiteral, DecodedTextLivesInTheArena) {
  Arena arena;
  std::string_view v;
  {
    Source src("t.hcl", "x\\ty");
    Builder b(arena, src);
    v = b.decode_literal(Span{0, 4}, true);
  }
  EXPECT_EQ(v, "x\ty");  // still valid after the source is gone
  EXPECT_GT(arena.bytes_reserved(), 0u);
}

// Ranges: the reference walks each slice by grapheme clusters from the
// token's start. Expected ranges are the oracle's (hcldec --diags json).
TEST(DecodeLiteral, EscapeRangesMatchTheReference) {
  // tree-sitter-hcl example.hcl line 9, as a one-line file.
  Source src("t.hcl", "  esc1   = \"\\\" \\t \\UFF11FF22 \\uFFFF \\n\"\n");
  Arena arena;
  Builder b(arena, src);
  std::string_view v = b.decode_literal(Span{12, 38}, true);
  EXPECT_EQ(v, "\" \t \\UFF11FF22 \xef\xbf\xbf \n");
  ASSERT_EQ(b.diags().size(), 1u);
  EXPECT_EQ(b.diags()[0].detail, "Cannot encode character U+ff11ff22 in UTF-8.");
  EXPECT_EQ(subject(b.diags()[0]), "1:19-1:29");
  EXPECT_EQ(b.diags()[0].subject->start.byte, 18u);
  EXPECT_EQ(b.diags()[0].subject->end.byte, 28u);
  EXPECT_EQ(b.diags()[0].subject->filename, "t.hcl");
}

TEST(DecodeLiteral, SeveralBadEscapesInOrder) {
  Decoded d = decode("\\q\\u12 \\U1");
  EXPECT_EQ(d.text, "q\\u12 \\U1");
  ASSERT_EQ(d.diags.size(), 3u);
  EXPECT_EQ(subject(d.diags[0]), "1:6-1:8");
  EXPECT_EQ(subject(d.diags[1]), "1:8-1:12");
  EXPECT_EQ(d.diags[1].detail, kFour);
  EXPECT_EQ(subject(d.diags[2]), "1:13-1:16");
  EXPECT_EQ(d.diags[2].detail, kEight);
}

TEST(DecodeLiteral, ColumnsCountGraphemeClustersPerSlice) {
  // "e" + U+0301 is one cluster (one column); the escape after it starts at
  // column 7. A combining mark right after an escape starts a new slice,
  // so the reference counts it as a column of its own.
  Decoded d = decode("e\xcc\x81\\q");
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(subject(d.diags[0]), "1:7-1:9");
  d = decode("\\n\xcc\x81\\q");
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(d.text, "\n\xcc\x81q");
  EXPECT_EQ(subject(d.diags[0]), "1:9-1:11");
}

TEST(DecodeLiteral, NewlinesInsideATokenAdvanceTheLine) {
  // Only reachable through the public decoder on odd input, but the walk is
  // the reference's: a cluster starting with CR or LF begins a new line.
  Decoded d = decode("x\r\ny\\q");
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(subject(d.diags[0]), "2:2-2:4");
  d = decode("\r\r\\q");
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(subject(d.diags[0]), "3:1-3:3");
}

TEST(DecodeLiteral, BrokenSequenceAfterBackslashStopsTheScanner) {
  // The reference's slicer stops inside `\` + a cut-off multi-byte
  // sequence and then emits the text from the last escape up to the
  // offending byte again, then the rest verbatim (no more escapes).
  Decoded d = decode("ab\\\xc3" "A\\n");
  EXPECT_EQ(d.text, "abab\\\xc3" "A\\n");
  EXPECT_TRUE(d.diags.empty());
  d = decode("\\t\\\xe2\x82" "B\\t");
  EXPECT_EQ(d.text, "\t\xe2\x82" "B\\t");
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(d.diags[0].detail, "The symbol \"\\xe2\\x82\" is not a valid escape sequence selector.");
  d = decode("ab\\\xf0\x9f");  // cut off by the end of the token
  EXPECT_EQ(d.text, "abab\\\xf0\x9f");
  // A stray continuation byte cannot start a selector: the backslash
  // stands alone.
  d = decode("\\\x80");
  EXPECT_EQ(d.text, "\\\x80");
  ASSERT_EQ(d.diags.size(), 1u);
  EXPECT_EQ(d.diags[0].detail, kBare);
}

TEST(LabelText, JoinsDecodedLiterals) {
  Source src("t.hcl", "a\\tb$${c");
  Arena arena;
  Builder b(arena, src);
  EXPECT_EQ(b.label_text({Span{0, 4}, Span{4, 8}}), "a\tb${c");
  EXPECT_EQ(b.label_text({Span{4, 8}}), "${c");
  EXPECT_EQ(b.label_text({}), "");
  EXPECT_TRUE(b.diags().empty());
}

TEST(Unicode, IsSpaceIsGos) {
  for (char32_t c : {U'\t', U'\n', U'\v', U'\f', U'\r', U' ', U'\u0085', U'\u00a0', U'\u1680', U'\u2000', U'\u200a',
                     U'\u2028', U'\u2029', U'\u202f', U'\u205f', U'\u3000'})
    EXPECT_TRUE(uni::is_space(c)) << uint32_t(c);
  for (char32_t c : {U'\u180e', U'\u200b', U'\ufeff', U'a', U'\u0000', U'\u001c', U'\u200c'})
    EXPECT_FALSE(uni::is_space(c)) << uint32_t(c);
}

TEST(Unicode, TrimSpace) {
  EXPECT_EQ(uni::trim_left_space("\u00a0\u3000 \tx "), "x ");
  EXPECT_EQ(uni::trim_right_space(" x\t\u2028\u00a0"), " x");
  EXPECT_EQ(uni::trim_right_space("x\xa0"), "x\xa0");  // a lone byte is no space
  EXPECT_EQ(uni::trim_right_space("   "), "");
  EXPECT_EQ(uni::trim_left_space("\xc2"), "\xc2");
}

TEST(Unicode, GoQuote) {
  EXPECT_EQ(uni::go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(uni::go_quote("\x7f\x1b\a"), "\"\\x7f\\x1b\\a\"");
  EXPECT_EQ(uni::go_quote("\xef\xbb\xbf"), "\"\\ufeff\"");
  EXPECT_EQ(uni::go_quote("\xf3\xa0\x80\x81"), "\"\\U000e0001\"");
  EXPECT_EQ(uni::go_quote("\xe6\x97\xa5\xcc\x81"), "\"\xe6\x97\xa5\xcc\x81\"");
  EXPECT_EQ(uni::go_quote("\xc0\xaf"), "\"\\xc0\\xaf\"");
  // The cases of diagnostic labels (strconv.Quote in hcl's text writer).
  EXPECT_EQ(uni::go_quote("a\tb"), "\"a\\tb\"");
  EXPECT_EQ(uni::go_quote("\xc3\xa9\x01"), "\"\xc3\xa9\\x01\"");
  EXPECT_EQ(uni::go_quote("q\"\\"), "\"q\\\"\\\\\"");
  EXPECT_EQ(uni::go_quote("\xc2\xa0\xe2\x80\x8b\xf0\x9f\x98\x80\xf3\xa0\x80\x81\x7f\xff\xe2\x80\xa8"),
            "\"\\u00a0\\u200b\xf0\x9f\x98\x80\\U000e0001\\x7f\\xff\\u2028\"");
  EXPECT_EQ(uni::go_quote("\a\b\f\n\r\v\x1b"), "\"\\a\\b\\f\\n\\r\\v\\x1b\"");
}

// One code point escaped as Go quotes it, inside strings or runes.
TEST(Unicode, GoEscaped) {
  auto esc = [](char32_t c, char q) {
    std::string out;
    uni::append_go_escaped(out, c, q);
    return out;
  };
  EXPECT_EQ(esc('"', '"'), "\\\"");
  EXPECT_EQ(esc('"', '\''), "\"");
  EXPECT_EQ(esc('\'', '\''), "\\'");
  EXPECT_EQ(esc('\n', '"'), "\\n");
  EXPECT_EQ(esc(0x7F, '"'), "\\x7f");
  EXPECT_EQ(esc(0x2028, '"'), "\\u2028");
  EXPECT_EQ(esc(0xE9, '"'), "\xc3\xa9");
  EXPECT_EQ(esc(0xE0000, '"'), "\\U000e0000");
}

// The did-you-mean distance counts code points as Go's []rune does.
TEST(Unicode, Levenshtein) {
  EXPECT_EQ(uni::levenshtein("kitten", "sitting"), 3u);
  EXPECT_EQ(uni::levenshtein("", "abc"), 3u);
  EXPECT_EQ(uni::levenshtein("same", "same"), 0u);
  EXPECT_EQ(uni::levenshtein("h\xc3\xa9llo", "hello"), 1u);  // one code point, two bytes
  // Each invalid byte is one U+FFFD: two of them against one.
  EXPECT_EQ(uni::levenshtein("a\xff\xfe", "a\xef\xbf\xbd"), 1u);
}

// The bounded distance is the distance below its limit and the limit
// otherwise, on ASCII and non-ASCII text alike: checked against a plain
// rune-by-rune table over every pair of a set of names.
TEST(Unicode, LevenshteinBelowAgreesWithTheDistance) {
  auto plain = [](std::string_view a, std::string_view b) {
    std::vector<char32_t> x, y;
    for (size_t i = 0; i < a.size();) {
      uni::Rune r = uni::decode(a, i);
      x.push_back(r.ok ? r.cp : 0xFFFD);
      i += r.ok ? r.len : 1;
    }
    for (size_t i = 0; i < b.size();) {
      uni::Rune r = uni::decode(b, i);
      y.push_back(r.ok ? r.cp : 0xFFFD);
      i += r.ok ? r.len : 1;
    }
    std::vector<std::vector<size_t>> d(x.size() + 1, std::vector<size_t>(y.size() + 1));
    for (size_t i = 0; i <= x.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= y.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= x.size(); ++i)
      for (size_t j = 1; j <= y.size(); ++j)
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                            d[i - 1][j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)});
    return d[x.size()][y.size()];
  };
  const std::vector<std::string> names = {
      "", "a", "ab", "abc", "cab", "length", "lenght", "lengths", "upper", "lower", "uper",
      "jsonencode", "jsondecode", "yamlencode", "h\xc3\xa9llo", "hello", "hallo",
      "a\xff\xfe", "a\xef\xbf\xbd", "\xe2\x82\xac\xe2\x82\xac", "ee", "var", "vars", "local"};
  for (const std::string& a : names) {
    for (const std::string& b : names) {
      size_t want = plain(a, b);
      EXPECT_EQ(uni::levenshtein(a, b), want) << a << " / " << b;
      for (size_t limit : {size_t(0), size_t(1), size_t(2), size_t(3), size_t(5)})
        EXPECT_EQ(uni::levenshtein_below(a, b, limit), std::min(want, limit))
            << a << " / " << b << " below " << limit;
    }
  }
  // The band and the filters before it (lengths, bytes one word lacks):
  // random words over a small alphabet (so that near and far pairs both
  // occur), of lengths on either side of every limit, some with a letter
  // of two bytes; through levenshtein_below and NearName alike.
  std::mt19937 rng(36);
  auto word = [&] {
    std::string w;
    for (size_t n = rng() % 13; n > 0; --n) {
      unsigned pick = rng() % 24;
      w += pick == 0 ? "\xc3\xa9" : std::string(1, "abcdxyz_"[pick % 8]);
    }
    return w;
  };
  for (int k = 0; k < 6000; ++k) {
    std::string a = word(), b = word();
    size_t want = plain(a, b);
    EXPECT_EQ(uni::levenshtein(a, b), want) << a << " / " << b;
    uni::NearName near(a);
    for (size_t limit = 0; limit <= 7; ++limit) {
      ASSERT_EQ(uni::levenshtein_below(a, b, limit), std::min(want, limit))
          << a << " / " << b << " below " << limit;
      ASSERT_EQ(near.below(b, limit), std::min(want, limit)) << a << " / " << b << " below " << limit;
    }
  }
}

// Columns count grapheme clusters from the line start: on the ASCII start
// of a line (no CR) each byte is a column; after it the clusters are
// walked. Both ways must give the reference's columns wherever a line
// turns from one to the other.
TEST(SourcePositions, AsciiStartsAndWalkedRestsAgree) {
  auto at = [](std::string text, uint32_t byte) {
    Pos p = make_source("t", std::move(text))->pos(byte);
    return std::to_string(p.line) + ":" + std::to_string(p.column);
  };
  EXPECT_EQ(at("ab\tc = 1\n", 3), "1:4");
  EXPECT_EQ(at("ab\tc = 1\n", 8), "1:9");
  // x, e + U+0301 (one cluster), y: the mark and y are both at column 3.
  EXPECT_EQ(at("xe\xcc\x81y\n", 1), "1:2");
  EXPECT_EQ(at("xe\xcc\x81y\n", 2), "1:3");
  EXPECT_EQ(at("xe\xcc\x81y\n", 4), "1:3");
  EXPECT_EQ(at("xe\xcc\x81y\n", 5), "1:4");
  // CR ends the ASCII start: CR LF is one cluster.
  EXPECT_EQ(at("a\r\nb", 1), "1:2");
  EXPECT_EQ(at("a\r\nb", 2), "1:3");
  EXPECT_EQ(at("a\r\nb", 3), "2:1");
  EXPECT_EQ(at("a\rb\n", 3), "1:4");
  // A BOM takes no column.
  EXPECT_EQ(at("\xEF\xBB\xBF" "ab", 3), "1:1");
  EXPECT_EQ(at("\xEF\xBB\xBF" "ab", 4), "1:2");
  // An ASCII line after one that is not, and a line that turns mid-way.
  EXPECT_EQ(at("\xc3\xa9\nabc", 4), "2:2");
  EXPECT_EQ(at("\xc3\xa9\nabc", 1), "1:2");  // inside a character: taken whole
  EXPECT_EQ(at("ab \xc3\xa9 cd", 3), "1:4");
  EXPECT_EQ(at("ab \xc3\xa9 cd", 5), "1:5");
  EXPECT_EQ(at("ab \xc3\xa9 cd", 7), "1:7");
}

TEST(Unicode, Graphemes) {
  EXPECT_EQ(uni::count_graphemes("e\xcc\x81x"), 2u);
  EXPECT_EQ(uni::count_graphemes("\r\n"), 1u);
  EXPECT_EQ(uni::count_graphemes("\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"), 1u);  // thumbs up + skin tone
  EXPECT_EQ(uni::count_graphemes("\xff\xfe"), 2u);
  EXPECT_EQ(uni::grapheme_len(" \xcc\x81 ", 0), 3u);
}

}  // namespace
}  // namespace hclvm::syntax

namespace hclvm {
namespace {

// NFC of [s] normalized run by run as a whole (what uni::nfc did before it
// learned to copy ASCII around the non-ASCII stretches).
std::string nfc_whole_runs(std::string_view s) {
  std::string out;
  size_t run = 0;
  auto flush = [&](size_t end) {
    if (end == run) return;
    utf8proc_uint8_t* mapped = nullptr;
    utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + run),
                                      utf8proc_ssize_t(end - run), &mapped,
                                      utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
    out.append(reinterpret_cast<const char*>(mapped), size_t(n));
    std::free(mapped);
  };
  size_t i = 0;
  while (i < s.size()) {
    uni::Rune r = uni::decode(s, i);
    if (r.ok) {
      i += r.len;
      continue;
    }
    flush(i);
    out.push_back(s[i]);
    run = ++i;
  }
  flush(s.size());
  return out;
}

TEST(Unicode, NfcOfStretchesEqualsNfcOfWholeRuns) {
  // Pieces that compose, reorder or decompose across their neighbours:
  // combining marks after ASCII and after each other (out of canonical
  // order), Hangul jamo, a singleton decomposition (Ohm), a composition
  // exclusion, invalid bytes, CJK.
  const char* const pieces[] = {"a",     "e",        "\xcc\x81",  "\xcc\xa3", "\xcc\x88",
                                "\xe1\x84\x80", "\xe1\x85\xa1", "\xe1\x86\xa8", "\xe2\x84\xa6",
                                "\xe0\xa5\x98", "\xff", "\xc3",   "\xe6\x97\xa5", " ", "\xc3\xa9",
                                "o\xcc\x88\xcc\x81"};
  std::mt19937 rng(3);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (size_t n = rng() % 8; n > 0; --n) s += pieces[rng() % std::size(pieces)];
    ASSERT_EQ(uni::nfc(s), nfc_whole_runs(s)) << testing::PrintToString(s);
  }
  EXPECT_EQ(uni::nfc("cafe\xcc\x81 ok"), "caf\xc3\xa9 ok");
  EXPECT_EQ(uni::nfc("plain ascii"), "plain ascii");
}

}  // namespace
}  // namespace hclvm

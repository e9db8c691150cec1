// Hostile and extreme inputs for the native-syntax parsers: very deep
// nesting of every bracketing construct, NUL bytes, invalid UTF-8, every
// prefix of a valid file, and one very large file. The property is the API's
// promise: any bytes give diagnostics (and a tree), never a crash, a hang or
// an exception; where the answer is known, the verdict is the reference's
// (hcl 2.14.1, checked with the oracle). At a depth of 100,000 the reference
// itself dies of a stack overflow, so there only survival is required: a
// clean error or a success, whichever the implementation's limits give.
#include <gtest/gtest.h>
#include <hclvm/syntax.h>

#include <cstdio>
#include <string>

#include "syntax/dump.h"
#include "syntax/parse.h"
#include "test_util.h"

namespace {

using hclvm::Diagnostics;

enum class Entry { Config, Expression, Template };

// Checks what every parse result must satisfy whatever the input [size]
// bytes were: errors carry a summary, subject ranges lie inside the source
// and are ordered.
void check_invariants(const Diagnostics& diags, size_t size, const std::string& what) {
  for (const auto& d : diags) {
    if (d.severity == hclvm::Severity::Error) {
      EXPECT_FALSE(d.summary.empty()) << what;
    }
    if (!d.subject) continue;
    EXPECT_LE(d.subject->start.byte, d.subject->end.byte) << what << ": " << d.summary;
    EXPECT_LE(d.subject->end.byte, size) << what << ": " << d.summary;
    EXPECT_GE(d.subject->start.line, 1u) << what;
    EXPECT_GE(d.subject->start.column, 1u) << what;
  }
}

// Parses [text] with [entry] and checks the invariants; returns whether the
// parse reported errors. [what] names the case in failure messages.
bool parse_survives(Entry entry, std::string text, const std::string& what) {
  const size_t size = text.size();
  auto src = hclvm::make_source("robust.hcl", std::move(text));
  switch (entry) {
    case Entry::Config: {
      auto r = hclvm::parse_config(src);
      check_invariants(r.diagnostics, size, what);
      if (!r.has_errors()) {
        EXPECT_NE(r.body, nullptr) << what;
      }
      return r.has_errors();
    }
    case Entry::Expression: {
      auto r = hclvm::parse_expression(src);
      check_invariants(r.diagnostics, size, what);
      if (!r.has_errors()) {
        EXPECT_NE(r.expr, nullptr) << what;
      }
      return r.has_errors();
    }
    case Entry::Template: {
      auto r = hclvm::parse_template(src);
      check_invariants(r.diagnostics, size, what);
      if (!r.has_errors()) {
        EXPECT_NE(r.expr, nullptr) << what;
      }
      return r.has_errors();
    }
  }
  return true;
}

// Returns [s] repeated [n] times.
std::string rep(std::string_view s, size_t n) { return hclvm::test::repeat(s, n); }

constexpr size_t kDeep = 100000;

// Returns `<<EOT\n${ ... }\nEOT\n` nested [depth] times around "x".
std::string nested_heredocs(size_t depth) {
  std::string open = rep("<<EOT\n${", depth);
  std::string close = rep("}\nEOT\n", depth);
  return open + "\"x\"" + close;
}

// --- Deep nesting: the reference overflows its stack; we must not crash. ---

TEST(Robustness, DeepBracketsUnclosed) {
  EXPECT_TRUE(parse_survives(Entry::Config, "a = " + rep("[", kDeep) + "\n", "100k unclosed ["));
  EXPECT_TRUE(parse_survives(Entry::Expression, rep("[", kDeep), "100k unclosed [ (expression)"));
}

TEST(Robustness, DeepBracketsBalanced) {
  parse_survives(Entry::Config, "a = " + rep("[", kDeep) + rep("]", kDeep) + "\n", "100k balanced []");
  parse_survives(Entry::Expression, rep("[", kDeep) + rep("]", kDeep), "100k balanced [] (expression)");
}

TEST(Robustness, DeepParensUnclosed) {
  EXPECT_TRUE(parse_survives(Entry::Config, "a = " + rep("(", kDeep) + "1\n", "100k unclosed ("));
  EXPECT_TRUE(parse_survives(Entry::Expression, rep("(", kDeep) + "1", "100k unclosed ( (expression)"));
}

TEST(Robustness, DeepParensBalanced) {
  parse_survives(Entry::Config, "a = " + rep("(", kDeep) + "1" + rep(")", kDeep) + "\n", "100k balanced ()");
  parse_survives(Entry::Expression, rep("(", kDeep) + "1" + rep(")", kDeep), "100k balanced () (expression)");
}

TEST(Robustness, DeepObjects) {
  parse_survives(Entry::Config, "a = " + rep("{a = ", kDeep) + "1" + rep("}", kDeep) + "\n", "100k nested objects");
  EXPECT_TRUE(parse_survives(Entry::Config, "a = " + rep("{a = ", kDeep) + "1\n", "100k unclosed objects"));
}

TEST(Robustness, DeepInterpolations) {
  parse_survives(Entry::Config, "a = " + rep("\"${", kDeep) + "x" + rep("}\"", kDeep) + "\n",
                 "100k nested \"${");
  EXPECT_TRUE(parse_survives(Entry::Config, "a = " + rep("\"${", kDeep) + "x\n", "100k unclosed \"${"));
  parse_survives(Entry::Template, rep("${\"", kDeep) + "x" + rep("\"}", kDeep), "100k nested ${\" (template)");
}

TEST(Robustness, DeepTemplateDirectives) {
  parse_survives(Entry::Template, rep("%{if true}", kDeep) + "x" + rep("%{endif}", kDeep), "100k nested %{if}");
  EXPECT_TRUE(parse_survives(Entry::Template, rep("%{if true}", kDeep) + "x", "100k unclosed %{if}"));
  parse_survives(Entry::Template, rep("%{for x in y}", kDeep) + "x" + rep("%{endfor}", kDeep),
                 "100k nested %{for}");
}

TEST(Robustness, DeepHeredocsInInterpolations) {
  // The reference accepts this at depth 10,000.
  parse_survives(Entry::Config, "a = " + nested_heredocs(10000), "10k nested heredocs");
  parse_survives(Entry::Config, "a = " + nested_heredocs(kDeep), "100k nested heredocs");
  EXPECT_TRUE(parse_survives(Entry::Config, "a = " + rep("<<EOT\n${", kDeep) + "x\n", "100k unclosed heredocs"));
}

TEST(Robustness, DeepBlocks) {
  parse_survives(Entry::Config, rep("a {\n", kDeep) + rep("}\n", kDeep), "100k nested blocks");
  EXPECT_TRUE(parse_survives(Entry::Config, rep("a {\n", kDeep), "100k unclosed blocks"));
}

TEST(Robustness, DeepUnaryAndOperators) {
  parse_survives(Entry::Expression, rep("-", kDeep) + "1", "100k unary minus");
  parse_survives(Entry::Expression, rep("!", kDeep) + "true", "100k unary not");
  parse_survives(Entry::Expression, rep("a ? ", kDeep) + "b" + rep(" : c", kDeep), "100k nested conditionals");
  parse_survives(Entry::Expression, "a" + rep(".b", kDeep), "100k traversal steps");
  parse_survives(Entry::Expression, "1" + rep(" + 1", kDeep), "100k additions");
}

// Nesting past what any thread's stack holds when each level recurses
// (about 1.1 million levels of `[` in a release build took the recovering
// parser past its 1 GiB stack): the parser stops descending at its depth
// limit, skips each deeper construct as a whole, and reports the nesting
// once. Before, the deepest level went on reading every remaining `[` as an
// index step, one level deeper each time, until the stack overflowed.
TEST(Robustness, NestingBeyondAnyStack) {
  const size_t n = 1500000;
  struct Case {
    std::string what, text;
  } cases[] = {
      {"1.5M unclosed [", "x = " + rep("[", n)},
      {"a then 1.5M [[", "x = a" + rep("[[", n)},
      {"1.5M balanced [] and one more ]", "x = " + rep("[", n) + rep("]", n) + "]"},
      {"1.5M f(", "x = " + rep("f(", n)},
      {"1.5M {a=", "x = " + rep("{a=", n)},
      {"1.5M unclosed blocks", rep("x {\n", n)},
      {"1.5M a ?", "x = " + rep("a ? ", n)},
  };
  for (auto& c : cases) {
    auto r = hclvm::parse_config(hclvm::make_source("deep.hcl", std::move(c.text)));
    ASSERT_TRUE(r.has_errors()) << c.what;
    size_t nesting = 0;
    for (const auto& d : r.diagnostics) nesting += d.summary == "Nesting too deep";
    EXPECT_GE(nesting, 1u) << c.what;
    // One report for the parser's limit, at most one more for the tree's;
    // nothing per level.
    EXPECT_LE(r.diagnostics.size(), 4u) << c.what;
  }
}

// `a[*][*]...`: each full splat nests the rest of the chain, and the Bison
// path builds the chain one step at a time on its root. Each step used to
// descend the whole chain recursively (100,000 splats: quadratic time, then
// a stack overflow); now a chain longer than the nesting limit is cut and
// reported, whatever its length.
TEST(Robustness, LongFullSplatChains) {
  const size_t n = 100000;
  for (std::string step : {"[*]", "[*].b", "[*][0]", "[*].*.c"}) {
    auto r = hclvm::parse_config(hclvm::make_source("splat.hcl", "x = a" + rep(step, n) + "\ny = 1\n"));
    ASSERT_TRUE(r.has_errors()) << step;
    EXPECT_EQ(r.diagnostics[0].summary, "Nesting too deep") << step;
    ASSERT_NE(r.body, nullptr);
    EXPECT_EQ(r.body->attributes.size, 2u) << step;
  }
  // Just within the limit, the chain is a tree like any other.
  auto r = hclvm::parse_config(hclvm::make_source("splat.hcl", "x = a" + rep("[*]", 9000) + ".b\n"));
  EXPECT_FALSE(r.has_errors());
}

// A string of a million escaped "$${" between letters: each is a part of
// the template, and the part stack grows geometrically even where the
// tokens scanned so far bound it too low (it grew by 16 at a time, and
// 200,000 of them took 36 s; a million would pass the test's timeout).
TEST(Robustness, ManyEscapedInterpolationsInOneString) {
  const size_t n = 1000000;
  auto r = hclvm::parse_config(
      hclvm::make_source("escapes.hcl", "x = \"" + rep("a$${", n) + "\"\ny = 1\n"));
  EXPECT_FALSE(r.has_errors());
  ASSERT_NE(r.body, nullptr);
  EXPECT_EQ(r.body->attributes.size, 2u);
}

// Splat chains mixed with every kind of step give the same tree, spans
// included, on the fast path (which builds them step by step and settles
// the spans inside the chain at the end) and on the recovering path (which
// builds them recursively, as the reference does).
TEST(Robustness, SplatChainSpansAgreeOnBothPaths) {
  const char* exprs[] = {
      "a[*].b[*][0][*].c.d[*][1] + b[*][*].x",
      "a[*][*][*]",
      "a[*].*.b[*].c",
      "f(a[*].b[*][c[*].d]).e[*]",
      "{k = a[*][0][\"s\"][*].t}[*]",
      "a.*.b[*].c.*.d",
      "[for x in a[*][*] : x[*].y[*]][*][0]",
  };
  for (const char* e : exprs) {
    std::string text = std::string("x = ") + e + "\n";
    auto fast = hclvm::syntax::parse_config_via(hclvm::make_source("t.hcl", text), hclvm::syntax::Path::Fast);
    auto slow = hclvm::syntax::parse_config_via(hclvm::make_source("t.hcl", text), hclvm::syntax::Path::Recover);
    ASSERT_NE(fast.body, nullptr) << e;
    ASSERT_NE(slow.body, nullptr) << e;
    EXPECT_FALSE(fast.has_errors()) << e;
    EXPECT_FALSE(slow.has_errors()) << e;
    EXPECT_EQ(hclvm::syntax::dump_body(*fast.body, *fast.source), hclvm::syntax::dump_body(*slow.body, *slow.source))
        << e;
  }
}

// Moderate nesting that the reference accepts must be accepted: a depth
// limit, if any, has to lie beyond it.
TEST(Robustness, ModerateNestingAccepted) {
  const size_t n = 1000;
  EXPECT_FALSE(parse_survives(Entry::Config, "a = " + rep("[", n) + rep("]", n) + "\n", "1000 []"));
  EXPECT_FALSE(parse_survives(Entry::Config, "a = " + rep("(", n) + "1" + rep(")", n) + "\n", "1000 ()"));
  EXPECT_FALSE(parse_survives(Entry::Config, "a = " + rep("{a = ", n) + "1" + rep("}", n) + "\n", "1000 {}"));
  EXPECT_FALSE(parse_survives(Entry::Config, "a = " + rep("\"${", n) + "x" + rep("}\"", n) + "\n", "1000 \"${"));
  EXPECT_FALSE(parse_survives(Entry::Config, rep("a {\n", n) + rep("}\n", n), "1000 blocks"));
  EXPECT_FALSE(parse_survives(Entry::Config, "a = \"" + rep("%{if true}", n) + "x" + rep("%{endif}", n) + "\"\n",
                              "1000 %{if}"));
  EXPECT_FALSE(parse_survives(Entry::Config, "a = " + nested_heredocs(n), "1000 heredocs"));
}

// --- Bytes the language does not expect. Verdicts are the reference's. ---

TEST(Robustness, NulBytes) {
  using namespace std::string_literals;
  EXPECT_FALSE(parse_survives(Entry::Config, "a = \"x\0y\"\n"s, "NUL in a quoted string"));
  EXPECT_FALSE(parse_survives(Entry::Config, "# c\0\na = 1\n"s, "NUL in a comment"));
  EXPECT_TRUE(parse_survives(Entry::Config, "\0"s, "lone NUL"));
  EXPECT_TRUE(parse_survives(Entry::Config, "a = 1\0\n"s, "NUL after a value"));
  EXPECT_TRUE(parse_survives(Entry::Expression, "\0"s, "lone NUL (expression)"));
  EXPECT_FALSE(parse_survives(Entry::Template, "a\0${b}\0"s, "NUL in a template"));
  parse_survives(Entry::Config, std::string(1000, '\0'), "1000 NULs");
}

TEST(Robustness, InvalidUtf8) {
  EXPECT_TRUE(parse_survives(Entry::Config, "a = \"\xff\"\n", "0xff in a string"));
  EXPECT_TRUE(parse_survives(Entry::Config, "a = \"\xc3\"\n", "truncated sequence in a string"));
  EXPECT_TRUE(parse_survives(Entry::Config, "\xff = 1\n", "0xff as a name"));
  EXPECT_TRUE(parse_survives(Entry::Config, "a = <<EOT\n\xfe\nEOT\n", "0xfe in a heredoc"));
  // The reference's scanner lets these through.
  EXPECT_FALSE(parse_survives(Entry::Config, "a = \"\xc0\xaf\"\n", "overlong encoding in a string"));
  EXPECT_FALSE(parse_survives(Entry::Config, "a = \"\xed\xa0\x80\"\n", "surrogate in a string"));
  EXPECT_FALSE(parse_survives(Entry::Config, "# \xff\na = 1\n", "0xff in a comment"));
  // Every byte value in every position of a small file.
  const std::string base = "a = \"b${c}\"\n";
  for (size_t pos = 0; pos < base.size(); ++pos) {
    for (int b = 0x80; b <= 0xff; ++b) {
      std::string s = base;
      s[pos] = static_cast<char>(b);
      parse_survives(Entry::Config, s, "byte " + std::to_string(b) + " at " + std::to_string(pos));
    }
  }
}

// --- Every prefix of valid inputs: what an editor sends while typing. ---

const char* const kValidConfig = R"HCL(# A small file touching most of the syntax.
variable "region" {
  type    = string
  default = "us-east-1"
}

locals {
  names  = ["a", "b", "c"]
  upper  = [for n in local.names : upper(n) if n != "b"]
  lookup = { for i, n in local.names : n => i... }
  obj    = { a = 1, "b" : 2.5e3, (var.k) = null }
  cond   = var.x > 1 && !var.y ? -var.x % 3 : var.z[0].w[*].v
  splat  = aws_instance.web.*.id
  call   = format("%s-%d", var.name, length(local.names)...)
  tpl    = "x${var.a}y%{ if var.b }z%{ else }w%{ endif }$${esc} \"q\" \u00e9"
  doc    = <<-EOT
    hello ${var.name}
    %{~ for x in local.names ~}
    - ${x}
    %{~ endfor ~}
  EOT
}

resource "aws_instance" "web" { ami = "ami-123" }
/* block
   comment */ // line comment
)HCL";

TEST(Robustness, EveryPrefixOfAConfig) {
  const std::string text = kValidConfig;
  EXPECT_FALSE(parse_survives(Entry::Config, text, "whole file"));
  for (size_t n = 0; n < text.size(); ++n)
    parse_survives(Entry::Config, text.substr(0, n), "prefix of " + std::to_string(n) + " bytes");
}

TEST(Robustness, EveryPrefixOfAnExpression) {
  const std::string text =
      R"({for k, v in { a = [1, 2.5], "b" = "x${y}" } : k => v[0] * -2... if !contains(["z"], k)}[*].a ? <<EOT
${a}
EOT
 : null)";
  EXPECT_FALSE(parse_survives(Entry::Expression, text, "whole expression"));
  for (size_t n = 0; n < text.size(); ++n)
    parse_survives(Entry::Expression, text.substr(0, n), "prefix of " + std::to_string(n) + " bytes");
}

TEST(Robustness, EveryPrefixOfATemplate) {
  const std::string text = "Hello ${name}!\n%{ if a ~}\nyes ${b[0]}\n%{~ else }no%{ endif }"
                           "%{ for i, x in xs }${i}=${x}%{ endfor } $${no} %%{no}";
  EXPECT_FALSE(parse_survives(Entry::Template, text, "whole template"));
  for (size_t n = 0; n < text.size(); ++n)
    parse_survives(Entry::Template, text.substr(0, n), "prefix of " + std::to_string(n) + " bytes");
}

// --- Size: a 64 MiB file must parse (time is measured by the benchmarks). ---

TEST(Robustness, LargeFile) {
  const size_t target = size_t{64} << 20;
  std::string text;
  text.reserve(target + 1024);
  size_t blocks = 0;
  char buf[512];
  while (text.size() < target) {
    int n = std::snprintf(buf, sizeof buf,
                          "resource \"r\" \"n%zu\" {\n"
                          "  count = %zu\n"
                          "  name  = \"v-${var.x[%zu]}\"\n"
                          "  list  = [for x in local.y : x * 2 if x > 1]\n"
                          "  doc   = <<-EOT\n"
                          "    line ${count.index}\n"
                          "  EOT\n"
                          "}\n",
                          blocks, blocks, blocks);
    text.append(buf, static_cast<size_t>(n));
    ++blocks;
  }
  auto r = hclvm::parse_config(hclvm::make_source("large.hcl", std::move(text)));
  EXPECT_FALSE(r.has_errors());
  ASSERT_NE(r.body, nullptr);
  EXPECT_EQ(r.body->blocks.size, blocks);
}

}  // namespace

namespace hclvm {
namespace {

// Offsets are 32-bit: a larger input gets a diagnostic, never wrapped
// positions. (Allocates 4 GiB; skipped when the machine cannot.)
TEST(Robustness, InputBeyondFourGiB) {
  std::string big;
  try {
    big.assign(size_t(UINT32_MAX) + 1, ' ');
  } catch (const std::bad_alloc&) {
    GTEST_SKIP() << "cannot allocate 4 GiB here";
  }
  FileParse r = parse_config(make_source("big.hcl", std::move(big)));
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "File too large");
  EXPECT_EQ(r.body, nullptr);
}

}  // namespace
}  // namespace hclvm

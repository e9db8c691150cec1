// Tests of the fast Bison parser: every construct of valid HCL must be
// accepted by it (not left to the recovering parser), and the tree it builds
// must be exactly the recovering parser's, which follows the reference.
#include "syntax/dump.h"
#include "syntax/parse.h"

#include <gtest/gtest.h>

namespace hclvm::syntax {
namespace {

enum class Kind { Config, Expr, Template };

struct Case {
  Kind kind;
  const char* src;
};

// Returns the dump of [src] parsed as [kind] through [path], or "" when the
// parse produced no tree; [diags] receives the diagnostic count.
std::string parse_dump(Kind kind, const std::string& src, Path path, size_t* diags) {
  auto source = make_source("test.hcl", src);
  switch (kind) {
    case Kind::Config: {
      FileParse r = parse_config_via(source, path);
      *diags = r.diagnostics.size();
      return r.body ? dump_body(*r.body, *source) : "";
    }
    case Kind::Expr: {
      ExprParse r = parse_expression_via(source, path);
      *diags = r.diagnostics.size();
      return r.expr ? dump_expr(*r.expr, *source) : "";
    }
    case Kind::Template: {
      ExprParse r = parse_template_via(source, path);
      *diags = r.diagnostics.size();
      return r.expr ? dump_expr(*r.expr, *source) : "";
    }
  }
  return "";
}

class FastPath : public ::testing::TestWithParam<Case> {};

TEST_P(FastPath, AcceptedAndSameTreeAsRecovering) {
  const Case& c = GetParam();
  size_t fast_diags = 0, slow_diags = 0;
  std::string fast = parse_dump(c.kind, c.src, Path::Fast, &fast_diags);
  std::string slow = parse_dump(c.kind, c.src, Path::Recover, &slow_diags);
  EXPECT_EQ(slow_diags, 0u) << "the reference rejects this input:\n" << c.src;
  ASSERT_FALSE(fast.empty()) << "the Bison parser rejected valid input:\n" << c.src;
  EXPECT_EQ(fast_diags, 0u);
  EXPECT_EQ(fast, slow) << c.src;
}

const Case kValid[] = {
    {Kind::Config, ""},
    {Kind::Config, "\n\n"},
    {Kind::Config, "a = 1"},
    {Kind::Config, "a = 1\n"},
    {Kind::Config, "# comment\na = 1 // trailing\nb = 2 /* inline */\n"},
    {Kind::Config, "a = 1\r\nb = 2\r\n"},
    {Kind::Config, "block {}\n"},
    {Kind::Config, "block {\n}\n"},
    {Kind::Config, "block \"a\" b \"c\" {\n  x = 1\n\n  inner {\n    y = 2\n  }\n}\n"},
    {Kind::Config, "block { x = 1 }\n"},
    {Kind::Config, "block \"l\" { x = [1, 2] }"},
    {Kind::Config, "resource \"aws_instance\" \"web\" {\n  ami = \"ami-${var.id}\"\n  count = 2\n}"},
    {Kind::Config, "a = {\n  b = 1\n  c = 2,\n\n  d = 3\n}\n"},
    {Kind::Config, "a = { b: 1, c: \"x\" }\n"},
    {Kind::Config, "a = {\n}\n"},
    {Kind::Config, "a = {(k) = 1, \"s\" = 2, k.x = 3}\n"},
    {Kind::Config, "a = [\n  1,\n  2,\n]\n"},
    {Kind::Config, "a = f(\n  1,\n  2\n)\n"},
    {Kind::Config, "a = <<EOT\nhello\n  ${name}\nEOT\n"},
    {Kind::Config, "a = <<-EOT\n    hello\n      ${name}\n    EOT\n"},
    {Kind::Config, "a = <<EOT\nEOT\n"},
    {Kind::Config, "if = 1\nin = 2\nfor = 3\n"},
    {Kind::Config, "a = [for x in xs: x]\n"},
    {Kind::Config, "a = {\n  for k, v in m : k => v... if v != null\n}\n"},
    {Kind::Config, "a = [\n  for x in xs:\n  x\n  if x\n]\n"},
    // The token feed's ATTR (`name =` at an item's start) and block-brace guesses.
    {Kind::Config, "a /* c */ = 1\nb {\n  c /* d */ = 2\n}\n"},
    {Kind::Config, "rules = { for k, v in {\n  x = { y = 1 }\n} : k => v if v != null }\n"},
    {Kind::Config, "a = [for x in {b = 1}: x if {c = true}.c]\n"},
    {Kind::Config, "b \"l\" { c = { d = 1 } }\nb2 l { c = 1 }\n"},
    {Kind::Config, "a = {\n  b = 1\n  c = { d = 2 }\n}\n"},
    {Kind::Expr, "1"},
    {Kind::Expr, "1.5e10"},
    {Kind::Expr, "true && false || !null"},
    {Kind::Expr, "a + b * c - d / e % f"},
    {Kind::Expr, "a < b == c >= d != e <= f > g"},
    {Kind::Expr, "-a.b[0] * !c"},
    {Kind::Expr, "- - 1"},
    {Kind::Expr, "a ? b : c ? d : e"},
    {Kind::Expr, "a ? b ? c : d : e"},
    {Kind::Expr, "(a ? b : c) + 1"},
    {Kind::Expr, "a.b.c[0][\"k\"][k].d"},
    {Kind::Expr, "a.0.b.1"},
    {Kind::Expr, "a . b /* c */ . /* d */ c"},
    {Kind::Expr, "(a\n.\nb)"},
    {Kind::Expr, "a[true][null][-1]"},
    {Kind::Expr, "a.*.b.c[0]"},
    {Kind::Expr, "a.*.0.b"},
    {Kind::Expr, "a[*].b[0].c"},
    {Kind::Expr, "a[*][*].b"},
    {Kind::Expr, "a[*].b[*].c"},
    {Kind::Expr, "a[*].*.b[0]"},
    {Kind::Expr, "a.*"},
    {Kind::Expr, "a[*]"},
    {Kind::Expr, "(a).b"},
    {Kind::Expr, "f()"},
    {Kind::Expr, "f(1, 2,)"},
    {Kind::Expr, "f(xs...)"},
    {Kind::Expr, "f(a, xs...)"},
    {Kind::Expr, "provider::aws::arn_parse(x)"},
    {Kind::Expr, "[]"},
    {Kind::Expr, "[1, 2, 3,]"},
    {Kind::Expr, "{}"},
    {Kind::Expr, "{a = 1, b = 2}"},
    {Kind::Expr, "[for x in xs: x if x > 1]"},
    {Kind::Expr, "[for i, x in xs: i + x]"},
    {Kind::Expr, "{for k, v in m: k => v}"},
    {Kind::Expr, "{for k, v in m: k => v... if v}"},
    {Kind::Expr, "[for in in in: in]"},
    {Kind::Expr, "[for x in a ? b : c: x]"},
    {Kind::Expr, "[for x in xs: if]"},
    {Kind::Expr, "[for x in xs: x if if]"},
    {Kind::Expr, "[(for), a]"},
    {Kind::Expr, "{(for) = 1}"},
    {Kind::Expr, "{a = 1, for = 2}"},
    {Kind::Expr, "\"\""},
    {Kind::Expr, "\"a\\n\\t\\\"\\\\\\u00e9\\U0001F600\""},
    {Kind::Expr, "\"$${a} %%{b}\""},
    {Kind::Expr, "\"${a}\""},
    {Kind::Expr, "\"x${a}y${b}\""},
    {Kind::Expr, "\"${a~} b ${~c}\""},
    {Kind::Expr, "\"%{if a}yes%{else}no%{endif}\""},
    {Kind::Expr, "\"%{ if a ~} yes %{~ endif ~} \""},
    {Kind::Expr, "\"%{for x in xs}${x},%{endfor}\""},
    {Kind::Expr, "\"%{for k, v in m}${k}=${v}%{endfor}\""},
    {Kind::Expr, "\"%{if a}%{if b}x%{endif}%{endif}\""},
    {Kind::Expr, "\"${\"${\"x\"}\"}\""},
    {Kind::Expr, "\"${{a = 1}.a}\""},
    {Kind::Expr, "a[\"k\"].b"},
    {Kind::Expr, "a[\"${k}\"]"},
    {Kind::Expr, "a\n+\nb"},
    {Kind::Template, ""},
    {Kind::Template, "hello"},
    {Kind::Template, "hello ${name}!"},
    {Kind::Template, "${x}"},
    {Kind::Template, "%{ for x in xs ~}\n  ${x}\n%{~ endfor }\n"},
    {Kind::Template, "line 1\nline 2 ${a}\n"},
};

INSTANTIATE_TEST_SUITE_P(Valid, FastPath, ::testing::ValuesIn(kValid));

// Inputs the reference rejects: the fast path must not accept them.
class FastRejects : public ::testing::TestWithParam<Case> {};

TEST_P(FastRejects, LeftToRecoveringParser) {
  const Case& c = GetParam();
  size_t fast_diags = 0, slow_diags = 0;
  std::string fast = parse_dump(c.kind, c.src, Path::Fast, &fast_diags);
  parse_dump(c.kind, c.src, Path::Recover, &slow_diags);
  EXPECT_TRUE(fast.empty()) << "the Bison parser accepted invalid input:\n" << c.src;
  EXPECT_GT(slow_diags, 0u) << c.src;
}

const Case kInvalid[] = {
    {Kind::Config, "a = 1 b = 2\n"},
    {Kind::Config, "a = 1, b = 2\n"},
    {Kind::Config, "a = 1\na = 2\n"},
    {Kind::Config, "block { a = 1\n}\n"},
    {Kind::Config, "block {\n a = 1 }\n"},
    {Kind::Config, "block\n{\n}\n"},
    {Kind::Config, "block \"${x}\" {}\n"},
    {Kind::Config, "block {} x = 1\n"},
    {Kind::Config, "\"a\" = 1\n"},
    {Kind::Config, "a = \"\\q\"\n"},
    {Kind::Config, "a {\n"},
    {Kind::Expr, "[for x in xs: k => x]"},
    {Kind::Expr, "{for x in xs: x}"},
    {Kind::Expr, "[for x in xs: x...]"},
    {Kind::Expr, "[for x on xs: x]"},
    {Kind::Expr, "[for x in xs: x unless y]"},
    {Kind::Expr, "[for]"},
    {Kind::Expr, "{for = 1}"},
    {Kind::Expr, "a.0.1"},
    {Kind::Expr, "a.*.*"},
    {Kind::Expr, "f(a,)..."},
    {Kind::Expr, "f(a,...)"},
    {Kind::Expr, "\"%{if a}x\""},
    {Kind::Expr, "\"%{endif}\""},
    {Kind::Expr, "\"%{for x in xs}%{else}%{endfor}\""},
    {Kind::Expr, "\"%{ bogus }\""},
    {Kind::Expr, "\"%{for x on xs}%{endfor}\""},
    {Kind::Expr, "a b"},
    // One number token with two dots: "Invalid number literal".
    {Kind::Expr, "1..2"},
    {Kind::Expr, "1.5.2"},
    {Kind::Config, "v = 1.2.3\n"},
    {Kind::Expr, "{a = 1 b = 2}"},
    {Kind::Expr, "{a = 1,, b = 2}"},
    {Kind::Expr, "a ? b"},
    {Kind::Expr, "1 +"},
    {Kind::Expr, "a & b"},
};

INSTANTIATE_TEST_SUITE_P(Invalid, FastRejects, ::testing::ValuesIn(kInvalid));

}  // namespace
}  // namespace hclvm::syntax

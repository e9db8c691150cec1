// Tests for template assembly (Builder::assemble_template, template_expr,
// template_root) over hand-built parts, as the parsers hand them over: one
// literal per reference scanner token (heredoc literals are one per line,
// quoted literals are cut at `$` and `%`). Each source text below was run
// through the oracle (gohcl-bench dump / hcldec --diags json); the expected
// values, messages and ranges are what it printed. Also covers the tree
// dump (dump.h) on the assembled trees.
#include "syntax/builder.h"
#include "syntax/dump.h"
#include "syntax/parse.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hclvm::syntax {
namespace {

// A source with a builder and helpers to make parts from pieces of it.
class Tpl : public ::testing::Test {
 protected:
  void load(std::string name, std::string text) {
    src_ = std::make_unique<Source>(std::move(name), std::move(text));
    b_ = std::make_unique<Builder>(arena_, *src_);
    from_ = 0;
  }

  // Returns the span of the next occurrence of [piece] at or after the end
  // of the previous one, so consecutive calls walk the source.
  Span next(std::string_view piece) {
    size_t at = src_->text().find(piece, from_);
    EXPECT_NE(at, std::string_view::npos) << piece;
    from_ = at + piece.size();
    return Span{uint32_t(at), uint32_t(at + piece.size())};
  }

  TplPart lit(std::string_view piece, bool quoted = true) {
    TplPart p;
    p.kind = TplPart::Lit;
    p.quoted = quoted;
    p.span = next(piece);
    return p;
  }
  // An interpolation whose value is the number [n] (so results can be
  // told apart); strip flags follow the `~` in [piece].
  TplPart interp(std::string_view piece, const char* n = "1") {
    TplPart p;
    p.kind = TplPart::Interp;
    p.span = next(piece);
    p.open_strip = piece.starts_with("${~");
    p.close_strip = piece.ends_with("~}");
    p.expr = number(n, p.span);
    return p;
  }
  TplPart ctrl(TplPart::Kind k, std::string_view piece) {
    TplPart p;
    p.kind = k;
    p.span = next(piece);
    p.open_strip = piece.starts_with("%{~");
    p.close_strip = piece.ends_with("~}");
    if (k == TplPart::If || k == TplPart::For) p.expr = number("7", p.span);
    if (k == TplPart::For) {
      // The names are spans of the source: `for x` or `for k, x`.
      uint32_t at = p.span.begin + uint32_t(piece.find(" x "));
      p.val_var = Span{at + 1, at + 2};
      if (size_t k_at = piece.find(" k,"); k_at != std::string_view::npos)
        p.key_var = Span{p.span.begin + uint32_t(k_at) + 1, p.span.begin + uint32_t(k_at) + 2};
    }
    return p;
  }
  Expr* number(const char* n, Span s) {
    return arena_.make<LiteralExpr>(Expr{ExprKind::Literal, s}, Literal{LitKind::Number, false, n});
  }

  // Assembles [parts] between the token after the opener and [end].
  TplResult assemble(std::vector<TplPart> parts, Span start, Span end, bool flush = false) {
    return b_->assemble_template(parts, start, end, flush);
  }

  // Renders [r] as its value would read: literals as text, interpolations
  // as {n}; directives do not appear here.
  static std::string flat(const TplResult& r) {
    std::string out;
    for (const Expr* e : r.exprs) {
      const auto& l = as<LiteralExpr>(*e);
      EXPECT_EQ(e->kind, ExprKind::Literal);
      if (l.value.kind == LitKind::String)
        out += l.value.text;
      else
        out.append("{").append(l.value.text).append("}");
    }
    return out;
  }

  std::string range(Span s) const {
    Range r = src_->range(s);
    return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" + std::to_string(r.end.line) +
           ":" + std::to_string(r.end.column);
  }

  std::string dump(const TplResult& r, Span open, Span close) {
    return dump_expr(*b_->template_expr(open, r, close), *src_);
  }

  Arena arena_;
  std::unique_ptr<Source> src_;
  std::unique_ptr<Builder> b_;
  size_t from_ = 0;
};

TEST_F(Tpl, StripMarkersTrimUnicodeSpacesAlsoFromEscapes) {
  // a = "a \u00a0\t<U+3000> ${~ "x" ~} <U+00A0> b"   => "axb"
  load("t.hcl", "a = \"a \\u00a0\\t\xe3\x80\x80 ${~ 2 ~} \xc2\xa0 b\"\n");
  next("\"");
  std::vector<TplPart> parts = {lit("a \\u00a0\\t\xe3\x80\x80 "), interp("${~ 2 ~}", "2"), lit(" \xc2\xa0 b")};
  auto r = assemble(parts, parts[0].span, next("\""));
  EXPECT_EQ(flat(r), "a{2}b");
  EXPECT_FALSE(r.passthru);
  EXPECT_FALSE(b_->failed());
}

TEST_F(Tpl, OpenStripTrimsOnlyTheLiteralTokenRightBefore) {
  // a = "a $ ${~ "x"}"  => "a $x": the scanner cut "a ", "$", " ".
  load("t.hcl", "a = \"a $ ${~ 2}\"");
  next("\"");
  std::vector<TplPart> parts = {lit("a "), lit("$"), lit(" "), interp("${~ 2}", "2")};
  auto r = assemble(parts, parts[0].span, next("\""));
  EXPECT_EQ(flat(r), "a ${2}");
  // The three literals became one, spanning all three tokens.
  ASSERT_EQ(r.exprs.size, 2u);
  EXPECT_EQ(range(r.exprs[0]->span), "1:6-1:10");
}

TEST_F(Tpl, BrokenDirectiveStillTrimsBeforeButBlocksTrimmingAcross) {
  // a = "a  %{~ bogus }b"  => "ab" (plus an error the parser reports).
  load("t.hcl", "a = \"a  %{~ bogus }b\"");
  TplPart broken;
  broken.kind = TplPart::Broken;
  broken.open_strip = true;
  TplPart a = lit("a  ");
  broken.span = next("%{~ bogus }");
  TplPart b = lit("b");
  auto r = assemble({a, broken, b}, a.span, next("\""));
  EXPECT_EQ(flat(r), "ab");
  ASSERT_EQ(r.exprs.size, 1u);  // adjacent literals are joined

  // A broken part between a literal and `${~` stops the trim...
  load("t.hcl", "a  %{ bogus }${~ 1}");
  TplPart l = lit("a  ");
  TplPart br;
  br.kind = TplPart::Broken;
  br.span = next("%{ bogus }");
  r = assemble({l, br, interp("${~ 1}")}, l.span, Span{19, 19});
  EXPECT_EQ(flat(r), "a  {1}");

  // ...and so does one between `~}` and the next literal.
  load("t.hcl", "${1 ~}%{ bogus }  b");
  TplPart i = interp("${1 ~}");
  br.span = next("%{ bogus }");
  r = assemble({i, br, lit("  b", false)}, i.span, Span{19, 19});
  EXPECT_EQ(flat(r), "{1}  b");
}

TEST_F(Tpl, CloseStripTrimsOnlyADirectlyFollowingLiteral) {
  load("t.hcl", "${1 ~}${2} b");
  TplPart first = interp("${1 ~}");
  auto r = assemble({first, interp("${2}", "2"), lit(" b", false)}, first.span, Span{12, 12});
  EXPECT_EQ(flat(r), "{1}{2} b");
  load("t.hcl", "${1 ~} \t\n b");
  first = interp("${1 ~}");
  r = assemble({first, lit(" \t\n b", false)}, first.span, Span{11, 11});
  EXPECT_EQ(flat(r), "{1}b");
}

TEST_F(Tpl, EmptyTemplateIsOneEmptyLiteralAfterTheNextToken) {
  load("t.hcl", "a = \"\"");
  Span open = next("\"");
  Span close = next("\"");
  auto r = assemble({}, close, close);
  ASSERT_EQ(r.exprs.size, 1u);
  EXPECT_EQ(flat(r), "");
  EXPECT_EQ(r.exprs[0]->span, (Span{6, 6}));
  EXPECT_FALSE(r.passthru);
  Expr* e = b_->template_expr(open, r, close);
  EXPECT_EQ(e->kind, ExprKind::Template);
  EXPECT_EQ(range(e->span), "1:5-1:7");
  EXPECT_EQ(dump_expr(*e, *src_), "Template @1:5-1:7\n  Literal string \"\" @1:7-1:7\n");
}

TEST_F(Tpl, LoneInterpolationPassesThrough) {
  load("t.hcl", "a = \"${1}\"");
  Span open = next("\"");
  TplPart i = interp("${1}");
  Span close = next("\"");
  auto r = assemble({i}, i.span, close);
  EXPECT_TRUE(r.passthru);
  EXPECT_EQ(r.span, (Span{5, 10}));
  Expr* e = b_->template_expr(open, r, close);
  ASSERT_EQ(e->kind, ExprKind::TemplateWrap);
  EXPECT_EQ(range(e->span), "1:5-1:11");
  EXPECT_EQ(as<TemplateWrapExpr>(*e).wrapped, i.expr);
  // A standalone template takes the parts' own range.
  Expr* root = b_->template_root(r);
  ASSERT_EQ(root->kind, ExprKind::TemplateWrap);
  EXPECT_EQ(root->span, (Span{5, 10}));

  // With anything beside it, it is a template.
  load("t.hcl", "${1}${2}");
  TplPart a = interp("${1}");
  r = assemble({a, interp("${2}", "2")}, a.span, Span{8, 8});
  EXPECT_FALSE(r.passthru);
  EXPECT_EQ(b_->template_root(r)->kind, ExprKind::Template);
}

TEST_F(Tpl, MeldedLiteralsKeepDecodedText) {
  load("t.hcl", "a$${b}\\tc");
  TplPart x = lit("a");
  auto r = assemble({x, lit("$${"), lit("b}\\tc")}, x.span, Span{9, 9});
  ASSERT_EQ(r.exprs.size, 1u);
  EXPECT_EQ(flat(r), "a${b}\tc");
  EXPECT_EQ(r.exprs[0]->span, (Span{0, 9}));
}

// `<<-EOT` heredocs: one literal token per line.
TEST_F(Tpl, FlushHeredocRemovesTheCommonIndent) {
  // Blank lines do not count.
  load("t.hcl", "a = <<-EOT\n    foo\n\n      bar\n    EOT\n");
  std::vector<TplPart> parts = {lit("    foo\n", false), lit("\n", false), lit("      bar\n", false)};
  auto r = assemble(parts, parts[0].span, next("    EOT"), true);
  EXPECT_EQ(flat(r), "foo\n\n  bar\n");
  ASSERT_EQ(r.exprs.size, 1u);
  EXPECT_EQ(range(r.exprs[0]->span), "2:5-5:1");  // the first line's cut moves the start

  // A line that starts with an interpolation makes the indent zero.
  load("t.hcl", "a = <<-EOT\n    foo\n${1}\n      bar\n    EOT\n");
  parts = {lit("    foo\n", false), interp("${1}"), lit("\n", false), lit("      bar\n", false)};
  r = assemble(parts, parts[0].span, next("    EOT"), true);
  EXPECT_EQ(flat(r), "    foo\n{1}\n      bar\n");

  // Tabs count as one each; a line of spaces only is left alone.
  load("t.hcl", "a = <<-EOT\n\t\tx\n  \ty\n EOT\n");
  parts = {lit("\t\tx\n", false), lit("  \ty\n", false)};
  r = assemble(parts, parts[0].span, next(" EOT"), true);
  EXPECT_EQ(flat(r), "x\n\ty\n");
  load("t.hcl", "a = <<-EOT\n   \n  x\n    EOT\n");
  parts = {lit("   \n", false), lit("  x\n", false)};
  r = assemble(parts, parts[0].span, next("    EOT"), true);
  EXPECT_EQ(flat(r), "   \nx\n");
}

TEST_F(Tpl, FlushHeredocCutsGraphemeClusters) {
  // "  " + U+0301: the prefix is two spaces, but cutting two clusters of
  // the line takes the combining mark with the second space.
  load("t.hcl", "a = <<-EOT\n  \xcc\x81x\n   y\n  EOT\n");
  std::vector<TplPart> parts = {lit("  \xcc\x81x\n", false), lit("   y\n", false)};
  auto r = assemble(parts, parts[0].span, next("  EOT"), true);
  EXPECT_EQ(flat(r), "x\n y\n");
}

TEST_F(Tpl, FlushHeredocLinesAfterCloseStripKeepTheirIndent) {
  // The reference bug to match: after `~}` the rest of the line is trimmed
  // to "", which no longer ends in a newline, so the next line is not seen
  // as a line start and keeps its indentation.
  load("t.hcl", "a = <<-EOT\n    ${1 ~}\n    foo\n      bar\n  EOT\n");
  std::vector<TplPart> parts = {lit("    ", false), interp("${1 ~}"), lit("\n", false), lit("    foo\n", false),
                                lit("      bar\n", false)};
  auto r = assemble(parts, parts[0].span, next("  EOT"), true);
  EXPECT_EQ(flat(r), "{1}    foo\n  bar\n");
}

TEST_F(Tpl, OpenStripReachesBackOnlyToTheStartOfItsLine) {
  // a = <<EOT\nfoo\n   \n  ${~ 1}\nEOT  => "foo\n   \n1\n"
  load("t.hcl", "a = <<EOT\nfoo\n   \n  ${~ 1}\nEOT\n");
  std::vector<TplPart> parts = {lit("foo\n", false), lit("   \n", false), lit("  ", false), interp("${~ 1}"),
                                lit("\n", false)};
  auto r = assemble(parts, parts[0].span, next("EOT"), false);
  EXPECT_EQ(flat(r), "foo\n   \n{1}\n");
}

TEST_F(Tpl, IfDirectiveBuildsAConditional) {
  load("t.hcl", "a = \"%{ if 7 }a%{ else }b%{ endif }\"");
  Span open = next("\"");
  std::vector<TplPart> parts = {ctrl(TplPart::If, "%{ if 7 }"), lit("a"), ctrl(TplPart::Else, "%{ else }"), lit("b"),
                                ctrl(TplPart::EndIf, "%{ endif }")};
  auto r = assemble(parts, parts[0].span, next("\""));
  EXPECT_FALSE(b_->failed());
  ASSERT_EQ(r.exprs.size, 1u);
  EXPECT_EQ(dump(r, open, Span{35, 36}),
            "Template @1:5-1:37\n"
            "  Conditional @1:6-1:36\n"
            "    condition: Literal number \"7\" @1:6-1:15\n"
            "    true: Template @1:15-1:16\n"
            "      Literal string \"a\" @1:15-1:16\n"
            "    false: Template @1:25-1:26\n"
            "      Literal string \"b\" @1:25-1:26\n");

  // Empty branches get empty literals: after the if, before the endif.
  load("t.hcl", "%{ if 7 }%{ endif }");
  parts = {ctrl(TplPart::If, "%{ if 7 }"), ctrl(TplPart::EndIf, "%{ endif }")};
  r = assemble(parts, parts[0].span, Span{19, 19});
  EXPECT_EQ(dump_expr(*b_->template_root(r), *src_),
            "Template @1:1-1:20\n"
            "  Conditional @1:1-1:20\n"
            "    condition: Literal number \"7\" @1:1-1:10\n"
            "    true: Template @1:10-1:10\n"
            "      Literal string \"\" @1:10-1:10\n"
            "    false: Template @1:10-1:10\n"
            "      Literal string \"\" @1:10-1:10\n");
}

TEST_F(Tpl, ForDirectiveBuildsAJoinOverAForExpression) {
  load("t.hcl", "%{ for x in 7 ~}  a${1}%{ endfor }");
  std::vector<TplPart> parts = {ctrl(TplPart::For, "%{ for x in 7 ~}"), lit("  a", false), interp("${1}"),
                                ctrl(TplPart::EndFor, "%{ endfor }")};
  auto r = assemble(parts, parts[0].span, Span{34, 34});
  EXPECT_EQ(dump_expr(*b_->template_root(r), *src_),
            "Template @1:1-1:35\n"
            "  TemplateJoin @1:1-1:35\n"
            "    tuple: For key_var=\"\" val_var=\"x\" open=1:1-1:17 close=1:24-1:35 @1:1-1:35\n"
            "      collection: Literal number \"7\" @1:1-1:17\n"
            "      key: null\n"
            "      value: Template @1:17-1:24\n"
            "        Literal string \"a\" @1:17-1:20\n"
            "        Literal number \"1\" @1:20-1:24\n"
            "      condition: null\n");

  load("t.hcl", "%{ for k, x in 7 }%{ endfor }");
  parts = {ctrl(TplPart::For, "%{ for k, x in 7 }"), ctrl(TplPart::EndFor, "%{ endfor }")};
  r = assemble(parts, parts[0].span, Span{29, 29});
  ASSERT_EQ(r.exprs.size, 1u);
  const auto& fe = as<ForExpr>(*as<TemplateJoinExpr>(*r.exprs[0]).tuple);
  EXPECT_EQ(fe.key_var, "k");
  EXPECT_EQ(fe.val_var, "x");
  EXPECT_FALSE(fe.group);
  EXPECT_EQ(range(fe.value->span), "1:19-1:19");
}

// Unbalanced directives: the oracle's summaries, details and subjects.
struct Unbalanced {
  const char* file;
  const char* text;
  std::vector<std::pair<TplPart::Kind, const char*>> parts;  // Lit pieces have kind Lit
  std::vector<std::string> want;  // "summary|detail|subject" in order
};

class UnbalancedDirectives : public Tpl, public ::testing::WithParamInterface<Unbalanced> {};

TEST_P(UnbalancedDirectives, MatchTheReference) {
  const Unbalanced& c = GetParam();
  load(c.file, c.text);
  next("\"");
  std::vector<TplPart> parts;
  for (auto& [k, piece] : c.parts) parts.push_back(k == TplPart::Lit ? lit(piece) : ctrl(k, piece));
  Span close = next("\"");
  auto r = assemble(parts, parts[0].span, close);
  EXPECT_TRUE(b_->failed());
  std::vector<std::string> got;
  for (const Diagnostic& d : b_->diags()) {
    Range s = *d.subject;
    got.push_back(d.summary + "|" + d.detail + "|" + std::to_string(s.start.line) + ":" +
                  std::to_string(s.start.column) + "-" + std::to_string(s.end.line) + ":" +
                  std::to_string(s.end.column));
  }
  EXPECT_EQ(got, c.want);
  // Every part that failed became a placeholder.
  bool placeholder = false;
  for (const Expr* e : r.exprs)
    if (e->kind == ExprKind::Literal && as<LiteralExpr>(*e).value.kind == LitKind::Dynamic) placeholder = true;
  EXPECT_TRUE(placeholder);
}

using K = TplPart::Kind;
INSTANTIATE_TEST_SUITE_P(
    Oracle, UnbalancedDirectives,
    ::testing::Values(
        Unbalanced{"t1.hcl",
                   "a = \"x%{ if true }y\"\n",
                   {{K::Lit, "x"}, {K::If, "%{ if true }"}, {K::Lit, "y"}},
                   {"Unexpected end of template|The if directive at t1.hcl:1,7-19 is missing its corresponding "
                    "endif directive.|1:20-1:21"}},
        Unbalanced{"t2.hcl",
                   "a = \"x%{ endif }y\"\n",
                   {{K::Lit, "x"}, {K::EndIf, "%{ endif }"}, {K::Lit, "y"}},
                   {"Unexpected endif directive|The control directives within this template are unbalanced.|"
                    "1:7-1:17"}},
        Unbalanced{"t3.hcl",
                   "a = \"%{ if true }a%{ else }b%{ else }c%{ endif }\"\n",
                   {{K::If, "%{ if true }"},
                    {K::Lit, "a"},
                    {K::Else, "%{ else }"},
                    {K::Lit, "b"},
                    {K::Else, "%{ else }"},
                    {K::Lit, "c"},
                    {K::EndIf, "%{ endif }"}},
                   {"Unexpected else directive|Already in the else clause for the if started at t3.hcl:1,6-18.|"
                    "1:29-1:38",
                    "Unexpected endif directive|The control directives within this template are unbalanced.|"
                    "1:39-1:49"}},
        Unbalanced{"t4.hcl",
                   "a = \"%{ if true }a%{ endfor }\"\n",
                   {{K::If, "%{ if true }"}, {K::Lit, "a"}, {K::EndFor, "%{ endfor }"}},
                   {"Unexpected endfor directive|Expecting an endif directive for the if started at "
                    "t4.hcl:1,6-18.|1:19-1:30"}},
        Unbalanced{"t5.hcl",
                   "a = \"%{ for x in [1] }a%{ else }b%{endfor}\"\n",
                   {{K::For, "%{ for x in [1] }"},
                    {K::Lit, "a"},
                    {K::Else, "%{ else }"},
                    {K::Lit, "b"},
                    {K::EndFor, "%{endfor}"}},
                   {"Unexpected else directive|An else clause is not expected for a for directive.|1:24-1:33",
                    "Unexpected endfor directive|The control directives within this template are unbalanced.|"
                    "1:34-1:43"}},
        Unbalanced{"t6.hcl",
                   "a = \"%{ for x in [1] }a%{ endif }\"\n",
                   {{K::For, "%{ for x in [1] }"}, {K::Lit, "a"}, {K::EndIf, "%{ endif }"}},
                   {"Unexpected endif directive|Expecting an endfor directive corresponding to the for directive "
                    "at t6.hcl:1,6-23.|1:24-1:34"}},
        Unbalanced{"t7.hcl",
                   "a = \"%{ for x in [1] }a\"\n",
                   {{K::For, "%{ for x in [1] }"}, {K::Lit, "a"}},
                   {"Unexpected end of template|The for directive at t7.hcl:1,6-23 is missing its corresponding "
                    "endfor directive.|1:24-1:25"}}));

// End to end: whole files through both parsers. The expected strings are
// the oracle's values (gohcl-bench dump) and diagnostics (hcldec --diags
// json) for the same files.

// Returns the value of static template [e]: string literals, templates of
// them and conditionals on literal booleans; nullopt for anything else.
std::optional<std::string> static_value(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Literal: {
      const auto& l = as<LiteralExpr>(*e);
      if (l.value.kind != LitKind::String) return std::nullopt;
      return std::string(l.value.text);
    }
    case ExprKind::Template: {
      std::string out;
      for (const Expr* p : as<TemplateExpr>(*e).parts) {
        auto v = static_value(p);
        if (!v) return std::nullopt;
        out += *v;
      }
      return out;
    }
    case ExprKind::TemplateWrap:
      return static_value(as<TemplateWrapExpr>(*e).wrapped);
    case ExprKind::Conditional: {
      const auto& c = as<ConditionalExpr>(*e);
      if (c.condition->kind != ExprKind::Literal) return std::nullopt;
      const auto& l = as<LiteralExpr>(*c.condition);
      if (l.value.kind != LitKind::Bool) return std::nullopt;
      return static_value(l.value.boolean ? c.true_result : c.false_result);
    }
    default:
      return std::nullopt;
  }
}

struct EndToEnd {
  const char* text;
  const char* want;
};

class TemplateValues : public ::testing::TestWithParam<EndToEnd> {};

TEST_P(TemplateValues, BothParsersBuildTheReferenceValue) {
  auto src = make_source("t.hcl", GetParam().text);
  FileParse fast = parse_config_via(src, Path::Fast);
  FileParse slow = parse_config_via(src, Path::Recover);
  ASSERT_FALSE(slow.has_errors()) << slow.diagnostics[0].summary;
  ASSERT_NE(fast.body, nullptr);
  ASSERT_NE(slow.body, nullptr);
  EXPECT_EQ(dump_body(*fast.body, *src), dump_body(*slow.body, *src));
  ASSERT_EQ(slow.body->attributes.size, 1u);
  EXPECT_EQ(static_value(slow.body->attributes[0]->expr), std::optional<std::string>(GetParam().want));
}

INSTANTIATE_TEST_SUITE_P(
    Oracle, TemplateValues,
    ::testing::Values(
        EndToEnd{"a = \"a \\u00a0\\t\xe3\x80\x80 ${~ \"x\" ~} \xc2\xa0 b\"\n", "axb"},
        EndToEnd{"a = \"a $ ${~ \"x\"}\"\n", "a $x"},
        EndToEnd{"a = \"\"\n", ""},
        EndToEnd{"a = \"$${x} %%{y} $$${z}\"\n", "${x} %{y} $${z}"},
        EndToEnd{"a = <<-EOT\n    ${\"A\" ~}\n    foo\n      bar\n  EOT\n", "A    foo\n  bar\n"},
        EndToEnd{"a = <<EOT\nfoo\n   \n  ${~ \"X\"}\nEOT\n", "foo\n   \nX\n"},
        EndToEnd{"a = <<-EOT\n    foo\n\n      bar\n    EOT\n", "foo\n\n  bar\n"},
        EndToEnd{"a = <<-EOT\n    foo\n${\"x\"}\n      bar\n    EOT\n", "    foo\nx\n      bar\n"},
        EndToEnd{"a = <<-EOT\n  \xcc\x81x\n   y\n  EOT\n", "x\n y\n"},
        EndToEnd{"a = <<-EOT\n\t\tx\n  \ty\n EOT\n", "x\n\ty\n"},
        EndToEnd{"a = \"%{ if true ~}  yes  %{~ else ~} no %{~ endif }!\"\n", "yes!"},
        // The `~}` bug: each line after a `~}` is not a line start for
        // `<<-`, so "    y" keeps its indentation.
        EndToEnd{"a = <<-EOT\n  %{~ if false ~}\n    x\n  %{~ else ~}\n    y\n  %{~ endif ~}\n  EOT\n", "    y\n"}));

TEST(TemplateErrors, EscapeAndNestingErrorsComeInReferenceOrder) {
  auto src = make_source("t.hcl", "a = \"\\q ${1 +} \\u12 %{ endif }\"\n");
  FileParse r = parse_config_via(src, Path::Auto);
  std::vector<std::string> got;
  for (const Diagnostic& d : r.diagnostics) got.push_back(d.summary + "|" + d.detail + "|" + range_string(*d.subject));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "Invalid escape sequence|The symbol \"q\" is not a valid escape sequence selector.|t.hcl:1,6-8",
                     "Invalid expression|Expected the start of an expression, but found an invalid expression "
                     "token.|t.hcl:1,14-15",
                     "Invalid escape sequence|The \\u escape sequence must be followed by four hexadecimal "
                     "digits.|t.hcl:1,16-20",
                     "Unexpected endif directive|The control directives within this template are "
                     "unbalanced.|t.hcl:1,21-31"}));
}

TEST(Dump, ShowsEveryField) {
  Source src("d.hcl", "f(a, b...) + -x\n");
  Arena arena;
  auto* a = arena.make<LiteralExpr>(Expr{ExprKind::Literal, Span{2, 3}}, Literal{LitKind::Bool, true, {}});
  auto* b = arena.make<LiteralExpr>(Expr{ExprKind::Literal, Span{5, 6}}, Literal{LitKind::Null, false, {}});
  Expr** args = arena.array<Expr*>(2);
  args[0] = a;
  args[1] = b;
  auto* call = arena.make<FunctionCallExpr>(Expr{ExprKind::FunctionCall, Span{0, 10}}, std::string_view("f"),
                                            List<Expr*>{args, 2}, true, Span{0, 1}, Span{1, 2}, Span{9, 10});
  Traverser* steps = arena.array<Traverser>(1);
  steps[0] = Traverser::root("x", Span{14, 15});
  auto* x = arena.make<ScopeTraversalExpr>(Expr{ExprKind::ScopeTraversal, Span{14, 15}}, List<Traverser>{steps, 1});
  auto* neg = arena.make<UnaryExpr>(Expr{ExprKind::Unary, Span{13, 15}}, UnaryOp::Negate, x, Span{13, 14});
  auto* add = arena.make<BinaryExpr>(Expr{ExprKind::Binary, Span{0, 15}}, BinaryOp::Add, call, neg);
  EXPECT_EQ(dump_expr(*add, src),
            "Binary + @1:1-1:16\n"
            "  lhs: FunctionCall \"f\" expand_final name=1:1-1:2 open=1:2-1:3 close=1:10-1:11 @1:1-1:11\n"
            "    arg: Literal bool true @1:3-1:4\n"
            "    arg: Literal null @1:6-1:7\n"
            "  rhs: Unary - symbol=1:14-1:15 @1:14-1:16\n"
            "    operand: ScopeTraversal @1:15-1:16\n"
            "      Root \"x\" @1:15-1:16\n");
}

TEST(Dump, SplatSymbolsAreNumberedAndStringsEscaped) {
  Source src("d.hcl", "a[*].b\n");
  Arena arena;
  Traverser* root = arena.array<Traverser>(1);
  root[0] = Traverser::root("a", Span{0, 1});
  auto* a = arena.make<ScopeTraversalExpr>(Expr{ExprKind::ScopeTraversal, Span{0, 1}}, List<Traverser>{root, 1});
  auto* item = arena.make<AnonSymbolExpr>(Expr{ExprKind::AnonSymbol, Span{1, 4}});
  Traverser* attr = arena.array<Traverser>(2);
  attr[0] = Traverser::attr("b\"\n", Span{4, 6});
  attr[1] = Traverser::index(Literal{LitKind::String, false, "\x01\xff"}, Span{4, 6});
  auto* each = arena.make<RelativeTraversalExpr>(Expr{ExprKind::RelativeTraversal, Span{4, 6}}, item,
                                                 List<Traverser>{attr, 2});
  auto* splat = arena.make<SplatExpr>(Expr{ExprKind::Splat, Span{0, 6}}, a, each, item, Span{1, 4});
  EXPECT_EQ(dump_expr(*splat, src),
            "Splat marker=1:2-1:5 @1:1-1:7\n"
            "  source: ScopeTraversal @1:1-1:2\n"
            "    Root \"a\" @1:1-1:2\n"
            "  item: AnonSymbol #1 @1:2-1:5\n"
            "  each: RelativeTraversal @1:5-1:7\n"
            "    source: AnonSymbol #1 @1:2-1:5\n"
            "    Attr \"b\\\"\\n\" @1:5-1:7\n"
            "    IndexStep string \"\\u0001\\xff\" @1:5-1:7\n");
}

TEST(Dump, CollectionsAndForExpressions) {
  //                   0         1         2
  //                   0123456789012345678901234567
  Source src("d.hcl", "[{(k): v[0]}, \"${1e}\", ?]\n");
  Arena arena;
  auto lit = [&](Span s, Literal v) { return arena.make<LiteralExpr>(Expr{ExprKind::Literal, s}, v); };
  auto var = [&](Span s, std::string_view name) {
    Traverser* t = arena.array<Traverser>(1);
    t[0] = Traverser::root(name, s);
    return arena.make<ScopeTraversalExpr>(Expr{ExprKind::ScopeTraversal, s}, List<Traverser>{t, 1});
  };
  auto* parens = arena.make<ParensExpr>(Expr{ExprKind::Parens, Span{2, 5}}, static_cast<Expr*>(var(Span{3, 4}, "k")));
  auto* key = arena.make<ObjectKeyExpr>(Expr{ExprKind::ObjectKey, Span{2, 5}}, static_cast<Expr*>(parens), true);
  auto* index = arena.make<IndexExpr>(Expr{ExprKind::Index, Span{7, 11}}, static_cast<Expr*>(var(Span{7, 8}, "v")),
                                      static_cast<Expr*>(lit(Span{9, 10}, Literal{LitKind::Number, false, "0"})),
                                      Span{8, 9}, Span{8, 11});
  ObjectItem* items = arena.array<ObjectItem>(1);
  items[0] = ObjectItem{key, index};
  auto* obj = arena.make<ObjectExpr>(Expr{ExprKind::Object, Span{1, 12}}, List<ObjectItem>{items, 1}, Span{1, 2});
  auto* wrap = arena.make<TemplateWrapExpr>(
      Expr{ExprKind::TemplateWrap, Span{14, 21}},
      static_cast<Expr*>(lit(Span{17, 19}, Literal{LitKind::UnknownNumber, false, "1e"})));
  auto* dyn = lit(Span{23, 24}, Literal{LitKind::Dynamic, false, {}});
  auto* fe = arena.make<ForExpr>(Expr{ExprKind::For, Span{0, 25}}, std::string_view("k"), std::string_view("v"),
                                 static_cast<Expr*>(dyn), static_cast<Expr*>(obj), static_cast<Expr*>(wrap),
                                 static_cast<Expr*>(lit(Span{0, 1}, Literal{LitKind::Bool, false, {}})), true,
                                 Span{0, 1}, Span{24, 25});
  Expr** tuple_items = arena.array<Expr*>(1);
  tuple_items[0] = fe;
  auto* tuple = arena.make<TupleExpr>(Expr{ExprKind::Tuple, Span{0, 25}}, List<Expr*>{tuple_items, 1}, Span{0, 1});
  EXPECT_EQ(dump_expr(*tuple, src),
            "Tuple open=1:1-1:2 @1:1-1:26\n"
            "  For key_var=\"k\" val_var=\"v\" group open=1:1-1:2 close=1:25-1:26 @1:1-1:26\n"
            "    collection: Literal dynamic @1:24-1:25\n"
            "    key: Object open=1:2-1:3 @1:2-1:13\n"
            "      key: ObjectKey force_non_literal @1:3-1:6\n"
            "        wrapped: Parens @1:3-1:6\n"
            "          inner: ScopeTraversal @1:4-1:5\n"
            "            Root \"k\" @1:4-1:5\n"
            "      value: Index open=1:9-1:10 brackets=1:9-1:12 @1:8-1:12\n"
            "        collection: ScopeTraversal @1:8-1:9\n"
            "          Root \"v\" @1:8-1:9\n"
            "        key: Literal number \"0\" @1:10-1:11\n"
            "    value: TemplateWrap @1:15-1:22\n"
            "      wrapped: Literal unknown-number \"1e\" @1:18-1:20\n"
            "    condition: Literal bool false @1:1-1:2\n");
}

TEST(Dump, BodiesBlocksAndAttributes) {
  Source src("d.hcl", "b \"l\" {\n  a = 1\n}\n");
  Arena arena;
  auto* one = arena.make<LiteralExpr>(Expr{ExprKind::Literal, Span{14, 15}},
                                      Literal{LitKind::Number, false, "1"});
  auto* attr = arena.make<ast::Attribute>(std::string_view("a"), static_cast<Expr*>(one),
                                          Span{10, 15}, Span{10, 11}, Span{12, 13});
  ast::Attribute** attrs = arena.array<ast::Attribute*>(1);
  attrs[0] = attr;
  auto* inner = arena.make<ast::Body>(List<ast::Attribute*>{attrs, 1}, List<ast::Block*>{},
                                      Span{6, 17}, Span{16, 17});
  auto* labels = arena.array<std::string_view>(1);
  labels[0] = "l";
  auto* label_spans = arena.array<Span>(1);
  label_spans[0] = Span{2, 5};
  auto* blk = arena.make<ast::Block>(std::string_view("b"), List<std::string_view>{labels, 1},
                                     List<Span>{label_spans, 1}, inner, Span{0, 17}, Span{0, 1},
                                     Span{6, 7}, Span{16, 17});
  ast::Block** blocks = arena.array<ast::Block*>(1);
  blocks[0] = blk;
  auto* top = arena.make<ast::Body>(List<ast::Attribute*>{}, List<ast::Block*>{blocks, 1},
                                    Span{0, 18}, Span{18, 18});
  EXPECT_EQ(dump_body(*top, src),
            "Body end=4:1-4:1 @1:1-4:1\n"
            "  Block \"b\" type=1:1-1:2 open=1:7-1:8 close=3:1-3:2 @1:1-3:2\n"
            "    Label \"l\" @1:3-1:6\n"
            "    body: Body end=3:1-3:2 @1:7-3:2\n"
            "      Attribute \"a\" name=2:3-2:4 equals=2:5-2:6 @2:3-2:8\n"
            "        expr: Literal number \"1\" @2:7-2:8\n");
}

}  // namespace
}  // namespace hclvm::syntax

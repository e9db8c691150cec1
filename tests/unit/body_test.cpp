// Tests of bodies (hclvm/body.h): schema-driven content of native and JSON
// bodies and of merged bodies, against the reference.
//
// tests/golden/body/*.golden come from the reference's Body
// implementations through gen.sh (oracle/main.go, which describes the case
// files *.txt). For each case (an I line) and each operation on a body (an
// O line: its depth, which block or remaining body it reads, its mode and
// schema) they hold:
//   BM        the body's MissingItemRange
//   A / AE    an attribute (name, range, name range), its expression's
//             range and start range; attributes sorted by name
//   AL / ALD  Value(nil) and its diagnostics
//   AF / AFD  Value(ctx) (name = "web", n = 3, upper()) and its diagnostics
//   AX        Variables()
//   B         a block: type, labels, def range, type range, label ranges
//   M / RM    the content's MissingItemRange, the remaining body's
//   D         the diagnostics of the operation, sorted (the reference
//             reports some in Go's random map order)
// The parse diagnostics of each file come first (P lines). Ranges are
// file:line:column:byte-line:column:byte. The tests after the golden ones
// check what the files cannot: source order, the handles' lifetimes and
// sharing between threads, twin files of both syntaxes, expression
// analysis through handles.
#include <gtest/gtest.h>

#include <hclvm/body.h>
#include <hclvm/functions.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "util/unicode.h"
#include "value/json.h"

namespace hclvm {
namespace {

const std::filesystem::path kGoldenDir =
    std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/body";

// The context of the golden cases.
const EvalContext& golden_context() {
  static const EvalContext ctx = [] {
    EvalContext c;
    c.set("name", Value::string("web"));
    c.set("n", Value::integer(3));
    auto fns = std::make_shared<FunctionTable>(default_functions());
    std::vector<std::string_view> views = fns->names();
    std::vector<std::string> names(views.begin(), views.end());
    for (const std::string& f : names)
      if (f != "upper") fns->remove(f);
    c.set_functions(fns);
    return c;
  }();
  return ctx;
}

// --- the case files -------------------------------------------------------------------

using Op = test::BodyOp;
using File = test::BodyFile;
using Case = test::BodyCase;

// --- what hclvm gives, as golden lines -------------------------------------------------


std::vector<std::string> case_lines(const Case& c) {
  return test::body_case_lines(c, golden_context(), false);
}

class BodyGolden : public testing::TestWithParam<std::string> {};

TEST_P(BodyGolden, MatchesTheReference) {
  std::vector<std::pair<std::string, std::vector<std::string>>> got;
  for (const Case& c : test::load_body_cases(kGoldenDir / (GetParam() + ".txt")))
    got.emplace_back(c.name, case_lines(c));
  test::expect_golden(test::load_golden(kGoldenDir / (GetParam() + ".golden")), got);
}

INSTANTIATE_TEST_SUITE_P(Cases, BodyGolden,
                         testing::Values("native", "json", "merged", "twins"));

// --- twins ------------------------------------------------------------------------------

// The lines of [lines] that do not depend on the syntax: attribute names,
// block types and labels, values in a context, operations, and diagnostic
// summaries of missing arguments.
std::vector<std::string> syntax_free(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    std::string tag = l.substr(0, l.find(' '));
    if (tag == "O" || tag == "AF") {
      out.push_back(l);
    } else if (tag == "A") {
      out.push_back(l.substr(0, l.find(' ', 2)));
    } else if (tag == "B") {
      out.push_back(l.substr(0, l.find(" def ")));
    } else if (tag == "D" && l.find("Missing required argument") != std::string::npos) {
      out.push_back(l.substr(0, l.find(",\"subject\"")));
    }
  }
  return out;
}

TEST(BodyTwins, BothSyntaxesGiveTheSameContent) {
  std::map<std::string, std::vector<std::string>> native, json;
  for (const Case& c : test::load_body_cases(kGoldenDir / "twins.txt")) {
    size_t dot = c.name.rfind('.');
    std::string stem = c.name.substr(0, dot), syntax = c.name.substr(dot + 1);
    (syntax == "native" ? native : json)[stem] = syntax_free(case_lines(c));
  }
  ASSERT_EQ(native.size(), json.size());
  ASSERT_GE(native.size(), 5u);
  for (const auto& [stem, lines] : native) {
    ASSERT_TRUE(json.count(stem)) << stem;
    EXPECT_EQ(lines, json[stem]) << stem;
  }
}

// --- what the golden files cannot check -------------------------------------------------

const BodySchema kServiceSchema{{{"name", true}, {"port", false}},
                                {{"service", {"name"}}, {"other", {}}}};

std::vector<std::string> names(const Attributes& as) {
  std::vector<std::string> out;
  for (const Attribute& a : as) out.push_back(a.name);
  return out;
}

TEST(Body, AttributesKeepSourceOrder) {
  ConfigFile n = parse_body(make_source("a.tf", "port = 1\nzeta = 2\nname = \"x\"\nalpha = 3\n"));
  EXPECT_EQ(names(n.body.content({{{"name"}, {"zeta"}, {"port"}}, {}}).content.attributes),
            (std::vector<std::string>{"port", "zeta", "name"}));
  EXPECT_EQ(names(n.body.just_attributes().attributes),
            (std::vector<std::string>{"port", "zeta", "name", "alpha"}));
  ConfigFile j = parse_body(make_source("a.tf.json", R"({"port": 1, "zeta": 2, "name": "x"})"));
  EXPECT_EQ(names(j.body.content({{{"name"}, {"zeta"}, {"port"}}, {}}).content.attributes),
            (std::vector<std::string>{"port", "zeta", "name"}));
  Body m = merge_bodies({j.body, parse_body(make_source("b.tf", "b = 1\na = 2\n")).body});
  EXPECT_EQ(names(m.just_attributes().attributes),
            (std::vector<std::string>{"port", "zeta", "name", "b", "a"}));
  AttributesResult merged = m.just_attributes();  // find() points into it
  const Attribute* a = merged.attributes.find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->name_range.filename, "b.tf");
  EXPECT_EQ(m.just_attributes().attributes.find("nope"), nullptr);
}

TEST(Body, NativeDiagnosticsComeInSourceOrder) {
  ConfigFile f = parse_body(make_source("a.tf",
                                        "zz = 1\nservice {}\nyy = 2\nbogus {}\n"
                                        "service \"a\" \"b\" {}\nxx = 3\nbogus2 {}\n"));
  ContentResult r = f.body.content(kServiceSchema);
  std::vector<std::string> got;
  for (const Diagnostic& d : r.diagnostics) got.push_back(d.summary + "@" +
                                                          std::to_string(d.subject->start.line));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "Missing required argument@1", "Missing name for service@2",
                     "Extraneous label for service@5", "Unsupported argument@1",
                     "Unsupported argument@3", "Unsupported argument@6",
                     "Unsupported block type@4", "Unsupported block type@7"}));
}

TEST(Body, HandlesKeepTheTreeAlive) {
  Expression expr;
  Body inner;
  {
    ConfigFile f = parse_body(make_source("a.tf", "svc \"x\" {\n  port = 40 + 2\n}\n"));
    ContentResult r = f.body.content({{}, {{"svc", {"name"}}}});
    ASSERT_EQ(r.content.blocks.size(), 1u);
    inner = r.content.blocks[0].body;
  }
  {
    ContentResult r = inner.content({{{"port", true}}, {}});
    ASSERT_FALSE(r.has_errors());
    expr = r.content.attributes.find("port")->expr;
  }
  inner = Body();
  EXPECT_EQ(expr.source().name(), "a.tf");
  EvalResult v = expr.value(nullptr);
  ASSERT_FALSE(v.has_errors());
  EXPECT_EQ(v.value.as_number().text(), "42");
  EXPECT_EQ(range_string(expr.range()), "a.tf:2,10-16");

  ConfigFile j = parse_body(make_source("a.json", R"({"a": "${n * 2}"})"));
  Expression je = j.body.just_attributes().attributes.find("a")->expr;
  j = ConfigFile();
  EXPECT_EQ(je.value(&golden_context()).value.as_number().text(), "6");
  EXPECT_EQ(je.value(nullptr).value.as_string(), "${n * 2}");
}

TEST(Body, ExpressionsEvaluateFromManyThreads) {
  ConfigFile f = parse_body(make_source("a.tf", "v = \"${upper(name)}-${n + 1}\"\n"));
  ConfigFile j = parse_body(make_source("a.tf.json", R"({"v": "${upper(name)}-${n + 1}"})"));
  Expression e1 = f.body.just_attributes().attributes.find("v")->expr;
  Expression e2 = j.body.just_attributes().attributes.find("v")->expr;
  const EvalContext& ctx = golden_context();
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      // Fresh handles on the same nodes share the compiled program.
      Expression e = (t % 2 ? e1 : e2);
      for (int i = 0; i < 200; ++i) {
        EvalResult r = e.value(&ctx);
        if (r.has_errors() || r.value.as_string() != "WEB-4") ++bad;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(Body, ValueWithoutContext) {
  ConfigFile f = parse_body(make_source("a.tf",
                                        "a = x\nb = [for v in [1]: v + y]\nc = upper(\"s\")\n"
                                        "d = { for k, v in {p = 1}: k => v }\n"));
  Attributes as = f.body.just_attributes().attributes;
  EvalResult a = as.find("a")->expr.value(nullptr);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(a.diagnostics[0].summary, "Variables not allowed");
  EvalResult b = as.find("b")->expr.value(nullptr);
  ASSERT_EQ(b.diagnostics.size(), 1u);
  EXPECT_EQ(b.diagnostics[0].summary, "Unknown variable");
  EvalResult c = as.find("c")->expr.value(nullptr);
  ASSERT_EQ(c.diagnostics.size(), 1u);
  EXPECT_EQ(c.diagnostics[0].summary, "Function calls not allowed");
  EvalResult d = as.find("d")->expr.value(nullptr);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(test::golden_typed(d.value), R"({"value":{"p":1},"type":["object",{"p":"number"}]})");
}

TEST(Body, ParseBodyChoosesTheSyntaxByName) {
  EXPECT_EQ(parse_body(make_source("x.tf.json", "{}")).syntax, Syntax::Json);
  EXPECT_EQ(parse_body(make_source("x.json", "{}")).syntax, Syntax::Json);
  EXPECT_EQ(parse_body(make_source("x.json.tf", "")).syntax, Syntax::Native);
  EXPECT_EQ(parse_body(make_source("json", "")).syntax, Syntax::Native);
  ConfigFile n = parse_body(make_source("x.hcl", "a = 1\n"));
  EXPECT_EQ(n.body.kind(), Body::Kind::Native);
  ASSERT_NE(n.body.native_body(), nullptr);
  EXPECT_EQ(n.body.json_node(), nullptr);
  ConfigFile j = parse_body(make_source("x.json", "[]"));
  EXPECT_EQ(j.body.kind(), Body::Kind::Json);
  ASSERT_NE(j.body.json_node(), nullptr);
  EXPECT_EQ(j.body.json_node()->kind, json::NodeKind::Array);
  ConfigFile bad = parse_body(make_source("x.json", "{"));
  EXPECT_TRUE(bad.has_errors());
  EXPECT_EQ(bad.body.kind(), Body::Kind::Json);
}

TEST(Body, MakeBodyFromParses) {
  Body b = make_body(parse_config(make_source("a.tf", "a = 1\n")));
  EXPECT_TRUE(b.just_attributes().attributes.contains("a"));
  FileParse none;
  EXPECT_EQ(make_body(std::move(none)).kind(), Body::Kind::Merged);
  Body j = make_body(parse_json_config(make_source("a.json", R"({"a": 1})")));
  EXPECT_TRUE(j.just_attributes().attributes.contains("a"));
}

TEST(Body, MergingFlattens) {
  Body a = parse_body(make_source("a.tf", "a = 1\n")).body;
  Body b = parse_body(make_source("b.tf", "b = 1\n")).body;
  Body c = parse_body(make_source("c.tf.json", R"({"c": 1})")).body;
  Body m = merge_bodies({merge_bodies({a, b}), Body(), merge_bodies({}), c});
  EXPECT_EQ(m.kind(), Body::Kind::Merged);
  EXPECT_EQ(m.merged().size(), 3u);
  EXPECT_EQ(names(m.just_attributes().attributes), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(merge_bodies({a}).merged().size(), 1u);
  Body empty = merge_bodies({Body(), merge_bodies({})});
  EXPECT_TRUE(empty.merged().empty());
  EXPECT_EQ(empty.missing_item_range().filename, "<empty>");
  EXPECT_EQ(Body().kind(), Body::Kind::Merged);
  ContentResult r = Body().content({{{"x", true}}, {}});
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].detail, "The argument \"x\" is required, but was not set.");
  EXPECT_FALSE(r.diagnostics[0].subject.has_value());
  PartialContentResult p = m.partial_content({{{"a"}}, {}});
  EXPECT_EQ(p.remain.merged().size(), 3u);
  EXPECT_EQ(names(p.remain.just_attributes().attributes), (std::vector<std::string>{"b", "c"}));
}

TEST(Body, BlocksOfType) {
  ConfigFile f = parse_body(make_source("a.tf", "x {}\ny {}\nx {}\n"));
  ContentResult r = f.body.content({{}, {{"x", {}}, {"y", {}}}});
  EXPECT_EQ(r.content.blocks.size(), 3u);
  std::vector<const Block*> xs = r.content.blocks_of_type("x");
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_EQ(xs[1]->type_range.start.line, 3u);
  EXPECT_TRUE(r.content.blocks_of_type("z").empty());
  Attributes as;
  EXPECT_TRUE(as.add(Attribute{"a", {}, {}, {}}));
  EXPECT_FALSE(as.add(Attribute{"a", {}, {}, {}}));
  EXPECT_EQ(as.size(), 1u);
}

TEST(Expression, StaticAnalysisThroughHandles) {
  ConfigFile n = parse_body(make_source(
      "a.tf", "l = [a, b.c]\nm = { k = 1 }\nf = f(x, y...)\nt = var.a[0]\nk = allow\n"));
  ConfigFile j = parse_body(make_source(
      "a.tf.json",
      R"j({"l": ["${a}", "${b.c}"], "m": {"k": 1}, "f": "f(x, y...)", )j"
      R"j("t": "var.a[0]", "k": "allow"})j"));
  for (const ConfigFile* file : {&n, &j}) {
    Attributes as = file->body.just_attributes().attributes;
    SCOPED_TRACE(file->source->name());
    ExpressionListResult l = expr_list(as.find("l")->expr);
    ASSERT_FALSE(l.has_errors());
    ASSERT_EQ(l.items.size(), 2u);
    EXPECT_EQ(l.items[1].variables().at(0).to_string(), "b.c");
    EXPECT_TRUE(expr_list(as.find("m")->expr).has_errors());
    ExpressionMapResult m = expr_map(as.find("m")->expr);
    ASSERT_EQ(m.pairs.size(), 1u);
    EXPECT_EQ(m.pairs[0].key.value(&golden_context()).value.as_string(), "k");
    EXPECT_EQ(m.pairs[0].value.value(nullptr).value.as_number().text(), "1");
    ExpressionCallResult c = expr_call(as.find("f")->expr);
    ASSERT_FALSE(c.has_errors());
    EXPECT_EQ(c.call.name, "f");
    EXPECT_TRUE(c.call.expand_final);
    ASSERT_EQ(c.call.arguments.size(), 2u);
    EXPECT_EQ(c.call.arguments[1].syntax(), Syntax::Native);
    EXPECT_EQ(abs_traversal_for_expr(c.call.arguments[0]).traversal.to_string(), "x");
    TraversalResult t = abs_traversal_for_expr(as.find("t")->expr);
    ASSERT_FALSE(t.has_errors());
    EXPECT_EQ(t.traversal.to_string(), "var.a[0]");
    EXPECT_EQ(rel_traversal_for_expr(as.find("t")->expr).traversal.to_string(), ".var.a[0]");
    EXPECT_EQ(expr_as_keyword(as.find("k")->expr), "allow");
    EXPECT_EQ(expr_as_keyword(as.find("t")->expr), "");
  }
  // The arguments of a call in a JSON string outlive the string's parse.
  ExpressionCallResult c =
      expr_call(j.body.just_attributes().attributes.find("f")->expr);
  j = ConfigFile();
  EXPECT_EQ(c.call.arguments[0].source().name(), "a.tf.json");
  EXPECT_EQ(c.call.arguments[0].range().start.column, 49u);  // from the quote, as the reference
}

TEST(Expression, FromParse) {
  Expression n = Expression::from_parse(parse_expression(make_source("e", "n + 1")));
  ASSERT_TRUE(n);
  EXPECT_EQ(n.syntax(), Syntax::Native);
  EXPECT_NE(n.native_expr(), nullptr);
  EXPECT_EQ(n.json_node(), nullptr);
  EXPECT_EQ(n.value(&golden_context()).value.as_number().text(), "4");
  Expression j = Expression::from_parse(parse_json_expression(make_source("e", "[\"${n}\", 2]")));
  ASSERT_TRUE(j);
  EXPECT_EQ(j.syntax(), Syntax::Json);
  EXPECT_EQ(test::golden_typed(j.value(&golden_context()).value),
            R"({"value":[3,2],"type":["tuple",["number","number"]]})");
  EXPECT_EQ(range_string(j.start_range()), "e:1,1-2");
  EXPECT_FALSE(Expression());
}

}  // namespace
}  // namespace hclvm

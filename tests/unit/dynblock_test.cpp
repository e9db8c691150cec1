// Tests of dynamic blocks (hclvm/dynblock.h) against the reference.
//
// tests/golden/dynblock/*.golden come from the reference's ext/dynblock
// through gen.sh (oracle/main.go, which describes the case files *.txt).
// The line format is that of tests/golden/body (see body_test.cpp), on the
// body Expand makes of each case's file, with:
//   U / RU    the body read (the remaining body) is unknown (is_unknown())
// and for the walk operations (walk: WalkVariables, walkexpand:
// WalkExpandVariables), the variables Visit found, sorted (the reference
// finds those of arguments in Go's map order), and the child nodes:
//   W         a traversal
//   C         a child node: its block type and its body's missing item range
// The context of the cases holds the variables of the case's vars line,
// the fixed ones of golden_context() and the function upper.
//
// The tests after the golden ones check what the files cannot: where the
// newest reference differs from the oracle (an error evaluating for_each,
// checks of for_each, marks), unknown bodies as a decoder sees them, the
// wrapping of expressions, lifetimes and threads, and walk_tree.
#include <gtest/gtest.h>

#include <hclvm/dynblock.h>
#include <hclvm/functions.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace hclvm {
namespace {

const std::filesystem::path kGoldenDir =
    std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/dynblock";

// --- the golden line format ---------------------------------------------------------

std::string rng(const Range& r) { return test::range_line(r); }



// The context of a golden case: the variables of [vars] (JSON), those that
// JSON cannot write (as oracle/main.go's fixedVariables), and upper().
std::unique_ptr<EvalContext> golden_context(const std::string& vars) {
  auto c = std::make_unique<EvalContext>(test::context_from_vars(vars.empty() ? "{}" : vars));
  const Type* str = Type::string();
  auto s = [](const char* x) { return Value::string(x); };
  c->set("unknown", Value::dynamic());
  c->set("unknown_list", Value::unknown(Type::list(str)));
  c->set("unknown_str", Value::unknown(str));
  c->set("null_list", Value::null(Type::list(str)));
  c->set("null_any", Value::null(Type::dynamic()));
  c->set("strset", Value::set(str, {s("b"), s("a"), s("c")}));
  c->set("numset",
         Value::set(Type::number(), {Value::integer(3), Value::integer(1), Value::integer(2)}));
  c->set("strlist", Value::list(str, {s("x"), s("y")}));
  c->set("strmap", Value::map(str, {{"k2", s("v2")}, {"k1", s("v1")}}));
  c->set("emptylist", Value::list(str, {}));
  c->set("partial_list", Value::list(str, {s("a"), Value::unknown(str)}));
  auto obj = [&](const char* name, std::vector<Value> tags) {
    return Value::object({{"name", s(name)}, {"tags", Value::list(str, std::move(tags))}});
  };
  Value a = obj("A", {s("t1"), s("t2")});
  c->set("objmap", Value::map(a.type(), {{"b", obj("B", {s("t3")})}, {"a", a}}));
  auto fns = std::make_shared<FunctionTable>(default_functions());
  std::vector<std::string_view> views = fns->names();
  std::vector<std::string> names(views.begin(), views.end());
  for (const std::string& f : names)
    if (f != "upper") fns->remove(f);
  c->set_functions(fns);
  return c;
}

// --- the case files -------------------------------------------------------------------

using Op = test::BodyOp;
using File = test::BodyFile;
using Case = test::BodyCase;

// --- what hclvm gives, as golden lines -------------------------------------------------


std::vector<std::string> case_lines(const Case& c) {
  std::unique_ptr<EvalContext> ctx = golden_context(c.vars);
  return test::body_case_lines(c, *ctx, true);
}

class DynblockGolden : public testing::TestWithParam<std::string> {};

TEST_P(DynblockGolden, MatchesTheReference) {
  std::vector<std::pair<std::string, std::vector<std::string>>> got;
  for (const Case& c : test::load_body_cases(kGoldenDir / (GetParam() + ".txt")))
    got.emplace_back(c.name, case_lines(c));
  test::expect_golden(test::load_golden(kGoldenDir / (GetParam() + ".golden")), got);
}

INSTANTIATE_TEST_SUITE_P(Cases, DynblockGolden, testing::Values("native", "json", "walk"));

// --- what the golden files cannot check -------------------------------------------------

Body parse(std::string text, std::string name = "main.tf") {
  ConfigFile f = parse_body(make_source(std::move(name), std::move(text)));
  EXPECT_FALSE(f.has_errors());
  return f.body;
}

std::vector<std::string> summaries(const Diagnostics& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(d.summary + ": " + d.detail);
  return out;
}

const BodySchema kB{{}, {{"b", {}}}};
const BodySchema kV{{{"v", false}}, {}};

// The value of argument [name] of [b] read with [schema], in [ctx].
Value arg(const Body& b, const BodySchema& schema, std::string_view name,
          const EvalContext* ctx = nullptr) {
  ContentResult r = b.content(schema);
  EXPECT_FALSE(r.has_errors()) << testing::PrintToString(summaries(r.diagnostics));
  const Attribute* a = r.content.attributes.find(name);
  if (a == nullptr) {
    ADD_FAILURE() << "no argument " << name;
    return Value();
  }
  EvalResult v = a->expr.value(ctx);
  EXPECT_FALSE(v.has_errors()) << testing::PrintToString(summaries(v.diagnostics));
  return v.value;
}

TEST(Dynblock, ChecksOfForEachComeFirst) {
  Body body = parse(
      "dynamic \"b\" {\n  for_each = \"not iterable\"\n  content {}\n}\n"
      "dynamic \"b\" {\n  for_each = [1, 2]\n  content {\n"
      "    dynamic \"b\" {\n      for_each = [b.value]\n      content {}\n    }\n  }\n}\n");
  EvalContext ctx;
  std::vector<std::string> seen;
  std::vector<const EvalContext*> contexts;
  dynblock::ExpandOptions opts;
  opts.check_for_each.push_back([&](const Value& v, const Expression& e, const EvalContext* c) {
    seen.push_back(test::golden_typed(v) + "@" + std::to_string(e.range().start.line));
    contexts.push_back(c);
    Diagnostics ds;
    if (v.type() == Type::string()) {
      Diagnostic d;
      d.summary = "Bad for_each";
      ds.push_back(d);
    } else {
      Diagnostic d;
      d.severity = Severity::Warning;
      d.summary = "Looked at it";
      ds.push_back(d);
    }
    return ds;
  });
  int second = 0;
  opts.check_for_each.push_back([&](const Value&, const Expression&, const EvalContext*) {
    ++second;
    return Diagnostics{};
  });
  Body expanded = dynblock::expand(body, &ctx, std::move(opts));
  ContentResult r = expanded.content(kB);
  // The error of the check stands for the built-in one, and stops the
  // checks after it; a warning lets the block expand.
  EXPECT_EQ(summaries(r.diagnostics),
            (std::vector<std::string>{"Bad for_each: ", "Looked at it: "}));
  ASSERT_EQ(r.content.blocks.size(), 2u);
  EXPECT_EQ(second, 1);
  EXPECT_EQ(contexts, (std::vector<const EvalContext*>{&ctx, &ctx}));
  // Bodies expanded from it check their dynamic blocks too, in their own
  // context (a child of the caller's with the iterators).
  ContentResult inner = r.content.blocks[1].body.content(kB);
  EXPECT_EQ(summaries(inner.diagnostics), (std::vector<std::string>{"Looked at it: "}));
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2], R"({"value":[2],"type":["tuple",["number"]]}@9)");
  ASSERT_EQ(contexts.size(), 3u);
  EXPECT_NE(contexts[2], &ctx);
  EXPECT_EQ(contexts[2]->parent(), &ctx);
  EXPECT_EQ(second, 2);
}

TEST(Dynblock, MarkedForEachMarksWhatTheBlocksMake) {
  Body body = parse(
      "dynamic \"b\" {\n  for_each = secret\n  content {\n    v = b.value\n    c = 1\n"
      "    inner {\n      v = b.key\n    }\n  }\n}\n"
      "b {\n  v = 2\n}\n");
  EvalContext ctx;
  ctx.set("secret",
          Value::map(Type::string(), {{"k1", Value::string("one")}, {"k2", Value::string("two")}})
              .mark("sensitive"));
  std::vector<std::string> hook;
  dynblock::ExpandOptions opts;
  opts.check_for_each.push_back([&](const Value& v, const Expression&, const EvalContext*) {
    hook.push_back(v.marks().has("sensitive") ? "marked" : "plain");
    return Diagnostics{};
  });
  Body expanded = dynblock::expand(body, &ctx, std::move(opts));
  EXPECT_TRUE(expanded.value_marks().empty());
  ContentResult r = expanded.content(kB);
  ASSERT_FALSE(r.has_errors()) << testing::PrintToString(summaries(r.diagnostics));
  EXPECT_EQ(hook, (std::vector<std::string>{"marked"}));
  ASSERT_EQ(r.content.blocks.size(), 3u);
  const BodySchema content{{{"v", false}, {"c", false}}, {{"inner", {}}}};
  for (size_t i = 0; i < 2; ++i) {
    const Body& b = r.content.blocks[i].body;
    EXPECT_EQ(b.kind(), Body::Kind::Expanded);
    EXPECT_TRUE(b.value_marks().has("sensitive"));
    Value v = arg(b, content, "v");
    EXPECT_TRUE(v.is_marked());
    EXPECT_EQ(v.unmark().as_string(), i == 0 ? "one" : "two");
    EXPECT_TRUE(arg(b, content, "c").marks().has("sensitive"));
    // Static blocks inside do not take the marks on (as in the newest
    // reference), though their arguments still see the iterator.
    ContentResult c = b.content(content);
    ASSERT_EQ(c.content.blocks.size(), 1u);
    const Body& inner = c.content.blocks[0].body;
    EXPECT_TRUE(inner.value_marks().empty());
    Value k = arg(inner, kV, "v");
    EXPECT_EQ(k.unmark().as_string(), i == 0 ? "k1" : "k2");
  }
  // The static block of the same type has nothing to do with the marks.
  EXPECT_TRUE(r.content.blocks[2].body.value_marks().empty());
  EXPECT_FALSE(arg(r.content.blocks[2].body, kV, "v").is_marked());
}

TEST(Dynblock, MarkedElementsStayOnTheirOwn) {
  Body body = parse("dynamic \"b\" {\n  for_each = items\n  content {\n    v = b.value\n  }\n}\n");
  EvalContext ctx;
  ctx.set("items", Value::list(Type::string(), {Value::string("plain"),
                                                Value::string("hidden").mark("sensitive")}));
  Body expanded = dynblock::expand(body, &ctx);
  ContentResult r = expanded.content(kB);
  ASSERT_EQ(r.content.blocks.size(), 2u);
  EXPECT_TRUE(r.content.blocks[0].body.value_marks().empty());
  EXPECT_FALSE(arg(r.content.blocks[0].body, kV, "v").is_marked());
  EXPECT_TRUE(r.content.blocks[1].body.value_marks().empty());
  EXPECT_TRUE(arg(r.content.blocks[1].body, kV, "v").marks().has("sensitive"));
}

TEST(Dynblock, MarkedUnknownForEach) {
  Body body = parse("dynamic \"b\" {\n  for_each = secret\n  content {\n    v = b.value\n  }\n}\n");
  EvalContext ctx;
  ctx.set("secret", Value::unknown(Type::list(Type::string())).mark("sensitive"));
  ContentResult r = dynblock::expand(body, &ctx).content(kB);
  ASSERT_FALSE(r.has_errors());
  ASSERT_EQ(r.content.blocks.size(), 1u);
  const Body& b = r.content.blocks[0].body;
  EXPECT_TRUE(b.is_unknown());
  EXPECT_EQ(b.kind(), Body::Kind::Unknown);
  EXPECT_TRUE(b.value_marks().has("sensitive"));
  Value v = arg(b, kV, "v");
  EXPECT_FALSE(v.is_known());
  EXPECT_TRUE(v.marks().has("sensitive"));
}

TEST(Dynblock, MarkedLabel) {
  Body body =
      parse("dynamic \"b\" {\n  for_each = [\"x\"]\n  labels = [secret]\n  content {}\n}\n");
  EvalContext ctx;
  ctx.set("secret", Value::string("s").mark("sensitive"));
  ContentResult r = dynblock::expand(body, &ctx).content({{}, {{"b", {"name"}}}});
  EXPECT_TRUE(r.content.blocks.empty());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(summaries(r.diagnostics)[0],
            "Invalid dynamic block label: This value has dynamic marks that make it unsuitable for use "
            "as a block label.");
  EXPECT_EQ(rng(*r.diagnostics[0].subject), "main.tf:3:13:45-3:19:51");
}

TEST(Dynblock, DiagnosticsShowTheValuesOfTheirExpressions) {
  Body body = parse(
      "dynamic \"b\" {\n  for_each = nothing\n  content {}\n}\n"
      "dynamic \"l\" {\n  for_each = [\"x\"]\n  labels = [l.value == \"x\" ? null : \"y\"]\n"
      "  content {}\n}\n");
  EvalContext ctx;
  ctx.set("nothing", Value::null(Type::list(Type::string())));
  ContentResult r = dynblock::expand(body, &ctx).content({{}, {{"b", {}}, {"l", {"name"}}}});
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].detail, "Cannot use a null value in for_each.");
  ASSERT_EQ(r.diagnostics[0].expression_values.size(), 1u);
  EXPECT_NE(r.diagnostics[0].expression_values[0].find("nothing"), std::string::npos);
  // A label reads the iterator, from the context the label was evaluated in.
  EXPECT_EQ(r.diagnostics[1].detail, "Cannot use a null value as a dynamic block label.");
  ASSERT_EQ(r.diagnostics[1].expression_values.size(), 1u);
  EXPECT_NE(r.diagnostics[1].expression_values[0].find("l.value"), std::string::npos);
}

TEST(Dynblock, UnknownBodies) {
  EvalContext ctx;
  ctx.set("later", Value::unknown(Type::set(Type::string())));
  Body body = parse(
      "dynamic \"b\" {\n  for_each = later\n  content {\n    v = \"const\"\n    w = b.value\n"
      "    inner {\n      x = 1\n    }\n  }\n}\n");
  Body expanded = dynblock::expand(body, &ctx);
  EXPECT_FALSE(Body().is_unknown());
  EXPECT_FALSE(body.is_unknown());
  EXPECT_FALSE(expanded.is_unknown());
  EXPECT_EQ(expanded.kind(), Body::Kind::Expanded);
  ContentResult r = expanded.content(kB);
  ASSERT_EQ(r.content.blocks.size(), 1u);
  const Body& b = r.content.blocks[0].body;
  EXPECT_TRUE(b.is_unknown());
  EXPECT_TRUE(b.value_marks().empty());
  // Every argument is unknown, and at its place.
  PartialContentResult p = b.partial_content({{{"v", false}}, {}});
  const Attribute* v = p.content.attributes.find("v");
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->expr.is_static());
  EXPECT_EQ(rng(v->expr.range()), "main.tf:4:9:53-4:16:60");
  EXPECT_EQ(v->expr.value(&ctx).value.type(), Type::dynamic());
  EXPECT_FALSE(v->expr.value(nullptr).value.is_known());
  EXPECT_TRUE(v->expr.variables().empty());
  // What is left is unknown too, and so are nested blocks.
  EXPECT_TRUE(p.remain.is_unknown());
  ContentResult rest = p.remain.content({{{"w", false}}, {{"inner", {}}}});
  ASSERT_FALSE(rest.has_errors());
  ASSERT_EQ(rest.content.blocks.size(), 1u);
  EXPECT_TRUE(rest.content.blocks[0].body.is_unknown());
  EXPECT_FALSE(arg(rest.content.blocks[0].body, {{{"x", false}}, {}}, "x").is_known());
}

TEST(Dynblock, WrappedExpressionsSeeThroughToTheirNode) {
  Body body = parse(
      "dynamic \"b\" {\n  for_each = [\"p\"]\n  iterator = it\n  content {\n"
      "    list = [it.value, other, it]\n    ref  = it.value\n  }\n}\n");
  EvalContext ctx;
  ctx.set("other", Value::string("o"));
  ContentResult r = dynblock::expand(body, &ctx).content(kB);
  ASSERT_EQ(r.content.blocks.size(), 1u);
  ContentResult c = r.content.blocks[0].body.content({{{"list", false}, {"ref", false}}, {}});
  const Expression& list = c.content.attributes.find("list")->expr;
  const Expression& ref = c.content.attributes.find("ref")->expr;
  ASSERT_NE(list.native_expr(), nullptr);
  EXPECT_FALSE(list.is_static());
  // The iterator is no variable of the expression: the wrapping gives it.
  std::vector<std::string> vars;
  for (const Traversal& t : list.variables()) vars.push_back(t.to_string());
  EXPECT_EQ(vars, (std::vector<std::string>{"other"}));
  EXPECT_EQ(
      test::golden_typed(list.value(&ctx).value),
      R"({"value":["p","o",{"key":0,"value":"p"}],"type":["tuple",["string","string",["object",{"key":"number","value":"string"}]]]})");
  // The analyses read the node, as the reference's unwrap it: the items of
  // the list are plain expressions again.
  ExpressionListResult items = expr_list(list);
  ASSERT_FALSE(items.has_errors());
  ASSERT_EQ(items.items.size(), 3u);
  EXPECT_EQ(items.items[1].value(&ctx).value.as_string(), "o");
  EXPECT_EQ(items.items[0].value(&ctx).diagnostics.size(), 1u);  // no iterator there
  TraversalResult t = abs_traversal_for_expr(ref);
  ASSERT_FALSE(t.has_errors());
  EXPECT_EQ(t.traversal.to_string(), "it.value");
  EXPECT_EQ(expr_as_keyword(ref), "");
}

TEST(Dynblock, StaticExpressions) {
  Range r{"x.tf", {2, 3, 10}, {2, 8, 15}};
  Expression e = Expression::make_static(Value::string("fixed"), r);
  EXPECT_TRUE(bool(e));
  EXPECT_TRUE(e.is_static());
  EXPECT_FALSE(Expression().is_static());
  EXPECT_EQ(e.range(), r);
  EXPECT_EQ(e.start_range(), r);
  EXPECT_EQ(e.native_expr(), nullptr);
  EXPECT_EQ(e.json_node(), nullptr);
  EXPECT_EQ(e.source().name(), "");
  EXPECT_TRUE(e.variables().empty());
  EvalContext ctx;
  EXPECT_EQ(e.value(&ctx).value.as_string(), "fixed");
  EXPECT_EQ(e.value(nullptr).value.as_string(), "fixed");
  Expression copy = e;
  EXPECT_EQ(copy.value(nullptr).value.as_string(), "fixed");
  // No syntax to analyse: the reference's answers for such an expression.
  TraversalResult t = abs_traversal_for_expr(e);
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_EQ(t.diagnostics[0].summary, "Invalid expression");
  EXPECT_EQ(*t.diagnostics[0].subject, r);
  EXPECT_TRUE(rel_traversal_for_expr(e).has_errors());
  EXPECT_EQ(expr_as_keyword(e), "");
  EXPECT_EQ(
      summaries(expr_list(e).diagnostics),
      (std::vector<std::string>{"Invalid expression: A static list expression is required."}));
  EXPECT_EQ(summaries(expr_map(e).diagnostics),
            (std::vector<std::string>{"Invalid expression: A static map expression is required."}));
  EXPECT_EQ(summaries(expr_call(e).diagnostics),
            (std::vector<std::string>{"Invalid expression: A static function call is required."}));
}

TEST(Dynblock, ArgumentsKeepSourceOrder) {
  Body body = parse(
      "dynamic \"b\" {\n  for_each = [1]\n  content {\n    z = 1\n    a = 2\n    m = 3\n"
      "  }\n}\n");
  ContentResult r = dynblock::expand(body, nullptr).content(kB);
  ASSERT_EQ(r.content.blocks.size(), 1u);
  ContentResult c = r.content.blocks[0].body.content({{{"m"}, {"a"}, {"z"}}, {}});
  std::vector<std::string> names;
  for (const Attribute& a : c.content.attributes) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"z", "a", "m"}));
}

TEST(Dynblock, ExpandingTwiceChangesNothing) {
  Body body = parse(
      "dynamic \"b\" {\n  for_each = [\"x\", \"y\"]\n  content {\n    v = b.value\n  }\n}\n"
      "b {\n  v = \"z\"\n}\n");
  Body twice = dynblock::expand(dynblock::expand(body, nullptr), nullptr);
  ContentResult r = twice.content(kB);
  ASSERT_FALSE(r.has_errors());
  std::vector<std::string> vs;
  for (const Block& b : r.content.blocks) vs.emplace_back(arg(b.body, kV, "v").as_string());
  EXPECT_EQ(vs, (std::vector<std::string>{"x", "y", "z"}));
}

TEST(Dynblock, BodiesKeepTheirContextsAlive) {
  // The innermost body is all that is kept: the bodies around it, the
  // file, and the contexts the expansion made in between are gone, save
  // what it holds on to.
  EvalContext ctx;
  ctx.set("outer", Value::list(Type::string(), {Value::string("o1"), Value::string("o2")}));
  Body inner;
  {
    Body body = parse(
        "dynamic \"a\" {\n  for_each = outer\n  content {\n    s {\n"
        "      dynamic \"b\" {\n        for_each = [a.value, \"${a.value}!\"]\n"
        "        content {\n          v = \"${a.key}:${b.value}\"\n        }\n      }\n"
        "    }\n  }\n}\n");
    ContentResult a = dynblock::expand(body, &ctx).content({{}, {{"a", {}}}});
    ASSERT_EQ(a.content.blocks.size(), 2u);
    ContentResult s = a.content.blocks[1].body.content({{}, {{"s", {}}}});
    ASSERT_EQ(s.content.blocks.size(), 1u);
    inner = s.content.blocks[0].body;
  }
  ContentResult b = inner.content(kB);
  ASSERT_FALSE(b.has_errors());
  std::vector<std::string> vs;
  for (const Block& blk : b.content.blocks) vs.emplace_back(arg(blk.body, kV, "v").as_string());
  EXPECT_EQ(vs, (std::vector<std::string>{"1:o2", "1:o2!"}));
}

TEST(Dynblock, SharedBetweenThreads) {
  EvalContext ctx;
  ctx.set("n",
          Value::list(Type::number(), {Value::integer(1), Value::integer(2), Value::integer(3)}));
  Body expanded = dynblock::expand(
      parse("dynamic \"b\" {\n  for_each = n\n  content {\n    v = b.value * 10 + b.key\n"
            "  }\n}\n"),
      &ctx);
  std::vector<std::thread> threads;
  std::vector<int> bad(6, 0);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        ContentResult r = expanded.content(kB);
        if (r.content.blocks.size() != 3) {
          ++bad[size_t(t)];
          continue;
        }
        for (size_t k = 0; k < 3; ++k) {
          ContentResult c = r.content.blocks[k].body.content(kV);
          EvalResult v = c.content.attributes.find("v")->expr.value(&ctx);
          if (v.has_errors() ||
              test::golden_typed(v.value) !=
                  "{\"value\":" + std::to_string(10 * (k + 1) + k) + ",\"type\":\"number\"}")
            ++bad[size_t(t)];
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(bad, std::vector<int>(6, 0));
}

// A tree of schemas for walk_tree.
class Schemas final : public dynblock::WalkSchema {
 public:
  Schemas(BodySchema s, std::map<std::string, std::shared_ptr<const Schemas>> children)
      : schema_(std::move(s)), children_(std::move(children)) {}
  BodySchema schema() const override { return schema_; }
  std::shared_ptr<const dynblock::WalkSchema> child(std::string_view type) const override {
    auto it = children_.find(std::string(type));
    return it == children_.end() ? nullptr : it->second;
  }

 private:
  BodySchema schema_;
  std::map<std::string, std::shared_ptr<const Schemas>> children_;
};

TEST(Dynblock, WalkTheWholeTree) {
  Body body = parse(
      "top = var.top\n"
      "dynamic \"svc\" {\n  for_each = var.services\n  labels = [svc.key]\n  content {\n"
      "    port = svc.value.port + var.offset\n"
      "    dynamic \"rule\" {\n      for_each = svc.value.rules\n      content {\n"
      "        cidr = [rule.value, local.extra]\n      }\n    }\n"
      "    skipped {\n      x = var.skipped\n    }\n  }\n}\n"
      "svc \"static\" {\n  port = local.port\n}\n");
  auto rule = std::make_shared<const Schemas>(
      BodySchema{{{"cidr"}}, {}}, std::map<std::string, std::shared_ptr<const Schemas>>{});
  auto svc = std::make_shared<const Schemas>(
      BodySchema{{{"port"}}, {{"rule", {}}, {"skipped", {}}}},
      std::map<std::string, std::shared_ptr<const Schemas>>{{"rule", rule}});
  Schemas root(BodySchema{{{"top"}}, {{"svc", {"name"}}}}, {{"svc", svc}});
  std::vector<std::string> all, expand_only;
  for (const Traversal& t : dynblock::walk_tree(dynblock::walk_variables(body), root))
    all.push_back(t.to_string());
  for (const Traversal& t : dynblock::walk_tree(dynblock::walk_expand_variables(body), root))
    expand_only.push_back(t.to_string());
  // Depth first, in source order; blocks the schemas leave out are not
  // walked.
  EXPECT_EQ(all, (std::vector<std::string>{"var.top", "var.services", "var.offset", "local.extra",
                                           "local.port"}));
  EXPECT_EQ(expand_only, (std::vector<std::string>{"var.services"}));
}

}  // namespace
}  // namespace hclvm

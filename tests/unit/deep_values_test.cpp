// Deep and shared values: values nested far deeper than a thread's stack
// (hundreds of thousands of levels) and values that share their parts (a
// tuple holding the same list nine times, down ten levels: 9^10 paths in a
// few hundred bytes, as YAML aliases make them). Every operation must
// handle both without overflowing the stack, in time linear in what the
// value holds, and within the run's limits where its output is as long as
// the value's every path. The big inputs are built here, in loops.
#include <gtest/gtest.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/limits.h>
#include <hclvm/syntax.h>

#include <chrono>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "util/budget.h"
#include "value/convert.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/render.h"

namespace hclvm {
namespace {

// [[...[leaf]...]]: [depth] tuples around [leaf], built from the inside.
Value deep_tuple(size_t depth, Value leaf = Value::integer(1)) {
  Value v = std::move(leaf);
  for (size_t i = 0; i < depth; ++i) v = Value::tuple({std::move(v)});
  return v;
}

// A tuple of [fan] references to a tuple of [fan] references ... [levels]
// deep, around [leaf]: fan^levels paths, levels + 1 objects.
Value laughs(size_t levels, size_t fan, Value leaf = Value::string("lol")) {
  Value v = std::move(leaf);
  for (size_t i = 0; i < levels; ++i) v = Value::tuple(std::vector<Value>(fan, v));
  return v;
}

std::shared_ptr<const Program> compile(std::string_view src) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  return compile_expression(*p.expr, p.source).program;
}

// Limits whose deadline catches a hang: the work must end well within it.
Limits generous() {
  Limits l;
  l.timeout = std::chrono::seconds(20);
  return l;
}

// Runs [src] with the variables [vars] and the standard functions.
EvalResult run(std::string_view src, std::vector<std::pair<std::string, Value>> vars,
               const Limits& limits = generous()) {
  EvalContext ctx;
  ctx.set_functions(std::make_shared<const FunctionTable>(standard_functions({})));
  for (auto& [name, v] : vars) ctx.set(name, v);
  Vm vm(limits);
  return vm.run(*compile(src), ctx);
}

// The summary of the first diagnostic of [r], or "".
std::string first_summary(const EvalResult& r) {
  return r.diagnostics.empty() ? "" : r.diagnostics[0].summary;
}

// --- comparing ------------------------------------------------------------------

TEST(DeepValues, EqualityOfDeepValuesIsLinear) {
  // Two separately built values 300,000 levels deep: compared level by
  // level once (it was quadratic in the depth: 27,000 levels took 12 s).
  Value a = deep_tuple(300000), b = deep_tuple(300000);
  Value c = deep_tuple(300000, Value::integer(2));
  EvalResult r = run("a == b && a != c && !(b == c)", {{"a", a}, {"b", b}, {"c", c}});
  ASSERT_TRUE(r.diagnostics.empty()) << first_summary(r);
  EXPECT_TRUE(r.value.as_bool());
  EXPECT_TRUE(ops::raw_equal(a, b));
  EXPECT_FALSE(ops::raw_equal(a, c));
  Value eq = ops::equals(a, c);
  EXPECT_TRUE(eq.is_plain() && !eq.as_bool());
}

TEST(DeepValues, DeepValuesWithDynamicPartsCompare) {
  // A null of the dynamic type at the bottom makes every level's type hold
  // the dynamic type, which cty checks at every level.
  Value a = deep_tuple(200000, Value()), b = deep_tuple(200000, Value());
  EvalResult r = run("a == b", {{"a", a}, {"b", b}});
  ASSERT_TRUE(r.diagnostics.empty()) << first_summary(r);
  EXPECT_TRUE(r.value.as_bool());
  Value u = deep_tuple(200000, Value::dynamic());
  EvalResult ru = run("a == u", {{"a", a}, {"u", u}});
  ASSERT_TRUE(ru.diagnostics.empty()) << first_summary(ru);
  EXPECT_FALSE(ru.value.is_known());
}

TEST(DeepValues, SharedValuesCompareOnce) {
  // 9^12 paths: comparing path by path would take hours.
  Value x = laughs(12, 9), y = laughs(12, 9);
  Value z = laughs(12, 9, Value::string("LOL"));
  EvalResult r = run("x == x && x == y && x != z", {{"x", x}, {"y", y}, {"z", z}});
  ASSERT_TRUE(r.diagnostics.empty()) << first_summary(r);
  EXPECT_TRUE(r.value.as_bool());
  EXPECT_TRUE(ops::raw_equal(x, y));
  EXPECT_FALSE(ops::raw_equal(x, z));
}

TEST(DeepValues, ComparingCountsSteps) {
  // Each pair of containers compared counts its elements: two big lists
  // that share nothing cannot be compared past the step limit.
  std::vector<Value> xs, ys;
  for (int i = 0; i < 5000; ++i) {
    xs.push_back(Value::integer(i));
    ys.push_back(Value::integer(i));
  }
  Value a = Value::list(Type::number(), xs), b = Value::list(Type::number(), ys);
  Limits l = generous();
  l.max_steps = 1000;
  EvalResult r = run("a == b", {{"a", a}, {"b", b}}, l);
  EXPECT_EQ(first_summary(r), limit_summary(Limit::Steps));
  l.max_steps = 10000;
  EXPECT_TRUE(run("a == b", {{"a", a}, {"b", b}}, l).value.as_bool());
}

TEST(DeepValues, SetsOfDeepAndSharedValues) {
  Value d = deep_tuple(100000);
  Value s = Value::set(d.type(), {d, deep_tuple(100000), d});
  EXPECT_EQ(s.length(), 1u);
  Value x = laughs(6, 4);
  Value t = Value::set(x.type(), {x, laughs(6, 4)});
  EXPECT_EQ(t.length(), 1u);
  EXPECT_EQ(ops::set_hash(x), ops::set_hash(laughs(6, 4)));
}

// --- walking -----------------------------------------------------------------------

TEST(DeepValues, PredicatesWalkEachSharedPartOnce) {
  Value x = laughs(30, 8);  // 8^30 paths
  EXPECT_TRUE(x.is_wholly_known());
  EXPECT_FALSE(x.contains_marked());
  EXPECT_TRUE(ops::has_wholly_known_type(x));
  Value u = laughs(30, 8, Value::unknown(Type::string()));
  EXPECT_FALSE(u.is_wholly_known());
  Value m = laughs(30, 8, Value::string("s").mark("sensitive"));
  EXPECT_TRUE(m.contains_marked());
  EXPECT_TRUE(laughs(30, 8, Value()).is_wholly_known());
  EXPECT_FALSE(ops::has_wholly_known_type(laughs(30, 8, Value::dynamic())));

  Value d = deep_tuple(500000, Value::unknown(Type::string()));
  EXPECT_FALSE(d.is_wholly_known());
  EXPECT_FALSE(d.contains_marked());
  EXPECT_TRUE(ops::has_wholly_known_type(d));
}

TEST(DeepValues, UnmarkDeepKeepsSharingAndDepth) {
  Value m = laughs(30, 8, Value::string("s").mark("sensitive"));
  auto [u, marks] = m.unmark_deep();
  EXPECT_TRUE(marks.has("sensitive"));
  EXPECT_FALSE(u.contains_marked());
  // Still shared: the first two elements are one object.
  EXPECT_EQ(u.element(0).obj(), u.element(1).obj());
  EXPECT_TRUE(ops::raw_equal(u, laughs(30, 8, Value::string("s"))));

  Value d = deep_tuple(300000, Value::string("s").mark("a")).mark("b");
  auto [ud, md] = d.unmark_deep();
  EXPECT_TRUE(md.has("a") && md.has("b"));
  EXPECT_FALSE(ud.contains_marked());
  EXPECT_TRUE(ops::raw_equal(ud, deep_tuple(300000, Value::string("s"))));
  // Nothing inside marked: the value itself.
  Value plain = deep_tuple(300000);
  EXPECT_EQ(plain.unmark_deep().first.obj(), plain.obj());
}

TEST(DeepValues, DeepValuesAreFreedWithoutRecursion) {
  // A million levels: freeing them one destructor inside the other would
  // take the stack of any thread.
  Value v = deep_tuple(1000000, Value::string("leaf"));
  v = Value();
  SUCCEED();
}

TEST(DeepValues, MakeImmortalWalksSharedPartsOnce) {
  // Kept in a static, so that what it holds stays reachable.
  static const Value kept = [] {
    Value v = laughs(40, 8, deep_tuple(200000));
    v.make_immortal();
    return v;
  }();
  EXPECT_EQ(kept.obj()->refs.load(), detail::Obj::kImmortal);
  EXPECT_EQ(kept.element(3).element(5).obj()->refs.load(), detail::Obj::kImmortal);
  Value copy = kept;
  EXPECT_EQ(copy.obj()->refs.load(), detail::Obj::kImmortal);
}

// --- encoding and printing -----------------------------------------------------------

// Calls [fn] under a budget of [limits], as a run would; the limit it hits
// (LimitExceeded's) or nullopt.
template <class F>
std::optional<Limit> within(const Limits& limits, F fn) {
  util::Budget budget(limits);
  util::Budget* saved = util::current_budget();
  util::set_current_budget(&budget);
  std::optional<Limit> hit;
  try {
    fn();
  } catch (const util::LimitExceeded& e) {
    hit = e.limit;
  }
  util::set_current_budget(saved);
  return hit;
}

TEST(DeepValues, EncodersCountTheirText) {
  // 9^12 paths: terabytes of text from a few hundred bytes of value.
  Value x = laughs(12, 9);
  Limits small = generous();
  small.max_string_bytes = 1 << 20;
  small.max_steps = 100000;
  EXPECT_EQ(first_summary(run("jsonencode(x)", {{"x", x}}, small)),
            limit_summary(Limit::StringSize));
  EXPECT_EQ(first_summary(run("type(x)", {{"x", x}}, small)), limit_summary(Limit::StringSize));
  small.max_memory = 1000000;
  EXPECT_EQ(first_summary(run("jsonencode(x)", {{"x", x}}, small)),
            limit_summary(Limit::Memory));
  EXPECT_EQ(first_summary(run("toset([x])", {{"x", x}}, small)), limit_summary(Limit::Memory));
  EXPECT_EQ(first_summary(run("flatten(x)", {{"x", x}}, small)), limit_summary(Limit::Memory));
  small.max_memory = generous().max_memory;
  small.max_collection_size = 10000;
  EXPECT_EQ(first_summary(run("flatten(x)", {{"x", x}}, small)),
            limit_summary(Limit::CollectionSize));
  // A shared value of empty tuples flattens to nothing, but every path is
  // walked: each sequence counts as a step.
  EXPECT_EQ(first_summary(run("flatten(x)", {{"x", laughs(12, 9, Value::tuple({}))}}, small)),
            limit_summary(Limit::Steps));
  small.max_memory = 1000000;
  // The value itself is small and its parts are compared once.
  EvalResult ok = run("length(x) + length(tolist(x)) + (x == x ? 1 : 0)", {{"x", x}}, small);
  ASSERT_TRUE(ok.diagnostics.empty()) << first_summary(ok);
  EXPECT_EQ(ok.value.as_number().to_int64(), 19);

  // The writers a host or the command line calls, under a budget.
  Limits l;
  l.max_string_bytes = 1 << 20;
  l.max_memory = 4 << 20;
  EXPECT_EQ(within(l, [&] { render_hcl(x); }), Limit::StringSize);
  EXPECT_EQ(within(l, [&] { to_json_typed(x); }), Limit::StringSize);
  EXPECT_EQ(within(l, [&] { x.type()->go_string(); }), Limit::StringSize);
  EXPECT_EQ(within(l, [&] { type_to_json(x.type()); }), Limit::StringSize);
  // Set hash bytes are a string in cty, held to the string limit.
  EXPECT_EQ(within(l, [&] { ops::set_hash_bytes(x); }), Limit::StringSize);
  // cty's Go syntax (the command line's "repr") is text the run prints.
  EXPECT_EQ(within(l, [&] { go_string(x); }), Limit::Memory);
}

TEST(DeepValues, DeepValuesEncodeAndConvert) {
  Value d = deep_tuple(200000);
  EvalResult r = run(
      "[length(jsonencode(d)), length(yamlencode(d)), length(flatten(d)), length(tolist(d)),"
      " length(toset([d]))]",
      {{"d", d}});
  ASSERT_TRUE(r.diagnostics.empty()) << first_summary(r);
  std::vector<int64_t> got;
  for (const Value& e : r.value.elements()) got.push_back(*e.as_number().to_int64());
  EXPECT_EQ(got, (std::vector<int64_t>{400001, 400002, 1, 1, 1}));
  // jsondecode reads no deeper than the reference: 10,000 levels.
  EvalResult j = run("jsondecode(jsonencode(d))", {{"d", d}});
  ASSERT_EQ(j.diagnostics.size(), 1u);
  EXPECT_NE(j.diagnostics[0].detail.find("exceeded max depth"), std::string::npos)
      << j.diagnostics[0].detail;
  // type() indents each level: quadratic text, stopped by the string limit.
  EXPECT_EQ(first_summary(run("type(d)", {{"d", d}})), limit_summary(Limit::StringSize));
  EvalResult t = run("length(type(d))", {{"d", deep_tuple(1000)}});
  ASSERT_TRUE(t.diagnostics.empty()) << first_summary(t);

  // Conversion plans and applies once per level, however many.
  constexpr int kLevels = 100000;
  d = deep_tuple(kLevels);
  const Type* want = Type::number();
  Value expect = Value::integer(1);
  for (int i = 0; i < kLevels; ++i) {
    want = Type::list(want);
    expect = Value::list(expect.type(), {expect});
  }
  ConvertResult c = convert(d, want);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(ops::raw_equal(c.value(), expect));
  EXPECT_EQ(Type::list(want)->friendly_name().size(), 8 * (kLevels + 1) + 6);  // "list of "...
  // A mismatch 100,000 levels down is reported as one chain of steps.
  const Type* bools = Type::boolean();
  for (int i = 0; i < kLevels; ++i) bools = Type::list(bools);
  ConvertResult bad = convert(deep_tuple(kLevels, Value::string("x")), bools);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().path.size(), size_t(kLevels));
  const Type* strings = Type::string();
  const Type* objects = Type::empty_object();
  for (int i = 0; i < kLevels; ++i) {
    strings = Type::list(strings);
    objects = Type::list(objects);
  }
  std::string m = mismatch_message(strings, objects);
  EXPECT_EQ(m.size(), kLevels * std::string("incorrect list element type: ").size() +
                          std::string("object required, but have string").size());
  EXPECT_TRUE(m.ends_with("type: object required, but have string"));
  Unified u = unify_unsafe(std::vector<const Type*>{d.type(), want});
  EXPECT_EQ(u.type, want);

  // Printing, under a budget.
  Limits l;
  // {"value":[[…1…]],"type":["tuple",[["tuple",[…"number"…]]]]}
  EXPECT_EQ(within(l, [&] { EXPECT_EQ(to_json_typed(d).value.size(), 18 + 200001 + 1200008u); }),
            std::nullopt);
  // Indentation: quadratic, stopped.
  EXPECT_EQ(within(l, [&] { render_hcl(d); }), Limit::StringSize);
  EXPECT_EQ(within(l, [&] { EXPECT_EQ(render_hcl(deep_tuple(1000)).size(), 2005001u); }),
            std::nullopt);
}

// --- YAML ------------------------------------------------------------------------------

// The "billion laughs" document: [levels] anchors, each a list of [fan]
// aliases of the one before.
std::string yaml_laughs(int levels, int fan) {
  std::string doc = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < levels; ++i) {
    std::string prev = "*l" + std::to_string(i - 1);
    doc += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < fan; ++j) doc += (j ? ", " : "") + prev;
    doc += "]\n";
  }
  return doc;
}

TEST(DeepValues, YamlBillionLaughsFailsFast) {
  Limits l = generous();
  l.max_memory = 1000000;
  for (std::string doc : {yaml_laughs(10, 9), yaml_laughs(40, 10)}) {
    EvalResult r = run("yamldecode(doc)", {{"doc", Value::string(doc)}}, l);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_NE(r.diagnostics[0].detail.find("document contains excessive aliasing"),
              std::string::npos)
        << r.diagnostics[0].detail;
  }
  // A few aliases are fine.
  EvalResult ok = run("yamldecode(doc)", {{"doc", Value::string(yaml_laughs(3, 9))}}, l);
  ASSERT_TRUE(ok.diagnostics.empty()) << first_summary(ok);
  EXPECT_EQ(ok.value.attr("l2")->element(8).element(8).element(8).as_string(), "lol");
}

TEST(DeepValues, YamlAliasRuleIsGoYamls) {
  // A flow sequence of one anchored list of 99 scalars (100 nodes) and k
  // aliases of it: with the document and the outer sequence, go-yaml counts
  // 102 + 101k nodes, 100k of them made by aliases. Its rule lets 3,965
  // aliases through and stops at the 3,966th (where 400,668 nodes allow
  // 98.98% from aliases and 98.99% are).
  auto doc = [](int k) {
    std::string d = "[&a [";
    for (int i = 0; i < 99; ++i) d += (i ? "," : "") + std::to_string(i);
    d += "]";
    for (int i = 0; i < k; ++i) d += ", *a";
    return d + "]";
  };
  EvalResult ok = run("length(yamldecode(doc))", {{"doc", Value::string(doc(3965))}});
  ASSERT_TRUE(ok.diagnostics.empty()) << ok.diagnostics[0].detail;
  EXPECT_EQ(ok.value.as_number().to_int64(), 3966);
  EvalResult bad = run("yamldecode(doc)", {{"doc", Value::string(doc(3966))}});
  ASSERT_EQ(bad.diagnostics.size(), 1u);
  EXPECT_NE(bad.diagnostics[0].detail.find("document contains excessive aliasing"),
            std::string::npos);
}

TEST(DeepValues, YamlAliasesNestNoDeeperThanDocuments) {
  // Each anchor nests the one before 4,000 levels deeper: within the alias
  // rule, but the third would make a value 12,000 levels deep.
  std::string doc;
  for (int k = 0; k < 3; ++k) {
    doc += "a" + std::to_string(k) + ": &a" + std::to_string(k) + " " + std::string(4000, '[');
    doc += k ? "*a" + std::to_string(k - 1) : "1";
    doc += std::string(4000, ']') + "\n";
  }
  EvalResult r = run("yamldecode(doc)", {{"doc", Value::string(doc)}});
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].detail.find("nests more than 10000 levels deep through aliases"),
            std::string::npos)
      << r.diagnostics[0].detail;
  doc.resize(doc.rfind("a2:"));
  EvalResult two = run("yamldecode(doc)", {{"doc", Value::string(doc)}});
  EXPECT_TRUE(two.diagnostics.empty());
}

TEST(DeepValues, YamlEncodingCountsItsText) {
  // 9^12 paths of three bytes: the text would be terabytes.
  Limits l = generous();
  EvalResult r = run("yamlencode(x)", {{"x", laughs(12, 9)}}, l);
  EXPECT_EQ(first_summary(r), limit_summary(Limit::StringSize));
  l.max_memory = 1000000;
  EvalResult m = run("yamlencode(x)", {{"x", laughs(12, 9)}}, l);
  EXPECT_EQ(first_summary(m), limit_summary(Limit::Memory));
  // Indentation makes the text of a deep value quadratic in its depth:
  // [[[...], 1], 1] puts each 1 on a line of its own, indented.
  Value pairs = Value::integer(1);
  for (int i = 0; i < 100000; ++i) pairs = Value::tuple({pairs, Value::integer(1)});
  EvalResult d = run("yamlencode(x)", {{"x", pairs}}, generous());
  EXPECT_EQ(first_summary(d), limit_summary(Limit::StringSize));
  EvalResult one_line = run("length(yamlencode(x))", {{"x", deep_tuple(100000)}}, generous());
  ASSERT_TRUE(one_line.diagnostics.empty()) << first_summary(one_line);
  EXPECT_EQ(one_line.value.as_number().to_int64(), 200002);  // "- - ... - 1\n"
  EvalResult small = run("yamlencode(x)", {{"x", laughs(3, 2)}});
  ASSERT_TRUE(small.diagnostics.empty());
  EXPECT_EQ(small.value.as_string(), "- - - \"lol\"\n    - \"lol\"\n  - - \"lol\"\n    - \"lol\"\n"
                                     "- - - \"lol\"\n    - \"lol\"\n  - - \"lol\"\n    - \"lol\"\n");
}

}  // namespace
}  // namespace hclvm

// Tests of static analysis (hclvm/analysis.h): the variables of an
// expression, traversals, keywords, static lists, maps and calls.
//
// kVariables comes from the oracle: `hcldec --var-refs` prints
// hclsyntax.Variables of an attribute's expression with the range of every
// step (each case written as `a = EXPR`, columns on line 1 shifted back by
// the four of "a = "). Each expected traversal is written as its rendering,
// then the range of each step. kStatic comes from a small Go program that
// calls the reference's hcl.AbsTraversalForExpr, RelTraversalForExpr,
// ExprAsKeyword, ExprList, ExprMap and ExprCall (hcl 2.14.1, whose code
// for these is the newest's) and renders traversals with hclwrite's
// TokensForTraversal. The remaining tests check what the tables do not
// show: steps and keys, pointers into the tree, renderings of unusual
// keys, what changed in the parser since 2.14.1, deep and broken trees.
#include <gtest/gtest.h>

#include <hclvm/analysis.h>
#include <hclvm/syntax.h>

#include <string>
#include <string_view>
#include <vector>

namespace hclvm {
namespace {

// Parses [src] as an expression; the test fails on syntax errors.
ExprParse parse(std::string_view src) {
  ExprParse p = parse_expression(make_source("test.hcl", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src << ": "
                               << (p.diagnostics.empty() ? "" : p.diagnostics[0].summary);
  EXPECT_NE(p.expr, nullptr) << src;
  return p;
}

// [r] as "line:col-line:col".
std::string short_range(const Range& r) {
  return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
         std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
}

// [t] as the tables write it: its rendering, then the range of each step.
std::string describe(const Traversal& t) {
  std::string s = t.to_string();
  for (const TraversalStep& step : t.steps) s += " " + short_range(step.range);
  return s;
}

// [d] as "summary|detail|subject".
std::string describe(const Diagnostic& d) {
  return d.summary + "|" + d.detail + "|" + (d.subject ? short_range(*d.subject) : "none");
}

struct VariablesCase {
  const char* src;
  std::vector<std::string> want;
};

// clang-format off
const VariablesCase kVariables[] = {
    {"true", {}},
    {"foo", {"foo 1:1-1:4"}},
    {"foo + bar", {"foo 1:1-1:4", "bar 1:7-1:10"}},
    {"-foo", {"foo 1:2-1:5"}},
    {"!a && b || c", {"a 1:2-1:3", "b 1:7-1:8", "c 1:12-1:13"}},
    {"foo ? bar : baz", {"foo 1:1-1:4", "bar 1:7-1:10", "baz 1:13-1:16"}},
    {"a ? b ? c : d : e", {"a 1:1-1:2", "b 1:5-1:6", "c 1:9-1:10", "d 1:13-1:14", "e 1:17-1:18"}},
    {"[for k, v in foo: v + baz if k < limit]", {"foo 1:14-1:17", "baz 1:23-1:26", "limit 1:34-1:39"}},
    {"{for k, v in foo: k + bar => v + baz if k < limit}", {"foo 1:14-1:17", "bar 1:23-1:26", "baz 1:34-1:37", "limit 1:45-1:50"}},
    {"{for k, v in m: k => v...}", {"m 1:14-1:15"}},
    {"{for k, v in m: k => 1}", {"m 1:14-1:15"}},
    {"data.null_data_source.multi[0]", {"data.null_data_source.multi[0] 1:1-1:5 1:5-1:22 1:22-1:28 1:28-1:31"}},
    {"sort(data.null_data_source.multi)[0]", {"data.null_data_source.multi 1:6-1:10 1:10-1:27 1:27-1:33"}},
    {"[for x in x: x]", {"x 1:11-1:12"}},
    {"[for v in v: v.w]", {"v 1:11-1:12"}},
    {"[for a in b: [for c in a: c + d + a]]", {"b 1:11-1:12", "d 1:31-1:32"}},
    {"[for a in b: [for c in a: c]] + [a, c]", {"b 1:11-1:12", "a 1:34-1:35", "c 1:37-1:38"}},
    {"[for v in vs: v] + [v]", {"vs 1:11-1:13", "v 1:21-1:22"}},
    {"[for v in vs: k]", {"vs 1:11-1:13", "k 1:15-1:16"}},
    {"[for v in vs: v if w]", {"vs 1:11-1:13", "w 1:20-1:21"}},
    {"[for i, v in vs: [i, v, j]]", {"vs 1:14-1:16", "j 1:25-1:26"}},
    {"{for k, v in m: v => k}", {"m 1:14-1:15"}},
    {"[for v in [for w in ws: w + v]: v + w]", {"ws 1:21-1:23", "v 1:29-1:30", "w 1:37-1:38"}},
    {"[for v in vs: v.*.id]", {"vs 1:11-1:13"}},
    {"[for v in vs: {v = v, (v) = w}]", {"vs 1:11-1:13", "w 1:29-1:30"}},
    {"a.*.b", {"a 1:1-1:2"}},
    {"a.*.b[c]", {"a 1:1-1:2", "c 1:7-1:8"}},
    {"a[*].b[c]", {"a 1:1-1:2", "c 1:8-1:9"}},
    {"a.*.b[0]", {"a 1:1-1:2"}},
    {"a[*]", {"a 1:1-1:2"}},
    {"a[*][b]", {"a 1:1-1:2", "b 1:6-1:7"}},
    {"a[*].b[*].c", {"a 1:1-1:2"}},
    {"[a, b][*].c", {"a 1:2-1:3", "b 1:5-1:6"}},
    {"(a)", {"a 1:2-1:3"}},
    {"(a).b", {"a 1:2-1:3"}},
    {"(a.b)[0]", {"a.b 1:2-1:3 1:3-1:5"}},
    {"(a + b).c", {"a 1:2-1:3", "b 1:6-1:7"}},
    {"f(a).b", {"a 1:3-1:4"}},
    {"f(a)[b].c", {"a 1:3-1:4", "b 1:6-1:7"}},
    {"null.a", {}},
    {"true.a", {}},
    {"a[b]", {"a 1:1-1:2", "b 1:3-1:4"}},
    {"a[0]", {"a[0] 1:1-1:2 1:2-1:5"}},
    {"a[\"k\"].c", {"a[\"k\"].c 1:1-1:2 1:2-1:7 1:7-1:9"}},
    {"a[b].c", {"a 1:1-1:2", "b 1:3-1:4"}},
    {"a.0.b", {"a[0].b 1:1-1:2 1:2-1:4 1:4-1:6"}},
    {"a.0", {"a[0] 1:1-1:2 1:2-1:4"}},
    {"a[b][c]", {"a 1:1-1:2", "b 1:3-1:4", "c 1:6-1:7"}},
    {"a[0][b]", {"a[0] 1:1-1:2 1:2-1:5", "b 1:6-1:7"}},
    {"a[b.c].d", {"a 1:1-1:2", "b.c 1:3-1:4 1:4-1:6"}},
    {"a.b[c.d].e", {"a.b 1:1-1:2 1:2-1:4", "c.d 1:5-1:6 1:6-1:8"}},
    {"a[1.50]", {"a[1.5] 1:1-1:2 1:2-1:8"}},
    {"a[true][null]", {"a[true][null] 1:1-1:2 1:2-1:8 1:8-1:14"}},
    {"x[0][\"k\"].y.1[true][null]", {"x[0][\"k\"].y[1][true][null] 1:1-1:2 1:2-1:5 1:5-1:10 1:10-1:12 1:12-1:14 1:14-1:20 1:20-1:26"}},
    {"a[\"${b}\"]", {"a 1:1-1:2", "b 1:6-1:7"}},
    {"a + a", {"a 1:1-1:2", "a 1:5-1:6"}},
    {"f()", {}},
    {"f(a, b...)", {"a 1:3-1:4", "b 1:6-1:7"}},
    {"f(g(a), [b], {c = d})", {"a 1:5-1:6", "b 1:10-1:11", "d 1:19-1:20"}},
    {"{a = 1}", {}},
    {"{a = b}", {"b 1:6-1:7"}},
    {"{(a) = 1}", {"a 1:3-1:4"}},
    {"{\"${a}\" = 1}", {"a 1:5-1:6"}},
    {"{\"a\" = b}", {"b 1:8-1:9"}},
    {"{a.b = 1}", {"a.b 1:2-1:3 1:3-1:5"}},
    {"{null = x}", {"x 1:9-1:10"}},
    {"{true = 1}", {}},
    {"{a: b, c: d}", {"b 1:5-1:6", "d 1:11-1:12"}},
    {"{(a.b) = c}", {"a.b 1:3-1:4 1:4-1:6", "c 1:10-1:11"}},
    {"{(a): b}", {"a 1:3-1:4", "b 1:7-1:8"}},
    {"{a[0] = 1}", {"a[0] 1:2-1:3 1:3-1:6"}},
    {"{f(a) = 1}", {"a 1:4-1:5"}},
    {"{\"${a}${b}\" = c}", {"a 1:5-1:6", "b 1:9-1:10", "c 1:15-1:16"}},
    {"{a = {b = c}}", {"c 1:11-1:12"}},
    {"\"${a} and ${b.c}\"", {"a 1:4-1:5", "b.c 1:13-1:14 1:14-1:16"}},
    {"\"${a}\"", {"a 1:4-1:5"}},
    {"\"x${a}\"", {"a 1:5-1:6"}},
    {"\"%{if a}${b}%{else}${c}%{endif}\"", {"a 1:7-1:8", "b 1:11-1:12", "c 1:22-1:23"}},
    {"\"%{for x in xs}${x}${y}%{endfor}\"", {"xs 1:13-1:15", "y 1:22-1:23"}},
    {"\"%{for k, v in m}${k}=${v}${sep}%{endfor}\"", {"m 1:16-1:17", "sep 1:29-1:32"}},
    {"\"%{for x in xs}%{for y in x}${y}${x}${z}%{endfor}%{endfor}\"", {"xs 1:13-1:15", "z 1:39-1:40"}},
    {"\"é${a}\"", {"a 1:5-1:6"}},
    {"café.x", {"café.x 1:1-1:5 1:5-1:7"}},
    {"\"🎉${a.b}\"", {"a.b 1:5-1:6 1:6-1:8"}},
    {"[a, [b, [c]]]", {"a 1:2-1:3", "b 1:6-1:7", "c 1:10-1:11"}},
    {"{}", {}},
    {"[]", {}},
    {"a.b.c", {"a.b.c 1:1-1:2 1:2-1:4 1:4-1:6"}},
    {"a.b[0].c", {"a.b[0].c 1:1-1:2 1:2-1:4 1:4-1:7 1:7-1:9"}},
    {"a[*].b", {"a 1:1-1:2"}},
    {"<<EOT\nhello ${name}\nEOT\n", {"name 2:9-2:13"}},
    {"<<-EOT\n  ${a.b}\n  %{ for x in xs ~}\n  ${x}${y}\n  %{ endfor ~}\n  EOT\n", {"a.b 2:5-2:6 2:6-2:8", "xs 3:15-3:17", "y 4:9-4:10"}},
    {"[\n  a,\n  b.c,\n]", {"a 2:3-2:4", "b.c 3:3-3:4 3:4-3:6"}},
    {"{\n  k = v\n  (k2) = v2\n}", {"v 2:7-2:8", "k2 3:4-3:6", "v2 3:10-3:12"}},
    {"[for k, v in m: k][v]", {"m 1:14-1:15", "v 1:20-1:21"}},
    {"[for v in vs: v][0].x", {"vs 1:11-1:13"}},
    {"{for k, v in m: k => v if v != k && z}", {"m 1:14-1:15", "z 1:37-1:38"}},
    {"[for v in vs: v ? a : v]", {"vs 1:11-1:13", "a 1:19-1:20"}},
    {"[for v in vs: v[*].x[y]]", {"vs 1:11-1:13", "y 1:22-1:23"}},
    {"[for v in vs: f(v, w...)]", {"vs 1:11-1:13", "w 1:20-1:21"}},
    {"[for v in vs: \"${v}-${w}\"]", {"vs 1:11-1:13", "w 1:23-1:24"}},
    {"\"${~ a ~}\"", {"a 1:6-1:7"}},
    {"\"${a}%{if b ~} c %{~ endif}\"", {"a 1:4-1:5", "b 1:11-1:12"}},
    {"!(a)", {"a 1:3-1:4"}},
    {"(((a)))", {"a 1:4-1:5"}},
    {"a[(b)]", {"a 1:1-1:2", "b 1:4-1:5"}},
};
// clang-format on

TEST(Variables, MatchesTheOracle) {
  for (const VariablesCase& c : kVariables) {
    ExprParse p = parse(c.src);
    if (p.expr == nullptr) continue;
    std::vector<std::string> got;
    for (const Traversal& t : variables(*p.expr, *p.source)) got.push_back(describe(t));
    EXPECT_EQ(got, c.want) << c.src;
  }
}

// Namespaced functions came after the oracle's release: their arguments
// are walked like any call's.
TEST(Variables, NamespacedFunctionArguments) {
  ExprParse p = parse("provider::ns::fn(a, b.c...)");
  std::vector<std::string> got;
  for (const Traversal& t : variables(*p.expr, *p.source)) got.push_back(describe(t));
  EXPECT_EQ(got, (std::vector<std::string>{"a 1:18-1:19", "b.c 1:21-1:22 1:22-1:24"}));
}

// The reference's variables_test.go: the roots of a `for` are masked in
// its key, value and condition only.
TEST(Variables, ForSymbolsAreMaskedOnlyInside) {
  ExprParse p = parse("{for k, v in foo: k + bar => v + baz if k < limit} + [k, v]");
  std::vector<std::string> got;
  for (const Traversal& t : variables(*p.expr, *p.source)) got.push_back(t.to_string());
  EXPECT_EQ(got, (std::vector<std::string>{"foo", "bar", "baz", "limit", "k", "v"}));
}

TEST(Variables, NodesPointIntoTheTree) {
  ExprParse p = parse("a + b.c");
  ASSERT_EQ(p.expr->kind, ast::ExprKind::Binary);
  const auto& bin = ast::as<ast::BinaryExpr>(*p.expr);
  std::vector<const ast::ScopeTraversalExpr*> nodes = variable_nodes(*p.expr);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(static_cast<const ast::Expr*>(nodes[0]), bin.lhs);
  EXPECT_EQ(static_cast<const ast::Expr*>(nodes[1]), bin.rhs);
  EXPECT_EQ(nodes[1]->steps.size, 2u);
}

// The walk keeps its own stack: nesting deeper than a thread's stack
// could recurse through is fine.
TEST(Variables, DeepNesting) {
  constexpr int kDepth = 9000;
  std::string src = std::string(kDepth, '[') + "x" + std::string(kDepth, ']') + " + y";
  ExprParse p = parse_expression(make_source("deep.hcl", src));
  if (p.has_errors() || p.expr == nullptr) GTEST_SKIP() << "the parser refuses this depth";
  std::vector<Traversal> vars = variables(*p.expr, *p.source);
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_EQ(vars[0].to_string(), "x");
  EXPECT_EQ(vars[1].to_string(), "y");
}

// Trees with syntax errors are partial: every entry point must cope.
TEST(StaticAnalysis, PartialTrees) {
  const char* broken[] = {
      "a +",   "[for x in", "{a = ",    "f(a,",   "a.",
      "a[",    "\"${",      "x ? y",    "a.*.",   "{(a) =}",
      "(",     "a[*",       "f(a...",   "<<EOT\n${",
      "[for x in y: x if",  "{for k, v in m: k =>", "\"%{for x in y}${x}",
  };
  for (const char* src : broken) {
    ExprParse p = parse_expression(make_source("bad.hcl", src));
    EXPECT_TRUE(p.has_errors()) << src;
    if (p.expr == nullptr) continue;
    (void)variables(*p.expr, *p.source);
    (void)abs_traversal_for_expr(*p.expr, *p.source);
    (void)rel_traversal_for_expr(*p.expr, *p.source);
    (void)expr_as_keyword(*p.expr);
    (void)expr_list(*p.expr, *p.source);
    (void)expr_map(*p.expr, *p.source);
    (void)expr_call(*p.expr, *p.source);
  }
}

const char* const kNotATraversal =
    "A single static variable reference is required: only attribute access and indexing with "
    "constant keys. No calculations, function calls, template expressions, etc are allowed here.";

// What each entry point answers for an expression, or for the key [key] of
// an object constructor (-1: the expression itself). Traversals are
// written as describe() does; "ERR r" is an "Invalid expression" error
// on range r; lists and maps give their length, calls "name name_range
// args args_range".
struct StaticCase {
  const char* src;
  int key;
  const char* abs;
  const char* rel;
  const char* keyword;
  const char* list;
  const char* map;
  const char* call;
};

// clang-format off
const StaticCase kStatic[] = {
    {"a", -1, "a 1:1-1:2", ".a 1:1-1:2", "a", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"a.b.c", -1, "a.b.c 1:1-1:2 1:2-1:4 1:4-1:6", ".a.b.c 1:1-1:2 1:2-1:4 1:4-1:6", "", "ERR 1:1-1:6", "ERR 1:1-1:6", "ERR 1:1-1:6"},
    {"a[0][\"k\"].b.1", -1, "a[0][\"k\"].b[1] 1:1-1:2 1:2-1:5 1:5-1:10 1:10-1:12 1:12-1:14", ".a[0][\"k\"].b[1] 1:1-1:2 1:2-1:5 1:5-1:10 1:10-1:12 1:12-1:14", "", "ERR 1:1-1:14", "ERR 1:1-1:14", "ERR 1:1-1:14"},
    {"a[true][null][1.50]", -1, "a[true][null][1.5] 1:1-1:2 1:2-1:8 1:8-1:14 1:14-1:20", ".a[true][null][1.5] 1:1-1:2 1:2-1:8 1:8-1:14 1:14-1:20", "", "ERR 1:1-1:20", "ERR 1:1-1:20", "ERR 1:1-1:20"},
    {"null", -1, "null 1:1-1:5", ".null 1:1-1:5", "null", "ERR 1:1-1:5", "ERR 1:1-1:5", "ERR 1:1-1:5"},
    {"true", -1, "true 1:1-1:5", ".true 1:1-1:5", "true", "ERR 1:1-1:5", "ERR 1:1-1:5", "ERR 1:1-1:5"},
    {"false", -1, "false 1:1-1:6", ".false 1:1-1:6", "false", "ERR 1:1-1:6", "ERR 1:1-1:6", "ERR 1:1-1:6"},
    {"null.a", -1, "null.a 1:1-1:5 1:5-1:7", ".null.a 1:1-1:5 1:5-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"true[0].b", -1, "true[0].b 1:1-1:5 1:5-1:8 1:8-1:10", ".true[0].b 1:1-1:5 1:5-1:8 1:8-1:10", "", "ERR 1:1-1:10", "ERR 1:1-1:10", "ERR 1:1-1:10"},
    {"(a)", -1, "ERR 1:1-1:4", "ERR 1:1-1:4", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"(a).b", -1, "ERR 1:1-1:6", "ERR 1:1-1:6", "", "ERR 1:1-1:6", "ERR 1:1-1:6", "ERR 1:1-1:6"},
    {"(\n  a.b\n)", -1, "ERR 1:1-3:2", "ERR 1:1-3:2", "", "ERR 2:3-2:6", "ERR 2:3-2:6", "ERR 2:3-2:6"},
    {"a[b]", -1, "ERR 1:1-1:5", "ERR 1:1-1:5", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"a[b].c", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"a[0][b]", -1, "ERR 1:1-1:8", "ERR 1:1-1:8", "", "ERR 1:5-1:6", "ERR 1:5-1:6", "ERR 1:5-1:6"},
    {"f(a)", -1, "ERR 1:1-1:5", "ERR 1:1-1:5", "", "ERR 1:1-1:3", "ERR 1:1-1:3", "f 1:1-1:2 1 1:2-1:5"},
    {"f(a).b", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"a + b", -1, "ERR 1:1-1:6", "ERR 1:1-1:6", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"-a", -1, "ERR 1:1-1:3", "ERR 1:1-1:3", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"!a", -1, "ERR 1:1-1:3", "ERR 1:1-1:3", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"a ? b : c", -1, "ERR 1:1-1:10", "ERR 1:1-1:10", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"\"${a}\"", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"\"a\"", -1, "ERR 1:1-1:4", "ERR 1:1-1:4", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"<<EOT\n${a}\nEOT\n", -1, "ERR 1:1-3:4", "ERR 1:1-3:4", "", "ERR 2:3-2:4", "ERR 2:3-2:4", "ERR 2:3-2:4"},
    {"a.*.b", -1, "ERR 1:1-1:6", "ERR 1:1-1:6", "", "ERR 1:2-1:4", "ERR 1:2-1:4", "ERR 1:2-1:4"},
    {"a[*]", -1, "ERR 1:1-1:5", "ERR 1:1-1:5", "", "ERR 1:2-1:5", "ERR 1:2-1:5", "ERR 1:2-1:5"},
    {"[a]", -1, "ERR 1:1-1:4", "ERR 1:1-1:4", "", "1", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"{a = 1}", -1, "ERR 1:1-1:8", "ERR 1:1-1:8", "", "ERR 1:1-1:2", "1", "ERR 1:1-1:2"},
    {"{a = 1}", 0, "a 1:2-1:3", ".a 1:2-1:3", "a", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"[for x in a: x]", -1, "ERR 1:1-1:16", "ERR 1:1-1:16", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"1", -1, "ERR 1:1-1:2", "ERR 1:1-1:2", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"1.foo", -1, "ERR 1:1-1:6", "ERR 1:1-1:6", "", "ERR 1:1-1:6", "ERR 1:1-1:6", "ERR 1:1-1:6"},
    {"a.b[0]", -1, "a.b[0] 1:1-1:2 1:2-1:4 1:4-1:7", ".a.b[0] 1:1-1:2 1:2-1:4 1:4-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"x ? [1] : [2]", -1, "ERR 1:1-1:14", "ERR 1:1-1:14", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"\"a${b}\"", -1, "ERR 1:1-1:8", "ERR 1:1-1:8", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"(\n  x + y\n)", -1, "ERR 1:1-3:2", "ERR 1:1-3:2", "", "ERR 2:3-2:4", "ERR 2:3-2:4", "ERR 2:3-2:4"},
    {"([1, 2])", -1, "ERR 1:1-1:9", "ERR 1:1-1:9", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"[1][0]", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"({a = 1})", -1, "ERR 1:1-1:10", "ERR 1:1-1:10", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"{for k, v in m: k => v}", -1, "ERR 1:1-1:24", "ERR 1:1-1:24", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"(f(a))", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:2-1:4", "ERR 1:2-1:4", "ERR 1:2-1:4"},
    {"f(a)[0]", -1, "ERR 1:1-1:8", "ERR 1:1-1:8", "", "ERR 1:1-1:8", "ERR 1:1-1:8", "ERR 1:1-1:8"},
    {"f(a)[b]", -1, "ERR 1:1-1:8", "ERR 1:1-1:8", "", "ERR 1:5-1:6", "ERR 1:5-1:6", "ERR 1:5-1:6"},
    {"[f(a)]", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "1", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"f(\n  a,\n  b,\n)", -1, "ERR 1:1-4:2", "ERR 1:1-4:2", "", "ERR 1:1-1:3", "ERR 1:1-1:3", "f 1:1-1:2 2 1:2-4:2"},
    {"join(\",\", xs...)", -1, "ERR 1:1-1:17", "ERR 1:1-1:17", "", "ERR 1:1-1:6", "ERR 1:1-1:6", "join 1:1-1:5 2 1:5-1:17"},
    {"f()", -1, "ERR 1:1-1:4", "ERR 1:1-1:4", "", "ERR 1:1-1:3", "ERR 1:1-1:3", "f 1:1-1:2 0 1:2-1:4"},
    {"café", -1, "café 1:1-1:5", ".café 1:1-1:5", "café", "ERR 1:1-1:5", "ERR 1:1-1:5", "ERR 1:1-1:5"},
    {"foo[*]", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:4-1:7", "ERR 1:4-1:7", "ERR 1:4-1:7"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", -1, "ERR 1:1-1:144", "ERR 1:1-1:144", "", "ERR 1:1-1:2", "14", "ERR 1:1-1:2"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 0, "a 1:2-1:3", ".a 1:2-1:3", "a", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 1, "ERR 1:9-1:12", "ERR 1:9-1:12", "", "ERR 1:10-1:11", "ERR 1:10-1:11", "ERR 1:10-1:11"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 2, "c.d 1:18-1:19 1:19-1:21", ".c.d 1:18-1:19 1:19-1:21", "", "ERR 1:18-1:21", "ERR 1:18-1:21", "ERR 1:18-1:21"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 3, "ERR 1:27-1:30", "ERR 1:27-1:30", "", "ERR 1:28-1:29", "ERR 1:28-1:29", "ERR 1:28-1:29"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 4, "null 1:36-1:40", ".null 1:36-1:40", "null", "ERR 1:36-1:40", "ERR 1:36-1:40", "ERR 1:36-1:40"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 5, "ERR 1:46-1:50", "ERR 1:46-1:50", "", "ERR 1:46-1:48", "ERR 1:46-1:48", "ERR 1:46-1:48"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 6, "ERR 1:56-1:62", "ERR 1:56-1:62", "", "ERR 1:56-1:57", "ERR 1:56-1:57", "ERR 1:56-1:57"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 7, "ERR 1:68-1:70", "ERR 1:68-1:70", "", "ERR 1:68-1:69", "ERR 1:68-1:69", "ERR 1:68-1:69"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 8, "ERR 1:76-1:82", "ERR 1:76-1:82", "", "ERR 1:77-1:79", "ERR 1:77-1:79", "ERR 1:77-1:79"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 9, "true 1:88-1:92", ".true 1:88-1:92", "true", "ERR 1:88-1:92", "ERR 1:88-1:92", "ERR 1:88-1:92"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 10, "ERR 1:99-1:105", "ERR 1:99-1:105", "", "ERR 1:99-1:105", "ERR 1:99-1:105", "ERR 1:99-1:105"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 11, "i[0] 1:112-1:113 1:113-1:116", ".i[0] 1:112-1:113 1:113-1:116", "", "ERR 1:112-1:116", "ERR 1:112-1:116", "ERR 1:112-1:116"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 12, "ERR 1:123-1:126", "ERR 1:123-1:126", "", "ERR 1:124-1:125", "ERR 1:124-1:125", "ERR 1:124-1:125"},
    {"{a = 1, (b) = 2, c.d = 3, \"e\" = 4, null = 5, f(x) = 6, [1, 2] = 7, {} = 8, (g(y)) = 9, true = 10, \"${h}\" = 11, i[0] = 12, (j) = 13, k.*.l = 14}", 13, "ERR 1:133-1:138", "ERR 1:133-1:138", "", "ERR 1:134-1:136", "ERR 1:134-1:136", "ERR 1:134-1:136"},
    {"{\"foo\":true,\"bar\":false}", -1, "ERR 1:1-1:25", "ERR 1:1-1:25", "", "ERR 1:1-1:2", "2", "ERR 1:1-1:2"},
    {"{\"foo\":true,\"bar\":false}", 0, "ERR 1:2-1:7", "ERR 1:2-1:7", "", "ERR 1:3-1:6", "ERR 1:3-1:6", "ERR 1:3-1:6"},
    {"{\"foo\":true,\"bar\":false}", 1, "ERR 1:13-1:18", "ERR 1:13-1:18", "", "ERR 1:14-1:17", "ERR 1:14-1:17", "ERR 1:14-1:17"},
    {"{}", -1, "ERR 1:1-1:3", "ERR 1:1-1:3", "", "ERR 1:1-1:2", "0", "ERR 1:1-1:2"},
    {"[]", -1, "ERR 1:1-1:3", "ERR 1:1-1:3", "", "0", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"[a, b.c, 1]", -1, "ERR 1:1-1:12", "ERR 1:1-1:12", "", "3", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"a[\"é\"]", -1, "a[\"é\"] 1:1-1:2 1:2-1:7", ".a[\"é\"] 1:1-1:2 1:2-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"a[1e3]", -1, "a[1000] 1:1-1:2 1:2-1:7", ".a[1000] 1:1-1:2 1:2-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"a[0.10]", -1, "a[0.1] 1:1-1:2 1:2-1:8", ".a[0.1] 1:1-1:2 1:2-1:8", "", "ERR 1:1-1:8", "ERR 1:1-1:8", "ERR 1:1-1:8"},
    {"a[false]", -1, "a[false] 1:1-1:2 1:2-1:9", ".a[false] 1:1-1:2 1:2-1:9", "", "ERR 1:1-1:9", "ERR 1:1-1:9", "ERR 1:1-1:9"},
    {"a.b.0.c", -1, "a.b[0].c 1:1-1:2 1:2-1:4 1:4-1:6 1:6-1:8", ".a.b[0].c 1:1-1:2 1:2-1:4 1:4-1:6 1:6-1:8", "", "ERR 1:1-1:8", "ERR 1:1-1:8", "ERR 1:1-1:8"},
    {"\"🎉${a.b}\"", -1, "ERR 1:1-1:10", "ERR 1:1-1:10", "", "ERR 1:2-1:3", "ERR 1:2-1:3", "ERR 1:2-1:3"},
    {"\"é${a}\".x", -1, "ERR 1:1-1:10", "ERR 1:1-1:10", "", "ERR 1:1-1:10", "ERR 1:1-1:10", "ERR 1:1-1:10"},
    {"<<EOT\nhello\nEOT\n", -1, "ERR 1:1-3:4", "ERR 1:1-3:4", "", "ERR 2:1-3:1", "ERR 2:1-3:1", "ERR 2:1-3:1"},
    {"\"${a}\".b", -1, "ERR 1:1-1:9", "ERR 1:1-1:9", "", "ERR 1:1-1:9", "ERR 1:1-1:9", "ERR 1:1-1:9"},
    {"a[*].b", -1, "ERR 1:1-1:7", "ERR 1:1-1:7", "", "ERR 1:2-1:5", "ERR 1:2-1:5", "ERR 1:2-1:5"},
    {"a[*][0]", -1, "ERR 1:1-1:8", "ERR 1:1-1:8", "", "ERR 1:2-1:5", "ERR 1:2-1:5", "ERR 1:2-1:5"},
    {"<<-EOT\n  ${a}\n  EOT\n", -1, "ERR 1:1-3:6", "ERR 1:1-3:6", "", "ERR 2:3-2:3", "ERR 2:3-2:3", "ERR 2:3-2:3"},
    {"!(a)", -1, "ERR 1:1-1:5", "ERR 1:1-1:5", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"((a))", -1, "ERR 1:1-1:6", "ERR 1:1-1:6", "", "ERR 1:3-1:4", "ERR 1:3-1:4", "ERR 1:3-1:4"},
    {"null[0]", -1, "null[0] 1:1-1:5 1:5-1:8", ".null[0] 1:1-1:5 1:5-1:8", "", "ERR 1:1-1:8", "ERR 1:1-1:8", "ERR 1:1-1:8"},
    {"true.false.null", -1, "true.false.null 1:1-1:5 1:5-1:11 1:11-1:16", ".true.false.null 1:1-1:5 1:5-1:11 1:11-1:16", "", "ERR 1:1-1:16", "ERR 1:1-1:16", "ERR 1:1-1:16"},
    {"a.null", -1, "a.null 1:1-1:2 1:2-1:7", ".a.null 1:1-1:2 1:2-1:7", "", "ERR 1:1-1:7", "ERR 1:1-1:7", "ERR 1:1-1:7"},
    {"a.b[c.d].e", -1, "ERR 1:1-1:11", "ERR 1:1-1:11", "", "ERR 1:1-1:11", "ERR 1:1-1:11", "ERR 1:1-1:11"},
    {"[for k, v in m: k]", -1, "ERR 1:1-1:19", "ERR 1:1-1:19", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"{for k, v in m: k => v}", -1, "ERR 1:1-1:24", "ERR 1:1-1:24", "", "ERR 1:1-1:2", "ERR 1:1-1:2", "ERR 1:1-1:2"},
    {"\"${a}${b}\"", -1, "ERR 1:1-1:11", "ERR 1:1-1:11", "", "ERR 1:4-1:5", "ERR 1:4-1:5", "ERR 1:4-1:5"},
    {"\"%{if a}b%{endif}\"", -1, "ERR 1:1-1:19", "ERR 1:1-1:19", "", "ERR 1:7-1:8", "ERR 1:7-1:8", "ERR 1:7-1:8"},
    {"\"%{for x in xs}${x}%{endfor}\"", -1, "ERR 1:1-1:30", "ERR 1:1-1:30", "", "ERR 1:2-1:16", "ERR 1:2-1:16", "ERR 1:2-1:16"},
    {"{(a) = 1, a = 2, \"a\" = 3}", -1, "ERR 1:1-1:26", "ERR 1:1-1:26", "", "ERR 1:1-1:2", "3", "ERR 1:1-1:2"},
    {"{(a) = 1, a = 2, \"a\" = 3}", 0, "ERR 1:2-1:5", "ERR 1:2-1:5", "", "ERR 1:3-1:4", "ERR 1:3-1:4", "ERR 1:3-1:4"},
    {"{(a) = 1, a = 2, \"a\" = 3}", 1, "a 1:11-1:12", ".a 1:11-1:12", "a", "ERR 1:11-1:12", "ERR 1:11-1:12", "ERR 1:11-1:12"},
    {"{(a) = 1, a = 2, \"a\" = 3}", 2, "ERR 1:18-1:21", "ERR 1:18-1:21", "", "ERR 1:19-1:20", "ERR 1:19-1:20", "ERR 1:19-1:20"},
    {"{ [x] = 1, {} = 2, f() = 3, (f()) = 4 }", -1, "ERR 1:1-1:40", "ERR 1:1-1:40", "", "ERR 1:1-1:2", "4", "ERR 1:1-1:2"},
    {"{ [x] = 1, {} = 2, f() = 3, (f()) = 4 }", 0, "ERR 1:3-1:6", "ERR 1:3-1:6", "", "ERR 1:3-1:4", "ERR 1:3-1:4", "ERR 1:3-1:4"},
    {"{ [x] = 1, {} = 2, f() = 3, (f()) = 4 }", 1, "ERR 1:12-1:14", "ERR 1:12-1:14", "", "ERR 1:12-1:13", "ERR 1:12-1:13", "ERR 1:12-1:13"},
    {"{ [x] = 1, {} = 2, f() = 3, (f()) = 4 }", 2, "ERR 1:20-1:23", "ERR 1:20-1:23", "", "ERR 1:20-1:22", "ERR 1:20-1:22", "ERR 1:20-1:22"},
    {"{ [x] = 1, {} = 2, f() = 3, (f()) = 4 }", 3, "ERR 1:29-1:34", "ERR 1:29-1:34", "", "ERR 1:30-1:32", "ERR 1:30-1:32", "ERR 1:30-1:32"},
};
// clang-format on

// Returns [d] as the table writes it, checking that it is the one
// "Invalid expression" error with [detail].
std::string error_entry(const Diagnostics& d, std::string_view detail) {
  if (d.size() != 1 || d[0].severity != Severity::Error || d[0].summary != "Invalid expression" ||
      d[0].detail != detail || !d[0].subject || d[0].subject->filename != "test.hcl")
    return "unexpected diagnostics";
  return "ERR " + short_range(*d[0].subject);
}

// Returns traversal result [r] as the table writes it.
std::string traversal_entry(const TraversalResult& r) {
  if (r.has_errors())
    return r.traversal.empty() ? error_entry(r.diagnostics, kNotATraversal) : "both";
  return r.diagnostics.empty() ? describe(r.traversal) : "warnings";
}

// The table was made by running the reference's functions (hcl 2.14.1,
// whose static analysis is the newest's) on each expression; inputs whose
// parse changed since, like a `"$${x}"` index key, are tested below.
TEST(StaticAnalysis, MatchesTheReference) {
  for (const StaticCase& c : kStatic) {
    ExprParse p = parse(c.src);
    if (p.expr == nullptr) continue;
    const Source& src = *p.source;
    const ast::Expr* e = p.expr;
    std::string where = std::string(c.src) + " key " + std::to_string(c.key);
    if (c.key >= 0) {
      ExprMapResult m = expr_map(*p.expr, src);
      ASSERT_LT(size_t(c.key), m.pairs.size()) << where;
      e = m.pairs[size_t(c.key)].key;
    }
    EXPECT_EQ(traversal_entry(abs_traversal_for_expr(*e, src)), c.abs) << where;
    EXPECT_EQ(traversal_entry(rel_traversal_for_expr(*e, src)), c.rel) << where;
    EXPECT_EQ(expr_as_keyword(*e), c.keyword) << where;

    ExprListResult l = expr_list(*e, src);
    EXPECT_EQ(l.has_errors() ? error_entry(l.diagnostics, "A static list expression is required.")
                             : std::to_string(l.items.size()),
              c.list)
        << where;
    ExprMapResult m = expr_map(*e, src);
    EXPECT_EQ(m.has_errors() ? error_entry(m.diagnostics, "A static map expression is required.")
                             : std::to_string(m.pairs.size()),
              c.map)
        << where;
    ExprCallResult k = expr_call(*e, src);
    std::string call = k.has_errors()
                           ? error_entry(k.diagnostics, "A static function call is required.")
                           : std::string(k.call.name) + " " + short_range(k.call.name_range) + " " +
                                 std::to_string(k.call.arguments.size()) + " " +
                                 short_range(k.call.args_range);
    EXPECT_EQ(call, c.call) << where;
  }
}

TEST(AbsTraversalForExpr, Steps) {
  ExprParse p = parse("a.b[0][\"k\"]");
  TraversalResult r = abs_traversal_for_expr(*p.expr, *p.source);
  ASSERT_FALSE(r.has_errors());
  const std::vector<TraversalStep>& s = r.traversal.steps;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].kind, TraversalStep::Kind::Root);
  EXPECT_EQ(s[0].name, "a");
  EXPECT_EQ(s[1].kind, TraversalStep::Kind::Attr);
  EXPECT_EQ(s[1].name, "b");
  EXPECT_EQ(s[2].kind, TraversalStep::Kind::Index);
  ASSERT_EQ(s[2].key.type(), Type::number());
  EXPECT_EQ(s[2].key.as_number().text(), "0");
  EXPECT_EQ(s[3].kind, TraversalStep::Kind::Index);
  ASSERT_EQ(s[3].key.type(), Type::string());
  EXPECT_EQ(s[3].key.as_string(), "k");
  EXPECT_EQ(r.traversal.root_name(), "a");
  EXPECT_EQ(short_range(r.traversal.range()), "1:1-1:12");
  EXPECT_EQ(r.traversal.range().start.byte, 0u);
  EXPECT_EQ(r.traversal.range().end.byte, 11u);
}

TEST(RelTraversalForExpr, RootBecomesAnAttribute) {
  struct Case {
    const char* src;
    const char* want;
  };
  const Case cases[] = {
      {"foo", ".foo 1:1-1:4"},
      {"foo.bar[0]", ".foo.bar[0] 1:1-1:4 1:4-1:8 1:8-1:11"},
      {"null", ".null 1:1-1:5"},
      {"false.x", ".false.x 1:1-1:6 1:6-1:8"},
  };
  for (const Case& c : cases) {
    ExprParse p = parse(c.src);
    TraversalResult r = rel_traversal_for_expr(*p.expr, *p.source);
    ASSERT_FALSE(r.has_errors()) << c.src;
    EXPECT_EQ(describe(r.traversal), c.want) << c.src;
    EXPECT_TRUE(r.traversal.is_relative()) << c.src;
    EXPECT_EQ(r.traversal.steps[0].kind, TraversalStep::Kind::Attr) << c.src;
    EXPECT_EQ(r.traversal.root_name(), "") << c.src;
  }
  ExprParse p = parse("f(x)");
  TraversalResult r = rel_traversal_for_expr(*p.expr, *p.source);
  EXPECT_TRUE(r.traversal.empty());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(describe(r.diagnostics[0]),
            std::string("Invalid expression|") + kNotATraversal + "|1:1-1:5");
}

TEST(ExprList, Items) {
  ExprParse p = parse("[a, b.c, 1]");
  ExprListResult r = expr_list(*p.expr, *p.source);
  ASSERT_FALSE(r.has_errors());
  const auto& tuple = ast::as<ast::TupleExpr>(*p.expr);
  ASSERT_EQ(r.items.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(r.items[i], tuple.items[i]);
  EXPECT_EQ(expr_as_keyword(*r.items[0]), "a");

  ExprParse empty = parse("[]");
  ExprListResult e = expr_list(*empty.expr, *empty.source);
  EXPECT_FALSE(e.has_errors());
  EXPECT_TRUE(e.diagnostics.empty());
  EXPECT_TRUE(e.items.empty());
}

// Object keys are ObjectKeyExpr nodes. The reference's unwrapping does
// not see through them (their UnwrapExpression has hclsyntax's signature,
// not hcl's), so a key `[x]` is no static list, though what it wraps is.
TEST(ExprMap, KeysDoNotUnwrap) {
  ExprParse p = parse("{a = 1, [x] = 2, f() = 3}");
  ExprMapResult m = expr_map(*p.expr, *p.source);
  ASSERT_EQ(m.pairs.size(), 3u);
  for (const KeyValuePair& kv : m.pairs) EXPECT_EQ(kv.key->kind, ast::ExprKind::ObjectKey);
  const ast::Expr& tuple_key = *m.pairs[1].key;
  EXPECT_EQ(error_entry(expr_list(tuple_key, *p.source).diagnostics,
                        "A static list expression is required."),
            "ERR 1:9-1:10");
  EXPECT_EQ(expr_list(*ast::as<ast::ObjectKeyExpr>(tuple_key).wrapped, *p.source).items.size(), 1u);
  EXPECT_TRUE(expr_call(*m.pairs[2].key, *p.source).has_errors());
  EXPECT_EQ(expr_as_keyword(*m.pairs[0].key), "a");
}

// The newest parser joins consecutive literal parts, so `"$${x}"` is one
// string literal and a constant key (hcl 2.14.1 made it an IndexExpr).
TEST(AbsTraversalForExpr, EscapedTemplateKeys) {
  ExprParse p = parse("a[\"$${x}\"][\"%%{y}\"]");
  TraversalResult r = abs_traversal_for_expr(*p.expr, *p.source);
  ASSERT_FALSE(r.has_errors());
  ASSERT_EQ(r.traversal.steps.size(), 3u);
  EXPECT_EQ(r.traversal.steps[1].key.as_string(), "${x}");
  EXPECT_EQ(r.traversal.steps[2].key.as_string(), "%{y}");
  EXPECT_EQ(describe(r.traversal), "a[\"$${x}\"][\"%%{y}\"] 1:1-1:2 1:2-1:11 1:11-1:20");
  std::vector<std::string> vars;
  for (const Traversal& t : variables(*p.expr, *p.source)) vars.push_back(t.to_string());
  EXPECT_EQ(vars, (std::vector<std::string>{"a[\"$${x}\"][\"%%{y}\"]"}));
}

// The reference's TestMapStatic.
TEST(ExprMap, Pairs) {
  ExprParse p = parse("{\"foo\":true,\"bar\":false}");
  ExprMapResult r = expr_map(*p.expr, *p.source);
  ASSERT_FALSE(r.has_errors());
  ASSERT_EQ(r.pairs.size(), 2u);
  const auto& obj = ast::as<ast::ObjectExpr>(*p.expr);
  for (uint32_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.pairs[i].key, obj.items[i].key);
    EXPECT_EQ(r.pairs[i].value, obj.items[i].value);
  }
  const auto& v0 = ast::as<ast::LiteralExpr>(*r.pairs[0].value).value;
  EXPECT_EQ(v0.kind, ast::LitKind::Bool);
  EXPECT_TRUE(v0.boolean);

  ExprParse empty = parse("{}");
  ExprMapResult e = expr_map(*empty.expr, *empty.source);
  EXPECT_TRUE(e.diagnostics.empty());
  EXPECT_TRUE(e.pairs.empty());
}

TEST(ExprCall, Calls) {
  struct Case {
    const char* src;
    const char* name;
    const char* name_range;
    const char* args_range;
    size_t args;
    bool expand_final;
  };
  const Case cases[] = {
      {"f(a, b)", "f", "1:1-1:2", "1:2-1:8", 2, false},
      {"f()", "f", "1:1-1:2", "1:2-1:4", 0, false},
      {"join(\",\", xs...)", "join", "1:1-1:5", "1:5-1:17", 2, true},
      {"provider::ns::fn(a)", "provider::ns::fn", "1:1-1:17", "1:17-1:20", 1, false},
      {"f(\n  a,\n  b,\n)", "f", "1:1-1:2", "1:2-4:2", 2, false},
  };
  for (const Case& c : cases) {
    ExprParse p = parse(c.src);
    ExprCallResult r = expr_call(*p.expr, *p.source);
    ASSERT_FALSE(r.has_errors()) << c.src;
    EXPECT_EQ(r.call.name, c.name) << c.src;
    EXPECT_EQ(short_range(r.call.name_range), c.name_range) << c.src;
    EXPECT_EQ(short_range(r.call.args_range), c.args_range) << c.src;
    EXPECT_EQ(r.call.expand_final, c.expand_final) << c.src;
    ASSERT_EQ(r.call.arguments.size(), c.args) << c.src;
    const auto& call = ast::as<ast::FunctionCallExpr>(*p.expr);
    for (uint32_t i = 0; i < c.args; ++i) EXPECT_EQ(r.call.arguments[i], call.args[i]) << c.src;
  }
}

// Keys are written as hclwrite writes them: numbers in their shortest
// form, strings quoted with HCL escapes and the template introducers
// doubled.
TEST(Traversal, Rendering) {
  struct Case {
    const char* src;
    const char* want;
  };
  const Case cases[] = {
      {"a[\"x\\\"y\"]", "a[\"x\\\"y\"]"},
      {"a[\"$${x}\"]", "a[\"$${x}\"]"},
      {"a[\"%%{x}\"]", "a[\"%%{x}\"]"},
      {"a[\"\\n\\t\"]", "a[\"\\n\\t\"]"},
      {"a[\"é\"]", "a[\"é\"]"},
      {"a[1e3]", "a[1000]"},
      {"a[0.10]", "a[0.1]"},
      {"a[false]", "a[false]"},
      {"a.b.0.c", "a.b[0].c"},
  };
  for (const Case& c : cases) {
    ExprParse p = parse(c.src);
    TraversalResult r = abs_traversal_for_expr(*p.expr, *p.source);
    ASSERT_FALSE(r.has_errors()) << c.src;
    EXPECT_EQ(r.traversal.to_string(), c.want) << c.src;
  }
  EXPECT_EQ(Traversal{}.to_string(), "");
  EXPECT_EQ(Traversal{}.root_name(), "");
  EXPECT_FALSE(Traversal{}.is_relative());
}

TEST(Traversal, FromParsedTraversals) {
  TraversalParse abs = parse_traversal_abs(make_source("t", "a.b[0][\"k\"]"));
  ASSERT_FALSE(abs.has_errors());
  Traversal t = make_traversal(abs.traversal, *abs.source);
  EXPECT_EQ(describe(t), "a.b[0][\"k\"] 1:1-1:2 1:2-1:4 1:4-1:7 1:7-1:12");
  EXPECT_FALSE(t.is_relative());

  TraversalParse rel = parse_traversal_rel(make_source("t", "[1].c"));
  ASSERT_FALSE(rel.has_errors());
  Traversal r = make_traversal(rel.traversal, *rel.source);
  EXPECT_EQ(r.to_string(), "[1].c");
  EXPECT_TRUE(r.is_relative());
  EXPECT_EQ(r.root_name(), "");
}

}  // namespace
}  // namespace hclvm

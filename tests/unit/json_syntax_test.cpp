// Tests of the JSON syntax: parsing (trees, positions, diagnostics), JSON
// values as expressions in both evaluation modes, and their static
// analysis, against the reference.
//
// tests/golden/json_syntax/*.golden come from the reference's json package
// through gen.sh (oracle/main.go). For each input (an I line, Go-quoted)
// they hold:
//   P / X    the diagnostics of json.Parse / json.ParseExpression
//   N        the tree, one node a line (via hcl.ExprList and hcl.ExprMap)
//   F / FD   Value(ctx) with vars.json and a few functions, its diagnostics
//   L / LD   Value(nil), its diagnostics
//   V        Variables()
//   SA SR SK SL SM SMK SC (and ...D for their diagnostics): the static
//            analyses AbsTraversalForExpr, RelTraversalForExpr,
//            ExprAsKeyword, ExprList, ExprMap (with each key evaluated)
//            and ExprCall.
// Ranges are written line:column:byte. The tests below the golden ones
// cover what the files cannot hold: deep nesting, big numbers, start
// positions, sharing a program between threads.
#include <gtest/gtest.h>

#include <hclvm/json_program.h>
#include <hclvm/json_syntax.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "util/unicode.h"
#include "value/json.h"

namespace hclvm {
namespace {

using namespace hclvm::json;

const std::filesystem::path kGoldenDir =
    std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/json_syntax";
const std::string kFile = "t.json";

// --- the golden line format ---------------------------------------------------------

std::string golden_range(const Range& r) {
  std::string s = test::pos_string(r.start) + "-" + test::pos_string(r.end);
  return r.filename == kFile ? s : "!" + r.filename + "!" + s;
}

// [d] as a golden line with [tag].
std::string diag_line(const std::string& tag, const Diagnostic& d) {
  std::string s = tag + " {\"severity\":\"" +
                  (d.severity == Severity::Error ? "error" : "warning") +
                  "\",\"summary\":" + test::go_json_quote(d.summary) +
                  ",\"detail\":" + test::go_json_quote(d.detail);
  if (d.subject) s += ",\"subject\":\"" + golden_range(*d.subject) + "\"";
  if (d.context) s += ",\"context\":\"" + golden_range(*d.context) + "\"";
  return s + "}";
}

void add_diags(std::vector<std::string>& out, const std::string& tag, const Diagnostics& ds) {
  for (const Diagnostic& d : ds) out.push_back(diag_line(tag, d));
}

struct GoldenCase {
  std::string quoted;  // the I line's literal
  std::string input;
  std::vector<std::string> lines;  // the lines after it
};

std::vector<GoldenCase> load_golden(const std::string& name) {
  std::istringstream in(test::read_file(kGoldenDir / name));
  std::vector<GoldenCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("I ", 0) == 0) {
      cases.push_back({line.substr(2), test::go_unquote(line.substr(2)), {}});
    } else if (!cases.empty()) {
      cases.back().lines.push_back(line);
    }
  }
  return cases;
}

// The lines of [lines] whose tag is one of [tags].
std::vector<std::string> with_tags(const std::vector<std::string>& lines,
                                   const std::vector<std::string>& tags) {
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    std::string tag = l.substr(0, l.find(' '));
    if (std::find(tags.begin(), tags.end(), tag) != tags.end()) out.push_back(l);
  }
  return out;
}

// --- what hclvm gives, as golden lines -------------------------------------------------

// The text of number [text] as the reference's tree holds it.
std::string number_text(std::string_view text) {
  std::optional<Number> n = Number::parse(text);
  return n ? n->text() : "?";
}

void tree_lines(std::vector<std::string>& out, const Node& n, int depth) {
  std::string ind(size_t(depth) * 2, ' ');
  std::string r = golden_range(range(n, kFile));
  switch (n.kind) {
    case NodeKind::Array:
      out.push_back("N " + ind + "array " + r + " open " + golden_range(start_range(n, kFile)));
      for (const Node* i : as<ArrayNode>(n).items) tree_lines(out, *i, depth + 1);
      break;
    case NodeKind::Object:
      out.push_back("N " + ind + "object " + r + " open " + golden_range(start_range(n, kFile)));
      for (const Property& p : as<ObjectNode>(n).properties) {
        out.push_back("N " + ind + "  key " +
                      test::go_json_quote(Value::string(p.name->value).as_string()) + " " +
                      golden_range(range(*p.name, kFile)));
        tree_lines(out, *p.value, depth + 2);
      }
      break;
    case NodeKind::String:
      out.push_back("N " + ind + "string " +
                    test::go_json_quote(Value::string(as<StringNode>(n).value).as_string()) + " " +
                    r);
      break;
    case NodeKind::Number:
      out.push_back("N " + ind + "number " + number_text(as<NumberNode>(n).text) + " " + r);
      break;
    case NodeKind::Bool:
      out.push_back("N " + ind + "bool " + (as<BoolNode>(n).value ? "true" : "false") + " " + r);
      break;
    case NodeKind::Null: out.push_back("N " + ind + "null " + r); break;
    case NodeKind::Invalid: out.push_back("N " + ind + "invalid " + r); break;
  }
}

// The P, X and N lines for [input].
std::vector<std::string> parse_lines(const std::string& input) {
  std::vector<std::string> out;
  JsonParse file = parse_json_config(make_source(kFile, input));
  add_diags(out, "P", file.diagnostics);
  JsonParse expr = parse_json_expression(make_source(kFile, input));
  add_diags(out, "X", expr.diagnostics);
  tree_lines(out, *expr.root, 0);
  return out;
}

// Compares [got] with [want] for the case [c]; returns whether they match.
bool same_lines(const GoldenCase& c, const std::vector<std::string>& want,
                const std::vector<std::string>& got) {
  if (want == got) return true;
  std::string w, g;
  for (const auto& l : want) w += "  " + l + "\n";
  for (const auto& l : got) g += "  " + l + "\n";
  ADD_FAILURE() << "input: " << c.quoted << "\nreference:\n" << w << "hclvm:\n" << g;
  return false;
}

// [line] as it compares: test::comparable_line, and JSON escapes as the
// generator's Go version writes them.
std::string comparable(std::string line) {
  line = test::comparable_line(std::move(line));
  // Go 1.19 (the generator's) escapes backspace and form feed in JSON as
  // u-escapes, Go 1.22+ (the value layer's model) as \b and \f.
  for (auto [from, to] : {std::pair{"\\u0008", "\\b"}, std::pair{"\\u000c", "\\f"}})
    for (size_t i; (i = line.find(from)) != std::string::npos;) line.replace(i, 6, to);
  return line;
}

// The context of the golden cases: vars.json and the default functions.
const EvalContext& golden_context() {
  static const EvalContext ctx = test::context_from_vars(test::read_file(kGoldenDir / "vars.json"));
  return ctx;
}

// Evaluates [n] of [doc] in both modes: F, FD, L and LD lines.
std::vector<std::string> eval_lines(const Node& n, const JsonParse& doc) {
  std::vector<std::string> out;
  JsonCompileResult c = compile_json_expression(n, doc.source);
  EXPECT_TRUE(c.diagnostics.empty());
  Vm vm;
  EvalResult full = run_json(vm, *c.program, &golden_context());
  out.push_back("F " + test::golden_typed(full.value));
  add_diags(out, "FD", full.diagnostics);
  EvalResult lit = run_json(vm, *c.program, nullptr);
  out.push_back("L " + test::golden_typed(lit.value));
  add_diags(out, "LD", lit.diagnostics);
  return out;
}

// [t] as the generator writes traversals.
std::string traversal_text(const Traversal& t) { return test::traversal_line(t, golden_range); }

// The V and S... lines of [n] of [doc].
std::vector<std::string> analysis_lines(const Node& n, const JsonParse& doc) {
  std::vector<std::string> out;
  for (const Traversal& t : variables(n, doc)) out.push_back("V " + traversal_text(t));
  TraversalResult abs = abs_traversal_for_expr(n, doc);
  if (!abs.has_errors()) out.push_back("SA " + traversal_text(abs.traversal));
  add_diags(out, "SAD", abs.diagnostics);
  TraversalResult rel = rel_traversal_for_expr(n, doc);
  if (!rel.has_errors()) out.push_back("SR " + traversal_text(rel.traversal));
  add_diags(out, "SRD", rel.diagnostics);
  std::string kw = expr_as_keyword(n, doc);
  if (!kw.empty()) out.push_back("SK " + test::go_json_quote(kw));
  JsonExprListResult list = expr_list(n, doc);
  if (!list.has_errors()) {
    std::string s = "SL " + std::to_string(list.items.size()) + " ";
    for (size_t i = 0; i < list.items.size(); ++i)
      s += (i ? " " : "") + golden_range(range(*list.items[i], kFile));
    out.push_back(s);
  }
  add_diags(out, "SLD", list.diagnostics);
  JsonExprMapResult map = expr_map(n, doc);
  if (!map.has_errors()) {
    std::string s = "SM " + std::to_string(map.pairs.size()) + " ";
    for (size_t i = 0; i < map.pairs.size(); ++i)
      s += (i ? " " : "") + golden_range(range(*map.pairs[i].key, kFile)) + "=" +
           golden_range(range(*map.pairs[i].value, kFile));
    out.push_back(s);
    Vm vm;
    for (const JsonKeyValuePair& p : map.pairs) {
      JsonCompileResult c = compile_json_expression(*p.key, doc.source);
      EvalResult k = run_json(vm, *c.program, &golden_context());
      out.push_back("SMK " + test::golden_typed(k.value));
      add_diags(out, "SMKD", k.diagnostics);
    }
  }
  add_diags(out, "SMD", map.diagnostics);
  JsonExprCallResult call = expr_call(n, doc);
  if (!call.has_errors()) {
    const StaticCall& sc = call.call;
    std::string s = "SC " + std::string(sc.name) + " " + golden_range(sc.name_range) + " " +
                    golden_range(sc.args_range) + " " + std::to_string(sc.arguments.size()) + " ";
    for (size_t i = 0; i < sc.arguments.size(); ++i)
      s += (i ? " " : "") + golden_range(call.parse.source->range(sc.arguments[i]->span));
    out.push_back(s);
  }
  add_diags(out, "SCD", call.diagnostics);
  return out;
}

// Runs [check] on each case of each golden file; [tags] select the lines
// it answers for.
template <class F>
void check_golden(const std::vector<std::string>& tags, F&& check) {
  int failures = 0, count = 0;
  for (const char* file : {"parse.golden", "expr.golden", "static.golden"}) {
    for (const GoldenCase& c : load_golden(file)) {
      ++count;
      std::vector<std::string> want = with_tags(c.lines, tags), got = check(c.input);
      for (std::string& l : want) l = comparable(l);
      for (std::string& l : got) l = comparable(l);
      if (!same_lines(c, want, got)) ++failures;
    }
  }
  EXPECT_GT(count, 500);
  EXPECT_EQ(failures, 0);
}

// --- parsing -------------------------------------------------------------------------

TEST(JsonGolden, Parse) { check_golden({"P", "X", "N"}, parse_lines); }

// --- expressions -----------------------------------------------------------------------

TEST(JsonGolden, Evaluate) {
  check_golden({"F", "FD", "L", "LD"}, [](const std::string& input) {
    JsonParse p = parse_json_expression(make_source(kFile, input));
    return eval_lines(*p.root, p);
  });
}

// --- static analysis -------------------------------------------------------------------

TEST(JsonGolden, Analysis) {
  check_golden({"V", "SA", "SAD", "SR", "SRD", "SK", "SL", "SLD", "SM", "SMD", "SMK", "SMKD", "SC",
                "SCD"},
               [](const std::string& input) {
                 JsonParse p = parse_json_expression(make_source(kFile, input));
                 return analysis_lines(*p.root, p);
               });
}

// --- what the golden files cannot hold --------------------------------------------------

// Returns the JSON text of [depth] nested arrays around [inner].
std::string nested_arrays(size_t depth, const std::string& inner, bool closed = true) {
  return std::string(depth, '[') + inner + (closed ? std::string(depth, ']') : "");
}

TEST(JsonParse, DeepNestingParsesOnABigStack) {
  // As deep as the nesting limit allows (kMaxNesting: the number inside
  // counts one level).
  constexpr size_t kDepth = kMaxNesting - 1;
  JsonParse p = parse_json_config(make_source(kFile, nested_arrays(kDepth, "1")));
  ASSERT_TRUE(p.diagnostics.empty());
  const Node* n = p.root;
  size_t depth = 0;
  while (n->kind == NodeKind::Array) {
    ASSERT_EQ(as<ArrayNode>(*n).items.size, 1u);
    n = as<ArrayNode>(*n).items[0];
    ++depth;
  }
  EXPECT_EQ(depth, kDepth);
  EXPECT_EQ(n->kind, NodeKind::Number);
  EXPECT_EQ(n->start.column, kDepth + 1);
}

TEST(JsonParse, DeepUnclosedNestingReportsEachLevel) {
  // The reference: "Missing value" at the end, then "Unclosed object" for
  // each array from the innermost out.
  constexpr size_t kDepth = 50000;
  JsonParse p = parse_json_expression(make_source(kFile, nested_arrays(kDepth, "", false)));
  ASSERT_EQ(p.diagnostics.size(), kDepth + 1);
  EXPECT_EQ(p.diagnostics[0].summary, "Missing value");
  EXPECT_EQ(p.diagnostics[1].summary, "Unclosed object");
  EXPECT_EQ(p.diagnostics[1].subject->start.column, kDepth);
  EXPECT_EQ(p.diagnostics[kDepth].subject->start.column, 1u);
  EXPECT_EQ(p.root->kind, NodeKind::Invalid);
}

TEST(JsonParse, DeepObjectsAndRecovery) {
  std::string deep;
  for (int i = 0; i < 30000; ++i) deep += "{\"a\":";
  deep += "tru";
  JsonParse p = parse_json_expression(make_source(kFile, deep));
  ASSERT_FALSE(p.diagnostics.empty());
  EXPECT_EQ(p.diagnostics[0].summary, "Invalid JSON keyword");
  EXPECT_EQ(p.diagnostics[0].detail, "\"tru\" is not a valid JSON keyword. Did you mean \"true\"?");
  EXPECT_EQ(p.diagnostics.size(), 30001u);
}

TEST(JsonParse, StartPosition) {
  // json.ParseWithStartPos / ParseExpressionWithStartPos: the positions of a
  // part are those it has in the whole.
  std::string whole = "{\n  \"foo\": {\n    \"bar\": \"baz\"\n  }\n}";
  std::string part = "{\n    \"bar\": \"baz\"\n  }";
  JsonParse w = parse_json_config(make_source(kFile, whole));
  JsonParse q = parse_json_config(make_source(kFile, part), Pos{2, 10, 11});
  ASSERT_TRUE(w.diagnostics.empty() && q.diagnostics.empty());
  const Node& wfoo = *as<ObjectNode>(*w.root).properties[0].value;
  const Node& wbar = *as<ObjectNode>(wfoo).properties[0].value;
  const Node& qbar = *as<ObjectNode>(*q.root).properties[0].value;
  EXPECT_EQ(range(wbar, kFile), range(qbar, kFile));
  EXPECT_EQ(golden_range(range(qbar, kFile)), "3:12:24-3:17:29");

  JsonParse e = parse_json_expression(make_source(kFile, "\"bar\""), Pos{2, 10, 11});
  EXPECT_EQ(golden_range(range(*e.root, kFile)), "2:10:11-2:15:16");
  // A template inside counts from there too.
  JsonParse t = parse_json_expression(make_source(kFile, "\"${nope}\""), Pos{5, 7, 40});
  JsonCompileResult c = compile_json_expression(*t.root, t.source);
  Vm vm;
  EvalResult r = run_json(vm, *c.program, &golden_context());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(golden_range(*r.diagnostics[0].subject), "5:10:43-5:14:47");
}

TEST(JsonParse, PlaceholderRoot) {
  // A root that is no object or array: an empty object at the file's start
  // (whatever the start position), without a closing brace.
  JsonParse p = parse_json_config(make_source(kFile, "  42"), Pos{3, 4, 20});
  ASSERT_EQ(p.diagnostics.size(), 1u);
  EXPECT_EQ(p.diagnostics[0].summary, "Root value must be object");
  EXPECT_EQ(golden_range(*p.diagnostics[0].subject), "3:6:22-3:8:24");
  ASSERT_EQ(p.root->kind, NodeKind::Object);
  const auto& o = as<ObjectNode>(*p.root);
  EXPECT_EQ(o.properties.size, 0u);
  EXPECT_EQ(test::pos_string(o.start), "1:1:0");
  EXPECT_EQ(test::pos_string(o.end), "1:1:0");
  EXPECT_EQ(test::pos_string(o.close_start), "0:0:0");

  JsonParse ok = parse_json_config(make_source(kFile, "{\"//\": \"c\", \"a\": 1 }"));
  const auto& r = as<ObjectNode>(*ok.root);
  ASSERT_EQ(r.properties.size, 2u);
  EXPECT_EQ(r.properties[0].name->value, "//");  // kept: bodies skip it, expressions do not
  EXPECT_EQ(test::pos_string(r.close_start) + "-" + test::pos_string(r.close_end),
            "1:20:19-1:21:20");
}

TEST(JsonParse, NumbersKeepTheirText) {
  std::string big = "123456789012345678901234567890.123456789012345678901234567890e-5";
  JsonParse p = parse_json_expression(make_source(kFile, "[" + big + ", 1e1000000, -0]"));
  ASSERT_TRUE(p.diagnostics.empty());
  const auto& items = as<ArrayNode>(*p.root).items;
  EXPECT_EQ(as<NumberNode>(*items[0]).text, big);
  JsonCompileResult c = compile_json_expression(*p.root, p.source);
  Vm vm;
  EvalResult r = run_json(vm, *c.program, nullptr);
  ASSERT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.value.element(0).as_number().text(),
            "1234567890123456789012345.6789012345678901234567890123456789");
  EXPECT_TRUE(Number::equal(r.value.element(1).as_number(), *Number::parse("1e1000000")));
  EXPECT_TRUE(r.value.element(2).as_number().is_negative_zero());
}

TEST(JsonExpr, DeepNestingEvaluates) {
  // Constant all the way down (folded), and with a template at the bottom
  // (run), in both modes.
  constexpr size_t kDepth = kMaxNesting - 1;
  for (std::string inner : {"1", "\"${n}\""}) {
    JsonParse p = parse_json_expression(make_source(kFile, nested_arrays(kDepth, inner)));
    ASSERT_TRUE(p.diagnostics.empty());
    JsonCompileResult c = compile_json_expression(*p.root, p.source);
    ASSERT_TRUE(c.diagnostics.empty());
    Vm vm;
    for (const EvalContext* ctx : {&golden_context(), static_cast<const EvalContext*>(nullptr)}) {
      EvalResult r = run_json(vm, *c.program, ctx);
      ASSERT_TRUE(r.diagnostics.empty());
      const Value* v = &r.value;
      for (size_t i = 0; i < kDepth; ++i) v = &v->element(0);
      if (inner == "1" || ctx == nullptr)
        EXPECT_EQ(v->type(), inner == "1" ? Type::number() : Type::string());
      else
        EXPECT_EQ(v->as_number().text(), "42");
    }
    EXPECT_TRUE(variables(*p.root, p).size() == (inner == "1" ? 0u : 1u));
  }
}

TEST(JsonExpr, TemplatesAreCompiledOnce) {
  // One program, many contexts: each run sees its own variables.
  JsonParse p = parse_json_expression(make_source(kFile, R"({"${k}": "${n * 2}", "x": ["${s}"]})"));
  JsonCompileResult c = compile_json_expression(*p.root, p.source);
  ASSERT_TRUE(c.diagnostics.empty());
  Vm vm;
  for (int i = 0; i < 3; ++i) {
    EvalContext ctx;
    ctx.set("k", Value::string("key" + std::to_string(i)));
    ctx.set("n", Value::integer(i));
    ctx.set("s", Value::string("s" + std::to_string(i)));
    EvalResult r = run_json(vm, *c.program, &ctx);
    ASSERT_TRUE(r.diagnostics.empty());
    EXPECT_EQ(test::golden_typed(r.value), "{\"value\":{\"key" + std::to_string(i) + "\":" +
                                  std::to_string(i * 2) + ",\"x\":[\"s" + std::to_string(i) +
                                  "\"]},\"type\":[\"object\",{\"key" + std::to_string(i) +
                                  "\":\"number\",\"x\":[\"tuple\",[\"string\"]]}]}");
  }
  // The program does not need the tree any more.
  std::shared_ptr<const JsonProgram> prog = c.program;
  p = JsonParse();
  EvalResult lit = run_json(vm, *prog, nullptr);
  EXPECT_EQ(test::golden_typed(lit.value),
            R"({"value":{"${k}":"${n * 2}","x":["${s}"]},)"
            R"("type":["object",{"${k}":"string","x":["tuple",["string"]]}]})");
}

TEST(JsonExpr, ProgramSharedBetweenThreads) {
  JsonParse p = parse_json_expression(
      make_source(kFile, R"({"a": "${upper(s)}-${n}", "b": [1, "${list[1]}"], "${name}": null})"));
  JsonCompileResult c = compile_json_expression(*p.root, p.source);
  Vm vm0;
  std::string want = test::golden_typed(run_json(vm0, *c.program, &golden_context()).value);
  EXPECT_EQ(want,
            R"({"value":{"a":"HELLO-42","b":[1,2],"web":null},)"
            R"("type":["object",{"a":"string","b":["tuple",["number","number"]],)"
            R"("web":"dynamic"}]})");
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      Vm vm;
      for (int i = 0; i < 200; ++i)
        if (test::golden_typed(run_json(vm, *c.program, &golden_context()).value) != want) ++bad;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(JsonExpr, MarksOfNamesAndValues) {
  EvalContext ctx;
  ctx.set("secret", Value::string("k").mark("sensitive"));
  JsonParse p = parse_json_expression(make_source(kFile, R"({"${secret}": "${secret}", "b": 1})"));
  JsonCompileResult c = compile_json_expression(*p.root, p.source);
  Vm vm;
  EvalResult r = run_json(vm, *c.program, &ctx);
  ASSERT_TRUE(r.diagnostics.empty());
  EXPECT_TRUE(r.value.marks().has("sensitive"));
  Value inner = r.value.unmark();
  EXPECT_TRUE(inner.attr("k")->marks().has("sensitive"));
}

TEST(JsonExpr, ContextWithoutFunctions) {
  JsonParse p = parse_json_expression(make_source(kFile, R"(["${upper(\"a\")}", "${x}"])"));
  ASSERT_TRUE(p.diagnostics.empty());
  JsonCompileResult c = compile_json_expression(*p.root, p.source);
  EvalContext ctx;
  ctx.set("x", Value::integer(1));
  Vm vm;
  EvalResult r = run_json(vm, *c.program, &ctx);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Function calls not allowed");
  // upper("a") in the decoded string: the escaped quotes shift its end.
  EXPECT_EQ(golden_range(*r.diagnostics[0].subject), "1:5:4-1:15:14");
}

TEST(JsonAnalysis, NamespacedCall) {
  // hclsyntax 2.21+ reads `provider::name::fn(...)` as one call (the
  // oracle, 2.14.1, did not).
  JsonParse p = parse_json_expression(make_source(kFile, "\"foo::bar(1, x)\""));
  JsonExprCallResult c = expr_call(*p.root, p);
  ASSERT_FALSE(c.has_errors());
  EXPECT_EQ(c.call.name, "foo::bar");
  EXPECT_EQ(golden_range(c.call.name_range), "1:1:0-1:9:8");
  EXPECT_EQ(golden_range(c.call.args_range), "1:9:8-1:15:14");
  ASSERT_EQ(c.call.arguments.size(), 2u);
  // The arguments are native expressions that live as long as the result.
  EXPECT_EQ(c.call.arguments[1]->kind, ast::ExprKind::ScopeTraversal);
  EXPECT_EQ(golden_range(c.parse.source->range(c.call.arguments[1]->span)), "1:13:12-1:14:13");
}

TEST(JsonAnalysis, KeyExpressionsInLiteralMode) {
  JsonParse p = parse_json_expression(make_source(kFile, R"({"${k}": 1})"));
  JsonExprMapResult m = expr_map(*p.root, p);
  ASSERT_EQ(m.pairs.size(), 1u);
  JsonCompileResult c = compile_json_expression(*m.pairs[0].key, p.source);
  Vm vm;
  EXPECT_EQ(run_json(vm, *c.program, nullptr).value.as_string(), "${k}");
  EXPECT_EQ(run_json(vm, *c.program, &golden_context()).value.as_string(), "key");
  EXPECT_EQ(expr_as_keyword(*m.pairs[0].value, p), "");
}

TEST(JsonRobustness, MangledInputsNeverCrash) {
  // Every golden input with bytes dropped, repeated or replaced by pieces
  // of JSON and template syntax: parse, compile, evaluate in both modes
  // and analyze, and only check that each answer is complete.
  std::vector<std::string> inputs;
  for (const char* file : {"parse.golden", "expr.golden", "static.golden"})
    for (const GoldenCase& c : load_golden(file)) inputs.push_back(c.input);
  const char* pieces[] = {"{", "}", "[", "]", ",", ":", "\"", "\\", "${", "%{", "}", "\\u",
                          "\\uD83D", "\xff", "\xc3", "\t", "\n", "\r", " ", "1e", "-", "tru",
                          "\"${a}\"", "~", "\xe2\x80\xa8", "\xcc\x81"};
  uint64_t seed = 12345;
  auto next = [&seed](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return size_t((seed >> 33) % n);
  };
  Vm vm;
  int runs = 0;
  for (const std::string& in : inputs) {
    for (int k = 0; k < 8; ++k) {
      std::string s = in;
      for (int edits = 1 + int(next(4)); edits > 0; --edits) {
        size_t at = s.empty() ? 0 : next(s.size() + 1);
        switch (next(3)) {
          case 0: if (at < s.size()) s.erase(at, 1 + next(3)); break;
          case 1: s.insert(at, pieces[next(std::size(pieces))]); break;
          default: if (at < s.size()) s.insert(at, s.substr(at, 1 + next(4))); break;
        }
      }
      JsonParse p = k % 2 ? parse_json_config(make_source(kFile, s))
                          : parse_json_expression(make_source(kFile, s));
      ASSERT_NE(p.root, nullptr) << s;
      JsonCompileResult c = compile_json_expression(*p.root, p.source);
      EvalResult full = run_json(vm, *c.program, &golden_context());
      EvalResult lit = run_json(vm, *c.program, nullptr);
      EXPECT_FALSE(lit.value.type() == nullptr);
      (void)full;
      variables(*p.root, p);
      abs_traversal_for_expr(*p.root, p);
      expr_call(*p.root, p);
      for (const Diagnostic& d : p.diagnostics) ASSERT_TRUE(d.subject.has_value()) << s;
      ++runs;
    }
  }
  EXPECT_GT(runs, 4000);
}

}  // namespace
}  // namespace hclvm

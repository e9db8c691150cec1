// Tests of the evaluator: compile_expression plus Vm::run, for every
// expression kind, against the reference.
//
// tests/golden/vm/cases.golden holds the reference's value or diagnostics
// (with subject ranges) for a few hundred expressions over the variables of
// tests/golden/vm/vars.json (gen.sh makes it with the oracle). The tests
// below it cover what the oracle cannot show: unknown values and their
// refinements, marks, nested contexts, contexts without functions, a
// program shared between threads, and a VM that allocates nothing once
// warm.
#include <gtest/gtest.h>

#include <hclvm/eval.h>
#include <hclvm/syntax.h>
#include <hclvm/functions.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "diag/render.h"
#include "util/alloc_count.h"
#include "test_util.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/refine.h"
#include "value/render.h"

namespace hclvm {
namespace {

// A parsed and compiled expression, with what running it gave.
struct Outcome {
  ExprParse parse;
  std::shared_ptr<const Program> program;
  EvalResult result;
};

// Compiles [src] (an expression) and runs it against [ctx].
Outcome eval(std::string_view src, const EvalContext& ctx) {
  Outcome r;
  r.parse = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(r.parse.has_errors()) << src;
  r.program = compile_expression(*r.parse.expr, r.parse.source).program;
  Vm vm;
  r.result = vm.run(*r.program, ctx);
  return r;
}

// A context with the default functions and no variables.
EvalContext functions_only() {
  EvalContext ctx;
  ctx.set_functions(std::make_shared<FunctionTable>(default_functions()));
  return ctx;
}

// [v] as the reference's tools print it: {"value":…,"type":…}.
std::string typed(const Value& v0) {
  Value v = v0.unmark_deep().first;
  JsonResult<std::string> ty = type_to_json(v.type());
  JsonResult<std::string> val = to_json(v, v.type());
  if (!ty.ok() || !val.ok()) return "(not JSON)";
  return "{\"value\":" + val.value + ",\"type\":" + ty.value + "}";
}

// [r] as "line:col-line:col".
std::string short_range(const Range& r) {
  return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
         std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
}

// The summaries of [diags], one a line.
std::string summaries(const Diagnostics& diags) {
  std::string s;
  for (const Diagnostic& d : diags) s += d.summary + "\n";
  return s;
}

// --- golden data from the reference ------------------------------------------------

struct GoldenCase {
  std::string expr;
  std::vector<std::string> lines;  // V, R, D and S lines
};

std::vector<GoldenCase> load_golden() {
  std::string text =
      test::read_file(std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/vm/cases.golden");
  std::vector<GoldenCase> cases;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("E ", 0) == 0)
      cases.push_back({line.substr(2), {}});
    else if (!cases.empty())
      cases.back().lines.push_back(line);
  }
  return cases;
}

// The context of the golden cases: vars.json read as the reference's tools
// read it, and the default functions.
const EvalContext& golden_context() {
  static const EvalContext ctx = [] {
    return test::context_from_vars(
        test::read_file(std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/vm/vars.json"));
  }();
  return ctx;
}

// What the VM gives for [expr], written as the golden lines would be.
std::vector<std::string> actual_lines(const std::string& expr, bool summaries_only) {
  // The expression is evaluated as the attribute of "v = EXPR", as hcldec
  // saw it, so that ranges compare.
  FileParse p = parse_config(make_source("t.hcl", "v = " + expr + "\n"));
  std::vector<std::string> out;
  if (p.has_errors() || p.body->attributes.size != 1) {
    out.push_back("parse error");
    return out;
  }
  auto prog = compile_expression(*p.body->attributes[0]->expr, p.source).program;
  Vm vm;
  EvalResult r = vm.run(*prog, golden_context());
  if (!r.has_errors()) {
    Value v = r.value.unmark_deep().first;
    if (v.is_wholly_known() && to_json(v, v.type()).ok()) {
      out.push_back("V " + typed(v));
    } else {  // infinities and unknowns: cty's Go syntax
      JsonResult<std::string> t = type_to_json(v.type());
      out.push_back("R {\"repr\":" + json_quote(go_string(v)) + ",\"type\":" +
                    (t.ok() ? t.value : "?") + "}");
    }
    return out;
  }
  for (const Diagnostic& d : r.diagnostics) {
    if (summaries_only) {
      out.push_back("S " + d.summary);
      continue;
    }
    std::string s =
        "D {\"summary\":" + json_quote(d.summary) + ",\"detail\":" + json_quote(d.detail);
    if (d.subject) s += ",\"subject\":\"" + short_range(*d.subject) + "\"";
    out.push_back(s + "}");
  }
  return out;
}

// Rewrites the JSON-escaped text of a D line the way Python's json.dumps
// with ensure_ascii=False writes it (gen.sh), for comparison.
std::string normalize(std::string s) {
  // json_quote escapes <, > and & as Go does; gen.sh's Python does not.
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t i = 0; (i = s.find(from, i)) != std::string::npos; i += to.size())
      s.replace(i, from.size(), to);
  };
  replace("\\u003c", "<");
  replace("\\u003e", ">");
  replace("\\u0026", "&");
  return s;
}

TEST(VmGolden, MatchesReference) {
  std::vector<GoldenCase> cases = load_golden();
  ASSERT_GT(cases.size(), 200u);
  int failures = 0;
  for (const GoldenCase& c : cases) {
    bool summaries_only = !c.lines.empty() && c.lines[0].rfind("S ", 0) == 0;
    std::vector<std::string> want = c.lines, got = actual_lines(c.expr, summaries_only);
    for (std::string& g : got) g = normalize(g);
    for (std::string& w : want) w = normalize(w);
    if (got != want) {
      ++failures;
      std::string w, g;
      for (const auto& l : want) w += "  " + l + "\n";
      for (const auto& l : got) g += "  " + l + "\n";
      ADD_FAILURE() << "expression: " << c.expr << "\nreference:\n" << w << "hclvm:\n" << g;
    }
  }
  EXPECT_EQ(failures, 0);
}

// --- the differential suite of tests/golden/eval ---------------------------------------
//
// cases.jsonl (made by gen.py there from the newest reference) holds
// thousands of expressions with the reference's value or first errors and
// their ranges. Every one must be answered alike; the report says how many
// agree by kind of expression and lists the others.

// The string of [obj].[name], or "".
std::string str_attr(const Value& obj, std::string_view name) {
  const Value* v = obj.attr(name);
  if (!v || !v->is_known() || v->is_null() || v->type() != Type::string()) return "";
  return std::string(v->as_string());
}

// Whether [got] (our typed JSON) is the value [want] ({"value","type"}).
bool same_value(const std::string& got, const Value& want) {
  JsonResult<Value> g = from_json_simple(got);
  if (!g.ok()) return false;
  const Value* gv = g.value.attr("value");
  const Value* gt = g.value.attr("type");
  const Value* wv = want.attr("value");
  const Value* wt = want.attr("type");
  return gv && gt && wv && wt && ops::raw_equal(*gv, *wv) && ops::raw_equal(*gt, *wt);
}

// Whether diagnostic [d] is the error [want] ({error, detail, range}).
bool same_error(const Diagnostic& d, const Value& want) {
  std::string range = d.subject ? short_range(*d.subject) : "";
  const Value* wr = want.attr("range");
  std::string want_range = wr && !wr->is_null() ? std::string(wr->as_string()) : "";
  if (d.summary != str_attr(want, "error") || range != want_range) return false;
  // The values of the expression's variables the text renderer lists.
  std::vector<std::string> values;
  if (const Value* wv = want.attr("values"))
    for (const Value& v : wv->elements()) values.emplace_back(v.as_string());
  if (d.expression_values != values) return false;
  std::string detail = str_attr(want, "detail");
  if (want.attr("detail_truncated")) return d.detail.rfind(detail, 0) == 0;
  return d.detail == detail;
}

// Whether [diags] and [value] (a parse or a run) give the answer [want].
bool same_answer(const Diagnostics& diags, const Value& value, const Value& want) {
  if (want.attr("value")) return diags.empty() && same_value(typed(value), want);
  if (const Value* repr = want.attr("repr")) {
    JsonResult<std::string> t = type_to_json(value.type());
    JsonResult<Value> type = from_json_simple(t.ok() ? t.value : "null");
    return !has_errors(diags) && go_string(value.unmark_deep().first) == repr->as_string() &&
           type.ok() && ops::raw_equal(type.value, *want.attr("type"));
  }
  if (!want.attr("error")) return false;
  std::vector<const Diagnostic*> errors;
  for (const Diagnostic& d : diags)
    if (d.severity == Severity::Error) errors.push_back(&d);
  std::vector<Value> wants{want};
  if (const Value* more = want.attr("more"))
    for (const Value& m : more->elements()) wants.push_back(m);
  if (errors.size() != wants.size()) return false;
  for (size_t i = 0; i < errors.size(); ++i)
    if (!same_error(*errors[i], wants[i])) return false;
  return true;
}

TEST(EvalCases, AgreementWithReference) {
  std::filesystem::path dir = std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/eval";
  if (!std::filesystem::exists(dir / "cases.jsonl")) GTEST_SKIP() << "no cases.jsonl";
  std::map<std::string, EvalContext> contexts;
  auto context_for = [&](const std::string& vars) -> const EvalContext& {
    auto it = contexts.find(vars);
    if (it != contexts.end()) return it->second;
    EvalContext c =
        vars.empty() ? functions_only() : test::context_from_vars(test::read_file(dir / vars));
    return contexts.emplace(vars, std::move(c)).first->second;
  };
  std::istringstream in(test::read_file(dir / "cases.jsonl"));
  std::string line;
  std::map<std::string, std::pair<int, int>> by_kind;  // kind -> (agree, total)
  int total = 0, agree = 0;
  std::string report;
  Vm vm;
  while (std::getline(in, line)) {
    JsonResult<Value> c = from_json_simple(line);
    ASSERT_TRUE(c.ok()) << line.substr(0, 200);
    const Value& cs = c.value;
    std::string id = str_attr(cs, "id"), kind = str_attr(cs, "kind"), expr = str_attr(cs, "expr");
    const Value& want = *cs.attr("want");
    bool parse_error = cs.attr("parse_error") != nullptr;
    bool calls = false;
    if (const Value* nodes = cs.attr("nodes"))
      for (const Value& n : nodes->elements()) calls = calls || n.as_string() == "FunctionCallExpr";

    ExprParse p = parse_expression(make_source("<expr>", expr));
    Diagnostics diags = p.diagnostics;
    Value value;
    if (!p.has_errors() && p.expr) {
      auto prog = compile_expression(*p.expr, p.source).program;
      EvalResult r = vm.run(*prog, context_for(str_attr(cs, "vars")));
      diags = std::move(r.diagnostics);
      value = std::move(r.value);
    }
    bool ok = same_answer(diags, value, want);
    if (!ok)
      if (const Value* alts = cs.attr("alt_wants"))
        for (const Value& a : alts->elements()) ok = ok || same_answer(diags, value, a);
    ++total;
    auto& k = by_kind[calls ? kind + " (calls)" : kind];
    ++k.second;
    if (ok) {
      ++agree, ++k.first;
      continue;
    }
    std::string got = diags.empty() ? typed(value) : diags[0].summary + ": " + diags[0].detail;
    if (diags.empty() && !value.is_wholly_known()) got = go_string(value);
    if (diags.size() > 0 && diags[0].subject) got += " @" + short_range(*diags[0].subject);
    report += id + (calls ? " [calls]" : "") + (parse_error ? " [parse]" : "") +
              "\n  expr: " + expr + "\n  want: " + line.substr(line.find("\"want\"")) +
              "\n  got:  " + got + "\n";
  }
  std::string summary =
      "cases.jsonl: " + std::to_string(agree) + "/" + std::to_string(total) + " agree\n";
  for (const auto& [kind, n] : by_kind)
    if (n.first != n.second)
      summary +=
          "  " + kind + ": " + std::to_string(n.first) + "/" + std::to_string(n.second) + "\n";
  std::printf("%s%s", summary.c_str(), report.substr(0, 4000).c_str());
  if (const char* out = std::getenv("HCLVM_EVAL_REPORT")) {
    if (FILE* f = std::fopen(out, "w")) {
      std::fputs((summary + report).c_str(), f);
      std::fclose(f);
    }
  }
  EXPECT_EQ(agree, total) << "set HCLVM_EVAL_REPORT=FILE for the list";
}

// --- unknown values ----------------------------------------------------------------

class Unknowns : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx = functions_only();
    ctx.set("un", Value::unknown(Type::number()));
    ctx.set("us", Value::unknown(Type::string()));
    ctx.set("ub", Value::unknown(Type::boolean()));
    ctx.set("ul", Value::unknown(Type::list(Type::string())));
    ctx.set("dyn", Value::dynamic());
    ctx.set("n", Value::integer(3));
  }
  // Evaluates [src]; expects no diagnostics.
  Value value(std::string_view src) {
    Outcome r = eval(src, ctx);
    EXPECT_TRUE(r.result.diagnostics.empty()) << src << ": " << summaries(r.result.diagnostics);
    return r.result.value;
  }
  EvalContext ctx;
};

TEST_F(Unknowns, ArithmeticIsUnknownNotNull) {
  Value v = value("un + 1");
  EXPECT_FALSE(v.is_known());
  EXPECT_EQ(v.type(), Type::number());
  EXPECT_TRUE(v.refinement().not_null);
  // Only not-null: the operator functions do not take unknowns.
  EXPECT_FALSE(v.refinement().has_lower);
  EXPECT_EQ(value("-un").refinement().not_null, true);
  EXPECT_EQ(value("!ub").type(), Type::boolean());
}

TEST_F(Unknowns, ComparisonsAndEquality) {
  Value v = value("un > 1");
  EXPECT_FALSE(v.is_known());
  EXPECT_EQ(v.type(), Type::boolean());
  EXPECT_FALSE(value("un == 1").is_known());
  EXPECT_FALSE(value("ub && true").is_known());
  EXPECT_EQ(typed(value("ub && false")), R"({"value":false,"type":"bool"})");
  EXPECT_EQ(typed(value("true || ub")), R"({"value":true,"type":"bool"})");
}

TEST_F(Unknowns, TemplateKeepsKnownPrefix) {
  Value v = value(R"("abc-${us}-def")");
  EXPECT_FALSE(v.is_known());
  EXPECT_TRUE(v.refinement().not_null);
  EXPECT_EQ(v.refinement().prefix, "abc-");
  EXPECT_EQ(value(R"("${us}x")").refinement().prefix, "");
  // A lone interpolation is the value itself.
  EXPECT_FALSE(value(R"("${un}")").refinement().not_null);
}

TEST_F(Unknowns, ConditionalRefinesFromBothResults) {
  Value v = value("ub ? 1 : 5");
  EXPECT_FALSE(v.is_known());
  EXPECT_TRUE(v.refinement().not_null);
  ASSERT_TRUE(v.refinement().has_lower && v.refinement().has_upper);
  EXPECT_EQ(v.refinement().lower.text(), "1");
  EXPECT_EQ(v.refinement().upper.text(), "5");
  Value s = value(R"(ub ? "a" : "b")");
  EXPECT_EQ(s.type(), Type::string());
  EXPECT_TRUE(s.refinement().not_null);
  Value l = value("ub ? tolist([1, 2]) : tolist([3])");
  EXPECT_EQ(l.refinement().min_length, 1u);
  EXPECT_EQ(l.refinement().max_length, 2u);
  // Bounds of unknown results widen the range; nulls on both sides stay null.
  Value w = value("ub ? un : 5");
  EXPECT_FALSE(w.refinement().has_lower);
  EXPECT_FALSE(w.refinement().not_null);
  EXPECT_TRUE(value("ub ? null : null").is_null());
  // The unchosen branch's errors are never reported when the condition is unknown.
  Outcome r = eval("ub ? nope : 1", ctx);
  EXPECT_TRUE(r.result.diagnostics.empty());
  EXPECT_FALSE(r.result.value.is_known());
}

TEST_F(Unknowns, CollectionsAndSplats) {
  EXPECT_EQ(value("[for x in ul : x]").type(), Type::dynamic());
  EXPECT_EQ(value("{for x in dyn : x => x}").type(), Type::dynamic());
  Value s = value("ul[*]");
  EXPECT_FALSE(s.is_known());
  EXPECT_EQ(s.type(), Type::list(Type::string()));
  EXPECT_TRUE(s.refinement().not_null);
  EXPECT_EQ(value("dyn[*]").type(), Type::dynamic());
  // An unknown key makes the whole object unknown.
  EXPECT_EQ(value("{(us) = 1}").type(), Type::dynamic());
  EXPECT_EQ(value("ul[0]").type(), Type::string());
  EXPECT_EQ(value("dyn.a.b").type(), Type::dynamic());
}

TEST_F(Unknowns, ForOverUnknownStillChecksItsCondition) {
  // hcl 2.23+: the early check of the `if` clause comes first.
  Outcome r = eval("[for x in ul : x if null]", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Condition is null");
  EXPECT_EQ(value("[for x in ul : x if x != \"\"]").type(), Type::dynamic());
}

TEST_F(Unknowns, TryAndCan) {
  EXPECT_EQ(value("try(un, 1)").type(), Type::dynamic());
  EXPECT_FALSE(value("can(un)").is_known());
  EXPECT_EQ(typed(value("try(nope, n)")), R"({"value":3,"type":"number"})");
  EXPECT_EQ(typed(value("can(nope)")), R"({"value":false,"type":"bool"})");
}

// --- marks ---------------------------------------------------------------------------

class Marked : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx = functions_only();
    ctx.set("secret", Value::string("pw").mark("sensitive"));
    ctx.set("sn", Value::integer(7).mark("sensitive"));
    ctx.set("sb", Value::boolean(true).mark("sensitive"));
    ctx.set("slist", Value::tuple({Value::integer(1), Value::integer(2)}).mark("sensitive"));
    ctx.set("sobj", Value::object({{"a", Value::integer(1)}}).mark("sensitive"));
  }
  Value value(std::string_view src) {
    Outcome r = eval(src, ctx);
    EXPECT_TRUE(r.result.diagnostics.empty()) << src << ": " << summaries(r.result.diagnostics);
    return r.result.value;
  }
  EvalContext ctx;
};

TEST_F(Marked, OperatorsCarryMarks) {
  EXPECT_TRUE(value("sn + 1").marks().has("sensitive"));
  EXPECT_TRUE(value("sn > 1").marks().has("sensitive"));
  EXPECT_TRUE(value("-sn").marks().has("sensitive"));
  EXPECT_TRUE(value("!sb").marks().has("sensitive"));
  EXPECT_TRUE(value("sn == 7").marks().has("sensitive"));
}

// Two plain bools are combined in place, the logic operators taking both
// their operands' mark entries: marked operands beside them keep theirs.
TEST_F(Marked, LogicOnPlainBoolsBesideMarkedOnes) {
  // Variables: the compiler cannot know they are plain, so their operators
  // keep mark entries, which the in-place path must take off.
  ctx.set("pb", Value::boolean(true));
  ctx.set("pf", Value::boolean(false));
  EXPECT_TRUE(value("(pb && pf) || sb").marks().has("sensitive"));
  EXPECT_TRUE(value("sb || (pb && pf)").marks().has("sensitive"));
  EXPECT_TRUE(value("((pb && sb) || pf) && pb").marks().has("sensitive"));
  EXPECT_TRUE(value("(pb == pf) != (sb && pb)").marks().has("sensitive"));
  EXPECT_FALSE(value("(pb == pf) != (pf || pb)").is_marked());
  Value t = value("[pb && pf, pb || pf, pb == pf, pb != pf, sb && pb, pf || (pb && pb)]");
  EXPECT_EQ(typed(t.unmark_deep().first),
            R"({"value":[false,true,false,true,true,true],"type":["tuple",["bool","bool","bool","bool","bool","bool"]]})");
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(t.element(i).is_marked(), i == 4) << i;
  Value m = value("[for x in slist : (x > 1 && pb) == (pf || x == 2)]");
  EXPECT_TRUE(m.marks().has("sensitive"));
  EXPECT_EQ(typed(m.unmark_deep().first),
            R"({"value":[true,true],"type":["tuple",["bool","bool"]]})");
}

TEST_F(Marked, TemplatesAndTraversals) {
  Value t = value(R"("x-${secret}")");
  EXPECT_TRUE(t.marks().has("sensitive"));
  EXPECT_EQ(t.unmark().as_string(), "x-pw");
  EXPECT_TRUE(value("sobj.a").marks().has("sensitive"));
  EXPECT_TRUE(value("slist[0]").marks().has("sensitive"));
  EXPECT_TRUE(value("[for x in slist : x]").marks().has("sensitive"));
  EXPECT_TRUE(value("slist[*]").marks().has("sensitive"));
}

TEST_F(Marked, ConditionalResultsCarryAllMarks) {
  // hcl 2.23+: the marks of the condition and of both results, whichever is chosen.
  EXPECT_TRUE(value("sb ? 1 : 2").marks().has("sensitive"));
  EXPECT_TRUE(value("true ? sn : 2").marks().has("sensitive"));
  EXPECT_TRUE(value("true ? 2 : sn").marks().has("sensitive"));
  EXPECT_EQ(typed(value("true ? 2 : sn")), R"({"value":2,"type":"number"})");
  EXPECT_FALSE(value("true ? 1 : 2").is_marked());
}

TEST_F(Marked, ForAndSplatKeepMarks) {
  EXPECT_TRUE(value("[for x in slist : x if x > 0]").marks().has("sensitive"));
  EXPECT_TRUE(value("{for x in slist : x => x}").marks().has("sensitive"));
  EXPECT_TRUE(value("sobj[*]").marks().has("sensitive"));
  EXPECT_TRUE(value("sobj[*].a").marks().has("sensitive"));
}

TEST_F(Marked, KeysMarkTheObject) {
  EXPECT_TRUE(value("{(secret) = 1}").marks().has("sensitive"));
  EXPECT_TRUE(value("{for x in slist : x => x}").marks().has("sensitive"));
}

// --- contexts ---------------------------------------------------------------------------

TEST(VmContext, NestedScopesAndSuggestions) {
  EvalContext root = functions_only();
  root.set("alpha", Value::integer(1));
  EvalContext child(&root);
  child.set("beta", Value::integer(2));
  Outcome r = eval("alpha + beta", child);
  EXPECT_EQ(typed(r.result.value), R"({"value":3,"type":"number"})");

  r = eval("alpah", child);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail,
            "There is no variable named \"alpah\". Did you mean \"alpha\"?");
  // For variables in scope are suggested too.
  r = eval("[for item in [1] : iten]", child);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail,
            "There is no variable named \"iten\". Did you mean \"item\"?");
}

TEST(VmContext, FunctionSuggestions) {
  EvalContext ctx = functions_only();
  Outcome r = eval("uppr(\"a\")", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Call to unknown function");
  EXPECT_EQ(r.result.diagnostics[0].detail,
            "There is no function named \"uppr\". Did you mean \"upper\"?");
  // Inside a for expression the reference's context has no functions to suggest.
  r = eval("[for x in [1] : uppr(x)]", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail, "There is no function named \"uppr\".");
}

// The reference lists the functions of the context it was given: a child
// that only inherits its parent's table suggests none; one given the same
// table itself does (as Terraform's scopes are).
TEST(VmContext, FunctionSuggestionsFromTheContextsOwnTable) {
  EvalContext parent = functions_only();
  EvalContext inherits(&parent);
  Outcome r = eval("uppr(\"a\")", inherits);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail, "There is no function named \"uppr\".");
  EXPECT_EQ(inherits.own_functions(), nullptr);
  EvalContext owns(&parent);
  owns.set_functions(std::shared_ptr<const FunctionTable>(parent.functions(), [](auto*) {}));
  r = eval("uppr(\"a\")", owns);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail,
            "There is no function named \"uppr\". Did you mean \"upper\"?");
  // A known function is found through the parent either way.
  EXPECT_FALSE(eval("upper(\"a\")", inherits).result.has_errors());
}

TEST(VmContext, NamespacedFunctions) {
  auto table = std::make_shared<FunctionTable>();
  auto f = std::make_shared<Function>();
  f->type = Function::static_return(Type::string());
  f->impl = [](std::span<const Value>, const Type*) { return FuncResult::of(Value::string("x")); };
  table->add("ns::foo", f);
  EvalContext ctx;
  ctx.set_functions(table);
  Outcome r = eval("other::foo()", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail, "There are no functions in namespace \"other::\".");
  EXPECT_EQ(short_range(*r.result.diagnostics[0].subject), "1:1-1:11");
  r = eval("ns::bar()", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].detail,
            "There is no function named \"bar\" in namespace ns::.");
}

// One Vm keeps the functions it found while the table stays the same,
// across child contexts made afresh for each run; a table changed between
// runs, or another table (made where a freed one was), is looked up again.
TEST(VmContext, FunctionsFoundFollowTheTable) {
  auto constant = [](const char* text) {
    auto f = std::make_shared<Function>();
    f->type = Function::static_return(Type::string());
    f->impl = [text](std::span<const Value>, const Type*) {
      return FuncResult::of(Value::string(text));
    };
    return f;
  };
  ExprParse p = parse_expression(make_source("<expr>", "f()"));
  ASSERT_FALSE(p.has_errors());
  std::shared_ptr<const Program> prog = compile_expression(*p.expr, p.source).program;
  Vm vm;
  auto run = [&](const EvalContext& ctx) {
    EvalResult r = vm.run(*prog, ctx);
    return r.has_errors() ? r.diagnostics[0].summary : std::string(r.value.as_string());
  };
  auto table = std::make_shared<FunctionTable>();
  table->add("f", constant("one"));
  EvalContext parent;
  parent.set_functions(table);
  for (int i = 0; i < 3; ++i) {
    EvalContext child(&parent);
    EXPECT_EQ(run(child), "one");
  }
  table->add("f", constant("two"));  // changed between runs, same context
  EXPECT_EQ(run(parent), "two");
  table->remove("f");
  EXPECT_EQ(run(parent), "Call to unknown function");
  for (int i = 0; i < 20; ++i) {
    const char* text = i % 2 ? "odd" : "even";
    EvalContext ctx;
    {
      auto t = std::make_shared<FunctionTable>();
      t->add("f", constant(text));
      ctx.set_functions(std::move(t));  // freed with ctx: the next may reuse its address
    }
    EXPECT_EQ(run(ctx), text);
  }
  FunctionTable a;
  a.add("f", constant("a"));
  FunctionTable b = a;
  EXPECT_NE(a.serial(), b.serial());
  uint64_t before = b.serial();
  FunctionTable c = std::move(b);
  EXPECT_NE(b.serial(), before);
  EXPECT_NE(c.serial(), before);
}

// The variables a diagnostic lists are read from each run's context,
// however often the same expression reports the same error on a thread.
TEST(VmContext, RepeatedDiagnosticsListEachRunsValues) {
  ExprParse p = parse_expression(make_source("<expr>", "x + 1"));
  ASSERT_FALSE(p.has_errors());
  std::shared_ptr<const Program> prog = compile_expression(*p.expr, p.source).program;
  Vm vm;
  for (const char* x : {"a", "b", "a", "c"}) {
    EvalContext ctx;
    ctx.set("x", Value::string(x));
    EvalResult r = vm.run(*prog, ctx);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].expression_values,
              std::vector<std::string>({std::string("x as \"") + x + "\""}));
  }
}

TEST(VmContext, NoFunctionTable) {
  EvalContext ctx;
  Outcome r = eval("upper(\"a\")", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Function calls not allowed");
  EXPECT_EQ(short_range(*r.result.diagnostics[0].subject), "1:1-1:11");
}

TEST(VmContext, ContextRanges) {
  EvalContext ctx = functions_only();
  Outcome r = eval("1 + \"a\"", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(short_range(*r.result.diagnostics[0].subject), "1:5-1:8");
  EXPECT_EQ(short_range(*r.result.diagnostics[0].context), "1:1-1:8");
  r = eval("upper(1, 2)", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Too many function arguments");
  EXPECT_EQ(short_range(*r.result.diagnostics[0].subject), "1:10-1:11");
  EXPECT_EQ(short_range(*r.result.diagnostics[0].context), "1:1-1:12");
  r = eval("[for x in null : x]", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(short_range(*r.result.diagnostics[0].subject), "1:11-1:15");
  EXPECT_EQ(short_range(*r.result.diagnostics[0].context), "1:1-1:20");
}

TEST(VmContext, TryErrorListsTheFailures) {
  EvalContext ctx = functions_only();
  Outcome r = eval("try(a, b)", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Error in function call");
  EXPECT_EQ(r.result.diagnostics[0].detail,
            "Call to function \"try\" failed: no expression succeeded:\n"
            "- Unknown variable (at <expr>:1,5-6)\n  There is no variable named \"a\".\n"
            "- Unknown variable (at <expr>:1,8-9)\n  There is no variable named \"b\".\n"
            "\nAt least one expression must produce a successful result.");
}

// Without a context (the reference's Value(nil)), or with contexts that
// have no variables at all, a variable is "Variables not allowed" at its
// root name; inside a for expression its variables make it "Unknown
// variable" again (the reference's child context has variables).
TEST(VmContext, VariablesNotAllowed) {
  auto run = [](std::string_view src, const EvalContext* ctx) {
    ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
    auto prog = compile_expression(*p.expr, p.source).program;
    Vm vm;
    return vm.run(*prog, ctx);
  };
  EvalResult r = run("a.b + 1", nullptr);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Variables not allowed");
  EXPECT_EQ(r.diagnostics[0].detail, "Variables may not be used here.");
  EXPECT_EQ(short_range(*r.diagnostics[0].subject), "1:1-1:2");
  r = run("[for x in [1] : x + y]", nullptr);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Unknown variable");
  r = run("upper(\"a\")", nullptr);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Function calls not allowed");
  EvalContext fns = functions_only();
  fns.set("a", Value::integer(1));
  fns.set_variables_allowed(false);
  r = run("upper(\"a\") == \"A\" ? a : 0", &fns);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Variables not allowed");
  EvalContext child(&fns);
  child.set("b", Value::integer(2));
  r = run("b", &child);
  EXPECT_TRUE(r.diagnostics.empty());
  r = run("a", &child);  // a child with variables: the parent's are not seen
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Unknown variable");
}

// The text renderer lists the values of the failing expression's variables
// under the snippet; the expected texts are the reference's (gohcl-bench
// eval with these variables), for-locals included.
TEST(VmContext, DiagnosticsListVariableValues) {
  EvalContext ctx = functions_only();
  ctx.set("x", Value::string("foo"));
  ctx.set("n", Value::null(Type::dynamic()));
  ctx.set("l", Value::tuple({Value::integer(1), Value::integer(2)}));
  ctx.set("o", Value::object({{"a", Value::integer(1)}}));
  ctx.set("m", Value::object({{"k", Value::string("v")}}));
  auto text = [&](std::string_view src) {
    Outcome r = eval(src, ctx);
    diag::SnippetFiles files;
    files.emplace("<expr>", diag::SnippetFile{r.parse.source->text(), {}});
    return diag::render_text(r.result.diagnostics, files, diag::TextStyle{});
  };
  EXPECT_EQ(text("x + 1"),
            "Error: Invalid operand\n\n  on <expr> line 1:\n   1: x + 1\n\nwith x as \"foo\".\n\n"
            "Unsuitable value for left operand: a number is required.\n\n");
  EXPECT_EQ(text("n ? 1 : m[\"k\"]"),
            "Error: Null condition\n\n  on <expr> line 1:\n   1: n ? 1 : m[\"k\"]\n\n"
            "with n set to null.\n\n"
            "The condition value is null. Conditions must either be true or false.\n\n");
  // Inside a for expression the for variables count, and each traversal
  // is listed once, sorted.
  Outcome r = eval("[for i, v in l : (v + i) * x + o.a]", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 2u);
  EXPECT_EQ(r.result.diagnostics[0].expression_values, std::vector<std::string>({"x as \"foo\""}));
  // (The newest reference puts an operator's conversion errors before its
  // operands' diagnostics.)
  r = eval("o.a + (l[0] > 0 ? x : o) + m.k", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 2u);
  EXPECT_EQ(r.result.diagnostics[0].expression_values, std::vector<std::string>({"m.k as \"v\""}));
  EXPECT_EQ(r.result.diagnostics[1].summary, "Inconsistent conditional result types");
  EXPECT_EQ(r.result.diagnostics[1].expression_values,
            std::vector<std::string>({"l[0] as 1", "o as object with 1 attribute \"a\"",
                                      "x as \"foo\""}));
  // Failing traversals and unknown values are left out.
  ctx.set("u", Value::unknown(Type::number()));
  r = eval("u + x + nope", ctx);
  for (const Diagnostic& d : r.result.diagnostics)
    for (const std::string& v : d.expression_values) EXPECT_EQ(v.find("u "), std::string::npos);
}

// The errors of try() and can() themselves list the call's variables (the
// diagnostics of their arguments do not), and an expression that ends with
// a heredoc lists its variables too (hcl v2.24.0's gohcl-bench, from the
// random differential cases).
TEST(VmContext, TryCanAndHeredocsListVariableValues) {
  EvalContext ctx = functions_only();
  ctx.set("x", Value::string("foo"));
  ctx.set("f", Value::boolean(true));
  Outcome r = eval("try(x * 1)", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Error in function call");
  EXPECT_EQ(r.result.diagnostics[0].expression_values, std::vector<std::string>({"x as \"foo\""}));
  r = eval("can(f, x)", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].summary, "Too many function arguments");
  EXPECT_EQ(r.result.diagnostics[0].expression_values,
            std::vector<std::string>({"f as true", "x as \"foo\""}));
  // Inside an outer try() the inner one's failure is folded, without values.
  r = eval("try(try(x * 1))", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].expression_values, std::vector<std::string>({"x as \"foo\""}));
  r = eval("f || <<EOT\n${x}\nEOT\n", ctx);
  ASSERT_EQ(r.result.diagnostics.size(), 1u);
  EXPECT_EQ(r.result.diagnostics[0].expression_values, std::vector<std::string>({"x as \"foo\""}));
}

// --- sharing and reuse --------------------------------------------------------------------

TEST(VmReuse, ProgramSharedBetweenThreads) {
  EvalContext ctx = functions_only();
  ctx.set("xs", Value::tuple({Value::integer(1), Value::integer(2), Value::integer(3)}));
  ExprParse p = parse_expression(make_source("<expr>", "[for x in xs : \"v${x * 2}\"]"));
  auto prog = compile_expression(*p.expr, p.source).program;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      Vm vm;
      for (int i = 0; i < 200; ++i)
        if (typed(vm.run(*prog, ctx).value) !=
            R"({"value":["v2","v4","v6"],"type":["tuple",["string","string","string"]]})")
          ++bad;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(VmReuse, WarmVmAllocatesNothingForScalars) {
  if (!alloc_count::kAllocCounting)
    GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  EvalContext ctx = functions_only();
  ctx.set("x", Value::integer(20));
  ctx.set("obj", Value::object({{"a", Value::integer(1)}, {"b", Value::boolean(true)}}));
  ctx.set("csv", Value::string("red,green,blue,cyan,magenta,yellow,black,white"));
  // New strings and fractions too: their blocks are recycled on the thread;
  // functions that build collections or text on the way; and failed
  // accesses inside try() and can(), whose diagnostics are dropped.
  for (const char* src : {"x * 2 + 1", "obj.a + x > 3 && obj.b", "x > 5 ? obj.a : 0",
                          "-x % 7 == 1 || !obj.b", "\"v${x}-${obj.a}\"", "x / 3 + 1.5",
                          "upper(\"a${x}\")", "upper(join(\"-\", reverse(split(\",\", csv))))",
                          "lookup(merge(obj, {c = x}), \"c\", 0)", "length(keys(obj)) + 1",
                          // Failures that try() and can() drop.
                          "try(obj[\"nope\"].z[0], 8080)", "try(obj.nope, x)",
                          "can(obj.a.b) ? 1 : 2", "try([x][3], [][0], -1)"}) {
    ExprParse p = parse_expression(make_source("<expr>", src));
    auto prog = compile_expression(*p.expr, p.source).program;
    Vm vm;
    for (int i = 0; i < 3; ++i) vm.run(*prog, ctx);
    long before = alloc_count::allocations();
    for (int i = 0; i < 100; ++i) {
      EvalResult r = vm.run(*prog, ctx);
      EXPECT_TRUE(r.diagnostics.empty());
    }
    EXPECT_EQ(alloc_count::allocations() - before, 0) << src;
  }
}

TEST(VmReuse, LoneTraversalsAnswerAsTheInterpreterDoes) {
  // A program that is one traversal from a variable is answered without
  // the interpreter once a Vm knows the context, and only when every step
  // is found in place. A fresh Vm takes the long way on its first run, so
  // each answer of the warm Vm is checked against a fresh one's, while the
  // context's values, types and variables change between runs.
  auto outcome = [](const EvalResult& r) {
    std::string s = typed(r.value) + " marks=" + std::to_string(r.value.unmark_deep().second.size());
    for (const Diagnostic& d : r.diagnostics)
      s += "\n" + d.summary + ": " + d.detail + (d.subject ? " @" + short_range(*d.subject) : "");
    return s;
  };
  Value a = Value::object({{"k", Value::integer(1)}, {"l", Value::tuple({Value::string("x")})}});
  Value b = Value::object({{"j", Value::boolean(true)}, {"k", Value::string("s")}});
  Value m = Value::map(Type::string(), {{"k", Value::string("in map")}});
  std::vector<Value> roots = {a,
                              b,
                              m,
                              a.mark("sensitive"),
                              Value::object({{"k", Value::integer(2).mark("inner")}}),
                              Value::unknown(Type::dynamic()),
                              Value::null(Type::dynamic()),
                              Value::tuple({}),
                              Value::string("not an object")};
  const char* exprs[] = {"v", "v.k", "v[\"k\"]", "v.l[0]", "v.l[1]", "v.j", "v.nope", "w", "v.k.z"};
  std::vector<std::shared_ptr<const Program>> progs;
  std::vector<ExprParse> parses;
  for (const char* e : exprs) {
    parses.push_back(parse_expression(make_source("<expr>", e)));
    progs.push_back(compile_expression(*parses.back().expr, parses.back().source).program);
  }
  EvalContext parent;
  EvalContext ctx(&parent);
  Vm warm;
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < roots.size(); ++i) {
      // The variable in the context itself, then only in its parent.
      if (round == 1) {
        ctx = EvalContext(&parent);
        parent.set("v", roots[i]);
      } else {
        ctx.set("v", roots[i]);
      }
      for (size_t e = 0; e < progs.size(); ++e) {
        for (int again = 0; again < 2; ++again) {
          Vm fresh;
          std::string want = outcome(fresh.run(*progs[e], ctx));
          EXPECT_EQ(outcome(warm.run(*progs[e], ctx)), want)
              << exprs[e] << " with root " << i << " in round " << round;
          EXPECT_EQ(warm.stats().steps, 0u);
          EXPECT_FALSE(warm.stats().limit_hit);
        }
      }
    }
  }
}

TEST(VmReuse, OneVmManyPrograms) {
  // Inline caches belong to one program: switching programs must not reuse them.
  EvalContext ctx;
  ctx.set("a", Value::object({{"p", Value::integer(1)}, {"q", Value::integer(2)}}));
  ExprParse p1 = parse_expression(make_source("<expr>", "a.p"));
  ExprParse p2 = parse_expression(make_source("<expr>", "a.q"));
  auto prog1 = compile_expression(*p1.expr, p1.source).program;
  auto prog2 = compile_expression(*p2.expr, p2.source).program;
  Vm vm;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(typed(vm.run(*prog1, ctx).value), R"({"value":1,"type":"number"})");
    EXPECT_EQ(typed(vm.run(*prog2, ctx).value), R"({"value":2,"type":"number"})");
  }
  // And an attribute step meets objects of different types.
  ExprParse p3 = parse_expression(make_source("<expr>", "[for o in xs : o.k]"));
  auto prog3 = compile_expression(*p3.expr, p3.source).program;
  EvalContext c3;
  c3.set("xs",
         Value::tuple({Value::object({{"k", Value::integer(1)}}),
                       Value::object({{"a", Value::boolean(true)}, {"k", Value::string("s")}})}));
  EXPECT_EQ(typed(vm.run(*prog3, c3).value),
            R"({"value":[1,"s"],"type":["tuple",["number","string"]]})");
}

TEST(VmReuse, InlineCachesRememberMissingAttributesPerType) {
  // A cache slot also remembers that a type lacks the attribute: the same
  // error each time, and the attribute found as soon as an object has it.
  ExprParse p =
      parse_expression(make_source("<expr>", "[for o in xs : try(o[\"k\"], o.k, \"none\")]"));
  auto prog = compile_expression(*p.expr, p.source).program;
  ExprParse q = parse_expression(make_source("<expr>", "o[\"k\"]"));
  auto bare = compile_expression(*q.expr, q.source).program;
  EvalContext ctx = functions_only();
  Value without = Value::object({{"a", Value::integer(1)}});
  Value with = Value::object({{"a", Value::integer(1)}, {"k", Value::string("s")}});
  ctx.set("xs", Value::tuple({without, with, without, with}));
  Vm vm;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(
        typed(vm.run(*prog, ctx).value),
        R"({"value":["none","s","none","s"],"type":["tuple",["string","string","string","string"]]})");
    for (bool has : {false, true}) {
      EvalContext c;
      c.set("o", has ? with : without);
      EvalResult r = vm.run(*bare, c);
      if (has) {
        EXPECT_EQ(typed(r.value), R"({"value":"s","type":"string"})");
        continue;
      }
      ASSERT_EQ(r.diagnostics.size(), 1u);
      EXPECT_EQ(r.diagnostics[0].summary, "Invalid index");
      EXPECT_EQ(r.diagnostics[0].detail,
                "The given key does not identify an element in this collection value.");
      EXPECT_EQ(range_string(*r.diagnostics[0].subject), "<expr>:1,2-7");
    }
  }
}

TEST(VmReuse, InlineCachesLookWhereTheCachedTypeHadTheAttribute) {
  // On a miss the attribute is first looked for at the index the cached
  // type had it: objects of other types with the same names find it there
  // (their lists of other lengths), and objects with another name at that
  // index, or without the attribute, must not take what is there.
  ExprParse p = parse_expression(make_source("<expr>", "[for o in xs : try(o.k, \"none\")]"));
  auto prog = compile_expression(*p.expr, p.source).program;
  EvalContext ctx = functions_only();
  auto obj = [](std::vector<std::pair<std::string, Value>> attrs) {
    return Value::object(std::move(attrs));
  };
  ctx.set("xs",
          Value::tuple({obj({{"a", Value::integer(1)}, {"k", Value::integer(2)}}),
                        obj({{"a", Value::tuple({Value::integer(1)})}, {"k", Value::string("x")}}),
                        obj({{"a", Value::integer(3)}, {"j", Value::integer(4)}}),
                        obj({{"k", Value::boolean(true)}, {"z", Value::integer(5)}}),
                        obj({{"a", Value::tuple({})}, {"k", Value::integer(6)}}),
                        obj({{"a", Value::integer(7)}})}));
  Vm vm;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(typed(vm.run(*prog, ctx).value),
              R"({"value":[2,"x","none",true,6,"none"],)"
              R"("type":["tuple",["number","string","string","bool","number","string"]]})");
  }
}

TEST(VmReuse, ObjectConstructorsFollowTheirValuesTypes) {
  // A static object's type is cached per constructor: values of other types
  // (the attributes in another order than written, one written twice) get
  // their own type each run, and the attributes land in their slots.
  ExprParse p = parse_expression(
      make_source("<expr>", "[for x in xs : { z = x, a = \"s\", m = { k = x, k = 1 } }]"));
  auto prog = compile_expression(*p.expr, p.source).program;
  EvalContext ctx = functions_only();
  ctx.set("xs", Value::tuple({Value::integer(1), Value::string("t"), Value::integer(2),
                              Value::boolean(true)}));
  Vm vm;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(
        typed(vm.run(*prog, ctx).value),
        R"({"value":[{"a":"s","m":{"k":1},"z":1},{"a":"s","m":{"k":1},"z":"t"},)"
        R"({"a":"s","m":{"k":1},"z":2},{"a":"s","m":{"k":1},"z":true}],"type":["tuple",[)"
        R"(["object",{"a":"string","m":["object",{"k":"number"}],"z":"number"}],)"
        R"(["object",{"a":"string","m":["object",{"k":"number"}],"z":"string"}],)"
        R"(["object",{"a":"string","m":["object",{"k":"number"}],"z":"number"}],)"
        R"(["object",{"a":"string","m":["object",{"k":"number"}],"z":"bool"}]]]})");
  }
}

TEST(VmReuse, RememberedTupleTypesFollowTheElements) {
  // Splat and for results remember their tuple types by length and first
  // element type: results alike in both but not in a later element must
  // still get their own type, run after run.
  std::vector<std::shared_ptr<const Program>> progs;
  for (const char* src : {"xs[*].v", "[for x in xs : x.v]", "{ for x in xs : \"k\" => x.v... }"}) {
    ExprParse p = parse_expression(make_source("<expr>", src));
    progs.push_back(compile_expression(*p.expr, p.source).program);
  }
  auto row = [](Value second) {
    return Value::tuple(
        {Value::object({{"v", Value::integer(1)}}), Value::object({{"v", std::move(second)}})});
  };
  Vm vm;
  for (int i = 0; i < 3; ++i) {
    for (auto& [second, type] :
         std::vector<std::pair<Value, std::string>>{{Value::string("a"), "string"},
                                                    {Value::boolean(true), "bool"},
                                                    {Value::integer(2), "number"}}) {
      EvalContext ctx = functions_only();
      ctx.set("xs", row(second));
      std::string tuple = R"(["tuple",["number",")" + type + R"("]])";
      auto type_of = [&](size_t k) {
        std::string t = typed(vm.run(*progs[k], ctx).value);
        return t.substr(t.find("\"type\""));
      };
      EXPECT_EQ(type_of(0), "\"type\":" + tuple + "}");
      EXPECT_EQ(type_of(1), "\"type\":" + tuple + "}");
      EXPECT_EQ(type_of(2), R"("type":["object",{"k":)" + tuple + "}]}");
    }
  }
}

TEST(VmFor, KeysFoundBeforeAndAfterTheHashTable) {
  // Object `for` keys are compared in place up to 16 keys and through a
  // hash table after that: duplicates and groups are found either way.
  std::vector<Value> xs;
  for (int i = 0; i < 40; ++i) xs.push_back(Value::integer(i));
  EvalContext ctx = functions_only();
  ctx.set("xs", Value::tuple(xs));
  Vm vm;
  auto run = [&](const char* src) {
    ExprParse p = parse_expression(make_source("<expr>", src));
    auto prog = compile_expression(*p.expr, p.source).program;
    return vm.run(*prog, ctx);
  };
  for (const char* src : {"{ for x in xs : \"k${x == 30 ? 3 : x}\" => x }",
                          "{ for x in xs : \"k${x == 5 ? 3 : x}\" => x }"}) {
    EvalResult r = run(src);
    ASSERT_EQ(r.diagnostics.size(), 1u) << src;
    EXPECT_EQ(r.diagnostics[0].summary, "Duplicate object key");
    EXPECT_NE(r.diagnostics[0].detail.find("\"k3\""), std::string::npos);
  }
  EvalResult g = run("{ for x in xs : \"g${x % 20}\" => x... }");
  ASSERT_TRUE(g.diagnostics.empty());
  ASSERT_EQ(g.value.type()->size(), 20u);
  for (int k = 0; k < 20; ++k) {
    const Value& group = g.value.attr(*g.value.type()->find_attr("g" + std::to_string(k)));
    ASSERT_EQ(group.length(), 2u);
    EXPECT_EQ(group.element(0).small_int(), k);
    EXPECT_EQ(group.element(1).small_int(), k + 20);
  }
  EvalResult all = run("{ for x in xs : \"k${x}\" => x }");
  EXPECT_TRUE(all.diagnostics.empty());
  EXPECT_EQ(all.value.type()->size(), 40u);
}

}  // namespace
}  // namespace hclvm

// Tests of the function library: the differential golden data from the
// reference (tests/golden/funcs/expected.tsv, made by gen.sh from
// cases.txt) replayed through Function::call, with the arguments converted
// to the parameter types and errors worded as HCL's function call
// expression words them; then table-driven cases the reference's text
// output cannot show (unknowns, marks, refinements, newer behaviour).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <future>
#include <string>
#include <vector>

#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "test_util.h"
#include "value/convert.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/render.h"

namespace hclvm {
namespace {

const FunctionTable& table() {
  static const FunctionTable t = default_functions();
  return t;
}

// What a call gave: a typed JSON result, or a diagnostic summary and detail.
struct Outcome {
  std::string result;  // typed JSON, empty on error
  std::string summary, detail;
};

// Calls [fn] with [args] as HCL's FunctionCallExpr would after evaluating
// them: each converted to its parameter's type, errors turned into the
// diagnostic HCL reports.
Outcome call(std::string_view fn, std::vector<Value> args) {
  Outcome out;
  const Function* f = table().find(fn);
  if (!f) {
    out.summary = "Call to unknown function";
    return out;
  }
  auto param_name = [&](size_t i) {
    return i < f->params.size() ? f->params[i].name : f->var_param ? f->var_param->name : "";
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const Param* p = i < f->params.size() ? &f->params[i] : f->var_param ? &*f->var_param : nullptr;
    if (!p) break;
    ConvertResult c = convert(args[i], p->type);
    if (!c.ok()) {
      out.summary = "Invalid function argument";
      out.detail =
          "Invalid value for \"" + param_name(i) + "\" parameter: " + c.error().message + ".";
      return out;
    }
    args[i] = c.take();
  }
  FuncResult r = f->call(args);
  if (!r.ok()) {
    if (r.error->arg >= 0) {
      out.summary = "Invalid function argument";
      out.detail = "Invalid value for \"" + param_name(size_t(r.error->arg)) +
                   "\" parameter: " + r.error->message + ".";
    } else {
      out.summary = "Error in function call";
      out.detail = "Call to function \"" + std::string(fn) + "\" failed: " + r.error->message + ".";
    }
    return out;
  }
  JsonResult<std::string> j = to_json_typed(r.value);
  if (j.ok()) {
    out.result = j.value;
  } else {
    // What the oracle prints for values JSON cannot hold (infinities,
    // unknowns): cty's GoString.
    JsonResult<std::string> t = type_to_json(r.value.type());
    out.result = "{\"repr\":" + json_quote(go_string(r.value)) + ",\"type\":" +
                 (t.ok() ? t.value : "?") + "}";
  }
  return out;
}

// Undoes gen.py's escaping of a field.
std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The oracle's text output wraps details; compare them with line breaks as spaces.
std::string unwrap(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

struct GoldenCase {
  std::string expr, fn, args, summary, detail;  // summary "result": detail is the result
};

std::vector<GoldenCase> load_golden() {
  std::vector<GoldenCase> cases;
  std::ifstream in(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/funcs/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    size_t start = 0;
    for (;;) {
      size_t tab = line.find('\t', start);
      fields.push_back(unescape(std::string_view(line).substr(start, tab - start)));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    if (fields.size() != 5) {
      ADD_FAILURE() << "bad golden line: " << line;
      continue;
    }
    cases.push_back({fields[0], fields[1], fields[2], fields[3], fields[4]});
  }
  return cases;
}

// Where the reference as Terraform builds it differs from the oracle's
// build (Go 1.19; Terraform uses a newer Go): the expected outcome with the
// newer Go standard library.
const std::map<std::string, Outcome>& newer_go() {
  static const std::map<std::string, Outcome> m = {
      // Go's regexp takes (?<name>...) for a named group since Go 1.22.
      {"regex(\"(?<n>a)\", \"a\")", {R"({"value":{"n":"a"},"type":["object",{"n":"string"}]})", "", ""}},
  };
  return m;
}

TEST(FuncsGoldenTest, MatchesReference) {
  std::vector<GoldenCase> cases = load_golden();
  ASSERT_GT(cases.size(), 300u) << "golden data missing";
  int checked = 0;
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.expr);
    // Argument counts are checked by the evaluator, not by call().
    if (c.summary == "Not enough function arguments" ||
        c.summary == "Too many function arguments") {
      continue;
    }
    JsonResult<Value> args = from_json(c.args, Type::dynamic());
    ASSERT_TRUE(args.ok()) << args.error->message;
    std::vector<Value> argv;
    for (size_t i = 0; i < args.value.length(); ++i) argv.push_back(args.value.element(i));
    Outcome got = call(c.fn, std::move(argv));
    Outcome want;
    if (c.summary == "result")
      want.result = c.detail;
    else
      want.summary = c.summary, want.detail = c.detail;
    if (auto it = newer_go().find(c.expr); it != newer_go().end()) want = it->second;
    if (!want.result.empty()) {
      EXPECT_EQ(got.result, want.result) << got.summary << ": " << got.detail;
    } else {
      EXPECT_EQ(got.summary, want.summary) << got.result;
      EXPECT_EQ(unwrap(got.detail), unwrap(want.detail));
    }
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// --- cases the oracle's output cannot show ------------------------------------

Value str(std::string_view s) { return Value::string(s); }
Value num(int64_t i) { return Value::integer(i); }

TEST(FuncsTest, UnknownArgumentsGiveRefinedUnknowns) {
  Outcome o;
  const Function* upper = table().find("upper");
  std::vector<Value> args = {Value::unknown(Type::string())};
  FuncResult r = upper->call(args);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value.is_known());
  EXPECT_TRUE(r.value.refinement().not_null);

  // strlen refines by the known prefix.
  Value prefixed = Value::unknown(
      Type::string(), Refinement{true, "abc", {}, {}, false, false, false, false, 0, UINT64_MAX});
  std::vector<Value> sargs = {prefixed};
  r = table().find("strlen")->call(sargs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value.is_known());
  EXPECT_TRUE(r.value.refinement().has_lower);
  EXPECT_TRUE(ops::number_equal(r.value.refinement().lower, Number::from_int(2)) ||
              ops::number_equal(r.value.refinement().lower, Number::from_int(3)));

  // format keeps the literal text before the first verb as a prefix.
  std::vector<Value> fargs = {str("id-%s"), Value::unknown(Type::string())};
  r = table().find("format")->call(fargs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value.is_known());
  EXPECT_EQ(r.value.refinement().prefix, "id-");
  EXPECT_TRUE(r.value.refinement().not_null);

  // jsonencode of a known list with unknown elements starts with "[".
  std::vector<Value> jargs = {Value::tuple({Value::unknown(Type::string())})};
  r = table().find("jsonencode")->call(jargs);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.refinement().prefix, "[");

  // length of an unknown is unknown (the reference's length has no refinement).
  std::vector<Value> largs = {Value::unknown(Type::list(Type::string()))};
  r = table().find("length")->call(largs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value.is_known());
  EXPECT_EQ(r.value.type(), Type::number());

  // keys of an unknown object is known from its type.
  std::vector<Value> kargs = {Value::unknown(
      Type::object(std::vector<TypeAttr>{{"b", Type::string()}, {"a", Type::number()}}))};
  r = table().find("keys")->call(kargs);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r.value.is_known());
  EXPECT_EQ(r.value.element(0).as_string(), "a");

  // jsondecode of an unknown string with a known prefix predicts its type.
  Value jprefix = Value::unknown(
      Type::string(), Refinement{true, "\"x", {}, {}, false, false, false, false, 0, UINT64_MAX});
  std::vector<Value> dargs = {jprefix};
  TypeResult t = table().find("jsondecode")->return_type(dargs);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.type, Type::string());
  Value bad = Value::unknown(
      Type::string(), Refinement{true, "x", {}, {}, false, false, false, false, 0, UINT64_MAX});
  std::vector<Value> bargs = {bad};
  t = table().find("jsondecode")->return_type(bargs);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error->message, "a JSON document cannot begin with 'x'");
}

TEST(FuncsTest, MarksPropagate) {
  std::vector<Value> args = {str("hi").mark("sensitive")};
  FuncResult r = table().find("upper")->call(args);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.unmark().as_string(), "HI");
  EXPECT_TRUE(r.value.marks().has("sensitive"));

  // lookup keeps the map's and key's marks, not the other elements'.
  Value m = Value::object({{"a", num(1)}, {"b", num(2).mark("inner")}}).mark("outer");
  std::vector<Value> largs = {m, str("a"), num(0)};
  r = table().find("lookup")->call(largs);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value.marks().has("outer"));
  EXPECT_FALSE(r.value.marks().has("inner"));

  // length takes top-level marks only.
  std::vector<Value> lenargs = {Value::tuple({num(1).mark("x")}).mark("y")};
  r = table().find("length")->call(lenargs);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value.marks().has("y"));
  EXPECT_FALSE(r.value.marks().has("x"));

  // reverse keeps element marks where they are.
  std::vector<Value> rargs = {Value::tuple({num(1).mark("x"), num(2)})};
  r = table().find("reverse")->call(rargs);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value.is_marked());
  EXPECT_TRUE(r.value.element(1).marks().has("x"));

  // A function without marked parameters (join) collects deep marks.
  std::vector<Value> jargs = {str("-"),
                              Value::list(Type::string(), {str("a").mark("x"), str("b")})};
  r = table().find("join")->call(jargs);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value.marks().has("x"));
}

// Marks on the unknown result of a function not called (go-cty 1.15.1 and
// 1.18.1, checked with a scratch program against go-cty v1.18.1): the
// marks of the arguments whose parameters do not take marks; abs takes
// marks, so its marked unknown argument gives an unmarked unknown.
TEST(FuncsTest, MarksOnUnknownResults) {
  auto call1 = [](const char* fn, std::vector<Value> args) {
    FuncResult r = table().find(fn)->call(args);
    EXPECT_TRUE(r.ok()) << fn;
    return r.value;
  };
  Value u = call1("upper", {Value::unknown(Type::string()).mark("s")});
  EXPECT_FALSE(u.is_known());
  EXPECT_TRUE(u.marks().has("s"));
  u = call1("ceil", {Value::unknown(Type::number()).mark("s")});
  EXPECT_TRUE(u.marks().has("s"));
  u = call1("abs", {Value::unknown(Type::number()).mark("s")});
  EXPECT_FALSE(u.is_known());
  EXPECT_FALSE(u.is_marked());
  EXPECT_TRUE(u.refinement().not_null);
  // contains(x, null): cty.DynamicVal with the marks of both arguments.
  u = call1("contains", {Value::tuple({num(1)}).mark("s"), Value::null(Type::dynamic())});
  EXPECT_EQ(u.type(), Type::dynamic());
  EXPECT_TRUE(u.marks().has("s"));
  u = call1("contains", {Value::tuple({num(1)}), Value::null(Type::dynamic()).mark("t")});
  EXPECT_TRUE(u.marks().has("t"));
}

TEST(FuncsTest, MinMaxStartFromCtyInfinities) {
  std::vector<Value> args = {Value::number(Number::infinity(false))};
  FuncResult r = table().find("min")->call(args);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value.as_number().is_inf());
  std::vector<Value> args2 = {num(3), num(-2)};
  r = table().find("max")->call(args2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.as_number().to_int64(), 3);
}

// range() stops where cty's LessThanOrEqualTo says so, with cty's equality
// of the newest release: integers compare exactly, so 2^60 (a float64
// result, whose text is 1152921504606847000) is not the parsed integer
// 1152921504606847000, and the range runs on through the 24 integers in
// between (gohcl-bench: hcl v2.24.0 + go-cty v1.18.1).
TEST(FuncsTest, RangeEndsAtCtyEquality) {
  Value start = Value::number(Number::from_double(1152921504606846976.0));
  Value end = Value::number(*Number::parse("1152921504606847000"));
  std::vector<Value> args = {start, end};
  FuncResult r = table().find("range")->call(args);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.value.length(), 24u);
  std::vector<Value> args3 = {start, end, num(10)};
  r = table().find("range")->call(args3);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(to_json_typed(r.value).value,
            R"({"value":[1152921504606847000,1152921504606846986,1152921504606846996],"type":["list","number"]})");
}

TEST(FuncsTest, FormatNumbers) {
  struct Case {
    const char* fmt;
    Value arg;
    const char* want;
  };
  const Case cases[] = {
      {"%d", num(0), "0"},
      {"%6.1f", Value::number(*Number::parse("-0.05")), "  -0.1"},
      {"%.1f", Value::number(*Number::parse("0.95")), "0.9"},
      {"%.3e", Value::number(*Number::parse("1e-300")), "1.000e-300"},
      {"%g", Value::number(*Number::parse("1e21")), "1e+21"},
      {"%v", Value::number(*Number::parse("123456789")), "1.23456789e+08"},
      {"%f", Value::number(Number::infinity(false)), "+Inf"},
      {"%8.2f|", Value::number(Number::infinity(true)), "    -Inf|"},
      {"%v", Value::number(Number::infinity(false)), "+Inf"},
      {"%x", Value::number(*Number::parse("255")), "ff"},
      {"%b", num(-5), "-101"},
      {"%+.0f", num(0), "+0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fmt);
    std::vector<Value> args = {str(c.fmt), c.arg};
    FuncResult r = table().find("format")->call(args);
    ASSERT_TRUE(r.ok()) << r.error->message;
    EXPECT_EQ(r.value.as_string(), c.want);
  }
  std::vector<Value> inf = {str("%d"), Value::number(Number::infinity(false))};
  FuncResult r = table().find("format")->call(inf);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "unsupported value for \"%d\" at 0: an integer is required");
}

// Go's regexp syntax as of the newest Go, which the oracle's Go predates.
TEST(FuncsTest, RegexGroupSyntaxOfNewestGo) {
  struct Case {
    const char* pattern;
    const char* text;
    const char* want;  // typed JSON, or the error detail
  };
  const Case cases[] = {
      {"(?<y>\\d+)-(?P<m>\\d+)", "2024-05",
       R"({"value":{"m":"05","y":"2024"},"type":["object",{"m":"string","y":"string"}]})"},
      {"[(?<]+", "(?<", R"({"value":"(?\u003c","type":"string"})"},
      {"\\(?<x", "<x", R"({"value":"\u003cx","type":"string"})"},
      {"(?<año>a)", "a",
       "Invalid value for \"pattern\" parameter: invalid regexp pattern: invalid named capture "
       "in (?<año>."},
      {"(?P<año>a)", "a",
       "Invalid value for \"pattern\" parameter: invalid regexp pattern: invalid named capture "
       "in (?P<año>."},
      {"(?<=a)b", "ab",
       "Invalid value for \"pattern\" parameter: invalid regexp pattern: invalid named capture "
       "in (?<=a)b."},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pattern);
    Outcome o = call("regex", {str(c.pattern), str(c.text)});
    EXPECT_EQ(o.result.empty() ? o.detail : o.result, c.want);
  }
}

// Patterns are remembered per thread by the address of their string:
// equal texts in other strings, more patterns than remembered slots, and
// threads at once all get their own pattern's answer.
TEST(FuncsTest, RegexPatternCacheKeepsPatternsApart) {
  auto run = [](int seed) {
    for (int round = 0; round < 3; ++round) {
      for (int i = 0; i < 40; ++i) {
        int n = (i * 7 + seed) % 40;
        std::string digits = std::to_string(n);
        Outcome o = call("regex", {str("^(" + digits + ")x"), str(digits + "x" + digits)});
        if (o.result != R"({"value":[")" + digits + R"("],"type":["tuple",["string"]]})")
          return false;
        o = call("regexall", {str(digits), str(digits + "-" + digits)});
        if (o.result.find(R"(["list","string"])") == std::string::npos) return false;
      }
    }
    return true;
  };
  std::vector<std::future<bool>> runs;
  for (int t = 0; t < 4; ++t) runs.push_back(std::async(std::launch::async, run, t));
  for (auto& r : runs) EXPECT_TRUE(r.get());
  // One string object as the pattern of many calls.
  Value pattern = str("b+");
  for (int i = 0; i < 3; ++i) {
    Outcome o = call("regex", {pattern, str("abbbc")});
    EXPECT_EQ(o.result, R"({"value":"bbb","type":"string"})");
  }
}

TEST(FuncsTest, Descriptions) {
  EXPECT_EQ(table().find("upper")->description,
            "Returns the given string with all Unicode letters translated to their uppercase "
            "equivalents.");
  EXPECT_EQ(table().find("tostring")->description,
            "Converts the given value to string, or raises an error if that conversion is "
            "impossible.");
  EXPECT_EQ(table().find("tolist")->description,
            "Converts the given value to list of dynamic, or raises an error if that conversion "
            "is impossible.");
  EXPECT_EQ(table().find("join")->params[0].name, "separator");
  EXPECT_EQ(table().find("join")->var_param->name, "lists");
}

}  // namespace
}  // namespace hclvm

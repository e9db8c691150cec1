// Tests of user-defined functions (hclvm/userfunc.h) against the reference's
// ext/userfunc.
//
// tests/golden/userfunc/*.golden come from the reference through gen.sh
// (oracle/main.go describes the case files *.txt and the line format): the
// diagnostics of decoding, in both syntaxes, the remaining body, and calls
// of the functions from expressions with their values and diagnostics.
// The tests after the golden ones check what the reference cannot show:
// recursion (where it overflows its stack) and the depth limit, one
// evaluation per call, calls from many threads, the context provider.
#include <gtest/gtest.h>
#include <hclvm/userfunc.h>
#include <hclvm/functions.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "util/stack.h"
#include "value/ops.h"

namespace hclvm {
namespace {

#if defined(__has_feature)
#define HCLVM_TEST_CLANG_ASAN __has_feature(address_sanitizer)
#else
#define HCLVM_TEST_CLANG_ASAN 0
#endif

const std::filesystem::path kGoldenDir =
    std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/userfunc";

// --- the golden line format ---------------------------------------------------------

std::string rng(const Range& r) { return test::range_line(r); }

std::string diag_text(const Diagnostic& d) { return test::diag_line(d); }

// The names of [m]'s keys in order, separated by spaces.
template <class Map>
std::string names_of(const Map& m) {
  std::string s;
  for (const auto& [name, x] : m) s += (s.empty() ? "" : " ") + std::string(name);
  return s;
}

// A file of function declarations, decoded, and the base context of the
// functions, as the golden cases have it: variables u (an unknown number),
// d (DynamicVal), s (the string "x" marked sensitive), nul (a null
// string), the function upper and the user functions themselves. Calls
// are evaluated in that context too. The provider counts its calls and
// gives the context, or null when [with_context] is false.
class Env {
 public:
  Env(std::string name, std::string text, bool with_context = true) {
    file = parse_body(make_source(std::move(name), std::move(text)));
    decoded = decode_user_functions(file.body, "function", [this, with_context] {
      ++provided;
      if (!with_context) return std::shared_ptr<const EvalContext>();
      return std::shared_ptr<const EvalContext>(std::shared_ptr<void>(), &base);
    });
    base.set("u", Value::unknown(Type::number()));
    base.set("d", Value::dynamic());
    base.set("s", Value::string("x").mark("sensitive"));
    base.set("nul", Value::null(Type::string()));
    auto table = std::make_shared<FunctionTable>();
    table->add("upper", std::shared_ptr<const Function>(default_functions().find("upper"),
                                                        [](const Function*) {}));
    decoded.add_to(*table);
    base.set_functions(std::move(table));
  }

  // Evaluates the native expression [text] (file "call.hcl").
  EvalResult call(std::string text) const {
    ExprParse p = parse_expression(make_source("call.hcl", std::move(text)));
    EXPECT_FALSE(p.has_errors());
    return Expression::from_parse(std::move(p)).value(&base);
  }

  // The value of [text], which must have no diagnostics.
  Value value(std::string text) const {
    EvalResult r = call(std::move(text));
    EXPECT_TRUE(r.diagnostics.empty()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].detail);
    return r.value;
  }

  // The detail of the one diagnostic [text] fails with.
  std::string error(std::string text) const {
    EvalResult r = call(std::move(text));
    EXPECT_TRUE(ops::raw_equal(r.value, Value::dynamic()));
    if (r.diagnostics.size() != 1) return "diagnostics: " + std::to_string(r.diagnostics.size());
    return r.diagnostics[0].detail;
  }

  ConfigFile file;
  UserFunctionsResult decoded;
  EvalContext base;
  std::atomic<int> provided{0};
};

struct Case {
  std::string name;
  bool noctx = false;
  std::string file, text;
  std::vector<std::string> calls;
};

std::vector<Case> load_cases(const std::filesystem::path& path) {
  std::istringstream in(test::read_file(path));
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("case ", 0) == 0) {
      std::istringstream w(line.substr(5));
      Case c;
      std::string mode;
      w >> c.name >> mode;
      c.noctx = mode == "noctx";
      cases.push_back(std::move(c));
    } else if (line.rfind("file ", 0) == 0) {
      cases.back().file = line.substr(5);
      for (std::string l; std::getline(in, l) && l != "end";) cases.back().text += l + "\n";
    } else if (line.rfind("call ", 0) == 0) {
      cases.back().calls.push_back(line.substr(5));
    } else {
      ADD_FAILURE() << "bad case line: " << line;
    }
  }
  return cases;
}


// What hclvm makes of [c], as golden lines.
std::vector<std::string> case_lines(const Case& c) {
  Env env(c.file, c.text, !c.noctx);
  std::vector<std::string> lines;
  for (const Diagnostic& d : env.file.diagnostics) lines.push_back("P " + diag_text(d));
  for (const Diagnostic& d : env.decoded.diagnostics) lines.push_back("D " + diag_text(d));
  lines.push_back("F " + names_of(env.decoded.functions));

  const BodySchema schema{{{"other", false}}, {{"thing", {"name"}}}};
  ContentResult rc = env.decoded.remain.content(schema);
  std::map<std::string, int> attrs;
  for (const Attribute& a : rc.content.attributes) attrs[a.name];
  lines.push_back("RA " + names_of(attrs));
  for (const Block& b : rc.content.blocks) {
    std::string labels;
    for (const std::string& l : b.labels) labels += (labels.empty() ? "" : ",") + l;
    lines.push_back("RB " + b.type + " " + labels + " " + rng(b.def_range));
  }
  for (const Diagnostic& d : rc.diagnostics) lines.push_back("RD " + diag_text(d));
  AttributesResult ja = env.decoded.remain.just_attributes();
  attrs.clear();
  for (const Attribute& a : ja.attributes) attrs[a.name];
  lines.push_back("JA " + names_of(attrs));
  for (const Diagnostic& d : ja.diagnostics) lines.push_back("JD " + diag_text(d));

  for (const std::string& call : c.calls) {
    lines.push_back("C " + call);
    EvalResult r = env.call(call);
    lines.push_back("V " + test::golden_typed(r.value));
    if (r.value.contains_marked()) {
      std::string marks;
      Marks all = r.value.unmark_deep().second;
      for (std::string_view m : all.labels()) marks += (marks.empty() ? "" : " ") + std::string(m);
      lines.push_back("M " + marks);
    }
    for (const Diagnostic& d : r.diagnostics) lines.push_back("E " + diag_text(d));
  }
  return lines;
}

class UserFuncGolden : public testing::TestWithParam<std::string> {};

TEST_P(UserFuncGolden, MatchesTheReference) {
  std::vector<std::pair<std::string, std::vector<std::string>>> got;
  for (const Case& c : load_cases(kGoldenDir / (GetParam() + ".txt")))
    got.emplace_back(c.name, case_lines(c));
  test::expect_golden(test::load_golden(kGoldenDir / (GetParam() + ".golden")), got);
}

INSTANTIATE_TEST_SUITE_P(Cases, UserFuncGolden, testing::Values("cases"));

Value num(int64_t i) { return Value::integer(i); }

// Expects [got] and [want] to be the same value (cty's RawEquals).
#define EXPECT_VALUE(got, want)                                    \
  do {                                                             \
    Value g_ = (got), w_ = (want);                                 \
    EXPECT_TRUE(ops::raw_equal(g_, w_)) << test::golden_typed(g_); \
  } while (0)

// --- the provider -------------------------------------------------------------------

TEST(UserFuncContext, AskedAtTheFirstCallOnly) {
  Env env("a.hcl", "function \"f\" {\n  params = [x]\n  result = x\n}\n");
  EXPECT_EQ(env.provided, 0);
  EXPECT_VALUE(env.value("f(1)"), num(1));
  EXPECT_VALUE(env.value("f(f(2))"), num(2));
  EXPECT_EQ(env.provided, 1);
}

TEST(UserFuncContext, AskedAgainWhileNull) {
  // Once per evaluation of a result. (The reference evaluates the result
  // of a call that succeeds twice, and so would ask 4 times here.)
  Env env("b.hcl",
          "function \"p\" {\n  params = [x]\n  result = x\n}\n"
          "function \"v\" {\n  params = []\n  result = other\n}\n",
          /*with_context=*/false);
  EXPECT_VALUE(env.value("p(1)"), num(1));
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(env.error("v()"),
              "Call to function \"v\" failed: b.hcl:7,12-17: Unknown variable; "
              "There is no variable named \"other\"..");
  }
  EXPECT_EQ(env.provided, 3);
}

// --- recursion and threads ---------------------------------------------------------

const char kRecursive[] = R"(function "fact" {
  params = [n]
  result = n <= 1 ? 1 : n * fact(n - 1)
}
function "loop" {
  params = [x]
  result = loop(x)
}
function "len" {
  params = [l]
  result = l.next == null ? 1 : 1 + len(l.next)
}
function "twice" {
  params = [x]
  result = add_one(add_one(x))
}
function "add_one" {
  params = [n]
  result = n + 1
}
)";

TEST(UserFuncRecursion, EndlessRecursionFailsAtTheDepthLimit) {
  // The reference overflows its stack.
  Env env("rec.hcl", kRecursive);
  EvalResult r = env.call("loop(1)");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(diag_text(r.diagnostics[0]),
            "{\"severity\":\"error\",\"summary\":\"Error in function call\","
            "\"detail\":\"Call to function \\\"loop\\\" failed: calls of user-defined "
            "functions nested too deeply.\",\"subject\":\"call.hcl:1:1:0-1:6:5\","
            "\"context\":\"call.hcl:1:1:0-1:8:7\"}");
  // And again: the depth went back to zero.
  EXPECT_EQ(env.error("loop(2)"),
            "Call to function \"loop\" failed: calls of user-defined functions nested too deeply.");
  EXPECT_VALUE(env.value("twice(1)"), num(3));
}

TEST(UserFuncRecursion, BothResultsOfAConditionalAreEvaluated) {
  // As in the reference, `?:` evaluates both results, so the recursion
  // goes on below 1 until the depth limit; the error is in the result not
  // chosen, which drops it. (The reference overflows its stack here.)
  Env env("rec.hcl", kRecursive);
  EXPECT_VALUE(env.value("fact(5)"), num(120));
}

TEST(UserFuncRecursion, OneEvaluationPerCall) {
  // A list 60 deep (10 with a sanitizer's bigger frames, within the stack
  // budget): evaluating each result twice (for the type, then for the
  // value) would take 2^60 (2^10) evaluations.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !HCLVM_TEST_CLANG_ASAN
  const int depth = 60;
#else
  const int depth = 10;
#endif
  Env env("rec.hcl", kRecursive);
  Value list = Value::object({{"next", Value::null(Type::dynamic())}});
  for (int i = 1; i < depth; ++i) list = Value::object({{"next", list}});
  env.base.set("list", list);
  EXPECT_VALUE(env.value("len(list)"), num(depth));
}

TEST(UserFuncRecursion, DepthLimit) {
  // count(k) calls itself down to count(0) at depth k (and count(-1) below
  // it, whose failure the conditional drops).
  Env env("count.hcl", R"(function "count" {
  params = [n]
  result = n == 0 ? 0 : 1 + count(n - 1)
}
)");
  EXPECT_VALUE(env.value("count(20)"), num(20));
  EXPECT_EQ(
      env.error("count(100)"),
      "Call to function \"count\" failed: calls of user-defined functions nested too deeply.");
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !HCLVM_TEST_CLANG_ASAN
  // Optimized, 100 levels take less stack than the budget: the depth
  // limit is what stops them.
  EXPECT_VALUE(env.value("count(99)"), num(99));
#endif
}

TEST(UserFuncRecursion, TheDepthLimitFitsASmallStack) {
  // The stack budget (512 KiB below the outermost call) and a margin.
  Env env("rec.hcl", kRecursive);
  std::string got;
  ASSERT_TRUE(util::run_with_stack(size_t(1) << 20, [&] {
    Vm vm;
    ExprParse p = parse_expression(make_source("call.hcl", "loop(1)"));
    EvalResult r = Expression::from_parse(std::move(p)).value(vm, &env.base);
    got = r.diagnostics.empty() ? "" : r.diagnostics[0].detail;
  }));
  EXPECT_EQ(got,
            "Call to function \"loop\" failed: calls of user-defined functions nested too "
            "deeply.");
}

TEST(UserFuncThreads, SharedFunctionsAndOneContext) {
  Env env("rec.hcl", kRecursive);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      ExprParse p = parse_expression(make_source("call.hcl", "twice(n) + fact(3)"));
      Expression e = Expression::from_parse(std::move(p));
      for (int i = 0; i < 50; ++i) {
        EvalContext ctx(&env.base);
        ctx.set("n", num(t * 100 + i));
        EvalResult r = e.value(&ctx);
        if (!r.diagnostics.empty() || !ops::raw_equal(r.value, num(t * 100 + i + 2 + 6))) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(env.provided, 1);
}

TEST(UserFuncContext, AProviderThatCallsTheFunctionsFails) {
  ConfigFile f =
      parse_body(make_source("p.hcl", "function \"f\" {\n  params = []\n  result = 1\n}\n"));
  EvalContext base;
  std::string inner;
  UserFunctionsResult r = decode_user_functions(f.body, "function", [&] {
    Vm vm;  // the caller's evaluation is running on the thread's own
    ExprParse p = parse_expression(make_source("inner.hcl", "f()"));
    EvalResult e = Expression::from_parse(std::move(p)).value(vm, &base);
    inner = e.diagnostics.empty() ? "" : diag_text(e.diagnostics[0]);
    return std::shared_ptr<const EvalContext>(std::shared_ptr<void>(), &base);
  });
  auto table = std::make_shared<FunctionTable>();
  r.add_to(*table);
  base.set_functions(table);
  ExprParse p = parse_expression(make_source("call.hcl", "f()"));
  EvalResult e = Expression::from_parse(std::move(p)).value(&base);
  EXPECT_TRUE(e.diagnostics.empty());
  EXPECT_VALUE(e.value, num(1));
  EXPECT_EQ(inner,
            "{\"severity\":\"error\",\"summary\":\"Error in function call\","
            "\"detail\":\"Call to function \\\"f\\\" failed: the context provider of "
            "user-defined functions called one of them.\",\"subject\":\"inner.hcl:1:1:0-1:3:2\","
            "\"context\":\"inner.hcl:1:1:0-1:4:3\"}");
}

TEST(UserFuncContext, FunctionsOutliveTheirBody) {
  std::shared_ptr<const Function> f;
  {
    ConfigFile file = parse_body(
        make_source("o.hcl", "function \"f\" {\n  params = [a, b]\n  result = a * b\n}\n"));
    UserFunctionsResult r = decode_user_functions(file.body, "function");
    f = r.functions.at("f");
  }
  ASSERT_EQ(f->params.size(), 2u);
  EXPECT_EQ(f->params[1].name, "b");
  EXPECT_TRUE(f->params[0].type->is_dynamic());
  EXPECT_FALSE(f->var_param.has_value());
  Value args[] = {num(6), num(7)};
  FuncResult r = f->call(args);
  ASSERT_TRUE(r.ok());
  EXPECT_VALUE(r.value, num(42));
}

}  // namespace
}  // namespace hclvm

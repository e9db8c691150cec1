// The limits inside one function call or value operation (hclvm/limits.h,
// "What the limits guarantee for one call" in docs/api.md): work that grows
// faster than its inputs, or a result that grows past them, is checked
// against the memory, size, step and time limits before and while it is
// done, never after. Each case here took tens of seconds to days, or
// gigabytes, before; each must now end with its limit well within the
// generous bound below (a hang catcher, not a timing assertion), and the
// results within the limits stay the reference's.
#include <gtest/gtest.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/limits.h>
#include <hclvm/syntax.h>
#include <hclvm/value_json.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace hclvm {
namespace {

// What used to take minutes must end well within this. A sanitizer build
// runs the same work several times slower (a million-element list under
// ASan takes seconds to build), so it gets more room.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kHangSeconds = 150;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kHangSeconds = 150;
#else
constexpr double kHangSeconds = 30;
#endif
#else
constexpr double kHangSeconds = 30;
#endif

std::shared_ptr<const Program> compile(std::string_view src) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  if (p.has_errors()) return nullptr;
  return compile_expression(*p.expr, p.source).program;
}

EvalContext with_functions(LibraryOptions o = {}) {
  EvalContext ctx;
  ctx.set_functions(std::make_shared<const FunctionTable>(standard_functions(o)));
  return ctx;
}

// The default limits without the deadline, which a sanitizer build on a
// busy machine could reach before the limit a case means to show.
Limits defaults() {
  Limits l;
  l.timeout = std::chrono::minutes(10);
  return l;
}

struct Outcome {
  EvalResult result;
  EvalStats stats;
  double seconds = 0;
};

// Compiles and runs [src] under [limits] in [ctx].
Outcome run(std::string_view src, const Limits& limits, const EvalContext& ctx) {
  Outcome o;
  auto start = std::chrono::steady_clock::now();
  auto prog = compile(src);
  if (!prog) return o;
  Vm vm(limits);
  o.result = vm.run(*prog, ctx);
  o.stats = vm.stats();
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return o;
}

// Expects [src] to stop at limit [want], promptly.
void expect_limit(std::string_view src, Limit want, const Limits& limits = defaults(),
                  const EvalContext& ctx = with_functions()) {
  Outcome o = run(src, limits, ctx);
  ASSERT_EQ(o.result.diagnostics.size(), 1u) << src;
  EXPECT_EQ(o.result.diagnostics[0].summary, limit_summary(want)) << src << ": "
                                                                  << o.result.diagnostics[0].detail;
  EXPECT_TRUE(o.stats.limit_hit) << src;
  EXPECT_LT(o.seconds, kHangSeconds) << src;
}

// Expects [src] to evaluate to the value whose JSON is [json], promptly.
void expect_json(std::string_view src, std::string_view json, const Limits& limits = defaults(),
                 const EvalContext& ctx = with_functions()) {
  Outcome o = run(src, limits, ctx);
  ASSERT_TRUE(o.result.diagnostics.empty())
      << src << ": " << o.result.diagnostics[0].summary << ": " << o.result.diagnostics[0].detail;
  EXPECT_EQ(value_to_json(o.result.value).json, json) << src;
  EXPECT_LT(o.seconds, kHangSeconds) << src;
}

// Expects [src] to fail with an error (not a limit) whose detail holds [part].
void expect_error(std::string_view src, std::string_view part, const Limits& limits = defaults(),
                  const EvalContext& ctx = with_functions()) {
  Outcome o = run(src, limits, ctx);
  ASSERT_FALSE(o.result.diagnostics.empty()) << src;
  EXPECT_FALSE(o.stats.limit_hit) << src;
  EXPECT_NE(o.result.diagnostics[0].detail.find(part), std::string::npos)
      << src << ": " << o.result.diagnostics[0].detail;
  EXPECT_LT(o.seconds, kHangSeconds) << src;
}

// An expression for a string of [n] spaces, or of [n] copies of [c]
// (format pads to at most ten million).
std::string spaces(size_t n) {
  if (n > 10000000) return "\"${" + spaces(10000000) + "}${" + spaces(n - 10000000) + "}\"";
  return "format(\"%" + std::to_string(n) + "s\", \"\")";
}
std::string repeat(size_t n, std::string_view c) {
  return "replace(" + spaces(n) + ", \" \", \"" + std::string(c) + "\")";
}

// --- Numbers -----------------------------------------------------------------------

// The text of 1e100000000 has a hundred million digits: its length is known
// from the exponent before any digit is computed (it took 94 s and 584 MB).
TEST(CallLimits, NumberTextIsSizedBeforeItIsWritten) {
  expect_limit("length(tostring(1e100000000))", Limit::StringSize);
  expect_limit(R"("n=${1e100000000}")", Limit::StringSize);
  expect_limit("length(tostring(-1e-100000000))", Limit::StringSize);
  expect_limit("jsonencode([1e100000000])", Limit::StringSize);
  expect_limit(R"(format("%f", 1e100000000))", Limit::StringSize);
  expect_limit(R"(format("%d", 1e100000000))", Limit::StringSize);
  expect_limit(R"(format("%x", -1e100000000))", Limit::StringSize);
  expect_limit(R"(format("%.9999999f", 1e9000000))", Limit::StringSize);
  // An integer of a third of a billion bits, which the message would quote.
  expect_limit(R"(cidrhost("10.0.0.0/8", 1e100000000))", Limit::Steps);
}

// What needs only the first digits of such a number computes only those.
TEST(CallLimits, HugeExponentsAreCheapWhereTheTextIsNotWritten) {
  expect_json("1e100000000 % 7 == 0", "true");  // the reference's answer
  expect_json("1e100000000 == 1e100000000 + 1", "true");
  expect_json("1e100000000 == 1.0000000000000000001e100000000", "false");
  expect_json("length(toset([1e100000000, 2e100000000, 1e100000000, 1e-100000000]))", "3");
  expect_json("length(distinct([1e-100000000, 1e-100000000 * 1, 0.5e-99999999]))", "2");
  expect_json("floor(1e100000000 / 3) > 3e99999999", "true");
  expect_json("ceil(-1e-100000000)", "0");
  expect_json(R"(format("%v|%g|%.3e", 1e100000000, -2.5e-100000000, 1e100000000))",
              R"("1e+100000000|-2.5e-100000000|1.000e+100000000")");
  expect_json(R"(format("%.5f|%.25f|%.25f", -1e-100000000, 6e-26, 4e-26))",
              R"("-0.00000|0.0000000000000000000000001|0.0000000000000000000000000")");
  expect_error(R"(cidrhost("10.0.0.0/8", 1e30))",
               "does not accommodate a host numbered 1000000000000000000000000000000");
}

// Long digit strings: reading them is n log n work, counted before it
// starts (parseint read a digit at a time: quadratic).
TEST(CallLimits, LongDigitStringsCountTheirWork) {
  std::string nines = repeat(10000000, "9");
  expect_limit("parseint(" + nines + ", 10)", Limit::Steps);
  expect_limit("tonumber(" + nines + ")", Limit::Steps);
  expect_limit("jsondecode(" + nines + ")", Limit::Steps);
  expect_limit("tostring(parseint(" + repeat(3000000, "7") + ", 10))", Limit::Steps);
  // Ten million digits of a number of 512 bits: the digits cost, not the
  // text's length.
  expect_limit(R"(format("%.9999999e", 1e100000000))", Limit::Steps);
  // Within the limits: exact.
  std::string digits = repeat(100000, "7");
  expect_json("tostring(parseint(" + digits + ", 10)) == " + digits, "true");
  expect_json("tostring(parseint(" + digits + ", 10) + 1) == \"${" + repeat(99999, "7") + "}8\"",
              "true");
  // Go's digit values above base 36 (a-z before A-Z), case-blind below.
  expect_json(R"([parseint("zZ", 62), parseint("Zz", 62), parseint("zZ", 36), parseint("-aA", 37)])",
              "[2231,3817,1295,-406]");
}

// --- bcrypt ------------------------------------------------------------------------

// Cost 31 is 2^31 rounds (days): its steps are refused before the first;
// a cost the steps allow stops at the deadline or the cancel flag between
// rounds (cost 16 ran 4.5 s past a 1 s deadline).
TEST(CallLimits, BcryptRoundsStopAtTheDeadline) {
  expect_limit(R"(bcrypt("x", 31))", Limit::Steps);
  expect_limit(R"(try(bcrypt("x", 31), "caught"))", Limit::Steps);
  Limits l = Limits::none();
  l.timeout = std::chrono::milliseconds(100);
  expect_limit(R"(bcrypt("x", 24))", Limit::Timeout, l);
  std::atomic<bool> cancel{false};
  Limits c = Limits::none();
  c.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true);
  });
  expect_limit(R"(bcrypt("x", 24))", Limit::Cancelled, c);
  canceller.join();
}

// --- Collections -------------------------------------------------------------------

// A variable [name] holding [n] single-attribute objects (maps when
// [maps]) k0 = 0, k1 = 1, ...
void set_objects(EvalContext& ctx, std::string name, size_t n, bool maps) {
  std::vector<Value> objs;
  for (size_t i = 0; i < n; ++i) {
    std::vector<std::pair<std::string, Value>> attrs = {{"k" + std::to_string(i), Value::integer(int64_t(i))}};
    objs.push_back(maps ? Value::map(Type::number(), std::move(attrs)) : Value::object(std::move(attrs)));
  }
  ctx.set(std::move(name), Value::tuple(std::move(objs)));
}

// merge() of 100k single-key objects looked each attribute up in every
// argument (64 s); it walks each argument once.
TEST(CallLimits, MergeIsLinear) {
  EvalContext ctx = with_functions();
  set_objects(ctx, "objs", 100000, false);
  set_objects(ctx, "maps", 100000, true);
  expect_json("length(merge(objs...))", "100000", defaults(), ctx);
  expect_json("length(merge(maps...))", "100000", defaults(), ctx);
  expect_json("merge(objs...).k99999 + merge(maps...).k5", "100004", defaults(), ctx);
  // The last argument with a name wins, in place and on the general path.
  expect_json(R"(merge({a = 1}, {a = 2, b = "x"}, {b = 3}, null))", R"({"a":2,"b":3})");
  expect_json(R"(merge({a = 1}, tomap({a = 2, b = 5}), {b = 3}))", R"({"a":2,"b":3})");
  expect_json(R"(merge({a = 1, c = [1]}, {c = null}))", R"({"a":1,"c":null})");
}

// Builders whose result outgrows their arguments (a list shared many times
// flattens to many copies) check the collection limit as they grow.
TEST(CallLimits, CollectionBuildersCheckAsTheyGrow) {
  expect_limit("[for x in [range(1000)]: flatten([for i in range(1000): [for j in range(1000): x]])]",
               Limit::CollectionSize);
  expect_limit("[for x in [range(1000)]: concat(x, [for i in range(1000): x]...)]",
               Limit::CollectionSize);
  expect_limit("[for x in [tolist(range(1000))]: concat(x, [for i in range(1000): x]...)]",
               Limit::CollectionSize);
  expect_limit("split(\"\", " + spaces(10000000) + ")", Limit::CollectionSize);
  expect_limit("regexall(\".\", " + spaces(10000000) + ")", Limit::CollectionSize);
  expect_limit("csvdecode(" + repeat(2000000, ",") + ")", Limit::CollectionSize);
  expect_limit("csvdecode(\"a\\n${" + repeat(2000000, "1\\n") + "}\")", Limit::CollectionSize);
}

// Quadratic work counts a step per comparison: matchkeys, and sets whose
// elements share a hash bucket (numbers alike in their first ten digits
// do, by cty's hash).
TEST(CallLimits, QuadraticWorkCountsSteps) {
  std::string million = "flatten([for i in range(1000): range(1000)])";
  expect_limit("matchkeys(" + million + ", " + million + ", [for i in range(1000): -1])",
               Limit::Steps);
  expect_limit("toset(flatten([for i in range(300): [for j in range(300): 1 + (i * 300 + j) * 1e-12]]))",
               Limit::Steps);
  expect_json("length(toset([for i in range(100): 1 + i * 1e-12]))", "100");
}

// A call over a million elements checks the deadline along the way (a
// variable's elements: the run makes no steps of its own before the call).
TEST(CallLimits, LongLoopsInOneCallCheckTheDeadline) {
  EvalContext ctx = with_functions();
  std::vector<Value> words, numbers;
  for (int i = 0; i < 1000000; ++i) {
    words.push_back(Value::string("a fairly long word number " + std::to_string(i)));
    numbers.push_back(Value::integer(i));
  }
  ctx.set("words", Value::list(Type::string(), std::move(words)));
  ctx.set("numbers", Value::list(Type::number(), std::move(numbers)));
  Limits l = Limits::none();
  l.timeout = std::chrono::nanoseconds(1);
  for (const char* src : {R"(contains(words, "absent"))", R"(index(words, "absent"))",
                          "sum(numbers)", "sort(words)", "length(toset(words))"}) {
    expect_limit(src, Limit::Timeout, l, ctx);
  }
}

// A loop of fewer than 1,024 steps whose every call builds a thousand
// elements made half a million values without a deadline check (found by
// eval_fuzz): values made count toward the checks too.
TEST(CallLimits, FewStepsThatBuildMuchCheckTheDeadline) {
  Limits l = Limits::none();
  l.timeout = std::chrono::nanoseconds(1);
  expect_limit("length([for i in range(500): range(1000)])", Limit::Timeout, l);
  expect_json("length([for i in range(500): range(1000)])", "500");
}

// Diagnostics take time to make (each duplicate key of a for expression
// quotes the key, and each diagnostic the values it names), and a run of
// few steps may make many: the deadline is checked as each is made. Found
// by eval_fuzz: 99 duplicates of a 100,000-byte key took 1.4 s under a
// 100 ms deadline.
TEST(CallLimits, DiagnosticsCheckTheDeadline) {
  Limits l = Limits::none();
  l.timeout = std::chrono::nanoseconds(1);
  EvalContext ctx = with_functions();
  ctx.set("k", Value::string(std::string(100000, '9')));
  std::string dup = "{for i in range(100): k => i}";
  expect_limit(dup, Limit::Timeout, l, ctx);
  expect_error(dup, "Two different items produced the key \"999", defaults(), ctx);
}

// --- Strings -----------------------------------------------------------------------

// indent knew its result's size and built gigabytes first (bad_alloc at 4
// GB; 2.9 GB before the string limit); each builder checks the limit
// before it writes.
TEST(CallLimits, StringBuildersCheckBeforeBuilding) {
  expect_limit(R"(indent(16000000, join("\n", range(1000))))", Limit::StringSize);
  expect_limit(R"(indent(1000000000, "a\nb"))", Limit::StringSize);
  expect_limit(R"(indent(100000000000, "a\n\n\nb"))", Limit::StringSize);
  // Beyond Go's address space the reference panics before any limit.
  expect_error(R"(indent(9223372036854775807, "a\n\n\nb"))", "makeslice: cap out of range");
  expect_json(R"(indent(1000000000, "ab"))", R"("ab")");
  expect_json(R"(indent(2, "a\nb\n"))", R"("a\n  b\n  ")");
  expect_limit("replace(" + spaces(1000000) + ", \" \", " + spaces(100) + ")", Limit::StringSize);
  expect_limit("replace(" + spaces(1000000) + ", \"\", \"xxxxxxxxxxxxxxxxxxxx\")", Limit::StringSize);
  expect_limit("replace(" + spaces(1000000) + ", \"/ /\", \"" + std::string(100, '$') + "0\")",
               Limit::StringSize);
  std::string dollars;
  for (int i = 0; i < 30; ++i) dollars += "$0";
  expect_limit("replace(" + spaces(1000000) + ", \"/ /\", \"" + dollars + "\")", Limit::StringSize);
  expect_limit("join(\",\", [for i in range(1000): " + spaces(20000) + "])", Limit::StringSize);
  expect_limit("urlencode(" + repeat(10000000, "/") + ")", Limit::StringSize);
  expect_limit("base64encode(" + spaces(13000000) + ")", Limit::StringSize);
  expect_limit("formatdate(" + repeat(5000000, "Z ") + ", \"2020-01-01T00:00:00+01:00\")",
               Limit::StringSize);
  expect_limit("format(" + repeat(1000, "%9999999s") + ", [for i in range(1000): \"\"]...)",
               Limit::StringSize);
  expect_limit("upper(" + repeat(6000000, "ɐ") + ")", Limit::StringSize);  // 2 bytes to 3
}

// A list shared a thousand times inside another is small as a value and
// huge as JSON: its text is refused before it is written (it was written
// in full first: 6.9 GB here).
TEST(CallLimits, JsonOfSharedValuesIsSizedFirst) {
  std::string shared = "[for x in [flatten([for i in range(1000): range(1000)])]: ";
  expect_limit(shared + "jsonencode([for i in range(1000): x])]", Limit::StringSize);
  expect_limit(shared + R"(format("%v", [for i in range(1000): x])])", Limit::StringSize);
  expect_limit(shared + R"(format("%#v", {a = [for i in range(1000): x]})])", Limit::StringSize);
  expect_json(R"(jsonencode({a = [1, "x", null], b = {}}))", R"("{\"a\":[1,\"x\",null],\"b\":{}}")");
  // So are a set element's hash bytes (they took 375 s of CPU and 4 GB).
  expect_limit(shared + "toset([[for i in range(1000): x]])]", Limit::StringSize);
  // A type shares its parts too.
  expect_limit(shared + "type([for i in range(1000): [for j in range(1000): x]])]", Limit::StringSize);
}

// trim looked every character up in the whole cutset (1M x 1M).
TEST(CallLimits, TrimIsLinear) {
  expect_json("length(trim(" + repeat(1000000, "a") + ", \"${" + repeat(1000000, "b") + "}a\"))", "0");
  expect_json(R"(trim("xyhixy", "yx"))", R"("hi")");
  expect_json(R"(trim("éaé", "é"))", R"("a")");
}

// --- fileset -----------------------------------------------------------------------

// A pattern of many stars backtracks exponentially against a long name;
// each match step counts. An escape search recursed once per escaped
// bracket.
TEST(CallLimits, FilesetPatternsAreBounded) {
  auto dir = std::filesystem::temp_directory_path() / "hclvm-call-limits-fileset";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / std::string(60, 'a')) << "x";
  LibraryOptions o;
  o.base_dir = dir.string();
  EvalContext ctx = with_functions(o);
  std::string stars;
  for (int i = 0; i < 14; ++i) stars += "*a";
  expect_limit(R"(fileset(".", ")" + stars + R"(b"))", Limit::Steps, defaults(), ctx);
  expect_json(R"(length(fileset(".", ")" + stars + R"(")))", "1", defaults(), ctx);
  std::string brackets = "[";
  for (int i = 0; i < 200000; ++i) brackets += "\\\\]";
  brackets += "]";
  Outcome out = run("fileset(\".\", \"" + brackets + "\")", defaults(), ctx);
  EXPECT_LT(out.seconds, kHangSeconds);
  std::filesystem::remove_all(dir);
}

// --- Compiling ---------------------------------------------------------------------

// The compiler keyed number constants by their text: 1e100000000 in a
// program took minutes to compile.
TEST(CallLimits, HugeNumberConstantsCompileAtOnce) {
  expect_json("[1e100000000, 1e100000000, -1e-100000000][0] > 1", "true");
}

}  // namespace
}  // namespace hclvm

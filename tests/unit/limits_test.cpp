// Evaluation limits (hclvm/limits.h) and the parsers' nesting limit: each
// limit ends a run with a diagnostic that names it, leaves the Vm
// reusable, and is not caught by try(); the bombs of untrusted input end
// promptly under the default limits.
#include <gtest/gtest.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/json_syntax.h>
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

#include "syntax/nesting.h"
#include "test_util.h"

namespace hclvm {
namespace {

std::shared_ptr<const Program> compile(std::string_view src) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  if (p.has_errors()) return nullptr;
  return compile_expression(*p.expr, p.source).program;
}

std::shared_ptr<const FunctionTable> library(LibraryOptions o = {}) {
  return std::make_shared<const FunctionTable>(standard_functions(o));
}

EvalContext with_functions(std::shared_ptr<const FunctionTable> fns = library()) {
  EvalContext ctx;
  ctx.set_functions(std::move(fns));
  return ctx;
}

// The summary of the only diagnostic of [r], or "" when it has another
// number of diagnostics.
std::string only_summary(const EvalResult& r) {
  return r.diagnostics.size() == 1 ? r.diagnostics[0].summary : "";
}

// Runs [src] on [vm] and expects it to stop at limit [l].
void expect_limit(Vm& vm, std::string_view src, const EvalContext& ctx, Limit l) {
  auto prog = compile(src);
  ASSERT_NE(prog, nullptr);
  EvalResult r = vm.run(*prog, ctx);
  EXPECT_EQ(only_summary(r), limit_summary(l)) << src;
  EXPECT_TRUE(r.value.type()->is_dynamic()) << src;
  EXPECT_TRUE(vm.stats().limit_hit) << src;
  EXPECT_EQ(vm.stats().limit, l) << src;
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_TRUE(r.diagnostics[0].subject.has_value()) << src;
}

// Expects [vm] to evaluate a small expression correctly after a limit.
void expect_reusable(Vm& vm) {
  auto prog = compile(R"([for i in range(5): "n${i}"])");
  EvalContext ctx = with_functions();
  EvalResult r = vm.run(*prog, ctx);
  EXPECT_TRUE(r.diagnostics.empty());
  JsonText j = value_to_json(r.value);
  EXPECT_EQ(j.json, R"(["n0","n1","n2","n3","n4"])");
  EXPECT_FALSE(vm.stats().limit_hit);
}

// An expression of 1024^3 loop iterations.
constexpr const char* kCube =
    "[for i in range(1024): [for j in range(1024): [for k in range(1024): k]]]";

TEST(Limits, StepLimitNamesItselfAndVmStaysReusable) {
  Limits l;
  l.max_steps = 1000;
  Vm vm(l);
  EvalContext ctx = with_functions();
  expect_limit(vm, "[for i in range(1024): i]", ctx, Limit::Steps);
  EXPECT_LE(vm.stats().steps, 1000u);
  expect_reusable(vm);
  // Within the budget: 1 call + 500 iterations.
  EvalResult r = vm.run(*compile("length([for i in range(500): i])"), ctx);
  EXPECT_TRUE(r.diagnostics.empty());
  // Two calls and the iterations (the last FOR_NEXT finds the end).
  EXPECT_GE(vm.stats().steps, 502u);
  EXPECT_LE(vm.stats().steps, 503u);
}

// A splat whose items are collected in place counts a step per item, as
// one whose items run the loop's instructions does, and stops at the limit.
TEST(Limits, SplatStepsCountedPerItemInPlaceOrNot) {
  Vm vm;
  EvalContext ctx = with_functions();
  auto steps = [&](const std::string& e) {
    EvalResult r = vm.run(*compile(e), ctx);
    EXPECT_TRUE(r.diagnostics.empty()) << e;
    return vm.stats().steps;
  };
  for (std::string src : {"[for i in range(300): {a = i}]",
                          "[for i in range(300): i == 7 ? tomap({a = i}) : {a = i}]"}) {
    // 301 SPLAT_NEXT: the last one finds the end.
    EXPECT_EQ(steps(src + "[*].a"), steps(src) + 301) << src;
  }
  Limits l;
  l.max_steps = 450;  // the for expression takes 302 of them
  Vm small(l);
  expect_limit(small, "[for i in range(300): {a = i}][*].a", ctx, Limit::Steps);
  EXPECT_LE(small.stats().steps, 450u);
  EXPECT_GT(small.stats().steps, 400u);
  expect_reusable(small);
}

TEST(Limits, DetailSaysWhatWasExceeded) {
  Limits l;
  l.max_steps = 10;
  Vm vm(l);
  EvalContext ctx = with_functions();
  EvalResult r = vm.run(*compile("[for i in range(100): i]"), ctx);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].detail,
            "The evaluation took more than 10 steps "
            "(loop iterations and function calls).");
  EXPECT_EQ(r.diagnostics[0].subject->start.line, 1);
}

TEST(Limits, MemoryLimit) {
  Limits l;
  l.max_memory = 64 << 10;
  Vm vm(l);
  EvalContext ctx = with_functions();
  expect_limit(vm, R"([for i in range(1000): "item ${i} of the list"])", ctx, Limit::Memory);
  // What was made before the allocation that did not fit.
  EXPECT_GE(vm.stats().memory, 32u << 10);
  EXPECT_LE(vm.stats().memory, 64u << 10);
  expect_reusable(vm);
}

TEST(Limits, StringSizeLimit) {
  Limits l;
  l.max_string_bytes = 1000;
  Vm vm(l);
  EvalContext ctx = with_functions();
  expect_limit(vm, R"(join("", [for i in range(200): "xxxxxxx"]))", ctx, Limit::StringSize);
  expect_limit(vm, R"("%{for i in range(200)}xxxxxxx%{endfor}")", ctx, Limit::StringSize);
  expect_limit(vm, R"(format("%2000s", "x"))", ctx, Limit::StringSize);
  ctx.set("s", Value::string(std::string(600, 'a')));
  expect_limit(vm, R"("${s}${s}")", ctx, Limit::StringSize);
  expect_reusable(vm);
}

TEST(Limits, CollectionSizeLimit) {
  Limits l;
  l.max_collection_size = 100;
  Vm vm(l);
  EvalContext ctx = with_functions();
  expect_limit(vm, "[for i in range(101): i]", ctx, Limit::CollectionSize);
  expect_limit(vm, "{for i in range(200): i => i}", ctx, Limit::CollectionSize);
  expect_limit(vm, "setproduct(range(20), range(20))", ctx, Limit::CollectionSize);
  expect_reusable(vm);
  // A product too large to count is refused before anything is built.
  Limits big;
  Vm vm2(big);
  std::string args = "range(1024)";
  for (int i = 0; i < 9; ++i) args += ", range(1024)";
  expect_limit(vm2, "setproduct(" + args + ")", ctx, Limit::CollectionSize);
}

TEST(Limits, TimeoutEndsALongRun) {
  Limits l = Limits::none();
  l.timeout = std::chrono::milliseconds(50);
  Vm vm(l);
  EvalContext ctx = with_functions();
  auto start = std::chrono::steady_clock::now();
  expect_limit(vm, kCube, ctx, Limit::Timeout);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::seconds(5));
  expect_reusable(vm);
}

TEST(Limits, CancelFlagFromAnotherThread) {
  std::atomic<bool> cancel{false};
  Limits l = Limits::none();
  l.cancel = &cancel;
  Vm vm(l);
  EvalContext ctx = with_functions();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancel.store(true);
  });
  expect_limit(vm, kCube, ctx, Limit::Cancelled);
  canceller.join();
  // Still set: the next run stops at once.
  expect_limit(vm, "[for i in range(3): i]", ctx, Limit::Cancelled);
  cancel.store(false);
  expect_reusable(vm);
}

TEST(Limits, TryAndCanDoNotCatchALimit) {
  Limits l;
  l.max_steps = 100;
  Vm vm(l);
  EvalContext ctx = with_functions();
  expect_limit(vm, R"(try([for i in range(1000): i], "fallback"))", ctx, Limit::Steps);
  expect_limit(vm, "can([for i in range(1000): i])", ctx, Limit::Steps);
}

// A host function that evaluates [program] again on this thread, as a
// function rendering a template would: nesting without end.
TEST(Limits, DepthLimitStopsRecursiveEvaluation) {
  auto prog = compile("recurse()");
  auto fns = std::make_shared<FunctionTable>(standard_functions({}));
  std::weak_ptr<FunctionTable> weak = fns;
  Function f;
  f.returns(Type::dynamic());
  const Program* p = prog.get();
  f.impl = [p, weak](std::span<const Value>, const Type*) {
    EvalContext inner;
    inner.set_functions(weak.lock());
    Vm nested;
    EvalResult r = nested.run(*p, inner);
    if (r.has_errors()) return FuncResult::fail(r.diagnostics[0].summary);
    return FuncResult::of(r.value);
  };
  fns->add("recurse", std::make_shared<const Function>(std::move(f)));
  Limits l;
  l.max_depth = 8;
  Vm vm(l);
  EvalContext ctx = with_functions(fns);
  EvalResult r = vm.run(*prog, ctx);
  EXPECT_EQ(only_summary(r), limit_summary(Limit::Depth));
  EXPECT_EQ(vm.stats().limit, Limit::Depth);
  expect_reusable(vm);
}

// Nested evaluations count against the run they are nested in: a
// template's loop exhausts the caller's step budget.
TEST(Limits, TemplatefileCountsAgainstTheCallingRun) {
  auto dir = std::filesystem::temp_directory_path() / "hclvm-limits-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "loop.tmpl") << "%{for i in range(1000)}${i}%{endfor}";
  std::ofstream(dir / "self.tmpl") << "${templatefile(\"self.tmpl\", {})}";
  LibraryOptions o;
  o.base_dir = dir.string();
  EvalContext ctx = with_functions(library(o));
  Limits l;
  l.max_steps = 500;
  Vm vm(l);
  expect_limit(vm, R"(templatefile("loop.tmpl", {}))", ctx, Limit::Steps);
  // A template calling templatefile fails as in Terraform, promptly.
  Vm plain;
  EvalResult r = plain.run(*compile(R"(templatefile("self.tmpl", {}))"), ctx);
  ASSERT_TRUE(r.has_errors());
  EXPECT_NE(r.diagnostics[0].detail.find("cannot recursively call templatefile"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

// The bombs of the issue under the default limits: each ends, with an
// error, and the Vm goes on.
TEST(Limits, BombsEndUnderDefaultLimits) {
  // The default limits but the deadline, which a sanitizer build on a busy
  // machine can reach before the memory limit it means to show.
  Limits defaults;
  defaults.timeout = std::chrono::minutes(10);
  Vm vm(defaults);
  EvalContext ctx = with_functions();
  for (const char* bomb : {
           "range(1e9)",
           "[for i in range(1e6): [for j in range(1e6): j]]",
           R"(join("", [for i in range(1e7): "xxxxxxxxxx"]))",
       }) {
    EvalResult r = vm.run(*compile(bomb), ctx);
    EXPECT_TRUE(r.has_errors()) << bomb;  // range's own limit of 1024 values
  }
  // The same work built from range's allowed size.
  expect_limit(vm, kCube, ctx, Limit::Memory);
  expect_limit(vm,
               R"(length(join("", flatten([for i in range(1000): [for j in range(1000): )"
               R"("xxxxxxxxxxxxxxxxxxxx"]]))))",
               ctx, Limit::StringSize);
  {
    Limits l = defaults;
    l.max_memory = uint64_t(1) << 40;
    Vm steps(l);
    expect_limit(steps, kCube, ctx, Limit::Steps);
  }
  expect_reusable(vm);
}

// A string doubled 64 times, one attribute after another as a host
// evaluates locals: the run that would pass the string limit stops.
TEST(Limits, DoublingTemplatesStopAtTheStringLimit) {
  auto prog = compile(R"("${s}${s}")");
  Vm vm;
  Value s = Value::string("x");
  int doubled = 0;
  for (; doubled < 64; ++doubled) {
    EvalContext ctx;
    ctx.set("s", s);
    EvalResult r = vm.run(*prog, ctx);
    if (r.has_errors()) {
      EXPECT_EQ(only_summary(r), limit_summary(Limit::StringSize));
      break;
    }
    s = r.value;
  }
  EXPECT_EQ(doubled,
            24);  // 2^24 bytes is the default limit: the 25th doubling fails
  EXPECT_EQ(s.as_string().size(), size_t(1) << 24);
}

TEST(Limits, NoneLimitsNothing) {
  Vm vm(Limits::none());
  EvalContext ctx = with_functions();
  EvalResult r = vm.run(*compile("length(flatten([for i in range(1024): range(1024)]))"), ctx);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(value_to_json(r.value).json, "1048576");
}

TEST(Limits, NamesAreStable) {
  EXPECT_EQ(limit_name(Limit::Steps), "steps");
  EXPECT_EQ(limit_name(Limit::Memory), "memory");
  EXPECT_EQ(limit_name(Limit::StringSize), "string_size");
  EXPECT_EQ(limit_name(Limit::CollectionSize), "collection_size");
  EXPECT_EQ(limit_name(Limit::Depth), "depth");
  EXPECT_EQ(limit_name(Limit::Timeout), "timeout");
  EXPECT_EQ(limit_name(Limit::Cancelled), "cancelled");
}

// --- nesting in source text -------------------------------------------------

std::string nested(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(Nesting, MillionBracketsAreRefusedNotCrashed) {
  ExprParse p = parse_expression(make_source("<expr>", nested(1'000'000)));
  ASSERT_TRUE(p.has_errors());
  EXPECT_EQ(p.diagnostics.back().summary, "Nesting too deep");
  ASSERT_NE(p.expr, nullptr);
  // What stands in its place compiles and evaluates to the dynamic value.
  auto prog = compile_expression(*p.expr, p.source).program;
  Vm vm;
  EXPECT_TRUE(vm.run(*prog, EvalContext()).value.type()->is_dynamic());

  FileParse f = parse_config(make_source("deep.tf", "a = " + nested(100'000) + "\nb = 1\n"));
  ASSERT_TRUE(f.has_errors());
  EXPECT_EQ(f.diagnostics[0].summary, "Nesting too deep");
  ASSERT_EQ(f.body->attributes.size, 2u);  // the other attribute is intact

  // An unclosed million goes through the recovering parser.
  ExprParse u = parse_expression(make_source("<expr>", std::string(100'000, '[')));
  EXPECT_TRUE(u.has_errors());
}

// Writing a result under limits: a value small in memory whose text is not
// (one sharing its parts, a number of 10^8 digits) is refused before its
// text is made, with the limit named; others are written as without them.
TEST(Limits, JsonTextOfAResultIsBounded) {
  Vm vm;
  EvalContext ctx = with_functions();
  auto run = [&](const char* src) {
    EvalResult r = vm.run(*compile(src), ctx);
    EXPECT_FALSE(r.has_errors()) << src;
    return r.value;
  };
  Limits small;
  small.max_memory = 20'000;
  Value shared =
      run("[for a in [[for b in [[for c in [[for d in [[for e in [[for f in [[\"0123456789\", "
          "\"0123456789\", \"0123456789\", \"0123456789\"]]: [f, f, f, f]][0]]: [e, e, e, e]][0]]: "
          "[d, d, d, d]][0]]: [c, c, c, c]][0]]: [b, b, b, b]][0]]: [a, a, a, a]][0]");
  Value digits = run("1e100000000");
  for (const Value& v : {shared, digits}) {
    JsonText j = value_to_json(v, small);
    EXPECT_FALSE(j.ok());
    EXPECT_TRUE(j.json.empty());
    EXPECT_EQ(j.limit, Limit::Memory) << j.error;
    EXPECT_EQ(j.error, "the JSON text would take more than 20000 bytes");
    JsonText typed = value_to_json(v, Type::dynamic(), small);
    EXPECT_EQ(typed.limit, Limit::Memory) << typed.error;
  }
  // 4^6 strings of 12 bytes with their commas and brackets, about 55 KB.
  JsonText fits = value_to_json(shared, Limits{});
  ASSERT_TRUE(fits.ok()) << fits.error;
  EXPECT_EQ(fits.json, value_to_json(shared).json);
  EXPECT_FALSE(fits.limit.has_value());
  JsonText one = value_to_json(run("{a = 1.5}"), Type::dynamic(), small);
  EXPECT_EQ(one.json, R"({"value":{"a":1.5},"type":["object",{"a":"number"}]})");
  // Not a limit: the reason of the writer without limits.
  JsonText unknown = value_to_json(Value::unknown(Type::string()), small);
  EXPECT_FALSE(unknown.ok());
  EXPECT_FALSE(unknown.limit.has_value());
  EXPECT_EQ(unknown.error, value_to_json(Value::unknown(Type::string())).error);
  // A cancelled host stops the writing too.
  std::atomic<bool> cancel{true};
  Limits cancelled;
  cancelled.cancel = &cancel;
  JsonText stopped = value_to_json(digits, cancelled);
  EXPECT_EQ(stopped.limit, Limit::Cancelled) << stopped.error;
}

TEST(Nesting, LimitIsExact) {
  ExprParse ok = parse_expression(make_source("<expr>", nested(kMaxNesting)));
  EXPECT_FALSE(ok.has_errors());
  ExprParse deep = parse_expression(make_source("<expr>", nested(kMaxNesting + 1)));
  ASSERT_TRUE(deep.has_errors());
  EXPECT_EQ(deep.diagnostics[0].summary, "Nesting too deep");
  // Operator chains nest as deep as they are long.
  std::string chain = "1";
  for (uint32_t i = 0; i < 2 * kMaxNesting; ++i) chain += "+1";
  EXPECT_TRUE(parse_expression(make_source("<expr>", chain)).has_errors());
  EXPECT_TRUE(parse_expression(make_source("<expr>", std::string(2 * kMaxNesting, '-') + "1"))
                  .has_errors());
}

// limit_nesting lets an expression through unwalked when it spans too few
// bytes to nest past the limit: that holds only while no construct nests
// deeper than a level a byte (kNestingSlack aside). Every kind of node is
// nested here, alone and in the ways the grammar builds chains, and the
// depth of each tree is compared with the bytes it spans.
TEST(Nesting, LevelsPerByte) {
  auto rep = test::repeat;
  struct Shape {
    std::string open, middle, close;
  };
  const Shape shapes[] = {
      {"-", "1", ""},
      {"!", "true", ""},
      {"(", "1", ")"},
      {"[", "1", "]"},
      {"{a=", "1", "}"},
      {"{(a)=", "1", "}"},
      {"f(", "1", ")"},
      {"f(1,", "1", ")"},
      {"a?", "1", ":2"},
      {"a?1:", "2", ""},
      {"", "1", "+1"},
      {"", "1", "*1"},
      {"", "a", "==b"},
      {"", "a", "&&b"},
      {"a[", "b", "]"},
      {"", "a", "[b]"},
      {"", "a", "[*]"},
      {"", "a.*", ".b"},
      {"", "a", "[*].b"},
      {"", "a", ".0.b"},
      {"", "a", "[*][0]"},
      {"", "a", "[*].*.c"},
      {"", "a[*]", ".b"},
      {"", "a", "[0]"},
      {"\"${", "x", "}\""},
      {"\"a${", "x", "}\""},

      {"[for x in ", "y", ": x]"},
      {"{for k, v in ", "y", ": k => v}"},
      {"[for x in y: ", "x", "]"},
      {"\"%{for x in y}${", "x", "}%{endfor}\""},
      {"<<EOT\n${", "x", "}\nEOT\n"},
      {"a[*].b[", "c", "]"},
      {"-(", "1", ")"},
      {"try(", "1", ", 2)"},
  };
  for (const Shape& sh : shapes) {
    for (size_t n : {0, 1, 2, 3, 7, 40}) {
      std::string text = rep(sh.open, n) + sh.middle + rep(sh.close, n);
      ExprParse p = parse_expression(make_source("<expr>", text));
      EXPECT_FALSE(p.has_errors()) << text;
      if (p.has_errors()) continue;
      uint32_t bytes = p.expr->span.end - p.expr->span.begin;
      EXPECT_LE(syntax::depth(*p.expr), bytes + syntax::kNestingSlack) << text;
    }
  }
  // Templates of every kind, whose parts are literals the parser makes.
  std::vector<std::string> templates = {"", "a", "${x}", "a${x}b", "%{if a}b%{else}c%{endif}"};
  for (size_t n : {1, 2, 7, 40}) {
    templates.push_back(rep("%{if a}", n) + "x" + rep("%{endif}", n));
    templates.push_back(rep("%{for x in y}", n) + "${x}" + rep("%{endfor}", n));
    templates.push_back(rep("${\"%{if a}", n) + "x" + rep("%{endif}\"}", n));
    templates.push_back(rep("${\"", n) + "x" + rep("\"}", n));
  }
  for (const std::string& text : templates) {
    ExprParse p = parse_template(make_source("<tmpl>", text));
    EXPECT_FALSE(p.has_errors()) << text;
    if (p.has_errors()) continue;
    uint32_t bytes = p.expr->span.end - p.expr->span.begin;
    EXPECT_LE(syntax::depth(*p.expr), bytes + syntax::kNestingSlack) << text;
  }
  // Just past the limit, each is still refused: the short cut lets only
  // short expressions through.
  for (const Shape& sh : {shapes[0], shapes[2], shapes[10], shapes[24]}) {
    std::string text = rep(sh.open, kMaxNesting) + sh.middle + rep(sh.close, kMaxNesting);
    ExprParse p = parse_expression(make_source("<expr>", text));
    ASSERT_TRUE(p.has_errors()) << sh.open;
    EXPECT_EQ(p.diagnostics.back().summary, "Nesting too deep") << sh.open;
  }
}

// The parser walks a file's tree for the limit only when an attribute was
// long enough or the file large enough; a deep expression anywhere, after
// any number of short ones and splat chains, is still found.
TEST(Nesting, DeepAttributeAmongShortOnesIsFound) {
  std::string src = "a = x[*].y\nb = [for v in z: v.w[*].q]\n";
  src += "outer {\n  inner \"l\" {\n    c = 1\n    d = " + std::string(2 * kMaxNesting, '-') +
         "1\n  }\n}\ne = 2\n";
  FileParse f = parse_config(make_source("deep.tf", src));
  ASSERT_TRUE(f.has_errors());
  EXPECT_EQ(f.diagnostics[0].summary, "Nesting too deep");
  EXPECT_EQ(f.body->attributes.size, 3u);  // the others are intact
}

TEST(Nesting, DeepBlocksLoseTheirBodies) {
  std::string src;
  for (uint32_t i = 0; i < kMaxNesting + 5; ++i) src += "b {\n";
  for (uint32_t i = 0; i < kMaxNesting + 5; ++i) src += "}\n";
  FileParse f = parse_config(make_source("blocks.tf", src));
  ASSERT_TRUE(f.has_errors());
  EXPECT_EQ(f.diagnostics[0].summary, "Nesting too deep");
}

TEST(Nesting, JsonSyntax) {
  JsonParse ok = parse_json_expression(make_source("ok.json", nested(kMaxNesting)));
  EXPECT_FALSE(ok.has_errors());
  JsonParse deep = parse_json_config(make_source("deep.json", "{\"a\": " + nested(100'000) + "}"));
  ASSERT_TRUE(deep.has_errors());
  EXPECT_EQ(deep.diagnostics.back().summary, "Nesting too deep");
}

}  // namespace
}  // namespace hclvm

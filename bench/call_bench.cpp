// What a function call costs the VM beyond the function's own work
// (Google Benchmark). Each expression is compiled once and run by one Vm;
// the functions do nothing (return an argument), so the difference between
// `id(x)` and `x` is the call's overhead: looking the function up, the call
// frame, checking and converting the arguments, the return-type rule and
// the result check. Also reports heap allocations per evaluation.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "hclvm/eval.h"
#include "hclvm/function.h"
#include "util/alloc_count.h"

namespace hclvm {
namespace {

// A function of [nparams] parameters of type [t] that returns its first argument.
std::shared_ptr<const Function> first_of(int nparams, const Type* t) {
  auto f = std::make_shared<Function>();
  for (int i = 0; i < nparams; ++i) f->params.push_back(Param{"p" + std::to_string(i), t});
  f->returns(t);
  f->impl = [](std::span<const Value> args, const Type*) { return FuncResult::of(args[0]); };
  return f;
}

// Compiles [expr] and runs it for the benchmark's iterations with x = 7,
// s = "text", id/id3 (numbers) and sid (strings) as functions.
void run_expr(benchmark::State& state, const char* expr) {
  ExprParse p = parse_expression(make_source("<bench>", expr));
  if (!p.expr) {
    state.SkipWithError("parse failed");
    return;
  }
  CompileResult c = compile_expression(*p.expr, p.source);
  auto fns = std::make_shared<FunctionTable>();
  fns->add("id", first_of(1, Type::number()));
  fns->add("id3", first_of(3, Type::number()));
  fns->add("sid", first_of(1, Type::string()));
  EvalContext ctx;
  ctx.set("x", Value::integer(7));
  ctx.set("s", Value::string("text"));
  ctx.set_functions(fns);
  Vm vm;
  long before = alloc_count::allocations();
  for (auto _ : state) {
    EvalResult r = vm.run(*c.program, ctx);
    benchmark::DoNotOptimize(r);
  }
  state.counters["allocs/op"] = benchmark::Counter(
      double(alloc_count::allocations() - before), benchmark::Counter::kAvgIterations);
}

void BM_Variable(benchmark::State& state) { run_expr(state, "x"); }
BENCHMARK(BM_Variable);

void BM_CallOne(benchmark::State& state) { run_expr(state, "id(x)"); }
BENCHMARK(BM_CallOne);

void BM_CallFourNested(benchmark::State& state) { run_expr(state, "id(id(id(id(x))))"); }
BENCHMARK(BM_CallFourNested);

void BM_CallThreeArgs(benchmark::State& state) { run_expr(state, "id3(x, x, x)"); }
BENCHMARK(BM_CallThreeArgs);

// The argument converted from string to number on the way in.
void BM_CallConverting(benchmark::State& state) { run_expr(state, "id(\"7\")"); }
BENCHMARK(BM_CallConverting);

void BM_StringVariable(benchmark::State& state) { run_expr(state, "s"); }
BENCHMARK(BM_StringVariable);

void BM_CallString(benchmark::State& state) { run_expr(state, "sid(s)"); }
BENCHMARK(BM_CallString);

}  // namespace
}  // namespace hclvm

BENCHMARK_MAIN();

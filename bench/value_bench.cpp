// Micro-benchmarks of the value model (Google Benchmark): copying values,
// small-integer and MPFR arithmetic, string creation, object attribute
// access by name and by cached index, type interning, and reading a JSON
// document into values (bytes per second). Each benchmark also reports
// heap allocations per iteration (util/alloc_count.h), so "allocates
// nothing" is measured, not assumed.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "hclvm/number.h"
#include "hclvm/value.h"
#include "util/alloc_count.h"
#include "value/json.h"
#include "value/ops.h"

namespace hclvm {
namespace {

// Runs [body] for the benchmark's iterations and reports allocations per iteration.
template <typename F>
void run_counting(benchmark::State& state, F&& body) {
  long before = alloc_count::allocations();
  for (auto _ : state) body();
  state.counters["allocs/op"] = benchmark::Counter(
      double(alloc_count::allocations() - before), benchmark::Counter::kAvgIterations);
}

void BM_CopySmallInt(benchmark::State& state) {
  Value v = Value::integer(42);
  run_counting(state, [&] {
    Value c = v;
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_CopySmallInt);

void BM_CopyString(benchmark::State& state) {
  Value v = Value::string("a string that lives on the heap");
  run_counting(state, [&] {
    Value c = v;
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_CopyString);

void BM_CopyImmortalString(benchmark::State& state) {
  static Value v = Value::string("a constant of a shared program");
  v.make_immortal();
  run_counting(state, [&] {
    Value c = v;
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_CopyImmortalString);

void BM_NumberAddSmall(benchmark::State& state) {
  Number a = Number::from_int(123456, 512), b = Number::from_int(-654, 512);
  run_counting(state, [&] {
    NumError err{};
    Number c = Number::add(a, b, err);
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_NumberAddSmall);

void BM_NumberMulSmall(benchmark::State& state) {
  Number a = Number::from_int(1234, 512), b = Number::from_int(-654, 512);
  run_counting(state, [&] {
    NumError err{};
    Number c = Number::mul(a, b, err);
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_NumberMulSmall);

void BM_ValueAddSmall(benchmark::State& state) {
  Value a = Value::integer(123456), b = Value::integer(-654);
  run_counting(state, [&] {
    auto r = ops::add(a, b);
    benchmark::DoNotOptimize(r);
  });
}
BENCHMARK(BM_ValueAddSmall);

void BM_NumberAddMpfr(benchmark::State& state) {
  Number a = *Number::parse("1.5"), b = *Number::parse("2.25");
  run_counting(state, [&] {
    NumError err{};
    Number c = Number::add(a, b, err);
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_NumberAddMpfr);

void BM_NumberDivMpfr(benchmark::State& state) {
  Number a = Number::from_int(1, 512), b = Number::from_int(3, 512);
  run_counting(state, [&] {
    NumError err{};
    Number c = Number::quo(a, b, err);
    benchmark::DoNotOptimize(c);
  });
}
BENCHMARK(BM_NumberDivMpfr);

void BM_NumberText(benchmark::State& state) {
  NumError err{};
  Number third = Number::quo(Number::from_int(1, 512), Number::from_int(3, 512), err);
  run_counting(state, [&] { benchmark::DoNotOptimize(third.text()); });
}
BENCHMARK(BM_NumberText);

void BM_NumberParse(benchmark::State& state) {
  run_counting(state, [&] { benchmark::DoNotOptimize(Number::parse("12345.678")); });
}
BENCHMARK(BM_NumberParse);

// Short integers, the common literal, take a path of their own.
void BM_NumberParseInt(benchmark::State& state) {
  run_counting(state, [&] { benchmark::DoNotOptimize(Number::parse("-12345")); });
}
BENCHMARK(BM_NumberParseInt);

void BM_StringAscii(benchmark::State& state) {
  std::string s(size_t(state.range(0)), 'x');
  run_counting(state, [&] { benchmark::DoNotOptimize(Value::string(s)); });
}
BENCHMARK(BM_StringAscii)->Arg(8)->Arg(256);

void BM_StringNonAscii(benchmark::State& state) {
  std::string s;
  while (s.size() < size_t(state.range(0))) s += "caf\xc3\xa9 ";
  run_counting(state, [&] { benchmark::DoNotOptimize(Value::string(s)); });
}
BENCHMARK(BM_StringNonAscii)->Arg(8)->Arg(256);

Value sample_object() {
  std::vector<std::pair<std::string, Value>> attrs;
  for (int i = 0; i < 12; ++i) attrs.emplace_back("attribute_" + std::to_string(i), Value::integer(i));
  return Value::object(std::move(attrs));
}

void BM_AttrByName(benchmark::State& state) {
  Value o = sample_object();
  run_counting(state, [&] { benchmark::DoNotOptimize(o.attr("attribute_7")); });
}
BENCHMARK(BM_AttrByName);

// What the VM's inline cache does: the index is looked up once per type.
void BM_AttrByCachedIndex(benchmark::State& state) {
  Value o = sample_object();
  const Type* cached_type = o.type();
  size_t cached_index = *cached_type->find_attr("attribute_7");
  run_counting(state, [&] {
    const Value* v = o.type() == cached_type ? &o.attr(cached_index) : o.attr("attribute_7");
    benchmark::DoNotOptimize(v);
  });
}
BENCHMARK(BM_AttrByCachedIndex);

void BM_InternListType(benchmark::State& state) {
  run_counting(state, [&] { benchmark::DoNotOptimize(Type::list(Type::string())); });
}
BENCHMARK(BM_InternListType);

// Appends a random JSON value to [out]: objects and arrays down to [depth]
// levels, then strings (a few not ASCII), integers, decimals, bools and
// nulls; the top level is an object. Object keys come from a small pool, so
// that object types repeat as they do in real documents.
void random_json(std::mt19937& rng, int depth, std::string& out) {
  static const char* const kKeys[] = {"id", "name", "tags", "enabled", "count", "ratio",
                                      "owner", "region", "size", "labels", "items", "meta"};
  static const char* const kWords[] = {"alpha", "beta", "gamma", "delta", "caf\xc3\xa9",
                                       "na\\u00efve", "zeta", "x", "long string value here"};
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  size_t kind = depth >= 4 ? 0 : depth > 0 ? pick(8) : 2 + pick(6);
  switch (kind) {
    case 0:
    case 1: {
      bool object = kind == 0;
      out += object ? '{' : '[';
      size_t n = 2 + pick(6);
      for (size_t i = 0; i < n; ++i) {
        if (i) out += ',';
        if (object) {
          // Distinct keys in a random order; cty sorts them.
          out += '"';
          out += kKeys[(i * 5 + n) % std::size(kKeys)];
          out += "\":";
        }
        random_json(rng, depth - 1, out);
      }
      out += object ? '}' : ']';
      return;
    }
    case 2:
    case 3:
      out += '"';
      out += kWords[pick(std::size(kWords))];
      out += '"';
      return;
    case 4: out += std::to_string(int(rng() % 100000) - 5000); return;
    case 5:
      out += std::to_string(rng() % 1000);
      out += '.';
      out += std::to_string(rng() % 1000);
      return;
    case 6: out += pick(2) ? "true" : "false"; return;
    default: out += "null"; return;
  }
}

// A JSON array of random 4-level values, about [size] bytes long.
std::string random_document(size_t size) {
  std::mt19937 rng(42);
  std::string out = "[";
  while (out.size() < size) {
    if (out.size() > 1) out += ',';
    random_json(rng, 4, out);
  }
  out += ']';
  return out;
}

// from_json_simple (stdlib jsondecode): the implied type, then the value.
void BM_JsonRead(benchmark::State& state) {
  std::string doc = random_document(size_t(state.range(0)));
  run_counting(state, [&] {
    JsonResult<Value> r = from_json_simple(doc);
    if (!r.ok()) state.SkipWithError(r.error->message.c_str());
    benchmark::DoNotOptimize(r);
  });
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(doc.size()));
}
BENCHMARK(BM_JsonRead)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// implied_type alone (cty json.ImpliedType).
void BM_JsonImpliedType(benchmark::State& state) {
  std::string doc = random_document(size_t(state.range(0)));
  run_counting(state, [&] {
    JsonResult<const Type*> r = implied_type(doc);
    if (!r.ok()) state.SkipWithError(r.error->message.c_str());
    benchmark::DoNotOptimize(r);
  });
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(doc.size()));
}
BENCHMARK(BM_JsonImpliedType)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hclvm

BENCHMARK_MAIN();

// Conversion throughput in process: native files to JSON in the hcl2json
// shape (what @cdktf/hcl2json's parse() returns) and as the HCL JSON
// syntax, and JSON-syntax documents back to the native syntax, on every
// native file of the real corpus that the reference accepts (each its own
// file) and on the generated 10 MB corpus. bench/compare_convert.py runs
// these and @cdktf/hcl2json in the same run.
//
// Inputs are found at run time as parse_bench finds them (bench_inputs.h);
// a missing one skips its case with a message.
#include <hclvm/convert.h>

#include <benchmark/benchmark.h>

#include "bench_inputs.h"

#include <string>
#include <utility>
#include <vector>

namespace {

using hclvm::bench::bench_corpus_dir;
using hclvm::bench::slurp;

enum class Work { Hcl2Json, JsonSyntax, ToNative };

using Files = std::vector<std::pair<std::string, std::string>>;

// Does [work] to file [name] with [bytes] once; returns the bytes made.
size_t run_once(Work work, const std::string& name, const std::string& bytes) {
  hclvm::convert::JsonOptions o;
  switch (work) {
    case Work::Hcl2Json: o.shape = hclvm::convert::Shape::Hcl2Json; break;
    case Work::JsonSyntax: break;
    case Work::ToNative: return hclvm::convert::json_to_native(name, bytes).text.size();
  }
  return hclvm::convert::native_to_json(name, bytes, o).text.size();
}

// The inputs of [work]: [files] as they are, or for ToNative their JSON
// syntax documents.
Files inputs_for(Work work, const Files& files) {
  if (work != Work::ToNative) return files;
  Files out;
  for (const auto& [name, bytes] : files) {
    auto r = hclvm::convert::native_to_json(name, bytes);
    if (r.ok()) out.emplace_back(name + ".json", std::move(r.text));
  }
  return out;
}

// Does [work] to every file of [files] per iteration.
void run_files(benchmark::State& state, Work work, const Files& files) {
  Files in = inputs_for(work, files);
  int64_t total = 0;
  for (const auto& f : in) total += static_cast<int64_t>(f.second.size());
  for (auto _ : state)
    for (const auto& [name, bytes] : in) benchmark::DoNotOptimize(run_once(work, name, bytes));
  state.counters["files"] = static_cast<double>(in.size());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * total);
}

void bm_real(benchmark::State& state, Work work) {
  const auto& files = hclvm::bench::real_corpus_native_files(true);
  if (files.empty()) {
    state.SkipWithError("missing the real corpus (set HCLVM_SHARED_DIR)");
    return;
  }
  run_files(state, work, files);
}

void bm_file(benchmark::State& state, Work work, const std::string& name) {
  auto bytes = slurp(bench_corpus_dir() / name);
  if (!bytes) {
    state.SkipWithError(("missing " + (bench_corpus_dir() / name).string() +
                         " (run bench/compare.py or gen_corpus.py --out DIR)").c_str());
    return;
  }
  run_files(state, work, Files{{name, std::move(*bytes)}});
}

}  // namespace

// Registers the cases (names are what docs/benchmarks.md quotes), then
// runs the ones the command line selects. Rates use wall-clock time.
int main(int argc, char** argv) {
  struct Kind {
    const char* name;
    Work work;
  };
  for (Kind k : {Kind{"hcl2json", Work::Hcl2Json}, Kind{"jsonsyntax", Work::JsonSyntax},
                 Kind{"to_native", Work::ToNative}}) {
    benchmark::RegisterBenchmark((std::string(k.name) + "/real_corpus").c_str(), bm_real, k.work)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string(k.name) + "/corpus_10m.tf").c_str(), bm_file, k.work,
                                 std::string("corpus_10m.tf"))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

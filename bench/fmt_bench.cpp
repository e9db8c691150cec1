// Formatting throughput in process: hclfmt's layout (format_hcl, tokens
// only, as hclwrite.Format) and terraform fmt's style (format_file: parse,
// rewrites, layout) on the generated corpora, every native file of the
// real corpus (each formatted as its own file), and building the lossless
// tree. Each reports bytes per second; bench/compare_fmt.py runs the
// command-line comparison with terraform fmt and hclfmt.
//
// Inputs are found at run time as parse_bench finds them (bench_inputs.h);
// a missing one skips its case with a message.
#include <hclvm/format.h>

#include <benchmark/benchmark.h>

#include "bench_inputs.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

using hclvm::bench::bench_corpus_dir;
using hclvm::bench::real_corpus_dir;
using hclvm::bench::slurp;

// What one case does to a file: returns bytes it made, kept from the
// optimizer.
enum class Work { Hcl, Terraform, Tree };

// Does [work] to [name] with [bytes] once.
size_t run_once(Work work, const std::string& name, const std::string& bytes) {
  switch (work) {
    case Work::Hcl: return hclvm::format::format_hcl(bytes).size();
    case Work::Terraform:
      return hclvm::format::format_file(hclvm::make_source(name, bytes), hclvm::format::Style::Terraform).text.size();
    case Work::Tree: return hclvm::format::Tree(hclvm::make_source(name, bytes)).size();
  }
  return 0;
}

// Does [work] to the generated corpus file [name] per iteration.
void bm_file(benchmark::State& state, Work work, const std::string& name) {
  auto bytes = slurp(bench_corpus_dir() / name);
  if (!bytes) {
    state.SkipWithError(("missing " + (bench_corpus_dir() / name).string() +
                         " (run bench/compare.py or gen_corpus.py --out DIR)").c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(run_once(work, name, *bytes));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes->size()));
}

// Does [work] to every native file of the real corpus per iteration.
void bm_real(benchmark::State& state, Work work) {
  const auto& files = hclvm::bench::real_corpus_native_files();
  if (files.empty()) {
    state.SkipWithError(("missing real corpus " + real_corpus_dir().string() + " (set HCLVM_SHARED_DIR)").c_str());
    return;
  }
  int64_t total = 0;
  for (const auto& [name, bytes] : files) total += static_cast<int64_t>(bytes.size());
  for (auto _ : state)
    for (const auto& [name, bytes] : files) benchmark::DoNotOptimize(run_once(work, name, bytes));
  state.counters["files"] = static_cast<double>(files.size());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * total);
}

}  // namespace

// Registers the cases (names are what docs/benchmarks.md quotes), then
// runs the ones the command line selects. Rates use wall-clock time.
int main(int argc, char** argv) {
  struct Kind {
    const char* name;
    Work work;
  };
  for (Kind k : {Kind{"hclfmt", Work::Hcl}, Kind{"terraform", Work::Terraform}, Kind{"tree", Work::Tree}}) {
    for (const char* file : {"corpus_100k.tf", "corpus_1m.tf", "corpus_10m.tf"})
      benchmark::RegisterBenchmark((std::string(k.name) + "/" + file).c_str(), bm_file, k.work, std::string(file))
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    benchmark::RegisterBenchmark((std::string(k.name) + "/real_corpus").c_str(), bm_real, k.work)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Parse throughput: parse_config on the generated corpora (about 100 KB,
// 1 MB and 10 MB; parse_json_config on their JSON twins of 100 KB and
// 1 MB), on every native file of the real-world corpus (one
// iteration parses them all, each as its own file; or the files that the
// list $HCLVM_BENCH_FILE_LIST names), the recovering parser
// alone on the 1 MB corpus (what a file with one syntax error costs: the
// fast path's attempt comes first, then this), and the scanner alone on the
// 10 MB corpus. Each reports bytes per second; bench/compare.py puts the
// numbers next to the reference's.
//
// Inputs are found at run time, never needed at build time: the generated
// corpora in $HCLVM_BENCH_CORPUS (default <repo>/build/bench-corpus, written
// by bench/compare.py), the real corpus in $HCLVM_SHARED_DIR/corpus (default
// the shared directory beside the repository). A missing input skips its case
// with an error message instead of failing the whole program.
#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include <benchmark/benchmark.h>

#include "bench_inputs.h"

#include "syntax/parse.h"
#include "syntax/token.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using hclvm::bench::bench_corpus_dir;
using hclvm::bench::real_corpus_dir;
using hclvm::bench::slurp;

// One input file, read once before timing.
struct Input {
  std::string name;
  std::string bytes;
};

// Reads every native-syntax file that RESULTS.tsv in [dir] lists; empty if
// the corpus is absent.
std::vector<Input> read_real_corpus(const fs::path& dir) {
  std::vector<Input> out;
  auto results = slurp(dir / "RESULTS.tsv");
  if (!results) return out;
  std::istringstream in(*results);
  std::string line;
  std::getline(in, line);  // header: path, kind, ...
  while (std::getline(in, line)) {
    size_t t1 = line.find('\t');
    if (t1 == std::string::npos) continue;
    size_t t2 = line.find('\t', t1 + 1);
    if (line.compare(t1 + 1, t2 - t1 - 1, "native") != 0) continue;
    std::string path = line.substr(0, t1);
    if (auto bytes = slurp(dir / path)) out.push_back({path, std::move(*bytes)});
  }
  return out;
}

// Reads the files that the list file [list] names, one a line (its first
// tab-separated field; relative paths from the current directory), as
// gohcl-bench parselist does; a file that cannot be read is left out.
std::vector<Input> read_file_list(const fs::path& list) {
  std::vector<Input> out;
  auto text = slurp(list);
  if (!text) return out;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    std::string path = line.substr(0, line.find('\t'));
    if (path.empty()) continue;
    if (auto bytes = slurp(path)) out.push_back({path, std::move(*bytes)});
  }
  return out;
}

// The files of the case parse/real_corpus: those $HCLVM_BENCH_FILE_LIST
// names when it is set (bench/compare.py passes the reference's parselist
// the same list), else every native file of the real corpus.
std::vector<Input> real_corpus_inputs() {
  if (const char* list = std::getenv("HCLVM_BENCH_FILE_LIST"); list && *list) return read_file_list(list);
  return read_real_corpus(real_corpus_dir());
}

// Parses the generated corpus file [name] per iteration, from its bytes
// (making the Source is part of the work, as in the reference's ParseConfig).
void bm_parse_file(benchmark::State& state, const std::string& name) {
  auto bytes = slurp(bench_corpus_dir() / name);
  if (!bytes) {
    state.SkipWithError(("missing " + (bench_corpus_dir() / name).string() +
                         " (run bench/compare.py or gen_corpus.py --out DIR)").c_str());
    return;
  }
  size_t diags = 0;
  bool json = name.ends_with(".json");
  for (auto _ : state) {
    if (json) {
      auto r = hclvm::parse_json_config(hclvm::make_source(name, *bytes));
      diags = r.diagnostics.size();
      benchmark::DoNotOptimize(r.root);
    } else {
      auto r = hclvm::parse_config(hclvm::make_source(name, *bytes));
      diags = r.diagnostics.size();
      benchmark::DoNotOptimize(r.body);
    }
  }
  state.counters["diagnostics"] = static_cast<double>(diags);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes->size()));
}

// Parses every file of real_corpus_inputs() per iteration, each as its own file.
void bm_parse_real_corpus(benchmark::State& state) {
  static const std::vector<Input> inputs = real_corpus_inputs();
  if (inputs.empty()) {
    state.SkipWithError(("missing real corpus " + real_corpus_dir().string() +
                         " (set HCLVM_SHARED_DIR, or HCLVM_BENCH_FILE_LIST to a readable list)").c_str());
    return;
  }
  int64_t total = 0;
  for (const auto& in : inputs) total += static_cast<int64_t>(in.bytes.size());
  for (auto _ : state) {
    for (const auto& in : inputs) {
      auto r = hclvm::parse_config(hclvm::make_source(in.name, in.bytes));
      benchmark::DoNotOptimize(r.body);
    }
  }
  state.counters["files"] = static_cast<double>(inputs.size());
  state.counters["bytes"] = static_cast<double>(total);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * total);
}

// Parses the generated corpus file [name] per iteration with the
// recovering parser only (scanning included).
void bm_recover_file(benchmark::State& state, const std::string& name) {
  auto bytes = slurp(bench_corpus_dir() / name);
  if (!bytes) {
    state.SkipWithError(("missing " + (bench_corpus_dir() / name).string()).c_str());
    return;
  }
  size_t diags = 0;
  for (auto _ : state) {
    auto r = hclvm::syntax::parse_config_via(hclvm::make_source(name, *bytes), hclvm::syntax::Path::Recover);
    diags = r.diagnostics.size();
    benchmark::DoNotOptimize(r.body);
  }
  state.counters["diagnostics"] = static_cast<double>(diags);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes->size()));
}

// Scans the generated corpus file [name] per iteration (tokens only).
void bm_scan_file(benchmark::State& state, const std::string& name) {
  auto bytes = slurp(bench_corpus_dir() / name);
  if (!bytes) {
    state.SkipWithError(("missing " + (bench_corpus_dir() / name).string()).c_str());
    return;
  }
  size_t tokens = 0;
  for (auto _ : state) {
    auto toks = hclvm::syntax::scan(*bytes, hclvm::syntax::ScanMode::Normal);
    tokens = toks.size();
    benchmark::DoNotOptimize(toks.data());
  }
  state.counters["tokens"] = static_cast<double>(tokens);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes->size()));
}

}  // namespace

// Registers the cases (names are what bench/compare.py filters on), then
// runs the ones the command line selects. Rates use wall-clock time, as the
// reference's gohcl-bench does.
int main(int argc, char** argv) {
  for (const char* name : {"corpus_100k.tf", "corpus_1m.tf", "corpus_10m.tf", "corpus_100k.tf.json",
                           "corpus_1m.tf.json"})
    benchmark::RegisterBenchmark((std::string("parse/") + name).c_str(), bm_parse_file, std::string(name))
        ->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("parse/real_corpus", bm_parse_real_corpus)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("recover/corpus_1m.tf", bm_recover_file, std::string("corpus_1m.tf"))
      ->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("scan/corpus_10m.tf", bm_scan_file, std::string("corpus_10m.tf"))
      ->Unit(benchmark::kMillisecond)->UseRealTime();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

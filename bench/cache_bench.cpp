// What the compiled-file cache saves (Google Benchmark): for each input,
// parsing and compiling it (make_source + compile_file), writing the
// compiled files (write_compiled, sources not embedded) and loading them
// back (read_compiled with the sources at hand, which checks the envelope
// and verifies every program before anything could run).
//
// The inputs: the generated corpora corpus_1m.tf and corpus_10m.tf, each
// one file, and the real-world corpus, every *.tf, *.hcl, *.tfvars and
// *.nomad file under its files/ directory, each compiled, written and
// loaded as its own cache entry (as the Cache stores them); one iteration
// does them all.
//
// Counters: BM_Write and BM_Load report the cache file's size against the
// source's (ratio = bytes written / source bytes); BM_Load reports how
// many times faster loading is than parsing and compiling (speedup), using
// BM_ParseCompile's time for the same input when it ran first, else one
// warm parse and compile timed when the input is prepared. Freeing the
// files an iteration made is not timed (destroy_ms says what it costs).
//
// Inputs are found at run time as parse_bench finds them: the generated
// corpora in $HCLVM_BENCH_CORPUS (default <repo>/build/bench-corpus,
// written by bench/compare.py), the real corpus in $HCLVM_SHARED_DIR/corpus
// (default the shared directory beside the repository). A missing input
// skips its cases with an error message.
#include <hclvm/cache.h>
#include <hclvm/syntax.h>

#include <benchmark/benchmark.h>

#include "bench_inputs.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using hclvm::bench::bench_corpus_dir;
using hclvm::bench::real_corpus_dir;
using hclvm::bench::slurp;

constexpr const char* kRealCorpus = "real_corpus";

// One input of the benchmark: its files, and what the cases after the
// first need (compiled files, their cache bytes), made once outside timing.
struct Input {
  std::string error;  // why the input is missing; empty when it is here
  std::vector<std::pair<std::string, std::string>> files;  // name, bytes
  int64_t source_bytes = 0;
  // Made on first use by prepare().
  bool prepared = false;
  std::vector<std::shared_ptr<const hclvm::Source>> sources;
  std::vector<hclvm::CompiledFile> compiled;
  std::vector<std::string> blobs;  // one cache file per source
  int64_t blob_bytes = 0;
  // Seconds per parse and compile of all the files: BM_ParseCompile's
  // mean if it ran, else one warm run timed by prepare().
  double parse_compile_seconds = 0;
};

// Reads the input [name]: a generated corpus file, or kRealCorpus.
Input read_input(const std::string& name) {
  Input in;
  if (name != kRealCorpus) {
    fs::path p = bench_corpus_dir() / name;
    auto bytes = slurp(p);
    if (!bytes) {
      in.error = "missing " + p.string() + " (run bench/compare.py or gen_corpus.py --out DIR)";
      return in;
    }
    in.files.emplace_back(name, std::move(*bytes));
  } else {
    fs::path dir = real_corpus_dir() / "files";
    std::error_code ec;
    std::vector<fs::path> paths;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      std::string ext = it->path().extension().string();
      if (ext == ".tf" || ext == ".hcl" || ext == ".tfvars" || ext == ".nomad")
        paths.push_back(it->path());
    }
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths)
      if (auto bytes = slurp(p)) in.files.emplace_back(p.lexically_relative(dir).string(), *bytes);
    if (in.files.empty()) {
      in.error = "missing real corpus " + dir.string() + " (set HCLVM_SHARED_DIR)";
      return in;
    }
  }
  for (const auto& f : in.files) in.source_bytes += static_cast<int64_t>(f.second.size());
  return in;
}

// The input [name], read once.
Input& input(const std::string& name) {
  static std::map<std::string, Input> inputs;
  auto it = inputs.find(name);
  if (it == inputs.end()) it = inputs.emplace(name, read_input(name)).first;
  return it->second;
}

// Compiles and writes every file of [in] once; false, with the reason in
// in.error, when a file cannot be written.
bool prepare(Input& in) {
  if (in.prepared) return in.error.empty();
  in.prepared = true;
  for (const auto& [name, bytes] : in.files) {
    in.compiled.push_back(hclvm::compile_file(hclvm::make_source(name, bytes)));
    in.sources.push_back(in.compiled.back().source);
  }
  if (in.parse_compile_seconds == 0) {
    // Timed again, warm: the first run also pays for the process's first
    // touch of its memory.
    std::vector<hclvm::CompiledFile> again;
    again.reserve(in.files.size());
    auto start = Clock::now();
    for (const auto& [name, bytes] : in.files)
      again.push_back(hclvm::compile_file(hclvm::make_source(name, bytes)));
    in.parse_compile_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  for (const hclvm::CompiledFile& f : in.compiled) {
    std::string why;
    std::optional<std::string> blob = hclvm::write_compiled({&f}, {}, false, &why);
    if (!blob) {
      in.error = "cannot write " + f.source->name() + ": " + why;
      return false;
    }
    in.blob_bytes += static_cast<int64_t>(blob->size());
    in.blobs.push_back(std::move(*blob));
  }
  return true;
}

void set_sizes(benchmark::State& state, const Input& in) {
  state.counters["files"] = static_cast<double>(in.files.size());
  state.counters["source_bytes"] = static_cast<double>(in.source_bytes);
  state.counters["file_bytes"] = static_cast<double>(in.blob_bytes);
  state.counters["ratio"] =
      static_cast<double>(in.blob_bytes) / static_cast<double>(in.source_bytes);
}

// Frees what an iteration made with the timer stopped: freeing is the
// same work however a file was made, and no part of making it; returns
// the seconds it took (reported as destroy_ms).
template <typename T>
double destroy(benchmark::State& state, std::vector<T>& made) {
  state.PauseTiming();
  auto start = Clock::now();
  made.clear();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  state.ResumeTiming();
  return seconds;
}

// Parses and compiles every file of [name] per iteration, from its bytes.
void bm_parse_compile(benchmark::State& state, const std::string& name) {
  Input& in = input(name);
  if (!in.error.empty()) {
    state.SkipWithError(in.error.c_str());
    return;
  }
  std::vector<hclvm::CompiledFile> out;
  out.reserve(in.files.size());
  double seconds = 0, destroy_seconds = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    for (const auto& [fname, bytes] : in.files)
      out.push_back(hclvm::compile_file(hclvm::make_source(fname, bytes)));
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    destroy_seconds += destroy(state, out);
  }
  in.parse_compile_seconds = seconds / static_cast<double>(state.iterations());
  state.counters["destroy_ms"] = destroy_seconds * 1e3 / static_cast<double>(state.iterations());
  state.counters["files"] = static_cast<double>(in.files.size());
  state.counters["source_bytes"] = static_cast<double>(in.source_bytes);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * in.source_bytes);
}

// The input [name] compiled and written, or null after skipping the
// benchmark with the reason.
Input* prepared(benchmark::State& state, const std::string& name) {
  Input& in = input(name);
  if (!in.error.empty() || !prepare(in)) {
    state.SkipWithError(in.error.c_str());
    return nullptr;
  }
  return &in;
}

// Writes every compiled file of [name] (one cache file each) per iteration.
void bm_write(benchmark::State& state, const std::string& name) {
  Input* ready = prepared(state, name);
  if (!ready) return;
  Input& in = *ready;
  for (auto _ : state) {
    for (const hclvm::CompiledFile& f : in.compiled) {
      std::optional<std::string> blob = hclvm::write_compiled({&f}, {}, false);
      benchmark::DoNotOptimize(blob);
    }
  }
  set_sizes(state, in);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * in.source_bytes);
}

// Loads every cache file of [name] per iteration, its source in memory.
void bm_load(benchmark::State& state, const std::string& name) {
  Input* ready = prepared(state, name);
  if (!ready) return;
  Input& in = *ready;
  // Once outside timing: every file must load, or the times mean nothing.
  for (size_t i = 0; i < in.blobs.size(); ++i) {
    hclvm::LoadResult r = hclvm::read_compiled(in.blobs[i], {in.sources[i]});
    if (!r.ok()) {
      state.SkipWithError(("cannot load " + in.sources[i]->name() + ": " + r.error).c_str());
      return;
    }
  }
  std::vector<hclvm::LoadResult> out;
  out.reserve(in.blobs.size());
  double seconds = 0, destroy_seconds = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    for (size_t i = 0; i < in.blobs.size(); ++i)
      out.push_back(hclvm::read_compiled(in.blobs[i], {in.sources[i]}));
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    destroy_seconds += destroy(state, out);
  }
  seconds /= static_cast<double>(state.iterations());
  set_sizes(state, in);
  state.counters["destroy_ms"] = destroy_seconds * 1e3 / static_cast<double>(state.iterations());
  state.counters["parse_compile_ms"] = in.parse_compile_seconds * 1e3;
  state.counters["speedup"] = in.parse_compile_seconds / seconds;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * in.source_bytes);
}

// Loads every cache file of [name] lazily per iteration (the bytes already
// shared, as the cache hands them over): the envelope, tables and bodies
// are read and checked, programs not; with [decode_all], every program is
// then decoded and verified too, as an evaluation of every attribute does.
void bm_load_lazy(benchmark::State& state, const std::string& name, bool decode_all) {
  Input* ready = prepared(state, name);
  if (!ready) return;
  Input& in = *ready;
  std::vector<std::shared_ptr<const std::string>> shared;
  for (const std::string& b : in.blobs) shared.push_back(std::make_shared<const std::string>(b));
  std::vector<hclvm::LoadResult> out;
  out.reserve(in.blobs.size());
  double seconds = 0, destroy_seconds = 0;
  size_t programs = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    programs = 0;
    for (size_t i = 0; i < shared.size(); ++i) {
      out.push_back(hclvm::read_compiled(shared[i], {in.sources[i]}, nullptr,
                                         hclvm::ReadMode::Lazy));
      if (!out.back().ok()) {
        state.SkipWithError(("cannot load " + in.sources[i]->name()).c_str());
        return;
      }
      if (!decode_all) continue;
      std::vector<const hclvm::CompiledBody*> todo = {&out.back().files[0].body};
      while (!todo.empty()) {
        const hclvm::CompiledBody* b = todo.back();
        todo.pop_back();
        for (const hclvm::CompiledAttribute& a : b->attributes) {
          std::string why;
          benchmark::DoNotOptimize(a.native_program(&why));
          if (!why.empty()) state.SkipWithError(why.c_str());
          ++programs;
        }
        for (const hclvm::CompiledBlock& blk : b->blocks) todo.push_back(&blk.body);
      }
    }
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    destroy_seconds += destroy(state, out);
  }
  seconds /= static_cast<double>(state.iterations());
  set_sizes(state, in);
  state.counters["destroy_ms"] = destroy_seconds * 1e3 / static_cast<double>(state.iterations());
  state.counters["parse_compile_ms"] = in.parse_compile_seconds * 1e3;
  state.counters["speedup"] = in.parse_compile_seconds / seconds;
  if (decode_all) state.counters["programs"] = static_cast<double>(programs);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * in.source_bytes);
}

}  // namespace

// Registers the cases input by input (parse and compile first, so that the
// load's speedup uses its time), then runs the ones the command line
// selects. Times are wall-clock.
int main(int argc, char** argv) {
  for (const char* name : {"corpus_1m.tf", "corpus_10m.tf", kRealCorpus}) {
    std::string n(name);
    benchmark::RegisterBenchmark(("BM_ParseCompile/" + n).c_str(), bm_parse_compile, n)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_Write/" + n).c_str(), bm_write, n)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_Load/" + n).c_str(), bm_load, n)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_LoadLazy/" + n).c_str(), bm_load_lazy, n, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_LoadLazyDecodeAll/" + n).c_str(), bm_load_lazy, n, true)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

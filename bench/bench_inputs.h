// Where the benchmarks find their inputs, shared by parse_bench and
// cache_bench: the generated corpora ($HCLVM_BENCH_CORPUS, default
// <repo>/build/bench-corpus) and the real-world corpus ($HCLVM_SHARED_DIR/
// corpus, default the directory `shared` beside the repository). Both are
// looked up at run time and may be absent.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace hclvm::bench {

// Returns the contents of [path], or nothing if it cannot be read.
inline std::optional<std::string> slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Returns the directory of the generated corpora.
inline std::filesystem::path bench_corpus_dir() {
  if (const char* env = std::getenv("HCLVM_BENCH_CORPUS")) return env;
  return std::filesystem::path(HCLVM_SOURCE_DIR) / "build" / "bench-corpus";
}

// Returns the real-world corpus directory (it holds files/ and RESULTS.tsv).
inline std::filesystem::path real_corpus_dir() {
  if (const char* env = std::getenv("HCLVM_SHARED_DIR"))
    return std::filesystem::path(env) / "corpus";
  return std::filesystem::path(HCLVM_SOURCE_DIR).parent_path() / "shared" / "corpus";
}

}  // namespace hclvm::bench

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
#include <utility>
#include <vector>

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

// Every native file of the real corpus that the newest reference reads
// (kind native in RESULTS-newest.tsv; with [accepted_only], status ok
// only), as (path, bytes), read once; empty when the corpus is absent.
inline const std::vector<std::pair<std::string, std::string>>& real_corpus_native_files(bool accepted_only = false) {
  static const auto load = [](bool ok_only) {
    std::vector<std::pair<std::string, std::string>> out;
    auto results = slurp(real_corpus_dir() / "RESULTS-newest.tsv");
    if (!results) return out;
    std::istringstream in(*results);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1), t3 = line.find('\t', t2 + 1);
      if (t1 == std::string::npos || t2 == std::string::npos || line.compare(t1 + 1, t2 - t1 - 1, "native") != 0)
        continue;
      // Columns: path, kind, bytes, status, ...
      size_t t4 = t3 == std::string::npos ? std::string::npos : line.find('\t', t3 + 1);
      if (ok_only && (t3 == std::string::npos || line.compare(t3 + 1, t4 - t3 - 1, "ok") != 0)) continue;
      std::string path = line.substr(0, t1);
      if (auto bytes = slurp(real_corpus_dir() / path)) out.emplace_back(path, std::move(*bytes));
    }
    return out;
  };
  static const auto all = load(false);
  static const auto accepted = load(true);
  return accepted_only ? accepted : all;
}

}  // namespace hclvm::bench

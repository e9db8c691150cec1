// Helpers shared by the unit tests.
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hclvm::test {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_tabs(std::string_view line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1)
    fields.emplace_back(line.substr(start, tab - start));
  fields.emplace_back(line.substr(start));
  return fields;
}

std::vector<std::vector<std::string>> read_tsv(const std::filesystem::path& path) {
  std::istringstream in(read_file(path));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) rows.push_back(split_tabs(line));
  return rows;
}

std::optional<std::filesystem::path> shared_dir() {
  if (const char* env = std::getenv("HCLVM_SHARED_DIR")) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  auto p = std::filesystem::path(HCLVM_SOURCE_DIR).parent_path() / "shared";
  if (std::filesystem::is_directory(p / "corpus")) return p;
  return std::nullopt;
}

}  // namespace hclvm::test

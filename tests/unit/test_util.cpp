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

// Helpers shared by the unit tests.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hclvm/eval.h>

namespace hclvm::test {

// Decodes the Go string literal [q] (strconv.Quote's output).
std::string go_unquote(std::string_view q);

// A context as the reference's tools build one from a variables file: one
// variable per top-level key of the JSON object [json] (types implied by
// the JSON), and the default functions.
EvalContext context_from_vars(const std::string& json);

// Returns the contents of [path]; fails the test if it cannot be read.
std::string read_file(const std::filesystem::path& path);

// Returns the tab-separated fields of [line].
std::vector<std::string> split_tabs(std::string_view line);

// Returns the rows of the tab-separated file [path], without empty lines.
std::vector<std::vector<std::string>> read_tsv(const std::filesystem::path& path);

// Returns the shared directory beside the repository (reference corpus,
// benchmarks), or nothing when it is absent (a user's clone): tests that
// need it skip with a message.
std::optional<std::filesystem::path> shared_dir();

}  // namespace hclvm::test

// Helpers shared by the unit tests.
#pragma once

#include <hclvm/analysis.h>
#include <hclvm/body.h>
#include <hclvm/dynblock.h>
#include <hclvm/eval.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::test {

// A scratch directory with files, removed at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("hclvm_test_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  void write(const std::string& name, const std::string& text) const {
    std::filesystem::path p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Decodes the Go string literal [q] (strconv.Quote's output).
std::string go_unquote(std::string_view q);

// --- the line format of the Go golden generators (json_syntax, body) ---

// [s] as a JSON string, escaped as the generators' Go 1.19 encoding/json does.
std::string go_json_quote(std::string_view s);

// [p] as line:column:byte.
std::string pos_string(const Pos& p);

// [v] as the reference's tools print it: {"value":…,"type":…}, or for
// what JSON cannot hold (unknowns, infinities) {"repr":…,"type":…} with
// cty's Go syntax as the repr.
std::string golden_typed(const Value& v);

// Golden line [line] as it compares: the did-you-mean of "Unknown
// variable" is left out (the reference tries the variables in Go's random
// map order).
std::string comparable_line(std::string line);

// [t] as the generators write traversals: steps separated by spaces, each
// `name`, `.name` or `[key]` followed by `@` and its range written by [range].
std::string traversal_line(const Traversal& t, std::string (*range)(const Range&));

// [r] as the generators write ranges: file:line:column:byte-line:column:byte.
std::string range_line(const Range& r);

// [d] as the generators write diagnostics: a JSON object of severity,
// summary, detail, and subject and context as range_line()s when present.
std::string diag_line(const Diagnostic& d);

// The golden file [path] by case: the lines after each "I NAME" line.
using Golden = std::map<std::string, std::vector<std::string>>;
Golden load_golden(const std::filesystem::path& path);

// Compares the lines hclvm gives each case ([got], case name and lines, in
// the order of the case file) with [golden], both made comparable
// (comparable_line); reports one failure per case that differs, with both
// sides, and a missing or extra case.
void expect_golden(const Golden& golden,
                   const std::vector<std::pair<std::string, std::vector<std::string>>>& got);

// --- the case files of the body goldens (body, dynblock) ---

// One operation on a body: `>` per level, a selector below the first level
// ("remain" or "@TYPE"), the mode, and the schema words (`name`, `name!`
// for a required argument, `@type[:label,label]` for a block type).
struct BodyOp {
  int depth = 1;
  std::string selector;
  std::string mode;
  std::string text;  // the words after the selector
  BodySchema schema;
  std::vector<BodyOp> children;
};

struct BodyFile {
  std::string name, bytes;
};

// `case NAME [merge]`, `vars JSON`, `file NAME` ... `end`, `qfile NAME "..."`
// and the operations.
struct BodyCase {
  std::string name;
  bool merge = false;
  std::string vars;
  std::vector<BodyFile> files;
  std::vector<BodyOp> ops;
};

std::vector<BodyCase> load_body_cases(const std::filesystem::path& path);

// The lines of case [c] of the body goldens, evaluated in [ctx]; with
// [dynblock], on the body with its dynamic blocks expanded, and walks.
std::vector<std::string> body_case_lines(const BodyCase& c, const EvalContext& ctx, bool dynblock);

// A context as the reference's tools build one from a variables file: one
// variable per top-level key of the JSON object [json] (types implied by
// the JSON), and the default functions.
EvalContext context_from_vars(const std::string& json);

// What evaluating an expression gave: its value and the first diagnostic
// (of compiling or running it).
struct EvalOutcome {
  Value value;
  std::string summary, detail;
};

// Parses (the parse must succeed), compiles and runs [src] with the
// functions [fns] and the variables [vars].
EvalOutcome eval_with(const std::shared_ptr<const FunctionTable>& fns, std::string_view src,
                      const std::map<std::string, Value>& vars = {});

// Returns the contents of [path]; fails the test if it cannot be read.
std::string read_file(const std::filesystem::path& path);
// Returns the decompressed contents of the gzip file at [path] (goldens
// too big to keep as text); fails the test when it cannot be read.
std::string read_gzip_file(const std::filesystem::path& path);

// Returns the tab-separated fields of [line].
std::vector<std::string> split_tabs(std::string_view line);

// Returns the rows of the tab-separated file [path], without empty lines.
std::vector<std::vector<std::string>> read_tsv(const std::filesystem::path& path);

// Returns the shared directory beside the repository (reference corpus,
// benchmarks), or nothing when it is absent (a user's clone): tests that
// need it skip with a message.
std::optional<std::filesystem::path> shared_dir();

// Returns [s] repeated [n] times.
std::string repeat(std::string_view s, size_t n);

// [v] changed, as a new input for a variable: a string extended, a number
// plus one, a bool negated, a null made a string, anything else null;
// nullopt for an unknown or marked value.
std::optional<Value> changed_value(const Value& v);

}  // namespace hclvm::test

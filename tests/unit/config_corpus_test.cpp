// Whole configurations of the real-world corpus: every directory of
// ../shared/corpus that holds *.tf or *.tf.json files is loaded as a
// Terraform module, evaluated as terraform console would (required
// variables unknown) and validated. Nothing may crash, and no diagnostic
// may be one Terraform would not give: no "Unknown variable" (every name a
// reference needs is in its context), and every "Reference to undeclared
// ..." must name something the module really does not declare. The
// directories are other people's files, some several modules' files put
// together, so Terraform's own errors (duplicates, missing arguments) are
// expected and only counted; the table of what was reported is printed.
// Without the corpus (a user's clone) the test skips.
#include <gtest/gtest.h>

#include <hclvm/config.h>

#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace hclvm;


// The directories under [root] with a *.tf or *.tf.json file of their own.
std::vector<fs::path> module_dirs(const fs::path& root) {
  std::set<fs::path> dirs;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    std::string n = e.path().filename().string();
    if (n.ends_with(".tf") || n.ends_with(".tf.json")) dirs.insert(e.path().parent_path());
  }
  return {dirs.begin(), dirs.end()};
}

// The quoted name after [prefix] in [detail], or "".
std::string quoted_after(const std::string& detail, const std::string& prefix) {
  size_t p = detail.find(prefix);
  if (p == std::string::npos) return "";
  p += prefix.size();
  size_t e = detail.find('"', p);
  return e == std::string::npos ? "" : detail.substr(p, e - p);
}

// Whether [d], reported for [m], names something [m] declares.
std::string wrong_undeclared(const Diagnostic& d, const config::Module& m) {
  auto has = [](const std::vector<std::string>& names, const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  // Only the root module's names are checked; child modules' diagnostics
  // name their own files (not in the root directory).
  if (!d.subject || d.subject->filename.find('/') != std::string::npos) return "";
  if (d.summary == "Reference to undeclared input variable") {
    std::string n = quoted_after(d.detail, "with the name \"");
    if (!n.empty() && has(m.variable_names(), n)) return "var." + n;
  } else if (d.summary == "Reference to undeclared local value") {
    std::string n = quoted_after(d.detail, "with the name \"");
    if (!n.empty() && has(m.local_names(), n)) return "local." + n;
  } else if (d.summary == "Reference to undeclared module") {
    std::string n = quoted_after(d.detail, "No module call named \"");
    if (!n.empty() && has(m.module_call_names(), n)) return "module." + n;
  }
  return "";
}

TEST(ConfigCorpus, EveryModuleDirectoryLoadsAndEvaluates) {
  std::optional<fs::path> shared = test::shared_dir();
  if (!shared || !fs::exists(*shared / "corpus" / "files"))
    GTEST_SKIP() << "corpus not found (set HCLVM_SHARED_DIR to the shared directory)";
  fs::path files = *shared / "corpus" / "files";
  std::vector<fs::path> dirs = module_dirs(files);
  std::map<std::string, size_t> summaries;  // what was reported, across the corpus
  size_t loaded = 0, load_errors = 0, evaluated = 0, with_eval_errors = 0;
  std::vector<std::string> failures;
  for (const fs::path& dir : dirs) {
    config::LoadOptions lo;
    lo.language = config::Language::Terraform;
    config::LoadResult r = config::load_module(dir.string(), lo);
    for (const Diagnostic& d : r.diagnostics) {
      ++summaries["load: " + d.summary];
      // No module tree of the corpus is too big, and the only one without
      // end is tflint's fixture of modules calling each other (on which
      // Terraform's init fails: "file name too long").
      if (d.summary == "Too many modules" ||
          (d.summary == "Module calls itself" &&
           dir.string().find("/circular_referencing_modules") == std::string::npos))
        failures.push_back(dir.string() + ": " + d.summary);
    }
    if (!r.module) {
      ++load_errors;
      continue;
    }
    ++loaded;
    config::Inputs in;
    in.auto_var_files = false;
    config::Evaluation e = config::evaluate(r.module, in);
    Diagnostics v = config::validate(r.module);
    ++evaluated;
    // Re-evaluating with one variable changed, and back, gives what
    // evaluating afresh gives (unless the module's evaluations differ
    // anyway: uuid(), timestamp()...).
    auto shown = [](const config::Evaluation& x) {
      return x.to_json(true) + config::render_diagnostics(x.diagnostics(), {});
    };
    int changes = 0;
    const config::Evaluation* prev = &e;
    config::Evaluation last;
    for (const auto& [name, value] : e.variables()) {
      std::optional<Value> c = test::changed_value(value);
      if (!c || changes++ == 3) continue;
      for (int back = 0; back < 2; ++back) {
        config::Inputs other = in;
        if (back == 0) other.values[name] = *c;
        config::Evaluation again = config::reevaluate(*prev, other);
        std::string fresh = shown(config::evaluate(r.module, other));
        if (shown(again) != fresh && fresh == shown(config::evaluate(r.module, other)))
          failures.push_back(dir.string() + ": re-evaluation with var." + name +
                             (back ? " back" : " changed") + " differs from a fresh evaluation");
        last = std::move(again);
        prev = &last;
      }
    }
    bool errors = false;
    for (const Diagnostics* list : std::initializer_list<const Diagnostics*>{&e.diagnostics(), &v}) {
      for (const Diagnostic& d : *list) {
        ++summaries["eval: " + d.summary];
        errors |= d.severity == Severity::Error;
        // An expression whose references fail static validation is
        // evaluated with no variables at all, as Terraform does: its
        // "Unknown variable" follows that error, at the same place.
        bool after_static = std::any_of(list->begin(), list->end(), [&](const Diagnostic& o) {
          return &o != &d && o.severity == Severity::Error && o.subject && d.subject &&
                 o.subject->filename == d.subject->filename &&
                 o.subject->start.byte == d.subject->start.byte;
        });
        if (d.summary == "Unknown variable" && !after_static)
          failures.push_back(dir.string() + ": Unknown variable: " + d.detail);
        // Real modules stay within the default limits.
        if (d.summary.ends_with("limit exceeded") || d.summary == "Evaluation deadline exceeded")
          failures.push_back(dir.string() + ": " + d.summary);
        if (std::string w = wrong_undeclared(d, *r.module); !w.empty())
          failures.push_back(dir.string() + ": " + w + " is declared but reported undeclared");
      }
    }
    if (errors) ++with_eval_errors;
  }
  std::printf("%zu module directories: %zu loaded, %zu with load errors; %zu evaluated, %zu with "
              "errors\n",
              dirs.size(), loaded, load_errors, evaluated, with_eval_errors);
  std::vector<std::pair<size_t, std::string>> table;
  for (const auto& [s, n] : summaries) table.emplace_back(n, s);
  std::sort(table.rbegin(), table.rend());
  for (const auto& [n, s] : table) std::printf("%7zu  %s\n", n, s.c_str());
  for (size_t i = 0; i < failures.size() && i < 50; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " wrong diagnostics";
}

}  // namespace

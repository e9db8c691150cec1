// The commands that evaluate: `hclvm eval`, `disasm` and `bench`
// (eval.cpp, bench.cpp), `compile` and `cache` (compile.cpp), and `eval`
// of a module and `console` (config.cpp), with their help texts. The
// toolkit they share is cli/common.h.
#pragma once

#include <hclvm/body.h>
#include <hclvm/cache.h>
#include <hclvm/config.h>
#include <hclvm/eval.h>

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "cli/common.h"

namespace hclvm::cli {

// The commands (eval.cpp, bench.cpp) with their arguments [args] (after the
// command name); each returns the exit status.
int run_eval(const std::vector<std::string>& args);
int run_disasm(const std::vector<std::string>& args);
int run_bench(const std::vector<std::string>& args);
// compile.cpp: `hclvm compile` and `hclvm cache`.
int run_compile(const std::vector<std::string>& args);
int run_cache(const std::vector<std::string>& args);

// Their help texts.
extern const char kEvalHelp[];
extern const char kDisasmHelp[];
extern const char kBenchHelp[];
extern const char kCompileHelp[];
extern const char kCacheHelp[];
extern const char kConsoleHelp[];

// The `eval` command on a module (config.cpp): the whole evaluation as
// JSON or HCL, or one expression in the module's scope.
int run_eval_module(const EvalOptions& o);
// The `console` command (console.cpp): interactive on a terminal,
// streaming otherwise, terraform console's piped mode with --terraform-piped.
int run_console(const std::vector<std::string>& args);

// A module to load: its directory, and its files when not all of them.
struct ModuleTarget {
  std::string dir;
  std::vector<std::string> files;  // empty: the whole directory
};
// The target of [files]: one directory, or files of one module; on a mix
// stores a message in [err] and returns nothing.
std::optional<ModuleTarget> target_of(const std::vector<std::string>& files, std::string& err);
// Loads the module [t] (a directory, or its files), through the
// compiled-file cache when [o] asks for it (--cache, --cache-dir).
config::LoadResult load_target(const ModuleTarget& t, const EvalOptions& o = {});
// Fills [in] with the inputs the options [o] give the module in [dir]
// (-var, -var-file, the workspace, --values, the environment); returns a
// usage message on failure.
std::optional<std::string> inputs_from(const EvalOptions& o, const std::string& dir,
                                       config::Inputs& in);
// Rewrites Terraform's single-dash flags [names] (-var, -var-file unless
// given) in [args] to their long forms.
std::vector<std::string> long_terraform_flags(const std::vector<std::string>& args,
                                              std::initializer_list<std::string_view> names = {
                                                  "var", "var-file"});
// Whether [path] is a directory.
bool is_directory(const std::string& path);
// Whether [path] is a directory holding Terraform or Packer files.
bool is_module_dir(const std::string& path);

// What checking a module directory found (config.cpp): load and validate
// diagnostics, the files read, and the parse diagnostics of each file.
struct ModuleCheck {
  Diagnostics diagnostics;
  config::Sources sources;
  std::map<std::string, Diagnostics> parse_diagnostics;
};
// With [tests], the module's test files are read too, from the directory
// and from [test_directory] under it (terraform validate's default).
ModuleCheck check_module(const std::string& dir, bool tests = true,
                         const std::string& test_directory = "tests");

}  // namespace hclvm::cli

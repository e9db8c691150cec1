// Shared pieces of the `hclvm` command: the option scanner every command
// uses, finding and reading input files, parsing one file the way a command
// asked for, and deciding how diagnostics look on this output. Commands live
// in main.cpp (dispatch, help, `ast`), check.cpp (`check`), fmt.cpp
// (`fmt`) and edit.cpp (`edit`).
#pragma once

#include <hclvm/diagnostic.h>
#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include "diag/render.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::cli {

// Exit statuses, the same for every command.
constexpr int kExitOk = 0;
constexpr int kExitErrors = 1;
constexpr int kExitUsage = 2;

// Ends a command that returned [code]: flushes standard output and, when a
// write to it failed (a full disk), says so and makes the status
// kExitErrors. Without a sanitizer the process then ends at once
// (std::_Exit), leaving the memory of what the command built — function
// tables, modules, their programs — to the system, as compilers do; under a
// sanitizer it returns the status, for main to return, so that destructors
// and the leak check run.
int finish(int code);

// Keeps [p] until the process ends, so that a command need not free it on
// its way out (nothing is kept under a sanitizer: [p] is released here).
void keep_until_exit(std::shared_ptr<const void> p);

// The program's name in messages: "hclvm", or the name it was run as
// ("hcldec"), set once by main() from argv[0].
const std::string& program_name();
void set_program_name(const char* argv0);

// Prints "PROGRAM: [msg]" to stderr and returns kExitUsage, so callers can
// write `return usage_error(...)`.
int usage_error(const std::string& msg);

// The flags a help text lists in its "Options:" section (`-e`, `--expr`,
// ...), in their order: the one table of each command's flags, for
// did-you-mean, shell completion and the manual page.
std::vector<std::string> help_flags(std::string_view help);

// The closest of [candidates] to [word] by Levenshtein distance, when it is
// less than 3 (the reference's nameSuggestion); empty when none is.
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

// Reports the unknown flag [flag] of a command whose help is [help], with a
// suggestion from that help when one is close, and "(see '[see]')";
// returns kExitUsage.
int unknown_flag(const std::string& flag, std::string_view help, const std::string& see);

// Walks a command's arguments: flags (`--name value`, `--name=value`,
// `-x value`, `-xVALUE`), `--` to end flags, and positionals (including a
// lone `-`, standard input).
class ArgScanner {
 public:
  explicit ArgScanner(const std::vector<std::string>& args) : args_(args) {}

  // Advances to the next argument; false at the end.
  bool next();
  // Reports whether the current argument is a flag (not after `--`).
  bool is_flag() const { return flag_; }
  // The flag's name (`--as`, `-j`) or the positional argument itself.
  const std::string& name() const { return name_; }
  // Reports whether the current flag is one of [long_name] / [short_name].
  bool is(std::string_view long_name, std::string_view short_name = {}) const;
  // Takes the current flag's value, inline or from the next argument; on
  // a missing value stores a message in [error] and returns nothing.
  std::optional<std::string> value(std::string& error);

 private:
  const std::vector<std::string>& args_;
  size_t i_ = 0;
  bool flag_ = false;
  bool done_flags_ = false;
  std::string name_;
  std::optional<std::string> inline_;
};

// How each input is parsed: `--as config|expr|template|traversal|json`.
enum class ParseAs { Config, Expr, Template, Traversal, Json };

// Reads the `--as` value [s] into [out]; false when [s] is not a kind.
bool parse_as_kind(std::string_view s, ParseAs& out);

// Which syntax a file name implies.
enum class FileSyntax { Native, Json, Unknown };

// Classifies [path] by its extension: .hcl (so .pkr.hcl), .tf, .tfvars and
// .nomad are native syntax; .json names are the JSON syntax.
FileSyntax classify(std::string_view path);

// Whether file name [name] is a configuration file in the JSON syntax
// (main.tf.json, x.hcl.json, x.pkr.json, x.tfvars.json, x.nomad.json).
bool is_hcl_json_name(std::string_view name);

// How the file [path] is parsed when the command asked for [as]: a
// configuration file named *.json is read in the JSON syntax.
ParseAs parse_kind_for(ParseAs as, std::string_view path);

// How directories are walked: names matching an --exclude glob, and
// the default excludes (hidden names, which hold tool state such as .git
// and .terraform, and node_modules) unless --no-default-excludes.
struct WalkOptions {
  std::vector<std::string> excludes;
  bool default_excludes = true;
};

// The default excludes, as globs.
inline const std::vector<std::string>& default_excludes() {
  static const std::vector<std::string> globs = {".*", "node_modules"};
  return globs;
}

// A symbolic link to a directory met while walking: followed, or not
// because the directory it leads to was walked already (a loop, or a
// second way to the same directory).
struct SymlinkNote {
  std::string path, target;
  bool followed = true;
};

// What collect_inputs found.
struct Inputs {
  // The files to read, sorted by path with duplicates removed; a path that
  // could not be read or walked is among them too, with its reason in
  // [unreadable], so that it is reported in its turn.
  std::vector<std::string> files;
  std::map<std::string, std::string> unreadable;  // path -> reason (strerror)
  std::vector<SymlinkNote> symlinks;              // in the order met
  std::set<std::string> directories;              // the arguments that name directories
};

// Expands [args] (files, directories, `-`) into the files to read.
// Directories are searched recursively for configuration files of both
// syntaxes (is_hcl_json_name for JSON), skipping what [walk] excludes
// (a glob matches a name, or a path relative to the directory named) and
// following symbolic links to directories once each; explicitly named files
// are taken whatever their extension. A path under "." is named without
// its "./". Returns nothing with a message in [error] only for a misuse
// (standard input named twice).
std::optional<Inputs> collect_inputs(const std::vector<std::string>& args, const WalkOptions& walk,
                                     std::string& error);

// Replaces file [path] (a symbolic link: the file it points to) with
// [data] through a temporary file in the same directory and a rename, so
// that no reader ever sees it half-written; the file keeps its mode and,
// where the system allows, its owner; a file that does not exist yet is
// created with the mode the umask gives (read from /proc, without
// changing it, so safe from several threads). On failure stores the reason in
// [error], leaves the file as it was and returns false.
bool write_file_atomic(const std::string& path, std::string_view data, std::string& error);

// Reads all of [path] (`-`: standard input) as bytes into [out]; on failure
// (the system's error, a stream of more than 4 GiB, no memory for it)
// stores the reason in [error] and returns false.
bool read_input(const std::string& path, std::string& out, std::string& error);

// The name a file gets in diagnostics: its path, or "<stdin>" for `-`,
// as hcldec names standard input.
std::string display_name(const std::string& path);
// A path found by walking a directory as it is shown: without a leading
// "./" ("./a/b.tf" is "a/b.tf").
std::string shown_path(const std::filesystem::path& p);
std::string shown_path(std::string p);

// An entry of a directory: its name and type as readdir gives it
// (DT_DIR, DT_LNK, DT_REG...; found with lstat where the file system does
// not say).
struct DirEntry {
  std::string name;
  unsigned char type;
};
// Appends the entries of directory [dir], but "." and "..", to [out];
// false with [err] (an errno) when it cannot be read to the end.
bool read_directory(const std::string& dir, std::vector<DirEntry>& out, int& err);

// One parsed input with what the text renderer needs to show snippets.
struct Parsed {
  std::shared_ptr<const Source> source;
  std::unique_ptr<Arena> arena;             // owns the tree
  Diagnostics diagnostics;
  const ast::Body* body = nullptr;          // Config only
  const ast::Expr* expr = nullptr;          // Expr and Template
  ast::List<ast::Traverser> traversal;      // Traversal
  const json::Node* json = nullptr;          // Json
  diag::SnippetFiles snippet_files() const;
};

// Parses [bytes] named [name] as [as].
Parsed parse_input(ParseAs as, std::string name, std::string bytes);

// `--color auto|always|never`.
enum class ColorMode { Auto, Always, Never };

// Reads the `--color` value [s] into [out]; false when [s] is not a mode.
bool parse_color_mode(std::string_view s, ColorMode& out);

// Returns the text style for diagnostics written to [fd]: colour when [mode]
// says always, or auto on a terminal with NO_COLOR unset or empty; width
// of the terminal, or 80 when [fd] is not one (as hcldec does).
diag::TextStyle text_style_for(int fd, ColorMode mode);

// A sink that writes rendered diagnostics straight to [f] (diag::write_text),
// so that no command holds all of their text.
diag::TextSink file_sink(std::FILE* f);

// The `check` command with its arguments [args] (after the command name);
// returns the exit status.
int run_check(const std::vector<std::string>& args);

// The `fmt` command (fmt.cpp): terraform fmt's interface.
int run_fmt(const std::vector<std::string>& args);
// The `edit` command (edit.cpp).
int run_edit(const std::vector<std::string>& args);

// The `dec` command (the hcldec program) with its arguments [args] (dec.cpp).
int run_dec(const std::vector<std::string>& args);
// The `functions` command (functions.cpp).
int run_functions(const std::vector<std::string>& args);
// The `json` command (json.cpp): native syntax to JSON.
int run_json(const std::vector<std::string>& args);

// `hclvm completion bash|zsh|fish` (manual.cpp): the shell completion
// scripts, made from the help texts.
int run_completion(const std::vector<std::string>& args);
// The manual page hclvm(1) in troff, made from the help texts (manual.cpp).
std::string man_page(std::string_view version);

// The general help (main.cpp); the help text of command [cmd] or nullptr
// (main.cpp); the commands the general help lists, in its order.
extern const char kMainHelp[];
const char* help_for(const std::string& cmd);
std::vector<std::string> command_names();

// Help texts, printed by `hclvm help CMD` and `hclvm CMD --help`.
extern const char kCompletionHelp[];
extern const char kCheckHelp[];
extern const char kFmtHelp[];
extern const char kEditHelp[];
extern const char kDecHelp[];
extern const char kFunctionsHelp[];
extern const char kJsonHelp[];

}  // namespace hclvm::cli

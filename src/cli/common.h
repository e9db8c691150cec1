// The toolkit the evaluating commands (`hclvm eval`, `disasm`, `bench`,
// `compile`, `check` and `console`) share: their options and how they are
// read, the function table and the variables of an evaluation context,
// printing results as the reference's tools do and diagnostics as `hclvm
// check` does, and walking the attributes of a file. Defined in common.cpp.
#pragma once

#include <hclvm/body.h>
#include <hclvm/cache.h>
#include <hclvm/eval.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.h"

namespace hclvm::cli {

// How values print: the reference's {"value":…,"type":…} JSON, or HCL.
enum class Format { Json, Hcl };

// Which command's options are being read.
enum class EvalCommand { Eval, Disasm, Bench };

struct EvalOptions {
  std::vector<std::string> exprs;  // -e, each evaluated in order
  std::optional<std::string> lines;
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> vars;
  std::optional<std::string> vars_file;
  Format format = Format::Json;
  bool show_sensitive = false;  // --show-sensitive: print sensitive values in clear
  bool as_json = false;  // --as json: FILE is in the JSON syntax whatever its name
  ColorMode color = ColorMode::Auto;
  // eval and bench: the function table (--functions) and what it may read.
  bool go_cty_functions = false;  // --functions go-cty: the reference's tools' table
  std::optional<std::string> base_dir;  // --base-dir: the filesystem functions' directory
  // bench only
  std::optional<long> iterations;  // -n
  long runs = 1;                   // --runs
  double benchtime = 1.0;          // --benchtime, seconds
  bool json = false;               // --json
  // eval: the compiled-file cache (--cache, --no-cache, --cache-dir)
  bool cache = false;
  std::string cache_dir;
  // eval: the limits of each evaluation (--max-steps ..., --no-limits)
  Limits limits;
  // eval of a module (a directory, several files, or --module): -var and
  // -var-file in command-line order, the workspace and resource values.
  bool module = false;
  std::vector<std::pair<bool, std::string>> var_args;  // (is a file, text)
  std::optional<std::string> workspace;
  std::optional<std::string> values_file;
  bool no_confine = false;  // --no-confine: file functions may read anywhere
};

// Parses [args] of [cmd] into [o]; returns an exit status when the command
// should stop now (help printed, or a usage error reported).
std::optional<int> parse_eval_options(const std::vector<std::string>& args, EvalCommand cmd,
                                      EvalOptions& o);

// The function table [o] asks for: Terraform's (the standard library) with
// the filesystem functions under --base-dir (default: the directory of the
// file, or the current directory for an expression), or go-cty's.
std::shared_ptr<const FunctionTable> functions_for(const EvalOptions& o);

// Sets the variables of [o] in [ctx]; on failure returns a usage message
// (a vars file's errors are printed as diagnostics first, and the message
// names the file).
std::optional<std::string> load_vars(const EvalOptions& o, EvalContext& ctx);

// The value of `--var NAME=[text]` outside a module: [text] as a literal
// when it is one written canonically (a number whose text is [text],
// true, false, null), or the value of a quoted string, tuple or object
// literal (text starting with ", [ or {); any other text is the string
// itself. Text starting with ", [ or { that is not a valid expression
// without variables is an error: nothing, with the reason in [error].
std::optional<Value> var_value(const std::string& text, std::string& error);

// The variables of the vars file [path] whose contents are [bytes]: a
// *.json file (not *.tfvars.json) as a JSON object, one variable per
// property with the type its JSON implies; any other file as a body of
// attributes (*.tfvars.json in the JSON syntax, *.tfvars, *.hcl and the
// rest in the native syntax), each evaluated without variables. Errors
// are diagnostics with the file's line and column.
struct VarsFile {
  std::vector<std::pair<std::string, Value>> vars;
  Diagnostics diagnostics;
  std::shared_ptr<const Source> source;  // for rendering the diagnostics
};
VarsFile read_vars_file(const std::string& path, std::string bytes);

// The text shown instead of a sensitive value.
inline constexpr char kSensitiveText[] = "(sensitive value)";

// [v] as the reference's tools print a result: {"value":…,"type":…}, or
// {"repr":…,"type":…} with cty's Go syntax when JSON cannot hold the value.
// A value with a sensitive part prints as {"value":"(sensitive value)",
// "type":…,"sensitive":true} unless [show_sensitive].
std::string typed_json(const Value& v, bool show_sensitive = false);

// Printing a result. A value may be small in memory and enormous as text:
// one that repeats a shared part writes it out every time, a number such
// as 1e100000000 has a hundred million digits, and indentation makes the
// text of a deep value quadratic in its depth. So a result is written
// under a budget of its own (util/meter.h), with the limits of the run:
// its text counts as memory and may not pass the memory limit (a text of
// its own, not a string value: the string size limit is not its bound),
// and the writing has a deadline of its own. A result whose text would
// pass them is not printed; the command reports it and fails.
struct Printed {
  std::string text;
  std::string error;  // why it was not printed
};

// What [render] returns, rendered under [limits] as above. The reasons
// name the option that sets the limit passed when [options] (the commands
// that have them).
Printed print_bounded(const Limits& limits, const std::function<std::string()>& render,
                      bool options = true);

// Reports on standard error that [what] was not printed, [why].
void print_failed(const std::string& what, const std::string& why);

// Writes [diags] about [src] to stderr in the style of `hclvm check`;
// [body] names the enclosing blocks.
void print_diags(const Diagnostics& diags, const Source& src, const ast::Body* body,
                 ColorMode color);

// Writes [diags] about [src] to stderr like print_diags, with [context]
// naming the enclosing blocks.
void print_diags_with(const Diagnostics& diags, const Source& src,
                      std::function<std::string(uint32_t)> context, ColorMode color);

// Calls [fn](path, attribute) for every attribute of the compiled [body],
// blocks included, in the order each_attribute walks a parsed one.
template <class Fn>
void each_compiled_attribute(const CompiledBody& body, const std::string& prefix, Fn&& fn) {
  for (const CompiledAttribute& a : body.attributes) fn(prefix + a.name, a);
  for (const CompiledBlock& b : body.blocks) {
    std::string p = prefix + b.type + ".";
    for (const std::string& l : b.labels) p += l + ".";
    each_compiled_attribute(b.body, p, fn);
  }
}

// The attributes of a JSON-syntax file: without a schema there are no
// blocks, so each top-level property is one attribute whose value is the
// whole JSON value under it (the reference's JustAttributes, as its
// benchmark tool evaluates JSON files).
struct JsonFileAttributes {
  ConfigFile file;
  Attributes attributes;
  Diagnostics diagnostics;  // of parsing and of JustAttributes
};

// Reads [bytes] named [name] as a JSON-syntax file and takes its attributes.
JsonFileAttributes json_file_attributes(std::string name, std::string bytes);

// Calls [fn](path, attribute) for every attribute of [body], blocks
// included, with paths like `block.label.name`.
template <class Fn>
void each_attribute(const ast::Body& body, const std::string& prefix, Fn&& fn) {
  for (const ast::Attribute* a : body.attributes) fn(prefix + std::string(a->name), *a);
  for (const ast::Block* b : body.blocks) {
    std::string p = prefix + std::string(b->type) + ".";
    for (std::string_view l : b->labels) p += std::string(l) + ".";
    if (b->body) each_attribute(*b->body, p, fn);
  }
}

}  // namespace hclvm::cli

// Whole configurations: a Terraform module directory (or a Packer template
// directory) loaded and evaluated as Terraform 1.11.4 (or Packer) does.
//
//   hclvm::config::LoadResult m = hclvm::config::load_module("infra/vpc");
//   if (m.has_errors()) { std::cerr << hclvm::config::render_diagnostics(m.diagnostics, m.sources); }
//   hclvm::config::Inputs in;
//   in.args = {{hclvm::config::VarArg::Var, "region=eu-west-1"}};
//   hclvm::config::Evaluation e = hclvm::config::evaluate(m.module, in);
//   hclvm::Value subnets = e.output("subnets");
//   hclvm::EvalResult r = e.eval("local.tags");   // as `terraform console` would
//
// Loading reads every *.tf and *.tf.json of the directory (override files
// merged by Terraform's rules; Packer: *.pkr.hcl and *.pkr.json), decodes
// the blocks with Terraform's schema and its diagnostics, loads local child
// modules (`source = "./..."`) recursively, and compiles every expression
// once. A Module is immutable after loading and may be evaluated any number
// of times, from any number of threads at once, each evaluation with its
// own inputs: input variables from the sources Terraform reads (TF_VAR_
// environment, terraform.tfvars, *.auto.tfvars, -var-file, -var) or given
// as values, the workspace, and the values of resources, which are
// otherwise unknown as `terraform console` shows them without state.
//
// Evaluating walks Terraform's graph of named values once in dependency
// order (variables, their validations, locals, module calls and their
// expansion, outputs, resources), running each expression's compiled
// program in a context holding what it refers to. Diagnostics are
// Terraform's, texts and ranges; render_diagnostics prints them as
// Terraform's human view does (with "├──" lines, whose statements are kept
// in each Diagnostic's expression_values in Terraform's form "var.x is 3").
#pragma once

#include <hclvm/body.h>
#include <hclvm/cache.h>
#include <hclvm/diagnostic.h>
#include <hclvm/eval.h>
#include <hclvm/syntax.h>
#include <hclvm/value.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::config {

// The configuration language of a directory.
enum class Language : uint8_t { Terraform, Packer };

// The files a load read, by the names diagnostics use, for snippets.
class Sources {
 public:
  struct File {
    std::shared_ptr<const Source> source;
    Body body;  // to name the block around a range ("in variable \"x\"")
    Syntax syntax = Syntax::Native;
  };
  // Adds [f] under its source's name (a later file of the same name wins).
  void add(File f);
  // The file named [name], or null.
  const File* find(std::string_view name) const;
  // Adds every file of [other].
  void merge(const Sources& other);
  const std::map<std::string, File, std::less<>>& files() const { return files_; }

 private:
  std::map<std::string, File, std::less<>> files_;
};

struct LoadOptions {
  // The language; default: Packer when the directory has *.pkr.hcl or
  // *.pkr.json files and no *.tf or *.tf.json, else Terraform.
  std::optional<Language> language;
  // Read each file's compiled programs through this cache (compiled and
  // stored on a miss) instead of compiling them; null: compile.
  const Cache* cache = nullptr;
  // The directory's name in diagnostics and path.module; default: "." for
  // a directory given as it is (Terraform runs in the root module).
  std::optional<std::string> display_dir;
  // Also read the root module's test files, as `terraform validate` does:
  // *.tftest.hcl and *.tftest.json in the directory and in [test_directory]
  // under it, with the mock data directories their mock providers name.
  // Their errors are load errors; their contents are not evaluated.
  bool tests = false;
  std::string test_directory = "tests";
  // The most modules the tree may hold: every call of a local module
  // counts, with the modules it calls ("Too many modules" past it). Calls
  // that fan out through a few directories would otherwise load copies in
  // numbers that grow exponentially with the depth.
  size_t max_modules = 10000;
};

namespace detail {
struct ModuleData;
struct EvalState;
}  // namespace detail

// A loaded module with its child modules: immutable, shareable.
class Module {
 public:
  explicit Module(std::shared_ptr<const detail::ModuleData> data) : data_(std::move(data)) {}
  Language language() const;
  // The directory as diagnostics name it ("." for the root).
  const std::string& dir() const;
  // What the module declares, in name order.
  std::vector<std::string> variable_names() const;
  std::vector<std::string> local_names() const;
  std::vector<std::string> output_names() const;
  std::vector<std::string> module_call_names() const;
  // Resource addresses (`aws_vpc.this`, `data.aws_ami.x`) in source order.
  std::vector<std::string> resource_addresses() const;
  const detail::ModuleData& data() const { return *data_; }

 private:
  std::shared_ptr<const detail::ModuleData> data_;
};
using ModulePtr = std::shared_ptr<const Module>;

struct LoadResult {
  ModulePtr module;  // null when loading failed (errors stop Terraform)
  Diagnostics diagnostics;
  Sources sources;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Loads the directory [dir] as a root module (and its local children).
LoadResult load_module(const std::string& dir, const LoadOptions& options = {});
// Loads [files] as the files of one module (their directory is the
// module's, for path.module and the file functions).
LoadResult load_files(const std::vector<std::string>& files, const LoadOptions& options = {});

// A -var or -var-file command-line argument.
struct VarArg {
  enum Kind : uint8_t { Var, VarFile };
  Kind kind = Var;
  std::string text;  // NAME=VALUE, or the file's path
};

// What one evaluation is given.
struct Inputs {
  // -var and -var-file in command-line order (later wins).
  std::vector<VarArg> args;
  // The environment as NAME=VALUE entries; the TF_VAR_ (Packer: PKR_VAR_)
  // ones set variables. Empty: none (read environ() to pass the process's).
  std::vector<std::string> env;
  // Whether terraform.tfvars, terraform.tfvars.json and *.auto.tfvars(.json)
  // (Packer: *.auto.pkrvars.hcl/.json) are read from [vars_dir].
  bool auto_var_files = true;
  std::string vars_dir = ".";
  // Values set by the program, converted to each variable's type as a
  // -var value would be; applied after every other source.
  std::map<std::string, Value> values;
  // terraform.workspace.
  std::string workspace = "default";
  // Values of resource instances by address (`aws_vpc.this`,
  // `aws_subnet.a[0]`, `data.aws_ami.x`, `module.m.aws_vpc.this`); a
  // resource without any stays unknown.
  std::map<std::string, Value> resources;
  // Whether a required variable without a value is unknown (terraform
  // console) rather than the error "No value for required variable".
  bool unknown_required = true;
  // Evaluate resources, data sources and their count/for_each and
  // arguments (terraform console does not; their diagnostics then appear).
  bool evaluate_resources = true;
  // terraform validate: every root variable unknown of its type, files and
  // -var not read, resource count/for_each checked.
  bool validate = false;
  // path.cwd (absolute); empty: the process's working directory, read when
  // the evaluation first needs it (most never do).
  std::string cwd;
  // Whether the file functions may read outside the root module's
  // directory (Terraform: they may).
  bool confine_files = true;
};

// An instance of a resource, data source or module call, by address.
struct Instance {
  std::string address;  // `aws_subnet.a[0]`, `module.m["k"]`, `data.x.y`
  std::string kind;     // "resource", "data", "ephemeral", "module"
  Value value;          // the arguments (modules: the outputs), unknown where not known
};

// The result of evaluating a module with some inputs: values of the root
// module's variables, locals and outputs, every instance, the diagnostics,
// and a scope for evaluating more expressions (as terraform console does).
class Evaluation {
 public:
  Evaluation();
  ~Evaluation();
  Evaluation(Evaluation&&) noexcept;
  Evaluation& operator=(Evaluation&&) noexcept;

  const Diagnostics& diagnostics() const;
  // The variables files the evaluation read, for the snippets of its
  // diagnostics (with the module's LoadResult::sources).
  const Sources& sources() const;
  // Whether evaluation stopped before the walk (variable collection
  // errors, cycles, module argument errors): terraform console exits 1.
  bool stopped() const;
  bool has_errors() const { return hclvm::has_errors(diagnostics()); }
  // The module evaluated (null for an empty Evaluation).
  ModulePtr module() const;

  // What the walk did with its vertices (a variable, local, output, module
  // call, resource... of one module path): evaluated them, took them from
  // the evaluation given to reevaluate(), or skipped them for a failed
  // dependency. (Packer templates have no walk: all zero.)
  struct WalkStats {
    size_t evaluated = 0, reused = 0, skipped = 0;
  };
  WalkStats walk_stats() const;

  // The root module's values by name (unknown where evaluation failed).
  std::vector<std::pair<std::string, Value>> variables() const;
  std::vector<std::pair<std::string, Value>> locals() const;
  std::vector<std::pair<std::string, Value>> outputs() const;
  Value output(std::string_view name) const;
  // Every resource, data source and module instance, in address order.
  std::vector<Instance> instances() const;

  // Evaluates [expr] (one line of native syntax) in the root module's
  // scope as terraform console does: references checked first, the
  // console's function table (with type(), without plantimestamp()).
  // [vm] runs it (null: a Vm of this thread).
  EvalResult eval(std::string_view expr, Vm* vm = nullptr) const;
  // The result as one JSON document (`hclvm eval DIR`), see docs/config.md;
  // sensitive values in clear, or as "(sensitive value)" unless
  // [show_sensitive] (their "sensitive" entries say which either way).
  std::string to_json(bool show_sensitive = true) const;

 private:
  friend Evaluation evaluate(const ModulePtr& module, const Inputs& inputs, Vm* vm);
  friend Evaluation reevaluate(const Evaluation& previous, const Inputs& inputs, Vm* vm);
  friend Evaluation evaluate_with(const ModulePtr& module, const Inputs& inputs, Vm* vm,
                                  const Evaluation* previous);
  std::unique_ptr<detail::EvalState> state_;
};

// Evaluates [module] with [inputs]; [vm] runs the programs (null: a Vm of
// this thread). Safe to call from many threads at once on one module.
Evaluation evaluate(const ModulePtr& module, const Inputs& inputs = {}, Vm* vm = nullptr);

// Evaluates [previous]'s module again with [inputs], as evaluate() does
// and with the same result, but reusing [previous]'s work (docs/config.md,
// "Re-evaluation"): a local, output, module call, resource or child
// module variable takes what [previous]'s walk found for it when what it
// depends on came out identical, the workspace, path.cwd and resource
// values it read are unchanged, the files it read through the file
// functions still have the same metadata, and it called no function that
// is impure (timestamp, uuid, bcrypt) or reads what cannot be checked
// again (env, pathexpand, fileset); everything else is evaluated again,
// the root module's variables always. Reused work counts the steps it
// counted before (work that would go over the step limit is done again,
// so the limit is met where evaluate() meets it). Any Evaluation of the
// module can be given; nothing is reused from one that stopped, was made
// with other validate / evaluate_resources / confine_files settings or
// other limits on single values. [previous] is only read: many threads may
// reevaluate one [previous] at once.
Evaluation reevaluate(const Evaluation& previous, const Inputs& inputs, Vm* vm = nullptr);

// What `terraform validate` reports for [module] beyond loading errors:
// required_version constraints Terraform 1.11.4 does not meet, then what
// an evaluation with every root variable unknown (of its type) reports,
// resources' count and for_each included.
Diagnostics validate(const ModulePtr& module);

// --- rendering ------------------------------------------------------------------------

struct RenderOptions {
  unsigned width = 78;  // wrap details at this width (terraform: 78 without a terminal)
};

// [diags] as Terraform's human view prints them with -no-color: sorted
// (warnings first, then by file and position), each "\nError: ..." with
// its snippet from [sources].
std::string render_diagnostics(const Diagnostics& diags, const Sources& sources,
                               const RenderOptions& options = {});
// The document `terraform validate -json` prints for [diags] (in order).
std::string render_validate_json(const Diagnostics& diags, const Sources& sources);
// [v] as terraform console prints it (repl.FormatValue).
std::string console_value(const Value& v, int indent = 0);
// [t] as terraform console's type() prints it.
std::string console_type(const Type* t);
// [v] as packer console prints it (PrintableCtyValue): "<unknown>" when
// anything in it is unknown, a top-level string raw, nulls in maps and
// objects left out.
std::string packer_console_value(const Value& v);

// Sorts [diags] as Terraform sorts them for its human view.
void sort_diagnostics(Diagnostics& diags);

}  // namespace hclvm::config

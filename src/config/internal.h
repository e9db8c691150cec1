// What the files of src/config share: the decoded module (variables,
// locals, outputs, module calls, resources), each expression with the
// references it makes (found and checked when the module is loaded, as
// Terraform's reference parser and static validation do), and the graph
// of named values in the order a walk evaluates them.
#pragma once

#include <hclvm/body.h>
#include <hclvm/config.h>
#include <hclvm/function.h>
#include <hclvm/typeexpr.h>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "value/convert.h"

namespace hclvm::config::detail {

// --- references (addrs.Reference) ------------------------------------------------

enum class ResMode : uint8_t { Managed, Data, Ephemeral };

// One reference an expression makes, as Terraform's addrs.ParseRef reads a
// traversal: what it names, and the range of the part that names it.
struct Ref {
  enum Kind : uint8_t { Var, Local, Module, Resource, Path, Terraform, Count, Each, Self };
  Kind kind = Var;
  ResMode mode = ResMode::Managed;  // Resource
  std::string type;                 // Resource: the type
  std::string name;                 // the variable, local, call, resource or attribute name
  std::optional<std::string> output;  // Module: `module.m.out` / `module.m[k].out`
  bool keyed = false;               // Resource / Module: an instance key follows
  int32_t resource = -1;            // Resource: its index in the module's resources (analyze)
  int32_t local = -1;               // Local: its Local::index (analyze)
  int32_t variable = -1;            // Var: its Variable::index (analyze)
  Range range;
  Traversal remaining;  // the steps after the part that names the object
};

// What kind of block an expression belongs to, for the references it may
// make (count.index, each.*, self).
enum class ExprScope : uint8_t { Plain, Counted, ForEach };

// An object whose attribute names are fixed (sorted, distinct), made again
// and again with new values: the object type of the last one made is kept,
// so that making one whose attributes have the same types as the last
// looks up no type. Safe to use from several threads at once. The names
// are views: what they view must outlive the FixedObject.
class FixedObject {
 public:
  FixedObject() = default;
  explicit FixedObject(std::vector<std::string_view> names) : names_(std::move(names)) {}
  FixedObject(const FixedObject& o) : names_(o.names_) {}
  FixedObject& operator=(const FixedObject& o) {
    names_ = o.names_;
    last_.store(nullptr, std::memory_order_relaxed);
    return *this;
  }

  const std::vector<std::string_view>& names() const { return names_; }
  // The object of [values], the [i]th the value of attribute names()[i];
  // with [slots], values[i] is that of attribute names()[slots[i]].
  Value make(std::vector<Value> values, std::span<const uint32_t> slots = {}) const;

 private:
  std::vector<std::string_view> names_;
  mutable std::atomic<const Type*> last_{nullptr};
};

struct ContextPlan;  // eval.cpp

// The plan of an expression's context (what build_context makes, grouped
// by root), made on first use and kept; a copy starts without one.
class PlanSlot {
 public:
  PlanSlot() = default;
  PlanSlot(const PlanSlot&) {}
  PlanSlot& operator=(const PlanSlot&) {
    reset();
    return *this;
  }
  ~PlanSlot() { reset(); }
  // The plan for [refs] (made now when there is none yet).
  const ContextPlan& get(const std::vector<Ref>& refs) const;

 private:
  void reset();
  mutable std::atomic<const ContextPlan*> plan_{nullptr};
};

// An expression of the module with its references, and what checking them
// statically reported (an error means the expression is not evaluated: its
// value is unknown, as Terraform returns early from building its context).
struct ExprInfo {
  Expression expr;
  std::vector<Ref> refs;
  Diagnostics diags;
  PlanSlot plan;  // made from [refs] at the first evaluation: [refs] no longer change then
  // Static validation (StaticValidateReferences: resources, module calls)
  // failed: Terraform's context for it then holds no variable at all.
  bool static_errors = false;
  bool has_errors() const { return hclvm::has_errors(diags); }
};
using ExprPtr = std::shared_ptr<const ExprInfo>;

// --- the module ----------------------------------------------------------------

struct CheckRule {
  ExprPtr condition, error_message;
  Range decl_range;  // the block's type keyword
};

// A check block: its assertions (a data source in it is among the
// module's resources).
struct CheckBlock {
  std::string name;
  Range decl_range;
  std::vector<CheckRule> asserts;
};

struct Variable {
  std::string name;
  Range decl_range;  // `variable "x"`
  std::string description;
  const Type* constraint = nullptr;  // with optional attributes; dynamic without `type`
  const Type* type = nullptr;        // the constraint without optional markers
  std::shared_ptr<const TypeDefaults> defaults;
  bool parse_hcl = false;  // -var / TF_VAR_ strings read as HCL (complex types)
  std::optional<Value> default_value;  // converted; absent: required
  Range default_range;
  bool nullable = true, sensitive = false, ephemeral = false;
  std::vector<CheckRule> validations;
  // Override bookkeeping (Terraform keeps the base's type defaults).
  bool type_set = false;
  size_t index = 0;  // its place in the module's variables (name order), set by analysis
};

struct Local {
  std::string name;
  Range decl_range;  // the whole attribute
  ExprPtr expr;
  size_t index = 0;  // its place in the module's locals (name order), set by analysis
};

struct Output {
  std::string name;
  size_t index = 0;  // its place in the module's outputs (name order), set by analysis
  Range decl_range;
  std::string description;
  ExprPtr value;
  bool sensitive = false, ephemeral = false;
  std::vector<CheckRule> preconditions;
  std::vector<ExprPtr> depends_on;  // for the graph
  Diagnostics depends_on_diags;     // what validateDependsOn reports of it (analyze)
};

struct ModuleData;

// A provider configuration a module call passes (its `providers` map):
// the child's name for it ("aws" or "aws.west") and the parent's.
struct PassedProvider {
  std::string child;
  Range child_range;  // the child's local name
  std::string parent_name, parent_alias;
  Range parent_range;  // the parent's local name
};

struct ModuleCall {
  std::string name;
  Range decl_range;      // `module "m"`
  Range body_open;       // the `{` (missing required arguments point here)
  std::string source;
  Range source_range;
  bool has_version = false;
  ExprPtr count, for_each;
  Body config;  // the input arguments (what the meta-arguments leave)
  std::vector<ExprPtr> depends_on;
  Diagnostics depends_on_diags;  // what validateDependsOn reports of it (analyze)
  std::vector<PassedProvider> passed_providers;
  // The arguments by variable name, decoded against the child's variables.
  std::map<std::string, ExprPtr, std::less<>> args;
  std::shared_ptr<const ModuleData> child;  // null when not loaded
};

// A provisioner block of a managed resource: its type, arguments and own
// connection block.
struct Provisioner {
  std::string type;
  Body config;
  std::optional<Body> connection;
};

struct Resource {
  ResMode mode = ResMode::Managed;
  std::string type, name;
  Range decl_range;  // `resource "t" "n"`
  ExprPtr count, for_each;
  Body config;  // the type-specific arguments and blocks
  std::shared_ptr<const struct BodyShape> shape;  // what the body holds (resource_body.cpp)
  std::shared_ptr<const struct BodyShape> variables_shape;  // the shape its variables are found with
  std::shared_ptr<const struct StaticBody> static_body;  // read once, without dynamic blocks
  ExprPtr body_info;  // the references of the whole body (no expression)
  std::vector<ExprPtr> depends_on;
  Diagnostics depends_on_diags;  // what validateDependsOn reports of it (analyze)
  std::string check;  // the check block holding a data source, or ""
  bool has_provider = false;  // a `provider` argument names its configuration
  std::string provider_name, provider_alias;  // the configuration it names
  // Expressions the resource's graph vertex also depends on (Terraform's
  // NodeAbstractResource.References): its conditions, replace_triggered_by,
  // its connection block and its create-time provisioners' arguments.
  std::vector<ExprPtr> edges;
  // Its lifecycle's conditions, which validate evaluates
  // (NodeValidatableResource.validateCheckRules).
  std::vector<CheckRule> preconditions, postconditions;
  // Its provisioners and connection block, which validate reads with their
  // schemas (validateProvisioner).
  std::vector<Provisioner> provisioners;
  std::optional<Body> connection;
  // The address as Terraform writes it: `t.n`, `data.t.n`, `ephemeral.t.n`.
  std::string address() const;
};

// A provider's address (tfaddr.Provider): hostname (with a port other than
// 443), namespace and type, each normalized.
struct ProviderAddr {
  std::string hostname, ns, type;
  // The built-in provider whose functions every module can call once it
  // requires it: terraform.io/builtin/terraform.
  bool builtin_terraform() const {
    return hostname == "terraform.io" && ns == "builtin" && type == "terraform";
  }
};
// An import block of the root module, as validate checks it
// (ConfigTransformer.validateImportTargets,
// NodeValidatableResource.validateImportTargets).
struct ImportBlock {
  Range to_range;
  ExprPtr id;
  bool for_each = false;
  // The resource `to` names (addrs.ConfigResource): its module path, type
  // and name; [to_parsed] when `to` was read.
  bool to_parsed = false;
  std::vector<std::string> modules;
  std::string type, name;
  std::string config;  // as Terraform writes it: `module.m.t.n`
  // Without for_each: `to` read as a static address, with its instance
  // key's kind (0: none, 1: a number, 2: a string).
  bool to_static = false;
  int key_kind = 0;
  // With for_each: the expression, and `to` as `ADDRESS[KEY]` read as the
  // address and the key's expression (evaluated for each element).
  ExprPtr for_each_expr;
  std::optional<Traversal> to_base;
  Expression to_key;
};

// What `terraform validate` checks of a test file against the
// configuration under test (TestFile.Validate, TestRun.Validate).
// An override's target (addrs.Targetable): a module path (call names,
// instance keys dropped) and a resource in it, or that module itself.
struct TestTarget {
  std::vector<std::string> modules;
  bool resource = false;
  ResMode mode = ResMode::Managed;
  std::string type, name;
  std::string text;  // as Terraform writes the address
  Range range;       // the `target` attribute
};
struct TestRun {
  bool other_module = false;  // it tests a module of its own (a `module` block)
  std::vector<TestTarget> overrides;
  std::vector<ExprPtr> expect_failures;
};
struct TestFile {
  std::vector<TestTarget> mock_overrides;  // in its mock_provider blocks
  std::vector<TestTarget> overrides;       // at its top level
  std::vector<TestRun> runs;               // those decoded without errors
};

// A provider a module requires (required_providers): its address and the
// range of its entry's value.
struct RequiredProvider {
  ProviderAddr addr;
  Range range;
  std::vector<std::string> aliases;  // configuration_aliases: "name.alias"
};

// A module directory, decoded. Immutable once loaded.
struct ModuleData {
  Language language = Language::Terraform;
  std::string dir;      // as diagnostics and path.module name it
  std::string fs_dir;   // where it is on disk
  std::vector<std::string> path;  // call names from the root ("" for the root)
  std::map<std::string, Variable, std::less<>> variables;
  std::map<std::string, Local, std::less<>> locals;
  std::map<std::string, Output, std::less<>> outputs;
  std::map<std::string, ModuleCall, std::less<>> calls;
  std::vector<Resource> resources;                       // source order
  std::map<std::string, CheckBlock, std::less<>> checks;
  std::map<std::string, size_t, std::less<>> resource_index;  // address -> index
  // required_version constraints (each with its attribute's range).
  std::vector<std::pair<std::string, Range>> core_versions;
  // The providers it requires by local name (override files' entries
  // merged), and the local names of its provider blocks.
  std::map<std::string, RequiredProvider, std::less<>> required_providers;
  std::vector<std::string> provider_configs;
  // Its provider blocks that configure nothing (no arguments, blocks or
  // version: proxy configurations), by name ("aws" or "aws.west").
  std::vector<std::pair<std::string, Range>> empty_provider_configs;
  bool configures_providers = false;  // a provider block that is not empty
  std::vector<std::string> configured_providers;  // those blocks, by name
  // The local names under which the module requires the built-in
  // provider terraform.io/builtin/terraform, whose functions it can call as
  // provider::NAME::encode_tfvars and so on (sorted).
  std::vector<std::string> builtin_providers;
  // Root only, when its test files were read: what to check of them once
  // the configuration is validated.
  std::vector<TestFile> tests;
  // Its import blocks (root only).
  std::vector<ImportBlock> imports;
  // Packer: the sources declared, and the locals (packer.cpp).
  std::vector<std::string> packer_sources;
  std::shared_ptr<const struct PackerData> packer;

  const Resource* resource(ResMode mode, std::string_view type, std::string_view name) const;

  // Root only: every file the tree was loaded from, for snippets.
  Sources sources;
  // Root only: the graph of the whole tree, and what building it found.
  struct Plan;
  std::shared_ptr<const Plan> plan;
  // Root only: diagnostics to report when an evaluation starts (module
  // argument errors, cycles), after variable collection, as Terraform does.
  Diagnostics graph_diags;
};

// A vertex of the graph of named values: one configuration object in one
// module path, evaluated for each instance of that module.
struct Vertex {
  // Import: an import block whose target no resource block declares (the
  // resource Terraform would generate configuration for).
  enum Kind : uint8_t { Var, Validation, Local, Output, Call, Resource, Check, Import };
  Kind kind = Var;
  const ModuleData* module = nullptr;  // the module it belongs to
  std::string name;     // variable, local, output, call or check name; resource address
  // Resource: index in module->resources; Local, Output: its
  // Local::index, Output::index; Var and Validation: its Variable::index;
  // Import: index in the root's imports.
  size_t index = 0;
};

struct ModuleData::Plan {
  std::vector<Vertex> order;  // dependency order (cycles left out)
  std::vector<std::vector<size_t>> deps;  // for each vertex of order, what it depends on (indices)
};

// --- loading helpers shared by load.cpp, decode.cpp and packer.cpp ----------------

// Reads the references of [e] in module [m] (whose declarations are all
// known), as an expression of a block of [scope]; [self_local] names the
// local being defined (its self-references are errors).
ExprPtr analyze(const Expression& e, const ModuleData& m, ExprScope scope,
                std::string_view self_local = {}, bool self = false);

// The shape of a resource body [body] as its configuration shows it, and
// the variables reading it with that shape needs (resource_body.cpp).
std::shared_ptr<const BodyShape> infer_shape(const Body& body);
std::vector<Traversal> body_variables(const Body& body, const BodyShape& shape);
// Sets the shape of [r]'s body and, without dynamic blocks, reads it once.
void prepare_resource_body(Resource& r);
// The base and override bodies of an override merge (override_body.cpp).
std::optional<std::pair<Body, Body>> override_parts(const Body& b);

// Why a file could not be read: the operation that failed and its errno,
// or [waits] for a named pipe or socket (not read: it would wait for a
// writer).
struct ReadFailure {
  const char* op = "open";
  int error = 0;
  bool waits = false;
};
// Reads the file at [path] into [out]; false when it cannot be read, with
// [why] (when given) set.
bool read_config_file(const std::string& path, std::string& out, ReadFailure* why = nullptr);
// [why] in Go's words about the file shown as [shown] ("open x.tfvars:
// permission denied"), as Terraform's "Error while reading" quotes it.
std::string read_failure_text(const std::string& shown, const ReadFailure& why);

// addrs.ParseRef of [t] (nullopt when it names nothing; the errors in
// [diags]).
std::optional<Ref> parse_ref(const Traversal& t, Diagnostics& diags);
// path.Clean of a slash-separated path [p] ("." for an empty one).
std::string clean_path(const std::string& p);

// The module [path] (call names) names in the tree under [root]: null when
// a call is not declared; the module holding a call whose module was not
// loaded (not local: it may hold anything), with [unknown] set.
const ModuleData* module_at(const ModuleData& root, const std::vector<std::string>& path,
                            bool& unknown);

// The error validate reports before its walk when an import block's
// target module is not in the tree of [root]; false then.
bool check_import_modules(const ModuleData& root, Diagnostics& diags);

// The checks `terraform validate` makes of the test files of [root]
// against it: override targets that do not exist (warnings) and
// expect_failures references to what cannot fail (errors).
void validate_tests(const ModuleData& root, Diagnostics& diags);
// Reads the references of the traversals [vars] (addrs.ParseRef).
std::vector<Ref> parse_refs(const std::vector<Traversal>& vars, Diagnostics& diags);
// Sets the index of each resource, local and variable [refs] name that [m]
// declares (Ref::resource, Ref::local, Ref::variable).
void resolve_refs(std::vector<Ref>& refs, const ModuleData& m);
// What Terraform's validateDependsOn reports of a depends_on list [deps]
// in module [m]: each a reference to a whole object (no attribute after
// it), looked up as outside any count or for_each; the first error ends
// the list. It depends on the configuration alone: computed once, when
// the module is analyzed.
Diagnostics check_depends_on(const std::vector<ExprPtr>& deps, const ModuleData& m);
// Checks [refs] made in module [m] from a block of [scope] as Terraform does
// before evaluating an expression; false when their static validation
// failed (and the lookups were not checked).
// [self]: `self` may be referred to (a postcondition's).
bool check_refs(const std::vector<Ref>& refs, const ModuleData& m, ExprScope scope,
                std::string_view self_local, Diagnostics& diags, bool self = false);

// The edit-distance suggestion Terraform's didyoumean.NameSuggestion makes:
// the first of [candidates] within distance 2 of [given], or "".
std::string name_suggestion(std::string_view given, const std::vector<std::string>& candidates);

// Terraform's badIdentifierDetail.
extern const char kBadIdentifierDetail[];

// Builds the plan of the tree under [root]: its vertices in dependency
// order; cycles and argument errors go to [diags].
std::shared_ptr<const ModuleData::Plan> build_plan(const ModuleData& root, Diagnostics& diags);

// The functions of a module's scope: Terraform 1.11.4's table with its
// file functions under [base_dir] ([confine]: not outside it), for the
// console when [console] (type() added, plantimestamp() removed), and the
// functions of the built-in provider under each of the local names
// [builtin] (a module's builtin_providers).
std::shared_ptr<const FunctionTable> terraform_functions(
    const std::string& base_dir, bool confine, bool console,
    const std::vector<std::string>& builtin = {});
// Packer's table (hcl2template/functions.go), files under [base_dir].
std::shared_ptr<const FunctionTable> packer_functions(const std::string& base_dir, bool confine);

// The mark Terraform's console type() puts on its result.
// Appends an error with [summary], [detail], and the [subject] and
// [context] ranges when given, to [diags].
inline void error(Diagnostics& diags, std::string summary, std::string detail,
                  std::optional<Range> subject = std::nullopt,
                  std::optional<Range> context = std::nullopt) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  d.context = std::move(context);
  diags.push_back(std::move(d));
}

inline constexpr std::string_view kTypeTypeMark = "typetype";
inline constexpr std::string_view kSensitive = "sensitive";
inline constexpr std::string_view kEphemeral = "ephemeral";

// Loads a Packer template directory (packer.cpp).
LoadResult load_packer(const std::vector<std::string>& files, const std::string& dir,
                       const LoadOptions& options);
// Evaluates a Packer template (packer.cpp).
void evaluate_packer(const Module& module, const Inputs& inputs, Vm& vm, EvalState& st);
// Evaluates [text] as `packer console` does, in the template's scope.
EvalResult packer_console_eval(const EvalState& st, std::string_view text, Vm& vm);
// The names of the locals of the Packer template [m], in name order.
std::vector<std::string> packer_local_names(const ModuleData& m);

// A cty path as Terraform's FormatCtyPath writes it: `.a[1]["k"]`.
std::string path_string(const Path& path);

// Computes Terraform's statements about the values of the variables of
// the expression at [d]'s expression range ("var.x is 3"), read from
// [ctx], into d.expression_values; adds the "while calling f(a, b)" line
// for a diagnostic about a function call of [fns].
void describe_values(Diagnostic& d, const Sources& sources, const EvalContext& ctx,
                     const FunctionTable* fns, bool caused_by_unknown = false,
                     bool caused_by_sensitive = false);

// A function's signature as Terraform describes it in the snippet of a
// diagnostic about a call (views/json.DescribeFunction): types as cty's
// Type.MarshalJSON writes them (compact JSON), the return type the one
// the function gives for arguments of exactly its parameters' types
// ("dynamic" when it refuses them). A parameter taking an expression
// (templatestring's template: a cty capsule in Terraform) is "dynamic",
// and so is the return type of such a function.
struct FunctionSignature {
  struct Param {
    std::string name;
    std::string type;
  };
  std::string name;
  std::vector<Param> params;
  std::optional<Param> variadic;
  std::string return_type;
};
FunctionSignature describe_function(std::string_view name, const Function& f);

}  // namespace hclvm::config::detail

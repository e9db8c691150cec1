// The state of one evaluation of a module tree, shared by eval.cpp (the
// walk), vars.cpp (input variable values) and packer.cpp: the module
// instances with the values found so far, the raw values of the root
// module's variables, the diagnostics, and what runs the programs.
#pragma once

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/internal.h"
#include "util/read_log.h"

namespace hclvm::config::detail {

// An instance key: none, an index (count) or a string (for_each).
struct InstKey {
  enum Kind : uint8_t { None, Int, Str } kind = None;
  int64_t i = 0;
  std::string s;
  // "", "[0]" or "[\"a\"]".
  std::string str() const;
};

// count.index or each.key / each.value of the instance an expression is
// evaluated for.
struct Rep {
  const Value* count_index = nullptr;
  const Value* each_key = nullptr;
  const Value* each_value = nullptr;
};

struct ModInst;
struct EvalState;
struct ExprInfo;

// Which of an expression's references build_context sets: all of them,
// those that are the same for every instance of a repeated block (all but
// count.* and each.*), or only count.* and each.*.
enum class RefPart : uint8_t { All, Shared, Instance };

// Sets in [ctx] the values the references of [e] need (those of [part]),
// for instance [mi] with repetition data [rep]. [own] names a variable to
// read raw (a validation's own variable).
void build_context(const EvalState& st, const ExprInfo& e, const ModInst& mi, const Rep& rep,
                   EvalContext& ctx, const std::string* own = nullptr, RefPart part = RefPart::All);

// Evaluates the body of resource instance [r] for [mi] and [rep]
// (resource_body.cpp). [shared]: a context holding the body's references
// that do not depend on the instance (RefPart::Shared), made once for all
// instances; null to build the whole context.
Value eval_resource_body(EvalState& st, const Resource& r, const ModInst& mi, const Rep& rep,
                         Diagnostics& out, const EvalContext* shared = nullptr);

// The instances a module call (or resource) expanded to.
struct Expansion {
  enum Mode : uint8_t { Single, Count, ForEach, Unknown } mode = Single;
  std::vector<InstKey> keys;
  std::vector<Value> each_values;  // ForEach: the value of each key
  std::vector<ModInst*> insts;      // module calls: the child instances
};

// Sets call [c] of [mi] to expansion [x], with a child instance for each
// of its keys (one with unknown keys when [x] is unknown).
void add_call_instances(EvalState& st, ModInst& mi, const ModuleCall& c, Expansion x);

// One instance of a module: where it is, and the values found for it.
struct ModInst {
  const ModuleData* mod = nullptr;
  ModInst* parent = nullptr;
  std::string addr;  // "" for the root, "module.a[0].module.b"
  std::string call;  // its call's name in the parent
  InstKey key;
  Value count_index, each_key, each_value;  // of its call instance
  bool has_count = false, has_each = false;
  // By Output::index: each output's value once evaluated.
  std::vector<std::optional<Value>> outputs;
  const Value* output(size_t index) const { return find(outputs, index); }
  void set_output(size_t index, Value v) {
    slot(outputs, index, mod->outputs.size()) = std::move(v);
  }
  // By Variable::index: each variable's value once evaluated, and where it
  // came from.
  std::vector<std::optional<Value>> vars;
  std::vector<std::optional<Range>> var_ranges;
  const Value* var(size_t index) const { return find(vars, index); }
  const Range* var_range(size_t index) const { return find(var_ranges, index); }
  void set_var(size_t index, Value v) { slot(vars, index, mod->variables.size()) = std::move(v); }
  void set_var_range(size_t index, Range r) {
    slot(var_ranges, index, mod->variables.size()) = std::move(r);
  }
  // By Local::index: each local's value once evaluated.
  std::vector<std::optional<Value>> locals;
  const Value* local(size_t index) const { return find(locals, index); }
  void set_local(size_t index, Value v) { slot(locals, index, mod->locals.size()) = std::move(v); }
  std::map<std::string, Expansion, std::less<>> calls;
  // By index in mod->resources: each resource's expansion once evaluated.
  std::vector<std::optional<Expansion>> resources;
  const Expansion* resource(size_t index) const { return find(resources, index); }
  void set_resource(size_t index, Expansion x) {
    slot(resources, index, mod->resources.size()) = std::move(x);
  }
  // Entry [index] of [table], or null when it has none.
  template <class T>
  static const T* find(const std::vector<std::optional<T>>& table, size_t index) {
    return index < table.size() && table[index] ? &*table[index] : nullptr;
  }
  // Entry [index] of [table] (sized for [n] entries when first set).
  template <class T>
  static std::optional<T>& slot(std::vector<std::optional<T>>& table, size_t index, size_t n) {
    if (table.size() <= index) table.resize(std::max(n, index + 1));
    return table[index];
  }
  Rep rep() const {
    Rep r;
    if (has_count) r.count_index = &count_index;
    if (has_each) r.each_key = &each_key, r.each_value = &each_value;
    return r;
  }
};

// A root variable's value as collected from its sources (InputValue).
struct RawValue {
  enum Source : uint8_t { Env, File, Cli, Api, Unset } source = Unset;
  Value value;
  bool unparsed = false;  // Env and Cli: [text] still to be read in the variable's mode
  std::string text;
  std::string file;       // File: the file's name
  Expression expr;        // File: the value's expression, evaluated when parsed
  bool has_range = false;
  Range range;
};

// What evaluating one vertex of the walk did: enough for a later walk with
// the same values of its dependencies to make the same changes without
// evaluating it (reuse.cpp).
struct VertexRun {
  // What the vertex read that is not the value of another vertex.
  enum Reads : uint8_t { Workspace = 1, Cwd = 2, Resources = 4 };
  bool done = false;          // evaluated or reused (not skipped for failed dependencies)
  bool reused = false;        // taken from the previous evaluation
  bool failed = false;        // it reported errors, or was skipped
  bool unrepeatable = false;  // it called what cannot be checked again (util/read_log.h)
  uint8_t reads = 0;
  // What its calls read: the files, and where confined reads led (shared
  // by the runs that replay it; null: nothing).
  struct Read {
    std::vector<util::FileStamp> files;
    std::vector<util::Place> places;
  };
  std::shared_ptr<const Read> read;
  uint64_t steps = 0;                  // counted against the evaluation's budget
  // Its diagnostics and instances: ranges of EvalState::diags and ::instances.
  size_t diags_begin = 0, diags_end = 0, instances_begin = 0, instances_end = 0;
};

struct EvalState {
  ModulePtr module;
  const ModuleData* root = nullptr;
  Inputs inputs;
  Diagnostics diags;
  bool stopped = false;
  std::deque<ModInst> insts;
  std::map<const ModuleData*, std::vector<ModInst*>> by_module;
  std::shared_ptr<const FunctionTable> fns;
  // The tables of modules that require the built-in provider (fns_for).
  mutable std::map<std::vector<std::string>, std::shared_ptr<const FunctionTable>> provider_fns;
  EvalContext fn_ctx;
  // Terraform's console table and its context, made on the first
  // Evaluation::eval (console_context): most evaluations never need them,
  // and making the table costs more than evaluating a small module.
  mutable std::once_flag console_once;
  mutable std::shared_ptr<const FunctionTable> console_fns;
  mutable EvalContext console_ctx;
  std::map<std::string, RawValue, std::less<>> raw_vars;
  Sources var_sources;  // the variables files read, for snippets
  std::vector<Instance> instances;
  // path.cwd: Inputs::cwd, or the process's working directory read when
  // first needed (most evaluations never read it).
  const std::string& cwd() const;
  mutable std::once_flag cwd_once;
  mutable std::string cwd_value;
  Vm* vm = nullptr;
  Limits limits;  // [vm]'s
  // Where the run that exceeded one of the evaluation's limits was (the
  // innermost expression), for the diagnostic that ends the evaluation.
  std::optional<Range> limit_range;
  // Packer: the evaluated named values (var, local) of the template.
  Value packer_vars, packer_locals;

  // What each vertex of the walk did (by its index in the plan's order),
  // for a later evaluation to reuse (reevaluate, reuse.cpp).
  std::vector<VertexRun> runs;
  // The evaluation being reused (null: none); only during the walk.
  const EvalState* previous = nullptr;
  // The stamps the walk has taken of files earlier walks read (a file many
  // vertices read is looked at once).
  mutable std::unordered_map<std::string, util::FileStamp> stamps_now;
  // Where the directories of earlier walks' places lead now (each found once).
  mutable std::unordered_map<std::string, std::string> places_now;
  // What the vertex being evaluated read besides its dependencies'
  // values (VertexRun::Reads), set by the lookups that read it.
  mutable uint8_t reads = 0;
};

// Reuse (reuse.cpp). Whether [prev] (an evaluation of the same module)
// can be reused by [st] at all: the same kind of evaluation, held to the
// same limits on single values, and not stopped.
bool reusable(const EvalState& st, const EvalState& prev);
// Whether vertex [i] of the walk can take [prev]'s result, given which
// vertices have [changed] so far: none of its dependencies changed, it
// read nothing that changed and called nothing volatile, and its module's
// instances are the same.
bool can_reuse(const EvalState& st, const EvalState& prev, size_t i,
               const std::vector<bool>& changed);
// Makes vertex [i]'s changes as [prev]'s walk made them (can_reuse).
void replay(EvalState& st, const EvalState& prev, size_t i);
// Whether vertex [i], just evaluated, came out as it did in [prev]'s walk
// (its values, expansions and instances identical, and failing alike):
// when it did, what depends on it can still be reused.
bool same_result(const EvalState& st, const EvalState& prev, size_t i);

// The function table of module [m]'s scope in [st]: fns, with the
// functions of the built-in provider when [m] requires it.
const std::shared_ptr<const FunctionTable>& fns_for(const EvalState& st, const ModuleData& m);

// Terraform's console scope of [st] (its table made on first use).
const EvalContext& console_context(const EvalState& st);

// Collects the root variables' raw values from [st].inputs (environment,
// var files, -var) and parses them (collectVariableValues and
// ParseVariableValues); errors stop the evaluation.
void collect_root_variables(EvalState& st);

// prepareFinalInputVariableValue: the value of [v] (of instance [addr],
// "var.x" / "module.m.var.x") from [raw]; nullopt when it is not valid.
std::optional<Value> prepare_final(const Variable& v, const std::string& addr, const RawValue& raw,
                                   Diagnostics& diags);

}  // namespace hclvm::config::detail

// Evaluating a module tree (Terraform's eval walk): the root variables'
// values are collected first (errors there stop everything, as do the
// graph's cycles and module argument errors), then the vertices of the
// plan run in dependency order, each for every instance of its module:
// variables get their final values (a child's from its call's argument,
// evaluated in the caller), validations are checked, locals and outputs
// evaluated, module calls expanded by count/for_each into instances, and
// resources (on request) expanded and their arguments evaluated. A vertex
// that reports errors leaves its dependents unevaluated, as Terraform's
// walk does; their values read as unknown (where Terraform's console
// crashes, see docs/config.md).
//
// Each expression runs its compiled program in a context holding what it
// refers to (lang.Scope.evalContext): var, local, module, path, terraform,
// count, each, resource, data and ephemeral objects with only the
// referenced members, and each referenced managed resource type at the
// top level.
#include "config/eval.h"

#include <hclvm/config.h>
#include <hclvm/hcldec.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <tuple>

#include "config/decode.h"
#include "util/budget.h"
#include "util/read_log.h"
#include "util/unicode.h"
#include "value/json.h"

namespace hclvm::config {

namespace detail {

std::string InstKey::str() const {
  switch (kind) {
    case None: return "";
    case Int: return "[" + std::to_string(i) + "]";
    case Str: return "[" + uni::go_quote(s) + "]";
  }
  return "";
}

namespace {

// The Vm of this thread, for evaluations given none.
Vm& thread_vm() {
  thread_local Vm vm;
  return vm;
}

// The value of `module.[call]` in instance [mi].
Value module_value(const ModInst& mi, const std::string& call) {
  auto it = mi.calls.find(call);
  if (it == mi.calls.end()) return Value::dynamic();
  const Expansion& x = it->second;
  const ModuleCall& c = mi.mod->calls.at(call);
  auto outputs_of = [&](const ModInst* child) {
    std::vector<std::pair<std::string, Value>> attrs;
    if (!c.child) return Value::dynamic();
    for (const auto& [name, o] : c.child->outputs) {
      const Value* v = child->output(o.index);
      attrs.emplace_back(name, v ? *v : Value::dynamic());
    }
    return Value::object(std::move(attrs));
  };
  if (!c.child) return Value::dynamic();
  switch (x.mode) {
    case Expansion::Unknown: return Value::dynamic();
    case Expansion::Single:
      return x.insts.empty() ? Value::dynamic() : outputs_of(x.insts[0]);
    case Expansion::Count: {
      std::vector<Value> elems;
      for (const ModInst* ci : x.insts) elems.push_back(outputs_of(ci));
      return Value::tuple(std::move(elems));
    }
    case Expansion::ForEach: {
      std::vector<std::pair<std::string, Value>> attrs;
      for (const ModInst* ci : x.insts) attrs.emplace_back(ci->key.s, outputs_of(ci));
      return Value::object(std::move(attrs));
    }
  }
  return Value::dynamic();
}

// The value of resource [addr] (with module prefix [prefix]) from the
// values the caller supplied; unknown without any.
Value resource_value(const EvalState& st, const ModInst& mi, const Resource& r) {
  st.reads |= VertexRun::Resources;
  if (st.inputs.resources.empty()) return Value::dynamic();  // no values given: all unknown
  std::string addr = (mi.addr.empty() ? "" : mi.addr + ".") + r.address();
  const auto& values = st.inputs.resources;
  if (!r.count && !r.for_each) {
    auto it = values.find(addr);
    return it == values.end() ? Value::dynamic() : it->second;
  }
  // Instances: `addr[0]`, `addr["k"]`.
  std::map<int64_t, Value> by_index;
  std::vector<std::pair<std::string, Value>> by_key;
  for (auto it = values.lower_bound(addr + "["); it != values.end(); ++it) {
    if (!it->first.starts_with(addr + "[")) break;
    std::string key = it->first.substr(addr.size());
    if (key.size() < 3 || key.back() != ']') continue;
    std::string inner = key.substr(1, key.size() - 2);
    if (r.count) {
      char* end = nullptr;
      long long i = std::strtoll(inner.c_str(), &end, 10);
      if (end && *end == '\0' && i >= 0) by_index[i] = it->second;
    } else if (inner.size() >= 2 && inner.front() == '"' && inner.back() == '"') {
      by_key.emplace_back(uni::unquote(inner), it->second);
    }
  }
  if (by_index.empty() && by_key.empty()) return Value::dynamic();
  const Expansion* ex = mi.resource(size_t(&r - mi.mod->resources.data()));
  if (r.count) {
    int64_t n = by_index.empty() ? 0 : by_index.rbegin()->first + 1;
    if (ex != nullptr && ex->mode == Expansion::Count) n = int64_t(ex->keys.size());
    std::vector<Value> elems;
    for (int64_t i = 0; i < n; ++i) {
      auto f = by_index.find(i);
      elems.push_back(f == by_index.end() ? Value::dynamic() : f->second);
    }
    return Value::tuple(std::move(elems));
  }
  if (ex != nullptr && ex->mode == Expansion::ForEach) {
    std::vector<std::pair<std::string, Value>> attrs;
    for (const InstKey& k : ex->keys) {
      Value v = Value::dynamic();
      for (const auto& [kk, vv] : by_key)
        if (kk == k.s) v = vv;
      attrs.emplace_back(k.s, v);
    }
    return Value::object(std::move(attrs));
  }
  return Value::object(std::move(by_key));
}

// The value variable [name] of [mi] reads as (marked as declared).
Value variable_value(const ModInst& mi, const std::string& name) {
  const Variable& v = mi.mod->variables.at(name);
  const Value* set = mi.var(v.index);
  Value val = set ? *set : Value::unknown(v.type);
  if (v.sensitive) val = val.mark(kSensitive);
  if (v.ephemeral) val = val.mark(kEphemeral);
  return val;
}

constexpr std::array<const char*, Ref::Self> kRoots = {"var",  "local",     "module", nullptr,
                                                       "path", "terraform", "count",  "each"};

const char* mode_root(ResMode m) {
  return m == ResMode::Managed ? "resource" : m == ResMode::Data ? "data" : "ephemeral";
}

}  // namespace

Value FixedObject::make(std::vector<Value> values, std::span<const uint32_t> slots) const {
  auto slot = [&](size_t i) { return slots.empty() ? i : size_t(slots[i]); };
  const Type* t = last_.load(std::memory_order_acquire);
  if (t != nullptr) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (t->attr_type(slot(i)) != values[i].type()) {
        t = nullptr;
        break;
      }
    }
  }
  if (t == nullptr) {
    std::vector<TypeAttr> attrs(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      attrs[slot(i)] = {names_[slot(i)], values[i].type(), false};
    t = Type::object(attrs);
    last_.store(t, std::memory_order_release);
  }
  if (slots.empty()) return Value::object(t, std::move(values));
  return Value::object_from(t, values, slots);
}

// What build_context sets for an expression, found from its references
// once: per root (var, local, ...) the names it reads, sorted and each
// once, and the resources by mode and type; each with the object it makes.
struct ContextPlan {
  struct Root {
    Ref::Kind kind;
    std::vector<const Ref*> refs;  // one per name, in the object's order
    FixedObject object;
  };
  struct ResourceType {
    std::string_view type;         // of the references'
    std::vector<const Ref*> refs;  // one per resource name, in order
    FixedObject object;
  };
  struct ResourceMode {
    std::string_view root;  // "data", "ephemeral", "resource"
    std::vector<ResourceType> types;
    FixedObject object;
  };
  std::vector<Root> roots;
  std::vector<ResourceMode> modes;
  size_t names = 0;  // how many names a context gets (all parts)
};

const ContextPlan& PlanSlot::get(const std::vector<Ref>& refs) const {
  if (const ContextPlan* p = plan_.load(std::memory_order_acquire)) return *p;
  auto plan = std::make_unique<ContextPlan>();
  // The references sorted by root (resources: by mode, type), then name;
  // each name once.
  struct Key {
    Ref::Kind kind;
    std::string_view mode, type, name;
    const Ref* ref;
    auto tie() const { return std::tie(kind, mode, type, name); }
  };
  std::vector<Key> keys;
  keys.reserve(refs.size());
  for (const Ref& r : refs) {
    if (r.kind == Ref::Self) continue;
    if (r.kind == Ref::Resource)
      keys.push_back({r.kind, mode_root(r.mode), r.type, r.name, &r});
    else
      keys.push_back({r.kind, {}, {}, r.name, &r});
  }
  // Stable: of repeated names, the first reference is the one kept.
  std::stable_sort(keys.begin(), keys.end(),
                   [](const Key& a, const Key& b) { return a.tie() < b.tie(); });
  keys.erase(std::unique(keys.begin(), keys.end(),
                         [](const Key& a, const Key& b) { return a.tie() == b.tie(); }),
             keys.end());
  for (size_t i = 0; i < keys.size();) {
    size_t j = i;
    if (keys[i].kind != Ref::Resource) {
      ContextPlan::Root root{keys[i].kind, {}, {}};
      std::vector<std::string_view> names;
      for (; j < keys.size() && keys[j].kind == keys[i].kind; ++j) {
        names.push_back(keys[j].name);
        root.refs.push_back(keys[j].ref);
      }
      root.object = FixedObject(std::move(names));
      plan->roots.push_back(std::move(root));
    } else {
      ContextPlan::ResourceMode m{keys[i].mode, {}, {}};
      std::vector<std::string_view> type_names;
      while (j < keys.size() && keys[j].mode == keys[i].mode) {
        ContextPlan::ResourceType t{keys[j].type, {}, {}};
        std::vector<std::string_view> names;
        size_t k = j;
        for (; k < keys.size() && keys[k].mode == keys[j].mode && keys[k].type == keys[j].type;
             ++k) {
          names.push_back(keys[k].name);
          t.refs.push_back(keys[k].ref);
        }
        t.object = FixedObject(std::move(names));
        type_names.push_back(t.type);
        m.types.push_back(std::move(t));
        j = k;
      }
      m.object = FixedObject(std::move(type_names));
      plan->names += 1 + (m.root == "resource" ? m.types.size() : 0);
      plan->modes.push_back(std::move(m));
    }
    i = j;
  }
  plan->names += plan->roots.size();
  const ContextPlan* expected = nullptr;
  if (plan_.compare_exchange_strong(expected, plan.get(), std::memory_order_acq_rel))
    return *plan.release();
  return *expected;  // another thread made it first
}

void PlanSlot::reset() { delete plan_.exchange(nullptr, std::memory_order_acq_rel); }

namespace {

// The value reference [r] (not a resource) reads for [mi] and [rep];
// [own] names a variable to read raw.
Value root_value(const EvalState& st, const Ref& r, const ModInst& mi, const Rep& rep,
                 const std::string* own) {
  switch (r.kind) {
    case Ref::Var:
      if (own && *own == r.name) {
        const Variable& var = mi.mod->variables.at(r.name);
        const Value* set = mi.var(var.index);
        Value v = set ? *set : Value::unknown(var.type);
        if (var.ephemeral) v = v.mark(kEphemeral);
        return v;
      }
      return variable_value(mi, r.name);
    case Ref::Local: {
      const Value* v = r.local >= 0 ? mi.local(size_t(r.local)) : nullptr;
      return v ? *v : Value::dynamic();
    }
    case Ref::Module:
      return module_value(mi, r.name);
    case Ref::Path:
      if (r.name == "module") return Value::string(mi.mod->dir);
      if (r.name == "root") return Value::string(st.root->dir);
      st.reads |= VertexRun::Cwd;
      return Value::string(st.cwd());
    case Ref::Terraform:
      if (r.name != "workspace") return Value::boolean(false).mark(kEphemeral);
      st.reads |= VertexRun::Workspace;
      return Value::string(st.inputs.workspace);
    case Ref::Count:
      return rep.count_index ? *rep.count_index : Value::unknown(Type::number());
    case Ref::Each: {
      const Value* each = r.name == "key" ? rep.each_key : rep.each_value;
      return each ? *each : Value::dynamic();
    }
    case Ref::Resource:
    case Ref::Self:
      break;
  }
  return Value::dynamic();
}

}  // namespace

void build_context(const EvalState& st, const ExprInfo& e, const ModInst& mi, const Rep& rep,
                   EvalContext& ctx, const std::string* own, RefPart part) {
  if (e.refs.empty()) return;
  const ContextPlan& plan = e.plan.get(e.refs);
  ctx.reserve(ctx.variables().size() + plan.names);
  // Only the roots the references name: the expression looks up no other
  // (its references are all its traversals).
  if (part != RefPart::Instance) {
    for (const ContextPlan::ResourceMode& m : plan.modes) {
      std::vector<Value> types;
      types.reserve(m.types.size());
      for (const ContextPlan::ResourceType& t : m.types) {
        std::vector<Value> values;
        values.reserve(t.refs.size());
        for (const Ref* r : t.refs) {
          values.push_back(r->resource >= 0
                               ? resource_value(st, mi, mi.mod->resources[size_t(r->resource)])
                               : Value::dynamic());
        }
        Value obj = t.object.make(std::move(values));
        if (m.root == "resource") ctx.set(std::string(t.type), obj);
        types.push_back(std::move(obj));
      }
      ctx.set(std::string(m.root), m.object.make(std::move(types)));
    }
  }
  for (const ContextPlan::Root& root : plan.roots) {
    bool instance = root.kind == Ref::Count || root.kind == Ref::Each;
    if (part != RefPart::All && (part == RefPart::Instance) != instance) continue;
    std::vector<Value> values;
    values.reserve(root.refs.size());
    for (const Ref* r : root.refs) values.push_back(root_value(st, *r, mi, rep, own));
    ctx.set(kRoots[root.kind], root.object.make(std::move(values)));
  }
}

namespace {

// Terraform's rewrite of unknown-function errors
// (lang.checkForUnknownFunctionDiags), for [d] reported with [fns].
void rewrite_unknown_function(Diagnostic& d, const FunctionTable* fns, const Source* src) {
  if (d.summary != "Call to unknown function") return;
  // The called name: from hcl's detail (`There is no function named "f".`,
  // `... named "f" in namespace ns::.`), or from the call's text at the
  // subject when the namespace has no functions at all.
  const std::string head = "There is no function named \"";
  std::string name, ns;
  if (d.detail.starts_with(head)) {
    size_t end = d.detail.find('"', head.size());
    if (end == std::string::npos) return;
    name = d.detail.substr(head.size(), end - head.size());
    constexpr std::string_view in = "\" in namespace ";
    if (d.detail.compare(end, in.size(), in) == 0) {
      // The namespace ends with the "::" before the sentence's full stop.
      size_t nse = d.detail.find("::.", end + in.size());
      if (nse == std::string::npos) return;
      ns = d.detail.substr(end + in.size(), nse + 2 - (end + in.size()));
    }
  } else if (src != nullptr && d.subject && d.subject->filename == src->name() &&
             d.subject->end.byte <= src->text().size()) {
    std::string called(
        src->text().substr(d.subject->start.byte, d.subject->end.byte - d.subject->start.byte));
    size_t sep = called.rfind("::");
    if (sep == std::string::npos) return;
    ns = called.substr(0, sep + 2);
    name = called.substr(sep + 2);
  } else {
    return;
  }
  if (ns.empty()) {
    // A plain name: perhaps a function of that name in some namespace.
    if (fns == nullptr) return;
    for (std::string_view f : fns->names()) {
      if (f.size() > name.size() + 2 && f.ends_with("::" + name)) {
        d.detail += " Did you mean \"" + std::string(f) + "\"?";
        return;
      }
    }
    return;
  }
  // The namespace's parts ("provider::aws::" is provider, aws and "").
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    size_t next = ns.find("::", at);
    parts.push_back(ns.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + 2;
  }
  d.summary = "Unknown provider function";
  if (parts[0] != "provider") {
    d.detail = "The function namespace \"" + parts[0] +
               "\" is not valid. Provider function calls must use the \"provider::\" namespace "
               "prefix.";
    return;
  }
  if (parts[1].empty()) {
    d.detail = "The function call must include the provider name after the \"provider::\" prefix.";
    return;
  }
  if (fns != nullptr) {
    for (std::string_view f : fns->names()) {
      if (f.starts_with(ns)) {
        d.detail = "The function \"" + name + "\" is not available from the provider \"" +
                   parts[1] + "\".";
        return;
      }
    }
  }
  d.detail = "There is no function named \"" + ns + name + "\". Ensure that provider name \"" +
             parts[1] +
             "\" is declared in this module's required_providers block, and that this "
             "provider offers a function named \"" +
             name + "\".";
}

}  // namespace

// Post-processes the diagnostics [diags] of an evaluation in [ctx]:
// Terraform's unknown-function texts and its statements about values.
void finish_diags(const EvalState& st, Diagnostics& diags, const EvalContext& ctx,
                  const FunctionTable* fns, const Source* src) {
  for (Diagnostic& d : diags) {
    rewrite_unknown_function(d, fns, src);
    describe_values(d, st.root->sources, ctx, fns);
  }
}

namespace {

// Where a limit or an error of a block is placed: a range, or an
// expression whose range is looked up (in its source) only when needed.
class Where {
 public:
  Where(const Range& r) : range_(&r) {}
  Where(const Expression& e) : expr_(&e) {}
  Range get() const { return range_ ? *range_ : expr_->range(); }

 private:
  const Range* range_ = nullptr;
  const Expression* expr_ = nullptr;
};

// Runs [fn]; a limit of the evaluation it meets is placed at [at], unless
// an expression inside it placed the limit first.
template <class Fn>
auto placed_at(EvalState& st, Where at, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const util::LimitExceeded&) {
    if (!st.limit_range) st.limit_range = at.get();
    throw;
  }
}

// Counts [bytes] of an instance made for the block at [at] (its address
// and tables) against the evaluation's memory limit.
void charge_instance(EvalState& st, size_t bytes, Where at) {
  if (util::Budget* b = util::current_budget()) placed_at(st, at, [&] { b->charge(bytes); });
}

// Counts [n] instances of a count or for_each expansion (at [at]) against
// the evaluation's limits: the collection the block's value becomes (false,
// with the error in [out], when it would be too big), and a step each.
bool count_instances(EvalState& st, uint64_t n, Where at, Diagnostics& out) {
  util::Budget* b = util::current_budget();
  if (b == nullptr) return true;
  if (n > b->limits().max_collection_size) {
    error(out, std::string(limit_summary(Limit::CollectionSize)),
          limit_detail(Limit::CollectionSize, b->limits()), at.get());
    return false;
  }
  placed_at(st, at, [&] { b->step(n); });
  return true;
}

}  // namespace

// Runs [e] for instance [mi]; errors go to [out] and make the result
// unknown (of [want] when given). With [want], the value is converted to
// it ("Incorrect value type").
Value run(EvalState& st, const ExprInfo& e, const ModInst& mi, const Rep& rep, Diagnostics& out,
          const Type* want = nullptr, const std::string* own = nullptr) {
  const Type* result_type = want ? want : Type::dynamic();
  if (!e.expr) return Value::null(result_type);
  if (e.has_errors()) {
    out.insert(out.end(), e.diags.begin(), e.diags.end());
    return Value::unknown(result_type);
  }
  out.insert(out.end(), e.diags.begin(), e.diags.end());
  EvalContext ctx(&st.fn_ctx);
  ctx.set_functions(fns_for(st, *mi.mod));
  build_context(st, e, mi, rep, ctx, own);
  EvalResult r = placed_at(st, e.expr, [&] { return e.expr.value(*st.vm, &ctx); });
  finish_diags(st, r.diagnostics, ctx, ctx.functions(), &e.expr.source());
  out.insert(out.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (r.has_errors()) return Value::unknown(result_type);
  if (want && want != Type::dynamic()) {
    ConvertResult c = convert(r.value, want);
    if (!c.ok()) {
      std::string path = path_string(c.error().path);
      Diagnostic d;
      d.summary = "Incorrect value type";
      d.detail = "Invalid expression value: " + (path.empty() ? "" : path + ": ") +
                 c.error().message + ".";
      d.subject = e.expr.range();
      d.expression = e.expr.range();
      describe_values(d, st.root->sources, ctx, ctx.functions());
      out.push_back(std::move(d));
      return Value::unknown(want);
    }
    return c.take();
  }
  return std::move(r.value);
}

namespace {

// Adds the diagnostic [d] about expression [e] (evaluated for [mi]), with
// Terraform's statements about the values of its variables.
void expr_diag(EvalState& st, Diagnostics& out, Diagnostic d, const ExprInfo& e, const ModInst& mi,
               const Rep& rep, bool unknown = false, bool sensitive = false,
               const std::string* own = nullptr) {
  EvalContext ctx(&st.fn_ctx);
  build_context(st, e, mi, rep, ctx, own);
  d.expression = e.expr.range();
  describe_values(d, st.root->sources, ctx, fns_for(st, *mi.mod).get(), unknown, sensitive);
  out.push_back(std::move(d));
}

// evaluateCountExpression: the count of [e]; nullopt on error or when
// unknown ([unknown] set).
std::optional<int64_t> eval_count(EvalState& st, const ExprInfo& e, const ModInst& mi,
                                  Diagnostics& out, bool& unknown) {
  unknown = false;
  Diagnostics d;
  Value v = run(st, e, mi, Rep{}, d, Type::number());
  bool failed = has_errors(d);
  out.insert(out.end(), d.begin(), d.end());
  if (failed) return std::nullopt;
  auto [plain, marks] = v.unmark_with_marks();
  auto r = [&] { return e.expr.range(); };
  if (marks.has(kEphemeral)) {
    error(out, "Invalid count argument",
          "The given \"count\" is derived from an ephemeral value, which means that Terraform "
          "cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify "
          "the number of resource instances.",
          r());
  }
  if (plain.is_null()) {
    error(out, "Invalid count argument",
          "The given \"count\" argument value is null. An integer is required.", r());
    return std::nullopt;
  }
  if (!plain.is_known()) {
    unknown = true;
    return std::nullopt;
  }
  std::optional<int64_t> n = plain.as_number().to_int64();
  if (!n) {
    error(out, "Invalid count argument",
          "The given \"count\" argument value is unsuitable: value must be a whole number, "
          "between -9223372036854775808 and 9223372036854775807.",
          r());
    return std::nullopt;
  }
  if (*n < 0) {
    error(out, "Invalid count argument",
          "The given \"count\" argument value is unsuitable: must be greater than or equal to "
          "zero.",
          r());
    return std::nullopt;
  }
  if (has_errors(out)) return std::nullopt;
  return n;
}

// evaluateForEachExpression: the keys and values of [e]; false on error
// or when unknown ([unknown] set).
bool eval_for_each(EvalState& st, const ExprInfo& e, const ModInst& mi, Diagnostics& out,
                   bool& unknown, Expansion& x) {
  unknown = false;
  Diagnostics d;
  Value v = run(st, e, mi, Rep{}, d);
  bool failed = has_errors(d);
  out.insert(out.end(), d.begin(), d.end());
  if (failed) return false;
  auto fail = [&](std::string summary, std::string detail, bool caused_unknown = false,
                  bool caused_sensitive = false) {
    Diagnostic diag;
    diag.summary = std::move(summary);
    diag.detail = std::move(detail);
    diag.subject = e.expr.range();
    expr_diag(st, out, std::move(diag), e, mi, Rep{}, caused_unknown, caused_sensitive);
    return false;
  };
  const Type* t = v.type();
  static const char* kUnknownMap =
      "The \"for_each\" map includes keys derived from resource attributes that cannot be "
      "determined until apply, and so Terraform cannot determine the full set of keys that will "
      "identify the instances of this resource.\n\nWhen working with unknown values in for_each, "
      "it's better to define the map keys statically in your configuration and place apply-time "
      "results only in the map values.\n\nAlternatively, you could use the -target planning "
      "option to first apply only the resources that the for_each value depends on, and then "
      "apply a second time to fully converge.";
  static const char* kUnknownSet =
      "The \"for_each\" set includes values derived from resource attributes that cannot be "
      "determined until apply, and so Terraform cannot determine the full set of keys that will "
      "identify the instances of this resource.\n\nWhen working with unknown values in for_each, "
      "it's better to use a map value where the keys are defined statically in your "
      "configuration and where only the values contain apply-time results.\n\nAlternatively, you "
      "could use the -target planning option to first apply only the resources that the "
      "for_each value depends on, and then apply a second time to fully converge.";
  if (!v.is_known() || (t->is_set() && !v.unmark_deep().first.is_wholly_known())) {
    unknown = true;
    (void)kUnknownMap;
    (void)kUnknownSet;
    return false;
  }
  auto [plain, marks] = v.unmark_with_marks();
  if (marks.has(kSensitive)) {
    return fail("Invalid for_each argument",
                "Sensitive values, or values derived from sensitive values, cannot be used as "
                "for_each arguments. If used, the sensitive value could be exposed as a resource "
                "instance key.",
                false, true);
  }
  if (marks.has(kEphemeral)) {
    return fail("Invalid for_each argument",
                "The given \"for_each\" value is derived from an ephemeral value, which means that "
                "Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral "
                "values to specify a resource's instance keys.");
  }
  if (plain.is_null()) {
    return fail("Invalid for_each argument",
                "The given \"for_each\" argument value is unsuitable: the given \"for_each\" "
                "argument value is null. A map, or set of strings is allowed.");
  }
  if (t->is_dynamic()) {
    unknown = true;
    return false;
  }
  if (!t->is_map() && !t->is_set() && !t->is_object()) {
    return fail("Invalid for_each argument",
                "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument "
                "must be a map, or set of strings, and you have provided a value of type " +
                    t->friendly_name() + ".");
  }
  x.mode = Expansion::ForEach;
  size_t n = t->is_object() ? t->size() : plain.length();
  if (n == 0) return true;
  if (t->is_set()) {
    if (t->element() != Type::string()) {
      return fail("Invalid for_each set argument",
                  "The given \"for_each\" argument value is unsuitable: \"for_each\" supports "
                  "maps and sets of strings, but you have provided a set containing type " +
                      t->element()->friendly_name() + ".");
    }
    for (size_t i = 0; i < n; ++i) {
      if (plain.element(i).is_null()) {
        return fail("Invalid for_each set argument",
                    "The given \"for_each\" argument value is unsuitable: \"for_each\" sets must "
                    "not contain null values.");
      }
    }
    for (size_t i = 0; i < n; ++i) {
      auto [ev, em] = plain.element(i).unmark_with_marks();
      x.keys.push_back({InstKey::Str, 0, std::string(ev.as_string())});
      x.each_values.push_back(plain.element(i));
    }
    return true;
  }
  if (t->is_map()) {
    for (size_t i = 0; i < n; ++i) {
      x.keys.push_back({InstKey::Str, 0, std::string(plain.map_key(i))});
      x.each_values.push_back(plain.map_value(i));
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      x.keys.push_back({InstKey::Str, 0, std::string(t->attr_name(i))});
      x.each_values.push_back(plain.attr(i));
    }
  }
  return true;
}

// The key [k] as each.key / count.index values.
Value key_value(const InstKey& k) {
  return k.kind == InstKey::Int ? Value::integer(k.i) : Value::string(k.s);
}

// Expands call [c] of instance [mi] into child instances.
bool expand_call(EvalState& st, ModInst& mi, const ModuleCall& c, Diagnostics& out) {
  Expansion x;
  bool ok = true;
  if (c.count) {
    bool unknown = false;
    std::optional<int64_t> n = eval_count(st, *c.count, mi, out, unknown);
    if (unknown) {
      x.mode = Expansion::Unknown;
    } else if (!n || !count_instances(st, uint64_t(*n), c.count->expr, out)) {
      ok = false;
      x.mode = Expansion::Unknown;
    } else {
      x.mode = Expansion::Count;
      for (int64_t i = 0; i < *n; ++i) x.keys.push_back({InstKey::Int, i, ""});
    }
  } else if (c.for_each) {
    bool unknown = false;
    if (!eval_for_each(st, *c.for_each, mi, out, unknown, x)) {
      x.mode = Expansion::Unknown;
      x.keys.clear();
      x.each_values.clear();
      ok = unknown;
    } else if (!count_instances(st, x.keys.size(), c.for_each->expr, out)) {
      x.mode = Expansion::Unknown;
      x.keys.clear();
      x.each_values.clear();
      ok = false;
    }
  } else {
    x.mode = Expansion::Single;
    x.keys.push_back({});
  }
  add_call_instances(st, mi, c, std::move(x));
  return ok;
}

}  // namespace

void add_call_instances(EvalState& st, ModInst& mi, const ModuleCall& c, Expansion x) {
  x.insts.clear();
  if (c.child) {
    auto make = [&](const InstKey& k, size_t i, bool placeholder) {
      // An instance of a module is a value of the evaluation (its
      // outputs' object), and takes memory for its own values' tables.
      std::string addr = (mi.addr.empty() ? "" : mi.addr + ".") + "module." + c.name + k.str();
      charge_instance(st, sizeof(ModInst) + addr.size(),
                      c.count      ? c.count->expr.range()
                      : c.for_each ? c.for_each->expr.range()
                                   : c.decl_range);
      st.insts.emplace_back();
      ModInst& ci = st.insts.back();
      ci.mod = c.child.get();
      ci.parent = &mi;
      ci.call = c.name;
      ci.key = k;
      ci.addr = std::move(addr);
      if (c.count) {
        ci.has_count = true;
        ci.count_index = placeholder ? Value::unknown(Type::number()) : key_value(k);
      } else if (c.for_each) {
        ci.has_each = true;
        ci.each_key = placeholder ? Value::unknown(Type::string()) : key_value(k);
        ci.each_value = placeholder ? Value::dynamic() : x.each_values[i];
      }
      st.by_module[ci.mod].push_back(&ci);
      x.insts.push_back(&ci);
    };
    if (x.mode == Expansion::Unknown) {
      // The module's values are still evaluated once, with unknown keys.
      make(InstKey{}, 0, true);
    } else {
      for (size_t i = 0; i < x.keys.size(); ++i) make(x.keys[i], i, false);
    }
  }
  mi.calls.insert_or_assign(c.name, std::move(x));
}

namespace {

// Evaluates the validation rules of variable [name] of [mi]
// (evalVariableValidations).
void validate_variable(EvalState& st, ModInst& mi, const std::string& name, Diagnostics& out) {
  const Variable& v = mi.mod->variables.at(name);
  std::string addr = (mi.addr.empty() ? "" : mi.addr + ".") + "var." + name;
  // The references of every rule are checked first; any error stops all.
  Diagnostics pre;
  for (const CheckRule& r : v.validations) {
    for (const ExprPtr& e : {r.condition, r.error_message})
      if (e) pre.insert(pre.end(), e->diags.begin(), e->diags.end());
  }
  if (has_errors(pre)) {
    out.insert(out.end(), pre.begin(), pre.end());
    return;
  }
  Range value_range = v.decl_range;
  if (const Range* r = mi.var_range(v.index)) value_range = *r;
  Rep rep;
  for (const CheckRule& rule : v.validations) {
    if (!rule.condition || !rule.error_message) continue;
    // One context for both: merge what each needs.
    ExprInfo both;
    both.refs = rule.condition->refs;
    both.refs.insert(both.refs.end(), rule.error_message->refs.begin(),
                     rule.error_message->refs.end());
    EvalContext merged(&st.fn_ctx);
    merged.set_functions(fns_for(st, *mi.mod));
    build_context(st, both, mi, rep, merged, &name);
    EvalResult cond = rule.condition->expr.value(*st.vm, &merged);
    finish_diags(st, cond.diagnostics, merged, merged.functions(), &rule.condition->expr.source());
    Diagnostics diags = cond.diagnostics;
    EvalResult msg = rule.error_message->expr.value(*st.vm, &merged);
    finish_diags(st, msg.diagnostics, merged, merged.functions(),
                 &rule.error_message->expr.source());
    Value message = msg.value;
    if (msg.has_errors()) {
      // A literal string still serves, with a warning.
      EvalResult lit = rule.error_message->expr.value(nullptr);
      if (!lit.has_errors() && lit.value.type() == Type::string() && lit.value.is_known()) {
        message = lit.value;
        Diagnostic w;
        w.severity = Severity::Warning;
        w.summary = "Validation error message expression is invalid";
        w.detail =
            "The error message provided could not be evaluated as an expression, so Terraform is "
            "interpreting it as a string literal.\n\nIn future versions of Terraform, this will "
            "be considered an error. Please file a GitHub issue if this would break your "
            "workflow.\n\n" + diagnostics_error(msg.diagnostics);
        w.subject = rule.error_message->expr.range();
        w.context = rule.decl_range;
        w.expression = rule.error_message->expr.range();
        describe_values(w, st.root->sources, merged, merged.functions());
        diags.push_back(std::move(w));
      } else {
        diags.insert(diags.end(), msg.diagnostics.begin(), msg.diagnostics.end());
      }
    }
    out.insert(out.end(), diags.begin(), diags.end());
    Value result = cond.value;
    if (!result.is_known()) continue;
    auto fail = [&](std::string summary, std::string detail, std::optional<Range> subject,
                    bool unknown = false) {
      Diagnostic d;
      d.summary = std::move(summary);
      d.detail = std::move(detail);
      d.subject = std::move(subject);
      d.expression = rule.condition->expr.range();
      describe_values(d, st.root->sources, merged, merged.functions(), unknown);
      out.push_back(std::move(d));
    };
    if (result.is_null()) {
      fail("Invalid variable validation result",
           "Validation condition expression must return either true or false, not null.",
           rule.condition->expr.range());
      continue;
    }
    ConvertResult b = convert(result, Type::boolean());
    if (!b.ok()) {
      std::string path = path_string(b.error().path);
      fail("Invalid variable validation result",
           "Invalid validation condition result value: " + (path.empty() ? "" : path + ": ") +
               b.error().message + ".",
           rule.condition->expr.range());
      continue;
    }
    Value bv = b.take().unmark();
    if (bv.as_bool()) continue;
    if (!message.is_known()) {
      if (st.inputs.validate) continue;
      Diagnostic d;
      d.summary = "Invalid error message";
      d.detail =
          "Unsuitable value for error message: expression refers to values that won't be known "
          "until the apply phase.";
      d.subject = rule.error_message->expr.range();
      d.expression = rule.error_message->expr.range();
      describe_values(d, st.root->sources, merged, merged.functions(), true);
      out.push_back(std::move(d));
      continue;
    }
    std::string text;
    if (!has_errors(diags) && !message.is_null()) {
      ConvertResult s = convert(message, Type::string());
      if (!s.ok()) {
        Diagnostic d;
        d.summary = "Invalid error message";
        d.detail = "Unsuitable value for error message: " + s.error().message + ".";
        d.subject = rule.error_message->expr.range();
        d.expression = rule.error_message->expr.range();
        describe_values(d, st.root->sources, merged, merged.functions());
        out.push_back(std::move(d));
      } else {
        auto [sv, sm] = s.value().unmark_deep();
        if (sm.has(kSensitive) || sm.has(kEphemeral)) {
          bool eph = !sm.has(kSensitive);
          Diagnostic d;
          d.summary = eph ? "Error message refers to ephemeral values"
                          : "Error message refers to sensitive values";
          d.detail = eph ? "The error expression used to explain this condition refers to "
                           "ephemeral values. Terraform will not display the resulting "
                           "message.\n\nYou can correct this by removing references to ephemeral "
                           "values, or by carefully using the ephemeralasnull() function if the "
                           "expression will not reveal the ephemeral data."
                         : "The error expression used to explain this condition refers to "
                           "sensitive values. Terraform will not display the resulting "
                           "message.\n\nYou can correct this by removing references to sensitive "
                           "values, or by carefully using the nonsensitive() function if the "
                           "expression will not reveal the sensitive data.";
          d.subject = rule.error_message->expr.range();
          d.expression = rule.error_message->expr.range();
          describe_values(d, st.root->sources, merged, merged.functions());
          out.push_back(std::move(d));
          text = "The error message included a sensitive value, so it will not be displayed.";
        } else {
          text = std::string(uni::trim_right_space(uni::trim_left_space(sv.as_string())));
        }
      }
    }
    if (text.empty()) text = "Failed to evaluate condition error message.";
    fail("Invalid value for variable",
         text + "\n\nThis was checked by the validation rule at " +
             range_string(rule.decl_range) + ".",
         value_range);
  }
  (void)addr;
}

// Terraform's EvalCheckErrorMessage: the error message of [rule] evaluated
// in [ctx], its problems in [diags]; "" when there is none to show.
std::string check_error_message(EvalState& st, const CheckRule& rule, const EvalContext& ctx,
                                Diagnostics& diags) {
  const Expression& e = rule.error_message->expr;
  EvalResult m = e.value(*st.vm, &ctx);
  finish_diags(st, m.diagnostics, ctx, ctx.functions(), &e.source());
  bool failed = m.has_errors();
  diags.insert(diags.end(), m.diagnostics.begin(), m.diagnostics.end());
  if (failed) return "";
  auto diagnose = [&](Severity sev, std::string summary, std::string detail, bool values) {
    Diagnostic d;
    d.severity = sev;
    d.summary = std::move(summary);
    d.detail = std::move(detail);
    d.subject = e.range();
    if (values) {
      d.expression = e.range();
      describe_values(d, st.root->sources, ctx, ctx.functions());
    }
    diags.push_back(std::move(d));
  };
  ConvertResult s = convert(m.value, Type::string());
  if (!s.ok()) {
    std::string path = path_string(s.error().path);
    diagnose(Severity::Error, "Invalid error message",
             "Unsuitable value for error message: " + (path.empty() ? "" : path + ": ") +
                 s.error().message + ".",
             true);
    return "";
  }
  if (!s.value().is_known()) return "";
  if (s.value().is_null()) {
    diagnose(Severity::Error, "Invalid error message",
             "Unsuitable value for error message: must not be null.", true);
    return "";
  }
  auto [sv, sm] = s.value().unmark_with_marks();
  if (sm.has(kSensitive)) {
    diagnose(Severity::Warning, "Error message refers to sensitive values",
             "The error expression used to explain this condition refers to sensitive values, so "
             "Terraform will not display the resulting message.\n\nYou can correct this by "
             "removing references to sensitive values, or by carefully using the nonsensitive() "
             "function if the expression will not reveal the sensitive data.",
             true);
    return "";
  }
  if (sm.has(kEphemeral)) {
    diagnose(Severity::Warning, "Error message refers to ephemeral values",
             "The error expression used to explain this condition refers to ephemeral values, so "
             "Terraform will not display the resulting message.\n\nYou can correct this by "
             "removing references to ephemeral values, or by using the ephemeralasnull() function "
             "on the references to not reveal ephemeral data.",
             false);
    return "";
  }
  return std::string(uni::trim_right_space(uni::trim_left_space(sv.as_string())));
}

// What validateCheckRule does for [rule] of [mi]: the errors of its
// references, [ctx] made with them, and its error message evaluated there.
// When the static validation of a reference fails Terraform's context
// holds no variable at all, and the message and the condition still run
// in it; a reference that fails its lookup is unknown there, and so is
// what reads it (not evaluated here). The message, and whether the caller
// is to evaluate the condition in [ctx].
std::pair<std::string, bool> validate_rule(EvalState& st, const CheckRule& rule,
                                           const ModInst& mi, EvalContext& ctx,
                                           Diagnostics& diags) {
  ExprInfo refs;
  bool empty = rule.condition->static_errors || rule.error_message->static_errors;
  for (const ExprPtr& e : {rule.condition, rule.error_message}) {
    // Terraform validates the references of both together: when static
    // validation fails it looks none of them up, so the other
    // expression's lookup errors are not reported.
    if (!empty || e->static_errors) diags.insert(diags.end(), e->diags.begin(), e->diags.end());
    if (!e->has_errors()) refs.refs.insert(refs.refs.end(), e->refs.begin(), e->refs.end());
  }
  if (empty) return {check_error_message(st, rule, ctx, diags), true};
  build_context(st, refs, mi, mi.rep(), ctx);
  std::string message;
  if (!rule.error_message->has_errors()) message = check_error_message(st, rule, ctx, diags);
  return {std::move(message), !rule.condition->has_errors()};
}

// The assertions of check block [c] of [mi] as validate checks them
// (validateCheckRule): their references, and their error messages
// evaluated; the conditions are not.
void validate_check(EvalState& st, const ModInst& mi, const CheckBlock& c, Diagnostics& out) {
  for (const CheckRule& rule : c.asserts) {
    if (!rule.condition || !rule.error_message) continue;
    EvalContext ctx(&st.fn_ctx);
    ctx.set_functions(fns_for(st, *mi.mod));
    validate_rule(st, rule, mi, ctx, out);
  }
}

// Evaluates the preconditions [rules] of an output of [mi]
// (evalCheckRules); false when one failed.
bool check_rules(EvalState& st, const std::vector<CheckRule>& rules, const ModInst& mi,
                 const std::string& failed_summary, Diagnostics& out) {
  bool ok = true;
  for (const CheckRule& rule : rules) {
    if (!rule.condition || !rule.error_message) continue;
    Diagnostics diags;
    EvalContext ctx(&st.fn_ctx);
    ctx.set_functions(fns_for(st, *mi.mod));
    // The condition is evaluated even when the message fails
    // (evalCheckRule).
    auto [message, evaluate] = validate_rule(st, rule, mi, ctx, diags);
    Value result;
    if (evaluate) {
      EvalResult c = rule.condition->expr.value(*st.vm, &ctx);
      finish_diags(st, c.diagnostics, ctx, ctx.functions(), &rule.condition->expr.source());
      diags.insert(diags.end(), c.diagnostics.begin(), c.diagnostics.end());
      result = c.value;
    }
    out.insert(out.end(), diags.begin(), diags.end());
    if (has_errors(diags)) {
      ok = false;
      continue;
    }
    if (!result.is_known()) continue;
    auto fail = [&](std::string summary, std::string detail) {
      Diagnostic d;
      d.summary = std::move(summary);
      d.detail = std::move(detail);
      d.subject = rule.condition->expr.range();
      d.expression = rule.condition->expr.range();
      describe_values(d, st.root->sources, ctx, ctx.functions());
      out.push_back(std::move(d));
      ok = false;
    };
    if (result.is_null()) {
      fail("Invalid condition result",
           "Condition expression must return either true or false, not null.");
      continue;
    }
    ConvertResult b = convert(result, Type::boolean());
    if (!b.ok()) {
      fail("Invalid condition result",
           "Invalid condition result value: " + b.error().message + ".");
      continue;
    }
    if (b.value().unmark().as_bool()) continue;
    fail(failed_summary, message.empty() ? "This check failed, but has an invalid error message "
                                           "as described in the other accompanying messages."
                                         : message);
  }
  return ok;
}

// Evaluates output [o] of [mi] as NodeApplyableOutput.Execute does: a root
// module's ephemeral output is an error before anything else, failed
// preconditions stop it, and what its depends_on is found to be is
// reported after its value (when [report_depends_on]).
bool eval_output(EvalState& st, ModInst& mi, const Output& o, bool report_depends_on,
                 Diagnostics& out) {
  Diagnostics d;
  bool root = mi.mod->path.empty();
  if (root && o.ephemeral) {
    error(out, "Ephemeral output not allowed",
          "Ephemeral outputs are not allowed in context of a root module", o.decl_range);
    return false;
  }
  if (!check_rules(st, o.preconditions, mi, "Module output value precondition failed", d)) {
    out.insert(out.end(), d.begin(), d.end());
    return false;
  }
  Value v = o.value ? run(st, *o.value, mi, mi.rep(), d) : Value::dynamic();
  if (report_depends_on) d.insert(d.end(), o.depends_on_diags.begin(), o.depends_on_diags.end());
  bool failed = has_errors(d);
  if (!failed && root) {
    auto [plain, marks] = v.unmark_deep();
    if (!o.sensitive && marks.has(kSensitive)) {
      error(d, "Output refers to sensitive values",
            "To reduce the risk of accidentally exporting sensitive data that was intended to be "
            "only internal, Terraform requires that any root module output containing sensitive "
            "data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend "
            "to export this data, annotate the output value as sensitive by adding the following "
            "argument:\n    sensitive = true",
            o.decl_range);
      failed = true;
    }
  } else if (!failed) {
    auto [plain, marks] = v.unmark_deep();
    if (o.ephemeral && !marks.has(kEphemeral)) {
      error(d, "Value not allowed in ephemeral output",
            "This output value is declared as returning an ephemeral value, so it can only be set "
            "to an ephemeral value.",
            o.value ? o.value->expr.range() : o.decl_range);
      failed = true;
    } else if (!o.ephemeral && marks.has(kEphemeral)) {
      error(d, "Ephemeral value not allowed",
            "This output value is not declared as returning an ephemeral value, so it cannot be "
            "set to a result derived from an ephemeral value.",
            o.value ? o.value->expr.range() : o.decl_range);
      failed = true;
    }
  }
  out.insert(out.end(), d.begin(), d.end());
  if (failed) return false;
  if (root && o.sensitive) v = v.mark(kSensitive);
  mi.set_output(o.index, std::move(v));
  return true;
}

}  // namespace

namespace {

// validateResource of a for_each value of [e] (terraform validate): what
// is wrong with it even when it is unknown.
bool validate_for_each(EvalState& st, const ExprInfo& e, const ModInst& mi, Diagnostics& out) {
  Diagnostics d;
  Value v = run(st, e, mi, Rep{}, d);
  bool failed = has_errors(d);
  out.insert(out.end(), d.begin(), d.end());
  if (failed) return false;
  auto fail = [&](std::string summary, std::string detail, bool sensitive = false) {
    Diagnostic diag;
    diag.summary = std::move(summary);
    diag.detail = std::move(detail);
    diag.subject = e.expr.range();
    expr_diag(st, out, std::move(diag), e, mi, Rep{}, false, sensitive);
    return false;
  };
  auto [plain, marks] = v.unmark_with_marks();
  bool ok = true;
  if (marks.has(kSensitive)) {
    ok = fail("Invalid for_each argument",
              "Sensitive values, or values derived from sensitive values, cannot be used as "
              "for_each arguments. If used, the sensitive value could be exposed as a resource "
              "instance key.",
              true);
  }
  if (marks.has(kEphemeral)) {
    ok = fail("Invalid for_each argument",
              "The given \"for_each\" value is derived from an ephemeral value, which means that "
              "Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral "
              "values to specify a resource's instance keys.");
  }
  if (!ok) return false;
  const Type* t = plain.type();
  if (plain.is_null()) {
    return fail("Invalid for_each argument",
                "The given \"for_each\" argument value is unsuitable: the given \"for_each\" "
                "argument value is null. A map, or set of strings is allowed.");
  }
  if (t->is_dynamic()) return true;
  if (!t->is_map() && !t->is_set() && !t->is_object()) {
    return fail("Invalid for_each argument",
                "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument "
                "must be a map, or set of strings, and you have provided a value of type " +
                    t->friendly_name() + ".");
  }
  if (!plain.is_known()) return true;
  if ((t->is_object() ? t->size() : plain.length()) == 0) return true;
  if (t->is_set()) {
    if (!plain.is_wholly_known()) return true;
    if (t->element() != Type::string()) {
      return fail("Invalid for_each set argument",
                  "The given \"for_each\" argument value is unsuitable: \"for_each\" supports "
                  "maps and sets of strings, but you have provided a set containing type " +
                      t->element()->friendly_name() + ".");
    }
    for (size_t i = 0; i < plain.length(); ++i) {
      if (plain.element(i).is_null()) {
        return fail("Invalid for_each set argument",
                    "The given \"for_each\" argument value is unsuitable: \"for_each\" sets "
                    "must not contain null values.");
      }
    }
  }
  return true;
}

// Expands resource [r] of [mi] and evaluates each instance's arguments.
// NodeValidatableResource.validateCheckRules: each condition and error
// message of resource [r]'s lifecycle evaluated on its own for [mi], with
// the instance keys of [rep] unknown and `self` (a postcondition's) an
// unknown value; a reference that fails static validation leaves the
// context empty.
void validate_resource_rules(EvalState& st, const ModInst& mi, const Resource& r, const Rep& rep,
                             Diagnostics& out) {
  for (const std::vector<CheckRule>* rules : {&r.preconditions, &r.postconditions}) {
    for (const CheckRule& rule : *rules) {
      for (const ExprPtr& e : {rule.condition, rule.error_message}) {
        if (!e || !e->expr) continue;
        out.insert(out.end(), e->diags.begin(), e->diags.end());
        if (e->has_errors() && !e->static_errors) continue;
        EvalContext ctx(&st.fn_ctx);
        ctx.set_functions(fns_for(st, *mi.mod));
        if (!e->static_errors) {
          build_context(st, *e, mi, rep, ctx);
          for (const Ref& ref : e->refs)
            if (ref.kind == Ref::Self) ctx.set("self", Value::dynamic());
        }
        EvalResult res = e->expr.value(*st.vm, &ctx);
        finish_diags(st, res.diagnostics, ctx, ctx.functions(), &e->expr.source());
        out.insert(out.end(), res.diagnostics.begin(), res.diagnostics.end());
      }
    }
  }
}

// validateImportTargetExpansion: an instance key of kind [key_kind] (0:
// none, 1: a number, 2: a string) in an import's `to` against the
// repetition of resource [cfg] (null: none); false with the error.
bool check_import_key(const Resource* cfg, int key_kind, const Range& to, Diagnostics& d) {
  bool each = cfg && cfg->for_each, count = cfg && cfg->count;
  const char* wrong =
      key_kind == 2   ? (each ? nullptr : "The target resource does not use for_each.")
      : key_kind == 1 ? (count ? nullptr : "The target resource does not use count.")
      : each          ? "The target resource is using for_each."
      : count         ? "The target resource is using count."
                      : nullptr;
  if (wrong == nullptr) return true;
  error(d, "Invalid import 'to' expression", wrong, to);
  return false;
}

// evaluateImportIdExpression of [imp]'s id for the element [rep] (unknown
// values allowed); false with the error.
bool check_import_id(EvalState& st, ModInst& root, const ImportBlock& imp, const Rep& rep,
                     Diagnostics& d) {
  Value id = run(st, *imp.id, root, rep, d, Type::string());
  if (has_errors(d)) return false;
  std::string why;
  if (id.is_null())
    why = "The import ID cannot be null.";
  else if (id.is_known() && id.unmark_deep().first.as_string().empty())
    why = "The import ID value evaluates to an empty string, please provide a non-empty value.";
  if (why.empty()) return true;
  error(d, "Invalid import id argument", why, imp.id->expr.range());
  return false;
}

// The for_each branch of validateImportTargets for [imp] (its target
// resource [cfg]): for_each evaluated (ImportValues; an unknown value
// checks nothing), then for each element the key of `to` and the id;
// false at an error.
bool check_import_each(EvalState& st, ModInst& root, const Resource* cfg, const ImportBlock& imp,
                       Diagnostics& d) {
  if (!imp.for_each_expr) return true;
  Value fe = run(st, *imp.for_each_expr, root, Rep{}, d);
  if (has_errors(d)) return false;
  if (!fe.is_wholly_known()) return true;
  const Range fe_range = imp.for_each_expr->expr.range();
  auto [plain, marks] = fe.unmark_with_marks();
  if (marks.has(kEphemeral)) {
    error(d, "Invalid for_each argument",
          "The given \"for_each\" value is derived from an ephemeral value, which means that "
          "Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral values "
          "to specify a resource's instance keys.",
          fe_range);
    return false;
  }
  if (plain.is_null()) return true;
  const Type* t = plain.type();
  std::vector<std::pair<Value, Value>> elems;
  if (t->is_object()) {
    for (size_t i = 0; i < t->size(); ++i)
      elems.emplace_back(Value::string(t->attr_name(i)), plain.attr(i));
  } else if (t->is_map()) {
    for (size_t i = 0; i < plain.length(); ++i)
      elems.emplace_back(Value::string(plain.map_key(i)), plain.map_value(i));
  } else if (t->is_list() || t->is_tuple()) {
    for (size_t i = 0; i < plain.length(); ++i)
      elems.emplace_back(Value::number(Number::from_int(int64_t(i))), plain.element(i));
  } else if (t->is_set()) {
    for (size_t i = 0; i < plain.length(); ++i)
      elems.emplace_back(plain.element(i), plain.element(i));
  } else {
    error(d, "Invalid for_each argument", "The \"for_each\" expression must be a collection.",
          fe_range);
    return false;
  }
  for (auto& [k, v0] : elems) {
    Value v = v0.mark(marks);
    // evalImportToExpression: `to` with its key evaluated for the element.
    int key_kind = imp.key_kind;
    if (!imp.to_static) {
      if (!imp.to_base || !imp.to_key) return true;
      EvalContext kctx;
      kctx.set("each", Value::object({{"key", k}, {"value", v}}));
      EvalResult kr = imp.to_key.value(*st.vm, &kctx);
      if (kr.has_errors()) {
        for (Diagnostic& x : kr.diagnostics)
          if (x.summary == "Unknown variable")
            x.detail +=
                "Only \"each.key\" and \"each.value\" can be used in import address index "
                "expressions.";
        d.insert(d.end(), kr.diagnostics.begin(), kr.diagnostics.end());
        return false;
      }
      if (kr.value.unmark_with_marks().second.has(kSensitive)) {
        error(d, "Invalid index expression", "Import address index expression cannot be sensitive.",
              imp.to_key.range());
        return false;
      }
      Traversal addr = *imp.to_base;
      TraversalStep step;
      step.kind = TraversalStep::Kind::Index;
      step.key = kr.value.unmark_deep().first;
      step.range = imp.to_key.range();
      addr.steps.push_back(std::move(step));
      std::optional<TargetAddr> target = parse_target(addr, d);
      if (!target) return false;
      if (!target->resource) {
        error(d, "Invalid import 'to' expression",
              "The import block 'to' argument " + target->text +
                  " does not resolve to a single resource instance.",
              imp.to_range);
        return false;
      }
      key_kind = target->key_kind;
    }
    if (!check_import_key(cfg, key_kind, imp.to_range, d)) return false;
    Rep rep;
    rep.each_key = &k;
    rep.each_value = &v;
    if (!check_import_id(st, root, imp, rep, d)) return false;
  }
  return true;
}

// NodeValidatableResource.validateImportTargets for the import blocks
// [imps] of one resource [cfg] (null: a resource no block declares, whose
// configuration would be generated), in the root module's instance [root]:
// the first error ends them.
void validate_imports_of(EvalState& st, ModInst& root, const Resource* cfg,
                         const std::vector<const ImportBlock*>& imps, Diagnostics& out) {
  Diagnostics d;
  const ImportBlock& first = *imps.front();
  if (cfg == nullptr) {
    // validateConfigGen.
    for (const ImportBlock* imp : imps) {
      if (!first.modules.empty()) {
        error(d, "Configuration for import target does not exist",
              "Resource " + first.config +
                  " not found. Only resources within the root module are eligible for config "
                  "generation.",
              imp->to_range);
      } else if (imp->to_static && (imp->key_kind != 0 || imp->for_each)) {
        error(d, "Configuration for import target does not exist",
              "The given import block is not compatible with config generation. The "
              "-generate-config-out option cannot be used with import blocks which use "
              "for_each, or resources which use for_each or count.",
              imp->to_range);
      }
    }
  }
  for (const ImportBlock* imp : imps) {
    if (!imp->id) continue;
    // validateImportSelfRef: the id may not refer to the resource imported.
    for (const Ref& ref : imp->id->refs) {
      if (ref.kind == Ref::Resource && ref.mode == ResMode::Managed && ref.type == imp->type &&
          ref.name == imp->name)
        error(d, "Invalid import id argument",
              "The import ID cannot reference the resource being imported.", ref.range);
    }
    if (has_errors(d)) break;
    if (imp->for_each) {
      if (!check_import_each(st, root, cfg, *imp, d)) break;
      continue;
    }
    if (!imp->to_static || !check_import_key(cfg, imp->key_kind, imp->to_range, d) ||
        !check_import_id(st, root, *imp, Rep{}, d))
      break;
  }
  out.insert(out.end(), d.begin(), d.end());
}

// The schemas of Terraform's built-in provisioners and the superset of the
// connection block's arguments (connectionBlockSupersetSchema), as specs.
const hcldec::Spec* provisioner_spec(std::string_view type) {
  using namespace hcldec;
  static const SpecPtr local_exec = object_spec({
      {"command", attr_spec("command", Type::string(), true)},
      {"interpreter", attr_spec("interpreter", Type::list(Type::string()))},
      {"working_dir", attr_spec("working_dir", Type::string())},
      {"environment", attr_spec("environment", Type::map(Type::string()))},
      {"quiet", attr_spec("quiet", Type::boolean())},
  });
  static const SpecPtr file = object_spec({
      {"source", attr_spec("source", Type::string())},
      {"content", attr_spec("content", Type::string())},
      {"destination", attr_spec("destination", Type::string(), true)},
  });
  static const SpecPtr remote_exec = object_spec({
      {"inline", attr_spec("inline", Type::list(Type::string()))},
      {"script", attr_spec("script", Type::string())},
      {"scripts", attr_spec("scripts", Type::list(Type::string()))},
  });
  return type == "local-exec"    ? local_exec.get()
         : type == "file"        ? file.get()
         : type == "remote-exec" ? remote_exec.get()
                                 : nullptr;
}

const hcldec::Spec& connection_spec() {
  using namespace hcldec;
  static const SpecPtr spec = [] {
    std::vector<std::pair<std::string, SpecPtr>> attrs;
    for (const char* n : {"type",
                          "user",
                          "password",
                          "timeout",
                          "script_path",
                          "target_platform",
                          "private_key",
                          "certificate",
                          "host_key",
                          "agent_identity",
                          "proxy_scheme",
                          "proxy_host",
                          "proxy_user_name",
                          "proxy_user_password",
                          "bastion_host",
                          "bastion_host_key",
                          "bastion_user",
                          "bastion_password",
                          "bastion_private_key",
                          "bastion_certificate",
                          "cacert"})
      attrs.emplace_back(n, attr_spec(n, Type::string()));
    for (const char* n : {"port", "proxy_port", "bastion_port"})
      attrs.emplace_back(n, attr_spec(n, Type::number()));
    for (const char* n : {"agent", "https", "insecure", "use_ntlm"})
      attrs.emplace_back(n, attr_spec(n, Type::boolean()));
    attrs.emplace_back("host", attr_spec("host", Type::string(), true));
    return object_spec(std::move(attrs));
  }();
  return *spec;
}

// EvaluateBlock of [body] with [spec] for resource [r] of [mi]: its
// references validated (self allowed), then decoded in their context.
Value evaluate_block(EvalState& st, const ModInst& mi, const Resource& r, const Rep& rep,
                     const Body& body, const hcldec::Spec& spec, Diagnostics& d) {
  ExprInfo info;
  info.refs = parse_refs(hcldec::variables(body, spec), info.diags);
  resolve_refs(info.refs, *mi.mod);
  ExprScope scope = r.count      ? ExprScope::Counted
                    : r.for_each ? ExprScope::ForEach
                                 : ExprScope::Plain;
  check_refs(info.refs, *mi.mod, scope, {}, info.diags, true);
  d.insert(d.end(), info.diags.begin(), info.diags.end());
  // Problems with the references stop it before decoding (Scope.EvalBlock).
  if (info.has_errors()) return Value::unknown(hcldec::implied_type(spec));
  EvalContext ctx(&st.fn_ctx);
  ctx.set_functions(fns_for(st, *mi.mod));
  build_context(st, info, mi, rep, ctx);
  for (const Ref& ref : info.refs)
    if (ref.kind == Ref::Self) ctx.set("self", Value::dynamic());
  hcldec::DecodeResult res = hcldec::decode(body, spec, &ctx);
  finish_diags(st, res.diagnostics, ctx, ctx.functions(), nullptr);
  d.insert(d.end(), res.diagnostics.begin(), res.diagnostics.end());
  return res.value;
}

// An error without a place (tfdiags.Sourceless, or an error a provisioner
// returned).
void sourceless(Diagnostics& d, std::string summary, std::string detail = "") {
  Diagnostic x;
  x.severity = Severity::Error;
  x.summary = std::move(summary);
  x.detail = std::move(detail);
  d.push_back(std::move(x));
}

// NodeValidatableResource.validateProvisioner for each provisioner of
// resource [r] of [mi], until one reports an error ([d] holds what the
// resource reported before: an error there stops after the first).
void validate_provisioners(EvalState& st, const ModInst& mi, const Resource& r, const Rep& rep,
                           Diagnostics& d) {
  for (const Provisioner& p : r.provisioners) {
    const hcldec::Spec* spec = provisioner_spec(p.type);
    if (spec == nullptr) continue;  // reported before the walk
    Value v = evaluate_block(st, mi, r, rep, p.config, *spec, d);
    // ValidateProvisionerConfig (an unknown value's arguments are not null).
    if (!v.is_null() && v.type()->is_object()) {
      auto set = [&](const char* n) {
        std::optional<size_t> i = v.type()->find_attr(n);
        if (!i) return false;
        if (!v.is_known()) return true;
        const Value& a = v.attr(*i);
        return !(a.is_known() && a.is_null());
      };
      if (p.type == "file") {
        if (set("source") && set("content"))
          sourceless(d, "Cannot set both 'source' and 'content'");
        else if (!set("source") && !set("content"))
          sourceless(d, "Must provide one of 'source' or 'content'");
      } else if (p.type == "remote-exec") {
        if (int(set("inline")) + int(set("script")) + int(set("scripts")) != 1)
          sourceless(d, "Invalid remote-exec provisioner configuration",
                     "Only one of \"inline\", \"script\", or \"scripts\" must be set");
      }
    }
    // The connection: its own merged into the resource's, or the resource's.
    if (p.connection) {
      Body cfg = r.connection ? merge_bodies({*r.connection, *p.connection}) : *p.connection;
      evaluate_block(st, mi, r, rep, cfg, connection_spec(), d);
    } else if (r.connection) {
      evaluate_block(st, mi, r, rep, *r.connection, connection_spec(), d);
    }
    if (has_errors(d)) return;
  }
}

// Expands resource [r] of [mi] (its address, without the module's: [address])
// by count or for_each and evaluates the instances; false at an error.
bool eval_resource(EvalState& st, ModInst& mi, const Resource& r, const std::string& address,
                   Diagnostics& out) {
  if (st.inputs.validate) {
    // terraform validate: count and for_each checked, the body evaluated
    // once with unknown instance keys.
    bool ok = true;
    if (r.count) {
      bool unknown = false;
      Diagnostics d;
      if (!eval_count(st, *r.count, mi, d, unknown) && !unknown) ok = false;
      out.insert(out.end(), d.begin(), d.end());
    }
    if (r.for_each && !validate_for_each(st, *r.for_each, mi, out)) ok = false;
    Value idx = Value::unknown(Type::number()), key = Value::unknown(Type::string()),
          val = Value::dynamic();
    Rep rep;
    if (r.count) rep.count_index = &idx;
    if (r.for_each) rep.each_key = &key, rep.each_value = &val;
    Diagnostics d;
    eval_resource_body(st, r, mi, rep, d);
    validate_resource_rules(st, mi, r, rep, d);
    validate_provisioners(st, mi, r, rep, d);
    if (has_errors(d)) ok = false;
    out.insert(out.end(), d.begin(), d.end());
    return ok;
  }
  Expansion x;
  bool ok = true;
  if (r.count) {
    bool unknown = false;
    std::optional<int64_t> n = eval_count(st, *r.count, mi, out, unknown);
    if (!n || !count_instances(st, uint64_t(*n), r.count->expr, out)) {
      x.mode = Expansion::Unknown;
      ok = n ? false : unknown;
    } else {
      x.mode = Expansion::Count;
      for (int64_t i = 0; i < *n; ++i) x.keys.push_back({InstKey::Int, i, ""});
    }
  } else if (r.for_each) {
    bool unknown = false;
    if (!eval_for_each(st, *r.for_each, mi, out, unknown, x)) {
      x.mode = Expansion::Unknown;
      x.keys.clear();
      ok = unknown;
    } else if (!count_instances(st, x.keys.size(), r.for_each->expr, out)) {
      x.mode = Expansion::Unknown;
      x.keys.clear();
      ok = false;
    }
  } else {
    x.keys.push_back({});
  }
  if (ok) {
    std::string base = (mi.addr.empty() ? "" : mi.addr + ".") + address;
    const char* kind = r.mode == ResMode::Managed ? "resource"
                       : r.mode == ResMode::Data  ? "data"
                                                  : "ephemeral";
    // What the instances' bodies share is looked up once.
    std::optional<EvalContext> shared;
    if (x.keys.size() > 1 && r.body_info && !r.body_info->has_errors()) {
      shared.emplace(&st.fn_ctx);
      build_context(st, *r.body_info, mi, Rep{}, *shared, nullptr, RefPart::Shared);
    }
    auto emit = [&](const std::string& key, const Rep& rep) {
      Value v = eval_resource_body(st, r, mi, rep, out, shared ? &*shared : nullptr);
      charge_instance(st, sizeof(Instance) + base.size() + key.size(), r.decl_range);
      st.instances.push_back({base + key, kind, std::move(v)});
    };
    if (x.mode == Expansion::Unknown) {
      Value idx = Value::unknown(Type::number()), k = Value::unknown(Type::string()),
            val = Value::dynamic();
      Rep rep;
      if (r.count) rep.count_index = &idx;
      else rep.each_key = &k, rep.each_value = &val;
      emit("[*]", rep);
    } else {
      for (size_t i = 0; i < x.keys.size(); ++i) {
        Value idx = key_value(x.keys[i]);
        Rep rep;
        if (r.count) rep.count_index = &idx;
        if (r.for_each) rep.each_key = &idx, rep.each_value = &x.each_values[i];
        emit(x.keys[i].str(), rep);
      }
    }
  }
  mi.set_resource(size_t(&r - mi.mod->resources.data()), std::move(x));
  return ok;
}

// Where vertex [v] is declared.
Range vertex_range(const EvalState& st, const Vertex& v) {
  const ModuleData& m = *v.module;
  switch (v.kind) {
    case Vertex::Var:
    case Vertex::Validation:
      return m.variables.at(v.name).decl_range;
    case Vertex::Local:
      return m.locals.at(v.name).decl_range;
    case Vertex::Output:
      return m.outputs.at(v.name).decl_range;
    case Vertex::Call:
      return m.calls.at(v.name).decl_range;
    case Vertex::Resource:
      return m.resources[v.index].decl_range;
    case Vertex::Check:
      return m.checks.at(v.name).decl_range;
    case Vertex::Import:
      return st.root->imports[v.index].to_range;
  }
  return {};
}

// Evaluates vertex [v] for each instance of its module; false when it
// reported errors. A limit of the evaluation met outside the vertex's
// expressions (expanding dynamic blocks, say) is placed at the vertex.
bool eval_vertex(EvalState& st, const Vertex& v);

bool eval_vertex_at(EvalState& st, const Vertex& v) {
  try {
    return eval_vertex(st, v);
  } catch (const util::LimitExceeded&) {
    if (!st.limit_range) st.limit_range = vertex_range(st, v);
    throw;
  }
}

bool eval_vertex(EvalState& st, const Vertex& v) {
  bool ok = true;
  std::vector<ModInst*> insts = st.by_module[v.module];
  for (ModInst* mi : insts) {
    Diagnostics d;
    switch (v.kind) {
      case Vertex::Var: {
        const Variable& var = v.module->variables.at(v.name);
        std::string addr = (mi->addr.empty() ? "" : mi->addr + ".") + "var." + v.name;
        RawValue raw;
        if (mi->parent == nullptr) {
          auto it = st.raw_vars.find(v.name);
          if (it != st.raw_vars.end()) raw = it->second;
        } else {
          const ModuleCall& call = mi->parent->mod->calls.at(mi->call);
          auto it = call.args.find(v.name);
          if (it != call.args.end()) {
            Diagnostics ad;
            raw.value = run(st, *it->second, *mi->parent, mi->rep(), ad);
            raw.source = RawValue::File;
            raw.has_range = true;
            raw.range = it->second->expr.range();
            d.insert(d.end(), ad.begin(), ad.end());
            if (has_errors(ad)) break;
          }
        }
        if (raw.has_range) mi->set_var_range(var.index, raw.range);
        std::optional<Value> val = prepare_final(var, addr, raw, d);
        if (val) mi->set_var(var.index, std::move(*val));
        break;
      }
      case Vertex::Validation: validate_variable(st, *mi, v.name, d); break;
      case Vertex::Local: {
        const Local& l = v.module->locals.at(v.name);
        Value val = run(st, *l.expr, *mi, Rep{}, d);
        bool self = !l.expr->diags.empty() &&
                    l.expr->diags[0].summary == "Self-referencing local value";
        if (!self) mi->set_local(l.index, std::move(val));
        break;
      }
      case Vertex::Output:
        eval_output(st, *mi, v.module->outputs.at(v.name), mi == insts.front(), d);
        break;
      case Vertex::Call: expand_call(st, *mi, v.module->calls.at(v.name), d); break;
      case Vertex::Resource: {
        const Resource& r = v.module->resources[v.index];
        if (st.inputs.evaluate_resources || st.inputs.validate)
          eval_resource(st, *mi, r, v.name, d);
        if (st.inputs.validate && r.mode == ResMode::Managed) {
          // The import blocks that target it.
          std::vector<const ImportBlock*> imps;
          for (const ImportBlock& imp : st.root->imports)
            if (imp.to_parsed && imp.modules == v.module->path && imp.type == r.type &&
                imp.name == r.name)
              imps.push_back(&imp);
          if (!imps.empty()) validate_imports_of(st, st.insts.front(), &r, imps, d);
        }
        break;
      }
      case Vertex::Import:
        if (st.inputs.validate)
          validate_imports_of(st, st.insts.front(), nullptr, {&st.root->imports[v.index]}, d);
        break;
      case Vertex::Check:
        // Only validate looks at check blocks: plans run them, console not.
        if (st.inputs.validate) validate_check(st, *mi, v.module->checks.at(v.name), d);
        break;
    }
    // validate checks depends_on once for the block (the first instance of
    // its module); outputs check theirs in every walk (eval_output).
    if (st.inputs.validate && mi == insts.front()) {
      const Diagnostics* deps =
          v.kind == Vertex::Resource ? &v.module->resources[v.index].depends_on_diags
          : v.kind == Vertex::Call   ? &v.module->calls.at(v.name).depends_on_diags
                                     : nullptr;
      if (deps != nullptr) d.insert(d.end(), deps->begin(), deps->end());
    }
    if (has_errors(d)) ok = false;
    st.diags.insert(st.diags.end(), d.begin(), d.end());
  }
  return ok;
}

// The process's working directory.
std::string working_dir() {
  char buf[PATH_MAX];
  if (getcwd(buf, sizeof buf) == nullptr) return "/";
  return buf;
}

}  // namespace

bool check_import_modules(const ModuleData& root, Diagnostics& diags) {
  bool ok = true;
  for (const ImportBlock& imp : root.imports) {
    bool unknown = false;
    if (!imp.to_parsed || module_at(root, imp.modules, unknown) != nullptr) continue;
    error(diags, "Configuration for import target does not exist",
          "The configuration for the given import target " + imp.config +
              " does not exist. All target instances must have an associated configuration to be "
              "imported.",
          imp.to_range);
    ok = false;
  }
  return ok;
}

const std::shared_ptr<const FunctionTable>& fns_for(const EvalState& st, const ModuleData& m) {
  if (m.builtin_providers.empty()) return st.fns;
  std::shared_ptr<const FunctionTable>& t = st.provider_fns[m.builtin_providers];
  if (!t)
    t = terraform_functions(st.root->fs_dir, st.inputs.confine_files, false, m.builtin_providers);
  return t;
}

const std::string& EvalState::cwd() const {
  std::call_once(cwd_once, [this] { cwd_value = inputs.cwd.empty() ? working_dir() : inputs.cwd; });
  return cwd_value;
}

const EvalContext& console_context(const EvalState& st) {
  std::call_once(st.console_once, [&st] {
    st.console_fns = terraform_functions(st.root->fs_dir, st.inputs.confine_files, true,
                                         st.root->builtin_providers);
    st.console_ctx.set_functions(st.console_fns);
  });
  return st.console_ctx;
}

}  // namespace detail

// --- Evaluation --------------------------------------------------------------------------

using detail::EvalState;

Evaluation::Evaluation() = default;
Evaluation::~Evaluation() = default;
Evaluation::Evaluation(Evaluation&&) noexcept = default;
Evaluation& Evaluation::operator=(Evaluation&&) noexcept = default;

const Diagnostics& Evaluation::diagnostics() const {
  static const Diagnostics none;
  return state_ ? state_->diags : none;
}

const Sources& Evaluation::sources() const {
  static const Sources none;
  return state_ ? state_->var_sources : none;
}

bool Evaluation::stopped() const { return state_ && state_->stopped; }

ModulePtr Evaluation::module() const { return state_ ? state_->module : nullptr; }

Evaluation::WalkStats Evaluation::walk_stats() const {
  WalkStats s;
  if (!state_) return s;
  for (const detail::VertexRun& r : state_->runs)
    ++(r.reused ? s.reused : r.done ? s.evaluated : s.skipped);
  return s;
}

namespace {

// The root module's [decls] (its locals or outputs, in name order) with
// the values [get] finds for them in the root instance (unknown where it
// finds none).
template <class Decls>
std::vector<std::pair<std::string, Value>> root_values(const EvalState& st, const Decls& decls,
                                                       const Value* (detail::ModInst::*get)(size_t)
                                                           const) {
  std::vector<std::pair<std::string, Value>> out;
  if (st.insts.empty()) return out;
  const detail::ModInst& root = st.insts.front();
  for (const auto& [name, d] : decls) {
    const Value* v = (root.*get)(d.index);
    out.emplace_back(name, v ? *v : Value::dynamic());
  }
  return out;
}

// The attribute [name] of the object [obj] (a Packer template's var or
// local object), or [missing].
Value packer_value(const Value& obj, const std::string& name, Value missing) {
  if (obj.type()->is_object())
    if (const Value* v = obj.attr(name)) return *v;
  return missing;
}

}  // namespace

std::vector<std::pair<std::string, Value>> Evaluation::variables() const {
  std::vector<std::pair<std::string, Value>> out;
  if (!state_ || state_->insts.empty()) return out;
  const detail::ModInst& root = state_->insts.front();
  // A Packer template's values are kept as the objects its scope reads.
  bool packer = state_->root->language == Language::Packer;
  for (const auto& [name, v] : state_->root->variables)
    out.emplace_back(name, packer ? packer_value(state_->packer_vars, name, Value::unknown(v.type))
                                  : detail::variable_value(root, name));
  return out;
}

std::vector<std::pair<std::string, Value>> Evaluation::locals() const {
  if (!state_) return {};
  if (state_->root->language == Language::Packer) {
    std::vector<std::pair<std::string, Value>> out;
    if (state_->insts.empty()) return out;
    for (const std::string& n : detail::packer_local_names(*state_->root))
      out.emplace_back(n, packer_value(state_->packer_locals, n, Value::dynamic()));
    return out;
  }
  return root_values(*state_, state_->root->locals, &detail::ModInst::local);
}

std::vector<std::pair<std::string, Value>> Evaluation::outputs() const {
  if (!state_) return {};
  return root_values(*state_, state_->root->outputs, &detail::ModInst::output);
}

Value Evaluation::output(std::string_view name) const {
  for (auto& [n, v] : outputs())
    if (n == name) return v;
  return Value::dynamic();
}

std::vector<Instance> Evaluation::instances() const {
  std::vector<Instance> out;
  if (!state_) return out;
  out = state_->instances;
  // Module instances, with their outputs.
  for (const detail::ModInst& mi : state_->insts) {
    if (mi.parent == nullptr) continue;
    std::vector<std::pair<std::string, Value>> attrs;
    for (const auto& [name, o] : mi.mod->outputs) {
      const Value* v = mi.output(o.index);
      attrs.emplace_back(name, v ? *v : Value::dynamic());
    }
    out.push_back({mi.addr, "module", Value::object(std::move(attrs))});
  }
  std::sort(out.begin(), out.end(),
            [](const Instance& a, const Instance& b) { return a.address < b.address; });
  return out;
}

EvalResult Evaluation::eval(std::string_view text, Vm* vm) const {
  EvalResult r;
  if (!state_) return r;
  const EvalState& st = *state_;
  if (st.module->language() == Language::Packer)
    return detail::packer_console_eval(st, text, vm ? *vm : detail::thread_vm());
  auto src = make_source("<console-input>", std::string(text));
  ExprParse p = parse_expression(src);
  if (p.has_errors() || p.expr == nullptr) {
    r.diagnostics = p.diagnostics;
    r.value = Value::dynamic();
    return r;
  }
  Expression e = Expression::from_parse(std::move(p));
  detail::ExprPtr info = detail::analyze(e, *st.root, detail::ExprScope::Plain);
  if (info->has_errors()) {
    r.diagnostics = info->diags;
    r.value = Value::dynamic();
    return r;
  }
  EvalContext ctx(&detail::console_context(st));
  ctx.set_functions(st.console_fns);
  detail::build_context(st, *info, st.insts.front(), detail::Rep{}, ctx);
  r = e.value(vm ? *vm : detail::thread_vm(), &ctx);
  detail::finish_diags(st, r.diagnostics, ctx, st.console_fns.get(), &e.source());
  r.diagnostics.insert(r.diagnostics.begin(), info->diags.begin(), info->diags.end());
  if (r.has_errors()) return r;
  auto [plain, marks] = r.value.unmark_deep();
  if (marks.has(detail::kTypeTypeMark)) {
    if (plain.type() != type_constraint_type()) {
      Diagnostic d;
      d.summary = "Invalid use of type function";
      d.detail = "The console-only \"type\" function cannot be used as part of an expression.";
      r.diagnostics.push_back(std::move(d));
      return r;
    }
    r.value = plain;
  }
  return r;
}

namespace {

// The version constraint errors of [m] and its children (validate).
void check_core_versions(const detail::ModuleData& m, const std::string& source, Diagnostics& out) {
  for (const auto& [text, range] : m.core_versions) {
    if (text.find('-') != std::string::npos) {
      Diagnostic d;
      d.summary = "Invalid required_version constraint";
      d.detail = "Prerelease version constraints are not supported: " + text +
                 ". Remove the prerelease information from the constraint. Prerelease versions "
                 "of terraform will match constraints using their version core only.";
      d.subject = range;
      out.push_back(std::move(d));
      continue;
    }
    if (detail::version_satisfies(text, 1, 11, 4)) continue;
    Diagnostic d;
    d.summary = "Unsupported Terraform Core version";
    std::string tail =
        "To proceed, either choose another supported Terraform version or update this version "
        "constraint. Version constraints are normally set for good reason, so updating the "
        "constraint may lead to other errors or unexpected behavior.";
    if (m.path.empty()) {
      d.detail = "This configuration does not support Terraform version 1.11.4. " + tail;
    } else {
      std::string addr;
      for (const std::string& p : m.path) addr += (addr.empty() ? "module." : ".module.") + p;
      d.detail = "Module " + addr + " (from " + source +
                 ") does not support Terraform version 1.11.4. " + tail;
    }
    d.subject = range;
    out.push_back(std::move(d));
  }
  for (const auto& [name, c] : m.calls)
    if (c.child) check_core_versions(*c.child, c.source, out);
}

}  // namespace

Diagnostics validate(const ModulePtr& module) {
  Diagnostics out;
  if (module->language() == Language::Terraform) check_core_versions(module->data(), "", out);
  if (has_errors(out)) return out;
  // terraform.NewContext: every provisioner a managed resource uses must be
  // available (the built-in ones are): an error for each use, sorted.
  if (module->language() == Language::Terraform) {
    Diagnostics missing;
    std::function<void(const detail::ModuleData&)> each = [&](const detail::ModuleData& m) {
      for (const detail::Resource& r : m.resources)
        for (const detail::Provisioner& p : r.provisioners)
          if (detail::provisioner_spec(p.type) == nullptr)
            detail::sourceless(
                missing, "Missing required provisioner plugin",
                "This configuration requires provisioner plugin " + uni::go_quote(p.type) +
                    ", which isn't available. If you're intending to use an external provisioner "
                    "plugin, you must install it manually into one of the plugin search "
                    "directories before running Terraform.");
      for (const auto& [name, c] : m.calls)
        if (c.child) each(*c.child);
    };
    each(module->data());
    if (!missing.empty()) {
      std::sort(missing.begin(), missing.end(),
                [](const Diagnostic& a, const Diagnostic& b) { return a.detail < b.detail; });
      out.insert(out.end(), missing.begin(), missing.end());
      return out;
    }
  }
  // Building the graph: an import block's module must exist.
  if (!detail::check_import_modules(module->data(), out)) return out;
  Inputs in;
  in.validate = true;
  in.auto_var_files = false;
  in.evaluate_resources = true;
  Evaluation ev = evaluate(module, in);
  out.insert(out.end(), ev.diagnostics().begin(), ev.diagnostics().end());
  // The test files read with the module, checked against it.
  if (!module->data().tests.empty()) detail::validate_tests(module->data(), out);
  return out;
}

namespace detail {

// The walk of evaluate(): the root variables, then every vertex in order.
void walk(EvalState& st, const Inputs& inputs) {
  if (st.module->language() == Language::Packer) {
    evaluate_packer(*st.module, inputs, *st.vm, st);
    return;
  }
  st.fns = terraform_functions(st.root->fs_dir, inputs.confine_files, false);
  st.fn_ctx.set_functions(st.fns);

  st.insts.emplace_back();
  ModInst& root = st.insts.back();
  root.mod = st.root;
  st.by_module[st.root].push_back(&root);

  collect_root_variables(st);
  if (st.stopped) return;
  if (!st.root->graph_diags.empty()) {
    st.diags.insert(st.diags.end(), st.root->graph_diags.begin(), st.root->graph_diags.end());
    if (has_errors(st.root->graph_diags)) {
      st.stopped = true;
      return;
    }
  }

  // The walk: a vertex whose dependencies failed is not evaluated. What
  // each vertex did is kept; with a previous evaluation to reuse, a vertex
  // whose inputs are as they were there takes its results from there
  // (reuse.cpp), and [changed] says which vertices did not come out as
  // they did there.
  const auto& order = st.root->plan->order;
  const auto& deps = st.root->plan->deps;
  const EvalState* prev = st.previous && reusable(st, *st.previous) ? st.previous : nullptr;
  st.runs.assign(order.size(), VertexRun{});
  std::vector<bool> changed(order.size(), true);
  // Whether anything depends on each vertex: only then does it matter
  // whether it came out as before.
  std::vector<bool> needed(prev ? order.size() : 0, false);
  if (prev)
    for (const std::vector<size_t>& ds : deps)
      for (size_t d : ds) needed[d] = true;
  util::Budget* budget = util::current_budget();
  for (size_t i = 0; i < order.size(); ++i) {
    VertexRun& run = st.runs[i];
    bool skip = false;
    for (size_t d : deps[i]) skip |= st.runs[d].failed;
    if (skip) {
      run.failed = true;
      changed[i] = !prev || prev->runs[i].done;
      continue;
    }
    util::poll();
    // A vertex whose steps would go over the limit is evaluated instead, so
    // that the limit is met where an evaluation afresh meets it.
    if (prev && can_reuse(st, *prev, i, changed) &&
        (budget == nullptr || prev->runs[i].steps <= budget->steps_left())) {
      try {
        replay(st, *prev, i);
      } catch (const util::LimitExceeded&) {
        if (!st.limit_range) st.limit_range = vertex_range(st, order[i]);
        throw;
      }
      changed[i] = false;
      continue;
    }
    run.diags_begin = st.diags.size();
    run.instances_begin = st.instances.size();
    uint64_t steps = budget ? budget->steps_used() : 0;
    st.reads = 0;
    util::ReadLog log;
    {
      util::ReadLogScope scope(&log);
      run.failed = !eval_vertex_at(st, order[i]);
    }
    run.done = true;
    run.unrepeatable = log.is_unrepeatable();
    VertexRun::Read read{log.take_files(), log.take_places()};
    if (!read.files.empty() || !read.places.empty())
      run.read = std::make_shared<const VertexRun::Read>(std::move(read));
    run.reads = st.reads;
    run.steps = budget ? budget->steps_used() - steps : 0;
    run.diags_end = st.diags.size();
    run.instances_end = st.instances.size();
    changed[i] = !prev || !needed[i] || !same_result(st, *prev, i);
  }
}

}  // namespace detail

// evaluate(), reusing [previous]'s runs when given.
Evaluation evaluate_with(const ModulePtr& module, const Inputs& inputs, Vm* vm,
                         const Evaluation* previous) {
  Evaluation ev;
  ev.state_ = std::make_unique<EvalState>();
  EvalState& st = *ev.state_;
  st.module = module;
  st.root = &module->data();
  st.inputs = inputs;
  st.vm = vm ? vm : &detail::thread_vm();
  st.limits = st.vm->limits();
  if (previous != nullptr && previous->state_ && previous->state_->module == module)
    st.previous = previous->state_.get();
  struct Forget {
    EvalState& st;
    ~Forget() { st.previous = nullptr; }
  } forget{st};
  // The evaluation as a whole is held to the Vm's limits, as one run is:
  // its runs count against one budget and one deadline, and each instance
  // of a count or for_each is a step. Exceeding a limit ends it with that
  // one error. (Inside another run, it counts against that run's budget.)
  util::Budget* outer = util::current_budget();
  if (outer != nullptr) {
    detail::walk(st, inputs);
    return ev;
  }
  const Limits& limits = st.vm->limits();
  std::optional<util::Budget> budget;
  struct Restore {
    ~Restore() { util::set_current_budget(nullptr); }
  } restore;
  try {
    budget.emplace(limits, util::Budget::Host{});
    util::set_current_budget(&*budget);
    detail::walk(st, inputs);
  } catch (const util::LimitExceeded& e) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.summary = std::string(limit_summary(e.limit));
    d.detail = limit_detail(e.limit, limits);
    if (st.limit_range) d.subject = *st.limit_range;
    st.diags.push_back(std::move(d));
    st.stopped = true;
  }
  return ev;
}

Evaluation evaluate(const ModulePtr& module, const Inputs& inputs, Vm* vm) {
  return evaluate_with(module, inputs, vm, nullptr);
}

Evaluation reevaluate(const Evaluation& previous, const Inputs& inputs, Vm* vm) {
  if (!previous.state_) return Evaluation();
  return evaluate_with(previous.state_->module, inputs, vm, &previous);
}

}  // namespace hclvm::config

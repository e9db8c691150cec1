// Reusing an earlier evaluation of the same module (reevaluate). A vertex
// of the walk is a deterministic function of the values of the vertices
// it depends on, of the few inputs it reads directly (terraform.workspace,
// path.cwd, the resource values given), of the functions it calls and of
// the limits on single values. So when the vertices it depends on came out
// as they did in the earlier walk (their values identical: numbers to the
// last bit, marks and refinements included), it read nothing that
// changed, its module has the same instances, and it called no function
// that is impure or reads outside its arguments (file, templatefile,
// timestamp...), evaluating it again would make the same changes: the
// earlier walk's are made instead (replay), diagnostics and instances
// included. A vertex evaluated again that comes out as before
// (same_result) lets its dependents be reused in turn. The root module's
// variables are always evaluated again (their values come from the
// inputs).
#include <type_traits>
#include <utility>

#include "config/eval.h"
#include "util/budget.h"
#include "value/ops.h"

namespace hclvm::config::detail {

namespace {

const std::vector<ModInst*>& instances_of(const EvalState& st, const ModuleData* m) {
  static const std::vector<ModInst*> none;
  auto it = st.by_module.find(m);
  return it == st.by_module.end() ? none : it->second;
}

// Whether [m] has the same instances (by address, in order) in [st] and
// [prev].
bool same_instances(const EvalState& st, const EvalState& prev, const ModuleData* m) {
  const std::vector<ModInst*>& a = instances_of(st, m);
  const std::vector<ModInst*>& b = instances_of(prev, m);
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k]->addr != b[k]->addr) return false;
  return true;
}

// Whether two entries (null: absent) are the same: values identical.
template <class T>
bool same_slot(const T* x, const T* y) {
  if (x == nullptr || y == nullptr) return x == y;
  if constexpr (std::is_same_v<T, Value>)
    return ops::identical(*x, *y);
  else
    return *x == *y;
}

// The entry [name] of [map], or null.
template <class Map>
const typename Map::mapped_type* find_entry(const Map& map, const std::string& name) {
  auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}

bool same_expansion(const Expansion* x, const Expansion* y) {
  if (x == nullptr || y == nullptr) return x == y;
  const Expansion& p = *x;
  const Expansion& q = *y;
  if (p.mode != q.mode || p.keys.size() != q.keys.size() ||
      p.each_values.size() != q.each_values.size())
    return false;
  for (size_t k = 0; k < p.keys.size(); ++k)
    if (p.keys[k].kind != q.keys[k].kind || p.keys[k].i != q.keys[k].i ||
        p.keys[k].s != q.keys[k].s)
      return false;
  for (size_t k = 0; k < p.each_values.size(); ++k)
    if (!ops::identical(p.each_values[k], q.each_values[k])) return false;
  return true;
}

bool same_resources(const std::map<std::string, Value>& a, const std::map<std::string, Value>& b) {
  if (a.size() != b.size()) return false;
  for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
    if (x->first != y->first || !ops::identical(x->second, y->second)) return false;
  return true;
}

}  // namespace

bool reusable(const EvalState& st, const EvalState& prev) {
  const Inputs& a = st.inputs;
  const Inputs& b = prev.inputs;
  return !prev.stopped && prev.module == st.module &&
         prev.runs.size() == st.root->plan->order.size() && a.validate == b.validate &&
         a.evaluate_resources == b.evaluate_resources && a.confine_files == b.confine_files &&
         st.limits.max_string_bytes == prev.limits.max_string_bytes &&
         st.limits.max_collection_size == prev.limits.max_collection_size &&
         st.limits.max_depth == prev.limits.max_depth;
}

bool can_reuse(const EvalState& st, const EvalState& prev, size_t i,
               const std::vector<bool>& changed) {
  const VertexRun& p = prev.runs[i];
  const Vertex& v = st.root->plan->order[i];
  // A root variable's value comes from the inputs; a child's from its
  // call's argument, which its dependencies cover.
  if (!p.done || p.unrepeatable || (v.kind == Vertex::Var && v.module == st.root)) return false;
  for (size_t d : st.root->plan->deps[i])
    if (changed[d]) return false;
  if ((p.reads & VertexRun::Workspace) && st.inputs.workspace != prev.inputs.workspace)
    return false;
  if ((p.reads & VertexRun::Cwd) && st.cwd() != prev.cwd()) return false;
  if ((p.reads & VertexRun::Resources) &&
      !same_resources(st.inputs.resources, prev.inputs.resources))
    return false;
  if (!same_instances(st, prev, v.module)) return false;
  if (!p.read) return true;
  for (const util::FileStamp& f : p.read->files) {
    auto [it, fresh] = st.stamps_now.try_emplace(f.path);
    if (fresh) it->second = util::FileStamp::of(f.path);
    if (!(it->second == f)) return false;
  }
  for (const util::Place& place : p.read->places) {
    auto [it, fresh] = st.places_now.try_emplace(place.dir);
    if (fresh) it->second = place.locate(place.dir);
    if (it->second != place.where) return false;
  }
  return true;
}

void replay(EvalState& st, const EvalState& prev, size_t i) {
  const VertexRun& p = prev.runs[i];
  if (p.steps != 0) util::charge_steps(p.steps);
  VertexRun& r = st.runs[i];
  r = p;
  r.reused = true;
  r.diags_begin = st.diags.size();
  st.diags.insert(st.diags.end(), prev.diags.begin() + ptrdiff_t(p.diags_begin),
                  prev.diags.begin() + ptrdiff_t(p.diags_end));
  r.diags_end = st.diags.size();
  r.instances_begin = st.instances.size();
  st.instances.insert(st.instances.end(), prev.instances.begin() + ptrdiff_t(p.instances_begin),
                      prev.instances.begin() + ptrdiff_t(p.instances_end));
  r.instances_end = st.instances.size();

  const Vertex& v = st.root->plan->order[i];
  // (Copied: a call's replay adds instances of other modules.)
  const std::vector<ModInst*> mine = instances_of(st, v.module);
  const std::vector<ModInst*>& theirs = instances_of(prev, v.module);
  for (size_t k = 0; k < mine.size(); ++k) {
    ModInst& mi = *mine[k];
    const ModInst& pm = *theirs[k];
    switch (v.kind) {
      case Vertex::Local:
        if (const Value* x = pm.local(v.index)) mi.set_local(v.index, *x);
        break;
      case Vertex::Output:
        if (const Value* x = pm.output(v.index)) mi.set_output(v.index, *x);
        break;
      case Vertex::Call:
        if (auto it = pm.calls.find(v.name); it != pm.calls.end())
          add_call_instances(st, mi, v.module->calls.at(v.name), it->second);
        break;
      case Vertex::Resource:
        if (const Expansion* x = pm.resource(v.index)) mi.set_resource(v.index, *x);
        break;
      case Vertex::Var:
        if (const Value* x = pm.var(v.index)) mi.set_var(v.index, *x);
        if (const Range* x = pm.var_range(v.index)) mi.set_var_range(v.index, *x);
        break;
      case Vertex::Validation:
      case Vertex::Check:
      case Vertex::Import:
        break;
    }
  }
}

bool same_result(const EvalState& st, const EvalState& prev, size_t i) {
  const VertexRun& a = st.runs[i];
  const VertexRun& b = prev.runs[i];
  if (!b.done || a.failed != b.failed) return false;
  const Vertex& v = st.root->plan->order[i];
  if (!same_instances(st, prev, v.module)) return false;
  const std::vector<ModInst*>& mine = instances_of(st, v.module);
  const std::vector<ModInst*>& theirs = instances_of(prev, v.module);
  for (size_t k = 0; k < mine.size(); ++k) {
    const ModInst& mi = *mine[k];
    const ModInst& pm = *theirs[k];
    switch (v.kind) {
      case Vertex::Var:
        if (!same_slot(mi.var(v.index), pm.var(v.index)) ||
            !same_slot(mi.var_range(v.index), pm.var_range(v.index)))
          return false;
        break;
      case Vertex::Local:
        if (!same_slot(mi.local(v.index), pm.local(v.index))) return false;
        break;
      case Vertex::Output:
        if (!same_slot(mi.output(v.index), pm.output(v.index))) return false;
        break;
      case Vertex::Call:
        if (!same_expansion(find_entry(mi.calls, v.name), find_entry(pm.calls, v.name)))
          return false;
        break;
      case Vertex::Resource:
        if (!same_expansion(mi.resource(v.index), pm.resource(v.index))) return false;
        break;
      case Vertex::Validation:
      case Vertex::Check:
      case Vertex::Import:
        break;
    }
  }
  if (a.instances_end - a.instances_begin != b.instances_end - b.instances_begin) return false;
  for (size_t k = 0; k < a.instances_end - a.instances_begin; ++k) {
    const Instance& x = st.instances[a.instances_begin + k];
    const Instance& y = prev.instances[b.instances_begin + k];
    if (x.address != y.address || x.kind != y.kind || !ops::identical(x.value, y.value))
      return false;
  }
  return true;
}

}  // namespace hclvm::config::detail

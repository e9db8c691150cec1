// The graph of named values of a module tree, as Terraform's eval walk
// builds it (internal/terraform graph_builder_eval.go and its
// transformers): a vertex per variable (root: "var.x", in a child module
// "module.m.var.x (expand)"), per variable with validation rules ("var.x
// (validation)", which counts as the variable for whoever refers to it),
// per local ("local.a (expand)"), output ("output.o (expand)"), module
// call expansion ("module.m (expand)") and resource ("aws_vpc.this"), and
// an edge from each vertex to every vertex its expressions refer to (a
// child module's vertices also depend on its call's expansion, and a
// child's variables on the argument expressions in the caller). Strongly
// connected components are Terraform's "Cycle: ..." errors; otherwise the
// vertices in dependency order are the order a walk evaluates them in.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string_view>
#include <unordered_map>

#include "config/internal.h"

namespace hclvm::config::detail {

namespace {

// The prefix of vertex labels in module [m]: "" or "module.a.module.b.".
std::string prefix(const ModuleData& m) {
  std::string s;
  for (const std::string& p : m.path) s += "module." + p + ".";
  return s;
}

// What a vertex is found by: its module, what it is, and its name (a
// resource's type and name), viewing strings the module tree holds.
struct Key {
  enum Kind : uint8_t { Var, Valid, Local, Output, Call, Managed, Data, Ephemeral, Check };
  const ModuleData* module;
  Kind kind;
  std::string_view type, name;  // type: a resource's
  friend bool operator==(const Key&, const Key&) = default;
};

struct KeyHash {
  size_t operator()(const Key& k) const {
    size_t h = std::hash<const void*>()(k.module) ^ (size_t(k.kind) * 0x9e3779b97f4a7c15ULL);
    h ^= std::hash<std::string_view>()(k.name) + 0x9e3779b9 + (h << 6) + (h >> 2);
    return h ^ std::hash<std::string_view>()(k.type);
  }
};

Key::Kind resource_kind(ResMode mode) {
  return mode == ResMode::Data        ? Key::Data
         : mode == ResMode::Ephemeral ? Key::Ephemeral
                                      : Key::Managed;
}

// Terraform's name of vertex [x], as its cycle errors show it.
std::string label(const Vertex& x) {
  const ModuleData& m = *x.module;
  std::string expand = m.path.empty() ? "" : " (expand)";
  switch (x.kind) {
    case Vertex::Var:
      return prefix(m) + "var." + x.name + expand;
    case Vertex::Validation:
      return prefix(m) + "var." + x.name + " (validation)";
    case Vertex::Local:
      return prefix(m) + "local." + x.name + " (expand)";
    case Vertex::Output:
      return prefix(m) + "output." + x.name + " (expand)";
    case Vertex::Call:
      return prefix(m) + "module." + x.name + " (expand)";
    case Vertex::Check:
      return prefix(m) + "check." + x.name + " (assertions)";
    case Vertex::Resource:
    case Vertex::Import:
      break;
  }
  return prefix(m) + x.name;
}

struct Builder {
  const ModuleData* root = nullptr;
  std::vector<Vertex> vertices;
  std::vector<std::vector<size_t>> deps;  // vertex -> vertices it depends on
  std::unordered_map<Key, size_t, KeyHash> index;

  size_t add(Vertex v, Key k) {
    size_t i = vertices.size();
    index.emplace(k, i);
    vertices.push_back(std::move(v));
    deps.emplace_back();
    return i;
  }
  std::optional<size_t> find(const ModuleData* m, Key::Kind kind, std::string_view name,
                             std::string_view type = {}) const {
    auto it = index.find(Key{m, kind, type, name});
    if (it == index.end()) return std::nullopt;
    return it->second;
  }

  // Adds the vertices of [m] and its children; [call] is the expansion
  // vertex of the call that made [m] (none for the root).
  void add_module(const ModuleData& m, std::optional<size_t> call) {
    std::vector<size_t> mine;
    for (const auto& [name, v] : m.variables) {
      mine.push_back(add({Vertex::Var, &m, name, v.index}, {&m, Key::Var, {}, name}));
      if (!v.validations.empty())
        mine.push_back(add({Vertex::Validation, &m, name, v.index}, {&m, Key::Valid, {}, name}));
    }
    for (const auto& [name, l] : m.locals)
      mine.push_back(add({Vertex::Local, &m, name, l.index}, {&m, Key::Local, {}, name}));
    for (const auto& [name, o] : m.outputs)
      mine.push_back(add({Vertex::Output, &m, name, o.index}, {&m, Key::Output, {}, name}));
    for (const auto& [name, c] : m.calls)
      mine.push_back(add({Vertex::Call, &m, name, 0}, {&m, Key::Call, {}, name}));
    for (const auto& [name, c] : m.checks)
      mine.push_back(add({Vertex::Check, &m, name, 0}, {&m, Key::Check, {}, name}));
    for (size_t i = 0; i < m.resources.size(); ++i) {
      const Resource& r = m.resources[i];
      mine.push_back(
          add({Vertex::Resource, &m, r.address(), i}, {&m, resource_kind(r.mode), r.type, r.name}));
    }
    if (call)
      for (size_t v : mine) deps[v].push_back(*call);
    for (const auto& [name, c] : m.calls)
      if (c.child) add_module(*c.child, find(&m, Key::Call, name));
  }

  // Adds a vertex for each import block of the root whose target no
  // resource block declares, in the module that would hold it
  // (ConfigTransformer).
  void add_imports() {
    for (size_t i = 0; i < root->imports.size(); ++i) {
      const ImportBlock& imp = root->imports[i];
      bool unknown = false;
      const ModuleData* m = imp.to_parsed ? module_at(*root, imp.modules, unknown) : nullptr;
      if (m == nullptr || unknown || m->resource(ResMode::Managed, imp.type, imp.name)) continue;
      size_t v = add({Vertex::Import, m, imp.config.substr(prefix(*m).size()), i},
                     {m, Key::Managed, imp.type, imp.name});
      if (auto c = module_vertex(*m)) deps[v].push_back(*c);
    }
  }
  // The expansion vertex of the call that made [m] (none for the root).
  std::optional<size_t> module_vertex(const ModuleData& m) const {
    const ModuleData* parent = parent_of(m);
    if (parent == nullptr || m.path.empty()) return std::nullopt;
    return find(parent, Key::Call, m.path.back());
  }

  // Adds to [out] the vertices reference [r] made in [m] depends on.
  void targets(const Ref& r, const ModuleData& m, std::vector<size_t>& out) const {
    auto push = [&](Key::Kind kind, std::string_view name, std::string_view type = {}) {
      if (auto v = find(&m, kind, name, type)) out.push_back(*v);
    };
    switch (r.kind) {
      case Ref::Var:
        push(Key::Var, r.name);
        push(Key::Valid, r.name);
        break;
      case Ref::Local:
        push(Key::Local, r.name);
        break;
      case Ref::Module: {
        push(Key::Call, r.name);
        auto it = m.calls.find(r.name);
        if (it == m.calls.end() || !it->second.child) break;
        const ModuleData& child = *it->second.child;
        for (const auto& [oname, o] : child.outputs) {
          if (r.output && *r.output != oname) continue;
          if (auto v = find(&child, Key::Output, oname)) out.push_back(*v);
        }
        break;
      }
      case Ref::Resource:
        push(resource_kind(r.mode), r.name, r.type);
        break;
      default: break;
    }
  }

  // Adds edges from [v] to what [e] (an expression of [m]) refers to.
  void depend(size_t v, const ExprPtr& e, const ModuleData& m) {
    if (!e) return;
    std::vector<size_t> t;
    for (const Ref& r : e->refs) targets(r, m, t);
    for (size_t x : t)
      if (x != v) deps[v].push_back(x);
  }

  void add_edges() {
    for (size_t v = 0; v < vertices.size(); ++v) {
      const Vertex& x = vertices[v];
      const ModuleData& m = *x.module;
      switch (x.kind) {
        case Vertex::Var: {
          if (m.path.empty()) break;
          // The argument lives in the caller.
          const ModuleData* parent = parent_of(m);
          if (parent == nullptr) break;
          const ModuleCall& call = parent->calls.at(m.path.back());
          if (auto it = call.args.find(x.name); it != call.args.end()) depend(v, it->second, *parent);
          break;
        }
        case Vertex::Validation: {
          if (auto var = find(&m, Key::Var, x.name)) deps[v].push_back(*var);
          for (const CheckRule& r : m.variables.at(x.name).validations) {
            depend_filtered(v, r.condition, m, x.name);
            depend_filtered(v, r.error_message, m, x.name);
          }
          break;
        }
        case Vertex::Local: depend(v, m.locals.at(x.name).expr, m); break;
        case Vertex::Output: {
          const Output& o = m.outputs.at(x.name);
          depend(v, o.value, m);
          for (const CheckRule& r : o.preconditions) {
            depend(v, r.condition, m);
            depend(v, r.error_message, m);
          }
          for (const ExprPtr& d : o.depends_on) depend(v, d, m);
          break;
        }
        case Vertex::Call: {
          const ModuleCall& c = m.calls.at(x.name);
          depend(v, c.count, m);
          depend(v, c.for_each, m);
          for (const ExprPtr& d : c.depends_on) depend(v, d, m);
          break;
        }
        case Vertex::Check:
          for (const CheckRule& r : m.checks.at(x.name).asserts) {
            depend(v, r.condition, m);
            depend(v, r.error_message, m);
          }
          break;
        case Vertex::Resource: {
          const Resource& r = m.resources[x.index];
          depend(v, r.count, m);
          depend(v, r.for_each, m);
          depend(v, r.body_info, m);
          for (const ExprPtr& d : r.depends_on) depend(v, d, m);
          for (const ExprPtr& e : r.edges) depend(v, e, m);
          // The import blocks targeting it (ImportReferences): root module
          // expressions.
          for (const ImportBlock& imp : root->imports) {
            if (!imp.to_parsed || imp.modules != m.path || imp.type != r.type ||
                imp.name != r.name || r.mode != ResMode::Managed)
              continue;
            depend(v, imp.id, *root);
            depend(v, imp.for_each_expr, *root);
          }
          break;
        }
        case Vertex::Import: {
          const ImportBlock& imp = root->imports[x.index];
          depend(v, imp.id, *root);
          depend(v, imp.for_each_expr, *root);
          break;
        }
      }
    }
  }

  // A validation's references, without its own variable.
  void depend_filtered(size_t v, const ExprPtr& e, const ModuleData& m, const std::string& self) {
    if (!e) return;
    std::vector<size_t> t;
    for (const Ref& r : e->refs) {
      if (r.kind == Ref::Var && r.name == self) continue;
      targets(r, m, t);
    }
    for (size_t x : t)
      if (x != v) deps[v].push_back(x);
  }

  std::map<const ModuleData*, const ModuleData*> parents;
  const ModuleData* parent_of(const ModuleData& m) const {
    auto it = parents.find(&m);
    return it == parents.end() ? nullptr : it->second;
  }
  void index_parents(const ModuleData& m) {
    for (const auto& [name, c] : m.calls) {
      if (!c.child) continue;
      parents[c.child.get()] = &m;
      index_parents(*c.child);
    }
  }
};

}  // namespace

const ModuleData* module_at(const ModuleData& root, const std::vector<std::string>& path,
                            bool& unknown) {
  const ModuleData* m = &root;
  unknown = false;
  for (const std::string& call : path) {
    auto it = m->calls.find(call);
    if (it == m->calls.end()) return nullptr;
    if (!it->second.child) {
      unknown = true;
      return m;
    }
    m = it->second.child.get();
  }
  return m;
}

std::shared_ptr<const ModuleData::Plan> build_plan(const ModuleData& root, Diagnostics& diags) {
  Builder b;
  b.root = &root;
  b.index_parents(root);
  b.add_module(root, std::nullopt);
  b.add_imports();
  b.add_edges();
  size_t n = b.vertices.size();
  for (auto& d : b.deps) {
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }

  // Tarjan's strongly connected components (iterative).
  std::vector<int> idx(n, -1), low(n, 0);
  std::vector<bool> on(n, false);
  std::vector<size_t> stack;
  std::vector<std::vector<size_t>> sccs;
  int counter = 0;
  for (size_t s = 0; s < n; ++s) {
    if (idx[s] != -1) continue;
    std::vector<std::pair<size_t, size_t>> work{{s, 0}};
    while (!work.empty()) {
      auto& [v, i] = work.back();
      if (i == 0) {
        idx[v] = low[v] = counter++;
        stack.push_back(v);
        on[v] = true;
      }
      if (i < b.deps[v].size()) {
        size_t w = b.deps[v][i++];
        if (idx[w] == -1) {
          work.push_back({w, 0});
        } else if (on[w]) {
          low[v] = std::min(low[v], idx[w]);
        }
        continue;
      }
      if (low[v] == idx[v]) {
        std::vector<size_t> comp;
        size_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on[w] = false;
          comp.push_back(w);
        } while (w != v);
        if (comp.size() > 1) sccs.push_back(std::move(comp));
      }
      size_t done = v;
      work.pop_back();
      if (!work.empty()) {
        size_t parent = work.back().first;
        low[parent] = std::min(low[parent], low[done]);
      }
    }
  }
  std::vector<bool> cyclic(n, false);
  for (const auto& comp : sccs) {
    std::string text = "Cycle: ";
    for (size_t k = 0; k < comp.size(); ++k) {
      text += (k ? ", " : "") + label(b.vertices[comp[k]]);
      cyclic[comp[k]] = true;
    }
    Diagnostic d;
    d.summary = text;
    diags.push_back(std::move(d));
  }

  // Dependency order: depth first from each vertex in declaration order.
  auto plan = std::make_shared<ModuleData::Plan>();
  std::vector<size_t> position(n, SIZE_MAX);
  std::vector<int> state(n, 0);
  for (size_t s = 0; s < n; ++s) {
    if (state[s] != 0 || cyclic[s]) continue;
    std::vector<std::pair<size_t, size_t>> work{{s, 0}};
    state[s] = 1;
    while (!work.empty()) {
      auto& [v, i] = work.back();
      if (i < b.deps[v].size()) {
        size_t w = b.deps[v][i++];
        if (state[w] == 0 && !cyclic[w]) {
          state[w] = 1;
          work.push_back({w, 0});
        }
        continue;
      }
      state[v] = 2;
      position[v] = plan->order.size();
      plan->order.push_back(b.vertices[v]);
      std::vector<size_t> d;
      for (size_t w : b.deps[v])
        if (position[w] != SIZE_MAX) d.push_back(position[w]);
      plan->deps.push_back(std::move(d));
      work.pop_back();
    }
  }
  return plan;
}

}  // namespace hclvm::config::detail

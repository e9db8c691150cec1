// EvalContext (eval.h): variables and the function table, looked up from a
// context through its parents as hcl.EvalContext does, and the stamps that
// tell a Vm whether its cached look-ups are still good.
#include <hclvm/eval.h>

#include <algorithm>
#include <atomic>

#include "value/json.h"

namespace hclvm {

namespace {

std::atomic<uint64_t> g_next_stamp{1};

// A stamp no context has had before.
uint64_t new_stamp() { return g_next_stamp.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

EvalContext::EvalContext() : stamp_(new_stamp()) {}

EvalContext::EvalContext(const EvalContext* parent) : parent_(parent), stamp_(new_stamp()) {}

EvalContext::EvalContext(const EvalContext& other)
    : parent_(other.parent_),
      stamp_(new_stamp()),
      variables_allowed_(other.variables_allowed_),
      vars_(other.vars_),
      fns_(other.fns_) {}

EvalContext& EvalContext::operator=(const EvalContext& other) {
  parent_ = other.parent_;
  variables_allowed_ = other.variables_allowed_;
  vars_ = other.vars_;
  fns_ = other.fns_;
  stamp_ = new_stamp();
  return *this;
}

void EvalContext::set_variables_allowed(bool allowed) {
  variables_allowed_ = allowed;
  stamp_ = new_stamp();
}

namespace {

// The first variable of [vars] not before [name].
auto position(const EvalContext::Variables& vars, std::string_view name) {
  return std::lower_bound(vars.begin(), vars.end(), name,
                          [](const auto& kv, std::string_view n) { return kv.first < n; });
}

}  // namespace

void EvalContext::set(std::string name, Value v) {
  auto it = position(vars_, name);
  if (it != vars_.end() && it->first == name)
    vars_[size_t(it - vars_.begin())].second = std::move(v);
  else
    vars_.emplace(it, std::move(name), std::move(v));
  stamp_ = new_stamp();
}

void EvalContext::set_functions(std::shared_ptr<const FunctionTable> fns) {
  fns_ = std::move(fns);
  stamp_ = new_stamp();
}

const Value* EvalContext::lookup(std::string_view name) const {
  for (const EvalContext* c = this; c != nullptr; c = c->parent_) {
    if (!c->variables_allowed_) continue;
    auto it = position(c->vars_, name);
    if (it != c->vars_.end() && it->first == name) return &it->second;
  }
  return nullptr;
}

const FunctionTable* EvalContext::functions() const {
  for (const EvalContext* c = this; c != nullptr; c = c->parent_)
    if (c->fns_) return c->fns_.get();
  return nullptr;
}

std::string set_variables_from_json(EvalContext& ctx, std::string_view json) {
  JsonResult<const Type*> ty = implied_type(json);
  if (!ty.ok()) return ty.error->message;
  if (!ty.value->is_object()) return "top level must be a JSON object";
  JsonResult<Value> val = from_json(json, ty.value);
  if (!val.ok()) return val.error->message;
  for (size_t i = 0; i < ty.value->size(); ++i)
    ctx.set(std::string(ty.value->attr_name(i)), val.value.attr(i));
  return {};
}

}  // namespace hclvm

// EvalContext (eval.h): variables and the function table, looked up from a
// context through its parents as hcl.EvalContext does.
#include <hclvm/eval.h>

namespace hclvm {

void EvalContext::set(std::string name, Value v) { vars_[std::move(name)] = std::move(v); }

const Value* EvalContext::lookup(std::string_view name) const {
  for (const EvalContext* c = this; c != nullptr; c = c->parent_) {
    auto it = c->vars_.find(name);
    if (it != c->vars_.end()) return &it->second;
  }
  return nullptr;
}

const FunctionTable* EvalContext::functions() const {
  for (const EvalContext* c = this; c != nullptr; c = c->parent_)
    if (c->fns_) return c->fns_.get();
  return nullptr;
}

}  // namespace hclvm

// The C API of modules (hclvm_module_*, hclvm_evaluation_*): thin handles
// over hclvm/config.h. A module is shared (immutable), inputs are the C++
// Inputs, an evaluation owns the C++ Evaluation and the diagnostics handle
// it lends out.
#include <memory>

#include "capi/capi.h"

struct hclvm_module {
  hclvm::config::ModulePtr module;
  std::shared_ptr<const hclvm::config::Sources> sources;
};

struct hclvm_module_inputs {
  hclvm::config::Inputs in;
};

struct hclvm_evaluation {
  hclvm::config::Evaluation ev;
  hclvm_diagnostics diags;
};

using namespace hclvm;
using namespace hclvm::capi;

namespace {

// Gives [diags] of a module (read from [sources]) to [*out] when it is not null.
void give_module_diagnostics(hclvm_diagnostics** out, Diagnostics diags,
                             std::shared_ptr<const config::Sources> sources) {
  if (out == nullptr) return;
  auto* d = new hclvm_diagnostics;
  d->list = std::move(diags);
  d->sources = std::move(sources);
  *out = d;
}

// Finds [name] among [values] into [*out].
hclvm_status find_value(const std::vector<std::pair<std::string, Value>>& values, const char* name,
                        hclvm_value** out) {
  if (out != nullptr) *out = nullptr;
  if (name == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "name and out are required");
  for (const auto& [n, v] : values) {
    if (n == name) {
      *out = own(v);
      return HCLVM_OK;
    }
  }
  return fail(HCLVM_ERR_NOT_FOUND, std::string("no value named ") + name);
}

}  // namespace

extern "C" {

hclvm_status hclvm_module_load(const char* dir, const hclvm_cache* cache, hclvm_module** out,
                               hclvm_diagnostics** diags) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (diags != nullptr) *diags = nullptr;
    if (dir == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "dir and out are required");
    config::LoadOptions lo;
    if (cache != nullptr) lo.cache = &cache->cache;
    config::LoadResult r = config::load_module(dir, lo);
    auto sources = std::make_shared<const config::Sources>(r.sources);
    give_module_diagnostics(diags, r.diagnostics, sources);
    if (r.has_errors() || !r.module) return fail(HCLVM_ERR_PARSE, diagnostics_error(r.diagnostics));
    *out = new hclvm_module{std::move(r.module), std::move(sources)};
    return HCLVM_OK;
  });
}

void hclvm_module_free(hclvm_module* module) { delete module; }

hclvm_status hclvm_module_inputs_create(hclvm_module_inputs** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = new hclvm_module_inputs;
    return HCLVM_OK;
  });
}

void hclvm_module_inputs_free(hclvm_module_inputs* in) { delete in; }

hclvm_status hclvm_module_inputs_set_variable(hclvm_module_inputs* in, const char* name,
                                             const hclvm_value* v) {
  return guard([&] {
    if (in == nullptr || name == nullptr || v == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "in, name and v are required");
    in->in.values.insert_or_assign(name, v->v);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_module_inputs_add_var(hclvm_module_inputs* in, const char* assignment) {
  return guard([&] {
    if (in == nullptr || assignment == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "in and assignment are required");
    in->in.args.push_back({config::VarArg::Var, assignment});
    return HCLVM_OK;
  });
}

hclvm_status hclvm_module_inputs_add_var_file(hclvm_module_inputs* in, const char* path) {
  return guard([&] {
    if (in == nullptr || path == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "in and path are required");
    in->in.args.push_back({config::VarArg::VarFile, path});
    return HCLVM_OK;
  });
}

hclvm_status hclvm_module_inputs_add_env(hclvm_module_inputs* in, const char* entry) {
  return guard([&] {
    if (in == nullptr || entry == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "in and entry are required");
    in->in.env.emplace_back(entry);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_module_inputs_set_auto_var_files(hclvm_module_inputs* in, int enabled,
                                                   const char* dir) {
  return guard([&] {
    if (in == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "in is required");
    in->in.auto_var_files = enabled != 0;
    in->in.vars_dir = dir ? dir : ".";
    return HCLVM_OK;
  });
}

hclvm_status hclvm_module_inputs_set_workspace(hclvm_module_inputs* in, const char* name) {
  return guard([&] {
    if (in == nullptr || name == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "in and name are required");
    in->in.workspace = name;
    return HCLVM_OK;
  });
}

hclvm_status hclvm_module_inputs_set_resource(hclvm_module_inputs* in, const char* address,
                                             const hclvm_value* v) {
  return guard([&] {
    if (in == nullptr || address == nullptr || v == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "in, address and v are required");
    in->in.resources.insert_or_assign(address, v->v);
    return HCLVM_OK;
  });
}

namespace {

// Evaluates [module] with [in] on [vm] into [*out], reusing [previous]
// when given (hclvm_module_evaluate, hclvm_module_reevaluate).
hclvm_status evaluate_module(const hclvm_module* module, const hclvm_evaluation* previous,
                             const hclvm_module_inputs* in, hclvm_vm* vm, hclvm_evaluation** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (module == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "module and out are required");
    if (previous != nullptr && previous->ev.module() != module->module)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "previous is an evaluation of another module");
    static const config::Inputs none;
    auto ev = std::make_unique<hclvm_evaluation>();
    const config::Inputs& inputs = in ? in->in : none;
    Vm* v = vm ? &vm->vm : nullptr;
    ev->ev = previous ? config::reevaluate(previous->ev, inputs, v)
                      : config::evaluate(module->module, inputs, v);
    ev->diags.list = ev->ev.diagnostics();
    auto sources = std::make_shared<config::Sources>(*module->sources);
    sources->merge(ev->ev.sources());
    ev->diags.sources = std::move(sources);
    bool errors = ev->ev.has_errors();
    std::string why = errors ? diagnostics_error(ev->diags.list) : "";
    *out = ev.release();
    return errors ? fail(HCLVM_ERR_EVAL, why) : HCLVM_OK;
  });
}

}  // namespace

hclvm_status hclvm_module_evaluate(const hclvm_module* module, const hclvm_module_inputs* in,
                                   hclvm_vm* vm, hclvm_evaluation** out) {
  return evaluate_module(module, nullptr, in, vm, out);
}

hclvm_status hclvm_module_reevaluate(const hclvm_module* module, const hclvm_evaluation* previous,
                                     const hclvm_module_inputs* in, hclvm_vm* vm,
                                     hclvm_evaluation** out) {
  if (previous == nullptr) {
    if (out != nullptr) *out = nullptr;
    return guard([&] { return fail(HCLVM_ERR_INVALID_ARGUMENT, "previous is required"); });
  }
  return evaluate_module(module, previous, in, vm, out);
}

void hclvm_evaluation_free(hclvm_evaluation* ev) { delete ev; }

const hclvm_diagnostics* hclvm_evaluation_diagnostics(const hclvm_evaluation* ev) {
  return ev ? &ev->diags : nullptr;
}

hclvm_status hclvm_evaluation_output(const hclvm_evaluation* ev, const char* name,
                                     hclvm_value** out) {
  return guard([&] {
    if (ev == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "ev is required");
    return find_value(ev->ev.outputs(), name, out);
  });
}

hclvm_status hclvm_evaluation_local(const hclvm_evaluation* ev, const char* name, hclvm_value** out) {
  return guard([&] {
    if (ev == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "ev is required");
    return find_value(ev->ev.locals(), name, out);
  });
}

hclvm_status hclvm_evaluation_variable(const hclvm_evaluation* ev, const char* name,
                                       hclvm_value** out) {
  return guard([&] {
    if (ev == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "ev is required");
    return find_value(ev->ev.variables(), name, out);
  });
}

hclvm_status hclvm_evaluation_json(const hclvm_evaluation* ev, char** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (ev == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "ev and out are required");
    *out = dup_string(ev->ev.to_json());
    return HCLVM_OK;
  });
}

hclvm_status hclvm_evaluation_eval(const hclvm_evaluation* ev, const char* text, size_t len,
                                   hclvm_vm* vm, hclvm_result** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (ev == nullptr || text == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "ev, text and out are required");
    EvalResult r = ev->ev.eval(text_of(text, len), vm ? &vm->vm : nullptr);
    auto res = std::make_unique<hclvm_result>();
    res->value.v = std::move(r.value);
    res->diags.list = std::move(r.diagnostics);
    res->diags.sources = ev->diags.sources;
    res->status = has_errors(res->diags.list) ? HCLVM_ERR_EVAL : HCLVM_OK;
    hclvm_status st = res->status;
    std::string why = st == HCLVM_OK ? "" : diagnostics_error(res->diags.list);
    *out = res.release();
    return st == HCLVM_OK ? HCLVM_OK : fail(st, why);
  });
}

hclvm_status hclvm_value_console_string(const hclvm_value* v, char** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (v == nullptr || out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "v and out are required");
    *out = dup_string(config::console_value(v->v));
    return HCLVM_OK;
  });
}

}  // extern "C"

// The C API: contexts (variables and functions, C callbacks among them),
// limits and cancel flags, vms, evaluation and its results.
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/hclvm.h>
#include <hclvm/limits.h>
#include <hclvm/value_json.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <set>

#include "capi/capi.h"
#include "value/convert.h"

namespace hclvm::capi {

// The longest timeout in milliseconds that nanoseconds hold; longer ones
// mean no deadline.
constexpr uint64_t kMaxTimeoutMs = uint64_t(INT64_MAX / 1'000'000);

Limits to_limits(const hclvm_limits& c) {
  Limits l;
  l.max_steps = c.max_steps;
  l.max_memory = c.max_memory;
  l.max_string_bytes = c.max_string_bytes;
  l.max_collection_size = c.max_collection_size;
  l.max_depth = c.max_depth;
  l.timeout = c.timeout_ms == 0 || c.timeout_ms > kMaxTimeoutMs
                  ? std::chrono::nanoseconds(0)
                  : std::chrono::nanoseconds(std::chrono::milliseconds(c.timeout_ms));
  l.cancel = c.cancel ? &c.cancel->flag : nullptr;
  return l;
}

namespace {

// The static name of [l] for hclvm_stats and hclvm_result_limit:
// limit_name's, which are literals and so end in a NUL.
const char* limit_name_of(Limit l) { return limit_name(l).data(); }

// The limit whose diagnostic is among [diags], if any. Read from the
// diagnostics rather than from the vm's statistics, which describe only
// its last run: a JSON attribute runs once per template in it, or not at
// all.
std::optional<Limit> limit_in(const Diagnostics& diags) {
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error) continue;
    for (Limit l : {Limit::Steps, Limit::Memory, Limit::StringSize, Limit::CollectionSize,
                    Limit::Depth, Limit::Timeout, Limit::Cancelled}) {
      if (d.summary == limit_summary(l)) return l;
    }
  }
  return std::nullopt;
}

// Sets the status of [res] from its diagnostics.
void set_status(hclvm_result& res) {
  if (std::optional<Limit> l = limit_in(res.diags.list)) {
    res.status = HCLVM_ERR_LIMIT;
    res.limit = limit_name_of(*l);
  } else {
    res.status = has_errors(res.diags.list) ? HCLVM_ERR_EVAL : HCLVM_OK;
  }
}

hclvm_limits from_limits(const Limits& l) {
  hclvm_limits c{};
  c.max_steps = l.max_steps;
  c.max_memory = l.max_memory;
  c.max_string_bytes = l.max_string_bytes;
  c.max_collection_size = l.max_collection_size;
  c.max_depth = l.max_depth;
  c.timeout_ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(l.timeout).count());
  c.cancel = nullptr;
  return c;
}

// What a C function keeps: the callback and the host's data, released
// with the function.
struct Callback {
  hclvm_callback fn = nullptr;
  void* user_data = nullptr;
  void (*free_user_data)(void*) = nullptr;
  Callback() = default;
  Callback(const Callback&) = delete;
  Callback& operator=(const Callback&) = delete;
  ~Callback() {
    if (free_user_data != nullptr) free_user_data(user_data);
  }
};

// Calls [cb] with [args]: the result converted to [ret], or the failure.
FuncResult call_callback(const Callback& cb, std::span<const Value> args, const Type* ret) {
  std::vector<const hclvm_value*> ptrs;
  ptrs.reserve(args.size());
  for (const Value& a : args) ptrs.push_back(wrap(a));
  hclvm_value* out = nullptr;
  char* message = nullptr;
  // A limit that the callback ran into through this library ends the
  // evaluation once it returns; a pending one of an outer call is kept.
  bool outer_pending = t_limit_pending;
  Limit outer_limit = t_pending_limit;
  t_limit_pending = false;
  hclvm_status s = cb.fn(cb.user_data, ptrs.data(), ptrs.size(), &out, &message);
  bool hit = t_limit_pending;
  Limit limit = t_pending_limit;
  t_limit_pending = outer_pending;
  t_pending_limit = outer_limit;
  std::unique_ptr<hclvm_value> result(out);
  std::string msg = message ? message : "";
  std::free(message);
  if (hit) throw util::LimitExceeded{limit};
  if (s != HCLVM_OK) {
    if (msg.empty()) msg = std::string("the function failed (") + hclvm_status_string(s) + ")";
    return FuncResult::fail(std::move(msg));
  }
  if (!result) return FuncResult::fail("the function returned no value");
  ConvertResult c = convert(result->v, ret);
  if (!c.ok())
    return FuncResult::fail("the function returned an invalid value: " + c.error().message);
  return FuncResult::of(c.take());
}

// [p] as a parameter named after its position [i] when it has no name.
bool make_param(const hclvm_param& p, size_t i, Param& out, std::string& err) {
  out.name = p.name ? p.name : "arg" + std::to_string(i);
  out.type = parse_type(p.type, err);
  if (out.type == nullptr) {
    err = "parameter " + out.name + ": " + err;
    return false;
  }
  out.allow_null = p.allow_null != 0;
  out.allow_unknown = p.allow_unknown != 0;
  return true;
}

// Evaluates [body]'s attributes into [res]: an object of them, or the
// dynamic value once a limit stops the evaluation.
void eval_body(hclvm_vm* vm, const hclvm_body& body, const hclvm_context* ctx, hclvm_result& res) {
  const EvalContext* c = ctx ? &ctx->ctx : nullptr;
  std::vector<std::pair<std::string, Value>> attrs;
  std::set<std::string_view> seen;
  for (const CompiledAttribute& a : body.body->attributes) {
    EvalResult r = a.value(vm->vm, c);
    bool limit = limit_in(r.diagnostics).has_value();
    for (Diagnostic& d : r.diagnostics) res.diags.list.push_back(std::move(d));
    if (limit) {
      set_status(res);
      res.value.v = Value::dynamic();
      return;
    }
    // A valid file has distinct names; a JSON one may repeat a name only
    // with an error about it, and the first value stands.
    if (seen.insert(a.name).second) attrs.emplace_back(a.name, std::move(r.value));
  }
  set_status(res);
  res.value.v = Value::object(std::move(attrs));
}

// Hands [res] over as [*out] with its status (also the return value).
hclvm_status give_result(std::unique_ptr<hclvm_result> res, hclvm_result** out) {
  hclvm_status s = res->status;
  std::string message;
  if (s != HCLVM_OK) message = diagnostics_error(res->diags.list);
  *out = res.release();
  return s == HCLVM_OK ? s : fail(s, message);
}

std::unique_ptr<hclvm_result> new_result(const hclvm_program* prog) {
  auto res = std::make_unique<hclvm_result>();
  res->diags.source = prog->source;
  res->diags.file = prog->file;
  return res;
}

}  // namespace

}  // namespace hclvm::capi

using namespace hclvm;
using namespace hclvm::capi;

extern "C" {

// --- cancel flags and limits ----------------------------------------------------------

hclvm_status hclvm_cancel_create(hclvm_cancel** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = new hclvm_cancel;
    return HCLVM_OK;
  });
}

void hclvm_cancel_set(hclvm_cancel* c) {
  if (c != nullptr) c->flag.store(true, std::memory_order_relaxed);
}

void hclvm_cancel_reset(hclvm_cancel* c) {
  if (c != nullptr) c->flag.store(false, std::memory_order_relaxed);
}

int hclvm_cancel_is_set(const hclvm_cancel* c) {
  return c != nullptr && c->flag.load(std::memory_order_relaxed) ? 1 : 0;
}

void hclvm_cancel_free(hclvm_cancel* c) { delete c; }

void hclvm_limits_default(hclvm_limits* out) {
  if (out != nullptr) *out = from_limits(Limits{});
}

void hclvm_limits_none(hclvm_limits* out) {
  if (out != nullptr) *out = from_limits(Limits::none());
}

// --- contexts ----------------------------------------------------------------------------

void hclvm_context_options_default(hclvm_context_options* out) {
  if (out == nullptr) return;
  *out = hclvm_context_options{};
  out->library = HCLVM_FUNCTIONS_STANDARD;
  out->base_dir = nullptr;
  out->impure = 1;
}

hclvm_status hclvm_context_create(const hclvm_context_options* options, hclvm_context** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    hclvm_context_options o;
    hclvm_context_options_default(&o);
    if (options != nullptr) o = *options;
    auto ctx = std::make_unique<hclvm_context>();
    switch (raw_enum(o.library)) {
      case HCLVM_FUNCTIONS_STANDARD: {
        LibraryOptions lib;
        if (o.base_dir != nullptr) lib.base_dir = o.base_dir;
        lib.impure = o.impure != 0;
        ctx->fns = std::make_shared<const FunctionTable>(standard_functions(lib));
        break;
      }
      case HCLVM_FUNCTIONS_GO_CTY:
        ctx->fns = std::make_shared<const FunctionTable>(default_functions());
        break;
      case HCLVM_FUNCTIONS_NONE:
        break;
      default:
        return fail(HCLVM_ERR_INVALID_ARGUMENT, "unknown function library");
    }
    if (ctx->fns) ctx->ctx.set_functions(ctx->fns);
    *out = ctx.release();
    return HCLVM_OK;
  });
}

void hclvm_context_free(hclvm_context* ctx) { delete ctx; }

hclvm_status hclvm_context_set_variables_json(hclvm_context* ctx, const char* json, size_t len) {
  return guard([&] {
    if (ctx == nullptr || json == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "ctx and json are required");
    if (std::string err = set_variables_from_json(ctx->ctx, text_of(json, len)); !err.empty())
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "variables: " + err);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_context_set_variable(hclvm_context* ctx, const char* name,
                                        const hclvm_value* v) {
  return guard([&] {
    if (ctx == nullptr || name == nullptr || v == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "ctx, name and value are required");
    ctx->ctx.set(name, v->v);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_context_get_variable(const hclvm_context* ctx, const char* name,
                                        const hclvm_value** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (ctx == nullptr || name == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "ctx, name and out are required");
    *out = nullptr;
    const Value* v = ctx->ctx.lookup(name);
    if (v == nullptr) return fail(HCLVM_ERR_NOT_FOUND, "no variable " + std::string(name));
    *out = wrap(*v);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_context_add_function(hclvm_context* ctx, const char* name,
                                        const hclvm_function_def* def) {
  return guard([&] {
    if (ctx == nullptr || name == nullptr || def == nullptr || def->callback == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "ctx, name, def and def->callback are required");
    if (*name == '\0') return fail(HCLVM_ERR_INVALID_ARGUMENT, "a function needs a name");
    if (def->nparams > 0 && def->params == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "def->params is required");
    auto fn = std::make_shared<Function>();
    std::string err;
    for (size_t i = 0; i < def->nparams; ++i) {
      Param p;
      if (!make_param(def->params[i], i, p, err)) return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
      fn->params.push_back(std::move(p));
    }
    if (def->variadic != nullptr) {
      Param p;
      if (!make_param(*def->variadic, def->nparams, p, err))
        return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
      fn->var_param = std::move(p);
    }
    const Type* ret = parse_type(def->return_type, err);
    if (ret == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "return type: " + err);
    // Not Function::returns: a declared fixed type lets cty's convention
    // call the implementation a second time when a result's type differs
    // from it, and a host callback must run once per call.
    fn->type = Function::static_return(ret);
    if (def->description != nullptr) fn->description = def->description;
    // Made last, so that a failure above leaves the host's data to the host.
    auto cb = std::make_shared<Callback>();
    cb->fn = def->callback;
    cb->user_data = def->user_data;
    fn->impl = [cb](std::span<const Value> args, const Type* want) {
      return call_callback(*cb, args, want);
    };
    cb->free_user_data = def->free_user_data;
    auto table =
        ctx->fns ? std::make_shared<FunctionTable>(*ctx->fns) : std::make_shared<FunctionTable>();
    table->add(name, std::move(fn));
    ctx->fns = table;
    ctx->ctx.set_functions(std::move(table));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_context_remove_function(hclvm_context* ctx, const char* name) {
  return guard([&] {
    if (ctx == nullptr || name == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "ctx and name are required");
    if (!ctx->fns || ctx->fns->find(name) == nullptr)
      return fail(HCLVM_ERR_NOT_FOUND, "no function " + std::string(name));
    auto table = std::make_shared<FunctionTable>(*ctx->fns);
    table->remove(name);
    ctx->fns = table;
    ctx->ctx.set_functions(std::move(table));
    return HCLVM_OK;
  });
}

int hclvm_context_has_function(const hclvm_context* ctx, const char* name) {
  return ctx && name && ctx->fns && ctx->fns->find(name) ? 1 : 0;
}

// --- vms ---------------------------------------------------------------------------------

hclvm_status hclvm_vm_create(const hclvm_limits* limits, hclvm_vm** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    auto vm = std::make_unique<hclvm_vm>();
    if (limits != nullptr) {
      vm->limits = *limits;
      vm->vm.set_limits(to_limits(*limits));
    } else {
      vm->limits = from_limits(Limits{});
    }
    *out = vm.release();
    return HCLVM_OK;
  });
}

void hclvm_vm_free(hclvm_vm* vm) { delete vm; }

hclvm_status hclvm_vm_set_limits(hclvm_vm* vm, const hclvm_limits* limits) {
  return guard([&] {
    if (vm == nullptr || limits == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "vm and limits are required");
    vm->limits = *limits;
    vm->vm.set_limits(to_limits(*limits));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_vm_get_limits(const hclvm_vm* vm, hclvm_limits* out) {
  return guard([&] {
    if (vm == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "vm and out are required");
    *out = vm->limits;
    return HCLVM_OK;
  });
}

hclvm_status hclvm_vm_stats(const hclvm_vm* vm, hclvm_stats* out) {
  return guard([&] {
    if (vm == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "vm and out are required");
    const EvalStats& s = vm->vm.stats();
    out->steps = s.steps;
    out->memory = s.memory;
    out->limit_hit = s.limit_hit ? 1 : 0;
    out->limit = s.limit_hit ? limit_name_of(s.limit) : nullptr;
    return HCLVM_OK;
  });
}

// --- evaluating ----------------------------------------------------------------------------

hclvm_status hclvm_eval(hclvm_vm* vm, const hclvm_program* prog, const hclvm_context* ctx,
                        hclvm_result** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (vm == nullptr || prog == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "vm, prog and out are required");
    std::unique_ptr<hclvm_result> res = new_result(prog);
    if (prog->kind == HCLVM_PROGRAM_FILE) {
      eval_body(vm, prog->root, ctx, *res);
      return give_result(std::move(res), out);
    }
    EvalResult r = vm->vm.run(*prog->expr, ctx ? &ctx->ctx : nullptr);
    res->diags.list = prog->compile_diags;
    for (Diagnostic& d : r.diagnostics) res->diags.list.push_back(std::move(d));
    res->value.v = std::move(r.value);
    set_status(*res);
    return give_result(std::move(res), out);
  });
}

hclvm_status hclvm_eval_body(hclvm_vm* vm, const hclvm_body* body, const hclvm_context* ctx,
                             hclvm_result** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (vm == nullptr || body == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "vm, body and out are required");
    std::unique_ptr<hclvm_result> res = new_result(body->program);
    eval_body(vm, *body, ctx, *res);
    return give_result(std::move(res), out);
  });
}

hclvm_status hclvm_eval_attribute(hclvm_vm* vm, const hclvm_body* body, const char* name,
                                  const hclvm_context* ctx, hclvm_result** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (vm == nullptr || body == nullptr || name == nullptr || out == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "vm, body, name and out are required");
    const CompiledAttribute* attr = nullptr;
    for (const CompiledAttribute& a : body->body->attributes) {
      if (a.name == name) {
        attr = &a;
        break;
      }
    }
    if (attr == nullptr) return fail(HCLVM_ERR_NOT_FOUND, "no attribute " + std::string(name));
    std::unique_ptr<hclvm_result> res = new_result(body->program);
    EvalResult r = attr->value(vm->vm, ctx ? &ctx->ctx : nullptr);
    res->diags.list = std::move(r.diagnostics);
    res->value.v = std::move(r.value);
    set_status(*res);
    return give_result(std::move(res), out);
  });
}

hclvm_status hclvm_result_status(const hclvm_result* res) {
  return res ? res->status : HCLVM_ERR_INVALID_ARGUMENT;
}

const hclvm_value* hclvm_result_value(const hclvm_result* res) {
  return res ? &res->value : nullptr;
}

const hclvm_diagnostics* hclvm_result_diagnostics(const hclvm_result* res) {
  return res ? &res->diags : nullptr;
}

const char* hclvm_result_limit(const hclvm_result* res) { return res ? res->limit : nullptr; }

void hclvm_result_free(hclvm_result* res) { delete res; }

}  // extern "C"

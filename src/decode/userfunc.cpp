// User-defined functions (see userfunc.h), following the reference's
// ext/userfunc (decode.go): each block becomes a function whose type and
// implementation both evaluate the result expression, as cty's calling
// convention asks the type first and then the value.
//
// Re-entrancy. A function runs while the caller's Vm is in the middle of a
// run, so it cannot evaluate on that Vm (nor on the thread's default one,
// which the caller may be using). Each thread keeps a stack of Vms, one per
// level of nesting of user-function calls: a call at depth d evaluates on
// the d-th, which no caller below it is using, and the Vms stay warm from
// call to call.
//
// One evaluation per call. The reference evaluates the result twice per
// call, once for the return type and once for the value; a function that
// calls another (or itself, over a shrinking collection) then costs
// 2^depth evaluations. Here the type function keeps the value it computed
// for the implementation that cty's convention calls right after with the
// same arguments; the value is the one a second evaluation would give,
// since results depend only on the arguments and the (unchanging) base
// context.
#include <hclvm/userfunc.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/budget.h"
#include "util/stack.h"
#include "value/ops.h"

namespace hclvm {

namespace {

// The message of a call nested too deeply; every level above the deepest
// passes it on as it is rather than wrapping it in its own diagnostics.
constexpr std::string_view kTooDeep = "calls of user-defined functions nested too deeply";
// The end of hclsyntax's "Error in function call" detail for a nested call
// that failed so.
constexpr std::string_view kTooDeepWrapped =
    " failed: calls of user-defined functions nested too deeply.";

// The base context of the functions of one decode_user_functions call,
// asked of the provider at the first call (again while it gives null).
class BaseContext {
 public:
  explicit BaseContext(UserFunctionContext provider) : provider_(std::move(provider)) {}

  // Returns the base context (null if none) or, in [error], why there is
  // none: the provider called one of the functions it provides for.
  const EvalContext* get(std::string& error) {
    if (const EvalContext* c = ready_.load(std::memory_order_acquire)) return c;
    if (!provider_) return nullptr;
    std::lock_guard<std::recursive_mutex> lock(mu_);
    if (const EvalContext* c = ready_.load(std::memory_order_relaxed)) return c;
    if (providing_) {
      error = "the context provider of user-defined functions called one of them";
      return nullptr;
    }
    providing_ = true;
    std::shared_ptr<const EvalContext> c;
    try {
      c = provider_();
    } catch (...) {
      providing_ = false;
      throw;
    }
    providing_ = false;
    if (c) {
      owned_ = std::move(c);
      ready_.store(owned_.get(), std::memory_order_release);
    }
    return owned_.get();
  }

 private:
  UserFunctionContext provider_;
  std::recursive_mutex mu_;  // re-entered only to detect a provider that calls back
  bool providing_ = false;
  std::shared_ptr<const EvalContext> owned_;
  std::atomic<const EvalContext*> ready_{nullptr};
};

struct Declaration;

// What one thread keeps for the calls it makes.
struct ThreadCalls {
  std::vector<std::unique_ptr<Vm>> vms;  // by depth; unique_ptr: stable while in use
  size_t depth = 0;
  // The stack nested calls may use below the outermost one's frame.
  std::optional<util::StackBudget> stack;
  // The value the last type function computed, for the implementation
  // that follows it (see the file comment); [owner] null: none.
  const Declaration* owner = nullptr;
  std::vector<Value> args;
  Value value;
};

thread_local ThreadCalls t_calls;

// A value or the text of the error the call fails with.
struct Outcome {
  Value value;
  std::optional<std::string> error;
};

// One declared function.
struct Declaration {
  std::shared_ptr<BaseContext> base;
  std::vector<std::string> params;
  std::optional<std::string> var_param;
  Expression result;

  // Evaluates the result for [args] (as many as the parameters need: the
  // caller has checked the count).
  Outcome evaluate(std::span<const Value> args) const {
    ThreadCalls& tc = t_calls;
    if (tc.depth == 0) {
      tc.stack.emplace(util::kInlineStackBudget, /*last_try=*/true);
    } else if (tc.depth >= kMaxUserFunctionDepth || tc.stack->exhausted()) {
      return {Value::dynamic(), std::string(kTooDeep)};
    }
    // The run's own depth limit, when lower, fails the call the same way
    // (a limit would end the whole run, where this error may be dropped).
    if (util::Budget* b = util::current_budget(); b != nullptr && b->depth_exhausted()) {
      return {Value::dynamic(), std::string(kTooDeep)};
    }
    std::string error;
    const EvalContext* parent = base->get(error);
    if (!error.empty()) return {Value::dynamic(), std::move(error)};

    EvalContext ctx(parent);
    for (size_t i = 0; i < params.size(); ++i) ctx.set(params[i], args[i]);
    if (var_param) {
      std::vector<Value> rest(args.begin() + std::ptrdiff_t(params.size()), args.end());
      ctx.set(*var_param, Value::tuple(std::move(rest)));
    }

    if (tc.vms.size() <= tc.depth) tc.vms.push_back(std::make_unique<Vm>());
    Vm& vm = *tc.vms[tc.depth];
    struct Nest {
      ThreadCalls& tc;
      explicit Nest(ThreadCalls& t) : tc(t) { ++tc.depth; }
      ~Nest() { --tc.depth; }
    } nest(tc);
    EvalResult r = result.value(vm, &ctx);
    if (!r.has_errors()) return {std::move(r.value), std::nullopt};
    const Diagnostic& first = r.diagnostics.front();
    if (first.summary == "Error in function call" && first.detail.ends_with(kTooDeepWrapped))
      return {Value::dynamic(), std::string(kTooDeep)};
    return {Value::dynamic(), diagnostics_error(r.diagnostics)};
  }

  // Drops the value the last type function kept.
  static void forget() {
    ThreadCalls& tc = t_calls;
    tc.owner = nullptr;
    tc.args.clear();
    tc.value = Value();
  }

  // The type function: evaluates, and keeps the value for the
  // implementation when cty's convention will call it (every argument
  // known).
  TypeResult type(std::span<const Value> args) const {
    forget();
    Outcome o = evaluate(args);
    if (o.error) return {nullptr, FuncError{std::move(*o.error), -1}};
    const Type* t = o.value.type();
    bool known = true;
    for (const Value& a : args) known = known && a.is_known();
    if (known) {
      ThreadCalls& tc = t_calls;
      tc.owner = this;
      tc.args.assign(args.begin(), args.end());
      tc.value = std::move(o.value);
    }
    return {t, std::nullopt};
  }

  // The implementation: the value the type function kept for these
  // arguments, or a new evaluation.
  FuncResult impl(std::span<const Value> args) const {
    ThreadCalls& tc = t_calls;
    if (tc.owner == this && tc.args.size() == args.size()) {
      bool same = true;
      for (size_t i = 0; same && i < args.size(); ++i) same = ops::raw_equal(tc.args[i], args[i]);
      if (same) {
        Value v = std::exchange(tc.value, Value());
        forget();
        return FuncResult::of(std::move(v));
      }
    }
    forget();
    Outcome o = evaluate(args);
    if (o.error) return FuncResult::fail(std::move(*o.error));
    return FuncResult::of(std::move(o.value));
  }
};

// The function of [decl].
std::shared_ptr<const Function> make_function(std::shared_ptr<const Declaration> decl) {
  auto f = std::make_shared<Function>();
  for (const std::string& p : decl->params) f->params.push_back(Param{p, Type::dynamic()});
  if (decl->var_param) f->var_param = Param{*decl->var_param, Type::dynamic()};
  f->type = [decl](std::span<const Value> args) { return decl->type(args); };
  f->impl = [decl](std::span<const Value> args, const Type*) { return decl->impl(args); };
  return f;
}

// A diagnostic about [subject].
Diagnostic error_at(std::string summary, std::string detail, Range subject) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  return d;
}

}  // namespace

void UserFunctionsResult::add_to(FunctionTable& table) const {
  for (const auto& [name, f] : functions) table.add(name, f);
}

UserFunctionsResult decode_user_functions(const Body& body, std::string_view block_type,
                                          UserFunctionContext context) {
  static const BodySchema kFunctionSchema{
      {{"params", true}, {"variadic_param", false}, {"result", true}}, {}};

  UserFunctionsResult out;
  BodySchema schema{{}, {{std::string(block_type), {"name"}}}};
  PartialContentResult pc = body.partial_content(schema);
  out.remain = std::move(pc.remain);
  out.diagnostics = std::move(pc.diagnostics);
  if (out.has_errors()) return out;

  auto base = std::make_shared<BaseContext>(std::move(context));
  for (const Block& block : pc.content.blocks) {
    ContentResult c = block.body.content(kFunctionSchema);
    bool failed = c.has_errors();
    out.diagnostics.insert(out.diagnostics.end(), c.diagnostics.begin(), c.diagnostics.end());
    if (failed) continue;
    const Attributes& attrs = c.content.attributes;

    auto decl = std::make_shared<Declaration>();
    decl->base = base;
    decl->result = attrs.find("result")->expr;

    ExpressionListResult list = expr_list(attrs.find("params")->expr);
    failed = list.has_errors();
    out.diagnostics.insert(out.diagnostics.end(), list.diagnostics.begin(), list.diagnostics.end());
    if (failed) continue;
    for (const Expression& e : list.items) {
      std::string name = expr_as_keyword(e);
      if (name.empty()) {
        out.diagnostics.push_back(error_at(
            "Invalid param element", "Each parameter name must be an identifier.", e.range()));
        failed = true;
        break;
      }
      decl->params.push_back(std::move(name));
    }
    if (failed) continue;

    if (const Attribute* v = attrs.find("variadic_param")) {
      std::string name = expr_as_keyword(v->expr);
      if (name.empty()) {
        out.diagnostics.push_back(error_at("Invalid variadic_param",
                                           "The variadic parameter name must be an identifier.",
                                           v->expr.range()));
        continue;
      }
      decl->var_param = std::move(name);
    }
    out.functions[block.labels[0]] = make_function(std::move(decl));
  }
  return out;
}

}  // namespace hclvm

// The calling convention of functions, as go-cty's Function.Call and
// ReturnTypeForValues apply it (newest release): arguments are checked
// against their parameters (null, dynamic type, type conformance), the
// return type is computed with marks removed from the arguments that do not
// accept them, an argument that is unknown where its parameter does not
// accept unknowns, or of the dynamic pseudo-type where its parameter does
// not accept that (such as a plain `null`), makes the result an unknown of
// the return type without calling the function (carrying the marks of
// the arguments whose parameters do not accept marks), marks removed from
// arguments are put on the result, the result must conform to the return type (cty panics; here it
// is an error) and is refined as not null where the function says so.
// Also the function table and the default set of functions.
#include "hclvm/function.h"

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "util/read_log.h"
#include "value/ops.h"
#include "value/refine.h"

namespace hclvm {

namespace {

// Returns the message of the first error cty's TestConformance reports for
// [given] against [want], or "" when [given] conforms. cty walks object
// attributes in Go map order; this walks them sorted, so where several
// attributes are wrong the one reported may differ.
std::string conformance_error(const Type* given, const Type* want) {
  if (want->is_dynamic() || given == want) return "";
  if (given->is_object() && want->is_object()) {
    for (size_t i = 0; i < given->size(); ++i) {
      if (!want->find_attr(given->attr_name(i))) {
        return "unsupported attribute \"" + std::string(given->attr_name(i)) + "\"";
      }
    }
    for (size_t i = 0; i < want->size(); ++i) {
      if (!given->find_attr(want->attr_name(i))) {
        return "missing required attribute \"" + std::string(want->attr_name(i)) + "\"";
      }
    }
    for (size_t i = 0; i < want->size(); ++i) {
      auto j = given->find_attr(want->attr_name(i));
      std::string e = conformance_error(given->attr_type(*j), want->attr_type(i));
      if (!e.empty()) return e;
    }
    return "";
  }
  if (given->is_tuple() && want->is_tuple()) {
    if (given->size() != want->size()) {
      return std::to_string(want->size()) + " elements are required, but got " +
             std::to_string(given->size());
    }
    for (size_t i = 0; i < want->size(); ++i) {
      std::string e = conformance_error(given->tuple_element(i), want->tuple_element(i));
      if (!e.empty()) return e;
    }
    return "";
  }
  if (given->kind() == want->kind() && given->is_collection()) {
    return conformance_error(given->element(), want->element());
  }
  return want->friendly_name() + " required, but received " + given->friendly_name();
}

// The declaration of argument [i] of a call to [f] with [n] arguments.
const Param& param_for(const Function& f, size_t i) {
  return i < f.params.size() ? f.params[i] : *f.var_param;
}

}  // namespace

Function::TypeFn Function::static_return(const Type* t) {
  return [t](std::span<const Value>) { return TypeResult{t, std::nullopt}; };
}

TypeResult Function::return_type(std::span<const Value> args) const {
  size_t np = params.size();
  if (!var_param && args.size() != np) {
    return {nullptr, FuncError{"wrong number of arguments (" + std::to_string(np) + " required; " +
                                   std::to_string(args.size()) + " given)",
                               -1}};
  }
  if (var_param && args.size() < np) {
    return {nullptr, FuncError{"wrong number of arguments (at least " + std::to_string(np) +
                                   " required; " + std::to_string(args.size()) + " given)",
                               -1}};
  }

  // The type function sees the arguments deeply unmarked where their
  // parameters do not accept marks; copied only when there is one.
  std::vector<Value> unmarked;
  for (size_t i = 0; i < args.size(); ++i) {
    const Param& p = param_for(*this, i);
    const Value& v = args[i];
    if (!p.allow_marked && v.contains_marked()) {
      if (unmarked.empty()) unmarked.assign(args.begin(), args.end());
      unmarked[i] = v.unmark_deep().first;
    }
    if (v.is_null() && !p.allow_null) {
      return {nullptr, FuncError{"argument must not be null", int(i)}};
    }
    const Type* t = v.type();
    if (t->is_dynamic()) {
      if (!p.allow_dynamic_type) return {Type::dynamic(), std::nullopt, /*dynamic_args=*/true};
    } else if (std::string e = conformance_error(t, p.type); !e.empty()) {
      // cty reports a variadic argument's position within the variadic
      // ones here (its index i, not i + len(Params)); kept as it is.
      int index = i < np ? int(i) : int(i - np);
      return {nullptr, FuncError{std::move(e), index}};
    }
  }
  if (!type) return {Type::dynamic(), std::nullopt};
  if (unmarked.empty()) return type(args);
  return type(unmarked);
}

FuncResult Function::call(std::span<const Value> args, const FuncError* instead) const {
  if (impure || reads_outside) util::note_unrepeatable();
  // The common case: a fixed return type and arguments that are known,
  // non-null, unmarked primitives (already of their parameters' types, as
  // the evaluator converts them): nothing for the convention to do.
  if (fixed_type && impl && !instead &&
      (var_param ? args.size() >= params.size() : args.size() == params.size())) {
    bool simple = true;
    size_t np = params.size();
    for (size_t i = 0; simple && i < args.size(); ++i) {
      const Value& a = args[i];
      const Type* pt = i < np ? params[i].type : var_param->type;
      simple = a.is_plain() && a.type()->is_primitive() && (a.type() == pt || pt->is_dynamic());
    }
    if (simple) {
      FuncResult r = impl(args, fixed_type);
      if (!r.ok() || r.value.type() == fixed_type) return r;
    }
  }
  TypeResult rt = return_type(args);
  if (!rt.ok()) return {Value(), std::move(rt.error)};
  const Type* expected = rt.type;

  // An unknown where its parameter does not accept one, or an argument of
  // no particular type where its parameter needs one, means the function
  // is not called at all; the result, unknown, carries the marks of the
  // arguments whose parameters do not take marks (go-cty 1.15.1+: those
  // that do take them, such as abs's, are not looked at).
  bool unsupported_unknowns = rt.dynamic_args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_known() && !param_for(*this, i).allow_unknown) unsupported_unknowns = true;
  }

  Marks result_marks;
  std::vector<Value> own;  // the arguments with marks removed, when any were
  for (size_t i = 0; i < args.size(); ++i) {
    if (param_for(*this, i).allow_marked) continue;
    if (!args[i].contains_marked()) continue;
    auto [v, m] = args[i].unmark_deep();
    if (m.empty()) continue;
    if (own.empty()) own.assign(args.begin(), args.end());
    own[i] = std::move(v);
    result_marks.add(m);
  }

  Value result;
  if (unsupported_unknowns) {
    result = Value::unknown(expected).mark(result_marks);
  } else {
    if (instead) return {Value(), *instead};
    if (!impl) return FuncResult::fail("function has no implementation");
    FuncResult r = own.empty() ? impl(args, expected) : impl(own, expected);
    if (!r.ok()) return r;
    result = std::move(r.value);
    if (!result_marks.empty()) result = result.mark(result_marks);
    // cty panics when an implementation breaks its own type function's
    // promise; that is a bug in the function, reported as an error here.
    if (std::string e = conformance_error(result.type(), expected); !e.empty()) {
      return FuncResult::fail("returned value of type " + result.type()->go_string() +
                              " does not conform to expected return type " + expected->go_string() +
                              ": " + e);
    }
  }

  // cty's RefineResult: only an unknown result gains anything from it (a
  // known result is already what it is), and an unknown of the dynamic
  // type has nothing to refine.
  if (result_not_null && !result.is_known() && !result.type()->is_dynamic()) {
    result = refine_not_null(result);
  }
  return FuncResult::of(std::move(result));
}

uint64_t FunctionTable::Serial::next() {
  static std::atomic<uint64_t> counter{1};
  return counter.fetch_add(1, std::memory_order_relaxed);
}

void FunctionTable::add(std::string name, std::shared_ptr<const Function> f) {
  fns_.insert_or_assign(std::move(name), std::move(f));
  serial_.value = Serial::next();
}

bool FunctionTable::alias(std::string name, std::string_view existing) {
  auto it = fns_.find(existing);
  if (it == fns_.end()) return false;
  fns_.insert_or_assign(std::move(name), it->second);
  serial_.value = Serial::next();
  return true;
}

void FunctionTable::remove(std::string_view name) {
  auto it = fns_.find(name);
  if (it != fns_.end()) fns_.erase(it);
  serial_.value = Serial::next();
}

const Function* FunctionTable::find(std::string_view name) const {
  auto it = fns_.find(name);
  return it == fns_.end() ? nullptr : it->second.get();
}

std::vector<std::string_view> FunctionTable::names() const {
  std::vector<std::string_view> out;
  out.reserve(fns_.size());
  for (const auto& [name, f] : fns_) out.push_back(name);
  return out;
}

}  // namespace hclvm

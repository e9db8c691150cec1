// The function tables of a Terraform module's scope and of its console, as
// Terraform 1.11.4 builds them (internal/lang/functions.go): the standard
// library (hclvm/function.h, every function also as core::NAME) with the
// file functions reading relative to the root module's directory, plus
//  - plantimestamp, which outside a plan has no time to give: its result
//    is unknown, as in `terraform console`'s walk;
//  - ephemeralasnull, which replaces the ephemeral parts of a value by
//    nulls of their types;
// and without the console-only type(). The console's table has type()
// (returning the type in a capsule with a mark, so that the console can
// tell a bare type() call from one used inside an expression) and lacks
// plantimestamp.
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/typeexpr.h>

#include <map>
#include <mutex>
#include <tuple>

#include "config/internal.h"

namespace hclvm::config::detail {

namespace {

Param any_param(std::string name) {
  Param p;
  p.name = std::move(name);
  p.type = Type::dynamic();
  p.allow_null = p.allow_unknown = p.allow_dynamic_type = p.allow_marked = true;
  return p;
}

Function plantimestamp_fn() {
  Function f;
  f.description =
      "Returns the timestamp of the current plan, which is unknown outside of a plan.";
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value>, const Type*) {
    return FuncResult::of(Value::unknown(Type::string()));
  };
  return f;
}

// [v] with each ephemeral part replaced by a null of its type.
Value ephemeral_as_null(const Value& v) {
  auto [plain, marks] = v.unmark_with_marks();
  if (marks.has(kEphemeral)) return Value::null(plain.type());
  if (!plain.is_known() || plain.is_null() || !plain.contains_marked()) return v;
  const Type* t = plain.type();
  Value out;
  if (t->is_object()) {
    std::vector<Value> vals;
    for (size_t i = 0; i < t->size(); ++i) vals.push_back(ephemeral_as_null(plain.attr(i)));
    out = Value::object(t, std::move(vals));
  } else if (t->is_tuple()) {
    std::vector<Value> vals;
    for (size_t i = 0; i < plain.length(); ++i) vals.push_back(ephemeral_as_null(plain.element(i)));
    out = Value::tuple(std::move(vals));
  } else if (t->is_list() || t->is_set()) {
    std::vector<Value> vals;
    for (size_t i = 0; i < plain.length(); ++i) vals.push_back(ephemeral_as_null(plain.element(i)));
    out = t->is_list() ? Value::list(t->element(), std::move(vals))
                       : Value::set(t->element(), std::move(vals));
  } else if (t->is_map()) {
    std::vector<std::pair<std::string, Value>> vals;
    for (size_t i = 0; i < plain.length(); ++i)
      vals.emplace_back(std::string(plain.map_key(i)), ephemeral_as_null(plain.map_value(i)));
    out = Value::map(t->element(), std::move(vals));
  } else {
    return v;
  }
  return out.mark(marks);
}

Function ephemeralasnull_fn() {
  Function f;
  f.description =
      "Takes a value of any type and returns a similar value of the same type with any ephemeral "
      "values replaced with non-ephemeral null values.";
  f.params = {any_param("value")};
  f.type = [](std::span<const Value> args) { return TypeResult{args[0].type(), std::nullopt}; };
  f.impl = [](std::span<const Value> args, const Type*) {
    return FuncResult::of(ephemeral_as_null(args[0]));
  };
  return f;
}

Function console_type_fn() {
  Function f;
  f.description = "Returns the type of the given value.";
  f.params = {any_param("value")};
  f.returns(type_constraint_type());
  f.impl = [](std::span<const Value> args, const Type*) {
    const Type* t = args[0].unmark_deep().first.type();
    return FuncResult::of(type_constraint_val(t).mark(kTypeTypeMark));
  };
  return f;
}

// Adds [f] as [name] and core::[name] to [t].
void add_both(FunctionTable& t, const std::string& name, Function f) {
  auto p = std::make_shared<const Function>(std::move(f));
  t.add(name, p);
  t.add("core::" + name, p);
}

}  // namespace

namespace {

// Builds the table terraform_functions returns.
std::shared_ptr<const FunctionTable> build_table(const std::string& base_dir, bool confine,
                                                bool console) {
  LibraryOptions lib;
  lib.base_dir = base_dir.empty() ? "." : base_dir;
  lib.confine = confine;
  lib.core_namespace = true;
  FunctionTable t = standard_functions(lib);
  t.remove("type");
  t.remove("core::type");
  add_both(t, "ephemeralasnull", ephemeralasnull_fn());
  if (console) {
    add_both(t, "type", console_type_fn());
  } else {
    add_both(t, "plantimestamp", plantimestamp_fn());
  }
  return std::make_shared<const FunctionTable>(std::move(t));
}

}  // namespace

std::shared_ptr<const FunctionTable> terraform_functions(const std::string& base_dir, bool confine,
                                                         bool console) {
  // Tables are immutable: one per directory and kind serves every
  // evaluation (making one costs more than evaluating a small module).
  static std::mutex mu;
  static std::map<std::tuple<std::string, bool, bool>, std::shared_ptr<const FunctionTable>> tables;
  auto key = std::make_tuple(base_dir, confine, console);
  std::lock_guard<std::mutex> lock(mu);
  auto it = tables.find(key);
  if (it != tables.end()) return it->second;
  if (tables.size() >= 64) tables.clear();  // a bound for processes that load many directories
  auto t = build_table(base_dir, confine, console);
  tables.emplace(std::move(key), t);
  return t;
}

}  // namespace hclvm::config::detail

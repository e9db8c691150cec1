// Set functions, as go-cty's stdlib set.go and collection.go define them:
// setunion, setintersection, setsubtract and setproduct. Results are sets
// built by cty's rules (value/set.cpp: its order, its notion of equal
// elements).
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "value/convert.h"
#include "value/ops.h"

namespace hclvm::funcs {

namespace {

const Type* any_set() { return Type::set(Type::dynamic()); }

// cty's setOperationReturnType: a set of the unified element types, empty
// sets of unknown element type left out.
TypeResult set_operation_type(std::span<const Value> args) {
  std::vector<const Type*> etys;
  for (const Value& a : args) {
    const Type* ety = a.type()->element();
    if (a.is_known() && a.length() == 0 && ety->is_dynamic()) continue;
    etys.push_back(ety);
  }
  if (etys.empty()) return type_ok(any_set());
  Unified u = unify_unsafe(etys);
  if (!u.type) return type_error("given sets must all have compatible element types");
  return type_ok(Type::set(u.type));
}

enum class SetOp { Union, Intersection, Subtract };

// cty's setOperationImpl for [op].
Function::ImplFn set_operation_impl(SetOp op) {
  return [op](std::span<const Value> args, const Type* ret) {
    std::vector<Value> sets;
    for (size_t i = 0; i < args.size(); ++i) {
      ConvertResult c = convert(args[i], ret);
      if (!c.ok()) return arg_error(c.error().message, int(i));
      // Only a union is right while elements are unknown: knowing them
      // could merge elements or change what the others keep.
      if (op != SetOp::Union && !c.value().is_wholly_known()) {
        return FuncResult::of(Value::unknown(ret));
      }
      // Converting to a set of any type leaves each set its own element
      // type; cty's sets of different element types cannot be combined
      // (its set package panics), checked as each set joins the first.
      const Type* rules = sets.empty() ? nullptr : sets[0].type()->element();
      if (rules && c.value().type()->element() != rules) {
        return FuncResult::fail(
            "panic in function implementation: incompatible set rules: cty.setRules{Type:" +
            rules->go_string() + "}, cty.setRules{Type:" + c.value().type()->element()->go_string() +
            "}");
      }
      sets.push_back(c.take());
    }
    std::vector<Value> out;
    const Value& first = sets[0];
    switch (op) {
      case SetOp::Union:
        for (const Value& s : sets) {
          for (size_t k = 0; k < s.length(); ++k) out.push_back(s.element(k));
        }
        break;
      case SetOp::Intersection:
        for (size_t k = 0; k < first.length(); ++k) {
          const Value& e = first.element(k);
          bool everywhere = true;
          for (size_t j = 1; j < sets.size() && everywhere; ++j)
            everywhere = ops::set_stores(sets[j], e);
          if (everywhere) out.push_back(e);
        }
        break;
      case SetOp::Subtract:
        for (size_t k = 0; k < first.length(); ++k) {
          const Value& e = first.element(k);
          if (!ops::set_stores(sets[1], e)) out.push_back(e);
        }
        break;
    }
    return FuncResult::of(Value::set(ret->element(), std::move(out)));
  };
}

// setunion or setintersection: one set and any number more.
Function variadic_set_fn(std::string description, SetOp op) {
  Function f;
  f.description = std::move(description);
  f.params = {param("first_set", any_set(), kDynamic)};
  f.var_param = param("other_sets", any_set(), kDynamic);
  f.type = set_operation_type;
  f.result_not_null = true;
  f.impl = set_operation_impl(op);
  return f;
}

Function setsubtract_fn() {
  Function f;
  f.description = "Returns the relative complement of the two given sets.";
  f.params = {param("a", any_set(), kDynamic), param("b", any_set(), kDynamic)};
  f.type = set_operation_type;
  f.result_not_null = true;
  f.impl = set_operation_impl(SetOp::Subtract);
  return f;
}

Function setproduct_fn() {
  Function f;
  f.description = "Calculates the cartesian product of two or more sets.";
  f.var_param = param("sets", Type::dynamic(), kMarked | kUnknown);
  f.type = [](std::span<const Value> args) {
    if (args.size() < 2) return type_error("at least two arguments are required");
    size_t lists = 0;
    std::vector<const Type*> etys;
    for (size_t i = 0; i < args.size(); ++i) {
      const Type* t = args[i].type();
      if (t->is_set()) {
        etys.push_back(t->element());
      } else if (t->is_list()) {
        etys.push_back(t->element());
        ++lists;
      } else if (t->is_tuple()) {
        // A tuple works when its elements have a common type.
        ++lists;
        if (t->size() == 0) {
          etys.push_back(Type::dynamic());
          continue;
        }
        std::vector<const Type*> all;
        for (size_t k = 0; k < t->size(); ++k) all.push_back(t->tuple_element(k));
        Unified u = unify_unsafe(all);
        if (!u.type) return type_error("all elements must be of the same type", int(i));
        etys.push_back(u.type);
      } else {
        return type_error("a set or a list is required", int(i));
      }
    }
    const Type* tuple = Type::tuple(etys);
    return type_ok(lists == args.size() ? Type::list(tuple) : Type::set(tuple));
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Type* ety = ret->element();
    Marks marks;
    std::vector<Value> plain;
    bool unknown_length = false;
    for (const Value& a : args) {
      auto [v, m] = a.unmark_with_marks();
      marks.add(m);
      if (!v.is_known())
        unknown_length = true;
      else if (v.type()->is_set() && !ops::length(v).value.is_known())
        unknown_length = true;
      plain.push_back(std::move(v));
    }
    if (unknown_length) return FuncResult::of(Value::unknown(ret).mark(marks));
    // The product's size, checked before anything is built (saturating:
    // a product past the collection limit is refused at once).
    uint64_t total = 1;
    for (const Value& v : plain) {
      uint64_t n = v.length();
      total = n != 0 && total > UINT64_MAX / n ? UINT64_MAX : total * n;
    }
    util::check_collection_size(total);
    std::vector<Value> product;
    if (total > 0) {
      std::vector<size_t> idx(plain.size(), 0);
      for (uint64_t n = 0; n < total; ++n) {
        poll_every(size_t(n));
        std::vector<Value> tuple;
        for (size_t j = 0; j < plain.size(); ++j) {
          Value e = plain[j].element(idx[j]);
          ConvertResult c = convert(e, ety->tuple_element(j));
          if (!c.ok()) {
            return FuncResult::fail(
                "failed to convert argVals[" + std::to_string(j) + "][" + std::to_string(idx[j]) +
                "] to " + ety->tuple_element(j)->friendly_name() + "; this is a bug in cty");
          }
          tuple.push_back(c.take());
        }
        product.push_back(Value::tuple(std::move(tuple)));
        for (size_t j = plain.size(); j-- > 0;) {
          if (++idx[j] < plain[j].length()) break;
          idx[j] = 0;
        }
      }
    }
    Value out =
        ret->is_list() ? Value::list(ety, std::move(product)) : Value::set(ety, std::move(product));
    return FuncResult::of(out.mark(marks));
  };
  return f;
}

}  // namespace

void add_set_functions(FunctionTable& t) {
  add(t, "setintersection",
      variadic_set_fn("Returns the intersection of all given sets.", SetOp::Intersection));
  add(t, "setproduct", setproduct_fn());
  add(t, "setsubtract", setsubtract_fn());
  add(t, "setunion", variadic_set_fn("Returns the union of all given sets.", SetOp::Union));
}

}  // namespace hclvm::funcs

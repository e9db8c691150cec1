// Collection functions, as go-cty's stdlib collection.go and sequence.go
// define them (newest release), with Terraform's length(): chunklist,
// coalescelist, compact, concat, contains, distinct, element, flatten,
// keys, length, lookup, merge, range, reverse, slice, values, zipmap.
//
// Functions that accept marked arguments take the top-level marks off,
// work on the plain value and put the marks back on the result, as cty's
// do; marks deeper inside travel with the elements.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "util/stack.h"
#include "value/convert.h"
#include "value/number.h"
#include "value/ops.h"
#include "value/refine.h"

namespace hclvm::funcs {

namespace {

const Type* dyn() { return Type::dynamic(); }

// A sequence value: a tuple of [elems] when [t] is a tuple type, else a
// list of [t]'s element type.
Value seq_value(const Type* t, std::vector<Value> elems) {
  if (t->is_tuple()) return Value::tuple(std::move(elems));
  return Value::list(t->element(), std::move(elems));
}

// The same from [elems], whose values are moved out.
Value seq_value_from(const Type* t, std::span<Value> elems) {
  if (t->is_tuple()) return Value::tuple_from(t, elems);
  return Value::list_from(t->element(), elems);
}

// The (key, value) pairs of a known map or object, in key order.
std::vector<std::pair<std::string, Value>> entries_of(const Value& v) {
  std::vector<std::pair<std::string, Value>> out;
  const Type* t = v.type();
  if (t->is_object()) {
    for (size_t i = 0; i < t->size(); ++i)
      out.emplace_back(std::string(t->attr_name(i)), v.attr(i));
  } else {
    for (size_t i = 0; i < v.length(); ++i)
      out.emplace_back(std::string(v.map_key(i)), v.map_value(i));
  }
  return out;
}

// The reference's length(): strings count grapheme clusters, objects their
// attributes, collections and tuples their elements.
Function length_fn() {
  Function f;
  f.params = {param("value", dyn(), kDynamic | kUnknown | kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t == Type::string() || t->is_dynamic() || t->is_object() || t->is_tuple() ||
        t->is_collection()) {
      return type_ok(Type::number());
    }
    return type_error("argument must be a string, a collection type, or a structural type");
  };
  f.impl = [](std::span<const Value> args, const Type*) {
    auto [v, marks] = args[0].unmark_with_marks();
    const Type* t = v.type();
    if (!v.is_known()) return FuncResult::of(Value::unknown(Type::number()).mark(marks));
    if (v.is_null()) return FuncResult::fail("argument must not be null");
    if (t == Type::string()) return FuncResult::of(strlen_value(v).mark(marks));
    if (t->is_object()) return FuncResult::of(Value::integer(int64_t(t->size())).mark(marks));
    ops::Result r = ops::length(v);
    if (!r.ok()) return FuncResult::fail(r.error);
    return FuncResult::of(r.value.mark(marks));
  };
  return f;
}

Function keys_fn() {
  Function f;
  f.description = "Returns a list of the keys of the given map in lexicographical order.";
  f.params = {param("inputMap", dyn(), kUnknown | kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_map()) return type_ok(Type::list(Type::string()));
    if (t->is_object()) {
      Scratch<std::vector<const Type*>> etys;
      etys->assign(t->size(), Type::string());
      return type_ok(Type::tuple(*etys));
    }
    return type_error("must have map or object type", 0);
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [m, marks] = args[0].unmark_with_marks();
    const Type* t = m.type();
    ScratchValues keys;
    if (t->is_object()) {
      // Only the type matters, so an unknown object works as well.
      for (size_t i = 0; i < t->size(); ++i) keys->push_back(Value::string(t->attr_name(i)));
      return FuncResult::of(Value::tuple_from(ret, *keys).mark(marks));
    }
    if (!m.is_known()) return FuncResult::of(Value::unknown(ret).mark(marks));
    for (size_t i = 0; i < m.length(); ++i) keys->push_back(Value::string(m.map_key(i)));
    return FuncResult::of(Value::list_from(Type::string(), *keys).mark(marks));
  };
  return f;
}

Function values_fn() {
  Function f;
  f.description =
      "Returns the values of elements of a given map, or the values of attributes of a given "
      "object, in lexicographic order by key or attribute name.";
  f.params = {param("mapping", dyn(), kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_map()) return type_ok(Type::list(t->element()));
    if (t->is_object()) {
      std::vector<const Type*> etys;
      for (size_t i = 0; i < t->size(); ++i) etys.push_back(t->attr_type(i));
      return type_ok(Type::tuple(etys));
    }
    return type_error("values() requires a map as the first argument");
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [m, marks] = args[0].unmark_with_marks();
    std::vector<Value> vals;
    for (auto& [k, v] : entries_of(m)) vals.push_back(std::move(v));
    return FuncResult::of(seq_value(ret, std::move(vals)).mark(marks));
  };
  return f;
}

Function lookup_fn() {
  Function f;
  f.description =
      "Returns the value of the element with the given key from the given map, or returns the "
      "default value if there is no such element.";
  f.params = {param("inputMap", dyn(), kMarked), param("key", Type::string(), kMarked),
              param("default", dyn(), kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_object()) {
      if (!args[1].is_known()) return type_ok(dyn());
      std::string key(args[1].unmark().as_string());
      if (auto i = t->find_attr(key)) return type_ok(t->attr_type(*i));
      return type_ok(args[2].type());
    }
    if (t->is_map()) {
      if (!convert(args[2], t->element()).ok()) {
        return type_error("the default value must have the same type as the map elements", 2);
      }
      return type_ok(t->element());
    }
    return type_error("lookup() requires a map as the first argument", 0);
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [m, marks] = args[0].unmark_with_marks();
    auto [key, key_marks] = args[1].unmark_with_marks();
    marks.add(key_marks);
    if (!m.is_wholly_known()) return FuncResult::of(Value::unknown(ret).mark(marks));
    std::string_view k = key.as_string();
    if (m.type()->is_object()) {
      if (const Value* a = m.attr(k)) return FuncResult::of(a->mark(marks));
    } else if (const Value* e = m.map_find(k)) {
      return FuncResult::of(e->mark(marks));
    }
    ConvertResult d = convert(args[2], ret);
    if (!d.ok()) return FuncResult::fail(d.error().message);
    return FuncResult::of(d.value().mark(marks));
  };
  return f;
}

// The map (when [ret] is a map type) or object of [entries], marked with
// [marks]: the result of merge and zipmap.
Value map_or_object(const Type* ret, const std::map<std::string, Value, std::less<>>& entries,
                    const Marks& marks) {
  std::vector<std::pair<std::string, Value>> list(entries.begin(), entries.end());
  if (ret->is_map()) return Value::map(ret->element(), std::move(list)).mark(marks);
  return Value::object(std::move(list)).mark(marks);
}

// merge() of unmarked [args] into an object of type [ret] in which each
// attribute comes from the last argument that has it, built straight into
// its slot: sets [out] and returns true; false when [ret] is not such an
// object (maps, marks, attributes of no argument), for the general path.
// The arguments are walked once each, from the last, each attribute or
// key finding its slot by name: the work grows with the number of
// attributes and keys given (times a logarithm), not with their product.
bool merge_in_place(std::span<const Value> args, const Type* ret, Value& out) {
  if (!ret->is_object()) return false;
  for (const Value& a : args)
    if (a.is_marked()) return false;
  ScratchValues values;
  values->resize(ret->size());
  Scratch<std::vector<uint8_t>> have;  // per slot: filled yet?
  have->assign(ret->size(), 0);
  size_t filled = 0;
  auto take = [&](std::string_view name, const Value& v) {
    std::optional<size_t> slot = ret->find_attr(name);
    if (!slot || (*have)[*slot]) return;
    (*values)[*slot] = v;
    (*have)[*slot] = 1;
    ++filled;
  };
  for (size_t j = args.size(); j-- > 0 && filled < ret->size();) {
    const Value& a = args[j];
    if (a.is_null()) continue;
    const Type* t = a.type();
    if (t->is_object()) {
      for (size_t k = 0; k < t->size(); ++k) take(t->attr_name(k), a.attr(k));
    } else {
      if (!a.is_known()) return false;
      for (size_t k = 0; k < a.length(); ++k) take(a.map_key(k), a.map_value(k));
    }
  }
  if (filled < ret->size()) return false;
  out = Value::object_from(ret, *values);
  return true;
}

Function merge_fn() {
  Function f;
  f.description =
      "Merges all of the elements from the given maps into a single map, or the attributes from "
      "given objects into a single object.";
  f.var_param = param("maps", dyn(), kDynamic | kNull | kMarked);
  f.type = [](std::span<const Value> args) {
    if (args.empty()) return type_ok(Type::empty_object());
    // Every attribute or key with its type, in argument order, sorted by
    // name after; the last of equal names wins. Scratch kept per thread.
    struct Named {
      TypeAttr attr;
      size_t order;
    };
    thread_local std::vector<Named> named;
    thread_local std::vector<TypeAttr> attrs;
    named.clear();
    const Type* first = nullptr;
    bool matching = true, attrs_known = true;
    for (size_t i = 0; i < args.size(); ++i) {
      const Type* t = args[i].type();
      if (t->is_dynamic()) return type_ok(dyn());
      if (!t->is_map() && !t->is_object()) {
        return type_error("arguments must be maps or objects, got \"" + t->friendly_name() + "\"");
      }
      Value a = args[i].unmark();
      if (t->is_object() && a.is_null()) {
        // go-cty 1.18.1: a null object counts as one without attributes,
        // also when the types are compared (null objects of one type with
        // attributes merge into {}, where 1.18.0 panicked).
        t = Type::empty_object();
      } else if (t->is_object()) {
        for (size_t k = 0; k < t->size(); ++k)
          named.push_back({{t->attr_name(k), t->attr_type(k)}, named.size()});
      } else if (t->is_map()) {
        if (a.is_null()) {
        } else if (a.is_known()) {
          for (size_t k = 0; k < a.length(); ++k)
            named.push_back({{a.map_key(k), t->element()}, named.size()});
        } else {
          attrs_known = false;
        }
      }
      if (i == 0) {
        first = t;
        continue;
      }
      if (t != first) matching = false;
    }
    if (matching) return type_ok(first);
    if (!attrs_known) return type_ok(dyn());
    std::sort(named.begin(), named.end(), [](const Named& x, const Named& y) {
      return x.attr.name != y.attr.name ? x.attr.name < y.attr.name : x.order < y.order;
    });
    attrs.clear();
    for (size_t i = 0; i < named.size(); ++i) {
      if (i + 1 < named.size() && named[i + 1].attr.name == named[i].attr.name) continue;
      attrs.push_back(named[i].attr);
    }
    return type_ok(Type::object(attrs));
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    if (Value v; merge_in_place(args, ret, v)) return FuncResult::of(std::move(v));
    std::map<std::string, Value, std::less<>> out;
    Marks marks;
    for (const Value& arg : args) {
      if (arg.is_null()) continue;
      auto [a, m] = arg.unmark_with_marks();
      marks.add(m);
      for (auto& [k, v] : entries_of(a)) out[k] = std::move(v);
    }
    return FuncResult::of(map_or_object(ret, out, marks));
  };
  return f;
}

Function reverse_fn() {
  Function f;
  f.description = "Returns the given list with its elements in reverse order.";
  f.params = {param("list", dyn(), kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_tuple()) {
      Scratch<std::vector<const Type*>> etys;
      for (size_t i = t->size(); i-- > 0;) etys->push_back(t->tuple_element(i));
      return type_ok(Type::tuple(*etys));
    }
    if (t->is_list() || t->is_set()) return type_ok(Type::list(t->element()));
    return type_error("can only reverse list or tuple values, not " + t->friendly_name(), 0);
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [in, marks] = args[0].unmark_with_marks();
    ScratchValues out;
    for (size_t i = in.length(); i-- > 0;) out->push_back(in.element(i));
    return FuncResult::of(seq_value_from(ret, *out).mark(marks));
  };
  return f;
}

Function concat_fn() {
  Function f;
  f.description =
      "Concatenates together all of the given lists or tuples into a single sequence, preserving "
      "the input order.";
  f.var_param = param("seqs", dyn(), kMarked);
  f.type = [](std::span<const Value> args) {
    if (args.empty()) return type_error("at least one argument is required");
    if (args[0].type()->is_list()) {
      std::vector<const Type*> tys;
      bool all_lists = true;
      for (const Value& a : args) {
        if (!a.type()->is_list()) {
          all_lists = false;
          break;
        }
        tys.push_back(a.type());
      }
      if (all_lists) {
        Unified u = unify_unsafe(tys);
        if (u.type) return type_ok(u.type);
      }
    }
    std::vector<const Type*> etys;
    for (size_t i = 0; i < args.size(); ++i) {
      Value v = args[i].unmark_deep().first;
      const Type* t = v.type();
      if (t->is_tuple()) {
        util::check_collection_size(uint64_t(etys.size()) + t->size());
        for (size_t k = 0; k < t->size(); ++k) etys.push_back(t->tuple_element(k));
      } else if (t->is_list()) {
        if (!v.is_known()) return type_ok(dyn());
        util::check_collection_size(uint64_t(etys.size()) + v.length());
        for (size_t k = 0; k < v.length(); ++k) etys.push_back(t->element());
      } else {
        return type_error("all arguments must be lists or tuples; got " + t->friendly_name(),
                          int(i));
      }
    }
    return type_ok(Type::tuple(etys));
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    std::vector<Value> vals;
    Marks marks;
    for (size_t i = 0; i < args.size(); ++i) {
      Value seq = args[i];
      if (ret->is_list()) {
        ConvertResult c = convert(seq, ret);
        if (!c.ok()) return arg_error(c.error().message, int(i));
        seq = c.take();
      }
      auto [s, m] = seq.unmark_with_marks();
      marks.add(m);
      // One list given many times concatenates to many copies: the size is
      // checked before each is added.
      util::check_collection_size(uint64_t(vals.size()) + s.length());
      for (size_t k = 0; k < s.length(); ++k) vals.push_back(s.element(k));
    }
    return FuncResult::of(seq_value(ret, std::move(vals)).mark(marks));
  };
  return f;
}

Function contains_fn() {
  Function f;
  f.description =
      "Returns true if the given value is a value in the given list, tuple, or set, or false "
      "otherwise.";
  // go-cty 1.18.1 accepts a null value (a typed null is searched for; a
  // plain `null`, of no type, makes the result unknown: the convention of
  // Function::call for arguments of the dynamic pseudo-type).
  f.params = {param("list", dyn()), param("value", dyn(), kNull)};
  f.returns(Type::boolean());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    const Value& l = args[0];
    const Type* t = l.type();
    if (!t->is_list() && !t->is_tuple() && !t->is_set()) {
      return FuncResult::fail("argument must be list, tuple, or set");
    }
    if (l.length() == 0) return FuncResult::of(Value::boolean(false));
    bool unknown = false;
    for (size_t i = 0; i < l.length(); ++i) {
      poll_every(i);
      Value eq = ops::equals(args[1], l.element(i));
      if (!eq.is_known()) {
        unknown = true;
        continue;
      }
      if (eq.unmark().as_bool()) return FuncResult::of(Value::boolean(true));
    }
    if (unknown) return FuncResult::of(Value::unknown(Type::boolean()));
    return FuncResult::of(Value::boolean(false));
  };
  return f;
}

Function coalescelist_fn() {
  Function f;
  f.description = "Returns the first of the given sequences that has a length greater than zero.";
  f.var_param = param("vals", dyn(), kUnknown | kDynamic | kNull);
  f.type = [](std::span<const Value> args) {
    if (args.empty()) return type_error("at least one argument is required");
    for (const Value& a : args) {
      if (!a.is_known()) return type_ok(dyn());
      if (!a.type()->is_list() && !a.type()->is_tuple()) {
        return type_error("coalescelist arguments must be lists or tuples");
      }
    }
    for (const Value& a : args.subspan(1)) {
      if (a.type() != args[0].type()) return type_ok(dyn());
    }
    return type_ok(args[0].type());
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    for (const Value& a : args) {
      if (!a.is_known()) return FuncResult::of(Value::unknown(ret));
      if (a.is_null()) continue;
      if (a.length() > 0) return FuncResult::of(a);
    }
    return FuncResult::fail("no non-null arguments");
  };
  return f;
}

Function compact_fn() {
  Function f;
  f.description = "Removes all empty string elements from the given list of strings.";
  f.params = {param("list", Type::list(Type::string()))};
  f.returns(Type::list(Type::string()));
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& l = args[0];
    if (!l.is_wholly_known()) return FuncResult::of(Value::unknown(ret));
    std::vector<Value> out;
    for (size_t i = 0; i < l.length(); ++i) {
      const Value& e = l.element(i);
      if (e.is_null() || e.unmark().as_string().empty()) continue;
      out.push_back(e);
    }
    return FuncResult::of(Value::list(Type::string(), std::move(out)));
  };
  return f;
}

Function distinct_fn() {
  Function f;
  f.description =
      "Removes any duplicate values from the given list, preserving the order of remaining "
      "elements.";
  f.params = {param("list", Type::list(dyn()))};
  f.type = [](std::span<const Value> args) { return type_ok(args[0].type()); };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    const Value& l = args[0];
    if (!l.is_wholly_known()) return FuncResult::of(Value::unknown(ret));
    std::vector<Value> out;
    for (size_t i = 0; i < l.length(); ++i) {
      const Value& e = l.element(i);
      // Quadratic, as the reference: each comparison is a step.
      util::charge_steps(out.size());
      bool seen = false;
      for (const Value& o : out) {
        Value eq = ops::equals(o, e);
        if (eq.is_known() && eq.unmark().as_bool()) {
          seen = true;
          break;
        }
      }
      if (!seen) out.push_back(e);
    }
    return FuncResult::of(Value::list(ret->element(), std::move(out)));
  };
  return f;
}

Function element_fn() {
  Function f;
  f.description =
      "Returns the element with the given index from the given list or tuple, applying the "
      "modulo operation to the given index if it's greater than the number of elements.";
  f.params = {param("list", dyn(), kMarked), param("index", Type::number())};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_list()) return type_ok(t->element());
    if (t->is_tuple()) {
      if (!args[1].is_known()) return type_ok(dyn());
      int64_t index = 0;
      std::string err;
      if (!to_int(args[1], index, err)) return type_error("invalid index: " + err);
      if (t->size() == 0) return type_error("cannot use element function with an empty list");
      int64_t n = int64_t(t->size());
      index %= n;
      if (index < 0) index += n;
      return type_ok(t->tuple_element(size_t(index)));
    }
    return type_error("cannot read elements from " + t->friendly_name());
  };
  f.impl = [](std::span<const Value> args, const Type* ret) {
    int64_t index = 0;
    std::string err;
    if (!to_int(args[1], index, err)) return FuncResult::fail("invalid index: " + err);
    auto [in, marks] = args[0].unmark_with_marks();
    if (!in.is_known()) return FuncResult::of(Value::unknown(ret));
    int64_t n = int64_t(in.length());
    if (n == 0) return FuncResult::fail("cannot use element function with an empty list");
    index %= n;
    if (index < 0) index += n;
    return FuncResult::of(in.element(size_t(index)).mark(marks));
  };
  return f;
}

// cty's flattener: appends the flattened elements of [v] to [out] and
// reports whether they are all known (when they are not, the caller drops
// [out]); marks found on the way are added to [marks]. A value that
// repeats a shared sequence flattens it every time, so each sequence
// entered counts as a step (empty ones add nothing to the result) and
// the result counts against the memory and collection size limits as it
// grows; nesting recurses within the stack budget of a run_deep.
bool flatten_into(const Value& v, std::vector<Value>& out, Marks& marks) {
  auto [list, m] = v.unmark_with_marks();
  marks.add(m);
  if (!list.is_known() && !list.type()->is_tuple()) return false;
  util::enter_level();
  util::charge_steps(1);
  bool known = true;
  for (size_t i = 0; i < list.length(); ++i) {
    const Value& e = list.element(i);
    if (e.type()->is_dynamic() && !e.is_known()) known = false;
    const Type* t = e.type();
    if (!e.is_null() && (t->is_list() || t->is_set() || t->is_tuple())) {
      if (!e.is_known()) {
        known = false;
        marks.add(e.unmark_with_marks().second);
        continue;
      }
      if (!flatten_into(e, out, marks)) known = false;
    } else {
      util::check_collection_size(out.size() + 1);
      util::charge_memory(sizeof(Value));
      out.push_back(e);
    }
  }
  return known;
}

// flatten_into() within a stack budget of its own.
bool flatten_deep(const Value& v, std::vector<Value>& out, Marks& marks) {
  // A try that runs out of stack starts over from nothing.
  return util::run_deep([&](const util::StackBudget&) {
    out.clear();
    marks = Marks();
    return flatten_into(v, out, marks);
  });
}

Function flatten_fn() {
  Function f;
  f.description =
      "Transforms a list, set, or tuple value into a tuple by replacing any given elements that "
      "are themselves sequences with a flattened tuple of all of the nested elements "
      "concatenated together.";
  f.params = {param("list", dyn(), kMarked)};
  f.type = [](std::span<const Value> args) {
    if (!args[0].is_wholly_known()) return type_ok(dyn());
    const Type* t = args[0].type();
    if (!t->is_list() && !t->is_set() && !t->is_tuple()) {
      return type_error("can only flatten lists, sets and tuples");
    }
    std::vector<Value> out;
    Marks marks;
    if (!flatten_deep(args[0], out, marks)) return type_ok(dyn());
    std::vector<const Type*> tys;
    for (const Value& v : out) tys.push_back(v.type());
    return type_ok(Type::tuple(tys));
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [in, m] = args[0].unmark_with_marks();
    if (in.length() == 0) return FuncResult::of(Value::tuple({}).mark(m));
    std::vector<Value> out;
    Marks marks;
    if (!flatten_deep(args[0], out, marks)) return FuncResult::of(Value::unknown(ret).mark(marks));
    return FuncResult::of(Value::tuple(std::move(out)).mark(marks));
  };
  return f;
}

Function range_fn() {
  Function f;
  f.description = "Returns a list of numbers spread evenly over a particular range.";
  f.var_param = param("params", Type::number());
  f.returns(Type::list(Type::number()));
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    Value start, end, step;
    auto less = [](const Value& a, const Value& b) {
      return Number::cmp(a.as_number(), b.as_number()) < 0;
    };
    Value zero = Value::integer(0);
    switch (args.size()) {
      case 1:
        start = zero, end = args[0];
        step = Value::integer(less(args[0], zero) ? -1 : 1);
        break;
      case 2:
        start = args[0], end = args[1];
        step = Value::integer(less(args[1], args[0]) ? -1 : 1);
        break;
      case 3: start = args[0], end = args[1], step = args[2]; break;
      default: return FuncResult::fail("must have one, two, or three arguments");
    }
    // cty compares the step with its Zero singleton by identity, which no
    // argument ever is, so a zero step is not rejected here: it counts up
    // until the limit below.
    bool down = less(step, zero);
    if (down) {
      if (less(start, end)) {
        return arg_error("end must be less than start when step is negative", 1);
      }
    } else if (less(end, start)) {
      return arg_error("end must be greater than start when step is positive", 1);
    }
    std::vector<Value> vals;
    Value n = start;
    for (;;) {
      // cty's LessThanOrEqualTo and GreaterThanOrEqualTo: the order, or
      // cty's equality (integers exactly, fractions by their texts).
      Number a = n.as_number(), b = end.as_number();
      int c = Number::cmp(a, b);
      if ((down ? c < 0 : c > 0) || ops::number_equal(a, b)) break;
      if (vals.size() >= 1024) {
        return FuncResult::fail(
            "more than 1024 values were generated; either decrease the difference between start "
            "and end or use a smaller step");
      }
      vals.push_back(n);
      ops::Result r = ops::add(n, step);
      if (!r.ok()) return FuncResult::fail(r.error);
      n = std::move(r.value);
    }
    return FuncResult::of(Value::list(Type::number(), std::move(vals)));
  };
  return f;
}

Function zipmap_fn() {
  Function f;
  f.description =
      "Constructs a map from a list of keys and a corresponding list of values, which must both "
      "be of the same length.";
  f.params = {param("keys", Type::list(Type::string()), kMarked), param("values", dyn(), kMarked)};
  f.type = [](std::span<const Value> args) {
    const Type* vt = args[1].type();
    if (vt->is_list()) return type_ok(Type::map(vt->element()));
    if (vt->is_tuple()) {
      if (!args[0].is_wholly_known()) return type_ok(dyn());
      Value keys = args[0].unmark();
      if (keys.length() != vt->size()) {
        return type_error("number of keys (" + std::to_string(keys.length()) +
                          ") does not match number of values (" + std::to_string(vt->size()) + ")");
      }
      std::map<std::string, const Type*, std::less<>> atys;
      for (size_t i = 0; i < keys.length(); ++i) {
        Value k = keys.element(i).unmark();
        if (k.is_null()) {
          return type_error("keys list has null value at index " + std::to_string(i));
        }
        atys[std::string(k.as_string())] = vt->tuple_element(i);
      }
      std::vector<TypeAttr> attrs;
      for (auto& [name, t] : atys) attrs.push_back({name, t, false});
      return type_ok(Type::object(attrs));
    }
    return type_error("values argument must be a list or tuple value");
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [keys, marks] = args[0].unmark_with_marks();
    auto [values, vmarks] = args[1].unmark_with_marks();
    marks.add(vmarks);
    if (!keys.is_wholly_known()) return FuncResult::of(Value::unknown(ret).mark(marks));
    if (keys.length() != values.length()) {
      return FuncResult::fail("number of keys (" + std::to_string(keys.length()) +
                              ") does not match number of values (" +
                              std::to_string(values.length()) + ")");
    }
    std::map<std::string, Value, std::less<>> out;
    for (size_t i = 0; i < keys.length(); ++i) {
      poll_every(i);
      auto [k, km] = keys.element(i).unmark_with_marks();
      marks.add(km);
      out[std::string(k.as_string())] = values.element(i);
    }
    return FuncResult::of(map_or_object(ret, out, marks));
  };
  return f;
}

Function chunklist_fn() {
  Function f;
  f.description =
      "Splits a single list into multiple lists where each has at most the given number of "
      "elements.";
  f.params = {param("list", Type::list(dyn()), kMarked), param("size", Type::number(), kMarked)};
  f.type = [](std::span<const Value> args) { return type_ok(Type::list(args[0].type())); };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    auto [l, marks] = args[0].unmark_with_marks();
    auto [sz, smarks] = args[1].unmark_with_marks();
    marks.add(smarks);
    int64_t size = 0;
    std::string err;
    if (!to_int(sz, size, err)) return FuncResult::fail("invalid size: " + err);
    if (size < 0) return FuncResult::fail("the size argument must be positive");
    const Type* lt = l.type();
    if (l.length() == 0) return FuncResult::of(Value::list(lt, {}).mark(marks));
    if (size == 0) return FuncResult::of(Value::list(lt, {l}).mark(marks));
    std::vector<Value> out, chunk;
    size_t n = l.length();
    for (size_t i = 0; i < n; ++i) {
      chunk.push_back(l.element(i));
      if ((i + 1) % size_t(size) == 0 || i + 1 == n) {
        out.push_back(Value::list(lt->element(), std::move(chunk)));
        chunk.clear();
      }
    }
    return FuncResult::of(Value::list(lt, std::move(out)).mark(marks));
  };
  return f;
}

// cty's sliceIndexes: the start and end of a slice of args[0], whether both
// are known, or an error.
struct SliceIdx {
  int64_t start = 0, end = 0;
  bool known = false;
  std::optional<FuncError> error;
};

SliceIdx slice_indexes(std::span<const Value> args) {
  SliceIdx r;
  Value list = args[0].unmark();
  int64_t length = 0;
  bool length_known = false;
  if (list.type()->is_tuple()) {
    length = int64_t(list.type()->size());
    length_known = true;
  } else if (list.is_known()) {
    length = int64_t(list.length());
    length_known = true;
  }
  // Reads the bound in argument [arg] ("start" or "end") into [out].
  auto bound = [&](size_t arg, const char* which, int64_t& out) {
    std::string err;
    std::string name = which;
    if (!to_int(args[arg], out, err)) {
      r.error = FuncError{"invalid " + name + " index: " + err, int(arg)};
    } else if (out < 0) {
      r.error = FuncError{name + " index must not be less than zero", int(arg)};
    } else if (length_known && out > length) {
      r.error = FuncError{name + " index must not be greater than the length of the list", int(arg)};
    }
    return !r.error;
  };
  bool start_known = args[1].is_known(), end_known = args[2].is_known();
  if (start_known && !bound(1, "start", r.start)) return r;
  if (end_known && !bound(2, "end", r.end)) return r;
  if (start_known && end_known && r.start > r.end) {
    r.error = FuncError{"start index must not be greater than end index", 1};
    return r;
  }
  r.known = start_known && end_known;
  return r;
}

Function slice_fn() {
  Function f;
  f.description = "Extracts a subslice of the given list or tuple value.";
  f.params = {param("list", dyn(), kMarked), param("start_index", Type::number()),
              param("end_index", Type::number())};
  f.type = [](std::span<const Value> args) {
    const Type* t = args[0].type();
    if (t->is_set()) {
      return type_error(
          "cannot slice a set, because its elements do not have indices; explicitly convert to a "
          "list if the ordering of the result is not important",
          0);
    }
    if (!t->is_list() && !t->is_tuple()) return type_error("must be a list or tuple value", 0);
    SliceIdx idx = slice_indexes(args);
    if (idx.error) return TypeResult{nullptr, idx.error};
    if (t->is_list()) return type_ok(t);
    if (!idx.known) return type_ok(dyn());
    std::vector<const Type*> etys;
    for (int64_t i = idx.start; i < idx.end; ++i) etys.push_back(t->tuple_element(size_t(i)));
    return type_ok(Type::tuple(etys));
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type* ret) {
    auto [in, marks] = args[0].unmark_with_marks();
    if (ret->is_dynamic()) return FuncResult::of(Value::dynamic().mark(marks));
    SliceIdx idx = slice_indexes(args);
    if (idx.error) return FuncResult{Value(), idx.error};
    std::vector<Value> out;
    for (int64_t i = idx.start; i < idx.end; ++i) out.push_back(in.element(size_t(i)));
    return FuncResult::of(seq_value(ret, std::move(out)).mark(marks));
  };
  return f;
}

}  // namespace

void add_collection_functions(FunctionTable& t) {
  add(t, "chunklist", chunklist_fn());
  add(t, "coalescelist", coalescelist_fn());
  add(t, "compact", compact_fn());
  add(t, "concat", concat_fn());
  add(t, "contains", contains_fn());
  add(t, "distinct", distinct_fn());
  add(t, "element", element_fn());
  add(t, "flatten", flatten_fn());
  add(t, "keys", keys_fn());
  add(t, "length", length_fn());
  add(t, "lookup", lookup_fn());
  add(t, "merge", merge_fn());
  add(t, "range", range_fn());
  add(t, "reverse", reverse_fn());
  add(t, "slice", slice_fn());
  add(t, "values", values_fn());
  add(t, "zipmap", zipmap_fn());
}

}  // namespace hclvm::funcs

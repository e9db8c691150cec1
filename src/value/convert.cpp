// Conversion and unification, following go-cty's convert package rule for
// rule (conversion.go, conversion_*.go, unify.go, compare_types.go,
// sort_types.go, mismatch_msg.go). A plan is a tree of Conversion nodes that
// mirrors cty's closures: every plan returned by conversion_for() is wrapped
// in a Checked node (cty's getConversion wrapper: marks, unknowns, nulls),
// and the node inside does the kind-specific work (primitive, collection,
// structural). Plans are built once per (in, out, unsafe) and kept forever
// in a table (types live forever too), so a per-thread cache of raw plan
// pointers in front of the table keeps convert() lock-free on a hit;
// unification results are kept in a table of their own.
//
// Where cty iterates a Go map (attribute types, map elements) its order is
// random; we use the sorted order, which makes messages that name one of
// several offending attributes deterministic.
//
// Types and values nest as deep as they like and share parts (a tuple type
// of nine copies of a tuple type of nine copies ...). Planning, applying
// and unifying recurse once per level: every public entry point that may
// recurse runs within a stack budget of its own (util/stack.h), and every
// level checks it. Work on types is linear in their distinct parts: plans
// and unifications are kept per type pair, and the walks that are not
// (dynamic_replace, compare_types) remember their answers per pair too.
// Applying a plan to a value that repeats a shared part converts it each
// time, as cty does, but each time makes new values, which the run's
// memory limit counts.
#include "value/convert.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include "util/stack.h"
#include "util/unicode.h"
#include "value/refine.h"

namespace hclvm {

namespace {

ConversionRef conversion_for(const Type* in, const Type* out, bool unsafe);
Unified unify_impl(std::span<const Type* const> types, bool unsafe);

// --- small helpers -------------------------------------------------------------

// Returns [t] without optional attribute markers at any depth (cheap for the
// types that cannot have any).
const Type* plain(const Type* t) {
  switch (t->kind()) {
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
    case TypeKind::Object:
    case TypeKind::Tuple: return t->without_optional_attrs_deep();
    default: return t;
  }
}

// Whether [t] has an optional attribute anywhere inside.
bool has_optional_deep(const Type* t) { return t->has_optional_attrs_deep(); }

// The element type cty's ListVal, SetVal and MapVal give a collection of
// [vals]: the first type that is not dynamic (dynamic when there is none).
const Type* collection_type_of(std::span<const Value> vals) {
  const Type* t = Type::dynamic();
  for (const Value& v : vals)
    if (t->is_dynamic()) t = v.type();
  return t;
}

// cty's CanListVal (also CanSetVal, CanMapVal): every type of [vals] that is
// not dynamic is the same.
bool can_collect(std::span<const Value> vals) {
  const Type* t = Type::dynamic();
  for (const Value& v : vals) {
    const Type* vt = v.type();
    if (t->is_dynamic())
      t = vt;
    else if (!vt->is_dynamic() && vt != t)
      return false;
  }
  return true;
}

// cty's SetVal: set elements cannot carry marks, so they move to the set.
Value make_set(std::vector<Value> elems) {
  Marks marks;
  for (Value& e : elems) {
    if (!e.contains_marked()) continue;
    auto [u, m] = e.unmark_deep();
    e = std::move(u);
    marks.add(m);
  }
  const Type* ety = collection_type_of(elems);
  return Value::set(ety, std::move(elems)).mark(marks);
}

// cty's ListVal.
Value make_list(std::vector<Value> elems) {
  const Type* ety = collection_type_of(elems);
  return Value::list(ety, std::move(elems));
}

// The key and value pairs of a map in key order.
using Entries = std::vector<std::pair<std::string, Value>>;

// The values of [entries], in order.
std::vector<Value> entry_values(const Entries& entries) {
  std::vector<Value> vals;
  vals.reserve(entries.size());
  for (const auto& e : entries) vals.push_back(e.second);
  return vals;
}

// cty's MapVal.
Value make_map(Entries entries) {
  const Type* ety = collection_type_of(entry_values(entries));
  return Value::map(ety, std::move(entries));
}

// cty's ObjectVal: the type comes from the attribute values.
Value make_object(std::vector<std::pair<std::string_view, Value>> attrs) {
  std::sort(attrs.begin(), attrs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TypeAttr> types;
  std::vector<Value> vals;
  types.reserve(attrs.size());
  vals.reserve(attrs.size());
  for (auto& [name, v] : attrs) {
    types.push_back({name, v.type(), false});
    vals.push_back(std::move(v));
  }
  return Value::object(Type::object(types), std::move(vals));
}

// The key of entry [i] of a map or attribute [i] of an object, as a string.
std::string_view key_at(const Value& v, size_t i) {
  return v.rep() == Value::Rep::Map ? v.map_key(i) : v.type()->attr_name(i);
}

// The key of entry [i] as a string value, for a path step (a map already
// holds its keys as values: no allocation).
Value key_value_at(const Value& v, size_t i) {
  if (v.rep() == Value::Rep::Map) return static_cast<const detail::MapObj*>(v.obj())->keys[i];
  return Value::string(v.type()->attr_name(i));
}

// The value of entry [i] of a map, attribute [i] of an object or element [i]
// of a sequence.
const Value& value_at(const Value& v, size_t i) {
  if (v.rep() == Value::Rep::Map) return v.map_value(i);
  if (v.rep() == Value::Rep::Object) return v.attr(i);
  return v.element(i);
}

// cty's rule after an element conversion: a null element loses the optional
// attribute markers of its type (and, as in cty, its marks).
void strip_null(Value& v) {
  if (!v.is_null()) return;
  const Type* t = v.type();
  if (v.is_marked() || has_optional_deep(t)) v = Value::null(plain(t));
}

// Fills [err] with [message] at [path]; returns false for the caller to return.
bool fail(ConvertError& err, const Path& path, std::string message) {
  err.message = std::move(message);
  err.path = path;
  return false;
}

// Pushes a step onto a path for the life of the scope.
class StepScope {
 public:
  StepScope(Path& path, PathStep step) : path_(path) { path_.push_back(std::move(step)); }
  ~StepScope() { path_.pop_back(); }
  StepScope(const StepScope&) = delete;
  StepScope& operator=(const StepScope&) = delete;
  PathStep& step() { return path_.back(); }

 private:
  Path& path_;
};

// --- unknown and null results --------------------------------------------------

// cty's dynamicReplace: [out] with each dynamic part replaced by the matching
// part of [in] (the type of the value being converted). [in] and [out] are
// compatible, as a conversion exists between them. Each pair of parts is
// replaced once, since types share parts.
class DynamicReplacer {
 public:
  const Type* replace(const Type* in, const Type* out) {
    if (in == nullptr || in->is_dynamic()) return out;
    // Nothing to replace: cty rebuilds the same type.
    if (!out->has_dynamic_types()) return out;
    if (out->is_dynamic()) return in;
    auto key = std::make_pair(in, out);
    if (auto it = done_.find(key); it != done_.end()) return it->second;
    util::enter_level();
    const Type* r = parts(in, out);
    done_.emplace(key, r);
    return r;
  }

 private:
  // replace() of the parts of [in] and [out].
  const Type* parts(const Type* in, const Type* out) {
    switch (out->kind()) {
      case TypeKind::Map: {
        const Type* elem = nullptr;
        if (in->is_map()) elem = replace(in->element(), out->element());
        if (in->is_object()) {
          std::vector<const Type*> types;
          for (size_t i = 0; i < in->size(); ++i) types.push_back(in->attr_type(i));
          elem = replace(unify_impl(types, true).type, out->element());
        }
        return Type::map(elem ? elem : out->element());
      }
      case TypeKind::Object: {
        std::vector<TypeAttr> attrs;
        if (in->is_map() || in->is_object()) {
          for (size_t i = 0; i < out->size(); ++i) {
            std::string_view name = out->attr_name(i);
            const Type* at = out->attr_type(i);
            if (in->is_map()) {
              at = replace(in->element(), at);
            } else if (auto j = in->find_attr(name)) {
              at = replace(in->attr_type(*j), at);
            }
            attrs.push_back({name, at, false});
          }
        }
        return Type::object(attrs);
      }
      case TypeKind::Set:
      case TypeKind::List: {
        const Type* elem = nullptr;
        if (in->is_set() || in->is_list()) elem = replace(in->element(), out->element());
        if (in->is_tuple()) {
          std::vector<const Type*> types;
          for (size_t i = 0; i < in->size(); ++i) types.push_back(in->tuple_element(i));
          elem = replace(unify_impl(types, true).type, out->element());
        }
        if (!elem) elem = out->element();
        return out->is_set() ? Type::set(elem) : Type::list(elem);
      }
      case TypeKind::Tuple: {
        std::vector<const Type*> elems;
        for (size_t i = 0; i < out->size(); ++i) {
          const Type* o = out->tuple_element(i);
          elems.push_back(in->is_tuple() && i < in->size() ? replace(in->tuple_element(i), o) : o);
        }
        return Type::tuple(elems);
      }
      default: return out;
    }
  }

  std::map<std::pair<const Type*, const Type*>, const Type*> done_;
};

const Type* dynamic_replace(const Type* in, const Type* out) {
  return DynamicReplacer().replace(in, out);
}

// cty's prepareUnknownResult: the unknown result of converting the unknown
// [in] to [target], with what the source says about nullness and length.
Value unknown_result(const Value& in, const Type* target) {
  ValueRange range = value_range(in);
  const Type* src = range.type_constraint();
  Value ret = Value::unknown(target);
  if (range.definitely_not_null()) ret = refine_not_null(ret);
  if (src->is_object() && target->is_map())
    return refine(ret).collection_length(src->size()).new_value();
  if (src->is_tuple() && target->is_list())
    return refine(ret).collection_length(src->size()).new_value();
  if (src->is_tuple() && target->is_set()) {
    // Elements may coalesce, but never all of them.
    size_t n = src->size();
    if (n <= 1) return refine(ret).collection_length(n).new_value();
    return refine(ret)
        .collection_length_lower_bound(1)
        .collection_length_upper_bound(n)
        .new_value();
  }
  if (src->is_collection() && target->is_collection()) {
    RefinementBuilder b = refine(ret);
    if (!target->is_set())
      b.collection_length_lower_bound(range.length_lower_bound());
    else if (range.length_lower_bound() > 0)
      b.collection_length_lower_bound(1);
    b.collection_length_upper_bound(range.length_upper_bound());
    return b.new_value();
  }
  return ret;
}

// --- conversion nodes ------------------------------------------------------------

// cty's getConversion wrapper around a kind-specific conversion: marks are
// taken off and put back on the result, unknown and null values convert to
// unknown and null values of the target type without looking further.
class Checked final : public Conversion {
 public:
  Checked(const Type* out, ConversionRef known)
      : out_(out), plain_(plain(out)), known_(std::move(known)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    if (out_->is_dynamic()) {
      out = in;
      return true;
    }
    util::enter_level();
    if (in.is_marked()) {
      auto [inner, marks] = in.unmark_with_marks();
      if (!apply(inner, path, out, err)) return false;
      out = out.mark(marks);
      return true;
    }
    if (!in.is_known()) {
      out = unknown_result(in, dynamic_replace(in.type(), plain_));
      return true;
    }
    if (in.is_null()) {
      out = Value::null(dynamic_replace(in.type(), plain_));
      return true;
    }
    return known_->apply(in, path, out, err);
  }

 private:
  const Type* out_;
  const Type* plain_;  // out_ without optional attributes
  ConversionRef known_;
};

// Conversion to the dynamic type: the value as it is.
class Passthrough final : public Conversion {
 public:
  bool apply(const Value& in, Path&, Value& out, ConvertError&) const override {
    out = in;
    return true;
  }
};

// Converts [in] to [want] as cty's Convert does, failures relative to [path].
bool convert_at(const Value& in, const Type* want, const Type* want_plain, Path& path, Value& out,
                ConvertError& err) {
  const Type* t = in.type();
  if (t == want_plain) {
    out = in;
    return true;
  }
  ConversionRef c = conversion_for(t, want, true);
  if (!c) return fail(err, path, mismatch_message(t, want));
  return c->apply(in, path, out, err);
}

// cty's dynamicFixup: a value typed dynamic when the plan was made is
// converted once its real type is known.
class DynamicFixup final : public Conversion {
 public:
  explicit DynamicFixup(const Type* want) : want_(want), plain_(plain(want)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    return convert_at(in, want_, plain_, path, out, err);
  }

 private:
  const Type* want_;
  const Type* plain_;
};

// A defensive check for the nodes that read a payload: cty would panic when
// a conversion is applied to a value of another type.
bool expect_type(const Value& in, const Type* want, const Path& path, ConvertError& err) {
  if (in.type() == want) return true;
  return fail(err, path, mismatch_message(in.type(), want));
}

// A number as its shortest decimal text (big.Float Text('f', -1)).
class NumberToString final : public Conversion {
 public:
  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    if (!expect_type(in, Type::number(), path, err)) return false;
    out = Value::string(in.as_number().text());
    return true;
  }
};

// The two strings a bool becomes, made once.
const Value& bool_string(bool b) {
  static const Value t = [] {
    Value v = Value::string("true");
    v.make_immortal();
    return v;
  }();
  static const Value f = [] {
    Value v = Value::string("false");
    v.make_immortal();
    return v;
  }();
  return b ? t : f;
}

// A bool as "true" or "false".
class BoolToString final : public Conversion {
 public:
  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    if (!expect_type(in, Type::boolean(), path, err)) return false;
    out = bool_string(in.as_bool());
    return true;
  }
};

// A decimal string as a number (cty's ParseNumberVal), unsafe.
class StringToNumber final : public Conversion {
 public:
  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    if (!expect_type(in, Type::string(), path, err)) return false;
    std::optional<Number> n = Number::parse(in.as_string());
    if (!n) return fail(err, path, "a number is required");
    out = Value::number(std::move(*n));
    return true;
  }
};

// "true", "1", "false" or "0" as a bool, unsafe.
class StringToBool final : public Conversion {
 public:
  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    if (!expect_type(in, Type::string(), path, err)) return false;
    std::string_view s = in.as_string();
    if (s == "true" || s == "1") {
      out = Value::boolean(true);
      return true;
    }
    if (s == "false" || s == "0") {
      out = Value::boolean(false);
      return true;
    }
    // Only ASCII letters lower-case to the letters of "true" and "false",
    // so an ASCII fold gives strings.ToLower's answer here.
    std::string lower(s);
    for (char& c : lower)
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (lower == "true")
      return fail(err, path, "a bool is required; to convert from string, use lowercase \"true\"");
    if (lower == "false")
      return fail(err, path, "a bool is required; to convert from string, use lowercase \"false\"");
    return fail(err, path, "a bool is required");
  }
};

// Passes [v] through conversion [c], if there is one, in place; false
// (with [err] set at [path]) when it fails.
bool convert_in_place(const ConversionRef& c, Value& v, Path& path, ConvertError& err) {
  if (!c) return true;
  Value converted;
  if (!c->apply(v, path, converted, err)) return false;
  v = std::move(converted);
  return true;
}

// cty's conversionUnifyListElements and conversionUnifyCollectionElements:
// converts [vals] (named by [key] in paths) to their unified type.
template <typename KeyFn>
bool unify_elements(std::vector<Value>& vals, KeyFn key, Path& path, bool unsafe,
                    ConvertError& err) {
  std::vector<const Type*> types;
  types.reserve(vals.size());
  for (const Value& v : vals) types.push_back(v.type());
  const Type* unified = unify_impl(types, unsafe).type;
  if (!unified) return fail(err, path, "cannot find a common base type for all elements");
  for (size_t i = 0; i < vals.size(); ++i) {
    if (types[i] == unified) continue;
    ConversionRef c = conversion_for(types[i], unified, unsafe);
    StepScope step(path, PathStep::index(key(i)));
    // cty calls a nil conversion here and panics; report it instead.
    if (!c) return fail(err, path, "cannot find a common base type for all elements");
    if (!convert_in_place(c, vals[i], path, err)) return false;
  }
  return true;
}

// Whether the length of the known collection [v] is known: a set with
// unknown elements may shrink once they are known (cty's Length).
bool length_known(const Value& v) {
  if (!v.type()->is_set()) return true;
  return v.length() == 1 || v.is_wholly_known();
}

// cty's conversionCollectionToList and conversionCollectionToSet: a list or
// set to a list or set, each element through [conv] (null: as it is).
class CollectionToSeq final : public Conversion {
 public:
  CollectionToSeq(bool to_set, const Type* ety, ConversionRef conv)
      : to_set_(to_set), ety_(ety), conv_(std::move(conv)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    if (!to_set_ && !length_known(in)) {
      // cty keeps the source element type here.
      out = Value::unknown(Type::list(in.type()->element()));
      return true;
    }
    size_t n = in.length();
    std::vector<Value> elems;
    elems.reserve(n);
    {
      StepScope step(path, PathStep::index(Value::integer(0)));
      for (size_t i = 0; i < n; ++i) {
        step.step().key = Value::integer(int64_t(i));
        Value e = value_at(in, i);
        if (!convert_in_place(conv_, e, path, err)) return false;
        strip_null(e);
        elems.push_back(std::move(e));
      }
    }
    if (elems.empty()) {
      const Type* ety = ety_->is_dynamic() ? in.type()->element() : plain(ety_);
      out = to_set_ ? Value::set(ety, {}) : Value::list(ety, {});
      return true;
    }
    if (!can_collect(elems))
      return fail(err, path,
                  to_set_ ? "element types must all match for conversion to set"
                          : "element types must all match for conversion to list");
    out = to_set_ ? make_set(std::move(elems)) : make_list(std::move(elems));
    return true;
  }

 private:
  bool to_set_;
  const Type* ety_;
  ConversionRef conv_;
};

// cty's conversionCollectionToMap: a map to a map, each element through
// [conv].
class MapToMap final : public Conversion {
 public:
  MapToMap(const Type* ety, ConversionRef conv) : ety_(ety), conv_(std::move(conv)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    size_t n = in.length();
    Entries entries;
    entries.reserve(n);
    {
      StepScope step(path, PathStep::index(Value()));
      for (size_t i = 0; i < n; ++i) {
        step.step().key = key_value_at(in, i);
        Value e = value_at(in, i);
        if (!convert_in_place(conv_, e, path, err)) return false;
        entries.emplace_back(std::string(key_at(in, i)), std::move(e));
      }
    }
    if (entries.empty()) {
      if (ety_->is_dynamic()) {
        const Type* t = in.type();
        out = Value::map(t->is_map() ? t->element() : Type::dynamic(), {});
      } else {
        out = Value::map(plain(ety_), {});
      }
      return true;
    }
    return finish_map(std::move(entries), ety_, path, false, out, err,
                      "element types must all match for conversion to map");
  }

  // The common end of conversions to a map: elements of structural or
  // collection type are unified first, then the map is built.
  static bool finish_map(Entries entries, const Type* ety, Path& path, bool unsafe, Value& out,
                         ConvertError& err, const char* mismatch) {
    if (ety->is_collection() || ety->is_object()) {
      std::vector<Value> vals = entry_values(entries);
      auto key = [&entries](size_t i) { return Value::string(entries[i].first); };
      if (!unify_elements(vals, key, path, unsafe, err)) return false;
      for (size_t i = 0; i < vals.size(); ++i) entries[i].second = std::move(vals[i]);
    }
    std::vector<Value> vals = entry_values(entries);
    if (!can_collect(vals)) return fail(err, path, mismatch);
    out = make_map(std::move(entries));
    return true;
  }

 private:
  const Type* ety_;
  ConversionRef conv_;
};

// Returns the empty collection made whatever the value (cty's short cuts
// for empty tuples and objects).
class EmptyCollection final : public Conversion {
 public:
  explicit EmptyCollection(const Type* t) : t_(t) {}

  bool apply(const Value&, Path&, Value& out, ConvertError&) const override {
    const Type* ety = t_->element();
    if (t_->is_list())
      out = Value::list(ety, {});
    else if (t_->is_set())
      out = Value::set(ety, {});
    else
      out = Value::map(ety, {});
    return true;
  }

 private:
  const Type* t_;
};

// cty's conversionTupleToList and conversionTupleToSet: element i of a
// tuple through convs[i] (null: as it is).
class TupleToSeq final : public Conversion {
 public:
  TupleToSeq(bool to_set, bool unsafe, std::vector<ConversionRef> convs)
      : to_set_(to_set), unsafe_(unsafe), convs_(std::move(convs)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    size_t n = in.length();
    std::vector<Value> elems;
    elems.reserve(n);
    {
      StepScope step(path, PathStep::index(Value::integer(0)));
      for (size_t i = 0; i < n; ++i) {
        step.step().key = Value::integer(int64_t(i));
        Value e = value_at(in, i);
        if (i < convs_.size() && !convert_in_place(convs_[i], e, path, err)) return false;
        if (to_set_) strip_null(e);
        elems.push_back(std::move(e));
      }
      // cty unifies with the path still ending in the last element's index.
      auto key = [](size_t i) { return Value::integer(int64_t(i)); };
      if (!to_set_ && n > 0 && !unify_elements(elems, key, path, unsafe_, err)) return false;
    }
    if (!can_collect(elems))
      return fail(err, path,
                  to_set_ ? "element types must all match for conversion to set"
                          : "element types must all match for conversion to list");
    out = to_set_ ? make_set(std::move(elems)) : make_list(std::move(elems));
    return true;
  }

 private:
  bool to_set_;
  bool unsafe_;
  std::vector<ConversionRef> convs_;
};

// cty's conversionObjectToMap: attribute [name] of an object through the
// conversion planned for it.
class ObjectToMap final : public Conversion {
 public:
  ObjectToMap(const Type* in, const Type* ety, bool unsafe, std::vector<ConversionRef> convs)
      : in_(in), ety_(ety), unsafe_(unsafe), convs_(std::move(convs)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    size_t n = in.length();
    Entries entries;
    entries.reserve(n);
    {
      StepScope step(path, PathStep::index(Value()));
      for (size_t i = 0; i < n; ++i) {
        std::string_view name = key_at(in, i);
        step.step().key = key_value_at(in, i);
        Value e = value_at(in, i);
        auto j = in_->is_object() ? in_->find_attr(name) : std::nullopt;
        if (j && !convert_in_place(convs_[*j], e, path, err)) return false;
        entries.emplace_back(std::string(name), std::move(e));
      }
    }
    return MapToMap::finish_map(std::move(entries), ety_, path, unsafe_, out, err,
                                "attribute types must all match for conversion to map");
  }

 private:
  const Type* in_;
  const Type* ety_;
  bool unsafe_;
  std::vector<ConversionRef> convs_;  // by attribute of in_
};

// What a map-to-object or object-to-object plan does with one attribute of
// the target type.
struct AttrPlan {
  enum Kind : uint8_t { Absent, Same, Convert, Impossible } kind = Absent;
  ConversionRef conv;
};

// cty's conversionMapToObject: the map elements named like attributes of
// [out], converted; missing optional attributes become null.
class MapToObject final : public Conversion {
 public:
  MapToObject(const Type* out, std::vector<AttrPlan> plans) : out_(out), plans_(std::move(plans)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    std::vector<std::pair<std::string_view, Value>> attrs;
    std::vector<bool> have(out_->size());
    {
      StepScope step(path, PathStep::index(Value()));
      for (size_t i = 0; i < in.length(); ++i) {
        std::string_view key = key_at(in, i);
        auto j = out_->find_attr(key);
        if (!j) continue;
        step.step().key = key_value_at(in, i);
        Value e = value_at(in, i);
        const AttrPlan& p = plans_[*j];
        if (p.kind == AttrPlan::Convert) {
          if (!convert_in_place(p.conv, e, path, err)) return false;
        } else if (p.kind == AttrPlan::Impossible) {
          // Reported at the map, not at the element.
          fail(err, path,
               "map element type is incompatible with attribute " + uni::go_quote(key) + ": " +
                   mismatch_message(e.type(), out_->attr_type(*j)));
          err.path.pop_back();
          return false;
        }
        strip_null(e);
        attrs.emplace_back(out_->attr_name(*j), std::move(e));
        have[*j] = true;
      }
    }
    for (size_t j = 0; j < out_->size(); ++j) {
      if (have[j]) continue;
      if (!out_->attr_optional(j))
        return fail(
            err, path,
            "map has no element for required attribute " + uni::go_quote(out_->attr_name(j)));
      // cty leaves the optional markers of this null's type in place.
      attrs.emplace_back(out_->attr_name(j), Value::null(out_->attr_type(j)));
    }
    out = make_object(std::move(attrs));
    return true;
  }

 private:
  const Type* out_;
  std::vector<AttrPlan> plans_;  // by attribute of out_
};

// cty's conversionObjectToObject: the attributes of [out] taken from the
// object and converted; missing optional attributes become null; others
// are dropped.
class ObjectToObject final : public Conversion {
 public:
  ObjectToObject(const Type* out, std::vector<AttrPlan> plans)
      : out_(out), plans_(std::move(plans)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    std::vector<std::pair<std::string_view, Value>> attrs;
    std::vector<bool> have(out_->size());
    {
      StepScope step(path, PathStep::attr(""));
      for (size_t i = 0; i < in.length(); ++i) {
        std::string_view name = key_at(in, i);
        step.step().name.assign(name);
        auto j = out_->find_attr(name);
        if (!j || plans_[*j].kind == AttrPlan::Absent) continue;
        Value e = value_at(in, i);
        if (!convert_in_place(plans_[*j].conv, e, path, err)) return false;
        strip_null(e);
        attrs.emplace_back(out_->attr_name(*j), std::move(e));
        have[*j] = true;
      }
    }
    for (size_t j = 0; j < out_->size(); ++j)
      if (!have[j] && out_->attr_optional(j))
        attrs.emplace_back(out_->attr_name(j), Value::null(plain(out_->attr_type(j))));
    out = make_object(std::move(attrs));
    return true;
  }

 private:
  const Type* out_;
  std::vector<AttrPlan> plans_;  // by attribute of out_
};

// cty's conversionTupleToTuple: element i through convs[i].
class TupleToTuple final : public Conversion {
 public:
  explicit TupleToTuple(std::vector<ConversionRef> convs) : convs_(std::move(convs)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    size_t n = in.length();
    std::vector<Value> elems;
    elems.reserve(n);
    StepScope step(path, PathStep::index(Value::integer(0)));
    for (size_t i = 0; i < n; ++i) {
      step.step().key = Value::integer(int64_t(i));
      Value e = value_at(in, i);
      if (i < convs_.size() && !convert_in_place(convs_[i], e, path, err)) return false;
      elems.push_back(std::move(e));
    }
    out = Value::tuple(std::move(elems));
    return true;
  }

 private:
  std::vector<ConversionRef> convs_;
};

// Unification's conversion for a tuple unified as a list (or an object as
// a map) and then converted further: as cty does, [first] runs for its
// errors only and [second] converts the original value.
class ThenOnOriginal final : public Conversion {
 public:
  ThenOnOriginal(ConversionRef first, ConversionRef second)
      : first_(std::move(first)), second_(std::move(second)) {}

  bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const override {
    Value ignored;
    if (!first_->apply(in, path, ignored, err)) return false;
    return second_->apply(in, path, out, err);
  }

 private:
  ConversionRef first_, second_;
};

// Unification's conversion when a dynamic type leaves the result unknown.
class ToDynamicVal final : public Conversion {
 public:
  bool apply(const Value&, Path&, Value& out, ConvertError&) const override {
    out = Value::dynamic();
    return true;
  }
};

// --- planning ------------------------------------------------------------------------

// The conversion for every element of a tuple to [ety] (null where the type
// is already [ety]); false when one of them has none.
bool element_convs(const Type* tuple, const Type* ety, bool unsafe,
                   std::vector<ConversionRef>& convs) {
  convs.resize(tuple->size());
  for (size_t i = 0; i < tuple->size(); ++i) {
    const Type* t = tuple->tuple_element(i);
    if (t == ety) continue;
    convs[i] = conversion_for(t, ety, unsafe);
    if (!convs[i]) return false;
  }
  return true;
}

// cty's conversionTupleToList / conversionTupleToSet plans.
ConversionRef plan_tuple_to_seq(const Type* in, const Type* ety, bool to_set, bool unsafe) {
  if (in->size() == 0) {
    const Type* e = plain(ety);
    return std::make_shared<EmptyCollection>(to_set ? Type::set(e) : Type::list(e));
  }
  if (ety->is_dynamic()) {
    std::vector<const Type*> etys(in->size());
    for (size_t i = 0; i < in->size(); ++i) etys[i] = in->tuple_element(i);
    ety = unify_impl(etys, unsafe).type;
    if (!ety) return nullptr;
    // Still dynamic: only a tuple of dynamic elements makes a valid collection.
    if (ety->is_dynamic())
      for (const Type* t : etys)
        if (!t->is_dynamic()) return nullptr;
  }
  std::vector<ConversionRef> convs;
  if (!element_convs(in, ety, unsafe, convs)) return nullptr;
  return std::make_shared<TupleToSeq>(to_set, unsafe, std::move(convs));
}

// cty's conversionObjectToMap plan: each attribute of [in] to [ety].
ConversionRef plan_object_to_map(const Type* in, const Type* ety, bool unsafe) {
  if (in->size() == 0) return std::make_shared<EmptyCollection>(Type::map(plain(ety)));
  if (ety->is_dynamic()) {
    std::vector<const Type*> atys(in->size());
    for (size_t i = 0; i < in->size(); ++i) atys[i] = in->attr_type(i);
    ety = unify_impl(atys, unsafe).type;
    if (!ety) return nullptr;
  }
  std::vector<ConversionRef> convs(in->size());
  for (size_t i = 0; i < in->size(); ++i) {
    const Type* t = in->attr_type(i);
    if (t == ety) continue;
    convs[i] = conversion_for(t, ety, unsafe);
    if (!convs[i]) return nullptr;
  }
  return std::make_shared<ObjectToMap>(in, ety, unsafe, std::move(convs));
}

// cty's conversionMapToObject plan: the map's element type to each attribute.
ConversionRef plan_map_to_object(const Type* in, const Type* out, bool unsafe) {
  const Type* mety = in->element();
  std::vector<AttrPlan> plans(out->size());
  for (size_t j = 0; j < out->size(); ++j) {
    const Type* at = out->attr_type(j);
    if (at == mety) {
      plans[j].kind = AttrPlan::Same;
      continue;
    }
    plans[j].conv = conversion_for(mety, at, unsafe);
    if (plans[j].conv) {
      plans[j].kind = AttrPlan::Convert;
    } else if (out->attr_optional(j) && unsafe) {
      // Fails only if the map turns out to have this element.
      plans[j].kind = AttrPlan::Impossible;
    } else {
      return nullptr;
    }
  }
  return std::make_shared<MapToObject>(out, std::move(plans));
}

// cty's conversionObjectToObject plan: each attribute of [out] from [in].
ConversionRef plan_object_to_object(const Type* in, const Type* out, bool unsafe) {
  std::vector<AttrPlan> plans(out->size());
  for (size_t j = 0; j < out->size(); ++j) {
    auto i = in->find_attr(out->attr_name(j));
    if (!i) {
      if (out->attr_optional(j)) continue;  // becomes null
      return nullptr;
    }
    const Type* it = in->attr_type(*i);
    const Type* ot = out->attr_type(j);
    plans[j].kind = AttrPlan::Same;
    if (it == ot) continue;
    plans[j].conv = conversion_for(it, ot, unsafe);
    if (!plans[j].conv) return nullptr;
    plans[j].kind = AttrPlan::Convert;
  }
  return std::make_shared<ObjectToObject>(out, std::move(plans));
}

// cty's conversionTupleToTuple plan: element by element, same length.
ConversionRef plan_tuple_to_tuple(const Type* in, const Type* out, bool unsafe) {
  if (in->size() != out->size()) return nullptr;
  std::vector<ConversionRef> convs(in->size());
  for (size_t i = 0; i < in->size(); ++i) {
    const Type* it = in->tuple_element(i);
    const Type* ot = out->tuple_element(i);
    if (it == ot) continue;
    convs[i] = conversion_for(it, ot, unsafe);
    if (!convs[i]) return nullptr;
  }
  return std::make_shared<TupleToTuple>(std::move(convs));
}

// One shared node per stateless conversion.
template <typename T>
const ConversionRef& shared() {
  static const ConversionRef node = std::make_shared<T>();
  return node;
}

// cty's getConversionKnown: the kind-specific part of a plan.
ConversionRef plan_known(const Type* in, const Type* out, bool unsafe) {
  if (out->is_dynamic()) return shared<Passthrough>();
  if (unsafe && in->is_dynamic()) return std::make_shared<DynamicFixup>(out);
  if (in->is_primitive() && out->is_primitive()) {
    if (out->kind() == TypeKind::String) {
      if (in->kind() == TypeKind::Number) return shared<NumberToString>();
      if (in->kind() == TypeKind::Bool) return shared<BoolToString>();
    }
    if (unsafe && in->kind() == TypeKind::String) {
      if (out->kind() == TypeKind::Number) return shared<StringToNumber>();
      if (out->kind() == TypeKind::Bool) return shared<StringToBool>();
    }
    return nullptr;
  }
  if (out->is_object() && in->is_object()) return plan_object_to_object(in, out, unsafe);
  if (out->is_tuple() && in->is_tuple()) return plan_tuple_to_tuple(in, out, unsafe);
  if ((out->is_list() || out->is_set()) && (in->is_list() || in->is_set())) {
    bool to_set = out->is_set();
    // List to set loses order and duplicates.
    if (to_set && in->is_list() && !unsafe) return nullptr;
    const Type* iety = in->element();
    const Type* oety = out->element();
    if (iety == oety) return std::make_shared<CollectionToSeq>(to_set, oety, nullptr);
    ConversionRef c = conversion_for(iety, oety, unsafe);
    if (!c) return nullptr;
    return std::make_shared<CollectionToSeq>(to_set, oety, std::move(c));
  }
  if (out->is_map() && in->is_map()) {
    // No element conversion: as in cty, not even for equal element types.
    ConversionRef c = conversion_for(in->element(), out->element(), unsafe);
    if (!c) return nullptr;
    return std::make_shared<MapToMap>(out->element(), std::move(c));
  }
  if ((out->is_list() || out->is_set()) && in->is_tuple())
    return plan_tuple_to_seq(in, out->element(), out->is_set(), unsafe);
  if (out->is_map() && in->is_object()) return plan_object_to_map(in, out->element(), unsafe);
  if (out->is_object() && in->is_map()) {
    // The map might lack attributes.
    if (!unsafe) return nullptr;
    return plan_map_to_object(in, out, unsafe);
  }
  // Capsule types convert only through their own operations, which our
  // capsule types do not define; everything else has no conversion.
  return nullptr;
}

struct PlanKey {
  const Type* in;
  const Type* out;
  bool unsafe;
  bool operator==(const PlanKey&) const = default;
};

struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    size_t h = std::hash<const void*>()(k.in);
    h ^= std::hash<const void*>()(k.out) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h ^ size_t(k.unsafe);
  }
};

// The table of plans: every plan ever made, kept (types are never freed
// either, and a program meets few type pairs).
struct PlanTable {
  std::mutex mu;
  std::unordered_map<PlanKey, ConversionRef, PlanKeyHash> plans;
  std::unordered_map<const Type*, const Type*> plains;  // type -> without optional markers

  static PlanTable& get() {
    static PlanTable* t = new PlanTable();  // never destroyed: plans outlive statics
    return *t;
  }
};

// cty's getConversion: the plan from [in] to [out], or null.
ConversionRef conversion_for(const Type* in, const Type* out, bool unsafe) {
  PlanTable& table = PlanTable::get();
  PlanKey key{in, out, unsafe};
  {
    std::lock_guard lock(table.mu);
    if (auto it = table.plans.find(key); it != table.plans.end()) return it->second;
  }
  // Built without the lock: planning recurses into element types.
  util::enter_level();
  ConversionRef known = plan_known(in, out, unsafe);
  ConversionRef plan = known ? std::make_shared<Checked>(out, std::move(known)) : nullptr;
  std::lock_guard lock(table.mu);
  return table.plans.emplace(key, std::move(plan)).first->second;
}

// Whether work on type [t] may recurse.
bool nests(const Type* t) { return t->is_collection() || t->is_structural(); }

// conversion_for() for a caller outside this file's recursion: a plan
// already made is taken from the table, a new one is made within a stack
// budget of its own.
ConversionRef planned(const Type* in, const Type* out, bool unsafe) {
  if (!nests(in) && !nests(out)) return conversion_for(in, out, unsafe);
  {
    PlanTable& table = PlanTable::get();
    std::lock_guard lock(table.mu);
    if (auto it = table.plans.find(PlanKey{in, out, unsafe}); it != table.plans.end())
      return it->second;
  }
  return util::run_deep(
      [&](const util::StackBudget&) { return conversion_for(in, out, unsafe); });
}

// Applies [c] to [in] (as Conversion::apply) within a stack budget of its
// own when the value's type nests.
bool apply_deep(const Conversion& c, const Value& in, Path& path, Value& out, ConvertError& err) {
  if (!nests(in.type())) return c.apply(in, path, out, err);
  // A try that runs out of stack starts over from nothing (the path's
  // steps are popped as it unwinds).
  return util::run_deep([&](const util::StackBudget&) {
    out = Value();
    err = ConvertError();
    return c.apply(in, path, out, err);
  });
}

// What convert() needs about a pair of types, cached per thread so that a
// hit takes no lock. Plans live forever, so the raw pointer stays valid.
struct FastEntry {
  const Type* in = nullptr;
  const Type* want = nullptr;
  const Type* want_plain = nullptr;
  const Conversion* conv = nullptr;
};

// [t] without optional attribute markers, remembered: a cache miss in
// convert() must not allocate once the types have been seen.
const Type* plain_cached(const Type* t) {
  PlanTable& table = PlanTable::get();
  {
    std::lock_guard lock(table.mu);
    if (auto it = table.plains.find(t); it != table.plains.end()) return it->second;
  }
  const Type* p = plain(t);
  std::lock_guard lock(table.mu);
  return table.plains.emplace(t, p).first->second;
}

// The cache entry for converting [in] to [want], filled on a miss (two
// ways per set, the older one replaced).
FastEntry fast_lookup(const Type* in, const Type* want) {
  thread_local std::array<FastEntry, 512> cache;
  uint64_t h = reinterpret_cast<uintptr_t>(in) * 0x9e3779b97f4a7c15ull ^
               reinterpret_cast<uintptr_t>(want) * 0xc2b2ae3d27d4eb4full;
  size_t set = size_t(h >> 56) * 2;  // 256 sets of 2
  FastEntry* e = &cache[set];
  if (e[0].in == in && e[0].want == want) return e[0];
  if (e[1].in == in && e[1].want == want) {
    std::swap(e[0], e[1]);
    return e[0];
  }
  e[1] = e[0];
  e[0] = {in, want, plain_cached(want), planned(in, want, true).get()};
  return e[0];
}

// --- unification -------------------------------------------------------------------

// The conversions from each of [types] to [to] (null where equal); false
// when one is missing.
bool conversions_to(std::span<const Type* const> types, const Type* to, bool unsafe,
                    std::vector<ConversionRef>& convs) {
  convs.assign(types.size(), nullptr);
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] == to) continue;
    convs[i] = conversion_for(types[i], to, unsafe);
    if (!convs[i]) return false;
  }
  return true;
}

// [to] with the conversions from each of [types] to it; empty when one is
// missing.
Unified converting_to(std::span<const Type* const> types, const Type* to, bool unsafe) {
  Unified r{to, {}};
  if (!conversions_to(types, to, unsafe, r.conversions)) return {};
  return r;
}

// The collection that [make] builds of [parts] unified, with the
// conversions from each of [types] to it; empty when either fails.
template <class Make>
Unified unify_as_collection(std::span<const Type* const> types,
                            std::span<const Type* const> parts, bool unsafe, Make make) {
  const Type* ety = unify_impl(parts, unsafe).type;
  if (!ety) return {};
  return converting_to(types, make(ety), unsafe);
}

// cty's unifyAllAsDynamic: dynamic, and every conversion gives DynamicVal.
Unified all_dynamic(size_t n) {
  return {Type::dynamic(), std::vector<ConversionRef>(n, shared<ToDynamicVal>())};
}

// cty's unifyCollectionTypes: collections of one kind, by their element types.
Unified unify_collections(TypeKind kind, std::span<const Type* const> types, bool unsafe,
                          bool has_dynamic) {
  // A dynamic input may turn out to be anything: the result is unknown.
  if (has_dynamic) return all_dynamic(types.size());
  std::vector<const Type*> etys;
  etys.reserve(types.size());
  for (const Type* t : types) etys.push_back(t->element());
  return unify_as_collection(types, etys, unsafe, [kind](const Type* ety) {
    return kind == TypeKind::Map    ? Type::map(ety)
           : kind == TypeKind::List ? Type::list(ety)
                                    : Type::set(ety);
  });
}

// cty's unifyObjectTypesToMap: a map of all the attribute types unified.
Unified unify_objects_to_map(std::span<const Type* const> types, bool unsafe) {
  std::vector<const Type*> atys;
  for (const Type* t : types)
    for (size_t i = 0; i < t->size(); ++i) atys.push_back(t->attr_type(i));
  return unify_as_collection(types, atys, unsafe, Type::map);
}

// cty's unifyObjectTypes: attribute by attribute, else a map.
Unified unify_objects(std::span<const Type* const> types, bool unsafe, bool has_dynamic) {
  if (has_dynamic) return all_dynamic(types.size());
  // Same attribute names everywhere: an object type; else try a map.
  const Type* first = types[0];
  for (const Type* t : types.subspan(1)) {
    if (t->size() != first->size()) return unify_objects_to_map(types, unsafe);
    for (size_t i = 0; i < t->size(); ++i)
      if (!first->find_attr(t->attr_name(i))) return unify_objects_to_map(types, unsafe);
  }
  std::vector<TypeAttr> attrs;
  std::vector<const Type*> across(types.size());
  for (size_t a = 0; a < first->size(); ++a) {
    std::string_view name = first->attr_name(a);
    for (size_t i = 0; i < types.size(); ++i)
      across[i] = types[i]->attr_type(*types[i]->find_attr(name));
    const Type* t = unify_impl(across, unsafe).type;
    // Not even a map could hold this attribute's values.
    if (!t) return {};
    attrs.push_back({name, t, false});
  }
  Unified r = converting_to(types, Type::object(attrs), unsafe);
  return r.type ? r : unify_objects_to_map(types, unsafe);
}

// cty's unifyTupleTypesToList: a list of all the element types unified.
Unified unify_tuples_to_list(std::span<const Type* const> types, bool unsafe) {
  std::vector<const Type*> etys;
  for (const Type* t : types)
    for (size_t i = 0; i < t->size(); ++i) etys.push_back(t->tuple_element(i));
  return unify_as_collection(types, etys, unsafe, Type::list);
}

// cty's unifyTupleTypes: element by element, else a list.
Unified unify_tuples(std::span<const Type* const> types, bool unsafe, bool has_dynamic) {
  if (has_dynamic) return all_dynamic(types.size());
  const Type* first = types[0];
  for (const Type* t : types.subspan(1))
    if (t->size() != first->size()) return unify_tuples_to_list(types, unsafe);
  std::vector<const Type*> elems;
  std::vector<const Type*> across(types.size());
  for (size_t e = 0; e < first->size(); ++e) {
    for (size_t i = 0; i < types.size(); ++i) across[i] = types[i]->tuple_element(e);
    const Type* t = unify_impl(across, unsafe).type;
    if (!t) return {};
    elems.push_back(t);
  }
  Unified r = converting_to(types, Type::tuple(elems), unsafe);
  return r.type ? r : unify_tuples_to_list(types, unsafe);
}

// cty's unifyTuplesAsList and unifyObjectsAsMaps: the structural inputs
// ([tuples] true: tuples, else objects) unified as one collection first,
// then everything unified with that collection in their place.
Unified unify_structurals_as_collection(std::span<const Type* const> types, bool unsafe,
                                        bool tuples) {
  std::vector<const Type*> parts;
  std::vector<size_t> idxs;
  for (size_t i = 0; i < types.size(); ++i)
    if (tuples ? types[i]->is_tuple() : types[i]->is_object()) {
      parts.push_back(types[i]);
      idxs.push_back(i);
    }
  Unified inner =
      tuples ? unify_tuples_to_list(parts, unsafe) : unify_objects_to_map(parts, unsafe);
  if (!inner.type || (tuples ? !inner.type->is_list() : !inner.type->is_map())) return {};
  std::vector<const Type*> replaced(types.begin(), types.end());
  for (size_t i : idxs) replaced[i] = inner.type;
  Unified outer = unify_impl(replaced, unsafe);
  if (!outer.type || (tuples ? !outer.type->is_list() : !outer.type->is_map())) return {};
  for (size_t k = 0; k < idxs.size(); ++k) {
    ConversionRef& c = outer.conversions[idxs[k]];
    if (!c)
      c = inner.conversions[k];
    else
      c = std::make_shared<ThenOnOriginal>(inner.conversions[k], c);
  }
  return outer;
}

// cty's unify, computed.
Unified unify_uncached(std::span<const Type* const> types, bool unsafe) {
  size_t maps = 0, lists = 0, sets = 0, objects = 0, tuples = 0, dynamics = 0;
  for (const Type* t : types) {
    switch (t->kind()) {
      case TypeKind::Map: ++maps; break;
      case TypeKind::List: ++lists; break;
      case TypeKind::Set: ++sets; break;
      case TypeKind::Object: ++objects; break;
      case TypeKind::Tuple: ++tuples; break;
      case TypeKind::Dynamic: ++dynamics; break;
      default: break;
    }
  }
  size_t n = types.size();
  // Inputs of one structural kind may unify to a type none of them is; this
  // comes before the general search because an unsafe conversion from an
  // object to a subset of itself would otherwise win.
  if (maps > 0 && maps + dynamics == n)
    return unify_collections(TypeKind::Map, types, unsafe, dynamics > 0);
  if (maps > 0 && maps + objects + dynamics == n) {
    Unified r = unify_structurals_as_collection(types, unsafe, false);
    if (r.type) return r;
  } else if (lists > 0 && lists + dynamics == n) {
    return unify_collections(TypeKind::List, types, unsafe, dynamics > 0);
  } else if (lists > 0 && lists + tuples + dynamics == n) {
    Unified r = unify_structurals_as_collection(types, unsafe, true);
    if (r.type) return r;
  } else if (sets > 0 && sets + dynamics == n) {
    return unify_collections(TypeKind::Set, types, unsafe, dynamics > 0);
  } else if (objects > 0 && objects + dynamics == n) {
    return unify_objects(types, unsafe, dynamics > 0);
  } else if (tuples > 0 && tuples + dynamics == n) {
    return unify_tuples(types, unsafe, dynamics > 0);
  } else if (objects > 0 && tuples > 0) {
    return {};
  }

  // The first type in preference order that all the others convert to.
  std::vector<ConversionRef> convs(n);
  for (size_t want : sort_types(types)) {
    const Type* to = types[want];
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      convs[i] = nullptr;
      if (i == want || types[i] == to) continue;
      convs[i] = conversion_for(types[i], to, unsafe);
      ok = convs[i] != nullptr;
    }
    if (ok) return {to, std::move(convs)};
  }
  return {};
}

struct UnifyTable {
  std::mutex mu;
  std::map<std::pair<bool, std::vector<const Type*>>, Unified> results;

  static UnifyTable& get() {
    static UnifyTable* t = new UnifyTable();  // never destroyed, as the plan table
    return *t;
  }
};

// cty's unify, with results kept per list of types.
Unified unify_impl(std::span<const Type* const> types, bool unsafe) {
  if (types.empty()) return {};
  // All the same type (without optional attributes): the answer is that
  // type, with no conversions. The common case takes no lock.
  const Type* first = types[0];
  if (std::all_of(types.begin(), types.end(), [first](const Type* t) { return t == first; }) &&
      !has_optional_deep(first))
    return {first, std::vector<ConversionRef>(types.size())};
  UnifyTable& table = UnifyTable::get();
  auto key = std::make_pair(unsafe, std::vector<const Type*>(types.begin(), types.end()));
  {
    std::lock_guard lock(table.mu);
    if (auto it = table.results.find(key); it != table.results.end()) return it->second;
  }
  util::enter_level();
  Unified r = unify_uncached(types, unsafe);
  std::lock_guard lock(table.mu);
  return table.results.emplace(std::move(key), std::move(r)).first->second;
}

// --- mismatch messages -----------------------------------------------------------

// "<[want]> required", cty's fallback message.
std::string required(const Type* want) {
  return want->friendly_name_for_constraint() + " required";
}

// cty's typesAreLikelyToCauseConfusion: whether naming both types would
// mislead more than help.
bool confusing_pair(const Type* got, const Type* want) {
  if (got->is_primitive() != want->is_primitive()) return false;
  if (want == Type::string()) return false;
  if ((want == Type::boolean() && got == Type::number()) ||
      (got == Type::boolean() && want == Type::number()))
    return false;
  if (got->is_collection() && want->is_collection() && !got->element()->has_dynamic_types() &&
      want->element()->has_dynamic_types())
    return false;
  // cty also means to exempt object-to-tuple here, but its test compares
  // [got] with itself and never matches.
  if (got->is_tuple() && want->is_object()) return false;
  return true;
}

// The message about one part of a mismatch, when it ends there, or the
// pair of parts it continues with after [prefix] (cty's messages nest:
// "attribute \"a\": element 0: string required"). A chain, so that a
// message about types nested thousands of levels deep is written in one
// pass without recursion.
struct MismatchStep {
  std::string text;  // the prefix, or the whole rest of the message
  const Type* got = nullptr;  // null: [text] ends the message
  const Type* want = nullptr;
};

// The step that continues with attribute or element [got]/[want] after
// [prefix].
MismatchStep descend(std::string prefix, const Type* got, const Type* want) {
  return {std::move(prefix), got, want};
}

// cty's mismatchMessageObjects: missing attributes first, then one that
// cannot convert (unsafe failures before safe ones).
MismatchStep mismatch_objects(const Type* got, const Type* want) {
  std::vector<std::string_view> missing;
  std::optional<size_t> unsafe_mismatch, safe_mismatch;  // attribute of [want]
  for (size_t j = 0; j < want->size(); ++j) {
    std::string_view name = want->attr_name(j);
    const Type* wt = want->attr_type(j);
    auto i = got->find_attr(name);
    if (!i) {
      if (!want->attr_optional(j)) missing.push_back(name);
      continue;
    }
    const Type* gt = got->attr_type(*i);
    if (gt == wt) continue;
    if (unsafe_mismatch) continue;
    if (!conversion_for(gt, wt, true)) unsafe_mismatch = j;
    if (safe_mismatch) continue;
    if (!conversion_for(gt, wt, false)) safe_mismatch = j;
  }
  if (missing.size() == 1) return {"attribute " + uni::go_quote(missing[0]) + " is required"};
  if (missing.size() == 2)
    return {"attributes " + uni::go_quote(missing[0]) + " and " + uni::go_quote(missing[1]) +
            " are required"};
  if (!missing.empty()) {
    std::string s = "attributes ";
    for (size_t k = 0; k + 1 < missing.size(); ++k) s += uni::go_quote(missing[k]) + ", ";
    return {s + "and " + uni::go_quote(missing.back()) + " are required"};
  }
  std::optional<size_t> j = unsafe_mismatch ? unsafe_mismatch : safe_mismatch;
  if (!j) return {"incorrect object attributes"};
  std::string_view name = want->attr_name(*j);
  return descend("attribute " + uni::go_quote(name) + ": ", got->attr_type(*got->find_attr(name)),
                 want->attr_type(*j));
}

// cty's mismatchMessageCollectionsFromStructural: the first element that
// cannot convert.
MismatchStep mismatch_from_structural(const Type* got, const Type* want) {
  if ((want->is_list() || want->is_set()) && !got->is_tuple()) return {required(want)};
  if (want->is_map() && !got->is_object()) return {required(want)};
  const Type* wety = want->element();
  for (size_t i = 0; i < got->size(); ++i) {
    const Type* gt = got->is_tuple() ? got->tuple_element(i) : got->attr_type(i);
    if (gt == wety || conversion_for(gt, wety, true)) continue;
    std::string where = got->is_tuple() ? std::to_string(i) : uni::go_quote(got->attr_name(i));
    return descend("element " + where + ": ", gt, wety);
  }
  return {"all elements must be " + wety->friendly_name_for_constraint()};
}

// cty's mismatchMessageCollectionsFromCollections: why the element types
// do not match.
MismatchStep mismatch_from_collection(const Type* got, const Type* want) {
  bool seq = got->is_list() || got->is_set();
  if ((want->is_list() || want->is_set()) && !seq) return {required(want)};
  if (want->is_map() && !got->is_map()) return {required(want)};
  const char* noun = want->is_list()  ? "list element type"
                     : want->is_set() ? "set element type"
                                      : "map element type";
  return descend(std::string("incorrect ") + noun + ": ", got->element(), want->element());
}

// One step of cty's MismatchMessage of [got] and [want].
MismatchStep mismatch_step(const Type* got, const Type* want) {
  util::enter_level();
  if (got->is_object() && want->is_object()) return mismatch_objects(got, want);
  if (got->is_tuple() && want->is_list() && want->element()->is_dynamic())
    return {"all list elements must have the same type"};
  if (got->is_tuple() && want->is_set() && want->element()->is_dynamic())
    return {"all set elements must have the same type"};
  if (got->is_object() && want->is_map() && want->element()->is_dynamic())
    return {"all map elements must have the same type"};
  if (got->is_structural() && want->is_collection()) return mismatch_from_structural(got, want);
  if (got->is_collection() && want->is_collection()) return mismatch_from_collection(got, want);
  if (!confusing_pair(got, want))
    return {want->friendly_name() + " required, but have " + got->friendly_name()};
  return {required(want)};
}

// cty's MismatchMessage, step by step.
std::string mismatch_chain(const Type* got, const Type* want) {
  std::string out;
  while (true) {
    MismatchStep step = mismatch_step(got, want);
    out += step.text;
    if (!step.got) return out;
    got = step.got;
    want = step.want;
  }
}

}  // namespace

// --- public ------------------------------------------------------------------------

ConvertResult Conversion::operator()(const Value& in) const {
  Path path;
  Value out;
  ConvertError err;
  if (apply_deep(*this, in, path, out, err)) return out;
  return err;
}

ConversionRef get_conversion(const Type* in, const Type* out) { return planned(in, out, false); }

ConversionRef get_conversion_unsafe(const Type* in, const Type* out) {
  return planned(in, out, true);
}

bool can_convert(const Type* in, const Type* out, bool unsafe) {
  return out->is_dynamic() || in == plain(out) || planned(in, out, unsafe) != nullptr;
}

ConvertResult convert(const Value& in, const Type* want) {
  const Type* t = in.type();
  if (want->is_dynamic() || (t == want && !want->is_structural() && !want->is_collection()))
    return in;
  // A copy of the cache entry: a nested conversion may reuse the slot.
  FastEntry e = fast_lookup(t, want);
  if (t == e.want_plain) return in;
  if (!e.conv) return ConvertError{mismatch_message(t, want), {}};
  Path path;
  Value out;
  ConvertError err;
  if (apply_deep(*e.conv, in, path, out, err)) return out;
  return err;
}

std::string mismatch_message(const Type* got, const Type* want) {
  // Finding which part fails plans conversions of the parts.
  if (!nests(got) && !nests(want)) return mismatch_chain(got, want);
  return util::run_deep([&](const util::StackBudget&) { return mismatch_chain(got, want); });
}

namespace {

// unify_impl() within a stack budget of its own when a type nests.
Unified unify_deep(std::span<const Type* const> types, bool unsafe) {
  if (std::none_of(types.begin(), types.end(), nests)) return unify_impl(types, unsafe);
  return util::run_deep([&](const util::StackBudget&) { return unify_impl(types, unsafe); });
}

}  // namespace

Unified unify(std::span<const Type* const> types) { return unify_deep(types, false); }

Unified unify_unsafe(std::span<const Type* const> types) { return unify_deep(types, true); }

namespace {

// cty's compareTypes over types that share parts: equal types are equally
// preferred, and the answer for a pair is remembered once many were asked.
class TypeOrder {
 public:
  int compare(const Type* a, const Type* b) {
    if (a == b) return 0;
    if (asked_ < kMemoAfter) {
      ++asked_;
      return compare_parts(a, b);
    }
    auto key = std::make_pair(a, b);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    int r = compare_parts(a, b);
    memo_.emplace(key, r);
    return r;
  }

 private:
  static constexpr size_t kMemoAfter = 256;
  size_t asked_ = 0;
  std::map<std::pair<const Type*, const Type*>, int> memo_;

  int compare_parts(const Type* a, const Type* b) {
    util::enter_level();
    // Dynamic is the least preferred: anything converts to it, and the other
    // types are expected to settle what it becomes.
    if (a->is_dynamic() || b->is_dynamic()) {
      if (!a->is_dynamic()) return -1;
      if (!b->is_dynamic()) return 1;
      return 0;
    }
    // String holds any primitive.
    if (a->is_primitive() && b->is_primitive() && (a == Type::string() || b == Type::string())) {
      if (a != Type::string()) return 1;
      if (b != Type::string()) return -1;
      return 0;
    }
    if ((a->is_list() && b->is_list()) || (a->is_set() && b->is_set()) ||
        (a->is_map() && b->is_map()))
      return compare(a->element(), b->element());

    // From here a and b may be swapped; results are multiplied by [swap].
    int swap = 1;
    if ((a->is_tuple() && b->is_list()) || (a->is_object() && b->is_map()) ||
        (a->is_set() && b->is_tuple()) || (a->is_set() && b->is_list())) {
      std::swap(a, b);
      swap = -1;
    }
    // Optimistic: a second pass checks that the elements really convert.
    if (b->is_set() && (a->is_tuple() || a->is_list())) return -1 * swap;
    if (a->is_list() && b->is_tuple()) return -1 * swap;
    if (a->is_map() && b->is_object()) return -1 * swap;

    // Structural types of the same shape: one is preferred when each of its
    // parts is at least as preferred and one is more.
    if ((a->is_object() && b->is_object()) || (a->is_tuple() && b->is_tuple())) {
      if (a->size() != b->size()) return 0;
      bool a_super = false, b_super = false;
      for (size_t i = 0; i < a->size(); ++i) {
        const Type* at;
        const Type* bt;
        if (a->is_object()) {
          auto j = b->find_attr(a->attr_name(i));
          if (!j) return 0;
          at = a->attr_type(i);
          bt = b->attr_type(*j);
        } else {
          at = a->tuple_element(i);
          bt = b->tuple_element(i);
        }
        int c = compare(at, bt);
        if (c < 0)
          a_super = true;
        else if (c > 0)
          b_super = true;
      }
      if (a_super && b_super) return 0;
      if (a_super) return -1 * swap;
      if (b_super) return 1 * swap;
      return 0;
    }
    return 0;
  }
};

}  // namespace

int compare_types(const Type* a, const Type* b) {
  if (!nests(a) || !nests(b)) return TypeOrder().compare(a, b);
  return util::run_deep([&](const util::StackBudget&) { return TypeOrder().compare(a, b); });
}

std::vector<size_t> sort_types(std::span<const Type* const> types) {
  // A topological sort of the "more general than" graph (Kahn's algorithm),
  // keeping the input order among equals.
  size_t n = types.size();
  TypeOrder order;
  std::vector<std::vector<size_t>> edges(n);
  for (size_t i = 0; i + 1 < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      int c = order.compare(types[i], types[j]);
      if (c < 0)
        edges[i].push_back(j);
      else if (c > 0)
        edges[j].push_back(i);
    }
  std::vector<size_t> in_degree(n);
  for (const auto& outs : edges)
    for (size_t j : outs) ++in_degree[j];
  // The result doubles as the queue, as in cty: a cycle leaves zeros.
  std::vector<size_t> result(n, 0);
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < n; ++i)
    if (in_degree[i] == 0) result[tail++] = i;
  while (head != tail) {
    size_t i = result[head++];
    for (size_t j : edges[i])
      if (--in_degree[j] == 0) result[tail++] = j;
  }
  return result;
}

}  // namespace hclvm

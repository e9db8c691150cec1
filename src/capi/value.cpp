// The C API: building values, reading them, and JSON.
#include <hclvm/hclvm.h>
#include <hclvm/value.h>
#include <hclvm/value_json.h>

#include <cmath>
#include <set>

#include "capi/capi.h"
#include "value/convert.h"
#include "value/json.h"
#include "value/ops.h"

namespace hclvm::capi {

namespace {

// [v] read through its marks: a marked value's payload is the value it wraps.
const Value& plain(const Value& v) {
  const Value* p = &v;
  while (p->rep() == Value::Rep::Marked)
    p = &static_cast<const detail::MarkedObj*>(p->obj())->inner;
  return *p;
}

// [elems] converted to [elem_type] (null: to the type they unify to) in
// [*out]; an error message otherwise.
std::string convert_all(const hclvm_value* const* elems, size_t n, const char* elem_type,
                        std::vector<Value>& out, const Type*& elem) {
  std::string err;
  if (n > 0 && elems == nullptr) return "elements are required";
  std::vector<const Type*> types;
  for (size_t i = 0; i < n; ++i) {
    if (elems[i] == nullptr) return "element " + std::to_string(i) + " is null";
    types.push_back(elems[i]->v.type());
  }
  if (elem_type != nullptr) {
    elem = parse_type(elem_type, err);
    if (elem == nullptr) return err;
  } else if (n == 0) {
    elem = Type::dynamic();
  } else {
    elem = unify_unsafe(types).type;
    if (elem == nullptr) return "the elements have no type in common";
  }
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    ConvertResult c = convert(elems[i]->v, elem);
    if (!c.ok()) return "element " + std::to_string(i) + ": " + c.error().message;
    out.push_back(c.take());
  }
  // A collection of the dynamic type holds elements of one type, whatever
  // it is: the elements' own.
  if (elem->is_dynamic() && !out.empty()) {
    std::vector<const Type*> now;
    for (const Value& v : out) now.push_back(v.type());
    Unified u = unify_unsafe(now);
    if (u.type == nullptr) return "the elements have no type in common";
    elem = u.type;
    for (Value& v : out) {
      ConvertResult c = convert(v, elem);
      if (!c.ok()) return c.error().message;
      v = c.take();
    }
  }
  return "";
}

// Checks [v] for an accessor that needs a known, non-null value: the
// failure status, or HCLVM_OK.
hclvm_status need_known(const hclvm_value* v) {
  if (v == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "value is required");
  const Value& p = plain(v->v);
  if (p.is_null()) return fail(HCLVM_ERR_TYPE, "value is null");
  if (!p.is_known()) return fail(HCLVM_ERR_TYPE, "value is not known");
  return HCLVM_OK;
}

hclvm_status wrong_kind(const Value& v, const char* want) {
  return fail(HCLVM_ERR_TYPE,
              std::string(want) + " required, but have " + v.type()->friendly_name());
}

hclvm_status give_text(JsonText t, char** out) {
  if (!t.ok()) return fail(HCLVM_ERR_TYPE, t.error);
  *out = dup_string(t.json);
  return HCLVM_OK;
}

// A list or a set (as [make] builds it) of [elems], converted to
// [elem_type] (or to the type they unify to).
hclvm_status collection(const hclvm_value* const* elems, size_t n, const char* elem_type,
                        Value (*make)(const Type*, std::vector<Value>), hclvm_value** out) {
  if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
  *out = nullptr;
  std::vector<Value> vals;
  const Type* elem = nullptr;
  if (std::string err = convert_all(elems, n, elem_type, vals, elem); !err.empty())
    return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
  *out = own(make(elem, std::move(vals)));
  return HCLVM_OK;
}

// Clears [*out] and checks that [v] and [out] were given.
template <class T>
hclvm_status need_value_and_out(const hclvm_value* v, T** out) {
  if (out != nullptr) *out = nullptr;
  if (out == nullptr || v == nullptr)
    return fail(HCLVM_ERR_INVALID_ARGUMENT, "value and out are required");
  return HCLVM_OK;
}

// Reads the known, non-null value [v] of type [want] ([kind] names it in
// the error otherwise) with [read], which returns the status.
template <class F>
hclvm_status read_scalar(const hclvm_value* v, const Type* want, const char* kind, F&& read) {
  if (hclvm_status s = need_known(v); s != HCLVM_OK) return s;
  const Value& p = plain(v->v);
  if (p.type() != want) return wrong_kind(p, kind);
  return read(p);
}

}  // namespace

}  // namespace hclvm::capi

using namespace hclvm;
using namespace hclvm::capi;

extern "C" {

// --- builders -------------------------------------------------------------------------------

hclvm_status hclvm_value_string(const char* text, size_t len, hclvm_value** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (out == nullptr || text == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
    *out = own(Value::string(text_of(text, len)));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_number(double d, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    if (std::isnan(d)) return fail(HCLVM_ERR_INVALID_ARGUMENT, "a number cannot be NaN");
    *out = own(Value::number(Number::from_double(d)));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_int64(int64_t i, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = own(Value::integer(i));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_number_from_string(const char* text, size_t len, hclvm_value** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (out == nullptr || text == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "text and out are required");
    std::string_view s = text_of(text, len);
    std::optional<Number> n = Number::parse(s);
    if (!n) return fail(HCLVM_ERR_INVALID_ARGUMENT, "not a number: " + std::string(s));
    *out = own(Value::number(std::move(*n)));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_bool(int b, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = own(Value::boolean(b != 0));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_null(const char* type, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    std::string err;
    const Type* t = parse_type(type, err);
    if (t == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
    *out = own(Value::null(t));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_unknown(const char* type, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    std::string err;
    const Type* t = parse_type(type, err);
    if (t == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
    *out = own(Value::unknown(t));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_list(const hclvm_value* const* elems, size_t n, const char* elem_type,
                              hclvm_value** out) {
  return guard([&] { return collection(elems, n, elem_type, &Value::list, out); });
}

hclvm_status hclvm_value_set(const hclvm_value* const* elems, size_t n, const char* elem_type,
                             hclvm_value** out) {
  return guard([&] { return collection(elems, n, elem_type, &Value::set, out); });
}

hclvm_status hclvm_value_tuple(const hclvm_value* const* elems, size_t n, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    if (n > 0 && elems == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "elements are required");
    std::vector<Value> vals;
    vals.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      if (elems[i] == nullptr)
        return fail(HCLVM_ERR_INVALID_ARGUMENT, "element " + std::to_string(i) + " is null");
      vals.push_back(elems[i]->v);
    }
    *out = own(Value::tuple(std::move(vals)));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_map(const char* const* keys, const hclvm_value* const* values, size_t n,
                             const char* elem_type, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    if (n > 0 && keys == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "keys are required");
    std::vector<Value> vals;
    const Type* elem = nullptr;
    if (std::string err = convert_all(values, n, elem_type, vals, elem); !err.empty())
      return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
    std::vector<std::pair<std::string, Value>> entries;
    std::set<std::string_view> seen;
    for (size_t i = 0; i < n; ++i) {
      if (keys[i] == nullptr)
        return fail(HCLVM_ERR_INVALID_ARGUMENT, "key " + std::to_string(i) + " is null");
      if (!seen.insert(keys[i]).second)
        return fail(HCLVM_ERR_INVALID_ARGUMENT, "duplicate map key " + std::string(keys[i]));
      entries.emplace_back(keys[i], std::move(vals[i]));
    }
    *out = own(Value::map(elem, std::move(entries)));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_object(const char* const* names, const hclvm_value* const* values,
                                size_t n, hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    if (n > 0 && (names == nullptr || values == nullptr))
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "names and values are required");
    std::vector<std::pair<std::string, Value>> attrs;
    std::set<std::string_view> seen;
    for (size_t i = 0; i < n; ++i) {
      if (names[i] == nullptr || values[i] == nullptr)
        return fail(HCLVM_ERR_INVALID_ARGUMENT, "attribute " + std::to_string(i) + " is null");
      if (!seen.insert(names[i]).second)
        return fail(HCLVM_ERR_INVALID_ARGUMENT, "duplicate attribute " + std::string(names[i]));
      attrs.emplace_back(names[i], values[i]->v);
    }
    *out = own(Value::object(std::move(attrs)));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_from_json(const char* json, size_t len, const char* type,
                                   hclvm_value** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (out == nullptr || json == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "json and out are required");
    JsonValue r;
    if (type == nullptr) {
      r = value_from_json(text_of(json, len));
    } else {
      std::string err;
      const Type* t = parse_type(type, err);
      if (t == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, err);
      r = value_from_json(text_of(json, len), t);
    }
    if (!r.ok()) return fail(HCLVM_ERR_INVALID_ARGUMENT, r.error);
    *out = own(std::move(r.value));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_clone(const hclvm_value* v, hclvm_value** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    *out = own(v->v);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_unmark(const hclvm_value* v, hclvm_value** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    *out = own(v->v.unmark_deep().first);
    return HCLVM_OK;
  });
}

void hclvm_value_free(hclvm_value* v) { delete v; }

// --- inspection ------------------------------------------------------------------------------

hclvm_kind hclvm_value_kind(const hclvm_value* v) {
  if (v == nullptr) return HCLVM_KIND_NULL;
  const Value& p = plain(v->v);
  if (p.is_null()) return HCLVM_KIND_NULL;
  if (!p.is_known()) return HCLVM_KIND_UNKNOWN;
  switch (p.type()->kind()) {
    case TypeKind::Bool:
      return HCLVM_KIND_BOOL;
    case TypeKind::Number:
      return HCLVM_KIND_NUMBER;
    case TypeKind::String:
      return HCLVM_KIND_STRING;
    case TypeKind::List:
      return HCLVM_KIND_LIST;
    case TypeKind::Set:
      return HCLVM_KIND_SET;
    case TypeKind::Tuple:
      return HCLVM_KIND_TUPLE;
    case TypeKind::Map:
      return HCLVM_KIND_MAP;
    case TypeKind::Object:
      return HCLVM_KIND_OBJECT;
    case TypeKind::Capsule:
      return HCLVM_KIND_CAPSULE;
    case TypeKind::Dynamic:
      break;  // only null and unknown values have it
  }
  return HCLVM_KIND_UNKNOWN;
}

int hclvm_value_is_null(const hclvm_value* v) { return v && plain(v->v).is_null() ? 1 : 0; }

int hclvm_value_is_known(const hclvm_value* v) { return v && plain(v->v).is_known() ? 1 : 0; }

int hclvm_value_is_wholly_known(const hclvm_value* v) {
  return quiet(0, [&] { return v && v->v.is_wholly_known() ? 1 : 0; });
}

int hclvm_value_is_marked(const hclvm_value* v) {
  return quiet(0, [&] { return v && v->v.contains_marked() ? 1 : 0; });
}

int hclvm_value_equal(const hclvm_value* a, const hclvm_value* b) {
  return quiet(0, [&] { return a && b && ops::raw_equal(a->v, b->v) ? 1 : 0; });
}

hclvm_status hclvm_value_type_name(const hclvm_value* v, char** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    *out = dup_string(v->v.type()->friendly_name());
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_type_json(const hclvm_value* v, char** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    return give_text(type_as_json(v->v.type()), out);
  });
}

hclvm_status hclvm_value_get_bool(const hclvm_value* v, int* out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    return read_scalar(v, Type::boolean(), "bool", [&](const Value& p) {
      *out = p.as_bool() ? 1 : 0;
      return HCLVM_OK;
    });
  });
}

hclvm_status hclvm_value_get_double(const hclvm_value* v, double* out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    return read_scalar(v, Type::number(), "number", [&](const Value& p) {
      *out = p.as_number().to_double();
      return HCLVM_OK;
    });
  });
}

hclvm_status hclvm_value_get_int64(const hclvm_value* v, int64_t* out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    return read_scalar(v, Type::number(), "number", [&](const Value& p) {
      Number n = p.as_number();
      std::optional<int64_t> i = n.to_int64();
      if (!i) return fail(HCLVM_ERR_TYPE, n.text() + " is not an integer in int64's range");
      *out = *i;
      return HCLVM_OK;
    });
  });
}

hclvm_status hclvm_value_get_number_text(const hclvm_value* v, char** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    return read_scalar(v, Type::number(), "number", [&](const Value& p) {
      *out = dup_string(p.as_number().text());
      return HCLVM_OK;
    });
  });
}

hclvm_status hclvm_value_get_string(const hclvm_value* v, const char** data, size_t* len) {
  return guard([&] {
    if (data == nullptr || len == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "data and len are required");
    *data = nullptr;
    *len = 0;
    return read_scalar(v, Type::string(), "string", [&](const Value& p) {
      std::string_view str = p.as_string();
      *data = str.data();
      *len = str.size();
      return HCLVM_OK;
    });
  });
}

hclvm_status hclvm_value_length(const hclvm_value* v, size_t* out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = 0;
    if (hclvm_status s = need_known(v); s != HCLVM_OK) return s;
    const Value& p = plain(v->v);
    const Type* t = p.type();
    if (!t->is_collection() && !t->is_structural())
      return wrong_kind(p, "collection, tuple or object");
    *out = p.length();
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_element(const hclvm_value* v, size_t index, const hclvm_value** out) {
  return guard([&] {
    if (out == nullptr) return fail(HCLVM_ERR_INVALID_ARGUMENT, "out is required");
    *out = nullptr;
    if (hclvm_status s = need_known(v); s != HCLVM_OK) return s;
    const Value& p = plain(v->v);
    const Type* t = p.type();
    if (!t->is_list() && !t->is_set() && !t->is_tuple()) return wrong_kind(p, "list, set or tuple");
    if (index >= p.length()) return fail(HCLVM_ERR_INVALID_ARGUMENT, "element index out of range");
    *out = wrap(p.element(index));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_entry(const hclvm_value* v, size_t index, const char** name,
                               size_t* name_len, const hclvm_value** value) {
  return guard([&] {
    if (name != nullptr) *name = nullptr;
    if (name_len != nullptr) *name_len = 0;
    if (value != nullptr) *value = nullptr;
    if (hclvm_status s = need_known(v); s != HCLVM_OK) return s;
    const Value& p = plain(v->v);
    const Type* t = p.type();
    if (!t->is_map() && !t->is_object()) return wrong_kind(p, "map or object");
    if (index >= p.length()) return fail(HCLVM_ERR_INVALID_ARGUMENT, "entry index out of range");
    // Both are NUL-terminated: map keys are string values, and object
    // attribute names are kept as strings by the type table.
    std::string_view key = t->is_map() ? p.map_key(index) : t->attr_name(index);
    if (name != nullptr) *name = key.data();
    if (name_len != nullptr) *name_len = key.size();
    if (value != nullptr) *value = wrap(t->is_map() ? p.map_value(index) : p.attr(index));
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_get(const hclvm_value* v, const char* name, const hclvm_value** out) {
  return guard([&] {
    if (out != nullptr) *out = nullptr;
    if (out == nullptr || name == nullptr)
      return fail(HCLVM_ERR_INVALID_ARGUMENT, "name and out are required");
    if (hclvm_status s = need_known(v); s != HCLVM_OK) return s;
    const Value& p = plain(v->v);
    const Type* t = p.type();
    const Value* found = nullptr;
    if (t->is_map()) {
      found = p.map_find(name);
    } else if (t->is_object()) {
      found = p.attr(std::string_view(name));
    } else {
      return wrong_kind(p, "map or object");
    }
    if (found == nullptr)
      return fail(HCLVM_ERR_NOT_FOUND, "no attribute or key " + std::string(name));
    *out = wrap(*found);
    return HCLVM_OK;
  });
}

hclvm_status hclvm_value_to_json(const hclvm_value* v, char** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    return give_text(value_to_json(v->v), out);
  });
}

hclvm_status hclvm_value_to_json_within(const hclvm_value* v, const hclvm_limits* limits,
                                        char** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    JsonText t = value_to_json(v->v, limits ? to_limits(*limits) : Limits{});
    if (t.limit) return fail(HCLVM_ERR_LIMIT, t.error);
    return give_text(std::move(t), out);
  });
}

hclvm_status hclvm_value_to_typed_json(const hclvm_value* v, char** out) {
  return guard([&] {
    if (hclvm_status s = need_value_and_out(v, out); s != HCLVM_OK) return s;
    JsonResult<std::string> r = to_json_typed(v->v);
    if (!r.ok()) return fail(HCLVM_ERR_TYPE, r.error->message);
    *out = dup_string(r.value);
    return HCLVM_OK;
  });
}

}  // extern "C"

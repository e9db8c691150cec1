// Index and attribute access (see access.h), step for step as the
// reference's ops.go: the order of the checks decides which diagnostic a
// bad access gets, so it is kept even where it looks arbitrary (an index
// one past the end of a list gets a specific message, two past the end the
// generic one).
#include "vm/access.h"

#include "util/unicode.h"
#include "value/convert.h"
#include "value/ops.h"

namespace hclvm::vm {

namespace {

constexpr const char* kInvalidIndex = "Invalid index";
// The start of most index failures' details, spliced into literals so
// that a failure inside try() allocates nothing.
#define NO_ELEMENT "The given key does not identify an element in this collection value"

// Fills [err] with [summary] and [detail]; returns DynamicVal.
Value fail(AccessError& err, const char* summary, util::Message detail) {
  err.summary = summary;
  err.detail = std::move(detail);
  return Value::dynamic();
}

// Returns [v] with the top-level marks of [like].
Value with_same_marks(Value v, const Value& like) {
  if (!like.is_marked()) return v;
  return v.mark(like.marks());
}

// The index of a list, tuple or map ([want] is the key type they take).
Value index_sequence_or_map(const Value& coll, const Value& key0, const Type* want,
                            AccessError& err) {
  const Type* ty = coll.type();
  ConvertResult kc = convert(key0, want);
  if (!kc.ok())
    return fail(err, kInvalidIndex, NO_ELEMENT ": " + kc.error().message + ".");
  Value key = kc.take();

  ops::Result hr = ops::has_index(coll, key);
  Value has = hr.value.unmark();
  if (!has.is_known()) {
    if (ty->is_tuple()) return with_same_marks(Value::dynamic(), coll);
    return with_same_marks(Value::unknown(ty->element()), coll);
  }
  if (!has.is_null() && !has.as_bool()) {
    if ((ty->is_list() || ty->is_tuple()) && key.type() == Type::number() && key.is_known() &&
        !key.is_null()) {
      Number n = key.unmark().as_number();
      if (!n.is_integer()) {
        return fail(err, kInvalidIndex,
                    NO_ELEMENT ": indexing a sequence requires a whole number, but the given index has a "
                        "fractional part.");
      }
      if (n.sign() < 0) {
        return fail(
            err, kInvalidIndex,
            NO_ELEMENT ": a negative number is not a valid index for a sequence.");
      }
      ops::Result len = ops::length(coll);
      if (len.ok() && len.value.is_known() && !len.value.is_marked() && !len.value.is_null()) {
        Number ln = len.value.as_number();
        NumError ne = NumError::None;
        Number diff = Number::sub(n, ln, ne);
        if (ne == NumError::None && diff.sign() < 1) {
          if (ln.sign() == 0)
            return fail(err, kInvalidIndex,
                        NO_ELEMENT ": the collection has no elements.");
          return fail(
              err, kInvalidIndex,
              NO_ELEMENT ": the given index is greater than or equal to the length of the collection.");
        }
      }
    }
    return fail(err, kInvalidIndex, NO_ELEMENT ".");
  }
  ops::Result r = ops::index(coll, key);
  if (!r.ok()) return fail(err, kInvalidIndex, NO_ELEMENT ".");
  return std::move(r.value);
}

// The attribute an index selects in an object.
Value index_object(const Value& coll, const Value& key0, AccessError& err) {
  const Type* ty = coll.type();
  bool was_number = key0.type() == Type::number();
  ConvertResult kc = convert(key0, Type::string());
  if (!kc.ok())
    return fail(err, kInvalidIndex, NO_ELEMENT ": " + kc.error().message + ".");
  Value key = kc.take();
  if (!key.is_known()) return with_same_marks(Value::dynamic(), coll);
  key = key.unmark();
  std::string_view name = key.as_string();
  std::optional<size_t> ai = ty->find_attr(name);
  if (!ai) {
    if (!was_number) {
      missing_object_key(err);
      return Value::dynamic();
    }
    return fail(err, kInvalidIndex,
                NO_ELEMENT ". An object only supports looking up attributes by name, not by numeric "
                    "index.");
  }
  if (!coll.is_known()) return with_same_marks(Value::unknown(ty->attr_type(*ai)), coll);
  ops::Result r = ops::get_attr(coll, name);
  if (!r.ok()) return fail(err, kInvalidIndex, NO_ELEMENT ".");
  return std::move(r.value);
}

}  // namespace

void missing_object_key(AccessError& err) {
  err.summary = kInvalidIndex;
  err.detail = NO_ELEMENT ".";
}

Value hcl_index(const Value& coll, const Value& key, AccessError& err) {
  if (coll.is_null())
    return fail(err, "Attempt to index null value",
                "This value is null, so it does not have any indices.");
  if (key.is_null()) return fail(err, kInvalidIndex, "Can't use a null value as an indexing key.");
  const Type* ty = coll.type();
  const Type* kty = key.type();
  if (kty->is_dynamic() || ty->is_dynamic()) return with_same_marks(Value::dynamic(), coll);
  if (ty->is_list() || ty->is_tuple()) return index_sequence_or_map(coll, key, Type::number(), err);
  if (ty->is_map()) return index_sequence_or_map(coll, key, Type::string(), err);
  if (ty->is_object()) return index_object(coll, key, err);
  if (ty->is_set()) {
    return fail(
        err, kInvalidIndex,
        "Elements of a set are identified only by their value and don't have any separate index "
        "or key to select with, so it's only possible to perform operations across all elements "
        "of the set.");
  }
  return fail(err, kInvalidIndex, "This value does not have any indices.");
}

Value hcl_get_attr(const Value& obj, std::string_view name, AccessError& err) {
  if (obj.is_null()) {
    return fail(err, "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.");
  }
  constexpr const char* kUnsupported = "Unsupported attribute";
  const Type* ty = obj.type();
  if (ty->is_object()) {
    std::optional<size_t> ai = ty->find_attr(name);
    if (!ai) {
      return fail(err, kUnsupported,
                  util::Message::concat("This object does not have an attribute named ",
                                        util::Message::Quoted{name}, "."));
    }
    if (!obj.is_known()) return with_same_marks(Value::unknown(ty->attr_type(*ai)), obj);
    ops::Result r = ops::get_attr(obj, name);
    return std::move(r.value);
  }
  if (ty->is_map()) {
    if (!obj.is_known()) return with_same_marks(Value::unknown(ty->element()), obj);
    Value idx = Value::string(name);
    ops::Result hr = ops::has_index(obj, idx);
    Value has = hr.value.unmark();
    if (has.is_known() && !has.is_null() && !has.as_bool()) {
      return fail(err, "Missing map element",
                  util::Message::concat("This map does not have an element with the key ",
                                        util::Message::Quoted{name}, "."));
    }
    ops::Result r = ops::index(obj, idx);
    return std::move(r.value);
  }
  if (ty->is_dynamic()) return with_same_marks(Value::dynamic(), obj);
  if (ty->is_list() && ty->element()->is_object()) {
    if (ty->element()->find_attr(name)) {
      return fail(
          err, kUnsupported,
          util::Message::concat(
              "Can't access attributes on a list of objects. Did you mean to access attribute ",
              util::Message::Quoted{name},
              " for a specific element of the list, or across all elements of the list?"));
    }
    return fail(
        err, kUnsupported,
        "Can't access attributes on a list of objects. Did you mean to access an attribute for a "
        "specific element of the list, or across all elements of the list?");
  }
  if (ty->is_set() && ty->element()->is_object()) {
    return fail(
        err, kUnsupported,
        "Can't access attributes on a set of objects. Did you mean to access an attribute across "
        "all elements of the set?");
  }
  if (ty->is_primitive()) {
    return fail(
        err, kUnsupported,
        util::Message::concat("Can't access attributes on a primitive-typed value (",
                              ty->friendly_name(), ")."));
  }
  return fail(err, kUnsupported, "This value does not have any attributes.");
}

#undef NO_ELEMENT

}  // namespace hclvm::vm

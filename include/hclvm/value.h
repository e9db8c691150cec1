// Values of the value model, as go-cty defines them. A Value is 16 bytes:
// a representation tag, flags (null, unknown, marked), a 32-bit auxiliary
// field and an 8-byte payload that is either an immediate (bool, int64, a
// type pointer) or a pointer to an immutable, reference-counted heap object
// (big number, string, collection, object, capsule, refined unknown, marked
// wrapper).
//
// Ownership: a Value owns one reference to its heap object. Passing a Value
// by value consumes it; passing `const Value&` borrows it. Heap objects are
// never mutated after construction, so values are shared freely between
// threads; counts are atomic (plain in a process that has only ever had one
// thread, see refcount.h), and objects made immortal (constants of a
// shared program) skip counting altogether.
//
// Null and unknown values carry their type. The dynamic value (cty's
// DynamicVal) is the unknown value of the dynamic pseudo-type. An unknown
// may carry refinements (not null, string prefix, number bounds, length
// bounds) as go-cty 1.13+ does. A marked value wraps another value with a
// set of marks ("sensitive", ...); operations unmark their operands and
// mark their results with the union, as cty does.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hclvm/number.h"
#include "hclvm/refcount.h"
#include "hclvm/type.h"

namespace hclvm {

class Value;

namespace detail {

// The header of every heap object a Value points to.
struct Obj {
  enum Kind : uint8_t { String, Seq, Map, Object, Capsule, Unknown, Marked };
  static constexpr int32_t kImmortal = -1;
  mutable std::atomic<int32_t> refs{1};  // kImmortal: never counted
  Kind kind;
  uint8_t pool_class = 0;  // the block's size class (util/pool.h), set by its maker
  explicit Obj(Kind k) : kind(k) {}
};

// An object laid out in memory something else owns (a program's arena):
// this head lies right before it, its pool_class is kExternalClass, and
// when the object dies [release]([owner]) runs in place of freeing it.
struct ExternalHead {
  void (*release)(void* owner);
  void* owner;
};
inline constexpr uint8_t kExternalClass = 0xFF;

void destroy(const Obj* o);
struct SeqObj;
// A sequence object of type [t] with room for [n] elements, their slots
// unconstructed (the maker constructs each).
SeqObj* alloc_seq(const Type* t, size_t n);

inline void retain(const Obj* o) { count_retain(o->refs, Obj::kImmortal); }
inline void release(const Obj* o) {
  if (count_release(o->refs, Obj::kImmortal)) destroy(o);
}

}  // namespace detail

// A set of marks: interned labels, kept sorted by text.
class Marks {
 public:
  Marks() = default;
  // The stable interned copy of [label].
  static std::string_view intern(std::string_view label);
  static Marks of(std::string_view label);

  bool empty() const { return labels_.empty(); }
  size_t size() const { return labels_.size(); }
  bool has(std::string_view label) const;
  std::span<const std::string_view> labels() const { return labels_; }
  void add(std::string_view label);
  void add(const Marks& other);
  friend bool operator==(const Marks&, const Marks&) = default;

 private:
  std::vector<std::string_view> labels_;  // interned, sorted, distinct
};

// What is known about an unknown value (cty's refinements).
struct Refinement {
  bool not_null = false;
  std::string prefix;                 // strings: every possible value starts with it
  // Numbers: bounds, as number values, or null when unbounded.
  Number lower, upper;
  bool has_lower = false, has_upper = false;
  bool lower_inclusive = false, upper_inclusive = false;
  // Collections: bounds of the length.
  uint64_t min_length = 0;
  uint64_t max_length = UINT64_MAX;

  bool empty() const {
    return !not_null && prefix.empty() && !has_lower && !has_upper && min_length == 0 &&
           max_length == UINT64_MAX;
  }
};

class Value {
 public:
  // How the payload is to be read. ORDER REP: value.cpp's destroy and copy.
  enum class Rep : uint8_t {
    TypeOnly,  // null or unknown without refinements: payload is the type
    Bool,
    SmallNum,  // int64 in the payload, precision in aux
    BigNum,    // Number's heap number
    String,    // detail::StringObj
    Seq,       // list, set or tuple: detail::SeqObj
    Map,       // detail::MapObj
    Object,    // detail::ObjectObj
    Capsule,   // detail::CapsuleObj
    Unknown,   // refined unknown: detail::UnknownObj
    Marked,    // detail::MarkedObj wrapping another value
  };
  enum Flag : uint8_t { kNull = 1, kUnknown = 2, kMarked = 4 };

  // The null value of the dynamic pseudo-type.
  Value() : rep_(Rep::TypeOnly), flags_(kNull), aux_(0) { u_.type = Type::dynamic(); }
  Value(const Value& v) : rep_(v.rep_), flags_(v.flags_), aux_(v.aux_), u_(v.u_) { v.retain(); }
  Value(Value&& v) noexcept : rep_(v.rep_), flags_(v.flags_), aux_(v.aux_), u_(v.u_) {
    v.rep_ = Rep::TypeOnly;
  }
  Value& operator=(const Value& v) {
    v.retain();
    release();
    rep_ = v.rep_, flags_ = v.flags_, aux_ = v.aux_, u_ = v.u_;
    return *this;
  }
  // Always inline: GCC otherwise keeps it out of line in big functions (the
  // interpreter), where every push of a value would be a call.
  [[gnu::always_inline]] Value& operator=(Value&& v) noexcept {
    if (this != &v) {
      release();
      rep_ = v.rep_, flags_ = v.flags_, aux_ = v.aux_, u_ = v.u_;
      v.rep_ = Rep::TypeOnly;
    }
    return *this;
  }
  ~Value() { release(); }

  // --- construction ---------------------------------------------------------
  static Value null(const Type* t) { return Value(Rep::TypeOnly, kNull, t); }
  static Value unknown(const Type* t) { return Value(Rep::TypeOnly, kUnknown, t); }
  // An unknown of type [t] with [r] (no refinements: a plain unknown).
  static Value unknown(const Type* t, Refinement r);
  // cty's DynamicVal: unknown, of unknown type.
  static Value dynamic() { return unknown(Type::dynamic()); }
  static Value boolean(bool b) {
    Value v(Rep::Bool, 0, nullptr);
    v.u_.b = b;
    return v;
  }
  static Value number(Number n);
  // cty's NumberIntVal: [i] at precision 64.
  static Value integer(int64_t i) {
    Value v(Rep::SmallNum, 0, nullptr);
    v.u_.i = i;
    v.aux_ = 64;
    return v;
  }
  // A string, NFC-normalized.
  static Value string(std::string_view s);
  // A list of [elems], all of type [elem] (cty ListVal); none: the empty list.
  static Value list(const Type* elem, std::vector<Value> elems);
  // A set of [elems] of type [elem]: duplicates dropped, cty's order (set.cpp).
  static Value set(const Type* elem, std::vector<Value> elems);
  // A map from [entries] (keys distinct, any order), all of type [elem].
  static Value map(const Type* elem, std::vector<std::pair<std::string, Value>> entries);
  static Value tuple(std::vector<Value> elems);
  // An object from [attrs] (names distinct, any order).
  static Value object(std::vector<std::pair<std::string, Value>> attrs);
  // An object of type [t] with attribute values in [t]'s (sorted) order.
  static Value object(const Type* t, std::vector<Value> values);
  // A tuple of type [t] (whose element types are those of [elems]) and an
  // object of type [t] (values in its order), moving the values out of the
  // span: what an evaluator uses with types it has cached.
  static Value tuple_from(const Type* t, std::span<Value> elems);
  static Value list_from(const Type* elem, std::span<Value> elems);
  static Value object_from(const Type* t, std::span<Value> values);
  // The same with values[i] going to [t]'s attribute slots[i] (every
  // attribute given once).
  static Value object_from(const Type* t, std::span<Value> values,
                           std::span<const uint32_t> slots);
  static Value capsule(const Type* t, void* payload);

  // --- inspection -----------------------------------------------------------
  Rep rep() const { return rep_; }
  const Type* type() const;
  bool is_null() const { return flags_ & kNull; }
  bool is_known() const { return !(flags_ & kUnknown); }
  bool is_marked() const { return flags_ & kMarked; }
  // Known, and every nested element known (cty IsWhollyKnown).
  bool is_wholly_known() const;
  // Neither null nor unknown nor marked: payload readable.
  bool is_plain() const { return flags_ == 0; }

  // Accessors of known, non-null, unmarked values of the matching type.
  bool as_bool() const { return u_.b; }
  Number as_number() const;
  bool is_small_int() const { return rep_ == Rep::SmallNum; }
  int64_t small_int() const { return u_.i; }
  std::string_view as_string() const;
  // Length in grapheme clusters (cty's Length of a string).
  size_t string_length() const;

  // Elements of a list, set or tuple; entries of a map; attributes of an object.
  size_t length() const;
  const Value& element(size_t i) const;
  std::span<const Value> elements() const;
  std::string_view map_key(size_t i) const;
  const Value& map_value(size_t i) const;
  // The map entry for [key], or null.
  const Value* map_find(std::string_view key) const;
  const Value& attr(size_t i) const;
  // The attribute [name] of an object, or null.
  const Value* attr(std::string_view name) const;
  void* capsule_payload() const;

  // Refinements of an unknown value (empty for a plain unknown).
  const Refinement& refinement() const;

  // --- marks ----------------------------------------------------------------
  const Marks& marks() const;
  // This value with [m] added to its marks.
  Value mark(const Marks& m) const { return m.empty() ? *this : add_marks(m); }
  Value mark(std::string_view label) const { return mark(Marks::of(label)); }
  // This value without its top-level marks, and the marks removed.
  Value unmark() const;
  std::pair<Value, Marks> unmark_with_marks() const;
  // Whether this value or anything inside it is marked.
  bool contains_marked() const;
  // This value with every mark removed at any depth, and their union.
  std::pair<Value, Marks> unmark_deep() const;

  // Makes this value's heap objects immortal (deeply), for a constant shared
  // between threads; the value must not be destroyed concurrently before.
  void make_immortal() const;

  // The bytes an external copy of this value takes (ExternalHeads
  // included; a multiple of 16), or 0 when it is not copied that way. Only
  // strings, tuples, lists, sets and objects of them (and of values held
  // inline) are, of at most [limit] bytes in all.
  size_t external_size(size_t limit) const;
  // A copy of this value (external_size() > 0) whose objects are laid out
  // from [mem] on (aligned to 16; advanced past them), each owned as [head]
  // says and counted in [objects]: a constant laid out beside the code that
  // reads it. Counted like any other copy.
  Value external_copy(char*& mem, detail::ExternalHead head, size_t& objects) const;

  // Raw parts, for serialization and the VM.
  uint8_t flags() const { return flags_; }
  uint32_t aux() const { return aux_; }
  const detail::Obj* obj() const { return u_.obj; }

 private:
  Value(Rep r, uint8_t f, const Type* t) : rep_(r), flags_(f), aux_(0) { u_.type = t; }
  bool has_obj() const { return rep_ >= Rep::String; }
  Value add_marks(const Marks& m) const;  // mark() with marks to add
  // Counting: see the definitions below.
  void retain() const;
  void release();
  void retain_heap() const;
  void release_heap();

  Rep rep_;
  uint8_t flags_;
  uint16_t spare_ = 0;
  uint32_t aux_;
  union {
    bool b;
    int64_t i;
    const Type* type;
    const detail::Obj* obj;
    const void* big;
  } u_;
};

static_assert(sizeof(Value) == 16);

namespace detail {

// The objects of typed values keep their type in the same place, so that
// Value::type reads it without asking which kind of object it is.
struct TypedObj : Obj {
  const Type* type;
  explicit TypedObj(Kind k) : Obj(k) {}
};

struct StringObj : Obj {
  uint32_t size;
  mutable std::atomic<uint32_t> graphemes;  // UINT32_MAX: not counted yet
  StringObj() : Obj(String) {}
  // The bytes follow the header, then a NUL.
  char* data() { return reinterpret_cast<char*>(this + 1); }
  std::string_view view() const { return {reinterpret_cast<const char*>(this + 1), size}; }
};

// Lists, sets and tuples: the type and the elements in order.
struct SeqObj : TypedObj {
  uint32_t size;
  SeqObj() : TypedObj(Seq) {}
  // The elements follow the header.
  Value* elems() const { return reinterpret_cast<Value*>(const_cast<SeqObj*>(this) + 1); }
};

// Maps: entries sorted by key (bytewise), keys as string values.
struct MapObj : TypedObj {
  uint32_t size;
  Value* keys;   // size string values
  Value* vals;   // size values
  MapObj() : TypedObj(Map) {}
};

// Objects: attribute values in the order of the type's sorted names.
struct ObjectObj : TypedObj {
  ObjectObj() : TypedObj(Object) {}
  // The attribute values follow the header.
  Value* vals() const { return reinterpret_cast<Value*>(const_cast<ObjectObj*>(this) + 1); }
};

struct CapsuleObj : TypedObj {
  void* payload;
  CapsuleObj() : TypedObj(Capsule) {}
};

struct UnknownObj : TypedObj {
  Refinement refinement;
  UnknownObj() : TypedObj(Unknown) {}
};

struct MarkedObj : Obj {
  Value inner;
  Marks marks;
  MarkedObj() : Obj(Marked) {}
};

}  // namespace detail

// The representation tests are always inline (GCC would otherwise make
// every destruction a call). Taking a reference to a heap object is
// inline too (refcount.h: a load, a compare and a store in a process with
// one thread); dropping one, which may destroy, and big numbers call out.
[[gnu::always_inline]] inline void Value::retain() const {
  if (rep_ > Rep::BigNum)
    detail::retain(u_.obj);
  else if (rep_ == Rep::BigNum)
    retain_heap();
}

[[gnu::always_inline]] inline void Value::release() {
  if (rep_ >= Rep::BigNum) release_heap();
}

inline Value Value::unmark() const {
  if (rep_ == Rep::Marked) return static_cast<const detail::MarkedObj*>(u_.obj)->inner;
  return *this;
}

inline std::pair<Value, Marks> Value::unmark_with_marks() const {
  if (rep_ == Rep::Marked) {
    auto* o = static_cast<const detail::MarkedObj*>(u_.obj);
    return {o->inner, o->marks};
  }
  return {*this, Marks()};
}

inline const Type* Value::type() const {
  // A marked value's inner value is never itself marked (mark() flattens).
  const Value* v = this;
  if (rep_ == Rep::Marked) v = &static_cast<const detail::MarkedObj*>(u_.obj)->inner;
  switch (v->rep_) {
    case Rep::TypeOnly: return v->u_.type;
    case Rep::Bool: return Type::boolean();
    case Rep::SmallNum:
    case Rep::BigNum: return Type::number();
    case Rep::String: return Type::string();
    default: return static_cast<const detail::TypedObj*>(v->u_.obj)->type;
  }
}

inline Value Value::number(Number n) {
  Value v(Rep::SmallNum, 0, nullptr);
  if (n.is_small()) {
    v.u_.i = n.small();
    v.aux_ = n.precision();
  } else {
    v.rep_ = Rep::BigNum;
    v.u_.big = n.release_to_raw();
  }
  return v;
}

inline Number Value::as_number() const {
  if (rep_ == Rep::SmallNum) return Number::from_parts_small(u_.i, aux_);
  Number::retain_big(u_.big);
  return Number::adopt_big(u_.big);
}

inline std::string_view Value::as_string() const {
  return static_cast<const detail::StringObj*>(u_.obj)->view();
}

inline const Value& Value::element(size_t i) const {
  return static_cast<const detail::SeqObj*>(u_.obj)->elems()[i];
}

inline const Value& Value::attr(size_t i) const {
  return static_cast<const detail::ObjectObj*>(u_.obj)->vals()[i];
}

}  // namespace hclvm

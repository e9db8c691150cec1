// Types of the value model, as go-cty defines them: the primitives string,
// number and bool; the collections list, set and map of one element type;
// the structural types object (named attributes, some optional) and tuple
// (positional elements); the dynamic pseudo-type that stands for "any type,
// not known yet"; and capsule types that carry an embedder's own objects.
//
// Types are interned: each distinct type exists once, for the life of the
// process, so type identity is pointer identity and `const Type*` is passed
// around freely (also between threads). Interning takes a lock; code on a
// hot path keeps the pointers it needs instead of rebuilding types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hclvm {

class Value;

// ORDER KIND: List, Set and Map stay together (type.cpp caches by kind - List).
enum class TypeKind : uint8_t { Dynamic, String, Number, Bool, List, Set, Map, Object, Tuple, Capsule };

// One attribute of an object type, for building one.
struct TypeAttr {
  std::string_view name;
  const class Type* type;
  bool optional = false;
};

// What a capsule type does with its payloads. Capsules of one type compare
// equal when [equals] says so, or else when their pointers are equal.
struct CapsuleOps {
  bool (*equals)(const void* a, const void* b) = nullptr;
  // Called when the last value holding [p] goes away; null: not owned.
  void (*destroy)(void* p) = nullptr;
};

class Type {
 public:
  // The primitive types and the dynamic pseudo-type are constants, so that
  // naming them costs nothing on hot paths.
  static const Type* dynamic() { return &kDynamic; }
  static const Type* string() { return &kString; }
  static const Type* number() { return &kNumber; }
  static const Type* boolean() { return &kBool; }
  static const Type* list(const Type* element);
  static const Type* set(const Type* element);
  static const Type* map(const Type* element);
  // An object type with [attrs] in any order (names must be distinct).
  static const Type* object(std::span<const TypeAttr> attrs);
  static const Type* empty_object();
  static const Type* tuple(std::span<const Type* const> elements);
  static const Type* empty_tuple();
  // A new capsule type: capsule types are nominal, each call makes a distinct one.
  static const Type* capsule(std::string_view name, const CapsuleOps* ops);

  TypeKind kind() const { return kind_; }
  bool is_dynamic() const { return kind_ == TypeKind::Dynamic; }
  bool is_primitive() const {
    return kind_ == TypeKind::String || kind_ == TypeKind::Number || kind_ == TypeKind::Bool;
  }
  bool is_list() const { return kind_ == TypeKind::List; }
  bool is_set() const { return kind_ == TypeKind::Set; }
  bool is_map() const { return kind_ == TypeKind::Map; }
  bool is_object() const { return kind_ == TypeKind::Object; }
  bool is_tuple() const { return kind_ == TypeKind::Tuple; }
  bool is_capsule() const { return kind_ == TypeKind::Capsule; }
  // List, set or map.
  bool is_collection() const {
    return kind_ == TypeKind::List || kind_ == TypeKind::Set || kind_ == TypeKind::Map;
  }
  // Object or tuple.
  bool is_structural() const { return kind_ == TypeKind::Object || kind_ == TypeKind::Tuple; }

  // The element type of a list, set or map.
  const Type* element() const { return element_; }
  // Number of attributes of an object, elements of a tuple.
  size_t size() const { return size_; }
  // The [i]th attribute of an object, attributes sorted by name (bytewise).
  std::string_view attr_name(size_t i) const { return names_[i]; }
  const Type* attr_type(size_t i) const { return types_[i]; }
  bool attr_optional(size_t i) const { return optional_ && optional_[i]; }
  bool has_optional_attrs() const { return optional_ != nullptr; }
  // Whether an optional attribute occurs anywhere in this type.
  bool has_optional_attrs_deep() const { return has_optional_; }
  // Index of attribute [name] of an object type.
  std::optional<size_t> find_attr(std::string_view name) const;
  // The [i]th element type of a tuple.
  const Type* tuple_element(size_t i) const { return types_[i]; }
  std::string_view capsule_name() const { return names_ ? names_[0] : std::string_view(); }
  const CapsuleOps* capsule_ops() const { return ops_; }

  // Whether the dynamic pseudo-type occurs anywhere in this type.
  bool has_dynamic_types() const { return has_dynamic_; }
  // This type with every optional attribute made required (cty WithoutOptionalAttributesDeep).
  const Type* without_optional_attrs_deep() const;

  // cty's FriendlyName: "string", "list of number", "object", "tuple", "dynamic".
  std::string friendly_name() const;
  // cty's FriendlyNameForConstraint: as friendly_name, but the dynamic
  // pseudo-type reads "any type" and list(any) "list of any single type".
  std::string friendly_name_for_constraint() const;
  // cty's GoString: `cty.List(cty.String)`, `cty.Object(map[string]cty.Type{...})`.
  std::string go_string() const;

  Type(const Type&) = delete;
  Type& operator=(const Type&) = delete;

 private:
  friend struct TypeTable;
  Type() = default;
  constexpr Type(TypeKind kind, bool has_dynamic) : kind_(kind), has_dynamic_(has_dynamic) {}

  static const Type kDynamic, kString, kNumber, kBool;

  TypeKind kind_ = TypeKind::Dynamic;
  bool has_dynamic_ = false;
  bool has_optional_ = false;  // an optional attribute anywhere in this type
  uint32_t size_ = 0;
  size_t hash_ = 0;
  const Type* element_ = nullptr;
  const std::string_view* names_ = nullptr;  // object attributes (sorted); capsule name
  const Type* const* types_ = nullptr;       // object attribute types; tuple elements
  const bool* optional_ = nullptr;           // null when no attribute is optional
  const CapsuleOps* ops_ = nullptr;
};

}  // namespace hclvm

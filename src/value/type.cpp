// The type intern table and the type names of messages. Every type is built
// once, in a process-wide table under a mutex, and never freed: types are
// few (bounded by the distinct shapes a program meets) and pointer identity
// must hold for the life of the process. The table stores each type's parts
// (attribute names, element types) in its own arena.
#include "hclvm/type.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "util/budget.h"

namespace hclvm {

namespace {

// Mixes [v] into the running hash [h].
size_t mix(size_t h, size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

// A type being looked up: the same parts as a Type, not yet interned.
struct Key {
  TypeKind kind;
  const Type* element = nullptr;
  std::span<const TypeAttr> attrs;          // object, sorted
  std::span<const Type* const> elements;    // tuple
  size_t hash = 0;                          // hash_key(), once computed
};

size_t hash_key(const Key& k) {
  size_t h = mix(0, size_t(k.kind));
  h = mix(h, std::hash<const void*>()(k.element));
  for (const TypeAttr& a : k.attrs) {
    h = mix(h, std::hash<std::string_view>()(a.name));
    h = mix(h, std::hash<const void*>()(a.type));
    h = mix(h, a.optional);
  }
  for (const Type* t : k.elements) h = mix(h, std::hash<const void*>()(t));
  // Spread every bit into the low ones, which pick the table slot.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

}  // namespace

// The process-wide intern table (a friend of Type, so it can build them).
struct TypeTable {
  std::mutex mu;
  // The interned types by hash: open addressing with linear probing, so
  // that a look-up touches one slot array rather than a chain of nodes (a
  // document's worth of object types makes the table large).
  struct Slot {
    size_t hash;
    const Type* type;  // null: free
  };
  std::vector<Slot> slots = std::vector<Slot>(1024);
  size_t count = 0;
  std::deque<std::unique_ptr<Type>> types;
  std::deque<std::string> strings;         // attribute and capsule names
  std::deque<std::vector<std::string_view>> name_lists;
  std::deque<std::vector<const Type*>> type_lists;
  std::deque<std::unique_ptr<bool[]>> flag_lists;


  static TypeTable& get() {
    static TypeTable* table = new TypeTable();  // never destroyed: types outlive statics
    return *table;
  }

  static bool matches(const Key& k, const Type* t) {
    if (k.kind != t->kind_ || k.element != t->element_) return false;
    if (k.kind == TypeKind::Object) {
      if (k.attrs.size() != t->size_) return false;
      for (size_t i = 0; i < k.attrs.size(); ++i) {
        const TypeAttr& a = k.attrs[i];
        if (a.name != t->names_[i] || a.type != t->types_[i] || a.optional != t->attr_optional(i))
          return false;
      }
    } else if (k.kind == TypeKind::Tuple) {
      if (k.elements.size() != t->size_) return false;
      for (size_t i = 0; i < k.elements.size(); ++i)
        if (k.elements[i] != t->types_[i]) return false;
    }
    return true;
  }

  // Returns the interned type for [key], building it on first use. Readers
  // build the same object and tuple types over and over (one per JSON
  // object): each thread remembers the types it met last, by hash, and
  // finds those again without the lock.
  const Type* intern(const Key& key) {
    Key k = key;
    k.hash = hash_key(k);
    thread_local const Type* recent[256] = {};
    const Type*& slot = recent[k.hash & 255];
    if (slot && slot->hash_ == k.hash && matches(k, slot)) return slot;
    slot = intern_locked(k);
    return slot;
  }

  // intern() under the lock, for [k] with its hash.
  const Type* intern_locked(const Key& k) {
    std::lock_guard lock(mu);
    size_t mask = slots.size() - 1;
    size_t free = k.hash & mask;
    for (; slots[free].type; free = (free + 1) & mask)
      if (slots[free].hash == k.hash && matches(k, slots[free].type)) return slots[free].type;
    Type& t = *types.emplace_back(new Type());
    t.kind_ = k.kind;
    t.element_ = k.element;
    t.hash_ = k.hash;
    if (k.element) {
      t.has_dynamic_ = k.element->has_dynamic_;
      t.has_optional_ = k.element->has_optional_;
    }
    if (k.kind == TypeKind::Object && !k.attrs.empty()) {
      auto& names = name_lists.emplace_back();
      auto& tys = type_lists.emplace_back();
      bool any_optional = false;
      for (const TypeAttr& a : k.attrs) {
        names.push_back(strings.emplace_back(a.name));
        tys.push_back(a.type);
        t.has_dynamic_ |= a.type->has_dynamic_;
        t.has_optional_ |= a.type->has_optional_;
        any_optional |= a.optional;
      }
      if (any_optional) {
        auto& flags = flag_lists.emplace_back(new bool[k.attrs.size()]);
        for (size_t i = 0; i < k.attrs.size(); ++i) flags[i] = k.attrs[i].optional;
        t.optional_ = flags.get();
        t.has_optional_ = true;
      }
      t.names_ = names.data();
      t.types_ = tys.data();
      t.size_ = uint32_t(k.attrs.size());
    } else if (k.kind == TypeKind::Tuple && !k.elements.empty()) {
      auto& tys = type_lists.emplace_back(k.elements.begin(), k.elements.end());
      for (const Type* e : tys) {
        t.has_dynamic_ |= e->has_dynamic_;
        t.has_optional_ |= e->has_optional_;
      }
      t.types_ = tys.data();
      t.size_ = uint32_t(tys.size());
    }
    slots[free] = {k.hash, &t};
    if (++count * 2 > slots.size()) grow();
    return &t;
  }

  // Doubles the slot array (at half load).
  void grow() {
    std::vector<Slot> old(slots.size() * 2);
    old.swap(slots);
    size_t mask = slots.size() - 1;
    for (const Slot& s : old) {
      if (!s.type) continue;
      size_t i = s.hash & mask;
      while (slots[i].type) i = (i + 1) & mask;
      slots[i] = s;
    }
  }

  const Type* new_capsule(std::string_view name, const CapsuleOps* ops) {
    std::lock_guard lock(mu);
    Type& t = *types.emplace_back(new Type());
    t.kind_ = TypeKind::Capsule;
    auto& names = name_lists.emplace_back();
    names.push_back(strings.emplace_back(name));
    t.names_ = names.data();
    t.ops_ = ops;
    t.hash_ = std::hash<const void*>()(&t);
    return &t;
  }
};

constinit const Type Type::kDynamic{TypeKind::Dynamic, true};
constinit const Type Type::kString{TypeKind::String, false};
constinit const Type Type::kNumber{TypeKind::Number, false};
constinit const Type Type::kBool{TypeKind::Bool, false};

namespace {

// Returns the collection type of [kind] over [element]. Values build these
// types all the time (every list value names its type), so each thread
// keeps a small direct-mapped cache in front of the locked table.
const Type* collection(TypeKind kind, const Type* element) {
  struct Slot {
    const Type* element;
    const Type* type;
  };
  thread_local Slot cache[3][64] = {};
  Slot& slot = cache[size_t(kind) - size_t(TypeKind::List)]
                    [(reinterpret_cast<uintptr_t>(element) >> 4) & 63];
  if (slot.element == element && slot.type) return slot.type;
  const Type* t = TypeTable::get().intern(Key{kind, element, {}, {}});
  slot = {element, t};
  return t;
}

}  // namespace

const Type* Type::list(const Type* element) { return collection(TypeKind::List, element); }
const Type* Type::set(const Type* element) { return collection(TypeKind::Set, element); }
const Type* Type::map(const Type* element) { return collection(TypeKind::Map, element); }

// Types are never freed, so a run may not make one larger than a value of
// it could be (util/budget.h): checked before the type is built.
const Type* Type::object(std::span<const TypeAttr> attrs) {
  util::check_collection_size(attrs.size());
  bool sorted = std::is_sorted(attrs.begin(), attrs.end(),
                               [](const TypeAttr& a, const TypeAttr& b) { return a.name < b.name; });
  if (sorted) return TypeTable::get().intern(Key{TypeKind::Object, nullptr, attrs, {}});
  std::vector<TypeAttr> copy(attrs.begin(), attrs.end());
  std::sort(copy.begin(), copy.end(), [](const TypeAttr& a, const TypeAttr& b) { return a.name < b.name; });
  return TypeTable::get().intern(Key{TypeKind::Object, nullptr, copy, {}});
}

const Type* Type::empty_object() {
  static const Type* t = object({});
  return t;
}

const Type* Type::tuple(std::span<const Type* const> elements) {
  util::check_collection_size(elements.size());
  return TypeTable::get().intern(Key{TypeKind::Tuple, nullptr, {}, elements});
}

const Type* Type::empty_tuple() {
  static const Type* t = tuple({});
  return t;
}

const Type* Type::capsule(std::string_view name, const CapsuleOps* ops) {
  return TypeTable::get().new_capsule(name, ops);
}

std::optional<size_t> Type::find_attr(std::string_view name) const {
  const std::string_view* end = names_ + size_;
  const std::string_view* it = std::lower_bound(names_, end, name);
  if (it == end || *it != name) return std::nullopt;
  return size_t(it - names_);
}

const Type* Type::without_optional_attrs_deep() const {
  // Most types have none: no work, no recursion (types can be deep).
  if (!has_optional_) return this;
  switch (kind_) {
    case TypeKind::List: return list(element_->without_optional_attrs_deep());
    case TypeKind::Set: return set(element_->without_optional_attrs_deep());
    case TypeKind::Map: return map(element_->without_optional_attrs_deep());
    case TypeKind::Object: {
      std::vector<TypeAttr> attrs;
      for (size_t i = 0; i < size_; ++i)
        attrs.push_back({names_[i], types_[i]->without_optional_attrs_deep(), false});
      return object(attrs);
    }
    case TypeKind::Tuple: {
      std::vector<const Type*> elems;
      for (size_t i = 0; i < size_; ++i) elems.push_back(types_[i]->without_optional_attrs_deep());
      return tuple(elems);
    }
    default: return this;
  }
}

std::string Type::friendly_name() const {
  switch (kind_) {
    case TypeKind::Dynamic: return "dynamic";
    case TypeKind::String: return "string";
    case TypeKind::Number: return "number";
    case TypeKind::Bool: return "bool";
    case TypeKind::List: return "list of " + element_->friendly_name();
    case TypeKind::Set: return "set of " + element_->friendly_name();
    case TypeKind::Map: return "map of " + element_->friendly_name();
    case TypeKind::Object: return "object";
    case TypeKind::Tuple: return "tuple";
    case TypeKind::Capsule: return std::string(capsule_name());
  }
  return "";
}

std::string Type::friendly_name_for_constraint() const {
  auto elem = [this] {
    return element_->is_dynamic() ? std::string("any single type")
                                  : element_->friendly_name_for_constraint();
  };
  switch (kind_) {
    case TypeKind::Dynamic: return "any type";
    case TypeKind::List: return "list of " + elem();
    case TypeKind::Set: return "set of " + elem();
    case TypeKind::Map: return "map of " + elem();
    default: return friendly_name();
  }
}

std::string Type::go_string() const {
  switch (kind_) {
    case TypeKind::Dynamic: return "cty.DynamicPseudoType";
    case TypeKind::String: return "cty.String";
    case TypeKind::Number: return "cty.Number";
    case TypeKind::Bool: return "cty.Bool";
    case TypeKind::List: return "cty.List(" + element_->go_string() + ")";
    case TypeKind::Set: return "cty.Set(" + element_->go_string() + ")";
    case TypeKind::Map: return "cty.Map(" + element_->go_string() + ")";
    case TypeKind::Object: {
      if (size_ == 0) return "cty.EmptyObject";
      std::string s = optional_ ? "cty.ObjectWithOptionalAttrs(" : "cty.Object(";
      s += "map[string]cty.Type{";
      for (size_t i = 0; i < size_; ++i) {
        if (i) s += ", ";
        s += '"';
        s += names_[i];
        s += "\":" + types_[i]->go_string();
      }
      s += "}";
      if (optional_) {
        s += ", []string{";
        bool first = true;
        for (size_t i = 0; i < size_; ++i) {
          if (!optional_[i]) continue;
          if (!first) s += ", ";
          first = false;
          s += '"';
          s += names_[i];
          s += '"';
        }
        s += "}";
      }
      return s + ")";
    }
    case TypeKind::Tuple: {
      if (size_ == 0) return "cty.EmptyTuple";
      std::string s = "cty.Tuple([]cty.Type{";
      for (size_t i = 0; i < size_; ++i) {
        if (i) s += ", ";
        s += types_[i]->go_string();
      }
      return s + "})";
    }
    case TypeKind::Capsule: return "cty.Capsule(\"" + std::string(capsule_name()) + "\")";
  }
  return "";
}

}  // namespace hclvm

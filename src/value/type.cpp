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
#include <unordered_map>
#include <vector>

#include "util/budget.h"
#include "util/meter.h"
#include "util/stack.h"

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

namespace {

// without_optional_attrs_deep() of types that may share parts and nest
// deeply: each type once (a type repeated in a tuple is converted once),
// within the stack budget of a run_deep.
class OptionalStripper {
 public:
  const Type* strip(const Type* t) {
    if (!t->has_optional_attrs_deep()) return t;
    auto [it, fresh] = done_.try_emplace(t, nullptr);
    if (!fresh) return it->second;
    util::enter_level();
    const Type* r = t;
    switch (t->kind()) {
      case TypeKind::List: r = Type::list(strip(t->element())); break;
      case TypeKind::Set: r = Type::set(strip(t->element())); break;
      case TypeKind::Map: r = Type::map(strip(t->element())); break;
      case TypeKind::Object: {
        std::vector<TypeAttr> attrs;
        for (size_t i = 0; i < t->size(); ++i)
          attrs.push_back({t->attr_name(i), strip(t->attr_type(i)), false});
        r = Type::object(attrs);
        break;
      }
      case TypeKind::Tuple: {
        std::vector<const Type*> elems;
        for (size_t i = 0; i < t->size(); ++i) elems.push_back(strip(t->tuple_element(i)));
        r = Type::tuple(elems);
        break;
      }
      default: break;
    }
    done_[t] = r;
    return r;
  }

 private:
  std::unordered_map<const Type*, const Type*> done_;
};

}  // namespace

const Type* Type::without_optional_attrs_deep() const {
  // Most types have none: no work, no recursion (types can be deep).
  if (!has_optional_) return this;
  return util::run_deep([&](const util::StackBudget&) { return OptionalStripper().strip(this); });
}

std::string Type::friendly_name() const {
  // Only collections name their element: a chain, written in one pass.
  std::string out;
  const Type* t = this;
  for (;; t = t->element_) {
    switch (t->kind_) {
      case TypeKind::List: out += "list of "; continue;
      case TypeKind::Set: out += "set of "; continue;
      case TypeKind::Map: out += "map of "; continue;
      case TypeKind::Dynamic: out += "dynamic"; break;
      case TypeKind::String: out += "string"; break;
      case TypeKind::Number: out += "number"; break;
      case TypeKind::Bool: out += "bool"; break;
      case TypeKind::Object: out += "object"; break;
      case TypeKind::Tuple: out += "tuple"; break;
      case TypeKind::Capsule: out += t->capsule_name(); break;
    }
    return out;
  }
}

std::string Type::friendly_name_for_constraint() const {
  std::string out;
  const Type* t = this;
  for (;; t = t->element_) {
    switch (t->kind_) {
      case TypeKind::Dynamic: return out + "any type";
      case TypeKind::List: out += "list of "; break;
      case TypeKind::Set: out += "set of "; break;
      case TypeKind::Map: out += "map of "; break;
      default: return out + t->friendly_name();
    }
    if (t->element_->is_dynamic()) return out + "any single type";
  }
}

namespace {

// Appends cty's GoString of [t] to [out], counted by [meter] (a type that
// repeats a shared part writes it every time), within a run_deep's stack.
void append_go_string(const Type* t, std::string& out, util::TextMeter& meter) {
  meter.check();
  switch (t->kind()) {
    case TypeKind::Dynamic: out += "cty.DynamicPseudoType"; return;
    case TypeKind::String: out += "cty.String"; return;
    case TypeKind::Number: out += "cty.Number"; return;
    case TypeKind::Bool: out += "cty.Bool"; return;
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
      util::enter_level();
      out += t->is_list() ? "cty.List(" : t->is_set() ? "cty.Set(" : "cty.Map(";
      append_go_string(t->element(), out, meter);
      out += ')';
      return;
    case TypeKind::Object: {
      if (t->size() == 0) {
        out += "cty.EmptyObject";
        return;
      }
      util::enter_level();
      bool optional = t->has_optional_attrs();
      out += optional ? "cty.ObjectWithOptionalAttrs(" : "cty.Object(";
      out += "map[string]cty.Type{";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ", ";
        out += '"';
        out += t->attr_name(i);
        out += "\":";
        append_go_string(t->attr_type(i), out, meter);
      }
      out += "}";
      if (optional) {
        out += ", []string{";
        bool first = true;
        for (size_t i = 0; i < t->size(); ++i) {
          if (!t->attr_optional(i)) continue;
          if (!first) out += ", ";
          first = false;
          out += '"';
          out += t->attr_name(i);
          out += '"';
        }
        out += "}";
      }
      out += ')';
      return;
    }
    case TypeKind::Tuple: {
      if (t->size() == 0) {
        out += "cty.EmptyTuple";
        return;
      }
      util::enter_level();
      out += "cty.Tuple([]cty.Type{";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ", ";
        append_go_string(t->tuple_element(i), out, meter);
      }
      out += "})";
      return;
    }
    case TypeKind::Capsule:
      out += "cty.Capsule(\"";
      out += t->capsule_name();
      out += "\")";
      return;
  }
}

}  // namespace

std::string Type::go_string() const {
  auto write = [this] {
    std::string out;
    util::TextMeter meter(out, util::TextMeter::Use::StringValue);
    append_go_string(this, out, meter);
    return out;
  };
  if (!is_collection() && !is_structural()) return write();
  return util::run_deep([&](const util::StackBudget&) { return write(); });
}

}  // namespace hclvm

// Construction, destruction and inspection of values: the heap objects
// behind strings, collections, objects, capsules, refined unknowns and
// marked values, and the string normalization cty applies on creation (NFC).
// Set construction (which needs cty's hashing and order) is in set.cpp.
#include "hclvm/value.h"

#include <utf8proc.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <numeric>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/budget.h"
#include "util/pool.h"
#include "util/unicode.h"
#include "value/walk.h"

namespace hclvm {

namespace detail {

namespace {

// A heap object of type [T] in [bytes] (its header and what follows it),
// charged to the evaluation in progress (util/budget.h), from this thread's
// recycled blocks when one is free (util/pool.h).
template <class T>
T* make(size_t bytes) {
  util::charge_memory(bytes);
  uint8_t c = util::pool::class_of(bytes);
  T* o = new (util::pool::allocate(c, bytes)) T();
  o->pool_class = c;
  return o;
}

}  // namespace

SeqObj* alloc_seq(const Type* t, size_t n) {
  util::check_collection_size(n);
  size_t bytes = sizeof(SeqObj) + n * sizeof(Value);
  auto* o = make<SeqObj>(bytes);
  o->type = t;
  o->size = uint32_t(n);
  return o;
}

namespace {

ObjectObj* alloc_object(const Type* t) {
  util::check_collection_size(t->size());
  size_t bytes = sizeof(ObjectObj) + t->size() * sizeof(Value);
  auto* o = make<ObjectObj>(bytes);
  o->type = t;
  return o;
}

}  // namespace

namespace {

// Destroys [o] and releases what it holds.
void destroy_one(const Obj* o) {
  switch (o->kind) {
    case Obj::String: {
      auto* s = static_cast<const StringObj*>(o);
      s->~StringObj();
      break;
    }
    case Obj::Seq: {
      auto* s = static_cast<const SeqObj*>(o);
      for (uint32_t i = 0; i < s->size; ++i) s->elems()[i].~Value();
      s->~SeqObj();
      break;
    }
    case Obj::Map: {
      auto* m = static_cast<const MapObj*>(o);
      for (uint32_t i = 0; i < m->size; ++i) {
        m->keys[i].~Value();
        m->vals[i].~Value();
      }
      m->~MapObj();
      break;
    }
    case Obj::Object: {
      auto* ob = static_cast<const ObjectObj*>(o);
      for (size_t i = 0; i < ob->type->size(); ++i) ob->vals()[i].~Value();
      ob->~ObjectObj();
      break;
    }
    case Obj::Capsule: {
      auto* c = static_cast<const CapsuleObj*>(o);
      if (const CapsuleOps* ops = c->type->capsule_ops(); ops && ops->destroy) ops->destroy(c->payload);
      c->~CapsuleObj();
      break;
    }
    case Obj::Unknown: static_cast<const UnknownObj*>(o)->~UnknownObj(); break;
    case Obj::Marked: static_cast<const MarkedObj*>(o)->~MarkedObj(); break;
  }
  if (o->pool_class == kExternalClass) {
    const ExternalHead* h = reinterpret_cast<const ExternalHead*>(o) - 1;
    h->release(h->owner);
  } else {
    util::pool::free(const_cast<Obj*>(o), o->pool_class);
  }
}

// Destroying an object releases its elements, which may destroy them in
// turn: once per level of nesting. Past kDestroyDepth levels the objects
// wait on a list that the outermost destroy() keeps on its stack and works
// off, so that no nesting depth exhausts the stack.
constexpr int kDestroyDepth = 256;
thread_local int t_destroy_depth = 0;
thread_local std::vector<const Obj*>* t_deferred = nullptr;

}  // namespace

void destroy(const Obj* o) {
  if (t_destroy_depth >= kDestroyDepth) {
    t_deferred->push_back(o);
    return;
  }
  if (t_destroy_depth > 0) {
    ++t_destroy_depth;
    destroy_one(o);
    --t_destroy_depth;
    return;
  }
  std::vector<const Obj*> deferred;
  t_deferred = &deferred;
  t_destroy_depth = 1;
  destroy_one(o);
  while (!deferred.empty()) {
    const Obj* next = deferred.back();
    deferred.pop_back();
    destroy_one(next);
  }
  t_destroy_depth = 0;
  t_deferred = nullptr;
}

}  // namespace detail

using namespace detail;

// --- marks -------------------------------------------------------------------

std::string_view Marks::intern(std::string_view label) {
  static std::mutex mu;
  static auto* table = new std::unordered_set<std::string>();
  std::lock_guard lock(mu);
  return *table->emplace(label).first;
}

Marks Marks::of(std::string_view label) {
  Marks m;
  m.labels_.push_back(intern(label));
  return m;
}

bool Marks::has(std::string_view label) const {
  return std::binary_search(labels_.begin(), labels_.end(), label);
}

void Marks::add(std::string_view label) {
  auto it = std::lower_bound(labels_.begin(), labels_.end(), label);
  if (it == labels_.end() || *it != label) labels_.insert(it, intern(label));
}

void Marks::add(const Marks& other) {
  for (std::string_view l : other.labels_) add(l);
}

// --- construction --------------------------------------------------------------

Value Value::unknown(const Type* t, Refinement r) {
  if (r.empty()) return unknown(t);
  auto* o = make<UnknownObj>(sizeof(UnknownObj));
  o->type = t;
  o->refinement = std::move(r);
  Value v(Rep::Unknown, kUnknown, nullptr);
  v.u_.obj = o;
  return v;
}

namespace {

// Reports whether [s] is certainly in NFC without normalizing it: every code
// point below U+0300 (the first one that can combine or change under NFC).
// Sets [ascii] when every byte is ASCII.
bool quick_nfc(std::string_view s, bool& ascii) {
  ascii = true;
  size_t i = 0;
  // Eight bytes at a time while the text is ASCII.
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (w & 0x8080808080808080ull) break;
  }
  for (; i < s.size(); ++i) {
    if (static_cast<unsigned char>(s[i]) < 0x80) continue;
    ascii = false;
    uni::Rune r = uni::decode(s, i);
    if (!r.ok || r.cp >= 0x300) return false;
    i += r.len - 1;
  }
  return true;
}

// The grapheme clusters of ASCII text [s]: one per byte, except CR LF.
uint32_t ascii_graphemes(std::string_view s) {
  uint32_t n = uint32_t(s.size());
  for (size_t i = s.find('\r'); i != s.npos; i = s.find('\r', i + 1))
    if (i + 1 < s.size() && s[i + 1] == '\n') --n;
  return n;
}

}  // namespace

Value Value::string(std::string_view s) {
  util::check_string_size(s.size());
  // Most text is certainly NFC already (ASCII, Latin letters); the rest
  // goes through utf8proc, which leaves invalid UTF-8 bytes as they are, as
  // Go's norm package does.
  bool ascii = false;
  std::string normalized;
  if (!quick_nfc(s, ascii)) {
    normalized = uni::nfc(s);
    s = normalized;
  }
  auto* o = make<StringObj>(sizeof(StringObj) + s.size() + 1);
  o->size = uint32_t(s.size());
  o->graphemes.store(ascii ? ascii_graphemes(s) : UINT32_MAX, std::memory_order_relaxed);
  if (!s.empty()) std::memcpy(o->data(), s.data(), s.size());  // an empty view may have no data
  o->data()[s.size()] = '\0';
  Value v(Rep::String, 0, nullptr);
  v.u_.obj = o;
  return v;
}

namespace {

// The bytes of an external object of [obj] bytes, its head included.
size_t external_room(size_t obj) { return (sizeof(ExternalHead) + obj + 15) & ~size_t(15); }

// Adds to [n] the bytes of [v]'s external copy (nothing for a value held
// inline); false when a part of it is not copied that way (a map, a big
// number, an unknown or marked value) or the total passes [limit].
bool external_bytes(const Value& v, size_t limit, size_t& n) {
  switch (v.rep()) {
    case Value::Rep::TypeOnly:
    case Value::Rep::Bool:
    case Value::Rep::SmallNum: return true;
    case Value::Rep::String:
      n += external_room(sizeof(StringObj) + static_cast<const StringObj*>(v.obj())->size + 1);
      return n <= limit;
    case Value::Rep::Seq:
    case Value::Rep::Object: {
      if (v.flags() != 0) return false;
      std::span<const Value> elems = v.elements();
      n += external_room((v.rep() == Value::Rep::Seq ? sizeof(SeqObj) : sizeof(ObjectObj)) +
                         elems.size() * sizeof(Value));
      for (const Value& e : elems)
        if (n > limit || !external_bytes(e, limit, n)) return false;
      return n <= limit;
    }
    default: return false;
  }
}

}  // namespace

size_t Value::external_size(size_t limit) const {
  size_t n = 0;
  return external_bytes(*this, limit, n) ? n : 0;
}

Value Value::external_copy(char*& mem, ExternalHead head, size_t& objects) const {
  if (!has_obj()) return *this;
  auto* h = new (mem) ExternalHead(head);
  void* at = h + 1;
  Value v(rep_, 0, nullptr);
  ++objects;
  if (rep_ == Rep::String) {
    auto* from = static_cast<const StringObj*>(u_.obj);
    auto* o = new (at) StringObj();
    o->size = from->size;
    o->graphemes.store(from->graphemes.load(std::memory_order_relaxed),
                       std::memory_order_relaxed);
    std::memcpy(o->data(), from->view().data(), from->size + 1);  // with its NUL
    o->pool_class = kExternalClass;
    mem += external_room(sizeof(StringObj) + o->size + 1);
    v.u_.obj = o;
    return v;
  }
  std::span<const Value> from = elements();
  Value* to;
  if (rep_ == Rep::Seq) {
    auto* o = new (at) SeqObj();
    o->type = type();
    o->size = uint32_t(from.size());
    o->pool_class = kExternalClass;
    to = o->elems();
    v.u_.obj = o;
    mem += external_room(sizeof(SeqObj) + from.size() * sizeof(Value));
  } else {
    auto* o = new (at) ObjectObj();
    o->type = type();
    o->pool_class = kExternalClass;
    to = o->vals();
    v.u_.obj = o;
    mem += external_room(sizeof(ObjectObj) + from.size() * sizeof(Value));
  }
  for (size_t i = 0; i < from.size(); ++i) new (&to[i]) Value(from[i].external_copy(mem, head, objects));
  return v;
}

Value Value::list(const Type* elem, std::vector<Value> elems) { return list_from(elem, elems); }

Value Value::list_from(const Type* elem, std::span<Value> elems) {
  SeqObj* o = alloc_seq(Type::list(elem), elems.size());
  for (size_t i = 0; i < elems.size(); ++i) new (&o->elems()[i]) Value(std::move(elems[i]));
  Value v(Rep::Seq, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::tuple(std::vector<Value> elems) {
  std::vector<const Type*> types;
  types.reserve(elems.size());
  for (const Value& e : elems) types.push_back(e.type());
  SeqObj* o = alloc_seq(Type::tuple(types), elems.size());
  for (size_t i = 0; i < elems.size(); ++i) new (&o->elems()[i]) Value(std::move(elems[i]));
  Value v(Rep::Seq, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::tuple_from(const Type* t, std::span<Value> elems) {
  assert(t->is_tuple() && t->size() == elems.size());
  SeqObj* o = alloc_seq(t, elems.size());
  for (size_t i = 0; i < elems.size(); ++i) new (&o->elems()[i]) Value(std::move(elems[i]));
  Value v(Rep::Seq, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::object_from(const Type* t, std::span<Value> values) {
  assert(t->is_object() && t->size() == values.size());
  ObjectObj* o = alloc_object(t);
  for (size_t i = 0; i < values.size(); ++i) new (&o->vals()[i]) Value(std::move(values[i]));
  Value v(Rep::Object, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::object_from(const Type* t, std::span<Value> values,
                         std::span<const uint32_t> slots) {
  assert(t->is_object() && t->size() == values.size() && slots.size() == values.size());
  ObjectObj* o = alloc_object(t);
  for (size_t i = 0; i < values.size(); ++i) new (&o->vals()[slots[i]]) Value(std::move(values[i]));
  Value v(Rep::Object, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::map(const Type* elem, std::vector<std::pair<std::string, Value>> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t n = entries.size();
  util::check_collection_size(n);
  // The keys first: making one may end the evaluation (util/budget.h), and
  // nothing may be half-built then.
  std::vector<Value> keys;
  keys.reserve(n);
  for (const auto& e : entries) keys.push_back(Value::string(e.first));
  auto* o = make<MapObj>(sizeof(MapObj) + 2 * n * sizeof(Value));
  o->type = Type::map(elem);
  o->size = uint32_t(n);
  o->keys = reinterpret_cast<Value*>(o + 1);
  o->vals = o->keys + n;
  for (size_t i = 0; i < n; ++i) {
    new (&o->keys[i]) Value(std::move(keys[i]));
    new (&o->vals[i]) Value(std::move(entries[i].second));
  }
  Value v(Rep::Map, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::object(std::vector<std::pair<std::string, Value>> attrs) {
  // Sorted through an index (sorting the pairs would move every name and
  // value), the values moved once, straight into the object.
  std::vector<uint32_t> order(attrs.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return attrs[a].first < attrs[b].first; });
  std::vector<TypeAttr> types;
  types.reserve(attrs.size());
  for (uint32_t i : order) types.push_back({attrs[i].first, attrs[i].second.type(), false});
  const Type* t = Type::object(types);
  ObjectObj* o = alloc_object(t);
  for (size_t j = 0; j < order.size(); ++j)
    new (&o->vals()[j]) Value(std::move(attrs[order[j]].second));
  Value v(Rep::Object, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::object(const Type* t, std::vector<Value> values) {
  assert(values.size() == t->size());
  ObjectObj* o = alloc_object(t);
  for (size_t i = 0; i < values.size(); ++i) new (&o->vals()[i]) Value(std::move(values[i]));
  Value v(Rep::Object, 0, nullptr);
  v.u_.obj = o;
  return v;
}

Value Value::capsule(const Type* t, void* payload) {
  auto* o = make<CapsuleObj>(sizeof(CapsuleObj));
  o->type = t;
  o->payload = payload;
  Value v(Rep::Capsule, 0, nullptr);
  v.u_.obj = o;
  return v;
}

// --- inspection ------------------------------------------------------------------

size_t Value::string_length() const {
  auto* s = static_cast<const StringObj*>(u_.obj);
  uint32_t n = s->graphemes.load(std::memory_order_relaxed);
  if (n == UINT32_MAX) {
    n = uint32_t(uni::count_graphemes(s->view()));
    s->graphemes.store(n, std::memory_order_relaxed);
  }
  return n;
}

size_t Value::length() const {
  switch (rep_) {
    case Rep::Seq: return static_cast<const SeqObj*>(u_.obj)->size;
    case Rep::Map: return static_cast<const MapObj*>(u_.obj)->size;
    case Rep::Object: return static_cast<const ObjectObj*>(u_.obj)->type->size();
    default: return 0;
  }
}

std::span<const Value> Value::elements() const {
  if (rep_ == Rep::Seq) {
    auto* s = static_cast<const SeqObj*>(u_.obj);
    return {s->elems(), s->size};
  }
  if (rep_ == Rep::Map) {
    auto* m = static_cast<const MapObj*>(u_.obj);
    return {m->vals, m->size};
  }
  if (rep_ == Rep::Object) {
    auto* o = static_cast<const ObjectObj*>(u_.obj);
    return {o->vals(), o->type->size()};
  }
  return {};
}

std::string_view Value::map_key(size_t i) const {
  return static_cast<const MapObj*>(u_.obj)->keys[i].as_string();
}

const Value& Value::map_value(size_t i) const { return static_cast<const MapObj*>(u_.obj)->vals[i]; }

const Value* Value::map_find(std::string_view key) const {
  auto* m = static_cast<const MapObj*>(u_.obj);
  size_t lo = 0, hi = m->size;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    std::string_view k = m->keys[mid].as_string();
    if (k == key) return &m->vals[mid];
    if (k < key) lo = mid + 1;
    else hi = mid;
  }
  return nullptr;
}

const Value* Value::attr(std::string_view name) const {
  auto* o = static_cast<const ObjectObj*>(u_.obj);
  auto i = o->type->find_attr(name);
  return i ? &o->vals()[*i] : nullptr;
}

void* Value::capsule_payload() const { return static_cast<const CapsuleObj*>(u_.obj)->payload; }

const Refinement& Value::refinement() const {
  static const Refinement none;
  if (rep_ == Rep::Unknown) return static_cast<const UnknownObj*>(u_.obj)->refinement;
  if (rep_ == Rep::Marked) return static_cast<const MarkedObj*>(u_.obj)->inner.refinement();
  return none;
}

bool Value::is_wholly_known() const {
  const Value& v = unmarked_ref(*this);
  if (!v.is_known()) return false;
  if (!is_container(v)) return true;
  // Every element at any depth, each shared container once (value/walk.h);
  // the set of those seen only when [v] holds a collection (most hold none).
  WalkStack todo;
  for (const Value& e0 : v.elements()) {
    const Value& e = unmarked_ref(e0);
    if (!e.is_known()) return false;
    if (is_container(e)) todo.push(&e);
  }
  if (todo.empty()) return true;
  SeenSet seen;
  while (!todo.empty()) {
    const Value* c = todo.pop();
    if (seen.entered_before(c->u_.obj)) continue;
    for (const Value& e0 : c->elements()) {
      const Value& e = unmarked_ref(e0);
      if (!e.is_known()) return false;
      if (is_container(e)) todo.push(&e);
    }
  }
  return true;
}

// --- marks on values ---------------------------------------------------------------

const Marks& Value::marks() const {
  static const Marks none;
  if (rep_ == Rep::Marked) return static_cast<const MarkedObj*>(u_.obj)->marks;
  return none;
}

void Value::retain_heap() const {
  if (rep_ == Rep::BigNum)
    Number::retain_big(u_.big);
  else
    detail::retain(u_.obj);
}

void Value::release_heap() {
  if (rep_ == Rep::BigNum)
    Number::release_big(u_.big);
  else
    detail::release(u_.obj);
}

Value Value::add_marks(const Marks& m) const {
  auto* o = make<MarkedObj>(sizeof(MarkedObj));
  if (rep_ == Rep::Marked) {
    auto* inner = static_cast<const MarkedObj*>(u_.obj);
    o->inner = inner->inner;
    o->marks = inner->marks;
  } else {
    o->inner = *this;
  }
  o->marks.add(m);
  Value v(Rep::Marked, uint8_t(o->inner.flags_ | kMarked), nullptr);
  v.u_.obj = o;
  return v;
}

bool Value::contains_marked() const {
  if (rep_ == Rep::Marked) return true;
  if (!is_plain() || !is_container(*this)) return false;
  // As is_wholly_known: each shared container once, on an explicit stack,
  // the set of those seen only when this holds a collection.
  WalkStack todo;
  for (const Value& e : elements()) {
    if (e.rep_ == Rep::Marked) return true;
    if (e.is_plain() && is_container(e)) todo.push(&e);
  }
  if (todo.empty()) return false;
  SeenSet seen;
  while (!todo.empty()) {
    const Value* c = todo.pop();
    if (seen.entered_before(c->u_.obj)) continue;
    for (const Value& e : c->elements()) {
      if (e.rep_ == Rep::Marked) return true;
      if (e.is_plain() && is_container(e)) todo.push(&e);
    }
  }
  return false;
}

namespace {

// The value of container [v] rebuilt from [elems] (its elements without
// their marks), as cty's constructors build it.
Value rebuild(const Value& v, std::vector<Value> elems) {
  const Type* t = v.type();
  switch (v.rep()) {
    case Value::Rep::Seq:
      if (t->is_tuple()) return Value::tuple(std::move(elems));
      if (t->is_set()) return Value::set(t->element(), std::move(elems));
      return Value::list(t->element(), std::move(elems));
    case Value::Rep::Map: {
      std::vector<std::pair<std::string, Value>> entries;
      entries.reserve(elems.size());
      for (size_t i = 0; i < elems.size(); ++i)
        entries.emplace_back(std::string(v.map_key(i)), std::move(elems[i]));
      return Value::map(t->element(), std::move(entries));
    }
    default: return Value::object(t, std::move(elems));
  }
}

// [root] (a plain container) with the marks at any depth inside it
// removed and added to [marks]: a walk after the last element of each
// container rebuilds it, when something in it changed. Shared containers
// are rebuilt once (the result is remembered), so a shared value stays
// shared and the walk linear in what it holds; the pending containers
// wait on a heap stack, so nesting costs no thread stack.
Value unmark_walk(const Value& root, Marks& marks) {
  struct Frame {
    explicit Frame(const Value* c) : v(c) {}
    const Value* v;
    size_t next = 0;
    bool changed = false;
    std::vector<Value> elems;
  };
  std::vector<Frame> stack;
  std::unordered_map<const Obj*, Value> done;  // shared containers, rebuilt or not
  stack.emplace_back(&root);
  Value result;
  while (true) {
    Frame& f = stack.back();
    std::span<const Value> elems = f.v->elements();
    if (f.next < elems.size()) {
      const Value& e0 = elems[f.next++];
      const Value& e = unmarked_ref(e0);
      if (e0.rep() == Value::Rep::Marked) {
        marks.add(e0.marks());
        f.changed = true;
      }
      if (!e.is_plain() || !is_container(e)) {
        f.elems.push_back(e);
        continue;
      }
      if (is_shared(e.obj())) {
        if (auto it = done.find(e.obj()); it != done.end()) {
          f.changed |= it->second.obj() != e.obj();
          f.elems.push_back(it->second);
          continue;
        }
      }
      if (f.elems.capacity() == 0) f.elems.reserve(elems.size());
      stack.emplace_back(&e);
      continue;
    }
    Value out = f.changed ? rebuild(*f.v, std::move(f.elems)) : *f.v;
    const Obj* from = f.v->obj();
    stack.pop_back();
    if (is_shared(from)) done.emplace(from, out);
    if (stack.empty()) {
      result = std::move(out);
      break;
    }
    Frame& parent = stack.back();
    parent.changed |= out.obj() != from;
    parent.elems.push_back(std::move(out));
  }
  return result;
}

}  // namespace

std::pair<Value, Marks> Value::unmark_deep() const {
  if (!contains_marked()) return {*this, Marks()};
  std::pair<Value, Marks> top = unmark_with_marks();
  if (!top.first.is_plain() || !is_container(top.first)) return top;
  Value out = unmark_walk(top.first, top.second);
  return {std::move(out), std::move(top.second)};
}

void Value::make_immortal() const {
  // Children before the count would do too; an object found immortal was
  // made so with everything in it, which makes shared parts cheap.
  WalkStack todo;
  todo.push(this);
  while (!todo.empty()) {
    const Value* v = todo.pop();
    if (v->rep_ == Rep::BigNum) {
      Number::make_big_immortal(v->u_.big);
      continue;
    }
    if (!v->has_obj()) continue;
    const Obj* o = v->u_.obj;
    if (o->refs.load(std::memory_order_relaxed) == detail::Obj::kImmortal) continue;
    o->refs.store(detail::Obj::kImmortal, std::memory_order_relaxed);
    for (const Value& e : v->elements()) todo.push(&e);
    if (v->rep_ == Rep::Map) {
      auto* m = static_cast<const MapObj*>(o);
      for (uint32_t i = 0; i < m->size; ++i) todo.push(&m->keys[i]);
    }
    if (v->rep_ == Rep::Marked) todo.push(&static_cast<const MarkedObj*>(o)->inner);
  }
}

}  // namespace hclvm

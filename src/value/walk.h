// Helpers for walks over nested values that must stay linear in what the
// value holds, whatever its shape.
//
// Values are immutable and shared: a tuple may hold the same list a
// thousand times, and that list the same object a thousand times again (a
// YAML alias does this, and so does any variable repeated in a
// constructor). Such a value takes little memory, but a walk that visits
// every path through it visits exponentially many nodes. A walk whose
// answer depends only on the node (is it wholly known? does it hold a
// mark? are these two equal?) remembers the shared nodes it has finished
// (SeenSet) and does not enter them again. Only an object with more than
// one reference can be reached twice, so objects held once are never
// remembered, and small walks (the overwhelming case) never allocate.
//
// The walks here keep their pending nodes on an explicit stack
// (WalkStack): values may nest deeper than any thread's stack.
#pragma once

#include <cstddef>
#include <unordered_set>
#include <vector>

#include "hclvm/value.h"

namespace hclvm::detail {

// Whether [v] is a known, non-null list, set, tuple, map or object (with
// or without marks around it: the caller unmarks).
inline bool is_container(const Value& v) {
  auto r = v.rep();
  return (r == Value::Rep::Seq || r == Value::Rep::Map || r == Value::Rep::Object) &&
         !v.is_null() && v.is_known();
}

// Whether [o] may be reached through more than one reference.
inline bool is_shared(const Obj* o) { return o->refs.load(std::memory_order_relaxed) != 1; }

// The shared objects a walk has entered, noted once the walk has entered
// kStart objects (before that, a walk is too small to matter).
class SeenSet {
 public:
  // Reports whether [o] was entered before (then the walk skips it), and
  // notes it otherwise.
  bool entered_before(const Obj* o) {
    if (entered_ < kStart) {
      ++entered_;
      return false;
    }
    if (!is_shared(o)) return false;
    return !seen_.insert(o).second;
  }

 private:
  static constexpr size_t kStart = 256;
  size_t entered_ = 0;
  std::unordered_set<const Obj*> seen_;
};

// A stack of values to visit that lives inline until it grows deep.
class WalkStack {
 public:
  void push(const Value* v) {
    if (size_ < kInline)
      inline_[size_] = v;
    else
      spill_.push_back(v);
    ++size_;
  }
  const Value* pop() {
    --size_;
    if (size_ < kInline) return inline_[size_];
    const Value* v = spill_.back();
    spill_.pop_back();
    return v;
  }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr size_t kInline = 32;
  const Value* inline_[kInline];
  size_t size_ = 0;
  std::vector<const Value*> spill_;
};

// [v] without its top-level marks, borrowed from [v] (a marked value's
// inner value lives as long as [v]).
inline const Value& unmarked_ref(const Value& v) {
  if (v.rep() == Value::Rep::Marked) return static_cast<const MarkedObj*>(v.obj())->inner;
  return v;
}

}  // namespace hclvm::detail

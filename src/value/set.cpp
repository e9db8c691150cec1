// Set construction with go-cty's membership and order (set_internals.go and
// the set package): elements are unmarked deeply and their marks moved to
// the set; each element goes to the bucket of its hash (CRC-32 of cty's
// hash bytes) unless an equivalent element is there already (equal with a
// known true result, so unknowns never coalesce); iteration visits the
// buckets in hash order, elements within a bucket in insertion order, then
// sorts that sequence with Go's stable sort by cty's Less: known values
// before unknowns before nulls, strings by bytes, numbers by value, false
// before true, anything else by its hash bytes.
//
// The sort replays Go's sort.Stable (insertion sort of blocks of 20, then
// SymMerge) step for step, because Less is not a strict weak order for
// every input (-0 and 0 are equal but hash and sort differently inside
// lists) and the result of such inputs depends on the algorithm.
#include <algorithm>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "hclvm/value.h"
#include "util/budget.h"
#include "value/ops.h"

namespace hclvm {

namespace {

struct Entry {
  Value v;
  std::string bytes;  // cty's hash bytes
  uint32_t hash;
};

// cty's setRules.Less for elements of type [et].
bool set_less(const Type* et, const Entry& x, const Entry& y) {
  const Value& a = x.v;
  const Value& b = y.v;
  if (ops::raw_equal(a, b)) return false;
  if (b.is_null() && !a.is_null()) return true;
  if (a.is_null()) return false;
  if (a.is_known() && !b.is_known()) return true;
  if (!a.is_known()) return false;
  switch (et->kind()) {
    case TypeKind::String: return a.as_string() < b.as_string();
    case TypeKind::Bool: return b.as_bool() || !a.as_bool();
    case TypeKind::Number: return Number::cmp(a.as_number(), b.as_number()) < 0;
    default: return x.bytes < y.bytes;
  }
}

// Go's sort.Stable over [idx] with [less] on the indexed entries.
class GoStableSort {
 public:
  GoStableSort(std::vector<size_t>& idx, const std::vector<Entry>& es, const Type* et)
      : idx_(idx), es_(es), et_(et) {}

  void run() {
    auto n = ptrdiff_t(idx_.size());
    ptrdiff_t block = 20;
    ptrdiff_t a = 0, b = block;
    while (b <= n) {
      insertion_sort(a, b);
      a = b;
      b += block;
    }
    insertion_sort(a, n);
    while (block < n) {
      a = 0;
      b = 2 * block;
      while (b <= n) {
        sym_merge(a, a + block, b);
        a = b;
        b += 2 * block;
      }
      if (ptrdiff_t m = a + block; m < n) sym_merge(a, m, n);
      block *= 2;
    }
  }

 private:
  // The sort makes n log² n comparisons (four hundred million for a million
  // elements): the run's deadline is checked every 65536 of them.
  bool less(ptrdiff_t i, ptrdiff_t j) {
    if ((++compared_ & 0xFFFF) == 0) util::poll();
    return set_less(et_, es_[idx_[size_t(i)]], es_[idx_[size_t(j)]]);
  }
  void swap(ptrdiff_t i, ptrdiff_t j) { std::swap(idx_[size_t(i)], idx_[size_t(j)]); }

  void insertion_sort(ptrdiff_t a, ptrdiff_t b) {
    for (ptrdiff_t i = a + 1; i < b; ++i)
      for (ptrdiff_t j = i; j > a && less(j, j - 1); --j) swap(j, j - 1);
  }

  void swap_range(ptrdiff_t a, ptrdiff_t b, ptrdiff_t n) {
    for (ptrdiff_t i = 0; i < n; ++i) swap(a + i, b + i);
  }

  void rotate(ptrdiff_t a, ptrdiff_t m, ptrdiff_t b) {
    ptrdiff_t i = m - a, j = b - m;
    while (i != j) {
      if (i > j) {
        swap_range(m - i, m, j);
        i -= j;
      } else {
        swap_range(m - i, m + j - i, i);
        j -= i;
      }
    }
    swap_range(m - i, m, i);
  }

  void sym_merge(ptrdiff_t a, ptrdiff_t m, ptrdiff_t b) {
    if (m - a == 1) {
      ptrdiff_t i = m, j = b;
      while (i < j) {
        ptrdiff_t h = ptrdiff_t(size_t(i + j) >> 1);
        if (less(h, a)) i = h + 1;
        else j = h;
      }
      for (ptrdiff_t k = a; k < i - 1; ++k) swap(k, k + 1);
      return;
    }
    if (b - m == 1) {
      ptrdiff_t i = a, j = m;
      while (i < j) {
        ptrdiff_t h = ptrdiff_t(size_t(i + j) >> 1);
        if (!less(m, h)) i = h + 1;
        else j = h;
      }
      for (ptrdiff_t k = m; k > i; --k) swap(k, k - 1);
      return;
    }
    ptrdiff_t mid = ptrdiff_t(size_t(a + b) >> 1);
    ptrdiff_t n = mid + m;
    ptrdiff_t start, r;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    ptrdiff_t p = n - 1;
    while (start < r) {
      ptrdiff_t c = ptrdiff_t(size_t(start + r) >> 1);
      if (!less(p - c, c)) start = c + 1;
      else r = c;
    }
    ptrdiff_t end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) sym_merge(a, start, mid);
    if (mid < end && end < b) sym_merge(mid, end, b);
  }

  std::vector<size_t>& idx_;
  const std::vector<Entry>& es_;
  const Type* et_;
  uint64_t compared_ = 0;
};

}  // namespace

Value Value::set(const Type* elem, std::vector<Value> elems) {
  // Marks inside elements move to the set itself, as in cty's SetVal.
  Marks marks;
  std::vector<Entry> stored;
  stored.reserve(elems.size());
  std::unordered_map<uint32_t, std::vector<size_t>> buckets;
  size_t seen = 0;
  for (Value& e : elems) {
    if ((++seen & 1023) == 0) util::poll();  // hashing a million elements takes a while
    if (e.contains_marked()) {
      auto [u, m] = e.unmark_deep();
      e = std::move(u);
      marks.add(m);
    }
    std::string bytes = ops::set_hash_bytes(e);
    uint32_t h = ops::crc32_ieee(bytes);
    std::vector<size_t>& bucket = buckets[h];
    // Elements made to share a hash (CRC-32 is easy to collide) are
    // compared with each other, quadratic work: each comparison is a step.
    util::charge_steps(bucket.size());
    bool dup = false;
    for (size_t i : bucket) {
      Value eq = ops::equals(e, stored[i].v);
      if (eq.is_plain() && eq.as_bool()) {
        dup = true;
        break;
      }
    }
    if (dup) continue;
    bucket.push_back(stored.size());
    stored.push_back(Entry{std::move(e), std::move(bytes), h});
  }

  // Buckets in ascending hash order, insertion order within each.
  std::vector<size_t> order(stored.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&stored](size_t x, size_t y) { return stored[x].hash < stored[y].hash; });
  GoStableSort(order, stored, elem).run();

  size_t n = stored.size();
  detail::SeqObj* o = detail::alloc_seq(Type::set(elem), n);
  for (size_t i = 0; i < n; ++i) new (&o->elems()[i]) Value(std::move(stored[order[i]].v));
  Value v(Rep::Seq, 0, nullptr);
  v.u_.obj = o;
  return v.mark(marks);
}

}  // namespace hclvm

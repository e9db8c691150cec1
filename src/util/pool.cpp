// Per-thread lists of free value blocks (pool.h).
#include "util/pool.h"

namespace hclvm::util::pool {

namespace detail {

constinit thread_local List t_lists[kClasses + 1] = {};
constinit thread_local bool t_keeping = false;

namespace {

constinit thread_local bool t_ended = false;

// Frees the thread's lists when the thread ends; frees after that go
// straight to the system.
struct Reaper {
  ~Reaper() {
    t_keeping = false;
    t_ended = true;
    for (size_t c = 1; c <= kClasses; ++c) {
      List& l = t_lists[c];
      while (Block* b = l.head) {
        unpoison(b, class_bytes(uint8_t(c)));
        l.head = b->next;
        ::operator delete(b);
      }
      l.count = 0;
    }
  }
};

}  // namespace

bool keep_lists() {
  if (t_ended) return false;
  static thread_local Reaper reaper;
  (void)reaper;
  t_keeping = true;
  return true;
}

}  // namespace detail

size_t kept_blocks(uint8_t c) { return c <= kClasses ? detail::t_lists[c].count : 0; }

}  // namespace hclvm::util::pool

// Recycling of the value model's small heap blocks. Every string,
// collection, object and big number a run makes is a heap block that a
// later run, or the next loop iteration, frees again; going to the system
// allocator for each costs more than the work on the value itself. Blocks
// up to kMaxBytes come in kStep-byte size classes; a freed one goes onto
// the freeing thread's list for its class, and the next block of that
// class made on the thread comes off the list without a lock or an atomic.
// So a run repeated on a thread allocates nothing once warm, as the VM's
// design asks of scalar results.
//
// Each list keeps at most kListBytes, beyond which blocks go back to the
// system, so a thread that frees what others make (a consumer of a server's
// results) holds a bounded amount. A thread's lists are returned to the
// system when it ends; frees after that go straight back. Under
// AddressSanitizer the blocks on a list are poisoned past their link, so a
// use after free is still reported and leak checks can follow the lists
// (blocks freed while a process exits stay on them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define HCLVM_POOL_POISON 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HCLVM_POOL_POISON 1
#endif
#endif
#ifdef HCLVM_POOL_POISON
#include <sanitizer/asan_interface.h>
#endif

namespace hclvm::util::pool {

inline constexpr size_t kStep = 16;
inline constexpr size_t kMaxBytes = 256;
inline constexpr size_t kClasses = kMaxBytes / kStep;  // classes 1..kClasses
inline constexpr size_t kListBytes = 16 * 1024;

// The class of a block of [bytes]: 0 (not pooled) when larger than kMaxBytes.
inline uint8_t class_of(size_t bytes) {
  return bytes == 0 || bytes > kMaxBytes ? 0 : uint8_t((bytes + kStep - 1) / kStep);
}
// The bytes of a block of class [c] (c > 0).
inline size_t class_bytes(uint8_t c) { return size_t(c) * kStep; }

namespace detail {

struct Block {
  Block* next;
};
struct List {
  Block* head;
  uint32_t count;
};
// Index 0 is unused; trivially constructed, so no guard on access.
extern constinit thread_local List t_lists[kClasses + 1];
// Set once this thread's lists are kept (their owner registered to free
// them at thread exit), and cleared when they have been freed.
extern constinit thread_local bool t_keeping;

// Registers this thread's lists to be freed when it ends; false when the
// thread is ending (its lists were already freed).
bool keep_lists();

inline void poison(void* p, size_t n) {
#ifdef HCLVM_POOL_POISON
  ASAN_POISON_MEMORY_REGION(p, n);
#else
  (void)p, (void)n;
#endif
}
inline void unpoison(void* p, size_t n) {
#ifdef HCLVM_POOL_POISON
  ASAN_UNPOISON_MEMORY_REGION(p, n);
#else
  (void)p, (void)n;
#endif
}

}  // namespace detail

// A block for class [c] (from class_of); class 0 gets [bytes] from the system.
inline void* allocate(uint8_t c, size_t bytes) {
  if (c == 0) return ::operator new(bytes);
  detail::List& l = detail::t_lists[c];
  if (detail::Block* b = l.head) {
    detail::unpoison(b, class_bytes(c));
    l.head = b->next;
    --l.count;
    return b;
  }
  // A thread's first blocks: its lists will be freed when it ends (the
  // earlier that is arranged, the surer it runs before anything that frees
  // values at exit).
  if (!detail::t_keeping) detail::keep_lists();
  return ::operator new(class_bytes(c));
}

// Frees block [p] of class [c] made by allocate (on any thread).
inline void free(void* p, uint8_t c) {
  if (c != 0) {
    detail::List& l = detail::t_lists[c];
    if (l.count < kListBytes / class_bytes(c) && (detail::t_keeping || detail::keep_lists())) {
      auto* b = static_cast<detail::Block*>(p);
      b->next = l.head;
      l.head = b;
      ++l.count;
      // The link stays readable, so that leak checkers can follow a list.
      detail::poison(reinterpret_cast<char*>(b) + sizeof(detail::Block),
                     class_bytes(c) - sizeof(detail::Block));
      return;
    }
  }
  ::operator delete(p);
}

// The blocks this thread keeps on its lists, per class (for tests).
size_t kept_blocks(uint8_t c);

}  // namespace hclvm::util::pool

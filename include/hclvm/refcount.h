// Reference counts of the value model's heap objects (strings, collections,
// big numbers). Values are immutable and shared freely between threads, so
// counts are atomic. A process that has never started a second thread does
// not need the atomic read-modify-write: there a count is updated with a
// plain load and store. glibc says whether that is so
// (`__libc_single_threaded`, the test libstdc++'s shared_ptr makes): it
// turns false before a second thread first runs and, in the glibc releases
// we build against, never back; creating the thread orders everything
// before it. Elsewhere every count is atomic.
#pragma once

#include <atomic>
#include <cstdint>

#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define HCLVM_HAVE_SINGLE_THREADED 1
#endif

namespace hclvm::detail {

inline bool process_single_threaded() {
#ifdef HCLVM_HAVE_SINGLE_THREADED
  return __libc_single_threaded != 0;
#else
  return false;
#endif
}

// Adds one reference unless the count is [immortal].
template <class T>
inline void count_retain(std::atomic<T>& refs, T immortal) {
  T n = refs.load(std::memory_order_relaxed);
  if (n == immortal) return;
  if (process_single_threaded())
    refs.store(n + 1, std::memory_order_relaxed);
  else
    refs.fetch_add(1, std::memory_order_relaxed);
}

// Drops one reference unless the count is [immortal]; true when it was the
// last one. A count of 1 seen by the owner of that reference cannot change
// under it (no one else holds one to copy), so the last release needs no
// read-modify-write; the acquire load orders it after other threads'
// releases.
template <class T>
inline bool count_release(std::atomic<T>& refs, T immortal) {
  T n = refs.load(std::memory_order_acquire);
  if (n == immortal) return false;
  if (n == 1) return true;
  if (process_single_threaded()) {
    refs.store(n - 1, std::memory_order_relaxed);
    return false;
  }
  return refs.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

}  // namespace hclvm::detail

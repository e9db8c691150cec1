// Counts the heap allocations of a program, so that "allocates nothing" is
// measured, not assumed: by the tests of warm fast paths, the benchmarks,
// and `hclvm bench`. It replaces the global operator new and delete, so
// include it in exactly one source file of an executable (never in the
// library). Allocations by GMP and MPFR, which do not go through operator
// new, are counted too once count_gmp() has routed them here. Under
// AddressSanitizer (which has its own allocator) nothing is replaced and
// kAllocCounting is false: callers say that counts are unavailable.
#pragma once

#include <gmp.h>

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define HCLVM_ALLOC_COUNTING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HCLVM_ALLOC_COUNTING 0
#endif
#endif
#ifndef HCLVM_ALLOC_COUNTING
#define HCLVM_ALLOC_COUNTING 1
#endif

namespace alloc_count {

inline constexpr bool kAllocCounting = HCLVM_ALLOC_COUNTING;
// Per thread, so that counting costs no atomic operation (it would weigh
// on the very measurements it serves).
inline thread_local long t_count = 0;
inline thread_local long t_bytes = 0;

// The allocations made so far by the calling thread.
inline long allocations() { return t_count; }
// The bytes those allocations asked for.
inline long allocated_bytes() { return t_bytes; }

// Counts one allocation of [n] bytes.
inline void note(size_t n) {
  ++t_count;
  t_bytes += long(n);
}

namespace detail {
inline void* (*g_gmp_alloc)(size_t) = nullptr;
inline void* (*g_gmp_realloc)(void*, size_t, size_t) = nullptr;

inline void* gmp_alloc(size_t n) {
  note(n);
  return g_gmp_alloc(n);
}
// A reallocation that moves counts as one allocation, as Go counts growth.
inline void* gmp_realloc(void* p, size_t old_size, size_t new_size) {
  note(new_size);
  return g_gmp_realloc(p, old_size, new_size);
}
}  // namespace detail

// Routes GMP's (and so MPFR's) allocations through the counter, keeping
// GMP's own allocator underneath. Call once, before any number is made.
inline void count_gmp() {
  if (!kAllocCounting || detail::g_gmp_alloc) return;
  void (*gmp_free)(void*, size_t);
  mp_get_memory_functions(&detail::g_gmp_alloc, &detail::g_gmp_realloc, &gmp_free);
  mp_set_memory_functions(detail::gmp_alloc, detail::gmp_realloc, gmp_free);
}

}  // namespace alloc_count

#if HCLVM_ALLOC_COUNTING
// The replacements pair malloc with free, which GCC cannot see through once
// they are inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t n) {
  alloc_count::note(n);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  alloc_count::note(n);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

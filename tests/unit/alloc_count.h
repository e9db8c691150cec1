// Counts the heap allocations of a test executable, for the tests that a
// warm fast path allocates nothing. It replaces the global operator new and
// delete, so include it in exactly one source file of an executable. Under
// AddressSanitizer (which has its own allocator) nothing is replaced and
// kAllocCounting is false: such tests skip themselves.
#pragma once

#include <atomic>
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
inline std::atomic<long> g_count{0};

// The allocations made so far by the whole program.
inline long allocations() { return g_count.load(std::memory_order_relaxed); }

}  // namespace alloc_count

#if HCLVM_ALLOC_COUNTING
// The replacements pair malloc with free, which GCC cannot see through once
// they are inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t n) {
  alloc_count::g_count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  alloc_count::g_count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

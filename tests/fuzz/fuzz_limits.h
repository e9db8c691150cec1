// The tight limits the fuzz targets that evaluate run under, and their
// deadline's margin: the property they check is that every evaluation ends
// within its deadline plus the margin, whatever the input.
#pragma once

#include <hclvm/limits.h>

#include <chrono>
#include <cstdint>

namespace hclvm::fuzz {

constexpr auto kDeadline = std::chrono::milliseconds(500);
// What a run may take past its deadline: the deadline is checked on a
// coarse clock, every 1,024 steps and every chunk of text, and freeing a
// large result comes after it (a sanitizer build is slow at that).
constexpr auto kMargin = std::chrono::milliseconds(1500);

// Limits with kDeadline and [memory] bytes of values.
inline Limits tight_limits(uint64_t memory) {
  Limits l;
  l.max_steps = 200000;
  l.max_memory = memory;
  l.max_string_bytes = 1 << 20;
  l.max_collection_size = 20000;
  l.timeout = kDeadline;
  return l;
}

}  // namespace hclvm::fuzz

// Large allocations straight from the system, recycled. Trees and token
// arrays of big files are touched once, page by page; on virtual machines
// each page fault, and the kernel's zeroing of each fresh page, costs more
// than building the tree. So blocks of 64 KiB and more are mapped (with huge
// pages from 2 MiB, where the kernel allows them), rounded up to a power of
// two, and kept after use (up to kPoolCap in all) for the next parse, which
// then touches memory that is already there.
#include <hclvm/arena.h>

#include <sys/mman.h>

#include <array>
#include <bit>
#include <cstdlib>
#include <mutex>
#include <new>

namespace hclvm::detail {

namespace {

constexpr size_t kHuge = size_t(2) << 20;
constexpr size_t kMapAt = size_t(64) << 10;  // below this, malloc serves better
constexpr size_t kPoolCap = size_t(256) << 20;
constexpr int kClasses = 64;

struct Pool {
  std::mutex mu;
  std::array<std::vector<void*>, kClasses> free;  // by log2 of the block size
  size_t bytes = 0;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: blocks may be freed at exit
  return *p;
}

}  // namespace

void* alloc_pages(size_t n) {
  if (n < kMapAt) {
    void* p = std::malloc(n);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  size_t size = std::bit_ceil(n);
  int cls = std::countr_zero(size);
  {
    Pool& pl = pool();
    std::lock_guard<std::mutex> lock(pl.mu);
    if (!pl.free[cls].empty()) {
      void* p = pl.free[cls].back();
      pl.free[cls].pop_back();
      pl.bytes -= size;
      return p;
    }
  }
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (size >= kHuge) madvise(p, size, MADV_HUGEPAGE);
#endif
  return p;
}

void free_pages(void* p, size_t n) {
  if (p == nullptr) return;
  if (n < kMapAt) {
    std::free(p);
    return;
  }
  size_t size = std::bit_ceil(n);
  {
    Pool& pl = pool();
    std::lock_guard<std::mutex> lock(pl.mu);
    if (pl.bytes + size <= kPoolCap) {
      pl.free[std::countr_zero(size)].push_back(p);
      pl.bytes += size;
      return;
    }
  }
  munmap(p, size);
}

}  // namespace hclvm::detail

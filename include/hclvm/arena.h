// A bump allocator for syntax trees: nodes are allocated in large blocks
// and freed all at once with the arena. Nothing allocated here has a
// destructor that runs, so only trivially destructible types belong in it.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hclvm {

namespace detail {
// Returns [n] bytes of uninitialized memory; large blocks come from the
// system with huge pages and are recycled (src/util/pages.cpp). Never null
// (throws std::bad_alloc).
void* alloc_pages(size_t n);
// Returns memory from alloc_pages([n]).
void free_pages(void* p, size_t n);
}  // namespace detail

class Arena {
 public:
  explicit Arena(size_t block_size = 16 * 1024) : block_size_(block_size) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&& o) noexcept { *this = std::move(o); }
  Arena& operator=(Arena&& o) noexcept {
    if (this != &o) {
      release();
      block_size_ = o.block_size_;
      reserved_ = o.reserved_;
      cur_ = o.cur_;
      end_ = o.end_;
      blocks_ = std::move(o.blocks_);
      o.cur_ = o.end_ = nullptr;
      o.reserved_ = 0;
      o.blocks_.clear();
    }
    return *this;
  }
  ~Arena() { release(); }

  // Returns [n] bytes aligned to [align].
  void* allocate(size_t n, size_t align = alignof(std::max_align_t)) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + (align - 1)) & ~(uintptr_t(align) - 1);
    if (cur_ == nullptr || p + n > reinterpret_cast<uintptr_t>(end_)) return grow(n, align);
    cur_ = reinterpret_cast<char*>(p + n);
    return reinterpret_cast<void*>(p);
  }

  // Grows the allocation [p] of [old_n] bytes to [new_n] bytes in place if
  // it is the most recent one and the block has room; reports success.
  bool try_extend(void* p, size_t old_n, size_t new_n) {
    char* end = static_cast<char*>(p) + old_n;
    if (p == nullptr || end != cur_ || size_t(end_ - static_cast<char*>(p)) < new_n) return false;
    cur_ = static_cast<char*>(p) + new_n;
    return true;
  }

  // Constructs a T in the arena.
  template <class T, class... Args>
  T* make(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>);
    return new (allocate(sizeof(T), alignof(T))) T{std::forward<Args>(args)...};
  }

  // Returns uninitialized room for [n] T's.
  template <class T>
  T* array(size_t n) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (n == 0) return nullptr;
    return static_cast<T*>(allocate(sizeof(T) * n, alignof(T)));
  }

  // Copies [s] into the arena.
  std::string_view copy(std::string_view s) {
    if (s.empty()) return {};
    char* p = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  size_t bytes_reserved() const { return reserved_; }

 private:
  // Blocks double in size up to 4 MiB, so a large tree costs few
  // allocations and a small one little memory.
  void* grow(size_t n, size_t align) {
    size_t size = n + align > block_size_ ? n + align : block_size_;
    if (block_size_ < (size_t(4) << 20)) block_size_ *= 2;
    blocks_.push_back(Block{static_cast<char*>(detail::alloc_pages(size)), size});
    reserved_ += size;
    cur_ = blocks_.back().p;
    end_ = cur_ + size;
    return allocate(n, align);
  }

  void release() {
    for (const Block& b : blocks_) detail::free_pages(b.p, b.size);
    blocks_.clear();
  }

  struct Block {
    char* p;
    size_t size;
  };

  size_t block_size_;
  size_t reserved_ = 0;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  std::vector<Block> blocks_;
};

}  // namespace hclvm

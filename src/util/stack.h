// Deep recursion without stack overflow. The reference runs on Go's
// growable stacks, where recursing once per level of nesting is safe to
// depths a C++ thread's stack cannot hold. The recursive readers and
// writers here measure the stack they use against a budget instead: a
// first try runs on the caller's stack with a budget that any thread can
// afford; when it runs out, the work starts over from scratch on a thread
// with a big stack (most inputs nest a few levels and never pay for the
// thread). Only when even that budget runs out does the computation report
// the nesting as an error of its own.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>

namespace hclvm::util {

// Thrown by StackBudget::exhausted() on a first try that ran out of budget.
struct StackExhausted {};

// Stack a first try may use on the caller's thread, which may be small;
// the stack of the thread for a second try, and how much of it the second
// try may use (the rest is a margin for the work between two checks).
inline constexpr size_t kInlineStackBudget = size_t(512) << 10;
inline constexpr size_t kDeepStack = size_t(1) << 30;
inline constexpr size_t kDeepStackBudget = kDeepStack - (size_t(16) << 20);

// How much stack a recursive computation may use below the frame that
// made the budget.
class StackBudget {
 public:
  // Allows [limit] bytes below the caller's frame; [last_try] says that the
  // computation will not be retried with a bigger stack.
  [[gnu::always_inline]] StackBudget(size_t limit, bool last_try)
      : base_(static_cast<const char*>(__builtin_frame_address(0))),
        limit_(limit),
        last_try_(last_try) {}

  // Reports whether the caller's frame lies beyond the budget: on a first
  // try that throws StackExhausted, so that the work starts over; on the
  // last try it returns true, and the caller reports the nesting.
  [[gnu::noinline]] bool exhausted() const;

  bool last_try() const { return last_try_; }

 private:
  const char* base_;
  size_t limit_;
  bool last_try_;
};

// Runs [fn] on a new thread with a [stack]-byte stack and waits for it; an
// exception [fn] throws is rethrown here. Returns false when no such thread
// could be made (then [fn] has not run).
bool run_with_stack(size_t stack, const std::function<void()>& fn);

// Returns [fn](budget) computed within a stack budget: first here with
// kInlineStackBudget; when that throws StackExhausted, again from the start
// on a thread with a kDeepStack stack as the last try (or, when no thread
// can be made, here once more with the small budget).
template <class F>
auto run_deep(F&& fn) -> decltype(fn(std::declval<const StackBudget&>())) {
  using R = decltype(fn(std::declval<const StackBudget&>()));
  try {
    StackBudget budget(kInlineStackBudget, false);
    return fn(budget);
  } catch (const StackExhausted&) {
  }
  std::optional<R> result;
  bool ran = run_with_stack(kDeepStack, [&] {
    StackBudget budget(kDeepStackBudget, true);
    result.emplace(fn(budget));
  });
  if (ran) return std::move(*result);
  StackBudget budget(kInlineStackBudget, true);
  return fn(budget);
}

}  // namespace hclvm::util

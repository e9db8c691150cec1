// Deep recursion without stack overflow. The reference runs on Go's
// growable stacks, where recursing once per level of nesting is safe to
// depths a C++ thread's stack cannot hold. The recursive readers and
// writers here measure the stack they use against a budget instead: a
// first try runs on the caller's stack with a budget that any thread can
// afford; when it runs out, the work starts over from scratch on a thread
// with a big stack (most inputs nest a few levels and never pay for the
// thread). Only when even that budget runs out does the computation report
// the nesting as an error of its own.
//
// The big-stack thread works for the caller: it counts against the caller's
// evaluation budget (util/budget.h), whose limits it hits as the caller
// would. Code that recurses through interfaces that cannot carry a budget
// (conversion plans, comparisons of values) asks for the budget of the
// innermost run_deep on its thread instead (stack_exhausted()); each
// run_deep is its own restart point, so a nested one never unwinds code
// between it and an outer one (the compiler folds constants by running the
// VM inside one).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>

#include "util/budget.h"
#include "util/read_log.h"

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

// The budget of the innermost run_deep computation on this thread, or null.
extern constinit thread_local const StackBudget* t_stack_budget;

// Makes [b] the thread's innermost stack budget for the life of the scope.
class StackScope {
 public:
  explicit StackScope(const StackBudget* b) : saved_(t_stack_budget) { t_stack_budget = b; }
  ~StackScope() { t_stack_budget = saved_; }
  StackScope(const StackScope&) = delete;
  StackScope& operator=(const StackScope&) = delete;

 private:
  const StackBudget* saved_;
};

// StackBudget::exhausted() of the innermost run_deep computation on this
// thread (false outside of one): on a first try it throws StackExhausted.
inline bool stack_exhausted() {
  const StackBudget* b = t_stack_budget;
  return b != nullptr && b->exhausted();
}

// Throws what a computation without an error of its own reports when its
// last try runs out of stack: the depth limit (LimitExceeded), which ends
// the evaluation in progress.
[[noreturn]] void nesting_too_deep();

// Checks the innermost run_deep budget before one more level of a
// recursion that has no error of its own to report.
inline void enter_level() {
  if (stack_exhausted()) nesting_too_deep();
}

// Returns [fn](budget) computed within a stack budget: first here with
// kInlineStackBudget; when that throws StackExhausted, again from the start
// on a thread with a kDeepStack stack as the last try (or, when no thread
// can be made, here once more with the small budget).
// The budget is also the thread's innermost one (stack_exhausted()) while
// [fn] runs, and the big-stack thread runs under the caller's evaluation
// budget and read log.
template <class F>
auto run_deep(F&& fn) -> decltype(fn(std::declval<const StackBudget&>())) {
  using R = decltype(fn(std::declval<const StackBudget&>()));
  try {
    StackBudget budget(kInlineStackBudget, false);
    StackScope scope(&budget);
    return fn(budget);
  } catch (const StackExhausted&) {
  }
  std::optional<R> result;
  Budget* evaluation = current_budget();
  ReadLog* log = current_read_log();
  bool ran = run_with_stack(kDeepStack, [&] {
    set_current_budget(evaluation);
    set_current_read_log(log);
    StackBudget budget(kDeepStackBudget, true);
    StackScope scope(&budget);
    result.emplace(fn(budget));
  });
  if (ran) return std::move(*result);
  StackBudget budget(kInlineStackBudget, true);
  StackScope scope(&budget);
  return fn(budget);
}

}  // namespace hclvm::util

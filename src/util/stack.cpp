// Stack budgets and the big-stack thread of a last try (see stack.h).
#include "util/stack.h"

#include <pthread.h>

#include <exception>

namespace hclvm::util {

constinit thread_local const StackBudget* t_stack_budget = nullptr;

void nesting_too_deep() { Budget::fail(Limit::Depth); }

bool StackBudget::exhausted() const {
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  // Stacks grow down on every target we build for; the absolute distance
  // keeps the measure right on one that grows up.
  size_t used = here < base_ ? size_t(base_ - here) : size_t(here - base_);
  if (used <= limit_) return false;
  if (!last_try_) throw StackExhausted{};
  return true;
}

bool run_with_stack(size_t stack, const std::function<void()>& fn) {
  struct Job {
    const std::function<void()>* fn;
    std::exception_ptr error;
  } job{&fn, nullptr};
  auto trampoline = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    try {
      (*j->fn)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  pthread_t thread;
  bool ok = pthread_attr_setstacksize(&attr, stack) == 0 &&
            pthread_create(&thread, &attr, trampoline, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!ok) return false;
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
  return true;
}

}  // namespace hclvm::util

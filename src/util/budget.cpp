// Evaluation budgets (budget.h) and the limits' names (hclvm/limits.h).
#include "util/budget.h"

#include <time.h>

#include <limits>

namespace hclvm {

Limits Limits::none() {
  Limits l;
  constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();
  l.max_steps = kAll;
  l.max_memory = kAll;
  l.max_string_bytes = kAll;
  l.max_collection_size = kAll;
  l.max_depth = std::numeric_limits<uint32_t>::max();
  l.timeout = std::chrono::nanoseconds(0);
  return l;
}

std::string_view limit_summary(Limit l) {
  switch (l) {
    case Limit::Steps:
      return "Evaluation step limit exceeded";
    case Limit::Memory:
      return "Evaluation memory limit exceeded";
    case Limit::StringSize:
      return "String size limit exceeded";
    case Limit::CollectionSize:
      return "Collection size limit exceeded";
    case Limit::Depth:
      return "Evaluation depth limit exceeded";
    case Limit::Timeout:
      return "Evaluation deadline exceeded";
    case Limit::Cancelled:
      return "Evaluation cancelled";
  }
  return "Evaluation limit exceeded";
}

std::string_view limit_name(Limit l) {
  switch (l) {
    case Limit::Steps:
      return "steps";
    case Limit::Memory:
      return "memory";
    case Limit::StringSize:
      return "string_size";
    case Limit::CollectionSize:
      return "collection_size";
    case Limit::Depth:
      return "depth";
    case Limit::Timeout:
      return "timeout";
    case Limit::Cancelled:
      return "cancelled";
  }
  return "limit";
}

namespace util {

constinit thread_local Budget* t_current_budget = nullptr;

namespace {

// Nanoseconds on the coarse monotonic clock: a few nanoseconds to read,
// where the precise clock costs a few tens, and every run reads it once.
int64_t coarse_now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

Budget::Budget(const Limits& limits)
    : limits_(limits), steps_left_(limits.max_steps), bytes_left_(limits.max_memory) {
  if (limits_.timeout.count() > 0) deadline_ns_ = coarse_now_ns() + limits_.timeout.count();
  if (limits_.cancel != nullptr && limits_.cancel->load(std::memory_order_relaxed))
    fail(Limit::Cancelled);
}

void Budget::enter() {
  if (depth_ >= limits_.max_depth) fail(Limit::Depth);
  ++depth_;
  poll();
}

void Budget::poll() {
  until_poll_ = kPollEvery;
  if (limits_.cancel != nullptr && limits_.cancel->load(std::memory_order_relaxed))
    fail(Limit::Cancelled);
  if (limits_.timeout.count() > 0 && coarse_now_ns() >= deadline_ns_) fail(Limit::Timeout);
}

void Budget::fail(Limit l) { throw LimitExceeded{l}; }

}  // namespace util

}  // namespace hclvm

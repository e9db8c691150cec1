// Evaluation budgets (budget.h) and the limits' names (hclvm/limits.h).
#include "util/budget.h"

#include <time.h>

#include <algorithm>
#include <bit>
#include <iterator>
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

namespace {

// Per limit, in the enum's order: its name and its diagnostic's summary.
struct LimitText {
  std::string_view name, summary;
};
constexpr LimitText kLimitTexts[] = {
    {"steps", "Evaluation step limit exceeded"},
    {"memory", "Evaluation memory limit exceeded"},
    {"string_size", "String size limit exceeded"},
    {"collection_size", "Collection size limit exceeded"},
    {"depth", "Evaluation depth limit exceeded"},
    {"timeout", "Evaluation deadline exceeded"},
    {"cancelled", "Evaluation cancelled"},
};
static_assert(std::size(kLimitTexts) == size_t(Limit::Cancelled) + 1);

}  // namespace

std::string_view limit_summary(Limit l) { return kLimitTexts[size_t(l)].summary; }

std::string_view limit_name(Limit l) { return kLimitTexts[size_t(l)].name; }

std::string limit_detail(Limit l, const Limits& limits) {
  auto n = [](uint64_t v) { return std::to_string(v); };
  switch (l) {
    case Limit::Steps:
      return "The evaluation took more than " + n(limits.max_steps) +
             " steps (loop iterations and function calls).";
    case Limit::Memory:
      return "The evaluation created more than " + n(limits.max_memory) + " bytes of values.";
    case Limit::StringSize:
      return "The evaluation would create a string longer than " + n(limits.max_string_bytes) +
             " bytes.";
    case Limit::CollectionSize:
      return "The evaluation would create a collection of more than " +
             n(limits.max_collection_size) + " elements.";
    case Limit::Depth:
      return "Evaluations nested more than " + n(limits.max_depth) +
             " levels deep, or a value nested too deeply to walk.";
    case Limit::Timeout:
      return "The evaluation ran longer than " +
             n(uint64_t(
                 std::chrono::duration_cast<std::chrono::milliseconds>(limits.timeout).count())) +
             " ms.";
    case Limit::Cancelled:
      return "The evaluation was cancelled.";
  }
  return {};
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

// Steps per limb operation of number_work_steps: a VM step is about the
// time of this many limb operations of GMP's (measured: docs/api.md).
constexpr uint64_t kNumberWorkFactor = 4;

}  // namespace

void Budget::start(const Limits& limits) {
  limits_ = &limits;
  steps_left_ = limits.max_steps;
  bytes_left_ = limits.max_memory;
  until_poll_ = kPollEvery;
  poll_bytes_left_ = kPollBytes;
  depth_ = 0;
  deadline_ns_ = limits.timeout.count() > 0 ? coarse_now_ns() + limits.timeout.count() : 0;
  if (limits.cancel != nullptr && limits.cancel->load(std::memory_order_relaxed))
    fail(Limit::Cancelled);
}

void Budget::enter() {
  if (depth_ >= limits_->max_depth) fail(Limit::Depth);
  ++depth_;
  poll();
}

void Budget::poll() {
  until_poll_ = kPollEvery;
  poll_bytes_left_ = kPollBytes;
  if (limits_->cancel != nullptr && limits_->cancel->load(std::memory_order_relaxed))
    fail(Limit::Cancelled);
  if (limits_->timeout.count() > 0 && coarse_now_ns() >= deadline_ns_) fail(Limit::Timeout);
}

void Budget::fail(Limit l) { throw LimitExceeded{l}; }

std::optional<Limit> within_text_budget(const Limits& limits, const std::function<void()>& fn) {
  Limits l = limits;
  l.max_string_bytes = std::max(l.max_string_bytes, l.max_memory);
  struct Restore {
    Budget* outer = current_budget();
    ~Restore() { set_current_budget(outer); }
  } restore;
  try {
    Budget budget(l);
    set_current_budget(&budget);
    fn();
  } catch (const LimitExceeded& e) {
    // The string size check stands for the memory limit here.
    return e.limit == Limit::StringSize ? Limit::Memory : e.limit;
  }
  return std::nullopt;
}

std::string text_limit_reason(Limit hit, const Limits& limits, std::string_view what) {
  switch (hit) {
    case Limit::Memory:
      return std::string(what) + " would take more than " + std::to_string(limits.max_memory) +
             " bytes";
    case Limit::Timeout:
      return "writing " + std::string(what) + " took too long";
    case Limit::Depth:
      return std::string(what) + " nests too deeply";
    default:
      return std::string(limit_summary(hit));
  }
}

uint64_t number_work_steps(uint64_t bits) {
  uint64_t limbs = bits / 64 + 1;
  return limbs * uint64_t(std::bit_width(limbs)) * kNumberWorkFactor;
}

}  // namespace util

}  // namespace hclvm

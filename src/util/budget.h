// The budget of one evaluation (hclvm/limits.h): what a run may still
// consume. The Vm that starts a run makes it the thread's current budget;
// the value layer charges the bytes of every heap object it makes to it,
// functions check the sizes of what they are about to build against it,
// and the Vm charges its steps. Running out throws LimitExceeded, which
// unwinds to the run that owns the budget: everything in between holds
// values only through owning handles, so nothing leaks and no state is
// left half-changed that a later run would see.
//
// Without a current budget (code outside any run: a host building
// variables, compilers, tools) nothing is counted and nothing is limited.
#pragma once

#include <hclvm/limits.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace hclvm::util {

// Thrown when a budget runs out.
struct LimitExceeded {
  Limit limit;
};

class Budget {
 public:
  // The budget of a run under [limits] (which must outlive it), starting now.
  explicit Budget(const Limits& limits) { start(limits); }
  // The budget of a host's evaluation made of many runs (a whole
  // configuration): the runs made while it is current are nested in it, so
  // together they count against one set of limits and one deadline.
  struct Host {};
  Budget(const Limits& limits, Host) : host_(true) { start(limits); }
  // Starts the budget again, for a new run under [limits].
  void start(const Limits& limits);

  const Limits& limits() const { return *limits_; }

  // Counts [n] steps.
  void step(uint64_t n = 1) {
    if (n > steps_left_) fail(Limit::Steps);
    steps_left_ -= n;
    if (n >= until_poll_) {
      poll();
    } else {
      until_poll_ -= n;
    }
  }
  // Counts [bytes] of values made. Making values is most of the work of a
  // call that builds collections, so the deadline is also checked every
  // kPollBytes made: a loop of few steps whose every step calls a function
  // that builds a thousand elements is not left unchecked for a thousand
  // steps.
  void charge(size_t bytes) {
    if (bytes > bytes_left_) fail(Limit::Memory);
    bytes_left_ -= bytes;
    if (bytes >= poll_bytes_left_) {
      poll();
    } else {
      poll_bytes_left_ -= bytes;
    }
  }
  // Counts [bytes] of text made that no value keeps (a diagnostic's
  // message and the values it quotes) towards the same next check of the
  // deadline, without the memory limit.
  void count_text(size_t bytes) {
    if (bytes >= poll_bytes_left_) {
      poll();
    } else {
      poll_bytes_left_ -= bytes;
    }
  }
  void check_string(uint64_t bytes) const {
    if (bytes > limits_->max_string_bytes) fail(Limit::StringSize);
  }
  void check_collection(uint64_t elements) const {
    if (elements > limits_->max_collection_size) fail(Limit::CollectionSize);
  }
  // Enters an evaluation nested in this run (see Nested); checks the
  // depth, the deadline and the cancel flag.
  void enter();
  void leave() { --depth_; }
  // Whether this is a host's budget with no run in progress in it: a run
  // that needs no interpreter may then answer at once (Vm::run).
  bool idle_host() const { return host_ && depth_ == 0; }
  // Whether enter() would fail for the depth.
  bool depth_exhausted() const { return depth_ >= limits_->max_depth; }

  // Checks the deadline and the cancel flag.
  void poll();

  uint64_t steps_used() const { return limits_->max_steps - steps_left_; }
  uint64_t steps_left() const { return steps_left_; }
  uint64_t bytes_used() const { return limits_->max_memory - bytes_left_; }

  [[noreturn]] static void fail(Limit l);

 private:
  static constexpr uint64_t kPollEvery = 1024;
  static constexpr size_t kPollBytes = size_t{256} << 10;

  const Limits* limits_;
  uint64_t steps_left_;
  uint64_t bytes_left_;
  uint64_t until_poll_ = kPollEvery;
  size_t poll_bytes_left_ = kPollBytes;
  uint32_t depth_ = 0;
  bool host_ = false;
  int64_t deadline_ns_ = 0;  // on the coarse monotonic clock
};

// The budget of the run in progress on this thread, or null.
extern constinit thread_local Budget* t_current_budget;
inline Budget* current_budget() { return t_current_budget; }
inline void set_current_budget(Budget* b) { t_current_budget = b; }

// The checks of the current budget, for code that may run inside a run or
// outside of one (value constructors, functions).
inline void charge_memory(size_t bytes) {
  if (Budget* b = current_budget()) b->charge(bytes);
}
inline void charge_steps(uint64_t n) {
  if (Budget* b = current_budget()) b->step(n);
}
inline void check_string_size(uint64_t bytes) {
  if (Budget* b = current_budget()) b->check_string(bytes);
}
inline void check_collection_size(uint64_t elements) {
  if (Budget* b = current_budget()) b->check_collection(elements);
}
// Checks the deadline and the cancel flag, for work that counts no steps
// of its own between its parts.
inline void poll() {
  if (Budget* b = current_budget()) b->poll();
}

// Runs [fn] under a budget of its own for [limits], the thread's current
// budget put back after: the limit it hit, or nullopt. For writing text
// from a value (a printed result, a response): the text counts as memory,
// so max_string_bytes is raised to max_memory (it is not a string value)
// and a string too long is reported as the memory limit.
std::optional<Limit> within_text_budget(const Limits& limits, const std::function<void()>& fn);
// Why a text was not made when within_text_budget met [hit] under
// [limits], [what] naming it: "[what] would take more than N bytes",
// "writing [what] took too long", "[what] nests too deeply", or the
// limit's summary.
std::string text_limit_reason(Limit hit, const Limits& limits, std::string_view what);

// Numbers of up to this many bits cost nothing beyond the step of the
// operation that makes them: every precision numbers have, unless made
// from long digit strings (parseint, long literals).
constexpr uint64_t kFreeNumberBits = 4096;
// The steps the work of one operation on numbers of [bits] bits counts:
// an MPFR or GMP operation, or a conversion between digits and binary.
// GMP's multiplication and conversions grow as n log n in the number of
// 64-bit limbs n; a step stands for the time of about one limb operation
// of that.
uint64_t number_work_steps(uint64_t bits);
// Counts the work of an operation on numbers of [bits] bits, before it
// starts: the step limit refuses an operation too big for it, and the
// deadline is checked on the way (Budget::step polls).
inline void charge_number_work(uint64_t bits) {
  if (bits > kFreeNumberBits)
    if (Budget* b = current_budget()) b->step(number_work_steps(bits));
}

}  // namespace hclvm::util

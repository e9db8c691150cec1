// Text that encoders and printers build, counted against the evaluation
// budget as it grows (util/budget.h). A value shared many times over (the
// aliases of a YAML document, a variable repeated in a tuple) is small in
// memory but its text repeats it every time: encoding it may produce text
// exponentially longer than the value. So a writer counts its output while
// it writes, not after: the bytes as memory, their total against the
// string size limit when the text becomes a string value, and the deadline
// and cancel flag once per chunk. A run whose writer would pass a limit
// stops there, having written at most a chunk more than the limit allows.
//
// Outside a run (no current budget) nothing is counted, except where the
// caller installs a budget of its own (the command line's printing).
#pragma once

#include <cstddef>
#include <string>

#include "util/budget.h"

namespace hclvm::util {

class TextMeter {
 public:
  // What the text is for: a string value of the run (checked against the
  // string size limit too), or text the run uses internally or prints.
  enum class Use : bool { Internal, StringValue };

  // Meters [out], from its present size on, for [use].
  TextMeter(const std::string& out, Use use)
      : out_(out), budget_(current_budget()), counted_(out.size()), use_(use) {
    next_ = budget_ ? counted_ + kChunk : SIZE_MAX;
  }

  // Counts what was written since the last call, a chunk at a time; call
  // it after each piece (an element, a scalar) is appended.
  void check() {
    if (out_.size() >= next_) count();
  }
  // Counts everything written so far, for a caller about to return it.
  void finish() {
    if (budget_ && out_.size() > counted_) count();
  }

 private:
  static constexpr size_t kChunk = 4096;

  // Charges the bytes written since the last count, checks the total.
  void count() {
    size_t n = out_.size();
    if (n > counted_) budget_->charge(n - counted_);
    if (use_ == Use::StringValue) budget_->check_string(n);
    budget_->poll();
    counted_ = n;
    next_ = n + kChunk;
  }

  const std::string& out_;
  Budget* budget_;
  size_t counted_;
  size_t next_;
  Use use_;
};

}  // namespace hclvm::util

// Limits on what one evaluation may consume, for hosts that evaluate
// untrusted configuration.
//
// Every Vm has limits (the defaults below unless set otherwise); each run
// starts with a fresh budget. A run that exceeds a limit stops at once:
// its result is the dynamic value and its only diagnostic is an error
// whose summary names the limit ("Evaluation step limit exceeded", ...),
// with the expression being evaluated as its subject. The Vm is reusable
// afterwards. try() and can() do not catch a limit: a run that hits one
// ends whatever it was doing.
//
//   hclvm::Limits l;                  // the defaults: safe for untrusted input
//   l.max_steps = 1'000'000;
//   l.timeout = std::chrono::milliseconds(50);
//   l.cancel = &stop_flag;            // another thread may set it
//   hclvm::Vm vm(l);
//
// What each limit counts:
//  - steps: one per iteration of a `for` expression, splat or template
//    `%{for}`, and one per function call; comparisons of collections count
//    the elements they compare, flatten each sequence it enters. Code
//    without loops or calls runs in time bounded by its own length; the work inside a function is bounded by
//    the sizes of its arguments and result, which the memory and size limits
//    bound. Work that grows faster, or is large for its size, counts steps
//    of its own before it starts: distinct's and matchkeys' comparisons,
//    bcrypt's rounds, arithmetic and conversions of numbers made from long
//    digit strings (docs/api.md has the list).
//  - memory: bytes of the values created during the run (strings,
//    collections, objects, unknowns and marks, and numbers beyond 4096 bits),
//    counted as they are made, whether or not they are still alive at the
//    end: a bound on the allocation work a run can cause. Text written from
//    values (jsonencode, yamlencode, type(), set hash bytes) counts too, as
//    it is written: a value that repeats a shared part may write far more
//    text than it holds.
//  - string size: the bytes of any string the run makes; collection size:
//    the elements of any list, set, tuple or map, or attributes of an
//    object, it makes. Functions that compute the size of their result
//    from their arguments (setproduct) check it before building anything.
//  - depth: evaluations nested inside a function call of this run (a
//    template rendered by templatefile, a user-defined function, a host
//    function that evaluates another expression on the same thread); also
//    a value nested too deeply for even a big stack to walk (millions of
//    levels, which only a host can build).
//    User-defined functions (userfunc.h) stop at 100 nested calls, or at
//    this limit when it is lower, with an error of their own that a
//    conditional's unchosen result drops, as the reference's errors.
//  - timeout: wall-clock time from the start of the run, checked with the
//    cancel flag every 1024 steps, every 256 KiB of values made, at every
//    nested evaluation and inside calls that work long (with a coarse clock: expect a few milliseconds of
//    slack; a call's longest stretch between checks is about half a second
//    of CPU under the default limits, docs/api.md).
//
// Expression nesting in source text is limited when parsing instead (see
// kMaxExpressionNesting in syntax.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace hclvm {

// The limits, each of which names itself in the diagnostic of a run that
// exceeds it.
enum class Limit : uint8_t { Steps, Memory, StringSize, CollectionSize, Depth, Timeout, Cancelled };

struct Limits {
  uint64_t max_steps = 10'000'000;
  uint64_t max_memory = uint64_t(256) << 20;  // bytes
  uint64_t max_string_bytes = uint64_t(16) << 20;
  uint64_t max_collection_size = 1'000'000;
  uint32_t max_depth = 128;
  // Zero: no deadline.
  std::chrono::nanoseconds timeout = std::chrono::seconds(10);
  // When set and true, the run stops ("Evaluation cancelled"). The flag
  // belongs to the host, which may set it from any thread and must keep it
  // alive while runs use it.
  const std::atomic<bool>* cancel = nullptr;

  // No limit at all: for trusted input only.
  static Limits none();
};

// The summary of the diagnostic for [l], e.g. "Evaluation step limit
// exceeded".
std::string_view limit_summary(Limit l);
// The detail of the diagnostic for [l] under [limits], e.g. "The
// evaluation took more than 10000000 steps (loop iterations and function
// calls)."
std::string limit_detail(Limit l, const Limits& limits);
// A short stable name for [l]: "steps", "memory", "string_size",
// "collection_size", "depth", "timeout", "cancelled".
std::string_view limit_name(Limit l);

// What a run consumed, for hosts that meter or tune their limits.
struct EvalStats {
  uint64_t steps = 0;
  uint64_t memory = 0;  // bytes of values created
  bool limit_hit = false;
  Limit limit = Limit::Steps;  // which, when limit_hit
};

}  // namespace hclvm

// Numbers of the value model, as go-cty defines them: Go big.Float values,
// binary floating point rounded to nearest even, with ±infinity and no NaN,
// each carrying its precision in bits (512 when parsed from text, 64 when
// made from a machine integer, 53 from a double; an operation's result
// takes the larger operand precision). A Number is 16 bytes: an exact int64
// with its precision, or a reference-counted MPFR number. Integer results
// that fit stay on the int64 path; everything else falls back to MPFR with
// exactly big.Float's results.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hclvm/refcount.h"

namespace hclvm {

// Why an arithmetic operation has no result (big.Float would panic with ErrNaN).
enum class NumError : uint8_t {
  None,
  OpposingInfinities,  // +Inf + -Inf, +Inf - +Inf
  ZeroTimesInfinity,   // 0 * ±Inf
  ZeroDivZero,         // 0/0, Inf/Inf
  ModuloInfinity,      // modulo cases with no result
};

class Number {
 public:
  Number() : i_(0), prec_(64), big_(false) {}
  // Copies and moves are inline: the small case must not leave the caller.
  Number(const Number& n) : prec_(n.prec_), big_(n.big_) {
    if (big_) retain_big(p_ = n.p_);
    else i_ = n.i_;
  }
  Number(Number&& n) noexcept : prec_(n.prec_), big_(n.big_) {
    if (big_) p_ = n.p_;
    else i_ = n.i_;
    n.i_ = 0, n.prec_ = 64, n.big_ = false;
  }
  Number& operator=(const Number& n) {
    if (this == &n) return *this;
    if (n.big_) retain_big(n.p_);
    if (big_) release_big(p_);
    prec_ = n.prec_, big_ = n.big_;
    if (big_) p_ = n.p_;
    else i_ = n.i_;
    return *this;
  }
  Number& operator=(Number&& n) noexcept {
    if (this == &n) return *this;
    if (big_) release_big(p_);
    prec_ = n.prec_, big_ = n.big_;
    if (big_) p_ = n.p_;
    else i_ = n.i_;
    n.i_ = 0, n.prec_ = 64, n.big_ = false;
    return *this;
  }
  ~Number() {
    if (big_) release_big(p_);
  }

  // cty's NumberIntVal: [v] at precision [prec].
  static Number from_int(int64_t v, uint32_t prec = 64);
  static Number from_uint(uint64_t v);
  // cty's NumberFloatVal: [v] at precision 53 (NaN is not allowed).
  static Number from_double(double v);
  // cty's ParseNumberVal: decimal text at precision 512; nullopt when invalid.
  static std::optional<Number> parse(std::string_view text);
  static Number infinity(bool negative);

  // big.Float Text('f', -1): the shortest decimal that reads back to this
  // value at its precision; "+Inf" / "-Inf"; "-0".
  std::string text() const;
  // Appends text() to [out]; allocates nothing of its own (the text of a
  // heap number is computed once and kept).
  void append_text(std::string& out) const;

  uint32_t precision() const { return big_ ? big_precision() : prec_; }
  bool is_inf() const;
  // -1, 0 or +1 (0 for both zeros).
  int sign() const;
  bool is_negative_zero() const;
  bool is_integer() const;  // finite with no fractional part

  // Exact conversions for embedders: nullopt when not an integer in range.
  std::optional<int64_t> to_int64() const;
  std::optional<uint64_t> to_uint64() const;
  // The nearest double (±inf beyond range).
  double to_double() const;

  // Arithmetic with big.Float's precision and rounding; [err] is set (and
  // the result is zero) when big.Float would have no result.
  static Number add(const Number& a, const Number& b, NumError& err);
  static Number sub(const Number& a, const Number& b, NumError& err);
  static Number mul(const Number& a, const Number& b, NumError& err);
  static Number quo(const Number& a, const Number& b, NumError& err);
  // cty's Modulo: a - b*trunc(a/b), with the quotient rounded first.
  static Number mod(const Number& a, const Number& b, NumError& err);
  Number neg() const;
  Number abs() const;
  // cty stdlib floor/ceil.
  Number floor() const;
  Number ceil() const;
  // Truncation toward zero (big.Float Int).
  Number trunc() const;

  // Numeric order: -1, 0, +1 (big.Float Cmp).
  static int cmp(const Number& a, const Number& b);
  // cty's number equality: equal texts, with -0 equal to 0.
  static bool equal(const Number& a, const Number& b);

  // The reference's message for [e] in operation [op] ('+', '-', '*', '/', '%').
  static const char* error_message(NumError e, char op);

  // --- representation, for Value ---------------------------------------------
  bool is_small() const { return !big_; }
  int64_t small() const { return i_; }
  static Number from_parts_small(int64_t v, uint32_t prec) {
    Number n;
    n.i_ = v, n.prec_ = prec;
    return n;
  }
  // Takes over one reference to the heap number [p].
  static Number adopt_big(const void* p) {
    Number n;
    n.p_ = p, n.big_ = true;
    return n;
  }
  // Gives up this number's heap reference (the number must be big).
  const void* release_to_raw() {
    const void* p = p_;
    i_ = 0, prec_ = 64, big_ = false;
    return p;
  }
  // Reference counting of heap numbers (refcount.h), inline because every
  // copy of a value holding one comes here. The count is the heap number's
  // first member; an immortal number's count never changes.
  static void retain_big(const void* p) { detail::count_retain(refs_of(p), kImmortalRefs); }
  static void release_big(const void* p) {
    if (detail::count_release(refs_of(p), kImmortalRefs)) destroy_big(p);
  }
  static void make_big_immortal(const void* p);
  static constexpr uint32_t kImmortalRefs = UINT32_MAX;

 private:
  static std::atomic<uint32_t>& refs_of(const void* p) {
    return *const_cast<std::atomic<uint32_t>*>(static_cast<const std::atomic<uint32_t>*>(p));
  }
  static void destroy_big(const void* p);
  uint32_t big_precision() const;

  union {
    int64_t i_;
    const void* p_;
  };
  uint32_t prec_;  // small numbers only
  bool big_;
};

static_assert(sizeof(Number) == 16);

}  // namespace hclvm

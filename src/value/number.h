// The number core's internals beyond the public contract (hclvm/number.h):
// what the value layer's functions and the tests need and embedders do not.
//
// Representation (number.cpp): a small number is an int64 held exactly
// with its precision, and is always exact at that precision; results that
// come out as integers fitting an int64 are stored small (never -0), so the
// int64 fast paths and the MPFR path give the same numbers. A heap number
// is an immutable, reference-counted MPFR value with its precision and a
// lazily computed text; an immortal one is never counted (copies in other
// threads do not write to it).
//
// Infinities have an identity in cty: cty's Modulo tests its operands
// against cty.PositiveInfinity / cty.NegativeInfinity by identity, and
// min() and max() start from them, so `min(1/0) % 2` is +Inf (min returns
// its start value) while `(1/0) % 2` fails. canonical_infinity() gives
// those two objects (precision 0); min() and max() must start from them.
// Every other infinity (Number::infinity(), operations, "inf" parsed,
// doubles) is an ordinary one.
#pragma once

#include "hclvm/number.h"

#include <gmp.h>
#include <mpfr.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hclvm::num {

// Returns the integer [z] as big.Float SetInt makes it (parseint):
// precision max(bit length, 64), exact.
Number from_mpz(mpz_srcptr z);

// Returns cty.PositiveInfinity or cty.NegativeInfinity itself.
Number canonical_infinity(bool negative);

// Returns an infinity that is not cty's canonical one, with precision
// [prec] (Number::infinity() is this at 53 bits, as cty.NumberFloatVal).
Number computed_infinity(bool negative, uint32_t prec);

// Reports whether [n] is cty.PositiveInfinity or cty.NegativeInfinity
// itself (copied from canonical_infinity()).
bool is_canonical_infinity(const Number& n);

// Reports whether [n]'s sign bit is set (true for -0 and -Inf).
inline bool signbit(const Number& n) { return n.sign() < 0 || n.is_negative_zero(); }

// cty's <= and >=: `a < b || a == b` with cty's equality by text, which is
// not always cmp() <= 0: 0.1 as a float64 is greater than 0.1 at 512 bits,
// yet they are equal.
inline bool less_equal(const Number& a, const Number& b) { return Number::cmp(a, b) < 0 || Number::equal(a, b); }
inline bool greater_equal(const Number& a, const Number& b) { return Number::cmp(a, b) > 0 || Number::equal(a, b); }

// Reports whether [a] and [b] have the same text() ("-0" counting as "0"),
// without writing either text out: cty compares non-integers by their
// text, which for 1e100000000 has a hundred million digits.
bool same_text(const Number& a, const Number& b);

// Sets [x] (initialized here, cleared by the caller) to the exact value of
// [n] at its precision (64 bits for a small number); [n] is finite.
void to_mpfr(const Number& n, mpfr_ptr x);

// Frees the heap number [p] made immortal (Number::make_big_immortal),
// once nothing can use it any more; the shared infinities are never freed.
void free_immortal(const void* p);

// Returns |[n]| × 10^[k] rounded to an integer, ties to even, as Go's
// decimal rounding of the exact value does (big.Float's %.kf), for 0 <= k
// <= 19; nullopt when it does not fit a uint64 or [n] is not finite.
// Allocates nothing for the precisions cty uses.
std::optional<uint64_t> round_scaled(const Number& n, int k);

// An exact, portable text of [n] for serialized programs: its precision and
// representation (small integer or MPFR number) and its value to the last
// bit (an MPFR number as base-16 digits and exponent). decode_exact reads
// it back to an identical number, or gives nullopt for text it did not write.
std::string encode_exact(const Number& n);

// Go's big.Float.Text([fmt], [prec]) of [n]: fmt one of e E f g G, prec
// the digits (< 0: the shortest that reads back at [n]'s precision).
// number_format.cpp.
std::string big_float_text(const Number& n, char fmt, int64_t prec);
std::optional<Number> decode_exact(std::string_view text);

// --- For tests -------------------------------------------------------------------

// Returns [n] held on the heap even when it would be small, to drive the
// MPFR path with any operand.
Number as_heap_for_testing(const Number& n);
// Returns text() computed as Go computes it, from the exact decimal
// expansions whatever their length (text() takes only their first digits
// far from 1): the two must agree.
std::string text_exact_for_testing(const Number& n);
// Returns the reference count of [n]'s heap number (0 when small, and
// UINT32_MAX when immortal).
uint32_t ref_count_for_testing(const Number& n);

}  // namespace hclvm::num

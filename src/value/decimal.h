// Decimal numbers as big.Float's conversion to text uses them (math/big
// decimal.go and ftoa.go), the one engine behind every decimal text of a
// number: Number::text (the shortest digits, number.cpp), Go's
// big.Float.Text for format(), messages and set hash bytes
// (num::big_float_text, number_format.cpp, which also makes the exact
// expansion and the digits rounded half to even).
#pragma once

#include <gmp.h>

#include <cassert>
#include <cstdint>
#include <string>

#include "value/number.h"

namespace hclvm::num {

// A decimal: digits without trailing zeros, value 0.mant × 10^exp; zero
// has no digits and exponent 0. When [more] is set, mant holds only the
// first digits of the exact expansion (truncated, trailing zeros kept) and
// more nonzero digits follow: that decimal's size is unbounded, and only
// its first mant.size() digits may be read.
struct Decimal {
  std::string mant;
  int64_t exp = 0;
  bool more = false;

  static constexpr int64_t kUnbounded = INT64_MAX;

  // Returns digit [i], or '0' past either end.
  char at(int64_t i) const {
    if (i >= 0 && i < static_cast<int64_t>(mant.size())) return mant[static_cast<size_t>(i)];
    assert((i < 0 || !more) && "digit beyond a decimal's known prefix");
    return '0';
  }
  int64_t size() const { return more ? kUnbounded : static_cast<int64_t>(mant.size()); }

  // Drops trailing zero digits.
  void trim() {
    while (!mant.empty() && mant.back() == '0') mant.pop_back();
    if (mant.empty()) exp = 0;
  }
  // Keeps the first [n] digits.
  void round_down(int64_t n) {
    if (n < 0 || n >= size()) return;
    mant.resize(static_cast<size_t>(n));
    more = false;
    trim();
  }
  // Keeps the first [n] digits and adds one unit in the last, carrying.
  void round_up(int64_t n) {
    if (n < 0 || n >= size()) return;
    more = false;
    while (n > 0 && mant[static_cast<size_t>(n - 1)] >= '9') --n;
    if (n == 0) {
      mant = "1";
      ++exp;
      return;
    }
    ++mant[static_cast<size_t>(n - 1)];
    mant.resize(static_cast<size_t>(n));
  }
  // Rounds to [n] digits, to nearest and to an even last digit on a tie
  // (Go's decimal.round).
  void round(int64_t n) {
    if (n < 0 || n >= size()) return;
    char next = at(n);
    bool up;
    if (next == '5' && n + 1 == size()) up = n > 0 && ((mant[static_cast<size_t>(n - 1)] - '0') & 1) != 0;
    else up = next >= '5';
    if (up) round_up(n);
    else round_down(n);
  }
  bool operator==(const Decimal& o) const { return exp == o.exp && more == o.more && mant == o.mant; }
};

// Sets [d] to the exact decimal of [num] / 10^[k], [num] > 0 (the one
// exact expansion: of the shortest digits' bounds and of big_float_text).
void set_decimal(Decimal& d, mpz_srcptr num, int64_t k);

// The shortest decimal that reads back as the finite [n] at its precision
// (Go's roundShortest; empty for zero): Number::text()'s digits, cheap at
// any exponent. number.cpp.
Decimal shortest_decimal(const Number& n);

// Appends [d] (complete: [more] unset) as ddd.ddd with [prec] fraction
// digits (Go's fmtF).
void append_f(std::string& out, int64_t prec, const Decimal& d);

// Appends [d] as d.ddd[fmt]±dd with [prec] fraction digits (Go's fmtE;
// [fmt] is 'e' or 'E').
void append_e(std::string& out, char fmt, int64_t prec, const Decimal& d);

}  // namespace hclvm::num

// Go's math.Pow, math.Log and math.Exp (gomath.h says why and which
// variants). Each step is one IEEE double operation in Go's order; where Go
// fuses a multiply and an add into one instruction, std::fma does the same,
// and nowhere else may the compiler fuse (no FMA is enabled for the
// target, and the fused steps are written out).
#include "funcs/gomath.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace hclvm::funcs::gomath {

namespace {

constexpr uint64_t kSignMask = uint64_t{1} << 63;
constexpr uint64_t kInfBits = 0x7FF0000000000000;
constexpr double kInf = std::numeric_limits<double>::infinity();

double from_bits(uint64_t b) { return std::bit_cast<double>(b); }
uint64_t to_bits(double d) { return std::bit_cast<uint64_t>(d); }

// The conversion of [d] to a 32-bit integer that amd64's CVTSD2SL makes:
// rounded to nearest (ties to even), INT32_MIN when out of range.
int32_t round_to_int32(double d) {
  double r = std::nearbyint(d);
  if (!(r >= -2147483648.0 && r <= 2147483647.0)) return INT32_MIN;
  return static_cast<int32_t>(r);
}

// Whether [y] is an odd integer, as Go's isOddInt decides it: the integer
// part converted to int64 (every double of magnitude 2^53 or more is even).
bool is_odd_int(double y) {
  double whole;
  double frac = std::modf(y, &whole);
  if (frac != 0 || std::fabs(whole) >= 9007199254740992.0) return false;
  return (static_cast<int64_t>(whole) & 1) != 0;
}

}  // namespace

// Go's exp_amd64.s along its FMA path: x = k*ln2 + r, then r/16 through a
// Taylor polynomial and four squarings of (1 + r/16) - 1, then the scaling
// by 2^k with one or two multiplications.
double exp(double x) {
  constexpr double kLog2e = 1.4426950408889634073599246810018920;
  constexpr double kLn2Hi = 0.69314718055966295651160180568695068359375;
  constexpr double kLn2Lo = 0.28235290563031577122588448175013436025525412068e-12;
  constexpr double kOverflow = 7.09782712893384e+02;
  uint64_t b = to_bits(x);
  if ((b & ~kSignMask) >= kInfBits) return b == (kSignMask | kInfBits) ? 0.0 : x;  // -Inf, +Inf, NaN
  if (x > kOverflow) return kInf;
  int32_t k = round_to_int32(kLog2e * x);
  double kf = k;
  double r = std::fma(-kLn2Hi, kf, x);
  r = std::fma(-kLn2Lo, kf, r);
  r *= 0.0625;
  double p = 2.4801587301587301587e-5;
  p = std::fma(p, r, 1.9841269841269841270e-4);
  p = std::fma(p, r, 1.3888888888888888889e-3);
  p = std::fma(p, r, 8.3333333333333333333e-3);
  p = std::fma(p, r, 4.1666666666666666667e-2);
  p = std::fma(p, r, 1.6666666666666666667e-1);
  p = std::fma(p, r, 0.5);
  p = std::fma(p, r, 1.0);
  r *= p;  // e^(r/16) - 1
  for (int i = 0; i < 3; ++i) r *= r + 2.0;
  r = std::fma(r, r + 2.0, 1.0);  // the fourth squaring, plus the 1
  int32_t e = k + 0x3FF;          // the biased exponent of 2^k
  if (e <= 0) {                   // 2^k is subnormal: scale in two steps
    if (e < -52) return 0.0;
    r *= from_bits(static_cast<uint64_t>(e + 0x3FE) << 52);
    e = 1;
  } else if (e >= 0x7FF) {
    return kInf;
  }
  return r * from_bits(static_cast<uint64_t>(e) << 52);
}

// Go's log_amd64.s: x = 2^k * f1 with f1 taken from the bits (subnormals
// are not normalised first), f1 moved into (sqrt(2)/2, sqrt(2)], then
// FreeBSD's polynomial in s = f/(2+f).
double log(double x) {
  constexpr double kHalfSqrt2 = 7.07106781186547524401e-01;
  const double ln2_hi = from_bits(0x3FE62E42FEE00000);
  const double ln2_lo = from_bits(0x3DEA39EF35793C76);
  const double l1 = from_bits(0x3FE5555555555593), l2 = from_bits(0x3FD999999997FA04);
  const double l3 = from_bits(0x3FD2492494229359), l4 = from_bits(0x3FCC71C51D8E78AF);
  const double l5 = from_bits(0x3FC7466496CB03DE), l6 = from_bits(0x3FC39A09D078C69F);
  const double l7 = from_bits(0x3FC2F112DF3E5244);
  uint64_t b = to_bits(x);
  if ((b & ~kSignMask) == 0) return -kInf;
  if ((b & kSignMask) != 0) return std::numeric_limits<double>::quiet_NaN();
  if (b >= kInfBits) return x;  // +Inf, NaN
  double f1 = from_bits((b & 0x000FFFFFFFFFFFFF) | 0x3FE0000000000000);
  double k = static_cast<double>(static_cast<int32_t>((b >> 52) & 0x7FF) - 0x3FE);
  if (!(kHalfSqrt2 < f1)) {
    k -= 1.0;
    f1 *= 2.0;
  }
  double f = f1 - 1.0;
  double s = f / (2.0 + f);
  double s2 = s * s;
  double s4 = s2 * s2;
  double t1 = s2 * (((l7 * s4 + l5) * s4 + l3) * s4 + l1);
  double t2 = s4 * ((l6 * s4 + l4) * s4 + l2);
  double r = t1 + t2;
  double hfsq = 0.5 * f * f;
  return k * ln2_hi - ((hfsq - (s * (hfsq + r) + k * ln2_lo)) - f);
}

// Go's pow.go: special cases first; then x^y = x^yf * x^yi with the
// fraction |yf| <= 0.5 through exp(yf * log(x)), and the integer part by
// repeated squaring of frexp(x)'s mantissa, the powers of two kept apart
// in an exponent until one final ldexp.
double pow(double x, double y) {
  if (y == 0 || x == 1) return 1;
  if (y == 1) return x;
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) {
    if (y < 0) return is_odd_int(y) ? std::copysign(kInf, x) : kInf;
    return is_odd_int(y) ? x : 0.0;
  }
  if (std::isinf(y)) {
    if (x == -1) return 1;
    return (std::fabs(x) < 1) == (y > 0) ? 0.0 : kInf;
  }
  if (std::isinf(x)) {
    if (x < 0) return pow(1 / x, -y);  // pow(-0, -y)
    return y < 0 ? 0.0 : kInf;
  }
  if (y == 0.5) return std::sqrt(x);
  if (y == -0.5) return 1 / std::sqrt(x);

  double yi;
  double yf = std::modf(std::fabs(y), &yi);
  if (yf != 0 && x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (yi >= 9223372036854775808.0) {  // 2^63: an even integer that under- or overflows
    if (x == -1) return 1;
    return (std::fabs(x) < 1) == (y > 0) ? 0.0 : kInf;
  }

  double a1 = 1.0;  // the result is a1 * 2^ae
  int64_t ae = 0;
  if (yf != 0) {
    if (yf > 0.5) {
      yf -= 1;
      yi += 1;
    }
    a1 = exp(yf * log(x));
  }
  int xe_int;
  double x1 = std::frexp(x, &xe_int);
  int64_t xe = xe_int;
  for (int64_t i = static_cast<int64_t>(yi); i != 0; i >>= 1) {
    if (xe < -(int64_t{1} << 12) || (int64_t{1} << 12) < xe) {
      ae += xe;  // the final ldexp under- or overflows anyway
      break;
    }
    if ((i & 1) == 1) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe <<= 1;
    if (x1 < 0.5) {
      x1 += x1;
      --xe;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  // Go's Ldexp rounds once, as std::ldexp does; the exponent is clamped
  // only to keep it in an int (beyond +-2200 the result is 0 or Inf alike).
  if (ae > 2200) ae = 2200;
  if (ae < -2200) ae = -2200;
  return std::ldexp(a1, static_cast<int>(ae));
}

}  // namespace hclvm::funcs::gomath

// Go's big.Float.Text for numbers (math/big ftoa.go and decimal.go): the
// exact decimal expansion of a number's binary value rounded half to even
// to a given number of digits, or the shortest digits that read back at
// the number's precision (number.cpp's, which Number::text writes), in the
// forms e, E, f, g and G, through the decimals of value/decimal.h. format's
// float verbs, the diagnostics' value listings, the operators' set hash
// bytes (big.Float's String) and Terraform's renderings of numbers all
// write numbers through it.
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "util/budget.h"
#include "value/decimal.h"
#include "value/mpfr.h"
#include "value/number.h"

namespace hclvm::num {

namespace {

// --- Go's decimal conversion of big.Float (math/big ftoa.go, decimal.go) ---

// An upper bound on the number of digits of the exact decimal expansion of
// the finite, nonzero [x]: an integer below 2^e has at most e log10(2) + 1;
// a fraction whose lowest bit is 2^-k has k digits after the point.
int64_t expansion_digits(mpfr_srcptr x) {
  int64_t e = mpfr_get_exp(x), low = e - int64_t(mpfr_get_prec(x));
  if (low >= 0) return e * 30103 / 100000 + 2;
  return (std::max<int64_t>(e, 0) * 30103 / 100000 + 2) + (-low);
}

// The exact decimal expansion of the finite number [n] (sign dropped).
Decimal exact_decimal(const Number& n) {
  Decimal d;
  if (n.is_small()) {
    int64_t v = n.small();
    uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    if (m == 0) return d;
    d.mant = std::to_string(m);
    d.exp = int64_t(d.mant.size());
    d.trim();
    return d;
  }
  Mpfr x(n);
  if (mpfr_zero_p(x)) {
    return d;
  }
  // The expansion's digits are the work (about 3.32 bits each); counted
  // before it starts, with the memory they take.
  int64_t digits = expansion_digits(x);
  if (util::Budget* b = util::current_budget()) {
    b->charge(uint64_t(digits) * 2);
    util::charge_number_work(uint64_t(digits) * 10 / 3);
  }
  mpz_t m;
  mpz_init(m);
  mpfr_exp_t e = mpfr_get_z_2exp(m, x);
  mpz_abs(m, m);
  // Make the mantissa odd so that the power of five stays small.
  auto tz = mpz_scan1(m, 0);
  mpz_tdiv_q_2exp(m, m, tz);
  e += mpfr_exp_t(tz);
  int64_t scale = 0;
  if (e >= 0) {
    mpz_mul_2exp(m, m, mp_bitcnt_t(e));
  } else {
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 5, static_cast<unsigned long>(-e));
    mpz_mul(m, m, p);
    mpz_clear(p);
    scale = -int64_t(e);
  }
  set_decimal(d, m, scale);
  mpz_clear(m);
  return d;
}

// [x] rounded to [digits] significant decimal digits, half to even on the
// exact value as Go's decimal.round does it (MPFR rounds correctly from the
// exact binary value, so no full expansion is needed); [digits] >= 1.
Decimal rounded_decimal(mpfr_t x, int64_t digits) {
  Decimal d;
  mpfr_exp_t e = 0;
  char* str = mpfr_get_str(nullptr, &e, 10, size_t(digits), x, MPFR_RNDN);
  std::string_view t = str;
  if (!t.empty() && t[0] == '-') t.remove_prefix(1);
  d.mant = std::string(t);
  d.exp = int64_t(e);
  mpfr_free_str(str);
  d.trim();
  return d;
}

// The decimal Go's big.Float.Text rounds [n] to for [fmt] with precision
// [prec] >= 0 (for %g a precision of 0 becomes 1): through MPFR where the
// rounding position lies within the digits, else from the exact expansion.
Decimal fixed_decimal(const Number& n, char fmt, int64_t& prec) {
  bool g = fmt == 'g' || fmt == 'G';
  if (g && prec == 0) prec = 1;
  if (fmt == 'f' && prec <= 19) {
    // |n| × 10^prec rounded to an integer holds every digit kept.
    if (std::optional<uint64_t> q = num::round_scaled(n, int(prec))) {
      Decimal d;
      if (*q == 0) return d;
      char buf[24];
      char* end = std::to_chars(buf, buf + sizeof buf, *q).ptr;
      d.mant.assign(buf, end);
      d.exp = int64_t(end - buf) - prec;
      d.trim();
      return d;
    }
  }
  if (n.is_small() || n.sign() == 0) {
    Decimal d = exact_decimal(n);
    d.round(g ? prec : fmt == 'f' ? d.exp + prec : 1 + prec);
    return d;
  }
  Mpfr x(n);
  int64_t digits = g ? prec : 1 + prec;
  if (fmt == 'f') {
    // The exact decimal exponent: truncation cannot carry into it. The
    // text has that many digits before the point: a run checks its size
    // before any of them is made.
    mpfr_exp_t e = 0;
    char lead[4], away[4];
    mpfr_exp_t ea = 0;
    mpfr_get_str(lead, &e, 10, 2, x, MPFR_RNDZ);
    mpfr_get_str(away, &ea, 10, 2, x, MPFR_RNDA);
    util::check_string_size(uint64_t(std::max<int64_t>(e, 1)) + uint64_t(prec > 0 ? prec + 1 : 0));
    digits = int64_t(e) + prec;
    if (digits < 1) {
      // The rounding position is before the first digit: Go's round(n)
      // leaves the digits alone for n < 0, so that only zeros are printed,
      // and for n == 0 rounds up to one unit in the last place, or down to
      // nothing (a lone 5 is a tie, which goes to zero).
        Decimal d;
      const char* t = lead[0] == '-' ? lead + 1 : lead;
      bool more = e != ea || std::string_view(lead) != std::string_view(away);
      if (digits == 0 && (t[0] > '5' || (t[0] == '5' && (more || t[1] != '0')))) {
        d.mant = "1";
        d.exp = int64_t(e) + 1;
      }
      return d;
    }
  } else if (!g) {
    util::check_string_size(uint64_t(prec) + 5);
  }
  // Either way gives the digits Go's rounding of the exact expansion
  // does; the cheaper is the shorter.
  if (expansion_digits(x) > digits) {
    util::charge_number_work(uint64_t(digits) * 10 / 3);
    Decimal d = rounded_decimal(x, digits);
    return d;
  }
  Decimal d = exact_decimal(n);
  d.round(fmt == 'f' ? d.exp + prec : digits);
  return d;
}

}  // namespace

std::string big_float_text(const Number& n, char fmt, int64_t prec) {
  std::string out;
  bool neg = n.sign() < 0 || n.is_negative_zero();
  if (neg) out += '-';
  if (n.is_inf()) {
    if (!neg) out += '+';
    return out + "Inf";
  }
  bool shortest = prec < 0;
  Decimal d;
  if (shortest) {
    d = num::shortest_decimal(n);
    switch (fmt) {
      case 'e':
      case 'E': prec = int64_t(d.mant.size()) - 1; break;
      case 'f': prec = std::max<int64_t>(int64_t(d.mant.size()) - d.exp, 0); break;
      default: prec = int64_t(d.mant.size()); break;
    }
  } else {
    d = fixed_decimal(n, fmt, prec);
  }
  switch (fmt) {
    case 'e':
    case 'E': append_e(out, fmt, prec, d); break;
    case 'f': append_f(out, prec, d); break;
    default: {
      int64_t eprec = prec;
      if (eprec > int64_t(d.mant.size()) && int64_t(d.mant.size()) >= d.exp) {
        eprec = int64_t(d.mant.size());
      }
      if (shortest) eprec = 6;
      int64_t exp = d.exp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > int64_t(d.mant.size())) prec = int64_t(d.mant.size());
        append_e(out, char(fmt + 'e' - 'g'), prec - 1, d);
      } else {
        if (prec > d.exp) prec = int64_t(d.mant.size());
        append_f(out, std::max<int64_t>(prec - d.exp, 0), d);
      }
    }
  }
  return out;
}

}  // namespace hclvm::num

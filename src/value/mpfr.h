// An MPFR copy of a number for code that formats or converts it with
// MPFR directly (number_format.cpp, format's integer verbs).
#pragma once

#include <gmp.h>
#include <mpfr.h>

#include "value/number.h"

namespace hclvm::num {

// Sets the exponent range to MPFR's widest, as number.cpp does.
inline void widest_range() {
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
}

// The exact value of a finite number as an MPFR number, freed with its
// scope (a limit may end the work that holds it), with MPFR's widest
// exponent range set.
class Mpfr {
 public:
  explicit Mpfr(const Number& n) {
    num::to_mpfr(n, v_);
    widest_range();
  }
  ~Mpfr() { mpfr_clear(v_); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
  operator mpfr_ptr() { return v_; }

 private:
  mpfr_t v_;
};

}  // namespace hclvm::num

// Numbers (hclvm/number.h, value/number.h): cty's big.Float numbers as an
// exact int64 fast path in front of MPFR, parsing as big.ParseFloat does and
// printing as big.Float Text('f', -1) does.
//
// MPFR and big.Float round the four basic operations the same way (both are
// correctly rounded to nearest even at the target precision), so each cty
// operation is replayed step by step at the precisions cty uses; where Go
// takes several rounding steps (parsing, cty's Multiply and Modulo) we take
// the same steps. big.Float keeps exponents in an int32 and has no
// subnormals: MPFR's exponent range is set to match before each slow-path
// operation (the range is thread-local in MPFR) and results below it are
// flushed to zero, as big.Float does.
#include "value/number.h"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "util/budget.h"
#include "util/pool.h"
#include "value/decimal.h"

namespace hclvm {

static_assert(GMP_NUMB_BITS == 64 && sizeof(long) == 8, "64-bit limbs and longs expected");

// The messages are those of cty's stdlib Add, Subtract, Multiply, Divide
// and Modulo functions, which hcl prints after "Error during operation: ".
// Modulo's own failures are Divide's and Multiply's NaN cases, reported
// with one message, and the nil big.Int it dereferences when the quotient
// is infinite (a panic: the reference follows the message with a stack).
const char* Number::error_message(NumError e, char op) {
  if (e == NumError::None) return "";
  if (e == NumError::ModuloInfinity)
    return "panic in function implementation: runtime error: invalid memory address or nil pointer dereference";
  if (op == '%') return "can't use modulo with zero and infinity";
  switch (e) {
    case NumError::OpposingInfinities:
      return op == '-' ? "can't subtract infinity from itself" : "can't compute sum of opposing infinities";
    case NumError::ZeroTimesInfinity: return "can't multiply zero by infinity";
    case NumError::ZeroDivZero: return "can't divide zero by zero or infinity by infinity";
    default: return "";
  }
}

namespace {

constexpr mpfr_rnd_t kRound = MPFR_RNDN;
constexpr uint32_t kParsePrec = 512;  // cty.ParseNumberVal
constexpr uint32_t kIntPrec = 64;     // big.Float SetInt64 / SetUint64
constexpr uint32_t kFloatPrec = 53;   // big.Float SetFloat64
// big.Float's exponent range (MinExp, MaxExp), with the mantissa in [0.5, 1)
// as in MPFR.
constexpr mpfr_exp_t kMinExp = INT32_MIN;
constexpr mpfr_exp_t kMaxExp = INT32_MAX;

// A heap number. Immutable once published; the text is computed on first
// use and published with a compare-and-swap, so readers in several threads
// may race to compute it but all see one string.
struct BigNumber {
  static constexpr uint32_t kImmortal = Number::kImmortalRefs;
  mutable std::atomic<uint32_t> refs{1};  // first: Number::retain_big reads it
  uint32_t prec;  // big.Float's precision; MPFR's is at least 1
  mpfr_t v;
  mutable std::atomic<const std::string*> text{nullptr};

  // One block holds the number and its significand, right after it (MPFR's
  // custom interface: nothing of MPFR's own to free), so a big number costs
  // one allocation rather than two, recycled on the thread like values'
  // blocks (util/pool.h). Made as `new (p) BigNumber(p)`; the block's size
  // follows from the precision, which the destroying delete reads.
  static size_t block_bytes(uint32_t p) {
    return sizeof(BigNumber) + mpfr_custom_get_size(std::max<mpfr_prec_t>(p, MPFR_PREC_MIN));
  }
  // Numbers beyond the usual precisions (made from long digit strings)
  // count their bytes and their work (util/budget.h) before they are made.
  static void* operator new(size_t, uint32_t p) {
    size_t bytes = block_bytes(p);
    if (p > util::kFreeNumberBits) {
      util::charge_memory(bytes);
      util::charge_number_work(p);
    }
    return util::pool::allocate(util::pool::class_of(bytes), bytes);
  }
  static void operator delete(BigNumber* b, std::destroying_delete_t) {
    uint8_t c = util::pool::class_of(block_bytes(b->prec));
    b->~BigNumber();
    util::pool::free(b, c);
  }
  // Frees the block when the constructor throws (it does not).
  static void operator delete(void* ptr, uint32_t p) {
    util::pool::free(ptr, util::pool::class_of(block_bytes(p)));
  }

  explicit BigNumber(uint32_t p) : prec(p) {
    mpfr_prec_t mp = std::max<mpfr_prec_t>(p, MPFR_PREC_MIN);
    void* limbs = reinterpret_cast<char*>(this) + sizeof(BigNumber);
    mpfr_custom_init(limbs, mp);
    mpfr_custom_init_set(v, MPFR_ZERO_KIND, 0, mp, limbs);
  }
  ~BigNumber() { delete text.load(std::memory_order_relaxed); }
  BigNumber(const BigNumber&) = delete;
  BigNumber& operator=(const BigNumber&) = delete;
};

static_assert(std::is_standard_layout_v<BigNumber> && offsetof(BigNumber, refs) == 0,
              "Number::retain_big reads the count at the start of a heap number");

const BigNumber* as_big(const void* p) { return static_cast<const BigNumber*>(p); }

// Sets this thread's MPFR exponent range to big.Float's. One exponent below
// MinExp is allowed, so that results just below the range (which big.Float
// flushes to zero but MPFR may round up to its smallest number) can be seen
// and flushed by fix().
void set_range() {
  if (mpfr_get_emin() != kMinExp - 1) mpfr_set_emin(kMinExp - 1);
  if (mpfr_get_emax() != kMaxExp) mpfr_set_emax(kMaxExp);
}

// Flushes [r] to a zero of its sign when its exponent is below big.Float's
// range, as big.Float's rounding does on underflow.
void fix(mpfr_ptr r) {
  if (mpfr_regular_p(r) && mpfr_get_exp(r) < kMinExp) mpfr_set_zero(r, mpfr_signbit(r) ? -1 : 1);
}

// Returns the number of significant bits of [m] (0 for 0).
int sig_bits(uint64_t m) { return m == 0 ? 0 : 64 - std::countl_zero(m) - std::countr_zero(m); }

// Returns |v| as an unsigned number (INT64_MIN included).
uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

// Reports whether [v] is exact at [prec] bits.
bool fits_prec(int64_t v, uint32_t prec) { return prec >= 64 || sig_bits(magnitude(v)) <= static_cast<int>(prec); }

// Reports whether the small number [v] at [prec] bits prints as its own
// digits: true unless it has more bits than its precision (2^60 at 53 bits
// is exact, but its shortest decimal may end in zeros that are not its
// digits).
bool prints_digits(int64_t v, uint32_t prec) {
  uint64_t mag = magnitude(v);
  return mag == 0 || 64 - std::countl_zero(mag) <= static_cast<int>(prec);
}

// A read-only MPFR view of a number: the heap value itself, or a small
// number copied into limbs on the stack (no allocation). Views are made in
// place (`View x = VIEW(a);`) by Number's members, which see its fields.
class View {
 public:
  explicit View(const BigNumber* b) : ptr_(b->v) {}
  explicit View(int64_t i) {
    mpfr_custom_init(limbs_, 64);
    mpfr_custom_init_set(tmp_, MPFR_ZERO_KIND, 0, 64, limbs_);
    mpfr_set_si(tmp_, i, kRound);
    ptr_ = tmp_;
  }
  View(const View&) = delete;
  View& operator=(const View&) = delete;
  operator mpfr_srcptr() const { return ptr_; }

 private:
  mp_limb_t limbs_[1];
  mpfr_t tmp_;
  mpfr_srcptr ptr_;
};

// The view of the Number [n], in Number's members.
#define VIEW(n) ((n).big_ ? View(as_big((n).p_)) : View((n).i_))

// An MPFR temporary of a given precision.
// The significand lives in the object up to kLocalLimbs limbs (1152 bits:
// every precision cty uses), so a temporary allocates nothing.
class Temp {
 public:
  explicit Temp(uint32_t prec) {
    mpfr_prec_t p = std::max<mpfr_prec_t>(prec, MPFR_PREC_MIN);
    if (mpfr_custom_get_size(p) <= sizeof local_) {
      mpfr_custom_init(local_, p);
      mpfr_custom_init_set(v_, MPFR_ZERO_KIND, 0, p, local_);
      local_used_ = true;
    } else {
      util::charge_memory(mpfr_custom_get_size(p));  // before anything is held
      util::charge_number_work(uint64_t(p));
      mpfr_init2(v_, p);
    }
  }
  ~Temp() {
    if (!local_used_) mpfr_clear(v_);
  }
  Temp(const Temp&) = delete;
  Temp& operator=(const Temp&) = delete;
  operator mpfr_ptr() { return v_; }

 private:
  static constexpr size_t kLocalLimbs = 18;
  mpfr_t v_;
  mp_limb_t local_[kLocalLimbs];
  bool local_used_ = false;
};

// A GMP integer freed with its scope: a limit may end the work holding it.
class Mpz {
 public:
  Mpz() { mpz_init(z_); }
  ~Mpz() { mpz_clear(z_); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
  operator mpz_ptr() { return z_; }
  operator mpz_srcptr() const { return z_; }

 private:
  mpz_t z_;
};

using BigPtr = std::unique_ptr<BigNumber>;

// Returns the number holding [b]'s value at precision [b->prec]: small when
// it is an integer that fits an int64 (never for -0), else [b] itself.
Number finish(BigPtr b) {
  mpfr_ptr v = b->v;
  fix(v);
  if (mpfr_integer_p(v) && mpfr_fits_slong_p(v, kRound) && !(mpfr_zero_p(v) && mpfr_signbit(v)))
    return Number::from_parts_small(mpfr_get_si(v, kRound), b->prec);
  return Number::adopt_big(b.release());
}

// Returns a fresh heap -0 with precision [prec].
Number neg_zero(uint32_t prec) {
  BigPtr b(new (prec) BigNumber(prec));
  mpfr_set_zero(b->v, -1);
  return Number::adopt_big(b.release());
}

// Returns a new immortal infinity of precision [prec] (0 for
// cty.PositiveInfinity's and cty.NegativeInfinity's big.Floats).
const BigNumber* make_immortal_inf(bool negative, uint32_t prec) {
  auto* b = new (prec) BigNumber(prec);
  mpfr_set_inf(b->v, negative ? -1 : 1);
  b->refs.store(BigNumber::kImmortal, std::memory_order_relaxed);
  return b;
}

// Returns the canonical infinity of the sign of [negative].
const BigNumber* canonical_inf(bool negative) {
  static const BigNumber* const pos = make_immortal_inf(false, 0);
  static const BigNumber* const neg = make_immortal_inf(true, 0);
  return negative ? neg : pos;
}

// Returns a shared infinity of the sign of [negative] at 53 bits, as
// cty.NumberFloatVal(±Inf) makes; not canonical.
const BigNumber* float_inf(bool negative) {
  static const BigNumber* const pos = make_immortal_inf(false, kFloatPrec);
  static const BigNumber* const neg = make_immortal_inf(true, kFloatPrec);
  return negative ? neg : pos;
}

}  // namespace

// --- Construction and representation ---------------------------------------

// Immortal objects (constant tables, the canonical infinities) are shared
// by threads that only read them: their count is never written.
void Number::destroy_big(const void* p) { delete as_big(p); }

// Call before the number is shared.
void Number::make_big_immortal(const void* p) {
  as_big(p)->refs.store(BigNumber::kImmortal, std::memory_order_relaxed);
}

uint32_t Number::big_precision() const { return as_big(p_)->prec; }

Number Number::from_int(int64_t v, uint32_t prec) {
  if (prec == 0) prec = kIntPrec;  // as big.Float: 0 means 64
  if (fits_prec(v, prec)) return from_parts_small(v, prec);
  set_range();
  BigPtr b(new (prec) BigNumber(prec));
  mpfr_set_si(b->v, v, kRound);
  return finish(std::move(b));
}

Number Number::from_uint(uint64_t v) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) return from_parts_small(static_cast<int64_t>(v), kIntPrec);
  BigPtr b(new (kIntPrec) BigNumber(kIntPrec));
  mpfr_set_ui(b->v, v, kRound);
  return adopt_big(b.release());
}

// NaN has no big.Float (SetFloat64 panics); it is a caller's bug, and
// gives 0 here.
Number Number::from_double(double v) {
  assert(v == v && "NaN is not a number in cty");
  if (v != v) return Number();
  if (v >= -0x1p63 && v < 0x1p63 && v == static_cast<double>(static_cast<int64_t>(v)) && !(v == 0 && std::signbit(v)))
    return from_parts_small(static_cast<int64_t>(v), kFloatPrec);
  BigPtr b(new (kFloatPrec) BigNumber(kFloatPrec));
  mpfr_set_d(b->v, v, kRound);
  return adopt_big(b.release());
}

// An infinity as cty.NumberFloatVal(±Inf) makes it; identity does not
// matter for it, so one immortal object per sign serves all.
Number Number::infinity(bool negative) { return adopt_big(float_inf(negative)); }

namespace num {

Number from_mpz(mpz_srcptr z) {
  uint32_t prec = std::max<uint32_t>(static_cast<uint32_t>(mpz_sizeinbase(z, 2)), kIntPrec);
  if (mpz_fits_slong_p(z)) return Number::from_parts_small(mpz_get_si(z), prec);
  BigPtr b(new (prec) BigNumber(prec));
  mpfr_set_z(b->v, z, kRound);
  return Number::adopt_big(b.release());
}

Number canonical_infinity(bool negative) { return Number::adopt_big(canonical_inf(negative)); }

Number computed_infinity(bool negative, uint32_t prec) {
  if (prec == kFloatPrec) return Number::infinity(negative);
  BigPtr b(new (prec) BigNumber(prec));
  mpfr_set_inf(b->v, negative ? -1 : 1);
  return Number::adopt_big(b.release());
}

// Returns the heap object of [n] (nullptr when small), borrowed; Number
// shows its pointer only by giving it up, so a copy gives it up.
static const BigNumber* heap_of(const Number& n) {
  if (n.is_small()) return nullptr;
  Number copy = n;
  const void* p = copy.release_to_raw();
  Number::release_big(p);  // the copy's reference; [n] keeps its own
  return as_big(p);
}

bool is_canonical_infinity(const Number& n) {
  const BigNumber* b = heap_of(n);
  return b && (b == canonical_inf(false) || b == canonical_inf(true));
}

void free_immortal(const void* p) {
  const BigNumber* b = as_big(p);
  if (b->refs.load(std::memory_order_relaxed) == BigNumber::kImmortal && b != canonical_inf(false) &&
      b != canonical_inf(true) && b != float_inf(false) && b != float_inf(true))
    delete b;
}

std::optional<uint64_t> round_scaled(const Number& n, int k) {
  static constexpr uint64_t kPow10[20] = {1,
                                          10,
                                          100,
                                          1000,
                                          10000,
                                          100000,
                                          1000000,
                                          10000000,
                                          100000000,
                                          1000000000,
                                          10000000000,
                                          100000000000,
                                          1000000000000,
                                          10000000000000,
                                          100000000000000,
                                          1000000000000000,
                                          10000000000000000,
                                          100000000000000000,
                                          1000000000000000000,
                                          10000000000000000000u};
  if (k < 0 || k > 19) return std::nullopt;
  const BigNumber* b = heap_of(n);
  if (!b) {
    uint64_t r = 0;
    if (__builtin_mul_overflow(magnitude(n.small()), kPow10[k], &r)) return std::nullopt;
    return r;
  }
  mpfr_srcptr v = b->v;
  if (!mpfr_number_p(v)) return std::nullopt;
  if (mpfr_zero_p(v)) return 0;
  // |v| >= 2^(exp-1) and 10^k >= 2^(3k): from 2^64 on the answer cannot fit.
  if (mpfr_get_exp(v) - 1 + 3 * k >= 64) return std::nullopt;
  set_range();
  // A [prec]-bit number times a 64-bit one is exact at prec + 64 bits.
  Temp t(b->prec + 64);
  mpfr_mul_ui(t, v, static_cast<unsigned long>(kPow10[k]), MPFR_RNDN);
  mpfr_rint(t, t, MPFR_RNDN);  // to the nearest integer, ties to even
  if (mpfr_zero_p(t)) return 0;
  // A nonzero integer is at least 1, so 1 <= exp; it fits when exp <= 64,
  // and is then the top limb of the significand shifted down (MPFR's
  // getters would allocate a temporary to round).
  mpfr_exp_t e = mpfr_get_exp(t);
  if (e > 64) return std::nullopt;
  static_assert(GMP_NUMB_BITS == 64 && sizeof(mp_limb_t) == sizeof(uint64_t));
  const auto* limbs = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(t));
  size_t top = size_t((mpfr_get_prec(t) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS) - 1;
  return uint64_t(limbs[top]) >> (64 - e);
}

// Small: "s<prec>:<integer>". Heap: "b<prec>:" then "inf", "-inf", "0",
// "-0", or MPFR's base-16 digits (with their sign) "@" the base-16
// exponent: the value is 0.<digits> * 16^exponent, which MPFR reads back
// exactly at the same precision.
std::string encode_exact(const Number& n) {
  if (n.is_small()) return "s" + std::to_string(n.precision()) + ":" + std::to_string(n.small());
  const BigNumber* b = heap_of(n);
  std::string out = "b" + std::to_string(b->prec) + ":";
  mpfr_srcptr v = b->v;
  if (mpfr_inf_p(v)) return out + (mpfr_signbit(v) ? "-inf" : "inf");
  if (mpfr_zero_p(v)) return out + (mpfr_signbit(v) ? "-0" : "0");
  mpfr_exp_t exp = 0;
  char* digits = mpfr_get_str(nullptr, &exp, 16, 0, v, MPFR_RNDN);
  out += digits;
  mpfr_free_str(digits);
  return out + "@" + std::to_string(exp);
}

std::optional<Number> decode_exact(std::string_view text) {
  if (text.size() < 3 || (text[0] != 's' && text[0] != 'b')) return std::nullopt;
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon < 2 || colon > 11) return std::nullopt;
  uint64_t prec = 0;
  for (char c : text.substr(1, colon - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    prec = prec * 10 + uint64_t(c - '0');
  }
  // Precisions beyond what a program could hold are not ours.
  if (prec > (1u << 20)) return std::nullopt;
  std::string body(text.substr(colon + 1));
  if (body.empty()) return std::nullopt;
  if (text[0] == 's') {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(body.c_str(), &end, 10);
    if (errno != 0 || end != body.c_str() + body.size() || prec == 0) return std::nullopt;
    return Number::from_parts_small(v, uint32_t(prec));
  }
  set_range();
  if (body == "inf" || body == "-inf") {
    bool neg = body[0] == '-';
    if (prec == 0) return canonical_infinity(neg);
    return computed_infinity(neg, uint32_t(prec));
  }
  if (prec == 0) return std::nullopt;
  BigPtr b(new (uint32_t(prec)) BigNumber(uint32_t(prec)));
  if (body == "0" || body == "-0") {
    mpfr_set_zero(b->v, body[0] == '-' ? -1 : 1);
    return Number::adopt_big(b.release());
  }
  size_t at = body.find('@');
  if (at == std::string::npos) return std::nullopt;
  std::string digits = body.substr(0, at);
  bool neg = !digits.empty() && digits[0] == '-';
  if (neg) digits.erase(0, 1);
  if (digits.empty() || digits.size() > prec / 4 + 2) return std::nullopt;
  for (char c : digits)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long exp = std::strtoll(body.c_str() + at + 1, &end, 10);
  if (errno != 0 || end != body.c_str() + body.size() || exp < INT32_MIN / 4 || exp > INT32_MAX / 4)
    return std::nullopt;
  std::string lit = std::string(neg ? "-" : "") + "0." + digits + "@" + std::to_string(exp);
  if (mpfr_set_str(b->v, lit.c_str(), 16, MPFR_RNDN) != 0) return std::nullopt;
  return Number::adopt_big(b.release());
}

Number as_heap_for_testing(const Number& n) {
  if (!n.is_small()) return n;
  BigPtr b(new (n.precision()) BigNumber(n.precision()));
  mpfr_set_si(b->v, n.small(), kRound);  // exact: small numbers fit their precision
  return Number::adopt_big(b.release());
}

uint32_t ref_count_for_testing(const Number& n) {
  const BigNumber* b = heap_of(n);
  return b ? b->refs.load() : 0;
}

}  // namespace num

namespace {

// Sets [p] to 5^[n] as big.Float's pow5 computes it for a 512-bit parse:
// exact up to 5^27, then square-and-multiply with the product rounded to
// 576 bits and the running square to 640.
void pow5(mpfr_ptr p, uint64_t n) {
  constexpr uint64_t kTab = 27;  // 5^27 is the largest power of 5 in a uint64
  uint64_t q = 1;
  for (uint64_t i = 0; i < std::min(n, kTab); ++i) q *= 5;
  mpfr_set_ui(p, q, kRound);
  if (n <= kTab) return;
  n -= kTab;
  Temp f(kParsePrec + 128);
  mpfr_set_ui(f, 5, kRound);
  while (n > 0) {
    if (n & 1) mpfr_mul(p, p, f, kRound), fix(p);
    mpfr_mul(f, f, f, kRound), fix(f);
    n >>= 1;
  }
}

}  // namespace

// The accepted syntax is big.Float's for base 10: an optional sign, then
// "Inf" or "inf", or digits with at most one '.', at least one digit, and an
// optional exponent: 'e'/'E' (decimal) or 'p'/'P' (binary), an optional
// sign and decimal digits that fit an int64. No spaces, underscores or
// prefixes. The value is the digits as an exact integer M scaled by
// 2^exp2 and 5^exp5; like Go, we round M alone when there is no power of 5,
// and otherwise multiply or divide by 5^|exp5| computed as pow5() does.
std::optional<Number> Number::parse(std::string_view s) {
  // Short plain integers, the common case (JSON, configuration files): the
  // value is read here directly, as the general path below would read it.
  if (!s.empty() && s.size() <= 19) {
    bool neg = s[0] == '-';
    size_t i = neg || s[0] == '+' ? 1 : 0;
    if (s.size() - i <= 18 && i < s.size()) {
      int64_t v = 0;
      for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) v = v * 10 + (s[i] - '0');
      if (i == s.size()) {
        if (v == 0 && neg) return neg_zero(kParsePrec);
        return from_parts_small(neg ? -v : v, kParsePrec);
      }
    }
  }
  if (s == "Inf" || s == "inf") return num::computed_infinity(false, kParsePrec);
  if (s.size() == 4 && (s[0] == '+' || s[0] == '-') && (s.substr(1) == "Inf" || s.substr(1) == "inf"))
    return num::computed_infinity(s[0] == '-', kParsePrec);

  size_t i = 0, n = s.size();
  bool neg = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  size_t digits_begin = i;
  int64_t ndigits = 0, frac = 0;
  bool dot = false;
  for (; i < n; ++i) {
    char c = s[i];
    if (c == '.' && !dot) {
      dot = true;
    } else if (c >= '0' && c <= '9') {
      ++ndigits;
      if (dot) ++frac;
    } else {
      break;
    }
  }
  if (ndigits == 0) return std::nullopt;
  size_t digits_end = i;

  int64_t exp = 0;
  int ebase = 10;
  if (i < n && (s[i] == 'e' || s[i] == 'E' || s[i] == 'p' || s[i] == 'P')) {
    ebase = (s[i] == 'p' || s[i] == 'P') ? 2 : 10;
    ++i;
    bool eneg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    // strconv.ParseInt range: up to 2^63-1, down to -2^63.
    uint64_t limit = eneg ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1, mag = 0;
    size_t start = i;
    bool overflow = false;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i) {
      auto d = static_cast<uint64_t>(s[i] - '0');
      if (mag > (limit - d) / 10) overflow = true;
      else mag = mag * 10 + d;
    }
    if (i == start || overflow) return std::nullopt;
    exp = eneg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
  }
  if (i != n) return std::nullopt;

  // The mantissa digits without the dot and leading zeros.
  std::string digits;
  digits.reserve(static_cast<size_t>(ndigits));
  for (size_t k = digits_begin; k < digits_end; ++k)
    if (s[k] != '.' && !(digits.empty() && s[k] == '0')) digits.push_back(s[k]);
  if (digits.empty()) {
    if (neg) return neg_zero(kParsePrec);
    return from_parts_small(0, kParsePrec);
  }
  // Plain integers, the common case.
  if (frac == 0 && exp == 0 && digits.size() <= 18) {
    int64_t v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v);
    return from_parts_small(neg ? -v : v, kParsePrec);
  }

  // Reading the digits is the work that grows with the text: counted
  // before it starts (about 3.32 bits a digit).
  util::charge_number_work(uint64_t(digits.size()) * 10 / 3);
  Mpz m;
  mpz_set_str(m, digits.c_str(), 10);
  auto bits = static_cast<int64_t>(mpz_sizeinbase(m, 2));
  // exp2 is the binary exponent of the value before the power of 5. Go sums
  // it in an int64 that may wrap, but only where it is out of range anyway.
  int64_t exp2;
  if (__builtin_add_overflow(bits - frac, exp, &exp2) || exp2 < kMinExp || exp2 > kMaxExp)
    return std::nullopt;  // "exponent overflow"
  int64_t exp5 = ebase == 10 ? exp2 - bits : -frac;

  set_range();
  Temp x(static_cast<uint32_t>(bits));
  mpfr_set_z(x, m, kRound);  // exact: x has exactly the bits of M
  mpfr_mul_2si(x, x, static_cast<long>(exp2 - bits), kRound);
  if (neg) mpfr_neg(x, x, kRound);

  BigPtr b(new (kParsePrec) BigNumber(kParsePrec));
  if (exp5 == 0) {
    mpfr_set(b->v, x, kRound);
  } else {
    Temp p(kParsePrec + 64);
    pow5(p, static_cast<uint64_t>(exp5 < 0 ? -exp5 : exp5));
    if (exp5 < 0) mpfr_div(b->v, x, p, kRound);
    else mpfr_mul(b->v, x, p, kRound);
  }
  return finish(std::move(b));
}

// --- Text ----------------------------------------------------------------------

namespace {

using num::Decimal;

// Sets [num] and [k] so that [x] × 2^[e] = num / 10^k exactly ([pow] holds
// 5^-e when e < 0).
void scale(mpz_ptr num, mpz_srcptr x, int64_t e, mpz_srcptr pow) {
  if (e >= 0) mpz_mul_2exp(num, x, static_cast<mp_bitcnt_t>(e));
  else mpz_mul(num, x, pow);
}

// Sets [d] to the first [k] >= 2 digits of the exact decimal of [x] × 2^[e]
// ([x] > 0), with [more] telling whether nonzero digits follow. MPFR rounds
// its decimal output correctly at any exponent: truncated and rounded away
// from zero, the two agree exactly when nothing follows. The work grows
// with [k], not with [e].
void set_prefix(Decimal& d, mpz_srcptr x, int64_t e, size_t k) {
  mpfr_t v;
  mpfr_init2(v, std::max<mpfr_prec_t>(mpfr_prec_t(mpz_sizeinbase(x, 2)), MPFR_PREC_MIN));
  mpfr_set_z_2exp(v, x, mpfr_exp_t(e), MPFR_RNDN);  // exact: v has x's bits
  std::string away(k + 2, '\0');
  d.mant.assign(k + 2, '\0');
  mpfr_exp_t ez = 0, ea = 0;
  mpfr_get_str(d.mant.data(), &ez, 10, k, v, MPFR_RNDZ);
  mpfr_get_str(away.data(), &ea, 10, k, v, MPFR_RNDA);
  mpfr_clear(v);
  d.mant.resize(k);
  away.resize(k);
  d.exp = int64_t(ez);
  d.more = ez != ea || d.mant != away;
  if (!d.more) d.trim();
}

// Returns the digits of |m| × 2^e (nonzero, exact at [prec] >= 1 bits) as
// big.Float's roundShortest leaves them: the shortest decimal between the
// midpoints to the neighbours at [prec] bits (midpoints included when the
// mantissa is even). Like Go, the interval is symmetric even at powers of
// two, and the digit walk compares digit i of the value with digit i of
// each bound, wherever their decimal points are.
//
// Go expands the three numbers exactly, as we do while that is short. Far
// from 1 (1e100000000) the expansions have as many digits as the exponent
// says, but the walk never reads past the first ~0.3 × prec of them: the
// lower bound is below the value by at least 2^-(prec+1) of it, so the
// two differ within the first 1 + (prec+1) log10(2) digits, where the walk
// stops at the latest (reading one digit further to round). So there, only
// those prefixes are computed.
Decimal shortest_of(mpz_srcptr m, int64_t e, uint32_t prec, bool far_ok = true) {
  // Give the mantissa prec+1 bits, so that its lowest bit is half an ulp.
  Mpz mant, pow, num;
  mpz_abs(mant, m);
  auto shift = static_cast<int64_t>(mpz_sizeinbase(mant, 2)) - (static_cast<int64_t>(prec) + 1);
  if (shift < 0) mpz_mul_2exp(mant, mant, static_cast<mp_bitcnt_t>(-shift));
  else mpz_fdiv_q_2exp(mant, mant, static_cast<mp_bitcnt_t>(shift));
  e += shift;

  Decimal d, lower, upper;
  int64_t far = 2 * int64_t(prec) + 128;
  if (far_ok && prec > 0 && (e > far || e < -far)) {
    auto k = size_t((uint64_t(prec) + 1) * 30103 / 100000 + 8);
    util::charge_number_work(uint64_t(prec) * 6);  // six conversions of k digits
    // MPFR's exponents go far beyond big.Float's; the bounds may lie just
    // outside its range.
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    set_prefix(d, mant, e, k);
    mpz_sub_ui(num, mant, 1);
    set_prefix(lower, num, e, k);
    mpz_add_ui(num, mant, 1);
    set_prefix(upper, num, e, k);
    set_range();
  } else {
    // num has about prec + e bits, or prec + log2(5) |e| for e < 0.
    util::charge_number_work(uint64_t(prec) + uint64_t(e < 0 ? -e * 7 / 3 : e));
    int64_t k = e < 0 ? -e : 0;
    if (e < 0) mpz_ui_pow_ui(pow, 5, static_cast<unsigned long>(-e));
    scale(num, mant, e, pow);
    num::set_decimal(d, num, k);
    if (prec == 0) return d;
    mpz_sub_ui(num, mant, 1);
    scale(num, num, e, pow);
    num::set_decimal(lower, num, k);
    mpz_add_ui(num, mant, 1);
    scale(num, num, e, pow);
    num::set_decimal(upper, num, k);
  }
  bool inclusive = mpz_tstbit(mant, 1) == 0;
  for (int64_t i = 0; i < d.size(); ++i) {
    char l = lower.at(i), u = upper.at(i), c = d.at(i);
    bool okdown = l != c || (inclusive && i + 1 == lower.size());
    bool okup = c != u && (inclusive || c + 1 < u || i + 1 < upper.size());
    if (okdown && okup) {
      d.round(i + 1);
      break;
    }
    if (okdown) {
      d.round_down(i + 1);
      break;
    }
    if (okup) {
      d.round_up(i + 1);
      break;
    }
  }
  assert(!d.more);
  return d;
}

// The length of append_fixed's text of [d].
int64_t fixed_length(const Decimal& d) {
  int64_t whole = d.exp > 0 ? d.exp : 1;
  int64_t frac = std::max<int64_t>(d.size() - d.exp, 0);
  return whole + (frac > 0 ? 1 + frac : 0);
}

// Appends [d] in %f form with just enough fraction digits, as big.Float's
// fmtF with the shortest precision.
void append_fixed(std::string& out, const Decimal& d) {
  num::append_f(out, std::max<int64_t>(d.size() - d.exp, 0), d);
}

// The shortest decimal of the small number [i] != 0 at [prec] bits (its
// text without the sign).
Decimal shortest_small(int64_t i, uint32_t prec) {
  if (prints_digits(i, prec)) {
    Decimal d;
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, magnitude(i));
    d.mant.assign(buf, r.ptr);
    d.exp = d.size();
    d.trim();
    return d;
  }
  Mpz m;
  mpz_set_ui(m, magnitude(i));
  return shortest_of(m, 0, prec);
}

// The shortest decimal of the finite, nonzero heap number [b] (its text
// without the sign).
Decimal shortest_big(const BigNumber* b) {
  Mpz m;
  mpfr_exp_t e = mpfr_get_z_2exp(m, b->v);
  return shortest_of(m, e, b->prec);
}

}  // namespace

namespace num {

// Whether the finite [n]'s text is long: its exponent puts it far from 1,
// where shortest_of takes only the first digits.
static bool is_far(const Number& n) {
  const BigNumber* b = heap_of(n);
  if (!b || !mpfr_regular_p(b->v)) return false;
  int64_t e = mpfr_get_exp(b->v), far = 2 * int64_t(b->prec) + 128;
  return e > far || e < -far;
}

}  // namespace num

namespace {

// Returns the text of the heap number [b] (uncached). Its length is known
// before it is written: a run checks it against its string limit and
// counts the bytes kept with the number (util/budget.h).
std::string big_text(const BigNumber* b) {
  mpfr_srcptr v = b->v;
  std::string out;
  if (mpfr_signbit(v)) out.push_back('-');
  if (mpfr_inf_p(v)) {
    if (!mpfr_signbit(v)) out.push_back('+');
    out += "Inf";
    return out;
  }
  if (mpfr_zero_p(v)) {
    out.push_back('0');
    return out;
  }
  Decimal d = shortest_big(b);
  auto bytes = uint64_t(fixed_length(d)) + out.size();
  util::check_string_size(bytes);
  util::charge_memory(bytes);
  out.reserve(bytes);
  append_fixed(out, d);
  return out;
}

}  // namespace

std::string Number::text() const {
  std::string out;
  append_text(out);
  return out;
}

void Number::append_text(std::string& out) const {
  if (!big_) {
    if (prints_digits(i_, prec_)) {
      char buf[24];
      auto r = std::to_chars(buf, buf + sizeof buf, i_);
      out.append(buf, r.ptr);
      return;
    }
    // More bits than the precision: the shortest decimal may end in zeros.
    if (i_ < 0) out.push_back('-');
    Mpz m;
    mpz_set_ui(m, magnitude(i_));
    append_fixed(out, shortest_of(m, 0, prec_));
    return;
  }
  const BigNumber* b = as_big(p_);
  const std::string* t = b->text.load(std::memory_order_acquire);
  if (!t) {
    auto* mine = new std::string(big_text(b));
    const std::string* expected = nullptr;
    if (b->text.compare_exchange_strong(expected, mine, std::memory_order_acq_rel)) {
      t = mine;
    } else {
      delete mine;
      t = expected;
    }
  }
  out += *t;
}

namespace num {

bool same_text(const Number& a, const Number& b) {
  if (a.is_inf() || b.is_inf()) return a.is_inf() && b.is_inf() && a.sign() == b.sign();
  if (a.sign() != b.sign()) return false;
  if (a.sign() == 0) return true;  // "-0" and "0" count as one
  // The texts, when they are short (kept with the numbers once computed:
  // sets and distinct compare the same numbers many times); the digits
  // alone when either is far from 1.
  if (!is_far(a) && !is_far(b)) return a.text() == b.text();
  const BigNumber* ba = heap_of(a);
  const BigNumber* bb = heap_of(b);
  set_range();
  Decimal da = ba ? shortest_big(ba) : shortest_small(a.small(), a.precision());
  return da == (bb ? shortest_big(bb) : shortest_small(b.small(), b.precision()));
}

void set_decimal(Decimal& d, mpz_srcptr num, int64_t k) {
  d.more = false;
  d.mant.resize(mpz_sizeinbase(num, 10) + 2);
  mpz_get_str(d.mant.data(), 10, num);
  d.mant.resize(std::strlen(d.mant.c_str()));
  d.exp = d.size() - k;
  d.trim();
}

Decimal shortest_decimal(const Number& n) {
  if (n.sign() == 0) return {};
  const BigNumber* b = heap_of(n);
  set_range();
  return b ? shortest_big(b) : shortest_small(n.small(), n.precision());
}

void append_f(std::string& out, int64_t prec, const Decimal& d) {
  // The digits are written at once: a number as small as 1e100000000 has
  // a hundred million of them, so their count is checked first.
  util::check_string_size(uint64_t(std::max<int64_t>(d.exp, 1)) +
                          uint64_t(std::max<int64_t>(prec, 0)) + 2);
  auto len = static_cast<int64_t>(d.mant.size());
  if (d.exp > 0) {
    out.append(d.mant, 0, static_cast<size_t>(std::min(len, d.exp)));
    if (d.exp > len) out.append(static_cast<size_t>(d.exp - len), '0');
  } else {
    out.push_back('0');
  }
  if (prec <= 0) return;
  // Fraction digits d.exp .. d.exp + prec - 1: zeros before the digits,
  // the digits there, zeros after them.
  out.push_back('.');
  int64_t at = d.exp, end = d.exp + prec;
  if (at < 0) {
    int64_t zeros = std::min(end, int64_t(0)) - at;
    out.append(static_cast<size_t>(zeros), '0');
    at += zeros;
  }
  if (at < end && at < len) {
    int64_t stop = std::min(end, len);
    out.append(d.mant, static_cast<size_t>(at), static_cast<size_t>(stop - at));
    at = stop;
  }
  if (at < end) out.append(static_cast<size_t>(end - at), '0');
}

void append_e(std::string& out, char fmt, int64_t prec, const Decimal& d) {
  out += d.mant.empty() ? '0' : d.mant[0];
  if (prec > 0) {
    out += '.';
    int64_t m = std::min<int64_t>(int64_t(d.mant.size()), prec + 1);
    if (m > 1) out.append(d.mant, 1, size_t(m - 1));
    else m = 1;
    out.append(size_t(prec + 1 - m), '0');
  }
  out += fmt;
  int64_t exp = d.mant.empty() ? 0 : d.exp - 1;
  out += exp < 0 ? '-' : '+';
  if (exp < 0) exp = -exp;
  if (exp < 10) out += '0';
  out += std::to_string(exp);
}

void to_mpfr(const Number& n, mpfr_ptr x) {
  const BigNumber* b = heap_of(n);
  mpfr_prec_t prec = b ? std::max<mpfr_prec_t>(b->prec, MPFR_PREC_MIN) : 64;
  if (prec > mpfr_prec_t(util::kFreeNumberBits)) {
    util::charge_memory(mpfr_custom_get_size(prec));
    util::charge_number_work(uint64_t(prec));
  }
  mpfr_init2(x, prec);
  if (b) mpfr_set(x, b->v, kRound);  // exact: the same precision
  else mpfr_set_si(x, n.small(), kRound);
}

std::string text_exact_for_testing(const Number& n) {
  const BigNumber* b = heap_of(n);
  if (!b || !mpfr_regular_p(b->v)) return n.text();
  set_range();
  Mpz m;
  mpfr_exp_t e = mpfr_get_z_2exp(m, b->v);
  std::string out = mpfr_signbit(b->v) ? "-" : "";
  append_fixed(out, shortest_of(m, e, b->prec, /*far_ok=*/false));
  return out;
}

}  // namespace num

// --- Arithmetic ----------------------------------------------------------------

// Both operands small, in Number's members.
#define BOTH_SMALL(a, b) (!(a).big_ && !(b).big_)

Number Number::add(const Number& a, const Number& b, NumError& err) {
  uint32_t prec = std::max(a.precision(), b.precision());
  if (BOTH_SMALL(a, b)) {
    int64_t r;
    if (!__builtin_add_overflow(a.i_, b.i_, &r) && fits_prec(r, prec)) return from_parts_small(r, prec);
  }
  if (a.is_inf() && b.is_inf() && a.sign() != b.sign()) {
    err = NumError::OpposingInfinities;
    return Number();
  }
  set_range();
  BigPtr r(new (prec) BigNumber(prec));
  // A nonzero machine integer and a heap number: added without making an
  // MPFR number of the integer (the same correctly rounded sum; a zero is
  // left to mpfr_add, which gives -0 + 0 the IEEE sign).
  if (a.big_ != b.big_ && (a.big_ ? b.i_ : a.i_) != 0) {
    const Number& big = a.big_ ? a : b;
    mpfr_add_si(r->v, as_big(big.p_)->v, a.big_ ? b.i_ : a.i_, kRound);
    return finish(std::move(r));
  }
  View x = VIEW(a), y = VIEW(b);
  mpfr_add(r->v, x, y, kRound);
  return finish(std::move(r));
}

// cty subtracts by adding the negation; the rounding and the signs of zero
// are those of an IEEE subtraction.
Number Number::sub(const Number& a, const Number& b, NumError& err) {
  uint32_t prec = std::max(a.precision(), b.precision());
  if (BOTH_SMALL(a, b)) {
    int64_t r;
    if (!__builtin_sub_overflow(a.i_, b.i_, &r) && fits_prec(r, prec)) return from_parts_small(r, prec);
  }
  if (a.is_inf() && b.is_inf() && a.sign() == b.sign()) {
    err = NumError::OpposingInfinities;
    return Number();
  }
  set_range();
  View x = VIEW(a), y = VIEW(b);
  BigPtr r(new (prec) BigNumber(prec));
  mpfr_sub(r->v, x, y, kRound);
  return finish(std::move(r));
}

// cty's Multiply rounds the product to 512 bits, then keeps the larger of
// the operand precisions and the bits the rounded product needs: 64-bit
// operands can give a 96-bit result.
Number Number::mul(const Number& a, const Number& b, NumError& err) {
  uint32_t prec = std::max(a.precision(), b.precision());
  if (BOTH_SMALL(a, b)) {
    int64_t r;
    if (!__builtin_mul_overflow(a.i_, b.i_, &r) && (r != 0 || (a.i_ >= 0 && b.i_ >= 0)))
      return from_parts_small(r, std::max<uint32_t>(prec, static_cast<uint32_t>(sig_bits(magnitude(r)))));
  }
  if ((a.sign() == 0 && b.is_inf()) || (a.is_inf() && b.sign() == 0)) {
    err = NumError::ZeroTimesInfinity;
    return Number();
  }
  set_range();
  View x = VIEW(a), y = VIEW(b);
  Temp t(kParsePrec);
  mpfr_mul(t, x, y, kRound);
  fix(t);
  prec = std::max<uint32_t>(prec, static_cast<uint32_t>(mpfr_min_prec(t)));
  BigPtr r(new (prec) BigNumber(prec));
  mpfr_set(r->v, t, kRound);  // exact: prec covers the product's bits
  return finish(std::move(r));
}

Number Number::quo(const Number& a, const Number& b, NumError& err) {
  uint32_t prec = std::max(a.precision(), b.precision());
  if (BOTH_SMALL(a, b) && b.i_ != 0 && !(a.i_ == INT64_MIN && b.i_ == -1) && a.i_ % b.i_ == 0) {
    int64_t r = a.i_ / b.i_;
    if ((r != 0 || b.i_ > 0) && fits_prec(r, prec)) return from_parts_small(r, prec);
  }
  if ((a.sign() == 0 && b.sign() == 0) || (a.is_inf() && b.is_inf())) {
    err = NumError::ZeroDivZero;
    return Number();
  }
  set_range();
  View x = VIEW(a), y = VIEW(b);
  BigPtr r(new (prec) BigNumber(prec));
  mpfr_div(r->v, x, y, kRound);
  return finish(std::move(r));
}

// cty's Modulo, step by step:
//   1. either operand is cty.PositiveInfinity/NegativeInfinity itself (by
//      identity): the result is their product;
//   2. b is ±0: the result is a, unchanged;
//   3. q = a/b at max(pa, pb) bits, truncated to an integer (an infinite q
//      makes the reference dereference a nil big.Int), then rounded to pa
//      bits (+0 for zero); m = b*q and r = a-m, both rounded to pa bits.
// So the result has a's precision. For small integers with pa >= 64 every
// step is exact, and r is C++'s remainder (sign of a, +0 for zero): the
// quotient's rounding at >= 64 bits cannot cross an integer, because
// |a/b| < 2^63 leaves a gap of at least 1/|b| > half an ulp to the next one.
Number Number::mod(const Number& a, const Number& b, NumError& err) {
  auto canonical = [](const Number& n) {
    return n.big_ && (n.p_ == canonical_inf(false) || n.p_ == canonical_inf(true));
  };
  if (canonical(a) || canonical(b)) return mul(a, b, err);  // ZeroTimesInfinity for 0
  if (b.sign() == 0) return a;
  uint32_t pa = a.precision();
  if (BOTH_SMALL(a, b) && pa >= 64 && a.i_ != INT64_MIN && b.i_ != INT64_MIN) return from_parts_small(a.i_ % b.i_, pa);
  if (a.is_inf()) {
    err = b.is_inf() ? NumError::ZeroDivZero : NumError::ModuloInfinity;
    return Number();
  }
  set_range();
  View x = VIEW(a), y = VIEW(b);
  Temp q(std::max(pa, b.precision()));
  mpfr_div(q, x, y, kRound);
  fix(q);
  if (mpfr_inf_p(q)) {
    err = NumError::ModuloInfinity;
    return Number();
  }
  mpfr_trunc(q, q);
  if (mpfr_zero_p(q)) mpfr_set_zero(q, 1);
  if (b.is_inf()) {  // Inf * 0
    err = NumError::ZeroTimesInfinity;
    return Number();
  }
  BigPtr r(new (pa) BigNumber(pa));
  mpfr_set(r->v, q, kRound);
  fix(r->v);
  mpfr_mul(r->v, y, r->v, kRound);
  fix(r->v);
  mpfr_sub(r->v, x, r->v, kRound);
  return finish(std::move(r));
}

Number Number::neg() const {
  if (!big_) {
    if (i_ == 0) return neg_zero(prec_);
    if (i_ != INT64_MIN) return from_parts_small(-i_, prec_);
  }
  set_range();
  View x = VIEW(*this);
  BigPtr r(new (precision()) BigNumber(precision()));
  mpfr_neg(r->v, x, kRound);
  return finish(std::move(r));
}

Number Number::abs() const {
  if (!big_ && i_ != INT64_MIN) return from_parts_small(i_ < 0 ? -i_ : i_, prec_);
  set_range();
  View x = VIEW(*this);
  BigPtr r(new (precision()) BigNumber(precision()));
  mpfr_abs(r->v, x, kRound);
  return finish(std::move(r));
}

// cty's floor and ceil: integers unchanged; an infinity comes back as a
// copy (so never the canonical one); otherwise the integer below or above,
// rounded back to the operand's precision, +0 for zero.
namespace {

// floor([x]) (ceil when [up]) of a finite heap number below 2^62 in size,
// read off its significand (what mpfr_rint_floor/ceil and finish() give:
// an integer of at most the operand's bits, and a zero is +0), or nullopt.
// MPFR's own rounding to an integer allocates a temporary each call.
std::optional<int64_t> rounded_int(mpfr_srcptr x, bool up) {
  if (mpfr_zero_p(x)) return 0;
  if (!mpfr_regular_p(x)) return std::nullopt;
  mpfr_exp_t e = mpfr_get_exp(x);  // |x| in [2^(e-1), 2^e)
  if (e > 62) return std::nullopt;
  const auto* d = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(x));
  size_t n = size_t((mpfr_get_prec(x) - 1) / GMP_NUMB_BITS + 1);  // most significant last
  uint64_t whole = 0;
  bool frac = true;
  if (e > 0) {
    uint64_t top = d[n - 1];
    whole = top >> (64 - e);
    frac = (top << e) != 0;
    for (size_t i = 0; i + 1 < n && !frac; ++i) frac = d[i] != 0;
  }
  bool neg = mpfr_signbit(x) != 0;
  int64_t r = neg ? -int64_t(whole) : int64_t(whole);
  if (frac && !up && neg) --r;
  if (frac && up && !neg) ++r;
  return r;
}

}  // namespace

Number Number::floor() const {
  if (!big_) return *this;
  if (is_inf()) return num::computed_infinity(sign() < 0, precision());
  if (std::optional<int64_t> r = rounded_int(as_big(p_)->v, false))
    return from_parts_small(*r, precision());
  set_range();
  BigPtr r(new (precision()) BigNumber(precision()));
  mpfr_rint_floor(r->v, as_big(p_)->v, kRound);
  if (mpfr_zero_p(r->v)) mpfr_set_zero(r->v, 1);
  return finish(std::move(r));
}

Number Number::ceil() const {
  if (!big_) return *this;
  if (is_inf()) return num::computed_infinity(sign() < 0, precision());
  if (std::optional<int64_t> r = rounded_int(as_big(p_)->v, true))
    return from_parts_small(*r, precision());
  set_range();
  BigPtr r(new (precision()) BigNumber(precision()));
  mpfr_rint_ceil(r->v, as_big(p_)->v, kRound);
  if (mpfr_zero_p(r->v)) mpfr_set_zero(r->v, 1);
  return finish(std::move(r));
}

// cty's int: integers (and infinities, which the reference cannot
// truncate) unchanged; others truncated into a new big.Float, which takes
// max(bit length, 64) bits.
Number Number::trunc() const {
  if (is_integer() || is_inf()) return *this;
  set_range();
  Mpz z;
  mpfr_get_z(z, as_big(p_)->v, MPFR_RNDZ);
  return num::from_mpz(z);
}

// --- Comparison and inspection ------------------------------------------

int Number::cmp(const Number& a, const Number& b) {
  if (BOTH_SMALL(a, b)) return (a.i_ > b.i_) - (a.i_ < b.i_);
  set_range();  // MPFR wants its inputs within the current range
  View x = VIEW(a), y = VIEW(b);
  int c = mpfr_cmp(x, y);
  return (c > 0) - (c < 0);
}

// Texts are compared only when cheaper tests cannot decide. A number's text
// lies within half an ulp of it (big.Float's interval at its precision), so
// numbers further apart than the larger ulp print differently.
bool Number::equal(const Number& a, const Number& b) {
  int sa = a.sign();
  if (sa != b.sign()) return false;
  if (a.is_inf() || b.is_inf()) return a.is_inf() && b.is_inf();
  if (sa == 0) return true;  // both zeros, whatever their signs
  if (BOTH_SMALL(a, b) && prints_digits(a.i_, a.prec_) && prints_digits(b.i_, b.prec_)) return a.i_ == b.i_;
  uint32_t pa = a.precision(), pb = b.precision();
  set_range();
  View x = VIEW(a), y = VIEW(b);
  if (pa == pb && mpfr_equal_p(x, y)) return true;  // the text depends on value and precision only
  mpfr_exp_t ulp = std::max(mpfr_get_exp(x) - static_cast<mpfr_exp_t>(pa), mpfr_get_exp(y) - static_cast<mpfr_exp_t>(pb));
  Temp d(64);
  mpfr_sub(d, x, y, MPFR_RNDZ);  // |d| <= |x - y|
  mpfr_abs(d, d, kRound);
  if (mpfr_cmp_ui_2exp(d, 1, ulp) > 0) return false;
  return num::same_text(a, b);
}

bool Number::is_integer() const { return !big_ || mpfr_integer_p(as_big(p_)->v); }

int Number::sign() const {
  if (!big_) return (i_ > 0) - (i_ < 0);
  return mpfr_sgn(as_big(p_)->v);
}

bool Number::is_inf() const { return big_ && mpfr_inf_p(as_big(p_)->v); }

bool Number::is_negative_zero() const {
  return big_ && mpfr_zero_p(as_big(p_)->v) && mpfr_signbit(as_big(p_)->v);
}

std::optional<int64_t> Number::to_int64() const {
  if (!big_) return i_;
  mpfr_srcptr v = as_big(p_)->v;
  if (!mpfr_integer_p(v) || !mpfr_fits_slong_p(v, kRound)) return std::nullopt;
  return mpfr_get_si(v, kRound);
}

std::optional<uint64_t> Number::to_uint64() const {
  if (!big_) return i_ >= 0 ? std::optional<uint64_t>(static_cast<uint64_t>(i_)) : std::nullopt;
  mpfr_srcptr v = as_big(p_)->v;
  if (!mpfr_integer_p(v) || !mpfr_fits_ulong_p(v, kRound)) return std::nullopt;
  return mpfr_get_ui(v, kRound);
}

// big.Float Float64: nearest even, subnormals, ±Inf beyond the range.
double Number::to_double() const {
  if (!big_) return static_cast<double>(i_);
  set_range();
  return mpfr_get_d(as_big(p_)->v, kRound);
}

#undef BOTH_SMALL
#undef VIEW

}  // namespace hclvm

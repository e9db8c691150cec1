// Numeric functions, as go-cty's stdlib number.go defines them: abs, ceil,
// floor, log, max, min, parseint, pow, signum.
//
// log and pow compute in float64 as cty does, through Go's own algorithms
// (gomath.h): the C library's log and pow differ from Go's math package in
// the last bits.
#include <gmp.h>

#include <cctype>
#include <cmath>
#include <string>

#include "funcs/funcs.h"
#include "funcs/gomath.h"
#include "value/number.h"
#include "value/ops.h"

namespace hclvm::funcs {

namespace {

const Type* num() { return Type::number(); }

// math.MaxFloat64 as Go's %f prints it.
constexpr const char* kMaxFloat64 =
    "17976931348623157081452742373170435679807056752584499659891747680315726078002853876058955"
    "86327668781715404589535143824642343213268894641827684675467035375169860499105765512820762"
    "45490090389328944075868508455133942304583236903222948165808559332123348274797826204144723"
    "168738177180919299881250404026184124858368.000000";

// Reads [v] as a Go float64 the way gocty does: [err] set when the number
// is beyond float64's range.
bool to_float(const Value& v, double& out, std::string& err) {
  Number n = v.as_number();
  double d = n.to_double();
  if (std::isinf(d) && !n.is_inf()) {
    err =
        std::string("value must be between -") + kMaxFloat64 + " and " + kMaxFloat64 + " inclusive";
    return false;
  }
  out = d;
  return true;
}

// A float64 result as cty.NumberFloatVal makes it; cty panics on NaN, which
// its function layer turns into an error.
FuncResult float_result(double d) {
  if (std::isnan(d))
    return FuncResult::fail("panic in function implementation: Float.SetFloat64(NaN)");
  return FuncResult::of(Value::number(Number::from_double(d)));
}

Function abs_fn() {
  Function f;
  f.description =
      "If the given number is negative then returns its positive equivalent, or otherwise "
      "returns the given number unchanged.";
  f.params = {param("num", num(), kDynamic | kMarked)};
  f.returns(num());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    ops::Result r = ops::absolute(args[0]);
    if (!r.ok()) return FuncResult::fail(r.error);
    return FuncResult::of(std::move(r.value));
  };
  return f;
}

// ceil or floor, by [up].
Function round_fn(bool up) {
  Function f;
  f.description = up ? "Returns the smallest whole number that is greater than or equal to the "
                       "given value."
                     : "Returns the greatest whole number that is less than or equal to the "
                       "given value.";
  f.params = {param("num", num())};
  f.returns(num());
  f.result_not_null = true;
  f.impl = [up](std::span<const Value> args, const Type*) {
    Number n = args[0].as_number();
    if (n.is_inf()) return FuncResult::of(args[0]);
    return FuncResult::of(Value::number(up ? n.ceil() : n.floor()));
  };
  return f;
}

// max or min, by [greatest].
Function extreme_fn(bool greatest) {
  Function f;
  f.description = greatest ? "Returns the numerically greatest of all of the given numbers."
                           : "Returns the numerically smallest of all of the given numbers.";
  f.var_param = param("numbers", num(), kDynamic);
  f.returns(num());
  f.result_not_null = true;
  f.impl = [greatest](std::span<const Value> args, const Type*) {
    if (args.empty()) return FuncResult::fail("must pass at least one number");
    // cty starts from its infinity singletons, which the result is when
    // no argument beats them (num::canonical_infinity explains why that
    // matters).
    Value best = Value::number(num::canonical_infinity(/*negative=*/greatest));
    for (const Value& a : args) {
      int c;
      if (a.is_small_int() && best.is_small_int())  // machine words compare as such
        c = a.small_int() < best.small_int() ? -1 : a.small_int() > best.small_int() ? 1 : 0;
      else
        c = Number::cmp(a.as_number(), best.as_number());
      if (greatest ? c > 0 : c < 0) best = a;
    }
    return FuncResult::of(std::move(best));
  };
  return f;
}

Function log_fn() {
  Function f;
  f.description = "Returns the logarithm of the given number in the given base.";
  f.params = {param("num", num()), param("base", num())};
  f.returns(num());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    double x = 0, base = 0;
    std::string err;
    if (!to_float(args[0], x, err) || !to_float(args[1], base, err)) return FuncResult::fail(err);
    return float_result(gomath::log(x) / gomath::log(base));
  };
  return f;
}

Function pow_fn() {
  Function f;
  f.description = "Returns the given number raised to the given power (exponentiation).";
  f.params = {param("num", num()), param("power", num())};
  f.returns(num());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    double x = 0, p = 0;
    std::string err;
    if (!to_float(args[0], x, err) || !to_float(args[1], p, err)) return FuncResult::fail(err);
    return float_result(gomath::pow(x, p));
  };
  return f;
}

Function signum_fn() {
  Function f;
  f.description =
      "Returns 0 if the given number is zero, 1 if the given number is positive, or -1 if the "
      "given number is negative.";
  f.params = {param("num", num())};
  f.returns(num());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    int64_t i = 0;
    std::string err;
    if (!to_int(args[0], i, err)) return FuncResult::fail(err);
    return FuncResult::of(Value::integer(i < 0 ? -1 : i > 0 ? 1 : 0));
  };
  return f;
}

// An owned GMP integer (a limit may end the work that holds it).
struct Z {
  mpz_t v;
  Z() { mpz_init(v); }
  ~Z() { mpz_clear(v); }
  Z(const Z&) = delete;
  Z& operator=(const Z&) = delete;
};

// The value of digit [c] in Go's big.Int.SetString for [base], or -1.
int digit_value(char c, int base) {
  int d = -1;
  if (c >= '0' && c <= '9')
    d = c - '0';
  else if (c >= 'a' && c <= 'z')
    d = c - 'a' + 10;
  else if (c >= 'A' && c <= 'Z')
    d = base <= 36 ? c - 'A' + 10 : c - 'A' + 36;
  return d < base ? d : -1;
}

Function parseint_fn() {
  Function f;
  f.description =
      "Parses the given string as a number of the given base, or raises an error if the "
      "string contains invalid characters.";
  f.params = {param("number", Type::dynamic()), param("base", num())};
  f.type = [](std::span<const Value> args) {
    if (args[0].type() != Type::string()) {
      return type_error("first argument must be a string, not " + args[0].type()->friendly_name(),
                        0);
    }
    return type_ok(num());
  };
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    std::string_view s = args[0].as_string();
    int64_t base = 0;
    std::string err;
    if (!to_int(args[1], base, err)) return arg_error(err, 1);
    if (base < 2 || base > 62) {
      return arg_error("base must be a whole number between 2 and 62 inclusive", 1);
    }
    auto fail = [&] {
      return arg_error(
          "cannot parse " + quote(s) + " as a base " + std::to_string(base) + " integer", 0);
    };
    size_t i = 0;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i == s.size()) return fail();
    // Checked digit by digit as Go's SetString reads them, then read all at
    // once by GMP (in time n log n, where a digit at a time is quadratic),
    // which wants letters the other way round above base 36: Go's a-z are
    // 10-35 there, GMP's A-Z.
    std::string digits(s.substr(i));
    for (char& c : digits) {
      if (digit_value(c, int(base)) < 0) return fail();
      if (base > 36 && std::isalpha(static_cast<unsigned char>(c)))
        c = std::islower(static_cast<unsigned char>(c)) ? char(std::toupper(c)) : char(std::tolower(c));
    }
    util::charge_number_work(uint64_t(double(digits.size()) * std::log2(double(base))) + 1);
    Z z;
    mpz_set_str(z.v, digits.c_str(), int(base));
    if (neg) mpz_neg(z.v, z.v);
    return FuncResult::of(Value::number(num::from_mpz(z.v)));
  };
  return f;
}

}  // namespace

void add_numeric_functions(FunctionTable& t) {
  add(t, "abs", abs_fn());
  add(t, "ceil", round_fn(true));
  add(t, "floor", round_fn(false));
  add(t, "log", log_fn());
  add(t, "max", extreme_fn(true));
  add(t, "min", extreme_fn(false));
  add(t, "parseint", parseint_fn());
  add(t, "pow", pow_fn());
  add(t, "signum", signum_fn());
}

}  // namespace hclvm::funcs

// Tests for the number core (value/number.h): parsing and printing as
// big.Float does, cty's precision rules, -0, infinities and the errors for
// NaN cases, equality by text, the int64 fast paths against the MPFR path,
// and the differential golden data of tests/golden/numbers/cases.tsv, whose
// expected answers come from the reference (gen.py runs the oracle).
// Expected values in the tables below come from the oracle (gohcl-bench
// eval) unless they follow from a rule stated beside them.
#include "value/decimal.h"
#include "value/number.h"
#include "value/ops.h"

#include "test_util.h"

#include <gmp.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace hclvm {
namespace {

// Returns the number [s] parses to; fails the test if it does not parse.
Number num(std::string_view s) {
  auto n = Number::parse(s);
  EXPECT_TRUE(n.has_value()) << "cannot parse " << s;
  return n ? *n : Number();
}

// The outcome of an arithmetic operation [op] ('+', '-', '*', '/', '%').
struct Result {
  Number value;
  NumError error = NumError::None;
  char op = 0;
  explicit operator bool() const { return error == NumError::None; }
};

// Returns [a] [op] [b] through Number's arithmetic.
Result arith(char op, const Number& a, const Number& b) {
  Result r;
  r.op = op;
  switch (op) {
    case '+': r.value = Number::add(a, b, r.error); break;
    case '-': r.value = Number::sub(a, b, r.error); break;
    case '*': r.value = Number::mul(a, b, r.error); break;
    case '/': r.value = Number::quo(a, b, r.error); break;
    case '%': r.value = Number::mod(a, b, r.error); break;
    default: ADD_FAILURE() << "bad operator " << op;
  }
  return r;
}

// Returns the text of [r], or "error: MESSAGE".
std::string show(const Result& r) {
  if (!r) return "error: " + std::string(Number::error_message(r.error, r.op));
  return r.value.text();
}

// Reports whether [a] and [b] are the same number: value, sign of zero,
// precision and, when [form], representation.
::testing::AssertionResult same(const Number& a, const Number& b, bool form = true) {
  if ((form && a.is_small() != b.is_small()) || a.precision() != b.precision() || a.text() != b.text() ||
      num::signbit(a) != num::signbit(b) || (form && a.is_small() && a.small() != b.small()) || Number::cmp(a, b) != 0)
    return ::testing::AssertionFailure() << a.text() << "@" << a.precision() << (a.is_small() ? " small" : " big")
                                         << " vs " << b.text() << "@" << b.precision()
                                         << (b.is_small() ? " small" : " big");
  return ::testing::AssertionSuccess();
}

// --- Recipes: the operand language of cases.tsv ----------------------------

// Evaluates the fully parenthesised HCL subset gen.py writes operands in:
// decimal literals, (-X), (X op Y), parseint("N",10), pow(X,Y),
// tonumber("S"), min(X) and max(X), each as the reference computes it.
class Recipe {
 public:
  explicit Recipe(std::string_view s) : s_(s) {}

  // Returns the value of the whole recipe, or nothing (with [error] set)
  // when it is malformed or an operation fails.
  std::optional<Number> eval(std::string* error) {
    auto n = expr();
    if (n && i_ != s_.size()) fail("trailing text");
    if (!n || !error_.empty()) {
      *error = error_.empty() ? "malformed" : error_;
      return std::nullopt;
    }
    return n;
  }

 private:
  std::optional<Number> expr() {
    if (eat("(-")) {
      auto x = expr();
      if (!x || !eat(")")) return fail("bad negation");
      return x->neg();
    }
    if (eat("(")) {
      auto x = expr();
      if (!x || i_ >= s_.size()) return fail("bad group");
      char op = s_[i_++];
      auto y = expr();
      if (!y || !eat(")")) return fail("bad operation");
      if (std::string_view("+-*/%").find(op) == std::string_view::npos) return fail("bad operator");
      Result r = arith(op, *x, *y);
      if (!r) return fail(show(r));
      return r.value;
    }
    if (eat("parseint(\"")) {
      std::string digits = until('"');
      if (!eat("\",10)")) return fail("bad parseint");
      mpz_t z;
      mpz_init_set_str(z, digits.c_str(), 10);
      Number n = num::from_mpz(z);
      mpz_clear(z);
      return n;
    }
    if (eat("tonumber(\"")) {
      std::string text = until('"');
      if (!eat("\")")) return fail("bad tonumber");
      auto n = Number::parse(text);
      if (!n) return fail("tonumber: cannot parse");
      return n;
    }
    if (eat("pow(")) {
      auto x = expr();
      if (!x || !eat(",")) return fail("bad pow");
      auto y = expr();
      if (!y || !eat(")")) return fail("bad pow exponent");
      // Go's math.Pow and C's pow agree on the powers the data uses (x^1,
      // 2^k and 2^0.5, all exact or correctly rounded).
      return Number::from_double(std::pow(x->to_double(), y->to_double()));
    }
    for (bool is_min : {true, false}) {
      if (eat(is_min ? "min(" : "max(")) {
        auto x = expr();
        if (!x || !eat(")")) return fail("bad min/max");
        // cty's min and max start from the canonical infinities.
        Number best = num::canonical_infinity(!is_min);
        int c = Number::cmp(*x, best);
        return (is_min ? c < 0 : c > 0) ? *x : best;
      }
    }
    size_t start = i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e' ||
                              s_[i_] == 'E' || ((s_[i_] == '+' || s_[i_] == '-') && i_ > start &&
                                                (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E'))))
      ++i_;
    if (i_ == start) return fail("expected a number");
    auto n = Number::parse(s_.substr(start, i_ - start));
    if (!n) return fail("bad literal");
    return n;
  }

  bool eat(std::string_view t) {
    if (s_.substr(i_, t.size()) != t) return false;
    i_ += t.size();
    return true;
  }
  std::string until(char c) {
    size_t start = i_;
    while (i_ < s_.size() && s_[i_] != c) ++i_;
    return std::string(s_.substr(start, i_ - start));
  }
  std::optional<Number> fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return std::nullopt;
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string error_;
};

// --- Golden data ---------------------------------------------------------------

// Checks that [n] has the text and precision of [desc] ("TEXT@PREC", PREC
// may be '?'); returns a complaint or "".
std::string check_operand(const Number& n, const std::string& desc) {
  auto at = desc.rfind('@');
  std::string text = desc.substr(0, at), prec = desc.substr(at + 1);
  if (n.text() != text) return "operand text " + n.text() + ", want " + text;
  if (prec != "?" && std::to_string(n.precision()) != prec)
    return "operand precision " + std::to_string(n.precision()) + ", want " + prec;
  return "";
}

// Returns the answer of one golden row, in the file's notation.
std::string run_row(const std::string& op, const Number& a, const Number& b) {
  if (op == "text") return a.text();
  if (op == "neg") return a.neg().text();
  if (op == "abs") return a.abs().text();
  if (op == "floor") return a.floor().text();
  if (op == "ceil") return a.ceil().text();
  if (op == "add") return show(arith('+', a, b));
  if (op == "sub") return show(arith('-', a, b));
  if (op == "mul") return show(arith('*', a, b));
  if (op == "quo") return show(arith('/', a, b));
  if (op == "mod") return show(arith('%', a, b));
  auto tf = [](bool v) { return std::string(v ? "true" : "false"); };
  int c = Number::cmp(a, b);
  // The operators' equality (go-cty 1.14.3+: integers compare exactly; the
  // texts decide only between fractions), not Number::equal's texts alone.
  bool eq = ops::number_equal(a, b);
  if (op == "eq") return tf(eq);
  if (op == "ne") return tf(!eq);
  if (op == "lt") return tf(c < 0);
  if (op == "gt") return tf(c > 0);
  if (op == "le") return tf(c < 0 || eq);
  if (op == "ge") return tf(c > 0 || eq);
  return "unknown op " + op;
}

TEST(NumberGolden, MatchesReference) {
  std::string data = test::read_file(std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/numbers/cases.tsv");
  std::istringstream in(data);
  std::string line;
  int rows = 0, failures = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto f = test::split_tabs(line);
    ASSERT_EQ(f.size(), 6u) << line;
    ++rows;
    const std::string &op = f[0], &want = f[5];
    std::string got, complaint;
    if (op == "parse") {
      auto n = Number::parse(f[1]);
      got = n ? n->text() : "error: parse";
    } else {
      std::string err;
      auto a = Recipe(f[1]).eval(&err);
      std::optional<Number> b = f[2] == "-" ? Number() : Recipe(f[2]).eval(&err);
      if (!a || !b) {
        complaint = "operand: " + err;
      } else {
        complaint = check_operand(*a, f[3]);
        if (complaint.empty() && f[4] != "-") complaint = check_operand(*b, f[4]);
        got = run_row(op, *a, *b);
      }
    }
    if (complaint.empty() && got != want) complaint = "got " + got;
    if (!complaint.empty() && ++failures <= 30)
      ADD_FAILURE() << op << " " << f[1] << " " << f[2] << ": " << complaint << "\n  want " << want;
  }
  EXPECT_EQ(failures, 0) << "of " << rows << " rows";
  EXPECT_GT(rows, 1000);
}

// Evaluates the recipe [s] (see Recipe); fails the test when it does not.
Number eval(std::string_view s) {
  std::string err;
  auto n = Recipe(s).eval(&err);
  EXPECT_TRUE(n.has_value()) << s << ": " << err;
  return n ? *n : Number();
}

// --- Parsing ---------------------------------------------------------------------

struct ParseCase {
  const char* input;
  const char* text;  // nullptr: does not parse
  uint32_t prec = 512;
};

class NumberParse : public ::testing::TestWithParam<ParseCase> {};

TEST_P(NumberParse, AsParseNumberVal) {
  const ParseCase& c = GetParam();
  auto n = Number::parse(c.input);
  if (!c.text) {
    EXPECT_FALSE(n.has_value()) << n->text();
    return;
  }
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->text(), c.text);
  EXPECT_EQ(n->precision(), c.prec);
}

INSTANTIATE_TEST_SUITE_P(
    Table, NumberParse,
    ::testing::Values(
        ParseCase{"0", "0"}, ParseCase{"-0", "-0"}, ParseCase{"+0", "0"}, ParseCase{"1.5", "1.5"},
        ParseCase{"1e3", "1000"}, ParseCase{"1E+3", "1000"}, ParseCase{"1e-0", "1"}, ParseCase{".5", "0.5"},
        ParseCase{"5.", "5"}, ParseCase{"+5", "5"}, ParseCase{"00012", "12"}, ParseCase{"-0.0e5", "-0"},
        // Binary exponents are big.Float syntax too.
        ParseCase{"1p10", "1024"}, ParseCase{"1.5p1", "3"}, ParseCase{"1P-2", "0.25"},
        ParseCase{"inf", "+Inf"}, ParseCase{"Inf", "+Inf"}, ParseCase{"+inf", "+Inf"}, ParseCase{"-Inf", "-Inf"},
        ParseCase{"0.1", "0.1"}, ParseCase{"0.30000000000000004", "0.30000000000000004"},
        ParseCase{"9223372036854775807", "9223372036854775807"},
        ParseCase{"9223372036854775808", "9223372036854775808"},
        ParseCase{"-9223372036854775808", "-9223372036854775808"},
        // Below big.Float's exponent range: zero; above it: infinity.
        ParseCase{"1e-700000000", "0"}, ParseCase{"-1e-700000000", "-0"}, ParseCase{"1e700000000", "+Inf"},
        ParseCase{"0e9999999999999", "0"},
        // Not numbers to big.ParseFloat in base 10.
        ParseCase{"", nullptr}, ParseCase{"-", nullptr}, ParseCase{".", nullptr}, ParseCase{"1e", nullptr},
        ParseCase{"1e+", nullptr}, ParseCase{"e5", nullptr}, ParseCase{"1.2.3", nullptr}, ParseCase{" 1", nullptr},
        ParseCase{"1 ", nullptr}, ParseCase{"1_0", nullptr}, ParseCase{"0x10", nullptr}, ParseCase{"0b10", nullptr},
        ParseCase{"INF", nullptr}, ParseCase{"nan", nullptr}, ParseCase{"infinity", nullptr},
        // Exponents must fit an int64 (even for zero), and the binary
        // exponent of a nonzero value an int32.
        ParseCase{"1e99999999999999999999", nullptr}, ParseCase{"0e99999999999999999999", nullptr},
        ParseCase{"1e3000000000", nullptr}, ParseCase{"1p2147483647", nullptr}));

TEST(NumberParse, RepresentationOfIntegers) {
  EXPECT_TRUE(num("42").is_small());
  EXPECT_EQ(num("42").small(), 42);
  EXPECT_TRUE(num("4.2e1").is_small());  // normalised after the MPFR path
  EXPECT_TRUE(num("-9223372036854775808").is_small());
  EXPECT_FALSE(num("9223372036854775808").is_small());
  EXPECT_FALSE(num("-0").is_small());  // int64 has no -0
  EXPECT_TRUE(num("-0").is_negative_zero());
}

// --- Text ------------------------------------------------------------------------

TEST(NumberText, ShortestAtThePrecision) {
  // The same value prints differently at different precisions.
  EXPECT_EQ(arith('/', Number::from_int(2), Number::from_int(3)).value.text(), "0.6666666666666666667");
  EXPECT_EQ(arith('/', num("2"), num("3")).value.text(),
            "0.66666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666"
            "66666666666666666666666666666666666666666666666667");
  EXPECT_EQ(Number::from_double(0.1).text(), "0.1");
  EXPECT_EQ(num("0.1").text(), "0.1");
  EXPECT_EQ(Number::from_double(1.0 / 3).text(), "0.3333333333333333");
  EXPECT_EQ(Number::from_double(0x1p62).text(), "4611686018427388000");  // small, more bits than 53
  EXPECT_EQ(Number::from_int(4611686018427387905).text(), "4611686018427387905");
  EXPECT_EQ(num("1e21").text(), "1000000000000000000000");
  EXPECT_EQ(num("2.5e-5").text(), "0.000025");
  EXPECT_EQ(Number::from_double(-0.0).text(), "-0");
  EXPECT_EQ(Number::from_double(INFINITY).text(), "+Inf");
  EXPECT_EQ(Number::infinity(true).text(), "-Inf");
  EXPECT_EQ(num::canonical_infinity(false).text(), "+Inf");
  EXPECT_EQ(num("-1.25").text(), "-1.25");
}

// Parsing a number's text gives the number back (at 512 bits).
TEST(NumberText, RoundTripsAt512Bits) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 300; ++i) {
    std::string s = std::to_string(rng() % 1000000) + "." + std::to_string(rng() % 1000000000) + "e" +
                    std::to_string(static_cast<int>(rng() % 600) - 300);
    Number a = num(s);
    Number b = num(a.text());
    EXPECT_EQ(Number::cmp(a, b), 0) << s;
    EXPECT_EQ(a.text(), b.text()) << s;
  }
}

// --- Arithmetic ------------------------------------------------------------------

struct OpCase {
  const char* op;
  const char* a;  // recipes, as in cases.tsv
  const char* b;
  const char* want;  // text or "error: MESSAGE"
  uint32_t prec = 0;  // the result's precision (0: not checked)
};

// Applies [op] of an OpCase to [a] and [b].
Result apply(std::string_view op, const Number& a, const Number& b) {
  if (op == "add") return arith('+', a, b);
  if (op == "sub") return arith('-', a, b);
  if (op == "mul") return arith('*', a, b);
  if (op == "quo") return arith('/', a, b);
  if (op == "mod") return arith('%', a, b);
  if (op == "neg") return {a.neg()};
  if (op == "abs") return {a.abs()};
  if (op == "floor") return {a.floor()};
  if (op == "ceil") return {a.ceil()};
  if (op == "trunc") return {a.trunc()};
  ADD_FAILURE() << "unknown op " << op;
  return {};
}

class NumberOp : public ::testing::TestWithParam<OpCase> {};

TEST_P(NumberOp, AsCty) {
  const OpCase& c = GetParam();
  Number a = eval(c.a), b = c.b ? eval(c.b) : Number();
  Result r = apply(c.op, a, b);
  EXPECT_EQ(show(r), c.want);
  if (r && c.prec) {
    EXPECT_EQ(r.value.precision(), c.prec);
  }
}

constexpr const char* kInf = "(1/0)";
constexpr const char* kNegInf = "((-1)/0)";

INSTANTIATE_TEST_SUITE_P(
    Precision, NumberOp,
    ::testing::Values(
        // The larger operand precision wins.
        OpCase{"quo", "parseint(\"2\",10)", "parseint(\"3\",10)", "0.6666666666666666667", 64},
        OpCase{"quo", "1", "3",
               "0.333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333"
               "33333333333333333333333333333333333333333333333333333335",
               512},
        OpCase{"quo", "parseint(\"1\",10)", "pow(3,1)", "0.33333333333333333334", 64},
        OpCase{"quo", "pow(1,1)", "pow(3,1)", "0.3333333333333333", 53},
        OpCase{"add", "parseint(\"1\",10)", "pow(0.5,1)", "1.5", 64},
        OpCase{"add", "pow(0.5,1)", "0.25", "0.75", 512},
        OpCase{"sub", "parseint(\"18446744073709551615\",10)", "parseint(\"1\",10)", "18446744073709551614", 64},
        // Multiply keeps the bits the product needs (rounded to 512 first).
        OpCase{"mul", "parseint(\"281474976710655\",10)", "parseint(\"281474976710655\",10)",
               "79228162514263774643590529025", 96},
        OpCase{"mul", "pow(0.1,1)", "pow(3,1)", "0.30000000000000002", 54},
        OpCase{"mul", "parseint(\"4294967297\",10)", "parseint(\"4294967297\",10)", "18446744082299486209", 65},
        OpCase{"mul", "parseint(\"9223372036854775807\",10)", "parseint(\"2\",10)", "18446744073709551614", 64},
        // Modulo keeps the left operand's precision.
        OpCase{"mod", "parseint(\"7\",10)", "0.3", "0.09999999999999999991", 64},
        OpCase{"mod", "parseint(\"7\",10)", "pow(0.3,1)", "0.10000000000000025535", 64},
        OpCase{"mod", "pow(7,1)", "0.3", "0.09999999999999964", 53},
        OpCase{"mod", "parseint(\"1\",10)", "0.1", "0", 64},
        OpCase{"mod", "11", "5.1",
               "0.8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
               "0000000000000000000000000000000000000000000000000024",
               512},
        OpCase{"mod", "parseint(\"-7\",10)", "parseint(\"3\",10)", "-1", 64},
        OpCase{"mod", "7", "(-3)", "1", 512},
        OpCase{"mod", "pow(5,1)", "parseint(\"3\",10)", "2", 53},
        OpCase{"mod", "pow(5,1)", "0", "5", 53},  // x % 0 is x, unchanged
        // floor and ceil keep the precision; trunc (cty's int) takes the bits
        // of the integer, at least 64.
        OpCase{"floor", "pow(2.5,1)", nullptr, "2", 53}, OpCase{"ceil", "pow(2.5,1)", nullptr, "3", 53},
        OpCase{"floor", "(-0.5)", nullptr, "-1", 512}, OpCase{"ceil", "(-0.5)", nullptr, "0", 512},
        OpCase{"ceil", "(-0)", nullptr, "0", 512}, OpCase{"floor", "(-0)", nullptr, "0", 512},
        OpCase{"floor", "(1e20+0.75)", nullptr, "100000000000000000000", 512},
        // Within a machine word the result is read off rounded; beyond, MPFR.
        OpCase{"floor", "(-3.7)", nullptr, "-4", 512}, OpCase{"ceil", "3.2", nullptr, "4", 512},
        OpCase{"floor", "(-9223372036854775807.5)", nullptr, "-9223372036854775808", 512},
        OpCase{"ceil", "9223372036854775806.5", nullptr, "9223372036854775807", 512},
        OpCase{"trunc", "2.7", nullptr, "2", 64}, OpCase{"trunc", "(-0.5)", nullptr, "0", 64},
        OpCase{"trunc", "(1e30+0.5)", nullptr, "1000000000000000000000000000000", 100},
        OpCase{"trunc", "5", nullptr, "5", 512}, OpCase{"trunc", "(-0)", nullptr, "-0", 512},
        OpCase{"trunc", kInf, nullptr, "+Inf", 512}));

INSTANTIATE_TEST_SUITE_P(
    ZerosAndInfinities, NumberOp,
    ::testing::Values(
        // Signs of zero follow IEEE rounding to nearest.
        OpCase{"mul", "0", "(-5)", "-0", 512}, OpCase{"mul", "(-0)", "(-0)", "0"},
        OpCase{"mul", "1e400", "0", "0"}, OpCase{"quo", "0", "(-5)", "-0", 512},
        OpCase{"quo", "(-1)", kInf, "-0"}, OpCase{"quo", "0", kInf, "0"},
        OpCase{"sub", "(-0)", "0", "-0"}, OpCase{"sub", "0", "0", "0"}, OpCase{"sub", "(-0)", "(-0)", "0"},
        OpCase{"add", "(-0)", "(-0)", "-0"}, OpCase{"sub", "1e-400", "1e-400", "0"},
        OpCase{"neg", "0", nullptr, "-0", 512}, OpCase{"neg", "(-0)", nullptr, "0"},
        OpCase{"abs", "(-0)", nullptr, "0"}, OpCase{"mod", "(-0)", "5", "-0"}, OpCase{"mod", "0", "(-5)", "0"},
        OpCase{"mod", "(-6)", "3", "0"},
        // Infinities.
        OpCase{"quo", "1", "0", "+Inf"}, OpCase{"quo", "5", "(-0)", "-Inf"}, OpCase{"mul", kInf, "(-2)", "-Inf"},
        OpCase{"add", kInf, "5", "+Inf"}, OpCase{"abs", kNegInf, nullptr, "+Inf"},
        OpCase{"quo", "1", "min((1/0))", "0"},
        // The NaN cases, with the reference's messages.
        OpCase{"add", kInf, kNegInf, "error: can't compute sum of opposing infinities"},
        OpCase{"sub", kInf, kInf, "error: can't subtract infinity from itself"},
        OpCase{"sub", kInf, kNegInf, "+Inf"},
        OpCase{"mul", "0", kInf, "error: can't multiply zero by infinity"},
        OpCase{"mul", "min((1/0))", "0", "error: can't multiply zero by infinity"},
        OpCase{"quo", "0", "0", "error: can't divide zero by zero or infinity by infinity"},
        OpCase{"quo", kInf, kNegInf, "error: can't divide zero by zero or infinity by infinity"},
        // Modulo: cty.PositiveInfinity itself (min's start value) makes the
        // result a product; a computed infinity on the left makes the
        // reference dereference a nil big.Int.
        OpCase{"mod", "min((1/0))", "3", "+Inf"}, OpCase{"mod", "3", "min((1/0))", "+Inf"},
        OpCase{"mod", "max(((-1)/0))", "(-2)", "+Inf"},
        OpCase{"mod", "min((1/0))", "0", "error: can't use modulo with zero and infinity"},
        OpCase{"mod", "0", "min((1/0))", "error: can't use modulo with zero and infinity"},
        OpCase{"mod", "5", kNegInf, "error: can't use modulo with zero and infinity"},
        OpCase{"mod", kInf, kInf, "error: can't use modulo with zero and infinity"},
        OpCase{"mod", kInf, "0", "+Inf"},
        OpCase{"mod", kInf, "2",
               "error: panic in function implementation: runtime error: invalid memory address or nil pointer "
               "dereference"}));

TEST(NumberInfinity, CanonicalIdentity) {
  Number pos = num::canonical_infinity(false);
  EXPECT_TRUE(num::is_canonical_infinity(pos));
  EXPECT_EQ(pos.precision(), 0u);
  Number copy = pos;
  EXPECT_TRUE(num::is_canonical_infinity(copy));
  // Other infinities, and copies made by operations, are not canonical.
  EXPECT_FALSE(num::is_canonical_infinity(Number::infinity(false)));
  EXPECT_EQ(Number::infinity(false).precision(), 53u);
  EXPECT_FALSE(num::is_canonical_infinity(arith('/', num("1"), num("0")).value));
  EXPECT_FALSE(num::is_canonical_infinity(pos.floor()));
  EXPECT_FALSE(num::is_canonical_infinity(pos.neg().neg()));
  EXPECT_FALSE(num::is_canonical_infinity(num::computed_infinity(false, 512)));
  EXPECT_FALSE(num::is_canonical_infinity(num("inf")));
  EXPECT_FALSE(num::is_canonical_infinity(Number::from_double(INFINITY)));
  EXPECT_EQ(arith('%', pos.floor(), num("2")).error, NumError::ModuloInfinity);
  EXPECT_EQ(arith('%', Number::infinity(false), num("2")).error, NumError::ModuloInfinity);
  EXPECT_EQ(show(arith('%', pos, num("2"))), "+Inf");
  EXPECT_TRUE(num::is_canonical_infinity(num::canonical_infinity(true)));
  EXPECT_EQ(num::canonical_infinity(true).text(), "-Inf");
  EXPECT_TRUE(pos.is_inf());
  EXPECT_FALSE(pos.is_integer());
  EXPECT_EQ(pos.sign(), 1);
  // Packing into a Value and back keeps the identity.
  Number moved = pos;
  const void* raw = moved.release_to_raw();
  EXPECT_TRUE(num::is_canonical_infinity(Number::adopt_big(raw)));
}

TEST(NumberError, MessagesByOperator) {
  EXPECT_STREQ(Number::error_message(NumError::None, '+'), "");
  EXPECT_STREQ(Number::error_message(NumError::OpposingInfinities, '+'), "can't compute sum of opposing infinities");
  EXPECT_STREQ(Number::error_message(NumError::OpposingInfinities, '-'), "can't subtract infinity from itself");
  EXPECT_STREQ(Number::error_message(NumError::ZeroTimesInfinity, '*'), "can't multiply zero by infinity");
  EXPECT_STREQ(Number::error_message(NumError::ZeroDivZero, '/'), "can't divide zero by zero or infinity by infinity");
  EXPECT_STREQ(Number::error_message(NumError::ZeroTimesInfinity, '%'), "can't use modulo with zero and infinity");
  EXPECT_STREQ(Number::error_message(NumError::ZeroDivZero, '%'), "can't use modulo with zero and infinity");
  EXPECT_STREQ(Number::error_message(NumError::ModuloInfinity, '%'),
               "panic in function implementation: runtime error: invalid memory address or nil pointer dereference");
  // A failed operation's result is zero.
  NumError err = NumError::None;
  Number r = Number::quo(num("0"), num("0"), err);
  EXPECT_EQ(err, NumError::ZeroDivZero);
  EXPECT_EQ(r.text(), "0");
}

// --- Comparison ------------------------------------------------------------------

struct CmpCase {
  const char* a;
  const char* b;
  int cmp;
  bool equal;
};

class NumberCmp : public ::testing::TestWithParam<CmpCase> {};

TEST_P(NumberCmp, CmpAndTextEquality) {
  const CmpCase& c = GetParam();
  Number a = eval(c.a), b = eval(c.b);
  EXPECT_EQ(Number::cmp(a, b), c.cmp);
  EXPECT_EQ(Number::cmp(b, a), -c.cmp);
  EXPECT_EQ(Number::equal(a, b), c.equal);
  EXPECT_EQ(Number::equal(b, a), c.equal);
  // The heap form compares the same.
  EXPECT_EQ(Number::equal(num::as_heap_for_testing(a), b), c.equal);
  EXPECT_EQ(Number::cmp(num::as_heap_for_testing(a), b), c.cmp);
  EXPECT_EQ(num::less_equal(a, b), c.cmp < 0 || c.equal);
  EXPECT_EQ(num::greater_equal(a, b), c.cmp > 0 || c.equal);
}

INSTANTIATE_TEST_SUITE_P(
    Table, NumberCmp,
    ::testing::Values(
        CmpCase{"1", "parseint(\"1\",10)", 0, true}, CmpCase{"0", "(-0)", 0, true},
        CmpCase{"(-7)", "parseint(\"-7\",10)", 0, true}, CmpCase{"1", "2", -1, false},
        // Equal values at different precisions: equal when the texts are.
        CmpCase{"0.5", "(parseint(\"1\",10)/parseint(\"2\",10))", 0, true},
        CmpCase{"0.5", "pow(0.5,1)", 0, true},
        CmpCase{"pow(0.1,1)", "(pow(0.1,1)*1)", 0, false},
        // Different values, equal texts: 0.1 as a float64 is a little more
        // than 0.1 at 512 bits, yet both print "0.1".
        CmpCase{"pow(0.1,1)", "0.1", 1, true},
        CmpCase{"(2/3)", "(parseint(\"2\",10)/parseint(\"3\",10))", -1, false},
        // 2^60 at 53 bits prints 1152921504606847000.
        CmpCase{"pow(2,60)", "1152921504606847000", -1, true},
        CmpCase{"pow(2,60)", "parseint(\"1152921504606846976\",10)", 0, false},
        CmpCase{kInf, "min((1/0))", 0, true}, CmpCase{kInf, "1e400", 1, false},
        CmpCase{kNegInf, "(-1e400)", -1, false}, CmpCase{"(0.1*3)", "0.3", 0, true},
        CmpCase{"(pow(0.1,1)*pow(3,1))", "pow(0.3,1)", 1, false}));

// --- Inspection and conversion ---------------------------------------------------

TEST(NumberInspect, IntegerSignZero) {
  EXPECT_TRUE(num("5").is_integer());
  EXPECT_TRUE(num("-0").is_integer());
  EXPECT_TRUE(num("1e400").is_integer());
  EXPECT_FALSE(num("0.5").is_integer());
  EXPECT_FALSE(num("inf").is_integer());
  EXPECT_EQ(num("-0").sign(), 0);
  EXPECT_EQ(num("-3").sign(), -1);
  EXPECT_EQ(num("1e-400").sign(), 1);
  EXPECT_EQ(num("-inf").sign(), -1);
  EXPECT_TRUE(num("-0").is_negative_zero());
  EXPECT_FALSE(num("0").is_negative_zero());
  EXPECT_FALSE(num("-1e-400").is_negative_zero());
  EXPECT_TRUE(num::signbit(num("-0")));
  EXPECT_TRUE(num::signbit(num("-inf")));
  EXPECT_FALSE(num::signbit(num("0")));
}

TEST(NumberConvert, ToInt64AndUint64) {
  EXPECT_EQ(num("-9223372036854775808").to_int64(), INT64_MIN);
  EXPECT_EQ(num("9223372036854775807").to_int64(), INT64_MAX);
  EXPECT_EQ(num("9223372036854775808").to_int64(), std::nullopt);
  EXPECT_EQ(num("0.5").to_int64(), std::nullopt);
  EXPECT_EQ(num("-0").to_int64(), 0);
  EXPECT_EQ(num("inf").to_int64(), std::nullopt);
  EXPECT_EQ(num("1e3").to_int64(), 1000);
  EXPECT_EQ(num("18446744073709551615").to_uint64(), UINT64_MAX);
  EXPECT_EQ(num("18446744073709551616").to_uint64(), std::nullopt);
  EXPECT_EQ(num("-1").to_uint64(), std::nullopt);
  EXPECT_EQ(num("-0").to_uint64(), 0u);
  EXPECT_EQ(num("7").to_uint64(), 7u);
}

TEST(NumberConvert, ToDouble) {
  EXPECT_EQ(num("0.1").to_double(), 0.1);
  EXPECT_EQ(arith('/', num("1"), num("3")).value.to_double(), 1.0 / 3);
  EXPECT_EQ(num("1e400").to_double(), INFINITY);
  EXPECT_EQ(num("-1e400").to_double(), -INFINITY);
  EXPECT_EQ(num("1e-400").to_double(), 0.0);
  EXPECT_EQ(num("5e-324").to_double(), 0x1p-1074);  // subnormal
  EXPECT_EQ(num("2.2250738585072011e-308").to_double(), 2.2250738585072011e-308);
  EXPECT_TRUE(std::signbit(num("-0").to_double()));
  EXPECT_EQ(num("9007199254740993").to_double(), 9007199254740992.0);  // to even
  EXPECT_EQ(Number::from_int(9007199254740993).to_double(), 9007199254740992.0);
}

TEST(NumberConvert, Constructors) {
  Number a = Number::from_int(5);
  EXPECT_EQ(a.precision(), 64u);
  EXPECT_EQ(Number::from_int(5, 0).precision(), 64u);  // 0 means 64, as big.Float
  // Rounded to the precision asked for, to nearest even.
  Number r = Number::from_int((int64_t(1) << 62) + 1, 53);
  EXPECT_EQ(r.precision(), 53u);
  EXPECT_EQ(r.to_int64(), int64_t(1) << 62);
  EXPECT_EQ(Number::from_int(INT64_MAX, 53).text(), "9223372036854776000");  // 2^63 at 53 bits
  EXPECT_FALSE(Number::from_int(INT64_MAX, 53).is_small());
  EXPECT_EQ(Number::from_int(7, 2).text(), "8");

  Number u = Number::from_uint(UINT64_MAX);
  EXPECT_EQ(u.text(), "18446744073709551615");
  EXPECT_EQ(u.precision(), 64u);
  EXPECT_TRUE(Number::from_uint(3).is_small());

  EXPECT_EQ(Number::from_double(0.1).precision(), 53u);
  EXPECT_EQ(Number::from_double(-0.0).text(), "-0");
  EXPECT_TRUE(Number::from_double(-2.0).is_small());
  EXPECT_FALSE(Number::from_double(0x1p63).is_small());
  EXPECT_EQ(Number::from_double(-INFINITY).text(), "-Inf");
  EXPECT_FALSE(num::is_canonical_infinity(Number::from_double(INFINITY)));

  mpz_t z;
  mpz_init_set_str(z, "123456789012345678901234567890", 10);
  Number big = num::from_mpz(z);
  EXPECT_EQ(big.text(), "123456789012345678901234567890");
  EXPECT_EQ(big.precision(), 97u);  // its bit length
  mpz_set_si(z, -3);
  EXPECT_EQ(num::from_mpz(z).precision(), 64u);
  EXPECT_TRUE(num::from_mpz(z).is_small());
  mpz_clear(z);
}

// --- Raw parts and reference counts ----------------------------------------------

TEST(NumberParts, SmallAndBig) {
  Number s = Number::from_parts_small(-12, 512);
  EXPECT_TRUE(s.is_small());
  EXPECT_EQ(s.small(), -12);
  EXPECT_EQ(s.precision(), 512u);
  EXPECT_EQ(s.text(), "-12");
  EXPECT_EQ(num::ref_count_for_testing(s), 0u);

  Number b = num("0.25");
  EXPECT_FALSE(b.is_small());
  EXPECT_EQ(num::ref_count_for_testing(b), 1u);
  {
    Number c = b;
    EXPECT_EQ(num::ref_count_for_testing(b), 2u);
    Number d = std::move(c);
    EXPECT_EQ(num::ref_count_for_testing(b), 2u);
    d = b;  // same object: no change
    EXPECT_EQ(num::ref_count_for_testing(b), 2u);
  }
  EXPECT_EQ(num::ref_count_for_testing(b), 1u);
  // Packing into a Value and back: give up the reference, then adopt it.
  Number e = b;
  const void* raw = e.release_to_raw();
  EXPECT_TRUE(e.is_small());
  EXPECT_EQ(num::ref_count_for_testing(b), 2u);
  Number::retain_big(raw);
  Number f = Number::adopt_big(raw);
  EXPECT_EQ(f.text(), "0.25");
  EXPECT_EQ(num::ref_count_for_testing(b), 3u);
  Number::release_big(raw);
  EXPECT_EQ(num::ref_count_for_testing(b), 2u);
}

TEST(NumberParts, ImmortalCopiesDoNotCount) {
  Number b = num("0.125");
  Number owner = b;
  const void* raw = owner.release_to_raw();
  Number::make_big_immortal(raw);
  EXPECT_EQ(num::ref_count_for_testing(b), UINT32_MAX);
  {
    std::vector<Number> copies(100, b);
    EXPECT_EQ(num::ref_count_for_testing(b), UINT32_MAX);
  }
  EXPECT_EQ(b.text(), "0.125");
  b = Number();
  num::free_immortal(raw);
  // The shared infinities are never freed.
  Number inf = num::canonical_infinity(false), inf53 = Number::infinity(true);
  num::free_immortal(inf.release_to_raw());
  num::free_immortal(inf53.release_to_raw());
  EXPECT_TRUE(num::canonical_infinity(false).is_inf());
  EXPECT_EQ(Number::infinity(true).text(), "-Inf");
}

// --- Fast paths against the MPFR path ------------------------------------------

// Returns a random int64 of a random magnitude, often near the edges.
int64_t random_int(std::mt19937_64& rng) {
  switch (rng() % 8) {
    case 0: return static_cast<int64_t>(rng() % 7) - 3;
    case 1: return INT64_MIN + static_cast<int64_t>(rng() % 3);
    case 2: return INT64_MAX - static_cast<int64_t>(rng() % 3);
    default: {
      int bits = static_cast<int>(rng() % 63);
      int64_t v = static_cast<int64_t>(rng() >> (63 - bits));
      return (rng() & 1) ? -v : v;
    }
  }
}

// Returns a random precision: mostly the usual ones, sometimes odd.
uint32_t random_prec(std::mt19937_64& rng) {
  static const uint32_t kPrecs[] = {53, 64, 64, 512, 512, 96, 2, 7, 40, 63, 65, 700};
  return kPrecs[rng() % std::size(kPrecs)];
}

// A heap number plus a machine integer (added without converting the
// integer) equals the sum of both as heap numbers: value, precision, sign
// of zero and representation.
TEST(NumberFastPath, MixedAddAgreesWithMpfr) {
  std::mt19937_64 rng(777);
  const char* bigs[] = {"0.1", "-0.5", "6666666666.666666666666666666667", "1e300", "-1e-300",
                        "123456789012345678901234567890", "-0", "0.75"};
  for (int i = 0; i < 5000; ++i) {
    Number x = num(bigs[rng() % std::size(bigs)]);
    if (x.is_small()) x = num::as_heap_for_testing(x);
    Number k = Number::from_int(i % 7 == 0 ? 0 : random_int(rng), random_prec(rng));
    if (!k.is_small()) continue;
    Number hk = num::as_heap_for_testing(k);
    Result both = arith('+', x, hk);
    for (const Result& r : {arith('+', x, k), arith('+', k, x)}) {
      ASSERT_EQ(r.error, both.error);
      ASSERT_TRUE(same(r.value, both.value)) << x.text() << " + " << k.text();
    }
  }
}

// floor and ceil of heap numbers (read off the significand below 2^62,
// through MPFR above) agree with cty's int (trunc, through big integers)
// adjusted by one where a fraction is cut, and keep the precision.
TEST(NumberFastPath, FloorAndCeilAgreeWithTrunc) {
  std::mt19937_64 rng(4242);
  NumError err = NumError::None;
  for (int i = 0; i < 20000; ++i) {
    Number a = Number::from_int(random_int(rng) >> (rng() % 64), random_prec(rng));
    Number b = Number::from_int(int64_t(rng() % 1000) + 1, random_prec(rng));
    if (rng() % 2) b = num::as_heap_for_testing(b);
    Number x = Number::quo(a, b, err);
    if (rng() % 3 == 0) x = Number::mul(x, Number::from_int(int64_t(1) << (rng() % 20), 64), err);
    if (x.is_small()) x = num::as_heap_for_testing(x);
    Number t = x.trunc();
    bool exact = Number::equal(t, x);
    Number one = Number::from_int(1);
    Number want_floor = exact || x.sign() >= 0 ? t : Number::sub(t, one, err);
    Number want_ceil = exact || x.sign() <= 0 ? t : Number::add(t, one, err);
    ASSERT_TRUE(Number::equal(x.floor(), want_floor)) << x.text() << "@" << x.precision();
    ASSERT_TRUE(Number::equal(x.ceil(), want_ceil)) << x.text() << "@" << x.precision();
    ASSERT_EQ(x.floor().precision(), x.precision());
    ASSERT_EQ(x.ceil().precision(), x.precision());
  }
}

// |n| × 10^k rounded half to even, from the exact text of [n]
// (encode_exact: "s<prec>:<int>" or "b<prec>:<hex digits>@<hex exponent>",
// the value 0.<digits> × 16^exponent) with integer arithmetic alone.
std::optional<uint64_t> scaled_by_integers(const Number& n, int k) {
  std::string e = num::encode_exact(n);
  std::string body = e.substr(e.find(':') + 1);
  if (!body.empty() && body[0] == '-') body.erase(0, 1);
  if (body == "inf") return std::nullopt;
  mpz_t num, den, q, r;
  mpz_inits(num, den, q, r, nullptr);
  if (e[0] == 's' || body == "0") {
    mpz_set_str(num, body.c_str(), 10);
    mpz_set_ui(den, 1);
  } else {
    size_t at = body.find('@');
    std::string digits = body.substr(0, at);
    long exp = std::stol(body.substr(at + 1));
    mpz_set_str(num, digits.c_str(), 16);
    long shift = 4 * (exp - long(digits.size()));  // value = num × 2^shift
    mpz_set_ui(den, 1);
    if (shift >= 0)
      mpz_mul_2exp(num, num, mp_bitcnt_t(shift));
    else
      mpz_mul_2exp(den, den, mp_bitcnt_t(-shift));
  }
  mpz_t p10;
  mpz_init(p10);
  mpz_ui_pow_ui(p10, 10, static_cast<unsigned long>(k));
  mpz_mul(num, num, p10);
  mpz_tdiv_qr(q, r, num, den);
  mpz_mul_2exp(r, r, 1);
  int c = mpz_cmp(r, den);
  if (c > 0 || (c == 0 && mpz_odd_p(q))) mpz_add_ui(q, q, 1);
  std::optional<uint64_t> out;
  if (mpz_sizeinbase(q, 2) <= 64) out = uint64_t(mpz_get_ui(q));
  mpz_clears(num, den, q, r, p10, nullptr);
  return out;
}

// round_scaled (format's %.kf) agrees with exact integer arithmetic, ties
// included, for small and heap numbers of every precision.
TEST(NumberRoundScaled, AgreesWithExactArithmetic) {
  std::mt19937_64 rng(99);
  std::vector<Number> xs;
  for (const char* t : {"0", "0.5", "1.5", "2.5", "0.125", "0.375", "2.675", "3.14159", "-0.001",
                        "0.0015", "1e-30", "18446744073709551615", "18446744073709551616",
                        "1844674407370955161.55", "123456789012345678.125", "-7.0625"})
    xs.push_back(num(t));
  NumError err = NumError::None;
  for (int i = 0; i < 3000; ++i) {
    Number a = Number::from_int(random_int(rng) >> (rng() % 64), random_prec(rng));
    Number b = Number::from_int(int64_t(1) << (rng() % 40), 64);
    xs.push_back(Number::quo(a, b, err));
    xs.push_back(Number::quo(a, Number::from_int(int64_t(rng() % 999) + 1, random_prec(rng)), err));
  }
  for (const Number& x : xs) {
    for (const Number& y : {x, num::as_heap_for_testing(x)}) {
      for (int k = 0; k <= 19; ++k) {
        ASSERT_EQ(num::round_scaled(y, k), scaled_by_integers(y, k))
            << y.text() << "@" << y.precision() << " k=" << k;
      }
    }
  }
  EXPECT_EQ(num::round_scaled(num("1"), 20), std::nullopt);
  EXPECT_EQ(num::round_scaled(Number::infinity(false), 2), std::nullopt);
}

// Every operation on small operands gives the same number (value,
// precision, sign of zero and representation) through the fast path and
// through MPFR, which the golden data checks against the reference.
TEST(NumberFastPath, AgreesWithMpfr) {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 20000; ++i) {
    Number a = Number::from_int(random_int(rng), random_prec(rng));
    Number b = Number::from_int(random_int(rng), random_prec(rng));
    if (!a.is_small() || !b.is_small()) continue;
    Number ha = num::as_heap_for_testing(a), hb = num::as_heap_for_testing(b);
    ASSERT_FALSE(ha.is_small());
    for (const char* op : {"add", "sub", "mul", "quo", "mod"}) {
      Result fast = apply(op, a, b), slow1 = apply(op, ha, b), slow2 = apply(op, a, hb);
      ASSERT_EQ(fast.error, slow1.error) << op << " " << a.text() << " " << b.text();
      ASSERT_EQ(fast.error, slow2.error);
      if (!fast) continue;
      // x % 0 is x itself, in its form.
      ASSERT_TRUE(same(fast.value, slow1.value, !(std::string_view(op) == "mod" && b.sign() == 0)))
          << op << " " << a.text() << "@" << a.precision() << " " << b.text() << "@" << b.precision();
      ASSERT_TRUE(same(fast.value, slow2.value)) << op;
    }
    // floor, ceil and trunc give integers back unchanged, in their form.
    for (const char* op : {"neg", "abs", "floor", "ceil", "trunc"})
      ASSERT_TRUE(same(apply(op, a, b).value, apply(op, ha, b).value, std::string_view(op) == "neg" ||
                                                                          std::string_view(op) == "abs"))
          << op << " " << a.text();
    ASSERT_EQ(Number::cmp(a, b), Number::cmp(ha, hb));
    ASSERT_EQ(Number::equal(a, b), Number::equal(ha, hb)) << a.text() << " " << b.text();
    ASSERT_EQ(a.text(), ha.text());
    ASSERT_EQ(a.to_int64(), ha.to_int64());
    ASSERT_EQ(a.to_double(), ha.to_double());
  }
}

// equal() decides most cases without texts; it must agree with cty's rule
// (equal texts) on close numbers of all precisions.
TEST(NumberFastPath, EqualIsTextEquality) {
  std::mt19937_64 rng(777);
  auto text_equal = [](const Number& a, const Number& b) {
    std::string x = a.text(), y = b.text();
    if (x == "-0") x = "0";
    if (y == "-0") y = "0";
    return x == y;
  };
  int equal = 0;
  for (int i = 0; i < 5000; ++i) {
    Number p = Number::from_int(random_int(rng) >> (rng() % 60), random_prec(rng));
    Number q = Number::from_int(random_int(rng) >> (rng() % 60) | 1, random_prec(rng));
    Number a = arith('/', p, q).value;
    // b: a at another precision, or a nudged by a tiny amount.
    Number b;
    switch (rng() % 3) {
      case 0: b = Number::from_double(a.to_double()); break;
      case 1: b = arith('/', Number::from_int(p.to_int64().value_or(1), random_prec(rng)), q).value; break;
      default: {
        Number tiny = arith('*', a, *Number::parse("1e-" + std::to_string(10 + rng() % 150))).value;
        b = arith('+', a, tiny).value;
      }
    }
    bool want = text_equal(a, b);
    equal += want;
    ASSERT_EQ(Number::equal(a, b), want) << a.text() << "@" << a.precision() << " " << b.text() << "@" << b.precision();
    ASSERT_EQ(Number::equal(b, a), want);
  }
  EXPECT_GT(equal, 500);  // both outcomes are exercised
}

// --- Threads ---------------------------------------------------------------------

// Shared numbers are read, copied and printed from several threads at once
// (run under TSan to check the text cache and the counts).
TEST(NumberThreads, SharedReads) {
  Number shared = arith('/', num("1"), num("7")).value;
  Number immortal = arith('/', num("2"), num("7")).value;
  Number owner = immortal;
  const void* raw = owner.release_to_raw();
  Number::make_big_immortal(raw);
  std::vector<std::string> texts(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        Number a = shared, b = immortal;
        Number sum = arith('+', a, b).value;
        texts[static_cast<size_t>(t)] = sum.text() + a.text() + b.text();
        // Exponents beyond MPFR's default range, in this thread's range too.
        EXPECT_EQ(arith('*', num("1e400000000"), num("1e400000000")).value.text(), "+Inf");
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& t : texts) EXPECT_EQ(t, texts[0]);
  EXPECT_EQ(num::ref_count_for_testing(shared), 1u);
  immortal = Number();
  num::free_immortal(raw);
}

// --- Text far from 1 ----------------------------------------------------------------

// Far from 1 the text is computed from the first digits of the three
// expansions Go writes out in full (number.cpp's shortest_decimal): the
// two ways agree on numbers of every precision and of both signs of
// exponent, at and beyond the distance where the short way starts.
TEST(NumberTextFar, AgreesWithTheFullExpansion) {
  std::mt19937_64 rng(7);
  auto check = [](const Number& n, const std::string& what) {
    EXPECT_EQ(n.text(), num::text_exact_for_testing(n)) << what;
  };
  for (int i = 0; i < 400; ++i) {
    int digits = 1 + int(rng() % 170);
    std::string mant;
    for (int k = 0; k < digits; ++k) mant += char('0' + (k == 0 ? 1 + rng() % 9 : rng() % 10));
    int exp = int(rng() % 3000) - 1500;  // 512 bits: far from about 10^±350
    std::string s = (rng() % 2 ? "-" : "") + mant.substr(0, 1) + "." + mant.substr(1) + "e" + std::to_string(exp);
    check(num(s), s);
    // Other precisions: a double's 53 bits, a product's bits.
    double d = std::ldexp(double(rng() >> 11), int(rng() % 2000) - 1100);
    if (d != 0 && std::isfinite(d)) check(Number::from_double(d), std::to_string(d));
  }
  // Powers of two and ten, where the interval of the shortest decimal is at
  // its narrowest, and all nines.
  for (std::string s : {"1e400", "1e-400", "9.999999999999999999999999e500", "1e1000", "1e-1000",
                        "4.9e-324", "1.7976931348623157e308"}) {
    check(num(s), s);
  }
  for (int e : {300, 1000, 1500, -1500, -1100}) {
    check(Number::from_double(std::ldexp(1.0, e)), std::to_string(e));
  }
}

// The shortest text of a number near the ends of the range is found from a
// few hundred digits: a hundred million zeros are written, not computed.
TEST(NumberTextFar, HugeExponentsAreCheap) {
  Number big = num("1e10000000");
  std::string t = big.text();
  ASSERT_EQ(t.size(), 10000001u);
  EXPECT_EQ(t[0], '1');
  EXPECT_EQ(t.find_first_not_of('0', 1), std::string::npos);
  std::string tiny = num("-1.5e-10000000").text();
  ASSERT_EQ(tiny.size(), 10000004u);  // "-0.", 9999999 zeros, "15"
  EXPECT_EQ(tiny.substr(0, 4), "-0.0");
  EXPECT_EQ(tiny.substr(tiny.size() - 3), "015");
  // Equality and the digits functions never write the text out.
  Number a = num("1e100000000"), b = num("1.0000000000000000000000001e100000000");
  EXPECT_FALSE(num::same_text(a, b));
  EXPECT_TRUE(num::same_text(a, arith('*', a, Number::from_int(1)).value));
  EXPECT_FALSE(Number::equal(a, b));
  num::Decimal d = num::shortest_decimal(a);
  EXPECT_EQ(d.mant, "1");
  EXPECT_EQ(d.exp, 100000001);
  EXPECT_EQ(num::big_float_text(num("-2.345678901234e-100000000"), 'e', 9),
            "-2.345678901e-100000000");
}

// same_text is text() equality, -0 equal to 0, at every precision.
TEST(NumberTextFar, SameTextIsTextEquality) {
  std::vector<Number> ns = {num("0.1"), Number::from_double(0.1), num("-0"), Number::from_int(0),
                            num("1e400"), Number::from_double(1e300), num("1e300"),
                            Number::infinity(false), num::canonical_infinity(false),
                            Number::infinity(true), Number::from_int(7), num("7"),
                            arith('/', Number::from_int(1), Number::from_int(3)).value,
                            arith('/', num("1"), num("3")).value};
  for (const Number& a : ns) {
    for (const Number& b : ns) {
      std::string ta = a.text(), tb = b.text();
      if (ta == "-0") ta = "0";
      if (tb == "-0") tb = "0";
      EXPECT_EQ(num::same_text(a, b), ta == tb) << a.text() << " " << b.text();
    }
  }
}

// Rounding to a number of digits is Go's decimal rounding, half to even
// on the exact value.
TEST(NumberTextFar, RoundDigitsHalfToEven) {
  EXPECT_EQ(num::big_float_text(num("125"), 'e', 1), "1.2e+02");  // exact tie: even
  EXPECT_EQ(num::big_float_text(num("135"), 'e', 1), "1.4e+02");
  EXPECT_EQ(num::big_float_text(num("1251"), 'e', 1), "1.3e+03");
  EXPECT_EQ(num::big_float_text(num("999"), 'e', 1), "1.0e+03");
  // 0.1 at 53 bits is 0.1000000000000000055511151231257827...
  EXPECT_EQ(num::big_float_text(Number::from_double(0.1), 'e', 19), "1.0000000000000000555e-01");
  // The digits of big.Float's String() (Text('g', 10)), which set hash
  // bytes write, at an exponent whose expansion has 10^8 digits.
  EXPECT_EQ(num::big_float_text(num("-2.345678901234e-100000000"), 'g', 10),
            "-2.345678901e-100000000");
}

}  // namespace
}  // namespace hclvm

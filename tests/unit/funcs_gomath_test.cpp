// Tests of the port of Go's math.Pow, math.Log and math.Exp (funcs/gomath.h)
// that pow() and log() compute with: tests/golden/gomath/cases.txt holds
// Go's own results on about 5,000 inputs (gen.go), bit for bit; then pow()
// and log() of both function tables on the cases where the C library's
// functions gave other last digits than the reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "funcs/gomath.h"
#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "test_util.h"
#include "value/render.h"

namespace hclvm {
namespace {

// The double whose IEEE bits are the hex digits [hex].
double from_hex(const std::string& hex) {
  return std::bit_cast<double>(static_cast<uint64_t>(std::strtoull(hex.c_str(), nullptr, 16)));
}

// Whether [got] is Go's [want] bit for bit (any NaN for a NaN).
bool same_bits(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want);
}

TEST(GoMathTest, MatchesGoBitForBit) {
  std::istringstream in(test::read_file(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/gomath/cases.txt"));
  int checked = 0, failures = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string op, a, b, c;
    f >> op >> a >> b;
    double got, want;
    if (op == "pow") {
      f >> c;
      got = funcs::gomath::pow(from_hex(a), from_hex(b));
      want = from_hex(c);
    } else {
      got = op == "log" ? funcs::gomath::log(from_hex(a)) : funcs::gomath::exp(from_hex(a));
      want = from_hex(b);
    }
    ++checked;
    if (!same_bits(got, want) && ++failures <= 20)
      ADD_FAILURE() << line << "\n  got " << std::hexfloat << got << " want " << want;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 4000);
}

// The result of [fn] on numbers [x] and [y] from [table], as cty prints it.
std::string call2(const FunctionTable& table, const char* fn, const char* x, const char* y) {
  Value args[2] = {Value::number(*Number::parse(x)), Value::number(*Number::parse(y))};
  FuncResult r = table.find(fn)->call(args);
  if (!r.ok()) return "error: " + r.error->message;
  return go_string(r.value);
}

// pow() gave 100000000000000010000000 for 10^23 through the C library's
// pow (correctly rounded: the other neighbour of the tie); go-cty gives
// 1e23's shortest text through Go's repeated squaring. Both tables (go-cty's
// and Terraform's) have go-cty's pow and log.
TEST(GoMathTest, PowAndLogAsTheReference) {
  for (const FunctionTable& t : {default_functions(), standard_functions()}) {
    EXPECT_EQ(call2(t, "pow", "10", "23"), "cty.NumberIntVal(1e+23)");
    EXPECT_EQ(call2(t, "pow", "10", "22"), "cty.NumberIntVal(1e+22)");
    // Values the reference's gohcl-bench printed (as exact decimals:
    // 12157665459056929000, 0.0000000000000000000000000000000001 and so on).
    EXPECT_EQ(call2(t, "pow", "3", "40"), "cty.NumberIntVal(1.2157665459056929e+19)");
    EXPECT_EQ(call2(t, "pow", "7", "-5"), "cty.NumberFloatVal(5.9499018266198606e-05)");
    EXPECT_EQ(call2(t, "pow", "2", "0.5"), "cty.NumberFloatVal(1.4142135623730951)");
    EXPECT_EQ(call2(t, "pow", "1.1", "100"), "cty.NumberFloatVal(13780.612339822364)");
    EXPECT_EQ(call2(t, "log", "1000", "10"), "cty.NumberFloatVal(2.9999999999999996)");
    EXPECT_EQ(call2(t, "log", "8", "2"), "cty.NumberIntVal(3)");
    EXPECT_EQ(call2(t, "pow", "0", "-1"), "cty.NumberFloatVal(+Inf)");
    EXPECT_EQ(call2(t, "pow", "-8", "0.5"),
              "error: panic in function implementation: Float.SetFloat64(NaN)");
  }
}

}  // namespace
}  // namespace hclvm

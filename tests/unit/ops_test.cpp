// Tests of the value operations (src/value/ops.h) and refinements
// (src/value/refine.h): the differential golden data from the reference
// oracle (tests/golden/ops/ops.golden, made by gen.sh), then operator × value
// tables for what the oracle cannot show (unknowns, refinements, marks, the
// dynamic value), re-expressed from go-cty's value_ops_test.go and
// unknown_refinement_test.go.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "hclvm/value.h"
#include "test_util.h"
#include "value/json.h"
#include "value/ops.h"
#include "value/refine.h"
#include "value_test_util.h"

namespace hclvm {
namespace {

// --- value shorthands -----------------------------------------------------------

Value N(int64_t i) { return Value::integer(i); }
Value NP(const char* text) { return Value::number(*Number::parse(text)); }
Value S(std::string_view s) { return Value::string(s); }
const Value kTrue = Value::boolean(true);
const Value kFalse = Value::boolean(false);
Value UNum() { return Value::unknown(Type::number()); }
Value UStr() { return Value::unknown(Type::string()); }
Value UBool() { return Value::unknown(Type::boolean()); }
Value UBoolNN() { return refine_not_null(UBool()); }
Value UNumNN() { return refine_not_null(UNum()); }
Value Dyn() { return Value::dynamic(); }
Value Null(const Type* t) { return Value::null(t); }
Value Inf(bool neg) { return Value::number(Number::infinity(neg)); }
Value List(std::vector<Value> es) {
  const Type* t = es.empty() ? Type::dynamic() : es[0].type();
  for (const Value& e : es)
    if (!e.type()->is_dynamic()) t = e.type();
  return Value::list(t, std::move(es));
}
Value Set(std::vector<Value> es) {
  const Type* t = es.empty() ? Type::dynamic() : es[0].type();
  for (const Value& e : es)
    if (!e.type()->is_dynamic()) t = e.type();
  return Value::set(t, std::move(es));
}
Value Obj(std::vector<std::pair<std::string, Value>> attrs) { return Value::object(std::move(attrs)); }
Value Map(const Type* et, std::vector<std::pair<std::string, Value>> es) {
  return Value::map(et, std::move(es));
}
Value Tup(std::vector<Value> es) { return Value::tuple(std::move(es)); }
// An unknown number with a lower bound [lo] ([inc]lusive).
Value UNumMin(int64_t lo, bool inc) { return refine(UNum()).number_lower_bound(N(lo), inc).new_value(); }

// A short description of [v] for failure messages.
std::string show(const Value& v) {
  std::string marks;
  for (std::string_view m : v.marks().labels()) marks += "+" + std::string(m);
  const Value u = v.unmark();
  if (!u.is_known()) {
    const Refinement& r = u.refinement();
    std::string s = "unknown(" + u.type()->go_string() + ")";
    if (r.not_null) s += ".NotNull";
    if (!r.prefix.empty()) s += ".Prefix(" + r.prefix + ")";
    if (r.has_lower) s += std::string(".Min") + (r.lower_inclusive ? "=" : "") + "(" + r.lower.text() + ")";
    if (r.has_upper) s += std::string(".Max") + (r.upper_inclusive ? "=" : "") + "(" + r.upper.text() + ")";
    if (r.min_length != 0 || r.max_length != UINT64_MAX)
      s += ".Len(" + std::to_string(r.min_length) + ".." + std::to_string(r.max_length) + ")";
    return s + marks;
  }
  if (u.is_null()) return "null(" + u.type()->go_string() + ")" + marks;
  JsonResult<std::string> j = to_json(u, Type::dynamic());
  if (j.ok()) return j.value + marks;
  if (u.type() == Type::number()) return u.as_number().text() + marks;
  return "<" + u.type()->go_string() + ">" + marks;
}

#define EXPECT_RAW_EQ(got, want) \
  EXPECT_TRUE(ops::raw_equal(got, want)) << "got " << show(got) << "\nwant " << show(want)

// --- the differential golden data -------------------------------------------------

// Decodes an operand or result as the oracle prints it.
Value decode(const std::string& json) { return test::oracle_value(json); }

// The operation [op] of the golden data on [a] and [b].
ops::Result apply(const std::string& op, const Value& a, const Value& b) {
  if (op == "==") return ops::Result::of(ops::equals(a, b));
  if (op == "!=") return ops::Result::of(ops::not_equals(a, b));
  if (op == "<") return ops::less_than(a, b);
  if (op == "<=") return ops::less_than_or_equal(a, b);
  if (op == ">") return ops::greater_than(a, b);
  if (op == ">=") return ops::greater_than_or_equal(a, b);
  if (op == "+") return ops::add(a, b);
  if (op == "-") return ops::subtract(a, b);
  if (op == "*") return ops::multiply(a, b);
  if (op == "/") return ops::divide(a, b);
  if (op == "%") return ops::modulo(a, b);
  if (op == "&&") return ops::logical_and(a, b);
  if (op == "||") return ops::logical_or(a, b);
  if (op == "!") return ops::logical_not(a);
  if (op == "neg") return ops::negate(a);
  return ops::Result::fail("unknown op " + op);
}

// The result in the oracle's form.
std::string encode(const Value& v) { return test::oracle_text(v); }

// The rows of golden file [name] of tests/golden/ops.
std::vector<std::vector<std::string>> read_tsv(const std::string& name) {
  return test::read_tsv(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/ops/" + name);
}

TEST(OpsGolden, AgreesWithReference) {
  auto rows = read_tsv("ops.golden");
  ASSERT_GT(rows.size(), 1000u);
  size_t failures = 0;
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 4u);
    const std::string& op = row[0];
    Value a = decode(row[1]);
    Value b = row[2] == "-" ? Value() : decode(row[2]);
    ops::Result got = apply(op, a, b);
    const std::string& want = row[3];
    std::string have = got.ok() ? encode(got.value) : "error:" + got.error;
    bool ok = want == "panic" ? !got.ok() : have == want;
    if (!ok && ++failures <= 25)
      ADD_FAILURE() << op << " " << row[1] << " " << row[2] << "\n  want " << want << "\n  have "
                    << have;
  }
  EXPECT_EQ(failures, 0u) << "of " << rows.size() << " cases";
}

// --- equality ------------------------------------------------------------------------

struct BinCase {
  std::string name;
  std::function<Value()> a, b, want;
};

class EqualsTable : public ::testing::TestWithParam<BinCase> {};

TEST_P(EqualsTable, Equals) {
  const BinCase& c = GetParam();
  Value got = ops::equals(c.a(), c.b());
  EXPECT_RAW_EQ(got, c.want());
  // Equality is symmetric.
  Value back = ops::equals(c.b(), c.a());
  EXPECT_RAW_EQ(back, c.want());
}

std::vector<BinCase> equals_cases() {
  auto unk = [] { return UBoolNN(); };
  return {
      {"bools", [] { return kTrue; }, [] { return kFalse; }, [] { return kFalse; }},
      {"neg_zero", [] { return NP("0.0"); }, [] { return NP("-0.0"); }, [] { return kTrue; }},
      {"int_vs_float", [] { return N(2); }, [] { return Value::number(Number::from_double(2.2)); },
       [] { return kFalse; }},
      {"parse_vs_float", [] { return NP("1.2"); }, [] { return Value::number(Number::from_double(1.2)); },
       [] { return kTrue; }},
      {"big_int_vs_float", [] { return NP("9223372036854775808"); },
       [] { return Value::number(Number::from_double(9223372036854775808.0)); }, [] { return kTrue; }},
      {"nfc", [] { return S("a\u00f1os"); }, [] { return S("an\u0303os"); }, [] { return kTrue; }},
      {"tuple_unknown", [] { return Tup({UNum()}); }, [] { return Tup({N(1)}); }, unk},
      {"tuple_dynamic", [] { return Tup({N(1)}); }, [] { return Tup({Dyn()}); }, unk},
      {"tuple_vs_unknown_tuple", [] { return Tup({N(1)}); },
       [] { return Value::unknown(Type::tuple(std::vector<const Type*>{Type::number()})); }, unk},
      {"dynamic_vs_tuple", [] { return Dyn(); }, [] { return Tup({N(1)}); }, unk},
      {"list_first_unknown_then_unequal", [] { return List({UNum(), N(1)}); },
       [] { return List({N(2), N(2)}); }, unk},
      {"list_unequal_then_unknown", [] { return List({N(1), UNum()}); },
       [] { return List({N(2), N(2)}); }, [] { return kFalse; }},
      {"object_unknown_and_different",
       [] { return Obj({{"a", UStr()}, {"b", S("z")}}); },
       [] { return Obj({{"a", S("x")}, {"b", S("y")}}); }, [] { return kFalse; }},
      {"object_unknown_otherwise_equal",
       [] { return Obj({{"a", UStr()}, {"b", S("y")}}); },
       [] { return Obj({{"a", S("x")}, {"b", S("y")}}); }, unk},
      {"map_unknown_and_different",
       [] { return Map(Type::string(), {{"a", UStr()}, {"b", S("z")}}); },
       [] { return Map(Type::string(), {{"a", S("x")}, {"b", S("y")}}); }, [] { return kFalse; }},
      {"map_unknown_otherwise_equal",
       [] { return Map(Type::string(), {{"a", UStr()}, {"b", S("y")}}); },
       [] { return Map(Type::string(), {{"a", S("x")}, {"b", S("y")}}); }, unk},
      {"set_with_unknown", [] { return Set({N(1)}); }, [] { return Set({N(1), UNum()}); }, unk},
      {"set_only_unknown", [] { return Set({N(1)}); }, [] { return Set({UNum()}); }, unk},
      {"sets_reordered", [] { return Set({N(1), N(2)}); }, [] { return Set({N(2), N(1)}); },
       [] { return kTrue; }},
      {"number_vs_unknown", [] { return N(2); }, [] { return UNum(); }, unk},
      {"number_vs_dynamic", [] { return N(1); }, [] { return Dyn(); }, unk},
      {"number_vs_unknown_above_0", [] { return N(2); },
       [] { return refine(UNum()).number_lower_bound(Value::number(Number::from_double(0)), true).new_value(); },
       unk},
      {"number_below_unknown_range", [] { return N(2); }, [] { return UNumMin(4, true); },
       [] { return kFalse; }},
      {"dynamic_vs_bool", [] { return Dyn(); }, [] { return kTrue; }, unk},
      {"dynamic_vs_dynamic", [] { return Dyn(); }, [] { return Dyn(); }, unk},
      {"list_with_dynamic", [] { return List({S("hi"), Dyn()}); }, [] { return List({S("hi"), Dyn()}); },
       unk},
      {"unknown_list_min_length_vs_empty",
       [] { return refine(Value::unknown(Type::list(Type::string()))).collection_length_lower_bound(1).new_value(); },
       [] { return Value::list(Type::string(), {}); }, [] { return kFalse; }},
      {"null_vs_null_dynamic", [] { return Null(Type::string()); }, [] { return Null(Type::dynamic()); },
       [] { return kTrue; }},
      {"unknown_string_vs_unknown_number", [] { return UStr(); }, [] { return UNum(); }, unk},
      {"empty_vs_null_dynamic", [] { return S(""); }, [] { return Null(Type::dynamic()); },
       [] { return kFalse; }},
      {"empty_vs_unknown", [] { return S(""); }, [] { return UStr(); }, unk},
      {"null_vs_unknown_number", [] { return Null(Type::string()); }, [] { return UNum(); }, unk},
      {"null_vs_not_null_unknown", [] { return Null(Type::string()); }, [] { return refine_not_null(UStr()); },
       [] { return kFalse; }},
      {"string_vs_unknown_number", [] { return S("hello"); }, [] { return UNum(); }, [] { return kFalse; }},
      {"unknown_string_vs_number", [] { return UStr(); }, [] { return N(1); }, [] { return kFalse; }},
      {"string_outside_prefix", [] { return S("boo"); },
       [] { return refine(UStr()).string_prefix_full("foo").new_value(); }, [] { return kFalse; }},
      {"string_inside_prefix", [] { return S("foobar"); },
       [] { return refine(UStr()).string_prefix_full("foo").new_value(); }, unk},
      {"object_null_dynamic_attr", [] { return Obj({{"a", S("a")}}); },
       [] { return Obj({{"a", Null(Type::dynamic())}}); }, [] { return kFalse; }},
      {"objects_never_conform", [] { return Obj({{"a", S("a")}, {"b", UNum()}}); },
       [] { return Obj({{"a", Dyn()}, {"c", UNum()}}); }, [] { return kFalse; }},
      {"unknowns_with_dynamic_attr", [] { return Obj({{"a", Dyn()}}); }, [] { return Obj({{"a", S("x")}}); },
       unk},
  };
}

INSTANTIATE_TEST_SUITE_P(Ops, EqualsTable, ::testing::ValuesIn(equals_cases()),
                         [](const auto& p) { return p.param.name; });

TEST(Equals, MarksUnionDeep) {
  Value a = List({N(1).mark("x")});
  Value b = List({N(1)}).mark("y");
  Value got = ops::equals(a, b);
  EXPECT_RAW_EQ(got, kTrue.mark(Marks::of("x")).mark("y"));
}

TEST(Equals, NullKeepsOnlyTopLevelMarks) {
  // go-cty 1.18: comparing with null keeps the top-level marks only.
  Value a = List({N(1).mark("inner")}).mark("outer");
  Value got = ops::equals(a, Null(Type::dynamic()));
  EXPECT_RAW_EQ(got, kFalse.mark("outer"));
  Value n = ops::equals(Null(Type::dynamic()).mark("n"), a);
  EXPECT_RAW_EQ(n, kFalse.mark("n").mark("outer"));
}

TEST(Equals, NumberEquality) {
  // Integers compare exactly; others by shortest text; -0 equals 0.
  EXPECT_TRUE(ops::number_equal(*Number::parse("-0"), *Number::parse("0")));
  EXPECT_TRUE(ops::number_equal(Number::from_int(1 << 20), *Number::parse("1048576")));
  EXPECT_FALSE(ops::number_equal(*Number::parse("1"), *Number::parse("1.5")));
  EXPECT_TRUE(ops::number_equal(Number::infinity(false), Number::infinity(false)));
  EXPECT_FALSE(ops::number_equal(Number::infinity(false), Number::infinity(true)));
}

TEST(Equals, Capsules) {
  static const CapsuleOps by_text{[](const void* a, const void* b) {
    return *static_cast<const std::string*>(a) == *static_cast<const std::string*>(b);
  }, nullptr};
  const Type* t1 = Type::capsule("t1", nullptr);
  const Type* t2 = Type::capsule("t2", &by_text);
  std::string x = "x", y = "x";
  EXPECT_RAW_EQ(ops::equals(Value::capsule(t1, &x), Value::capsule(t1, &x)), kTrue);
  EXPECT_RAW_EQ(ops::equals(Value::capsule(t1, &x), Value::capsule(t1, &y)), kFalse);
  EXPECT_RAW_EQ(ops::equals(Value::capsule(t2, &x), Value::capsule(t2, &y)), kTrue);
  EXPECT_RAW_EQ(ops::equals(Value::capsule(t1, &x), Value::capsule(t2, &x)), kFalse);
  EXPECT_RAW_EQ(ops::equals(Value::capsule(t1, &x), Value::unknown(t1)), UBoolNN());
  EXPECT_RAW_EQ(ops::equals(Value::capsule(t1, &x), Value::unknown(t2)), kFalse);
}

TEST(RawEquals, Basics) {
  EXPECT_TRUE(ops::raw_equal(UNum(), UNum()));
  EXPECT_FALSE(ops::raw_equal(UNum(), UNumNN()));
  EXPECT_TRUE(ops::raw_equal(UNumMin(1, true), UNumMin(1, true)));
  EXPECT_FALSE(ops::raw_equal(UNumMin(1, true), UNumMin(1, false)));
  EXPECT_FALSE(ops::raw_equal(UNum(), UStr()));
  EXPECT_TRUE(ops::raw_equal(Dyn(), Dyn()));
  EXPECT_TRUE(ops::raw_equal(Null(Type::string()), Null(Type::string())));
  EXPECT_FALSE(ops::raw_equal(Null(Type::string()), Null(Type::dynamic())));
  EXPECT_FALSE(ops::raw_equal(N(1), N(1).mark("a")));
  EXPECT_TRUE(ops::raw_equal(N(1).mark("a"), N(1).mark("a")));
  EXPECT_FALSE(ops::raw_equal(List({N(1).mark("a")}), List({N(1)})));
  EXPECT_TRUE(ops::raw_equal(List({UNum()}), List({UNum()})));
  EXPECT_TRUE(ops::raw_equal(Set({UNum(), N(1)}), Set({N(1), UNum()})));
  EXPECT_FALSE(ops::raw_equal(Set({UNum(), UNum()}), Set({UNum()})));
  EXPECT_TRUE(ops::raw_equal(Map(Type::number(), {{"a", N(1)}}), Map(Type::number(), {{"a", N(1)}})));
  EXPECT_FALSE(ops::raw_equal(Map(Type::number(), {{"a", N(1)}}), Map(Type::number(), {{"b", N(1)}})));
}

// --- arithmetic ---------------------------------------------------------------------

struct OpCase {
  std::string name;
  std::function<ops::Result(const Value&, const Value&)> op;
  std::function<Value()> a, b, want;
};

class ArithTable : public ::testing::TestWithParam<OpCase> {};

TEST_P(ArithTable, Result) {
  const OpCase& c = GetParam();
  ops::Result got = c.op(c.a(), c.b());
  ASSERT_TRUE(got.ok()) << got.error;
  EXPECT_RAW_EQ(got.value, c.want());
}

std::vector<OpCase> arith_cases() {
  auto add = [](const Value& a, const Value& b) { return ops::add(a, b); };
  auto sub = [](const Value& a, const Value& b) { return ops::subtract(a, b); };
  auto mul = [](const Value& a, const Value& b) { return ops::multiply(a, b); };
  auto div = [](const Value& a, const Value& b) { return ops::divide(a, b); };
  auto mod = [](const Value& a, const Value& b) { return ops::modulo(a, b); };
  auto neg = [](const Value& a, const Value&) { return ops::negate(a); };
  auto abs = [](const Value& a, const Value&) { return ops::absolute(a); };
  auto range = [](int64_t lo, bool lo_inc, int64_t hi, bool hi_inc) {
    return refine(UNum()).number_lower_bound(N(lo), lo_inc).number_upper_bound(N(hi), hi_inc).new_value();
  };
  auto nn_range = [](int64_t lo, int64_t hi) {
    return refine(UNum()).not_null().number_range_inclusive(N(lo), N(hi)).new_value();
  };
  auto nn_min = [](int64_t lo) { return refine(UNum()).not_null().number_lower_bound(N(lo), true).new_value(); };
  return {
      {"add", add, [] { return N(1); }, [] { return N(2); }, [] { return N(3); }},
      {"add_unknown", add, [] { return N(1); }, [] { return UNum(); }, [] { return UNumNN(); }},
      {"add_dynamic", add, [] { return N(1); }, [] { return Dyn(); }, [] { return UNumNN(); }},
      {"add_dynamic_dynamic", add, [] { return Dyn(); }, [] { return Dyn(); }, [] { return UNumNN(); }},
      {"add_bounded", add, [] { return N(1); }, [=] { return UNumMin(2, false); }, [=] { return nn_min(3); }},
      {"add_ranges", add, [=] { return range(1, true, 2, false); }, [=] { return range(2, false, 3, false); },
       [=] { return nn_range(3, 5); }},
      {"add_marks", add, [] { return N(1).mark("a"); }, [] { return N(2).mark("b"); },
       [] { return N(3).mark("a").mark("b"); }},
      {"sub_bounded", sub, [] { return N(1); }, [=] { return UNumMin(2, false); },
       [] { return refine(UNum()).not_null().number_upper_bound(N(-1), true).new_value(); }},
      {"sub_ranges", sub, [=] { return range(1, true, 2, false); }, [=] { return range(2, false, 3, false); },
       [=] { return nn_range(-2, 0); }},
      {"mul", mul, [] { return N(4); }, [] { return N(2); }, [] { return N(8); }},
      {"mul_unknown", mul, [] { return N(1); }, [] { return UNum(); }, [] { return UNumNN(); }},
      {"mul_bounded", mul, [] { return N(3); }, [=] { return UNumMin(2, false); }, [=] { return nn_min(6); }},
      {"mul_two_bounded", mul, [=] { return UNumMin(2, false); }, [=] { return UNumMin(4, false); },
       [=] { return nn_min(8); }},
      {"mul_ranges", mul, [=] { return range(1, true, 2, false); }, [=] { return range(2, false, 3, false); },
       [=] { return nn_range(2, 6); }},
      {"mul_range_by_zero", mul, [=] { return range(1, true, 2, false); }, [] { return N(0); },
       [] { return N(0); }},
      {"mul_marks", mul, [] { return N(0).mark("1"); }, [] { return N(0).mark("2"); },
       [] { return N(0).mark("1").mark("2"); }},
      {"div_unknown", div, [] { return N(1); }, [] { return UNum(); }, [] { return UNumNN(); }},
      {"div_bounded_not_refined", div, [] { return N(1); }, [=] { return UNumMin(2, false); },
       [] { return UNumNN(); }},
      {"div_by_zero", div, [] { return N(5); }, [] { return N(0); }, [] { return Inf(false); }},
      {"div_neg_by_zero", div, [] { return N(-5); }, [] { return N(0); }, [] { return Inf(true); }},
      {"mod", mod, [] { return N(-11); }, [] { return N(2); }, [] { return N(-1); }},
      {"mod_zero", mod, [] { return N(5); }, [] { return N(0); }, [] { return N(5); }},
      {"mod_dynamic", mod, [] { return Dyn(); }, [] { return Dyn(); }, [] { return UNumNN(); }},
      {"mod_marks", mod, [] { return N(10).mark("1"); }, [] { return N(10); }, [] { return N(0).mark("1"); }},
      {"neg", neg, [] { return N(5); }, [] { return Value(); }, [] { return N(-5); }},
      {"neg_unknown", neg, [] { return UNum(); }, [] { return Value(); }, [] { return UNumNN(); }},
      {"neg_dynamic", neg, [] { return Dyn(); }, [] { return Value(); }, [] { return UNumNN(); }},
      {"neg_marked", neg, [] { return N(0).mark("m"); }, [] { return Value(); }, [] { return N(0).mark("m"); }},
      {"abs", abs, [] { return N(-1); }, [] { return Value(); }, [] { return N(1); }},
      {"abs_inf", abs, [] { return Inf(true); }, [] { return Value(); }, [] { return Inf(false); }},
      {"abs_unknown", abs, [] { return UNum(); }, [] { return Value(); }, [=] { return nn_min(0); }},
      {"abs_dynamic", abs, [] { return Dyn(); }, [] { return Value(); }, [=] { return nn_min(0); }},
  };
}

INSTANTIATE_TEST_SUITE_P(Ops, ArithTable, ::testing::ValuesIn(arith_cases()),
                         [](const auto& p) { return p.param.name; });

TEST(Arith, Errors) {
  EXPECT_EQ(ops::add(Inf(false), Inf(true)).error, "can't compute sum of opposing infinities");
  EXPECT_EQ(ops::subtract(Inf(false), Inf(false)).error, "can't subtract infinity from itself");
  EXPECT_EQ(ops::multiply(N(0), Inf(false)).error, "can't multiply zero by infinity");
  EXPECT_EQ(ops::divide(N(0), N(0)).error, "can't divide zero by zero or infinity by infinity");
  EXPECT_FALSE(ops::add(N(1), S("1")).ok());
  EXPECT_EQ(ops::add(N(1), S("1")).error, "type mismatch: want number but value 1 is string");
  EXPECT_FALSE(ops::add(Null(Type::number()), N(1)).ok());
  // A null of the dynamic type short-circuits as cty's type check does.
  EXPECT_RAW_EQ(ops::add(Null(Type::dynamic()), N(1)).value, UNumNN());
  EXPECT_RAW_EQ(ops::add(Null(Type::number()), UNum()).value, UNumNN());
}

// --- comparison and logic ---------------------------------------------------------------

std::vector<OpCase> compare_cases() {
  auto lt = [](const Value& a, const Value& b) { return ops::less_than(a, b); };
  auto gt = [](const Value& a, const Value& b) { return ops::greater_than(a, b); };
  auto le = [](const Value& a, const Value& b) { return ops::less_than_or_equal(a, b); };
  auto ge = [](const Value& a, const Value& b) { return ops::greater_than_or_equal(a, b); };
  auto and_ = [](const Value& a, const Value& b) { return ops::logical_and(a, b); };
  auto or_ = [](const Value& a, const Value& b) { return ops::logical_or(a, b); };
  auto not_ = [](const Value& a, const Value&) { return ops::logical_not(a); };
  auto below = [](int64_t hi) { return refine(UNum()).number_upper_bound(N(hi), true).new_value(); };
  return {
      {"lt", lt, [] { return N(1); }, [] { return N(2); }, [] { return kTrue; }},
      {"lt_unknown", lt, [] { return N(1); }, [] { return UNum(); }, [] { return UBoolNN(); }},
      {"lt_dynamic", lt, [] { return Dyn(); }, [] { return N(1); }, [] { return UBoolNN(); }},
      {"lt_decided_by_bounds", lt, [] { return N(1); }, [] { return UNumMin(2, true); }, [] { return kTrue; }},
      {"lt_refuted_by_bounds", lt, [] { return N(3); }, [=] { return below(2); }, [] { return kFalse; }},
      {"lt_touching_bounds", lt, [] { return N(2); }, [] { return UNumMin(2, true); }, [] { return UBoolNN(); }},
      {"lt_marks", lt, [] { return N(1).mark("a"); }, [] { return N(2); }, [] { return kTrue.mark("a"); }},
      {"gt_decided_by_bounds", gt, [] { return UNumMin(5, true); }, [] { return N(1); }, [] { return kTrue; }},
      {"gt_refuted_by_bounds", gt, [=] { return below(0); }, [] { return N(1); }, [] { return kFalse; }},
      {"le_equal", le, [] { return N(2); }, [] { return N(2); }, [] { return kTrue; }},
      {"le_unknown", le, [] { return N(2); }, [] { return UNum(); }, [] { return UBoolNN(); }},
      {"ge_by_bounds", ge, [] { return UNumMin(3, true); }, [] { return N(2); }, [] { return kTrue; }},
      {"and", and_, [] { return kTrue; }, [] { return kFalse; }, [] { return kFalse; }},
      {"and_false_unknown", and_, [] { return kFalse; }, [] { return UBool(); }, [] { return kFalse; }},
      {"and_unknown_false", and_, [] { return UBool(); }, [] { return kFalse; }, [] { return kFalse; }},
      {"and_true_unknown", and_, [] { return kTrue; }, [] { return UBool(); }, [] { return UBoolNN(); }},
      {"and_dynamic_false", and_, [] { return Dyn(); }, [] { return kFalse; }, [] { return kFalse; }},
      {"and_marked", and_, [] { return kTrue.mark("a"); }, [] { return kTrue.mark("b"); },
       [] { return kTrue.mark("a").mark("b"); }},
      {"or_true_unknown", or_, [] { return kTrue; }, [] { return UBool(); }, [] { return kTrue; }},
      {"or_unknown_false", or_, [] { return UBool(); }, [] { return kFalse; }, [] { return UBoolNN(); }},
      {"or_dynamic", or_, [] { return Dyn(); }, [] { return Dyn(); }, [] { return UBoolNN(); }},
      {"not", not_, [] { return kTrue; }, [] { return Value(); }, [] { return kFalse; }},
      {"not_unknown", not_, [] { return UBool(); }, [] { return Value(); }, [] { return UBoolNN(); }},
      {"not_dynamic", not_, [] { return Dyn(); }, [] { return Value(); }, [] { return UBoolNN(); }},
      {"not_marked", not_, [] { return kFalse.mark("m"); }, [] { return Value(); }, [] { return kTrue.mark("m"); }},
  };
}

INSTANTIATE_TEST_SUITE_P(Compare, ArithTable, ::testing::ValuesIn(compare_cases()),
                         [](const auto& p) { return p.param.name; });

TEST(Compare, Errors) {
  EXPECT_FALSE(ops::less_than(Null(Type::number()), N(1)).ok());
  EXPECT_FALSE(ops::less_than(S("a"), N(1)).ok());
  EXPECT_FALSE(ops::logical_and(Null(Type::boolean()), kTrue).ok());
  EXPECT_FALSE(ops::logical_not(N(1)).ok());
}

// --- collections --------------------------------------------------------------------------

std::vector<OpCase> collection_cases() {
  auto len = [](const Value& a, const Value&) { return ops::length(a); };
  auto idx = [](const Value& a, const Value& b) { return ops::index(a, b); };
  auto has = [](const Value& a, const Value& b) { return ops::has_index(a, b); };
  auto elem = [](const Value& a, const Value& b) { return ops::has_element(a, b); };
  auto attr = [](const Value& a, const Value& b) { return ops::get_attr(a, b.as_string()); };
  auto nn_len = [](int64_t lo, int64_t hi) {
    return refine(UNum()).not_null().number_range_inclusive(N(lo), N(hi)).new_value();
  };
  const Type* ls = Type::list(Type::string());
  return {
      {"len_list", len, [] { return List({N(1), N(2)}); }, [] { return Value(); }, [] { return N(2); }},
      {"len_map", len, [] { return Map(Type::number(), {{"a", N(1)}}); }, [] { return Value(); }, [] { return N(1); }},
      {"len_object", len, [] { return Obj({{"a", N(1)}, {"b", N(2)}}); }, [] { return Value(); }, [] { return N(2); }},
      {"len_unknown_tuple", len, [] { return Value::unknown(Type::tuple(std::vector<const Type*>{Type::number()})); },
       [] { return Value(); }, [] { return N(1); }},
      {"len_unknown_list", len, [=] { return Value::unknown(ls); }, [] { return Value(); },
       [=] { return nn_len(0, INT64_MAX); }},
      {"len_refined_list", len,
       [=] { return refine(Value::unknown(ls)).collection_length_lower_bound(2).collection_length_upper_bound(5).new_value(); },
       [] { return Value(); }, [=] { return nn_len(2, 5); }},
      {"len_refined_map_exact", len,
       [] { return refine(Value::unknown(Type::map(Type::string()))).collection_length(3).new_value(); },
       [] { return Value(); }, [] { return N(3); }},
      {"len_dynamic", len, [] { return Dyn(); }, [] { return Value(); }, [=] { return nn_len(0, INT64_MAX); }},
      {"len_set_unknowns", len, [] { return Set({N(1), UNum(), UNum()}); }, [] { return Value(); },
       [=] { return nn_len(1, 3); }},
      {"len_set_one_unknown", len, [] { return Set({UNum()}); }, [] { return Value(); }, [] { return N(1); }},
      {"len_marked", len, [] { return List({N(1)}).mark("m"); }, [] { return Value(); }, [] { return N(1).mark("m"); }},
      {"index_list", idx, [] { return List({S("hello"), S("world")}); }, [] { return N(1); }, [] { return S("world"); }},
      {"index_list_unknown_key", idx, [] { return List({S("hello")}); }, [] { return UNum(); }, [] { return UStr(); }},
      {"index_list_dynamic_key", idx, [] { return List({S("hello")}); }, [] { return Dyn(); }, [] { return UStr(); }},
      {"index_unknown_list", idx, [=] { return Value::unknown(ls); }, [] { return N(0); }, [] { return UStr(); }},
      {"index_map_nfc", idx, [] { return Map(Type::string(), {{"gr\u00e9eting", S("hello")}}); },
       [] { return S("gre\u0301eting"); }, [] { return S("hello"); }},
      {"index_map_missing", idx, [] { return Map(Type::string(), {{"a", S("x")}}); }, [] { return S("b"); },
       [] { return Null(Type::string()); }},
      {"index_dynamic", idx, [] { return Dyn(); }, [] { return N(0); }, [] { return Dyn(); }},
      {"index_tuple", idx, [] { return Tup({S("hello"), N(5)}); }, [] { return N(1); }, [] { return N(5); }},
      {"index_tuple_dynamic_elem", idx, [] { return Tup({S("hello"), Dyn()}); }, [] { return N(1); }, [] { return Dyn(); }},
      {"index_tuple_unknown_key", idx, [] { return Tup({S("hello"), UNum()}); }, [] { return UNum(); },
       [] { return Dyn(); }},
      {"index_unknown_tuple", idx, [] { return Value::unknown(Type::tuple(std::vector<const Type*>{Type::string()})); },
       [] { return N(0); }, [] { return UStr(); }},
      {"index_marks", idx, [] { return List({S("hello")}).mark("1"); }, [] { return N(0).mark("2"); },
       [] { return S("hello").mark("1").mark("2"); }},
      {"has_list", has, [] { return List({S("a"), S("b")}); }, [] { return N(1); }, [] { return kTrue; }},
      {"has_list_past_end", has, [] { return List({S("a"), S("b")}); }, [] { return N(2); }, [] { return kFalse; }},
      {"has_list_negative", has, [] { return List({S("a")}); }, [] { return N(-1); }, [] { return kFalse; }},
      {"has_list_fraction", has, [] { return List({S("a")}); }, [] { return NP("0.5"); }, [] { return kFalse; }},
      {"has_list_string_key", has, [] { return List({S("a")}); }, [] { return S("x"); }, [] { return kFalse; }},
      {"has_list_unknown_key", has, [] { return List({S("a")}); }, [] { return UNum(); }, [] { return UBoolNN(); }},
      {"has_unknown_list", has, [=] { return Value::unknown(ls); }, [] { return N(0); }, [] { return UBoolNN(); }},
      {"has_unknown_list_string_key", has, [=] { return Value::unknown(ls); }, [] { return S("x"); },
       [] { return kFalse; }},
      {"has_map", has, [] { return Map(Type::string(), {{"gre\u0301eting", S("x")}}); },
       [] { return S("gr\u00e9eting"); }, [] { return kTrue; }},
      {"has_map_missing", has, [] { return Map(Type::string(), {{"a", S("x")}}); }, [] { return S(""); },
       [] { return kFalse; }},
      {"has_unknown_map_number_key", has, [] { return Value::unknown(Type::map(Type::string())); },
       [] { return N(0); }, [] { return kFalse; }},
      {"has_unknown_tuple", has, [] { return Value::unknown(Type::tuple(std::vector<const Type*>{Type::string()})); },
       [] { return N(0); }, [] { return kTrue; }},
      {"has_dynamic", has, [] { return Dyn(); }, [] { return S("x"); }, [] { return UBoolNN(); }},
      {"has_marks", has, [] { return List({S("a")}); }, [] { return N(0).mark("1"); }, [] { return kTrue.mark("1"); }},
      {"attr", attr, [] { return Obj({{"greeting", S("hello")}}); }, [] { return S("greeting"); },
       [] { return S("hello"); }},
      {"attr_nfc_unknown", attr,
       [] { return Value::unknown(Type::object(std::vector<TypeAttr>{{"gr\u00e9eting", Type::string()}})); },
       [] { return S("gre\u0301eting"); }, [] { return UStr(); }},
      {"attr_dynamic", attr, [] { return Dyn(); }, [] { return S("x"); }, [] { return Dyn(); }},
      {"attr_marked", attr, [] { return Obj({{"a", S("hello")}}).mark("1"); }, [] { return S("a"); },
       [] { return S("hello").mark("1"); }},
      {"elem", elem, [] { return Set({N(1), N(2)}); }, [] { return N(2); }, [] { return kTrue; }},
      {"elem_missing", elem, [] { return Set({N(1), N(2)}); }, [] { return N(3); }, [] { return kFalse; }},
      {"elem_other_type", elem, [] { return Set({N(1)}); }, [] { return S("1"); }, [] { return kFalse; }},
      {"elem_unknown_in_set", elem, [] { return Set({N(1), UNum()}); }, [] { return N(3); }, [] { return UBoolNN(); }},
      {"elem_found_despite_unknown", elem, [] { return Set({N(1), UNum()}); }, [] { return N(1); },
       [] { return kTrue; }},
      {"elem_unknown", elem, [] { return Set({N(1)}); }, [] { return UNum(); }, [] { return UBoolNN(); }},
      {"elem_unknown_set", elem, [] { return Value::unknown(Type::set(Type::number())); }, [] { return N(1); },
       [] { return UBoolNN(); }},
  };
}

INSTANTIATE_TEST_SUITE_P(Collections, ArithTable, ::testing::ValuesIn(collection_cases()),
                         [](const auto& p) { return p.param.name; });

TEST(Collections, Errors) {
  EXPECT_FALSE(ops::length(S("abc")).ok());
  EXPECT_FALSE(ops::length(Null(Type::list(Type::string()))).ok());
  EXPECT_FALSE(ops::index(List({S("a")}), N(1)).ok());
  EXPECT_FALSE(ops::index(List({S("a")}), N(-1)).ok());
  EXPECT_FALSE(ops::index(List({S("a")}), S("0")).ok());
  EXPECT_FALSE(ops::index(S("a"), N(0)).ok());
  EXPECT_FALSE(ops::get_attr(Obj({{"a", N(1)}}), "b").ok());
  EXPECT_FALSE(ops::get_attr(N(1), "b").ok());
  EXPECT_FALSE(ops::has_element(List({N(1)}), N(1)).ok());
  EXPECT_RAW_EQ(ops::length_int(Set({UNum(), UNum()})).value, N(2));
}

// --- refinements ---------------------------------------------------------------------------

TEST(Refine, NotNullAndNull) {
  Value v = refine(UStr()).not_null().new_value();
  EXPECT_TRUE(v.refinement().not_null);
  EXPECT_TRUE(value_range(v).definitely_not_null());
  // A value refined as null is the null.
  EXPECT_RAW_EQ(refine(UStr()).null().new_value(), Null(Type::string()));
  RefinementBuilder b = refine(refine_not_null(UStr()));
  b.null();
  EXPECT_EQ(b.error(), "refining non-null value as null");
  RefinementBuilder k = refine(Null(Type::string()));
  k.not_null();
  EXPECT_EQ(k.error(), "refining null value as non-null");
}

TEST(Refine, DynamicValIgnoresEverything) {
  RefinementBuilder b = refine(Dyn());
  b.not_null().string_prefix("x");
  EXPECT_TRUE(b.error().empty());
  EXPECT_RAW_EQ(b.new_value(), Dyn());
}

TEST(Refine, KnownValuesAreChecked) {
  EXPECT_RAW_EQ(refine(N(5)).number_range_inclusive(N(1), N(10)).new_value(), N(5));
  RefinementBuilder b = refine(N(5));
  b.number_lower_bound(N(6), true);
  EXPECT_FALSE(b.error().empty());
  RefinementBuilder s = refine(S("hello"));
  s.string_prefix_full("help");
  EXPECT_EQ(s.error(), "refined prefix is inconsistent with known value");
  RefinementBuilder l = refine(List({N(1)}));
  l.collection_length_lower_bound(2);
  EXPECT_FALSE(l.error().empty());
  RefinementBuilder wrong = refine(UStr());
  wrong.number_lower_bound(N(1), true);
  EXPECT_FALSE(wrong.error().empty());
}

TEST(Refine, NumberBounds) {
  Value v = refine(UNum()).number_lower_bound(N(1), true).number_upper_bound(N(5), false).new_value();
  ValueRange r = value_range(v);
  EXPECT_RAW_EQ(r.number_lower_bound().first, N(1));
  EXPECT_TRUE(r.number_lower_bound().second);
  EXPECT_RAW_EQ(r.number_upper_bound().first, N(5));
  EXPECT_FALSE(r.number_upper_bound().second);
  EXPECT_FALSE(r.definitely_not_null());
  // A looser bound is ignored; a tighter one replaces.
  Value looser = refine(v).number_lower_bound(N(0), true).new_value();
  EXPECT_RAW_EQ(looser, v);
  Value tighter = refine(v).number_lower_bound(N(2), false).new_value();
  EXPECT_RAW_EQ(value_range(tighter).number_lower_bound().first, N(2));
  // Infinite bounds are no bounds.
  Value inf = refine(UNum()).number_lower_bound(Inf(true), true).number_upper_bound(Inf(false), true).new_value();
  EXPECT_RAW_EQ(inf, UNum());
  // Equal inclusive bounds and not null: the number itself.
  EXPECT_RAW_EQ(refine(UNum()).not_null().number_range_inclusive(N(3), N(3)).new_value(), N(3));
  // ... but it may still be null.
  Value nullable = refine(UNum()).number_range_inclusive(N(3), N(3)).new_value();
  EXPECT_FALSE(nullable.is_known());
  RefinementBuilder bad = refine(UNum());
  bad.number_lower_bound(N(5), true).number_upper_bound(N(4), true);
  EXPECT_FALSE(bad.error().empty());
  // An unknown bound leaves that side alone.
  Value half = refine(UNum()).number_range_inclusive(N(0), UNum()).new_value();
  EXPECT_FALSE(half.refinement().has_upper);
  EXPECT_TRUE(half.refinement().has_lower);
}

TEST(Refine, CollectionLengths) {
  const Type* lt = Type::list(Type::string());
  Value v = refine(Value::unknown(lt)).collection_length_lower_bound(1).new_value();
  EXPECT_EQ(value_range(v).length_lower_bound(), 1u);
  EXPECT_EQ(value_range(v).length_upper_bound(), UINT64_MAX);
  EXPECT_RAW_EQ(refine(Value::unknown(lt)).not_null().collection_length(0).new_value(),
                Value::list(Type::string(), {}));
  EXPECT_RAW_EQ(refine(Value::unknown(lt)).not_null().collection_length(2).new_value(),
                Value::list(Type::string(), {UStr(), UStr()}));
  const Type* st = Type::set(Type::string());
  EXPECT_RAW_EQ(refine(Value::unknown(st)).not_null().collection_length(1).new_value(), Set({UStr()}));
  Value two = refine(Value::unknown(st)).not_null().collection_length(2).new_value();
  EXPECT_FALSE(two.is_known());
  EXPECT_RAW_EQ(refine(Value::unknown(Type::map(Type::number()))).not_null().collection_length(0).new_value(),
                Value::map(Type::number(), {}));
  RefinementBuilder bad = refine(Value::unknown(lt));
  bad.collection_length_upper_bound(1).collection_length_lower_bound(2);
  EXPECT_FALSE(bad.error().empty());
}

TEST(Refine, StringPrefix) {
  Value v = refine(UStr()).string_prefix("hello-").new_value();
  EXPECT_EQ(value_range(v).string_prefix(), "hello-");
  // A trailing letter could take a combining mark: it is dropped.
  EXPECT_EQ(refine(UStr()).string_prefix("hello").new_value().refinement().prefix, "hell");
  EXPECT_EQ(refine(UStr()).string_prefix_full("hello").new_value().refinement().prefix, "hello");
  // A shorter prefix than the current one changes nothing; a conflicting one fails.
  Value longer = refine(v).string_prefix_full("hel").new_value();
  EXPECT_EQ(longer.refinement().prefix, "hello-");
  RefinementBuilder bad = refine(v);
  bad.string_prefix_full("help");
  EXPECT_EQ(bad.error(), "refined prefix is inconsistent with previous refined prefix");
}

TEST(Refine, SafeKnownPrefix) {
  // Expectations computed with go-cty's ctystrings.SafeKnownPrefix.
  EXPECT_EQ(safe_known_prefix("hello"), "hell");
  EXPECT_EQ(safe_known_prefix("hello-"), "hello-");
  EXPECT_EQ(safe_known_prefix("a"), "");
  EXPECT_EQ(safe_known_prefix("-"), "-");
  EXPECT_EQ(safe_known_prefix("ab-"), "ab-");
  EXPECT_EQ(safe_known_prefix("h\u00e9llo"), "h\u00e9ll");
  EXPECT_EQ(safe_known_prefix("e\u0301"), "");
  EXPECT_EQ(safe_known_prefix("x "), "x ");
  EXPECT_EQ(safe_known_prefix("\u65e5\u672c"), "\u65e5");
  EXPECT_EQ(safe_known_prefix("\u65e5\u672c-"), "\u65e5\u672c-");
  EXPECT_EQ(safe_known_prefix("\U0001F44D"), "");
  EXPECT_EQ(safe_known_prefix("\U0001F44D-"), "\U0001F44D-");
  EXPECT_EQ(safe_known_prefix("\u00e9-"), "\u00e9-");
  EXPECT_EQ(safe_known_prefix("ok:"), "ok:");
  EXPECT_EQ(safe_known_prefix("1.5"), "1.");
  EXPECT_EQ(safe_known_prefix(""), "");
}

TEST(Refine, Marks) {
  Value v = refine(UStr().mark("s")).not_null().new_value();
  EXPECT_TRUE(v.marks().has("s"));
  EXPECT_TRUE(v.unmark().refinement().not_null);
}

TEST(Range, KnownValues) {
  ValueRange s = value_range(S("abc"));
  EXPECT_EQ(s.string_prefix(), "abc");
  EXPECT_TRUE(s.definitely_not_null());
  ValueRange n = value_range(N(7));
  EXPECT_RAW_EQ(n.number_lower_bound().first, N(7));
  EXPECT_RAW_EQ(n.number_upper_bound().first, N(7));
  ValueRange l = value_range(List({N(1), N(2)}));
  EXPECT_EQ(l.length_lower_bound(), 2u);
  EXPECT_EQ(l.length_upper_bound(), 2u);
  ValueRange z = value_range(Null(Type::number()));
  EXPECT_TRUE(z.definitely_null());
  EXPECT_RAW_EQ(z.number_lower_bound().first, Inf(true));
  ValueRange d = value_range(Dyn());
  EXPECT_FALSE(d.number_lower_bound().first.is_known());
  EXPECT_TRUE(d.could_be_null());
}

TEST(Range, Includes) {
  Value u = refine(UNum()).not_null().number_range_inclusive(N(1), N(3)).new_value();
  ValueRange r = value_range(u);
  EXPECT_RAW_EQ(r.includes(N(0)), kFalse);
  EXPECT_RAW_EQ(r.includes(N(2)), UBoolNN());
  EXPECT_RAW_EQ(r.includes(Null(Type::number())), kFalse);
  EXPECT_RAW_EQ(r.includes(S("2")), kFalse);
  ValueRange p = value_range(refine(UStr()).string_prefix_full("ab").new_value());
  EXPECT_RAW_EQ(p.includes(S("abc")), UBoolNN());
  EXPECT_RAW_EQ(p.includes(S("b")), kFalse);
  EXPECT_RAW_EQ(p.includes(Null(Type::string())), kTrue);
  ValueRange l = value_range(refine(Value::unknown(Type::list(Type::number()))).collection_length_lower_bound(2).new_value());
  EXPECT_RAW_EQ(l.includes(List({N(1)})), kFalse);
  EXPECT_RAW_EQ(l.includes(List({N(1), N(2)})), UBoolNN());
}

}  // namespace
}  // namespace hclvm

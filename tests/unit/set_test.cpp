// Tests of set construction (Value::set, src/value/set.cpp) and the set
// hashing rules (ops::set_hash_bytes): the order and deduplication the
// reference gives for toset() over many inputs (tests/golden/ops/sets.golden),
// the text big.Float's String() gives numbers in hashes
// (tests/golden/ops/hash.golden), and the cases the oracle cannot build:
// unknown and marked elements.
#include <gtest/gtest.h>

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

Value N(int64_t i) { return Value::integer(i); }
Value S(std::string_view s) { return Value::string(s); }
Value UNum() { return Value::unknown(Type::number()); }

// The rows of golden file [name] of tests/golden/ops.
std::vector<std::vector<std::string>> read_tsv(const std::string& name) {
  return test::read_tsv(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/ops/" + name);
}

// Decodes an element as the oracle prints it.
Value decode_element(const std::string& json) { return test::oracle_value(json); }

// The elements of the set, as numbers' text when JSON cannot hold them.
std::string element_texts(const Value& set) {
  std::string out;
  for (const Value& e : set.elements()) {
    if (!out.empty()) out += ",";
    if (e.is_plain() && e.type() == Type::number()) out += e.as_number().text();
    else out += to_json(e, Type::dynamic()).value;
  }
  return out;
}

TEST(SetGolden, OrderAndDedupAgreeWithReference) {
  auto rows = read_tsv("sets.golden");
  ASSERT_GT(rows.size(), 40u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 2u);
    if (row[0].find("\"repr\"") != std::string::npos) {
      // [1/0, -1/0, 0, 5]: built here directly; cty orders numbers by value.
      Value s = Value::set(Type::number(), {Value::number(Number::infinity(false)),
                                            Value::number(Number::infinity(true)), N(0), N(5)});
      EXPECT_EQ(element_texts(s), "-Inf,0,5,+Inf");
      continue;
    }
    Value list = decode_element(row[0]);
    ASSERT_TRUE(list.type()->is_list()) << row[0];
    std::vector<Value> elems(list.elements().begin(), list.elements().end());
    Value set = Value::set(list.type()->element(), std::move(elems));
    JsonResult<std::string> got = to_json(set, Type::dynamic());
    ASSERT_TRUE(got.ok()) << got.error->message;
    EXPECT_EQ(got.value, row[1]) << "input " << row[0];
  }
}

TEST(SetHash, NumbersAsBigFloatString) {
  auto rows = read_tsv("hash.golden");
  ASSERT_GT(rows.size(), 50u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 3u);
    const std::string& how = row[0];
    const std::string& in = row[1];
    Number n;
    if (how == "parse") {
      n = *Number::parse(in);
    } else if (how == "int") {
      n = Number::from_int(std::stoll(in));
    } else if (how == "float") {
      n = Number::from_double(std::stod(in));
    } else {
      size_t slash = in.find('/');
      NumError err = NumError::None;
      n = Number::quo(*Number::parse(in.substr(0, slash)), *Number::parse(in.substr(slash + 1)), err);
    }
    EXPECT_EQ(ops::set_hash_bytes(Value::number(n)), row[2]) << how << " " << in;
  }
}

TEST(SetHash, Shapes) {
  EXPECT_EQ(ops::set_hash_bytes(UNum()), "?");
  EXPECT_EQ(ops::set_hash_bytes(Value::null(Type::string())), "~");
  EXPECT_EQ(ops::set_hash_bytes(Value::boolean(true)), "T");
  EXPECT_EQ(ops::set_hash_bytes(S("a\"b\\c\n\u00e9\u200b")), "\"a\\\"b\\\\c\\n\u00e9\\u200b\"");
  EXPECT_EQ(ops::set_hash_bytes(Value::list(Type::number(), {N(1), UNum()})), "[1;?;]");
  EXPECT_EQ(ops::set_hash_bytes(Value::map(Type::number(), {{"b", N(2)}, {"a", N(1)}})),
            "{\"a\":1;\"b\":2;}");
  EXPECT_EQ(ops::set_hash_bytes(Value::object({{"z", N(1)}, {"a", S("x")}})), "<\"x\";1;>");
  EXPECT_EQ(ops::set_hash_bytes(Value::tuple({N(1), Value::boolean(false)})), "<1;F;>");
  EXPECT_EQ(ops::set_hash_bytes(N(5).mark("m")), "5");
  // Go's crc32.ChecksumIEEE("hello").
  EXPECT_EQ(ops::crc32_ieee("hello"), 0x3610a686u);
  EXPECT_EQ(ops::set_hash(S("hello")), ops::crc32_ieee("\"hello\""));
}

TEST(Set, UnknownsNeverCoalesce) {
  Value s = Value::set(Type::number(), {UNum(), N(2), UNum(), N(1), N(2)});
  ASSERT_EQ(s.length(), 4u);
  // Known values first in order, then the unknowns.
  EXPECT_TRUE(ops::raw_equal(s.element(0), N(1)));
  EXPECT_TRUE(ops::raw_equal(s.element(1), N(2)));
  EXPECT_FALSE(s.element(2).is_known());
  EXPECT_FALSE(s.element(3).is_known());
  EXPECT_FALSE(s.is_wholly_known());
}

TEST(Set, NullsLastAfterUnknowns) {
  Value s = Value::set(Type::string(),
                       {Value::null(Type::string()), Value::unknown(Type::string()), S("b"),
                        Value::null(Type::string()), S("a")});
  ASSERT_EQ(s.length(), 4u);
  EXPECT_EQ(s.element(0).as_string(), "a");
  EXPECT_EQ(s.element(1).as_string(), "b");
  EXPECT_FALSE(s.element(2).is_known());
  EXPECT_TRUE(s.element(3).is_null());
}

TEST(Set, RefinedUnknownsKeepTheirRefinements) {
  Value u = refine_not_null(Value::unknown(Type::string()));
  Value s = Value::set(Type::string(), {u, u});
  ASSERT_EQ(s.length(), 2u);
  EXPECT_TRUE(s.element(0).refinement().not_null);
}

TEST(Set, NestedUnknownsNeverCoalesce) {
  const Type* lt = Type::list(Type::number());
  Value a = Value::list(Type::number(), {N(1), UNum()});
  Value s = Value::set(lt, {a, a, Value::list(Type::number(), {N(1), N(2)})});
  EXPECT_EQ(s.length(), 3u);
  // Ordered by hash bytes: "[1;2;]" < "[1;?;]".
  EXPECT_TRUE(s.element(0).is_wholly_known());
}

TEST(Set, MarksMoveToTheSet) {
  Value inner = Value::list(Type::string(), {S("a").mark("inner")});
  Value outer = Value::list(Type::string(), {S("b")}).mark("outer");
  Value s = Value::set(Type::list(Type::string()), {inner, outer});
  EXPECT_TRUE(s.is_marked());
  EXPECT_TRUE(s.marks().has("inner"));
  EXPECT_TRUE(s.marks().has("outer"));
  auto [u, m] = s.unmark_with_marks();
  EXPECT_FALSE(u.contains_marked());
  EXPECT_EQ(u.length(), 2u);
}

TEST(Set, EmptyAndTyped) {
  Value s = Value::set(Type::string(), {});
  EXPECT_EQ(s.type(), Type::set(Type::string()));
  EXPECT_EQ(s.length(), 0u);
  EXPECT_TRUE(ops::raw_equal(s, Value::set(Type::string(), {})));
}

TEST(Set, NegativeZeroIsKeptApart) {
  // 0 and -0 are equal but hash apart, so both stay (as in the reference).
  Value zero = Value::number(*Number::parse("0"));
  Value neg = Value::number(Number::parse("0")->neg());
  Value s = Value::set(Type::number(), {zero, neg});
  EXPECT_EQ(s.length(), 2u);
  EXPECT_TRUE(ops::set_stores(s, zero));
  Value s2 = Value::set(Type::number(), {zero, zero});
  EXPECT_EQ(s2.length(), 1u);
}

TEST(Set, LengthWithUnknowns) {
  Value s = Value::set(Type::number(), {N(1), UNum()});
  ops::Result len = ops::length(s);
  ASSERT_TRUE(len.ok());
  ValueRange r = value_range(len.value);
  EXPECT_TRUE(r.definitely_not_null());
  EXPECT_TRUE(ops::raw_equal(r.number_lower_bound().first, N(1)));
  EXPECT_TRUE(ops::raw_equal(r.number_upper_bound().first, N(2)));
}

TEST(Set, LargeStableSort) {
  // More than one insertion-sort block of Go's stable sort (20), with
  // equal-ranked unknowns keeping their bucket order.
  std::vector<Value> es;
  for (int i = 0; i < 100; ++i) es.push_back(i % 10 == 0 ? UNum() : N((i * 37) % 101));
  Value s = Value::set(Type::number(), es);
  size_t known = 0;
  for (const Value& e : s.elements()) known += e.is_known() ? 1u : 0u;
  EXPECT_EQ(known, 90u);
  for (size_t i = 1; i < known; ++i)
    EXPECT_LT(Number::cmp(s.element(i - 1).as_number(), s.element(i).as_number()), 0);
  for (size_t i = known; i < s.length(); ++i) EXPECT_FALSE(s.element(i).is_known());
}

}  // namespace
}  // namespace hclvm

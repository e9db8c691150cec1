// Tests of the value model's core: type interning and names, value
// construction and inspection, reference counting, strings (NFC, grapheme
// length), maps and objects, marks and immortal values.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "hclvm/type.h"
#include "hclvm/value.h"
#include "util/pool.h"
#include "value/number.h"
#include "value_test_util.h"

namespace hclvm {
namespace {

using test::obj;
using test::tup;

TEST(Type, InterningIsIdentity) {
  EXPECT_EQ(Type::list(Type::string()), Type::list(Type::string()));
  EXPECT_NE(Type::list(Type::string()), Type::set(Type::string()));
  EXPECT_NE(Type::list(Type::string()), Type::list(Type::number()));
  const Type* a = obj({{"b", Type::number()}, {"a", Type::string()}});
  const Type* b = obj({{"a", Type::string()}, {"b", Type::number()}});
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->attr_name(0), "a");
  EXPECT_EQ(a->attr_type(1), Type::number());
  EXPECT_NE(a, obj({{"a", Type::string()}, {"b", Type::number(), true}}));
  EXPECT_EQ(tup({Type::string(), Type::boolean()}), tup({Type::string(), Type::boolean()}));
  EXPECT_NE(tup({Type::string(), Type::boolean()}), tup({Type::boolean(), Type::string()}));
  EXPECT_EQ(Type::empty_object(), obj({}));
  EXPECT_EQ(Type::empty_tuple(), tup({}));
}

TEST(Type, InterningAcrossThreads) {
  std::vector<const Type*> seen(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&seen, i] {
      for (int n = 0; n < 1000; ++n)
        seen[i] = Type::map(Type::list(obj({{"x", Type::number()}, {"y", Type::list(Type::dynamic())}})));
    });
  for (auto& t : threads) t.join();
  for (const Type* t : seen) EXPECT_EQ(t, seen[0]);
}

TEST(Type, FindAttr) {
  const Type* t = obj({{"zeta", Type::number()}, {"alpha", Type::string()}, {"mid", Type::boolean()}});
  EXPECT_EQ(t->find_attr("alpha"), 0u);
  EXPECT_EQ(t->find_attr("mid"), 1u);
  EXPECT_EQ(t->find_attr("zeta"), 2u);
  EXPECT_FALSE(t->find_attr("beta"));
  EXPECT_FALSE(Type::empty_object()->find_attr("a"));
}

struct NameCase {
  const Type* type;
  const char* friendly;
  const char* constraint;
  const char* go;
};

TEST(Type, Names) {
  const Type* o = obj({{"a", Type::string()}, {"b", Type::number(), true}});
  NameCase cases[] = {
      {Type::string(), "string", "string", "cty.String"},
      {Type::number(), "number", "number", "cty.Number"},
      {Type::boolean(), "bool", "bool", "cty.Bool"},
      {Type::dynamic(), "dynamic", "any type", "cty.DynamicPseudoType"},
      {Type::list(Type::string()), "list of string", "list of string", "cty.List(cty.String)"},
      {Type::set(Type::list(Type::number())), "set of list of number", "set of list of number",
       "cty.Set(cty.List(cty.Number))"},
      {Type::map(Type::dynamic()), "map of dynamic", "map of any single type",
       "cty.Map(cty.DynamicPseudoType)"},
      {Type::list(Type::list(Type::dynamic())), "list of list of dynamic",
       "list of list of any single type", "cty.List(cty.List(cty.DynamicPseudoType))"},
      {o, "object", "object",
       "cty.ObjectWithOptionalAttrs(map[string]cty.Type{\"a\":cty.String, \"b\":cty.Number}, "
       "[]string{\"b\"})"},
      {Type::empty_object(), "object", "object", "cty.EmptyObject"},
      {tup({Type::string()}), "tuple", "tuple", "cty.Tuple([]cty.Type{cty.String})"},
      {Type::empty_tuple(), "tuple", "tuple", "cty.EmptyTuple"},
  };
  for (const NameCase& c : cases) {
    EXPECT_EQ(c.type->friendly_name(), c.friendly);
    EXPECT_EQ(c.type->friendly_name_for_constraint(), c.constraint);
    EXPECT_EQ(c.type->go_string(), c.go);
  }
}

TEST(Type, DynamicAndOptional) {
  EXPECT_FALSE(Type::list(Type::string())->has_dynamic_types());
  EXPECT_TRUE(Type::list(Type::dynamic())->has_dynamic_types());
  EXPECT_TRUE(obj({{"a", tup({Type::dynamic()})}})->has_dynamic_types());
  const Type* o = obj({{"a", Type::list(obj({{"x", Type::string(), true}}))}, {"b", Type::number(), true}});
  EXPECT_TRUE(o->attr_optional(1));
  const Type* plain = o->without_optional_attrs_deep();
  EXPECT_FALSE(plain->has_optional_attrs());
  EXPECT_FALSE(plain->attr_type(0)->element()->has_optional_attrs());
  EXPECT_EQ(plain, obj({{"a", Type::list(obj({{"x", Type::string()}}))}, {"b", Type::number()}}));
}

TEST(Type, Capsules) {
  static const CapsuleOps ops{};
  const Type* a = Type::capsule("thing", &ops);
  const Type* b = Type::capsule("thing", &ops);
  EXPECT_NE(a, b);
  EXPECT_EQ(a->friendly_name(), "thing");
  EXPECT_TRUE(a->is_capsule());
}

TEST(Value, Size) { EXPECT_EQ(sizeof(Value), 16u); }

TEST(Value, NullAndUnknown) {
  Value def;
  EXPECT_TRUE(def.is_null());
  EXPECT_EQ(def.type(), Type::dynamic());
  Value n = Value::null(Type::list(Type::string()));
  EXPECT_TRUE(n.is_null());
  EXPECT_TRUE(n.is_known());
  EXPECT_EQ(n.type(), Type::list(Type::string()));
  Value u = Value::unknown(Type::number());
  EXPECT_FALSE(u.is_known());
  EXPECT_FALSE(u.is_null());
  EXPECT_FALSE(u.is_wholly_known());
  EXPECT_TRUE(u.refinement().empty());
  Value d = Value::dynamic();
  EXPECT_FALSE(d.is_known());
  EXPECT_EQ(d.type(), Type::dynamic());
}

TEST(Value, RefinedUnknown) {
  Refinement r;
  r.not_null = true;
  r.prefix = "ab";
  Value u = Value::unknown(Type::string(), r);
  EXPECT_FALSE(u.is_known());
  EXPECT_EQ(u.rep(), Value::Rep::Unknown);
  EXPECT_EQ(u.type(), Type::string());
  EXPECT_TRUE(u.refinement().not_null);
  EXPECT_EQ(u.refinement().prefix, "ab");
  // No refinements: a plain unknown, nothing allocated.
  EXPECT_EQ(Value::unknown(Type::string(), Refinement{}).rep(), Value::Rep::TypeOnly);
}

TEST(Value, Primitives) {
  Value t = Value::boolean(true);
  EXPECT_EQ(t.type(), Type::boolean());
  EXPECT_TRUE(t.as_bool());
  EXPECT_TRUE(t.is_plain());
  Value i = Value::integer(-42);
  EXPECT_EQ(i.type(), Type::number());
  EXPECT_TRUE(i.is_small_int());
  EXPECT_EQ(i.small_int(), -42);
  EXPECT_EQ(i.aux(), 64u);
  Value s = Value::string("hello");
  EXPECT_EQ(s.type(), Type::string());
  EXPECT_EQ(s.as_string(), "hello");
  EXPECT_EQ(s.string_length(), 5u);
}

TEST(Value, StringsAreNFC) {
  // "e" + combining acute accent becomes U+00E9.
  Value s = Value::string("caf\x65\xcc\x81");
  EXPECT_EQ(s.as_string(), "caf\xc3\xa9");
  EXPECT_EQ(s.string_length(), 4u);
  // Hangul jamo compose; an emoji with skin tone is one grapheme cluster.
  EXPECT_EQ(Value::string("\xe1\x84\x80\xe1\x85\xa1").as_string(), "\xea\xb0\x80");
  EXPECT_EQ(Value::string("\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd!").string_length(), 2u);
  // Invalid bytes stay, and the valid runs around them are normalized.
  EXPECT_EQ(Value::string("\xff" "e\xcc\x81\xfe").as_string(), "\xff\xc3\xa9\xfe");
  // Latin text below U+0300 is taken as it is; CR LF is one cluster.
  EXPECT_EQ(Value::string("na\xc3\xafve\r\n").string_length(), 6u);
  EXPECT_EQ(Value::string("a\r\nb\n\r").string_length(), 5u);
  EXPECT_EQ(Value::string("0123456789abcdef\xcc\x81").as_string(), "0123456789abcdef\xcc\x81");
  EXPECT_EQ(Value::string("0123456789abcdee\xcc\x81").as_string(), "0123456789abcde\xc3\xa9");
  // An empty view without data is the empty string.
  EXPECT_EQ(Value::string(std::string_view()).as_string(), "");
  EXPECT_EQ(Value::string(std::string_view()).string_length(), 0u);
  // Embedded NUL bytes are kept.
  EXPECT_EQ(Value::string(std::string_view("a\0b", 3)).as_string().size(), 3u);
}

TEST(Value, CopyAndMoveShareTheObject) {
  Value a = Value::string("shared");
  Value b = a;
  EXPECT_EQ(a.obj(), b.obj());
  EXPECT_EQ(a.obj()->refs.load(), 2);
  Value c = std::move(b);
  EXPECT_EQ(a.obj()->refs.load(), 2);
  c = Value::integer(1);
  EXPECT_EQ(a.obj()->refs.load(), 1);
  a = a;  // self-assignment keeps the value
  EXPECT_EQ(a.as_string(), "shared");
}

// Heap blocks are recycled on the thread that frees them (util/pool.h):
// the next object of the same size class gets the block back.
TEST(ValuePool, FreedBlocksAreReusedOnTheThread) {
  const void* first;
  {
    Value a = Value::string("recycled block");
    first = a.obj();
  }
  Value b = Value::string("same class, too");
  EXPECT_EQ(b.obj(), first);
  // Different classes do not share blocks.
  Value big = Value::string(std::string(200, 'x'));
  EXPECT_NE(big.obj(), first);
  // Blocks larger than the biggest class go back to the system.
  EXPECT_EQ(util::pool::class_of(util::pool::kMaxBytes + 1), 0);
  EXPECT_EQ(util::pool::class_of(1), 1);
  EXPECT_EQ(util::pool::class_of(util::pool::kMaxBytes), util::pool::kClasses);
}

// A thread keeps at most kListBytes per class; beyond that, frees go back
// to the system.
TEST(ValuePool, ListsAreBounded) {
  uint8_t c = util::pool::class_of(sizeof(detail::StringObj) + 8 + 1);
  size_t cap = util::pool::kListBytes / util::pool::class_bytes(c);
  {
    std::vector<Value> many;
    for (size_t i = 0; i < cap * 3; ++i) many.push_back(Value::string("12345678"));
  }
  EXPECT_EQ(util::pool::kept_blocks(c), cap);
  // Taking blocks back off the list lowers the count.
  std::vector<Value> again;
  for (int i = 0; i < 10; ++i) again.push_back(Value::string("abcdefgh"));
  EXPECT_EQ(util::pool::kept_blocks(c), cap - 10);
}

// Values made on one thread and dropped on others: each block goes onto
// the list of the thread that frees it, which returns its lists to the
// system when it ends (the sanitizer build reports any block lost).
TEST(ValuePool, BlocksMoveToTheFreeingThread) {
  std::vector<Value> made;
  for (int i = 0; i < 500; ++i) made.push_back(Value::string("item " + std::to_string(i)));
  Value kept = made[499];  // a block that stays alive
  size_t kept_there = 0;
  std::thread t([&] {
    std::vector<Value> mine = std::move(made);
    mine.clear();
    for (uint8_t c = 1; c <= util::pool::kClasses; ++c) kept_there += util::pool::kept_blocks(c);
    // The thread's own values come off its lists.
    Value s = Value::string("item 1000");
    EXPECT_EQ(s.as_string(), "item 1000");
  });
  t.join();
  EXPECT_GT(kept_there, 0u);
  EXPECT_EQ(kept.as_string(), "item 499");
}

// Counts are plain while the process has one thread and atomic once it has
// more (refcount.h): references taken before the first thread starts are
// given back after it, on both sides, and the counts come out exact.
TEST(Value, CountsStayExactAcrossTheFirstThread) {
  Value s = Value::string("counted");
  Value big = Value::number(num::as_heap_for_testing(Number::from_int(7)));
  std::vector<Value> before(1000, s), before_big(1000, big);
  EXPECT_EQ(s.obj()->refs.load(), 1001);
  // as_number() returns one more reference, held while it is counted.
  EXPECT_EQ(num::ref_count_for_testing(big.as_number()), 1002u);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        Value a = s, b = big;
        std::vector<Value> more(3, a);
      }
    });
  }
  EXPECT_FALSE(detail::process_single_threaded());
  for (int i = 0; i < 20000; ++i) {
    Value a = s;
    before.pop_back();
    before.push_back(a);
  }
  before.clear();
  for (auto& th : threads) th.join();
  before_big.clear();
  EXPECT_EQ(s.obj()->refs.load(), 1);
  EXPECT_EQ(num::ref_count_for_testing(big.as_number()), 2u);
}

TEST(Value, ListsAndTuples) {
  Value l = Value::list(Type::string(), {Value::string("a"), Value::string("b")});
  EXPECT_EQ(l.type(), Type::list(Type::string()));
  ASSERT_EQ(l.length(), 2u);
  EXPECT_EQ(l.element(1).as_string(), "b");
  Value empty = Value::list(Type::number(), {});
  EXPECT_EQ(empty.length(), 0u);
  EXPECT_EQ(empty.type(), Type::list(Type::number()));
  Value t = Value::tuple({Value::integer(1), Value::string("x"), Value::null(Type::boolean())});
  EXPECT_EQ(t.type(), tup({Type::number(), Type::string(), Type::boolean()}));
  EXPECT_TRUE(t.element(2).is_null());
  EXPECT_EQ(t.elements().size(), 3u);
}

TEST(Value, MapsAreSortedByKey) {
  Value m = Value::map(Type::number(), {{"b", Value::integer(2)}, {"a", Value::integer(1)}, {"c", Value::integer(3)}});
  ASSERT_EQ(m.length(), 3u);
  EXPECT_EQ(m.map_key(0), "a");
  EXPECT_EQ(m.map_key(2), "c");
  EXPECT_EQ(m.map_value(1).small_int(), 2);
  ASSERT_NE(m.map_find("c"), nullptr);
  EXPECT_EQ(m.map_find("c")->small_int(), 3);
  EXPECT_EQ(m.map_find("d"), nullptr);
  EXPECT_EQ(Value::map(Type::string(), {}).map_find("a"), nullptr);
}

TEST(Value, ObjectsShareTheirShape) {
  Value a = Value::object({{"name", Value::string("x")}, {"count", Value::integer(3)}});
  Value b = Value::object({{"count", Value::integer(4)}, {"name", Value::string("y")}});
  EXPECT_EQ(a.type(), b.type());
  EXPECT_EQ(a.attr(0).small_int(), 3);  // "count" sorts first
  ASSERT_NE(b.attr("name"), nullptr);
  EXPECT_EQ(b.attr("name")->as_string(), "y");
  EXPECT_EQ(b.attr("nope"), nullptr);
  EXPECT_EQ(Value::object({}).type(), Type::empty_object());
}

TEST(Value, WhollyKnown) {
  Value l = Value::tuple({Value::integer(1), Value::tuple({Value::unknown(Type::string())})});
  EXPECT_TRUE(l.is_known());
  EXPECT_FALSE(l.is_wholly_known());
  EXPECT_TRUE(Value::tuple({Value::null(Type::string())}).is_wholly_known());
}

TEST(Value, Marks) {
  Value s = Value::string("secret").mark("sensitive");
  EXPECT_TRUE(s.is_marked());
  EXPECT_FALSE(s.is_plain());
  EXPECT_EQ(s.type(), Type::string());
  EXPECT_TRUE(s.marks().has("sensitive"));
  Value twice = s.mark("other").mark("sensitive");
  EXPECT_EQ(twice.marks().size(), 2u);
  EXPECT_EQ(twice.marks().labels()[0], "other");  // sorted by text
  auto [inner, marks] = twice.unmark_with_marks();
  EXPECT_FALSE(inner.is_marked());
  EXPECT_EQ(inner.as_string(), "secret");
  EXPECT_EQ(marks.size(), 2u);
  // Flags of the wrapped value show through.
  Value nm = Value::null(Type::string()).mark("sensitive");
  EXPECT_TRUE(nm.is_null());
  EXPECT_TRUE(nm.is_marked());
  Value um = Value::unknown(Type::string()).mark("sensitive");
  EXPECT_FALSE(um.is_known());
}

TEST(Value, DeepMarks) {
  Value l = Value::tuple({Value::integer(1).mark("a"), Value::object({{"x", Value::string("s").mark("b")}})});
  EXPECT_FALSE(l.is_marked());
  EXPECT_TRUE(l.contains_marked());
  auto [plain, marks] = l.unmark_deep();
  EXPECT_FALSE(plain.contains_marked());
  EXPECT_EQ(marks.size(), 2u);
  EXPECT_EQ(plain.type(), l.type());
  EXPECT_EQ(plain.element(1).attr("x")->as_string(), "s");
}

TEST(Value, ImmortalValuesSkipCounting) {
  Value l = Value::list(Type::string(), {Value::string("k")});
  l.make_immortal();
  const detail::Obj* o = l.obj();
  {
    Value copy = l;
    EXPECT_LT(o->refs.load(), 0);
  }
  EXPECT_LT(l.element(0).obj()->refs.load(), 0);
  // Immortal objects are never freed; this one stays reachable for ASan.
  static Value keep = l;
}

TEST(Value, CapsulePayloadIsDestroyedWithTheLastValue) {
  static int destroyed = 0;
  static const CapsuleOps ops{nullptr, [](void* p) { ++destroyed; delete static_cast<int*>(p); }};
  const Type* t = Type::capsule("int", &ops);
  {
    Value c = Value::capsule(t, new int(7));
    Value d = c;
    EXPECT_EQ(*static_cast<int*>(d.capsule_payload()), 7);
    EXPECT_EQ(c.type(), t);
  }
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace hclvm

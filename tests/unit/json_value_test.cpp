// Tests of the JSON forms of values and types (value/json.h) and of the
// HCL-literal rendering of values (value/render.h).
//
// The golden files in tests/golden/json_value/ hold what the reference
// prints for many values (gen.sh): each value must read back from its
// {"value":…,"type":…} form and be written again byte for byte, jsonencode
// must match to_json against the value's own type, and jsondecode inputs
// (valid and malformed) must give the reference's values and messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "value/json.h"
#include "value/render.h"
#include "value_test_util.h"

namespace hclvm {
namespace {

using test::obj;
using test::tup;

Value num(int64_t i) { return Value::number(Number::from_int(i, 512)); }
Value str(std::string_view s) { return Value::string(s); }

// Returns the JSON written for [v] against [t], or "ERROR: message".
std::string json(const Value& v, const Type* t) {
  JsonResult<std::string> r = to_json(v, t);
  return r.ok() ? r.value : "ERROR: " + r.error->message;
}

// Formats an error path like `.a[0]["k"][?]`, for comparing paths.
std::string path_text(const Path& p) {
  std::string out;
  for (const PathStep& s : p) {
    if (s.kind == PathStep::Kind::Attr) {
      out += "." + s.name;
    } else if (!s.key.is_known()) {
      out += "[?]";
    } else if (s.key.type() == Type::string()) {
      out += "[\"" + std::string(s.key.as_string()) + "\"]";
    } else {
      out += "[" + s.key.as_number().text() + "]";
    }
  }
  return out;
}

// --- golden data from the reference -------------------------------------------

struct GoldenLine {
  char tag;
  std::string text;
};

std::vector<GoldenLine> read_golden(const char* name) {
  std::string data =
      test::read_file(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/json_value/" + name);
  std::vector<GoldenLine> out;
  size_t i = 0;
  while (i < data.size()) {
    size_t nl = data.find('\n', i);
    if (nl == std::string::npos) nl = data.size();
    std::string line = data.substr(i, nl - i);
    i = nl + 1;
    if (line.size() < 2 || line[0] == '#') continue;
    out.push_back({line[0], line.substr(2)});
  }
  return out;
}

TEST(JsonGolden, ValuesRoundTrip) {
  std::vector<GoldenLine> lines = read_golden("values.golden");
  ASSERT_GT(lines.size(), 300u);
  size_t checked = 0;
  for (size_t i = 0; i + 3 <= lines.size();) {
    ASSERT_EQ(lines[i].tag, 'E');
    const std::string& expr = lines[i].text;
    const std::string& wrapped = lines[i + 1].text;
    const std::string& encoded = lines[i + 2].text;
    i += 3;
    SCOPED_TRACE(expr);
    ASSERT_NE(wrapped.substr(0, 1), "!") << wrapped;

    // The wrapper reads back and is written again byte for byte (a bare
    // null when the type is the dynamic pseudo-type, which cty does not wrap).
    JsonResult<Value> v = from_json(wrapped, Type::dynamic());
    ASSERT_TRUE(v.ok()) << v.error->message;
    bool dyn = v.value.type()->is_dynamic();
    EXPECT_EQ(json(v.value, Type::dynamic()), dyn ? "null" : wrapped);
    EXPECT_EQ(to_json_typed(v.value).value, wrapped);

    // jsonencode() is the value against its own type.
    JsonResult<Value> enc = from_json(encoded, Type::dynamic());
    ASSERT_TRUE(enc.ok()) << enc.error->message;
    ASSERT_EQ(enc.value.type(), Type::string());
    std::string own = json(v.value, v.value.type());
    EXPECT_EQ(own, enc.value.as_string());
    JsonResult<std::string> simple = to_json_simple(v.value);
    EXPECT_EQ(simple.value, own);

    // The wrapper is exactly the value and its type's JSON.
    JsonResult<std::string> tj = type_to_json(v.value.type());
    ASSERT_TRUE(tj.ok());
    EXPECT_EQ(wrapped, "{\"value\":" + own + ",\"type\":" + tj.value + "}");
    JsonResult<const Type*> back = type_from_json(tj.value);
    ASSERT_TRUE(back.ok()) << back.error->message;
    EXPECT_EQ(back.value, v.value.type());

    // The plain JSON reads back as the same value given the type.
    JsonResult<Value> again = from_json(own, v.value.type());
    ASSERT_TRUE(again.ok()) << again.error->message;
    EXPECT_EQ(to_json_typed(again.value).value, wrapped);
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

TEST(JsonGolden, DecodeLikeJsondecode) {
  std::vector<GoldenLine> lines = read_golden("decode.golden");
  ASSERT_GT(lines.size(), 100u);
  for (size_t i = 0; i + 1 < lines.size(); i += 2) {
    ASSERT_EQ(lines[i].tag, 'D');
    ASSERT_EQ(lines[i + 1].tag, 'R');
    // The input is a JSON string literal: read it with the reader under test.
    JsonResult<Value> input = from_json(lines[i].text, Type::string());
    ASSERT_TRUE(input.ok()) << lines[i].text;
    std::string text(input.value.as_string());
    const std::string& want = lines[i + 1].text;
    SCOPED_TRACE(lines[i].text);
    JsonResult<Value> got = from_json_simple(text);
    if (want.substr(0, 2) == "! ") {
      ASSERT_FALSE(got.ok()) << json(got.value, Type::dynamic());
      EXPECT_EQ(got.error->message, want.substr(2));
    } else {
      ASSERT_TRUE(got.ok()) << got.error->message;
      EXPECT_EQ(to_json_typed(got.value).value, want);
    }
  }
}

// A random JSON document of up to [depth] levels: objects (some keys
// escaped, some twice), arrays, strings with escapes and non-ASCII text,
// numbers of every form, literals.
void random_doc(std::mt19937& rng, int depth, std::string& out) {
  static const char* const kKeys[] = {"a", "b", "name", "caf\xc3\xa9", "\\u0061", "e\\u0301", ""};
  static const char* const kStrings[] = {
      "x", "", "tab\\there", "\\ud83d\\ude00", "\\ud800", "e\\u0301", "\xe6\x97\xa5\xe6\x9c\xac",
      "\\\"q\\\"", "\\/", "a\\u0000b", "\xff", "<&>"};
  static const char* const kNumbers[] = {"0",      "-0",   "12",     "-7.25",    "1e3",
                                         "2.5E-2", "1e400", "0.1",    "123456789012345678901234567890",
                                         "-1E+2"};
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  switch (depth <= 0 ? 2 + pick(4) : pick(6)) {
    case 0: {
      out += '{';
      size_t n = pick(4);
      for (size_t i = 0; i < n; ++i) {
        if (i) out += ',';
        out += " \"" + std::string(kKeys[pick(std::size(kKeys))]) + "\" : ";
        random_doc(rng, depth - 1, out);
      }
      out += '}';
      return;
    }
    case 1: {
      out += "[ ";
      size_t n = pick(4);
      for (size_t i = 0; i < n; ++i) {
        if (i) out += ",\n";
        random_doc(rng, depth - 1, out);
      }
      out += ']';
      return;
    }
    case 2: out += "\"" + std::string(kStrings[pick(std::size(kStrings))]) + "\""; return;
    case 3: out += kNumbers[pick(std::size(kNumbers))]; return;
    case 4: out += pick(2) ? "true" : "false"; return;
    default: out += "null"; return;
  }
}

// The one-pass reader that from_json and from_json_simple try first must
// read what it accepts exactly as the full reader does, and leave every
// document the full reader rejects to it: random documents, and each of
// them damaged at random (a byte changed, dropped or doubled).
TEST(JsonRead, OnePassReaderAgreesWithTheFullReader) {
  std::mt19937 rng(7);
  auto typed = [](const Value& v) { return to_json_typed(v).value; };
  int fast = 0, damaged_rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string doc;
    random_doc(rng, 4, doc);
    if (i % 2) {
      size_t at = rng() % doc.size();
      switch (rng() % 3) {
        case 0: doc[at] = "{}[],:\"\\0-e.x \x01"[rng() % 15]; break;
        case 1: doc.erase(at, 1); break;
        default: doc.insert(at, 1, doc[at]); break;
      }
    }
    SCOPED_TRACE(doc);
    JsonResult<Value> full = from_json_simple_full(doc);
    Value v;
    if (from_json_simple_fast(doc, v)) {
      ++fast;
      ASSERT_TRUE(full.ok()) << full.error->message;
      EXPECT_EQ(typed(v), typed(full.value));
    } else if (!full.ok() && i % 2) {
      ++damaged_rejected;
    }
    // Reading with the implied type goes the same way.
    if (full.ok()) {
      JsonResult<Value> given = from_json(doc, full.value.type());
      ASSERT_TRUE(given.ok()) << given.error->message;
      EXPECT_EQ(typed(given.value), typed(full.value));
    }
  }
  EXPECT_GT(fast, 1000);
  EXPECT_GT(damaged_rejected, 300);
}

// What the one-pass reader leaves to the full reader.
TEST(JsonRead, OnePassReaderGivesUpOnWhatItCannotBeSureOf) {
  std::string deep(300, '[');
  deep += std::string(300, ']');
  const char* const docs[] = {"01", "1.", "-", ".5", "tru", "[1,]", "{\"a\":1,}",
                              "\"\\x\"", "\"a\x01\"", "1 2", "[1] x", "\"\\u12\"", "{a:1}", ""};
  for (const char* d : docs) {
    Value v;
    EXPECT_FALSE(from_json_simple_fast(d, v)) << d;
    EXPECT_FALSE(from_json_simple(d).ok()) << d;
  }
  // Valid, but left to the full reader: a key twice (the later one
  // wins), nesting deeper than the one-pass reader goes.
  Value v;
  EXPECT_FALSE(from_json_simple_fast(R"({"a":1,"a":2})", v));
  JsonResult<Value> r = from_json_simple(R"({"a":1,"a":2})");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(to_json_typed(r.value).value, R"({"value":{"a":2},"type":["object",{"a":"number"}]})");
  EXPECT_FALSE(from_json_simple_fast(deep, v));
  r = from_json_simple(deep);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.type()->size(), 1u);
}

// --- writing values -------------------------------------------------------------

TEST(JsonWrite, Primitives) {
  EXPECT_EQ(json(str("a<b>&c"), Type::string()), R"("a\u003cb\u003e\u0026c")");
  EXPECT_EQ(json(str("\b\f\n\r\t\x01\x1f\x7f"), Type::string()), R"("\b\f\n\r\t\u0001\u001f)"
                                                                 "\x7f\"");
  EXPECT_EQ(json(str("\xe2\x80\xa8\xe2\x80\xa9"), Type::string()), R"("\u2028\u2029")");
  EXPECT_EQ(json(str("\"\\/"), Type::string()), R"("\"\\/")");
  EXPECT_EQ(json(Value::boolean(true), Type::boolean()), "true");
  EXPECT_EQ(json(num(-12), Type::number()), "-12");
  EXPECT_EQ(json(Value::null(Type::string()), Type::string()), "null");
  EXPECT_EQ(json(Value::null(Type::string()), Type::dynamic()),
            R"({"value":null,"type":"string"})");
  EXPECT_EQ(json(Value::null(Type::dynamic()), Type::dynamic()), "null");
}

TEST(JsonWrite, QuoteInvalidUtf8) {
  EXPECT_EQ(json_quote("a\xff"
                       "b\xc3"),
            R"("a\ufffdb\ufffd")");
  EXPECT_EQ(json_quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // an encoded surrogate
  EXPECT_EQ(json_quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
}

TEST(JsonWrite, Errors) {
  JsonResult<std::string> r = to_json(Value::unknown(Type::string()), Type::string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "value is not known");
  EXPECT_TRUE(r.error->path.empty());

  Value nested = Value::object({{"a", Value::tuple({num(1), Value::unknown(Type::number())})}});
  r = to_json(nested, nested.type());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "value is not known");
  EXPECT_EQ(path_text(r.error->path), ".a[1]");

  r = to_json(str("x").mark("sensitive"), Type::string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "value has marks, so it cannot be serialized as JSON");

  Value marked_in_map = Value::map(Type::string(), {{"k", str("v").mark("sensitive")}});
  r = to_json(marked_in_map, marked_in_map.type());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(path_text(r.error->path), "[\"k\"]");

  r = to_json(Value::number(Number::infinity(false)), Type::number());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "cannot serialize infinity as JSON");

  // The path is that of the failure however deep, and a failure inside a
  // dynamic wrapper (which the reference passes over) leaves no trace on a
  // later one.
  Value inf = Value::number(Number::infinity(false));
  Value deep = Value::list(Type::map(Type::number()),
                           {Value::map(Type::number(), {{"j", num(1)}, {"k", inf}})});
  r = to_json(deep, deep.type());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(path_text(r.error->path), "[0][\"k\"]");
  std::vector<TypeAttr> attrs = {{"a", Type::dynamic()}, {"b", Type::number()}};
  const Type* wrapped = Type::object(attrs);
  Value both = Value::object({{"a", Value::tuple({num(2), inf})}, {"b", inf}});
  r = to_json(both, wrapped);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "cannot serialize infinity as JSON");
  EXPECT_EQ(path_text(r.error->path), ".b");
  std::string out = "x";
  EXPECT_TRUE(append_json(out, deep, deep.type()).has_value());
  EXPECT_EQ(append_json(out = "x", num(7), Type::number()), std::nullopt);
  EXPECT_EQ(out, "x7");

  // Like the reference, an error under a dynamic wrapper is not reported:
  // the wrapper is finished around what was written.
  EXPECT_EQ(json(Value::unknown(Type::string()), Type::dynamic()), R"({"value":,"type":"string"})");
  EXPECT_EQ(json(Value::dynamic(), Type::dynamic()), "ERROR: value is not known");
}

TEST(JsonWrite, ConvertsToTheGivenType) {
  // A tuple written as a list of strings is converted first.
  Value t = Value::tuple({num(1), str("a")});
  EXPECT_EQ(json(t, Type::list(Type::string())), R"(["1","a"])");
  EXPECT_EQ(json(t, Type::number()).substr(0, 7), "ERROR: ");
  // Dynamic positions in the type wrap their values.
  Value o = Value::object({{"a", num(1)}, {"b", str("x")}});
  EXPECT_EQ(json(o, obj({{"a", Type::dynamic()}, {"b", Type::string()}})),
            R"({"a":{"value":1,"type":"number"},"b":"x"})");
  EXPECT_EQ(json(Value::list(Type::number(), {num(2)}), Type::list(Type::dynamic())),
            R"([{"value":2,"type":"number"}])");
}

// --- reading values -------------------------------------------------------------

// Returns the value read from [text] as type [t], written back as its
// wrapper, or "ERROR: message @path".
std::string read(std::string_view text, const Type* t) {
  JsonResult<Value> r = from_json(text, t);
  if (!r.ok()) return "ERROR: " + r.error->message + " @" + path_text(r.error->path);
  return json(r.value, Type::dynamic());
}

TEST(JsonRead, Primitives) {
  EXPECT_EQ(read("\"12.50\"", Type::number()), R"({"value":12.5,"type":"number"})");
  EXPECT_EQ(read("12.50", Type::string()), R"({"value":"12.50","type":"string"})");
  EXPECT_EQ(read("true", Type::string()), R"({"value":"true","type":"string"})");
  EXPECT_EQ(read("\"true\"", Type::boolean()), R"({"value":true,"type":"bool"})");
  EXPECT_EQ(read("\"yes\"", Type::boolean()), "ERROR: a bool is required @");
  EXPECT_EQ(read("\"TRUE\"", Type::boolean()),
            "ERROR: a bool is required; to convert from string, use lowercase \"true\" @");
  EXPECT_EQ(read("\"x\"", Type::number()), "ERROR: a number is required @");
  EXPECT_EQ(read("[1]", Type::number()), "ERROR: number is required @");
  EXPECT_EQ(read("{}", Type::string()), "ERROR: string is required @");
  EXPECT_EQ(read("1", Type::boolean()), "ERROR: bool is required @");
  EXPECT_EQ(read("null", Type::list(Type::string())), R"({"value":null,"type":["list","string"]})");
  // Only the first token of a primitive is read, as in the reference.
  EXPECT_EQ(read("1 2", Type::number()), R"({"value":1,"type":"number"})");
}

TEST(JsonRead, Collections) {
  const Type* ls = Type::list(Type::string());
  EXPECT_EQ(read("[\"a\",\"b\"]", ls), R"({"value":["a","b"],"type":["list","string"]})");
  EXPECT_EQ(read("[]", ls), R"({"value":[],"type":["list","string"]})");
  EXPECT_EQ(read("[\"a\",[]]", ls), "ERROR: string is required @[1]");
  EXPECT_EQ(read("[\"a\" \"b\"]", ls),
            "ERROR: failed to read list value: expected comma after array element @[1]");
  EXPECT_EQ(read("[\"a\",", ls), "ERROR: failed to read list value: EOF @[1]");
  EXPECT_EQ(read("{}", ls), "ERROR: missing expected [ @");
  EXPECT_EQ(read("[\"a\"}", ls), "ERROR: invalid character '}' after array element @");

  const Type* ss = Type::set(Type::number());
  EXPECT_EQ(read("[3,1,3,2]", ss), R"({"value":[1,2,3],"type":["set","number"]})");
  EXPECT_EQ(read("[1,\"x\"]", ss), "ERROR: a number is required @[?]");

  const Type* ms = Type::map(Type::number());
  EXPECT_EQ(read(R"({"b":1,"a":2,"b":3})", ms),
            R"({"value":{"a":2,"b":3},"type":["map","number"]})");
  EXPECT_EQ(read(R"({"a":"x"})", ms), "ERROR: a number is required @[\"a\"]");
  EXPECT_EQ(read(R"({"a" 1})", ms),
            "ERROR: failed to read map value: expected colon after object key @[\"a\"]");
  EXPECT_EQ(read(R"({1:1})", ms), "ERROR: failed to read map key: invalid character '1' @[?]");
  EXPECT_EQ(read("{}", ms), R"({"value":{},"type":["map","number"]})");
}

TEST(JsonRead, Structures) {
  const Type* t2 = tup({Type::string(), Type::number()});
  EXPECT_EQ(read(R"(["a",1])", t2), R"({"value":["a",1],"type":["tuple",["string","number"]]})");
  EXPECT_EQ(read(R"(["a"])", t2), "ERROR: not enough tuple elements (need 2) @");
  EXPECT_EQ(read(R"(["a",1,2])", t2), "ERROR: too many tuple elements (need 2) @");
  const Type* nested = obj({{"t", t2}});
  EXPECT_EQ(read(R"({"t":["a"]})", nested), "ERROR: not enough tuple elements (need 2) @");
  EXPECT_EQ(read(R"({"t":["a",1,true]})", nested), "ERROR: too many tuple elements (need 2) @");

  const Type* o = obj({{"a", Type::string()}, {"b", Type::number(), true}});
  EXPECT_EQ(read(R"({"a":"x"})", o),
            R"({"value":{"a":"x","b":null},"type":["object",{"a":"string","b":"number"}]})");
  EXPECT_EQ(read(R"({"a":"x","c":1})", o), "ERROR: unsupported attribute \"c\" @");
  EXPECT_EQ(read(R"({"a":[]})", o), "ERROR: string is required @.a");
  EXPECT_EQ(read(R"({"a":"x","b":})", o),
            "ERROR: failed to read object value: invalid character '}' looking for beginning of "
            "value @.b");
  EXPECT_EQ(read(R"({"a":"x",1})", o),
            "ERROR: failed to read object key: invalid character '1' looking for beginning of "
            "object key string @.a");
  EXPECT_EQ(read(R"({1})", o), "ERROR: failed to read object key: invalid character '1' @");
  EXPECT_EQ(read("{}", Type::empty_object()), R"({"value":{},"type":["object",{}]})");
}

TEST(JsonRead, Dynamic) {
  const Type* d = Type::dynamic();
  EXPECT_EQ(read(R"({"type":"string","value":"x"})", d), R"({"value":"x","type":"string"})");
  EXPECT_EQ(read(R"({"value":[1,2],"type":["list","number"]})", d),
            R"({"value":[1,2],"type":["list","number"]})");
  EXPECT_EQ(read("null", d), "null");
  EXPECT_EQ(read(R"("x")", d), "ERROR: missing expected { @");
  EXPECT_EQ(read(R"({"value":1})", d), "ERROR: missing type in dynamically-typed value @");
  EXPECT_EQ(read(R"({"type":"number"})", d), "ERROR: missing value in dynamically-typed value @");
  EXPECT_EQ(read(R"({"value":1,"type":"number","x":2})", d),
            "ERROR: invalid key \"x\" in dynamically-typed value @");
  EXPECT_EQ(
      read(R"({"value":1,"type":"nope"})", d),
      "ERROR: failed to decode type for dynamic value: invalid primitive type name \"nope\" @");
  EXPECT_EQ(read(R"({"value":"x","type":"number"})", d), "ERROR: a number is required @");
  // The paths of an inner value join the outer path.
  EXPECT_EQ(read(R"([{"value":{"a":[true,"x"]},"type":["object",{"a":["list","bool"]}]}])",
                 Type::list(d)),
            "ERROR: a bool is required @[0].a[1]");
  // Elements of a dynamic list: nulls take the type of the others.
  EXPECT_EQ(read(R"([null,{"value":"a","type":"string"}])", Type::list(d)),
            R"({"value":[null,"a"],"type":["list","string"]})");
}

TEST(JsonRead, SyntaxErrorOffsets) {
  JsonResult<Value> r = from_json_simple("[1, 2,\n x]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, "invalid character 'x' looking for beginning of value");
  EXPECT_EQ(r.error->offset, 8);
  // The object reads its attribute's whole value before decoding it, so
  // the error is the object's.
  r = from_json(R"({"a":[1, tru]})", obj({{"a", Type::list(Type::boolean())}}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message,
            "failed to read object value: invalid character ']' in literal true (expecting 'e')");
  EXPECT_EQ(r.error->offset, 12);
  EXPECT_EQ(path_text(r.error->path), ".a");
}

TEST(JsonRead, ImpliedType) {
  auto implied = [](std::string_view text) {
    JsonResult<const Type*> r = implied_type(text);
    if (!r.ok()) return "ERROR: " + r.error->message;
    return type_to_json(r.value).value;
  };
  EXPECT_EQ(implied(R"({"b":[1,"x",null],"a":{}})"),
            R"(["object",{"a":["object",{}],"b":["tuple",["number","string","dynamic"]]}])");
  EXPECT_EQ(implied("[]"), R"(["tuple",[]])");
  EXPECT_EQ(implied(R"({"a":1,"a":2})"), R"(["object",{"a":"number"}])");
  EXPECT_EQ(implied(R"({"a":1,"a":"x"})"), "ERROR: duplicate \"a\" property in JSON object");
  EXPECT_EQ(implied("1 2"), "ERROR: extraneous data after JSON object");
  EXPECT_EQ(implied("[1]]"), R"(["tuple",["number"]])");
  EXPECT_EQ(
      implied("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]"
              "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]")
          .substr(0, 20),
      R"(["tuple",[["tuple",[)");
}

// --- nesting depth -------------------------------------------------------------

// The document of [shape] nested [n] levels deep, as depth.sh builds it:
// "arr" [[…]], "obj" {"a":{"a":…1}}, "mix" [{"a":[{"a":…1}]}].
std::string nested_doc(std::string_view shape, size_t n) {
  if (shape == "arr") return std::string(n, '[') + std::string(n, ']');
  std::string opens, closes;
  for (size_t i = 0; i < n; ++i) {
    bool object = shape == "obj" || i % 2 == 1;
    opens += object ? "{\"a\":" : "[";
    closes += object ? '}' : ']';
  }
  std::reverse(closes.begin(), closes.end());
  return opens + "1" + closes;
}

// Compares long texts [got] and [want], showing only where they differ.
testing::AssertionResult same(const std::string& got, const std::string& want) {
  if (got == want) return testing::AssertionSuccess();
  size_t at = std::mismatch(got.begin(), got.begin() + long(std::min(got.size(), want.size())),
                            want.begin()).first - got.begin();
  return testing::AssertionFailure() << "sizes " << got.size() << " and " << want.size()
                                     << ", first difference at byte " << at << ": "
                                     << got.substr(at, 40) << " / " << want.substr(at, 40);
}

// Returns how many levels of tuples and objects [t] nests (each of one
// element or attribute, but the innermost).
size_t structural_depth(const Type* t) {
  size_t n = 0;
  while (t->is_structural()) {
    ++n;
    if (t->size() != 1) break;
    t = t->is_tuple() ? t->tuple_element(0) : t->attr_type(0);
  }
  return n;
}

// Returns [t] nested in [n] lists.
const Type* nested_lists(const Type* t, size_t n) {
  for (size_t i = 0; i < n; ++i) t = Type::list(t);
  return t;
}

TEST(JsonDepth, ReadAndWriteBackAsTheReference) {
  // The reference reads each nested value with a scanner of its own, which
  // allows 10000 levels: a document of 10001 levels reads (its outermost
  // bracket is never scanned as part of a value), one of 10002 does not.
  // The implied type has no limit at all.
  std::istringstream golden(
      test::read_file(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/json_value/depth.golden"));
  size_t cases = 0;
  for (std::string line; std::getline(golden, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++cases;
    std::istringstream fields(line);
    std::string shape, want;
    size_t n;
    fields >> shape >> n >> std::ws;
    std::getline(fields, want);
    SCOPED_TRACE(line);
    std::string doc = nested_doc(shape, n);
    JsonResult<const Type*> t = implied_type(doc);
    ASSERT_TRUE(t.ok()) << t.error->message;
    EXPECT_EQ(structural_depth(t.value), n);
    JsonResult<Value> v = from_json_simple(doc);
    if (!v.ok()) {
      EXPECT_EQ(v.error->message, want);
      EXPECT_EQ(path_text(v.error->path), shape == "obj" ? ".a" : "[0]");
      // The byte where the scanner of the outermost element gave up.
      size_t at = 0;
      for (size_t opened = 0; opened < 10002; ++at)
        if (doc[at] == '[' || doc[at] == '{') ++opened;
      EXPECT_EQ(v.error->offset, int64_t(at - 1));
      continue;
    }
    JsonResult<std::string> back = to_json_simple(v.value);
    ASSERT_TRUE(back.ok()) << back.error->message;
    EXPECT_EQ(back.value == doc ? "true" : "false", want);
  }
  EXPECT_EQ(cases, 15u);
}

TEST(JsonDepth, ReadWithGivenType) {
  // Lists of lists: the same limit as for the implied tuples.
  for (size_t n : {9999u, 10000u, 10001u, 10002u}) {
    SCOPED_TRACE(n);
    std::string doc = std::string(n, '[') + std::string(n, ']');
    JsonResult<Value> v = from_json(doc, nested_lists(Type::number(), n));
    if (n <= 10001) {
      ASSERT_TRUE(v.ok()) << v.error->message;
      EXPECT_EQ(v.value.type(), nested_lists(Type::number(), n));
      EXPECT_TRUE(same(to_json_simple(v.value).value, doc));
    } else {
      ASSERT_FALSE(v.ok());
      EXPECT_EQ(v.error->message, "failed to read list value: invalid character '[' exceeded max depth");
      EXPECT_EQ(path_text(v.error->path), "[0]");
    }
  }
}

TEST(JsonDepth, Types) {
  // Type.UnmarshalJSON reads each element type with a decoder of its own:
  // as for values, 10001 levels read and 10002 do not. Writing has no limit.
  for (size_t n : {10000u, 10001u, 10002u, 100000u}) {
    SCOPED_TRACE(n);
    std::string doc;
    for (size_t i = 0; i < n; ++i) doc += "[\"list\",";
    doc += "\"string\"" + std::string(n, ']');
    JsonResult<const Type*> t = type_from_json(doc);
    if (n <= 10001) {
      ASSERT_TRUE(t.ok()) << t.error->message;
      EXPECT_EQ(t.value, nested_lists(Type::string(), n));
    } else {
      ASSERT_FALSE(t.ok());
      EXPECT_EQ(t.error->message, "invalid character '[' exceeded max depth");
    }
    EXPECT_TRUE(same(type_to_json(nested_lists(Type::string(), n)).value, doc));
  }
}

TEST(JsonDepth, WriteDeepValues) {
  // The reference's writer has no limit but its stack's.
  for (size_t n : {10001u, 100000u}) {
    SCOPED_TRACE(n);
    Value tuples = Value::tuple({});
    Value objects = num(1);
    for (size_t i = 0; i < n; ++i) {
      std::vector<Value> one;
      one.push_back(std::move(tuples));
      tuples = Value::tuple(std::move(one));
      std::vector<std::pair<std::string, Value>> attr;
      attr.emplace_back("a", std::move(objects));
      objects = Value::object(std::move(attr));
    }
    EXPECT_TRUE(same(to_json_simple(tuples).value, nested_doc("arr", n + 1)));
    EXPECT_TRUE(same(to_json_simple(objects).value, nested_doc("obj", n)));
    std::string type_json;
    for (size_t i = 0; i <= n; ++i) type_json += "[\"tuple\",[";
    type_json += std::string(2 * (n + 1), ']');
    EXPECT_TRUE(same(to_json_typed(tuples).value,
                     "{\"value\":" + nested_doc("arr", n + 1) + ",\"type\":" + type_json + "}"));
  }
}

TEST(JsonRead, Unicode) {
  // Surrogate pairs join; lone surrogates and bad bytes become U+FFFD.
  EXPECT_EQ(read(R"("\ud83d\ude00\ud800x")", Type::string()),
            "{\"value\":\"\xf0\x9f\x98\x80\xef\xbf\xbdx\",\"type\":\"string\"}");
  EXPECT_EQ(read("\"a\xff\"", Type::string()), "{\"value\":\"a\xef\xbf\xbd\",\"type\":\"string\"}");
  // Strings are NFC-normalized, as cty.StringVal does.
  EXPECT_EQ(read(R"("e\u0301")", Type::string()), "{\"value\":\"\xc3\xa9\",\"type\":\"string\"}");
}

// --- types ----------------------------------------------------------------------

std::string type_json(const Type* t) {
  JsonResult<std::string> r = type_to_json(t);
  return r.ok() ? r.value : "ERROR: " + r.error->message;
}

std::string read_type(std::string_view text) {
  JsonResult<const Type*> r = type_from_json(text);
  return r.ok() ? type_json(r.value) : "ERROR: " + r.error->message;
}

TEST(JsonType, Write) {
  EXPECT_EQ(type_json(Type::dynamic()), R"("dynamic")");
  EXPECT_EQ(type_json(Type::set(Type::map(Type::boolean()))), R"(["set",["map","bool"]])");
  EXPECT_EQ(
      type_json(
          obj({{"b", Type::number(), true}, {"a", Type::string()}, {"<c>", Type::string(), true}})),
      R"(["object",{"\u003cc\u003e":"string","a":"string","b":"number"},["\u003cc\u003e","b"]])");
  EXPECT_EQ(type_json(tup({})), R"(["tuple",[]])");
  EXPECT_EQ(type_json(Type::capsule("thing", nullptr)), "ERROR: type not allowed: thing");
}

TEST(JsonType, Read) {
  EXPECT_EQ(read_type(R"(["object",{"a":"string","b":"number"},["b"]])"),
            R"(["object",{"a":"string","b":"number"},["b"]])");
  EXPECT_EQ(read_type(R"( ["list" , ["tuple",["bool",["map","dynamic"]]]] )"),
            R"(["list",["tuple",["bool",["map","dynamic"]]]])");
  EXPECT_EQ(read_type(R"(["object",null])"), R"(["object",{}])");
  EXPECT_EQ(read_type(R"(["tuple",null])"), R"(["tuple",[]])");
  EXPECT_EQ(read_type(R"("str")"), "ERROR: invalid primitive type name \"str\"");
  EXPECT_EQ(read_type(R"("string" 1)"), "ERROR: extraneous data after type description");
  EXPECT_EQ(read_type(R"("string"])"), R"("string")");
  EXPECT_EQ(read_type("{}"), "ERROR: invalid complex type description");
  EXPECT_EQ(read_type("1"), "ERROR: invalid type description");
  EXPECT_EQ(read_type("null"), "ERROR: invalid type description");
  EXPECT_EQ(read_type("1e400"),
            "ERROR: json: cannot unmarshal number 1e400 into Go value of type float64");
  EXPECT_EQ(read_type("[1]"), "ERROR: invalid complex type kind name");
  EXPECT_EQ(read_type(R"(["frob","string"])"), "ERROR: invalid complex type kind name");
  EXPECT_EQ(read_type(R"(["list","string","x"])"),
            "ERROR: unexpected extra data in type description");
  EXPECT_EQ(read_type(R"(["list","string"]x)"), "ERROR: unexpected extra data in type description");
  EXPECT_EQ(read_type(R"(["list",null])"), "ERROR: invalid type description");
  EXPECT_EQ(read_type(R"(["list" "string"])"), "ERROR: expected comma after array element");
  EXPECT_EQ(read_type(R"(["object",[]])"),
            "ERROR: json: cannot unmarshal array into Go value of type map[string]cty.Type");
  EXPECT_EQ(read_type(R"(["tuple",{}])"),
            "ERROR: json: cannot unmarshal object into Go value of type []cty.Type");
  EXPECT_EQ(read_type(R"(["object",{"a":"string"},[1]])"),
            "ERROR: json: cannot unmarshal number into Go value of type string");
  EXPECT_EQ(read_type(R"(["object",{"a":"string"},"a"])"),
            "ERROR: json: cannot unmarshal string into Go value of type []string");
  EXPECT_EQ(read_type(R"(["object",{"a":"nope"}])"), "ERROR: invalid primitive type name \"nope\"");
  EXPECT_EQ(read_type(R"(["list")"), "ERROR: EOF");
  EXPECT_EQ(read_type(""), "ERROR: EOF");
  EXPECT_EQ(read_type(R"(["list",)"), "ERROR: EOF");
}

// --- rendering ------------------------------------------------------------------

TEST(Render, Primitives) {
  EXPECT_EQ(render_hcl(Value::null(Type::string())), "null");
  EXPECT_EQ(render_hcl(Value()), "null");
  EXPECT_EQ(render_hcl(Value::boolean(false)), "false");
  EXPECT_EQ(render_hcl(num(-3)), "-3");
  EXPECT_EQ(render_hcl(Value::number(*Number::parse("0.5"))), "0.5");
  EXPECT_EQ(render_hcl(str("plain")), "\"plain\"");
  EXPECT_EQ(render_hcl(str("q\"b\\ t\t n\n r\r ${x} %{y} $x %x")),
            R"("q\"b\\ t\t n\n r\r $${x} %%{y} $x %x")");
  EXPECT_EQ(render_hcl(str("\x01\x7f \xe2\x80\x8b \xc3\xa9 \xf0\x9f\x98\x80")),
            "\"\\u0001\\u007F \\u200B \xc3\xa9 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(render_hcl(Value::unknown(Type::number())), "(known after apply)");
  EXPECT_EQ(render_hcl(Value::dynamic()), "(known after apply)");
  EXPECT_EQ(render_hcl(str("secret").mark("sensitive")), "(sensitive value)");
  EXPECT_EQ(render_hcl(str("mine").mark("other")), "\"mine\"");
}

TEST(Render, Heredocs) {
  auto attr = [](std::string_view text) { return render_hcl(Value::object({{"a", str(text)}})); };
  EXPECT_EQ(attr("a\nb\n"), "{\n  a = <<EOT\na\nb\n  EOT\n}");
  EXPECT_EQ(attr("EOT\n  EOT_ \n${x}\n"), "{\n  a = <<EOT__\nEOT\n  EOT_ \n$${x}\n  EOT__\n}");
  // Without a final newline, or with other control characters: quoted.
  EXPECT_EQ(attr("a\nb"), "{\n  a = \"a\\nb\"\n}");
  EXPECT_EQ(attr("a\r\nb\n"), "{\n  a = \"a\\r\\nb\\n\"\n}");
  EXPECT_EQ(attr("\n"), "{\n  a = \"\\n\"\n}");
  // The text keeps its own indentation.
  EXPECT_EQ(attr("  one\n  two\n"), "{\n  a = <<EOT\n  one\n  two\n  EOT\n}");
  // Not at the top level or in a sequence, where no line break would follow.
  EXPECT_EQ(render_hcl(str("a\nb\n")), R"("a\nb\n")");
  EXPECT_EQ(render_hcl(Value::tuple({str("a\n")})), "[\n  \"a\\n\",\n]");
  EXPECT_EQ(render_hcl(Value::map(Type::string(), {{"k", str("a\n")}}).mark("x")),
            "tomap({\n  k = <<EOT\na\n  EOT\n})");
}

TEST(Render, Structures) {
  EXPECT_EQ(render_hcl(Value::tuple({})), "[]");
  EXPECT_EQ(render_hcl(Value::object({})), "{}");
  EXPECT_EQ(render_hcl(Value::list(Type::string(), {})), "tolist([])");
  EXPECT_EQ(render_hcl(Value::set(Type::string(), {})), "toset([])");
  EXPECT_EQ(render_hcl(Value::map(Type::string(), {})), "tomap({})");
  Value v = Value::object({
      {"name", str("web")},
      {"ports", Value::list(Type::number(), {num(80), num(443)})},
      {"tags", Value::map(Type::string(), {{"env", str("prod")}, {"a b", str("c")}})},
      {"nested", Value::tuple({Value::object({{"x", Value::null(Type::number())}}),
                               Value::set(Type::boolean(), {Value::boolean(true)})})},
      {"9lives", Value::unknown(Type::string())},
      {"pw", str("hunter2").mark("sensitive")},
  });
  EXPECT_EQ(render_hcl(v),
            "{\n"
            "  \"9lives\" = (known after apply)\n"
            "  name = \"web\"\n"
            "  nested = [\n"
            "    {\n"
            "      x = null\n"
            "    },\n"
            "    toset([\n"
            "      true,\n"
            "    ]),\n"
            "  ]\n"
            "  ports = tolist([\n"
            "    80,\n"
            "    443,\n"
            "  ])\n"
            "  pw = (sensitive value)\n"
            "  tags = tomap({\n"
            "    \"a b\" = \"c\"\n"
            "    env = \"prod\"\n"
            "  })\n"
            "}");
  EXPECT_EQ(render_hcl(Value::tuple({num(1)}), 4), "[\n      1,\n    ]");
  EXPECT_EQ(render_hcl(Value::object({{"a-b_c", num(1)}, {"é", num(2)}, {"", num(3)}})),
            "{\n  \"\" = 3\n  a-b_c = 1\n  \"\xc3\xa9\" = 2\n}");
}


// cty's GoString, the "repr" of the reference's tools; every expected text
// is what go-cty v1.18.1 prints for the same value (a scratch Go program).
TEST(Render, GoString) {
  auto parse = [](const char* s) { return Value::number(*Number::parse(s)); };
  EXPECT_EQ(go_string(parse("1")), "cty.NumberIntVal(1)");
  EXPECT_EQ(go_string(parse("-5")), "cty.NumberIntVal(-5)");
  EXPECT_EQ(go_string(parse("123456")), "cty.NumberIntVal(123456)");
  // Integers are big.Float's %v: an exponent from 10^6 on, the shortest
  // digits of their precision.
  EXPECT_EQ(go_string(parse("1000000")), "cty.NumberIntVal(1e+06)");
  EXPECT_EQ(go_string(parse("1234567")), "cty.NumberIntVal(1.234567e+06)");
  EXPECT_EQ(go_string(parse("9223372036854775807")), "cty.NumberIntVal(9.223372036854775807e+18)");
  EXPECT_EQ(go_string(parse("12345678901234567890123")),
            "cty.NumberIntVal(1.2345678901234567890123e+22)");
  EXPECT_EQ(go_string(Value::integer(9223372036854775807)),
            "cty.NumberIntVal(9.223372036854775807e+18)");
  EXPECT_EQ(go_string(Value::number(Number::from_double(1.5e6))), "cty.NumberIntVal(1.5e+06)");
  EXPECT_EQ(go_string(Value::number(Number::from_double(1e23))), "cty.NumberIntVal(1e+23)");
  // Fractions exact in float64 are float64's %#v; others their full text.
  EXPECT_EQ(go_string(Value::number(Number::from_double(2.5))), "cty.NumberFloatVal(2.5)");
  EXPECT_EQ(go_string(Value::number(Number::from_double(1234567.5))),
            "cty.NumberFloatVal(1.2345675e+06)");
  EXPECT_EQ(go_string(Value::number(Number::from_double(2.5e-5))), "cty.NumberFloatVal(2.5e-05)");
  EXPECT_EQ(go_string(parse("0.1")),
            "cty.MustParseNumberVal(\"0.1\")");
  EXPECT_EQ(go_string(Value::number(Number::infinity(true))), "cty.NumberFloatVal(-Inf)");
  // Unknowns with their refinements.
  EXPECT_EQ(go_string(Value::dynamic()), "cty.DynamicVal");
  EXPECT_EQ(go_string(Value::unknown(Type::string())), "cty.UnknownVal(cty.String)");
}

}  // namespace
}  // namespace hclvm

// Tests of type expressions (hclvm/typeexpr.h): reading types and type
// constraints with their diagnostics, optional attributes with defaults,
// Defaults.apply and type_string. The cases re-express the reference's own
// tables (ext/typeexpr get_type_test.go, defaults_test.go,
// type_string_test.go, newest release), plus the source ranges of the
// diagnostics and the literal evaluator of default values.
#include <gtest/gtest.h>
#include <hclvm/body.h>
#include <hclvm/typeexpr.h>

#include <string>
#include <vector>

#include "hclvm/syntax.h"
#include "syntax/token.h"
#include "value/refine.h"
#include "value_test_util.h"

namespace hclvm {
namespace {

using test::obj;
using test::tup;

const Type* S = Type::string();
const Type* N = Type::number();
const Type* B = Type::boolean();
const Type* D = Type::dynamic();

Value str(std::string_view s) { return Value::string(s); }
Value int64(int64_t i) { return Value::integer(i); }
Value num512(int64_t i) { return Value::number(Number::from_int(i, 512)); }

// Describes [v] with its exact type, marks and refinements, so that two
// descriptions are equal when the values are (cty's RawEquals).
std::string describe(const Value& v) {
  if (v.is_marked()) {
    auto [inner, marks] = v.unmark_with_marks();
    std::string out = "marked(" + describe(inner);
    for (std::string_view m : marks.labels()) out += "," + std::string(m);
    return out + ")";
  }
  const Type* t = v.type();
  if (!v.is_known())
    return "unknown(" + t->go_string() + (v.refinement().not_null ? ",notnull" : "") + ")";
  if (v.is_null()) return "null(" + t->go_string() + ")";
  switch (t->kind()) {
    case TypeKind::String: return "\"" + std::string(v.as_string()) + "\"";
    case TypeKind::Number:
      return v.as_number().text() + "p" + std::to_string(v.as_number().precision());
    case TypeKind::Bool: return v.as_bool() ? "true" : "false";
    case TypeKind::Map: {
      std::string out = t->go_string() + "{";
      for (size_t i = 0; i < v.length(); ++i)
        out += std::string(v.map_key(i)) + ":" + describe(v.map_value(i)) + ",";
      return out + "}";
    }
    case TypeKind::Object: {
      std::string out = "{";
      for (size_t i = 0; i < v.length(); ++i)
        out += std::string(t->attr_name(i)) + ":" + describe(v.attr(i)) + ",";
      return out + "}";
    }
    default: {
      std::string out = t->go_string() + "[";
      for (size_t i = 0; i < v.length(); ++i) out += describe(v.element(i)) + ",";
      return out + "]";
    }
  }
}

// Describes a defaults tree the same way (or "nil").
std::string describe(const TypeDefaults* d) {
  if (!d) return "nil";
  std::string out = "Defaults{" + d->type->go_string() + " values{";
  for (const auto& [k, v] : d->values) out += k + ":" + describe(v) + ",";
  out += "} children{";
  for (const auto& [k, c] : d->children) out += k + ":" + describe(c.get()) + ",";
  return out + "}}";
}

using DefaultsPtr = std::shared_ptr<const TypeDefaults>;

DefaultsPtr defs(const Type* t, std::map<std::string, Value> values = {},
                 std::map<std::string, DefaultsPtr> children = {}) {
  auto d = std::make_shared<TypeDefaults>();
  d->type = t;
  d->values = std::move(values);
  d->children = std::move(children);
  return d;
}

// A parsed expression and the result of reading it as a type.
struct Parsed {
  ExprParse parse;
  TypeExprResult result;
};

Parsed read(std::string_view source, TypeExprMode mode) {
  Parsed p{parse_expression(make_source("", std::string(source))), {}};
  EXPECT_FALSE(p.parse.has_errors()) << source;
  if (p.parse.expr) p.result = parse_type_expr(*p.parse.expr, *p.parse.source, mode);
  return p;
}

// Checks that [r] has an error with detail [want_error], or, when that is
// empty, no diagnostics at all.
void expect_error(const TypeExprResult& r, const char* want_error) {
  if (*want_error == 0) {
    for (const Diagnostic& d : r.diagnostics) ADD_FAILURE() << "unexpected: " << d.detail;
    return;
  }
  bool found = false;
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error && d.detail == want_error) found = true;
  EXPECT_TRUE(found) << "missing error: " << want_error
                     << (r.diagnostics.empty() ? "" : "\n  got: " + r.diagnostics[0].detail);
}

// --- get_type_test.go: TestGetType ------------------------------------------

struct TypeCase {
  const char* source;
  bool constraint;
  const Type* want;
  const char* want_error;  // "" for none
};

class GetType : public ::testing::TestWithParam<TypeCase> {};

TEST_P(GetType, Reads) {
  const TypeCase& c = GetParam();
  Parsed p = read(c.source, c.constraint ? TypeExprMode::Constraint : TypeExprMode::Exact);
  const TypeExprResult& r = p.result;
  expect_error(r, c.want_error);
  EXPECT_EQ(r.type, c.want) << r.type->go_string() << " want " << c.want->go_string();
  EXPECT_EQ(r.defaults, nullptr);
}

INSTANTIATE_TEST_SUITE_P(
    Reference, GetType,
    ::testing::Values(
        // keywords
        TypeCase{"bool", false, B, ""}, TypeCase{"number", false, N, ""},
        TypeCase{"string", false, S, ""},
        TypeCase{"any", false, D,
                 "The keyword \"any\" cannot be used in this type specification: an exact type is "
                 "required."},
        TypeCase{"any", true, D, ""},
        TypeCase{"list", false, D,
                 "The list type constructor requires one argument specifying the element type."},
        TypeCase{"map", false, D,
                 "The map type constructor requires one argument specifying the element type."},
        TypeCase{"set", false, D,
                 "The set type constructor requires one argument specifying the element type."},
        TypeCase{"object", false, D,
                 "The object type constructor requires one argument specifying the attribute types "
                 "and values as a map."},
        TypeCase{"tuple", false, D,
                 "The tuple type constructor requires one argument specifying the element types as "
                 "a list."},
        // constructors
        TypeCase{"bool()", false, D, "Primitive type keyword \"bool\" does not expect arguments."},
        TypeCase{"number()", false, D,
                 "Primitive type keyword \"number\" does not expect arguments."},
        TypeCase{"string()", false, D,
                 "Primitive type keyword \"string\" does not expect arguments."},
        TypeCase{"any()", false, D, "Type constraint keyword \"any\" does not expect arguments."},
        TypeCase{"any()", true, D, "Type constraint keyword \"any\" does not expect arguments."},
        TypeCase{"list(string)", false, Type::list(S), ""},
        TypeCase{"set(string)", false, Type::set(S), ""},
        TypeCase{"map(string)", false, Type::map(S), ""},
        TypeCase{"list()", false, D,
                 "The list type constructor requires one argument specifying the element type."},
        TypeCase{"list(string, string)", false, D,
                 "The list type constructor requires one argument specifying the element type."},
        TypeCase{"list(any)", false, Type::list(D),
                 "The keyword \"any\" cannot be used in this type specification: an exact type is "
                 "required."},
        TypeCase{"list(any)", true, Type::list(D), ""},
        TypeCase{"object({})", false, Type::empty_object(), ""},
        TypeCase{"object({name=string})", false, obj({{"name", S}}), ""},
        TypeCase{"object({\"name\"=string})", false, Type::empty_object(),
                 "Object constructor map keys must be attribute names."},
        TypeCase{"object({name=nope})", false, obj({{"name", D}}),
                 "The keyword \"nope\" is not a valid type specification."},
        TypeCase{"object()", false, D,
                 "The object type constructor requires one argument specifying the attribute types "
                 "and values as a map."},
        TypeCase{"object(string)", false, D,
                 "Object type constructor requires a map whose keys are attribute names and whose "
                 "values are the corresponding attribute types."},
        TypeCase{"tuple([])", false, Type::empty_tuple(), ""},
        TypeCase{"tuple([string, bool])", false, tup({S, B}), ""},
        TypeCase{"tuple([nope])", false, tup({D}),
                 "The keyword \"nope\" is not a valid type specification."},
        TypeCase{"tuple()", false, D,
                 "The tuple type constructor requires one argument specifying the element types as "
                 "a list."},
        TypeCase{"tuple(string)", false, D,
                 "Tuple type constructor requires a list of element types."},
        TypeCase{"shwoop(string)", false, D, "Keyword \"shwoop\" is not a valid type constructor."},
        TypeCase{"list(\"string\")", false, Type::list(D),
                 "A type specification is either a primitive type keyword (bool, number, string) "
                 "or a complex type constructor call, like list(string)."},
        // more interesting combinations
        TypeCase{"list(object({}))", false, Type::list(Type::empty_object()), ""},
        TypeCase{"list(map(tuple([])))", false, Type::list(Type::map(Type::empty_tuple())), ""},
        // optional modifier
        TypeCase{"object({name=string,age=optional(number)})", true,
                 obj({{"name", S}, {"age", N, true}}), ""},
        TypeCase{"object({name=string,meta=optional(any)})", true,
                 obj({{"name", S}, {"meta", D, true}}), ""},
        TypeCase{"object({name=string,age=optional(number)})", false,
                 obj({{"name", S}, {"age", N}}),
                 "Optional attribute modifier is only for type constraints, not for exact types."},
        TypeCase{"object({name=string,meta=optional(any)})", false, obj({{"name", S}, {"meta", D}}),
                 "Optional attribute modifier is only for type constraints, not for exact types."},
        TypeCase{"object({name=string,meta=optional()})", true, obj({{"name", S}}),
                 "Optional attribute modifier requires the attribute type as its argument."},
        TypeCase{"object({name=string,meta=optional(string, \"hello\")})", true,
                 obj({{"name", S}, {"meta", S}}),
                 "Optional attribute modifier expects only one argument: the attribute type."},
        TypeCase{"optional(string)", false, D,
                 "Keyword \"optional\" is valid only as a modifier for object type attributes."},
        TypeCase{"optional", false, D,
                 "The keyword \"optional\" is not a valid type specification."},
        // duplicate attributes (hcl 2.17.1)
        TypeCase{"object({a=string,a=number})", false, obj({{"a", S}}),
                 "Object constructor map keys must be unique."},
        // beyond the reference's table: keywords that traversal syntax reads as names
        TypeCase{"null", false, D, "The keyword \"null\" is not a valid type specification."},
        TypeCase{"object({true=bool,null=string})", false, obj({{"true", B}, {"null", S}}), ""},
        TypeCase{"object({(name)=string})", false, Type::empty_object(),
                 "Object constructor map keys must be attribute names."},
        TypeCase{"(string)", false, D,
                 "A type specification is either a primitive type keyword (bool, number, string) "
                 "or a complex type constructor call, like list(string)."},
        TypeCase{"list((string))", false, Type::list(D),
                 "A type specification is either a primitive type keyword (bool, number, string) "
                 "or a complex type constructor call, like list(string)."},
        TypeCase{"a.b", false, D,
                 "A type specification is either a primitive type keyword (bool, number, string) "
                 "or a complex type constructor call, like list(string)."},
        TypeCase{"tuple([string,])", false, tup({S}), ""},
        TypeCase{"provider::p::list(string)", false, D,
                 "Keyword \"provider::p::list\" is not a valid type constructor."}));

// --- diagnostics' ranges ----------------------------------------------------------

std::string range_text(const std::optional<Range>& r) {
  if (!r) return "none";
  return std::to_string(r->start.line) + ":" + std::to_string(r->start.column) + "-" +
         std::to_string(r->end.line) + ":" + std::to_string(r->end.column) + "@" +
         std::to_string(r->start.byte) + "-" + std::to_string(r->end.byte);
}

struct RangeCase {
  const char* source;
  TypeExprMode mode;
  const char* summary;
  const char* subject;
  const char* context;
};

class DiagRanges : public ::testing::TestWithParam<RangeCase> {};

TEST_P(DiagRanges, AreTheReferences) {
  const RangeCase& c = GetParam();
  Parsed p = read(c.source, c.mode);
  ASSERT_EQ(p.result.diagnostics.size(), 1u) << c.source;
  const Diagnostic& d = p.result.diagnostics[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.summary, c.summary);
  EXPECT_EQ(range_text(d.subject), c.subject) << d.detail;
  EXPECT_EQ(range_text(d.context), c.context) << d.detail;
}

constexpr const char* kInvalid = "Invalid type specification";

INSTANTIATE_TEST_SUITE_P(
    Typeexpr, DiagRanges,
    ::testing::Values(
        // keyword: the whole expression
        RangeCase{"list", TypeExprMode::Exact, kInvalid, "1:1-1:5@0-4", "none"},
        RangeCase{"  any", TypeExprMode::Exact, kInvalid, "1:3-1:6@2-5", "none"},
        // primitive called: the parentheses and what is inside
        RangeCase{"string( )", TypeExprMode::Exact, kInvalid, "1:7-1:10@6-9", "none"},
        // too many arguments: the extra ones, in the context of all of them
        RangeCase{"map(string, bool, number)", TypeExprMode::Exact, kInvalid, "1:13-1:25@12-24",
                  "1:4-1:26@3-25"},
        // too few: the parentheses twice
        RangeCase{"set()", TypeExprMode::Exact, kInvalid, "1:4-1:6@3-5", "1:4-1:6@3-5"},
        // not a map: the argument, in the context of the call
        RangeCase{"object([])", TypeExprMode::Exact, kInvalid, "1:8-1:10@7-9", "1:1-1:11@0-10"},
        RangeCase{"tuple({})", TypeExprMode::Exact, kInvalid, "1:7-1:9@6-8", "1:1-1:10@0-9"},
        // bad key: the key, in the context of the object constructor call
        RangeCase{"object({\"a\" = string})", TypeExprMode::Exact, kInvalid, "1:9-1:12@8-11",
                  "1:1-1:23@0-22"},
        RangeCase{"object({a=bool,\na=bool})", TypeExprMode::Exact, kInvalid, "2:1-2:2@16-17",
                  "1:1-2:9@0-24"},
        // optional without argument: its parentheses, in the context of the attribute type
        RangeCase{"object({a = optional()})", TypeExprMode::Constraint, kInvalid, "1:21-1:23@20-22",
                  "1:13-1:23@12-22"},
        // optional in an exact type: its name
        RangeCase{"object({a = optional(bool)})", TypeExprMode::Exact, kInvalid, "1:13-1:21@12-20",
                  "1:13-1:27@12-26"},
        RangeCase{"object({a = optional(bool, 1, 2)})", TypeExprMode::ConstraintWithDefaults,
                  kInvalid, "1:21-1:33@20-32", "1:13-1:33@12-32"},
        // optional at the top: its name
        RangeCase{"optional(bool)", TypeExprMode::Constraint, kInvalid, "1:1-1:9@0-8", "none"},
        // unknown constructor: the whole call
        RangeCase{"frob(1, 2)", TypeExprMode::Exact, kInvalid, "1:1-1:11@0-10", "none"},
        // a default that does not convert: the default
        RangeCase{"object({a = optional(number, \"x\")})", TypeExprMode::ConstraintWithDefaults,
                  "Invalid default value for optional attribute", "1:30-1:33@29-32", "none"},
        // columns count characters
        RangeCase{"object({\"é\" = string})", TypeExprMode::Exact, kInvalid, "1:9-1:12@8-12",
                  "1:1-1:23@0-23"}));

// In the JSON syntax a type is a string holding the expression; what is
// wrong with the expression as a whole points at the whole string token,
// as the reference reads it through the JSON expression.
TEST(GetTypeJson, WholeStringRange) {
  auto src = make_source("t.json", R"j({"type": "\"string\"", "bad": "strin", "args": "list()"})j");
  ConfigFile f = parse_json_body(src);
  AttributesResult a = f.body.just_attributes();
  ASSERT_FALSE(a.has_errors());
  TypeExprResult quoted = parse_type_expr(a.attributes.find("type")->expr, TypeExprMode::Constraint);
  ASSERT_EQ(quoted.diagnostics.size(), 1u);
  EXPECT_EQ(quoted.diagnostics[0].summary, "Invalid type specification");
  EXPECT_EQ(quoted.diagnostics[0].subject->start.byte, 9u);   // the opening quote
  EXPECT_EQ(quoted.diagnostics[0].subject->end.byte, 21u);    // after the closing quote
  TypeExprResult kw = parse_type_expr(a.attributes.find("bad")->expr, TypeExprMode::Constraint);
  ASSERT_EQ(kw.diagnostics.size(), 1u);
  EXPECT_EQ(kw.diagnostics[0].subject->start.byte, 30u);
  EXPECT_EQ(kw.diagnostics[0].subject->end.byte, 37u);
  // An argument's diagnostic still points into the string.
  TypeExprResult args = parse_type_expr(a.attributes.find("args")->expr, TypeExprMode::Constraint);
  ASSERT_EQ(args.diagnostics.size(), 1u);
  EXPECT_EQ(args.diagnostics[0].subject->start.byte, 52u);
}

// A string that does not parse as an expression is neither a keyword nor a
// call: one "Invalid type specification" on the string, the parse's own
// errors dropped (the reference's JSON ExprCall drops them).
TEST(GetTypeJson, UnparsableString) {
  auto src = make_source("t.json", R"j({"t": "${list(string)", "u": "list(string"})j");
  ConfigFile f = parse_json_body(src);
  AttributesResult a = f.body.just_attributes();
  ASSERT_FALSE(a.has_errors());
  for (const char* name : {"t", "u"}) {
    TypeExprResult r = parse_type_expr(a.attributes.find(name)->expr, TypeExprMode::Constraint);
    ASSERT_EQ(r.diagnostics.size(), 1u) << name;
    EXPECT_EQ(r.diagnostics[0].summary, "Invalid type specification");
    EXPECT_EQ(*r.diagnostics[0].subject, a.attributes.find(name)->expr.range());
    EXPECT_EQ(r.type, Type::dynamic());
  }
}

TEST(GetTypeLimits, DeepNesting) {
  // The reference has no limit but its stack's (and its parser overflows
  // that before 100,000 levels). Deep input is read on a big stack here.
  for (size_t n : {size_t(kMaxNesting) - 10}) {
    SCOPED_TRACE(n);
    std::string s;
    for (size_t i = 0; i < n; ++i) s += "list(";
    s += "string" + std::string(n, ')');
    Parsed p = read(s, TypeExprMode::Exact);
    EXPECT_TRUE(p.result.diagnostics.empty());
    const Type* want = S;
    for (size_t i = 0; i < n; ++i) want = Type::list(want);
    EXPECT_EQ(p.result.type, want);
    EXPECT_TRUE(type_string(p.result.type) == s);

    // A default value nested as deeply, applied to a value without it.
    std::string d =
        "object({a = optional(any, " + std::string(n, '[') + std::string(n, ']') + ")})";
    p = read(d, TypeExprMode::ConstraintWithDefaults);
    EXPECT_TRUE(p.result.diagnostics.empty());
    ASSERT_TRUE(p.result.defaults);
    Value v = p.result.defaults->apply(Value::object(std::vector<std::pair<std::string, Value>>{}));
    const Value* a = v.attr("a");
    ASSERT_TRUE(a);
    size_t depth = 0;
    for (const Value* e = a; e->type()->is_tuple() && e->length() > 0; e = &e->element(0)) ++depth;
    EXPECT_EQ(depth, n - 1);
  }
}

// --- get_type_test.go: TestGetTypeDefaults ---------------------------------------

TEST(GetTypeDefaults, Reference) {
  const Type* ab = obj({{"a", S}, {"b", N, true}});
  struct Case {
    const char* source;
    DefaultsPtr want;
    const char* want_error;
  };
  std::vector<Case> cases = {
      // primitive types and types without defaults have none
      {"bool", nullptr, ""},
      {"number", nullptr, ""},
      {"string", nullptr, ""},
      {"any", nullptr, ""},
      {"map(string)", nullptr, ""},
      {"set(number)", nullptr, ""},
      {"tuple([number, string])", nullptr, ""},
      {"object({ a = string, b = number })", nullptr, ""},
      {"map(list(object({ a = string, b = optional(number) })))", nullptr, ""},
      // an optional attribute with a default
      {"object({ a = string, b = optional(number, 5) })", defs(ab, {{"b", num512(5)}}), ""},
      // nested defaults: the default {} converted to the attribute's type
      {"object({ a = optional(object({ b = optional(number, 5) }), {}) })",
       defs(obj({{"a", obj({{"b", N, true}}), true}}),
            {{"a", Value::object({{"b", Value::null(N)}})}},
            {{"a", defs(obj({{"b", N, true}}), {{"b", num512(5)}})}}),
       ""},
      // collections of objects with defaults
      {"map(object({ a = string, b = optional(number, 5) }))",
       defs(Type::map(ab), {}, {{"", defs(ab, {{"b", num512(5)}})}}), ""},
      {"list(object({ a = string, b = optional(number, 5) }))",
       defs(Type::list(ab), {}, {{"", defs(ab, {{"b", num512(5)}})}}), ""},
      {"set(object({ a = string, b = optional(number, 5) }))",
       defs(Type::set(ab), {}, {{"", defs(ab, {{"b", num512(5)}})}}), ""},
      // tuples key their children by index
      {"tuple([string, bool, object({ a = string, b = optional(number, 5) })])",
       defs(tup({S, B, ab}), {}, {{"2", defs(ab, {{"b", num512(5)}})}}), ""},
      // an incompatible default is an error and is dropped
      {"object({ a = optional(string, \"hello\"), b = optional(number, true) })",
       defs(obj({{"a", S, true}, {"b", N, true}}), {{"a", str("hello")}}),
       "This default value is not compatible with the attribute's type constraint: number "
       "required, but have bool."},
      // too many arguments
      {"object({name=string,meta=optional(string, \"hello\", \"world\")})", nullptr,
       "Optional attribute modifier expects at most two arguments: the attribute type, and a "
       "default value."},
      // a repeated attribute: the first one counts (hcl 2.17.1)
      {"map(object({ops=optional(list(string),[]),type=optional(string,\"ABC\"),type=optional("
       "number)}))",
       defs(Type::map(obj({{"ops", Type::list(S), true}, {"type", S, true}})), {},
            {{"", defs(obj({{"ops", Type::list(S), true}, {"type", S, true}}),
                       {{"ops", Value::list(S, {})}, {"type", str("ABC")}})}}),
       "Object constructor map keys must be unique."},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.source);
    Parsed p = read(c.source, TypeExprMode::ConstraintWithDefaults);
    const TypeExprResult& r = p.result;
    expect_error(r, c.want_error);
    EXPECT_EQ(describe(r.defaults.get()), describe(c.want.get()));
  }
}

// --- default values ---------------------------------------------------------------

TEST(GetTypeDefaults, ConstantDefaults) {
  Parsed p = read(
      "object({\n"
      "  s = optional(string, \"a${\"b\"}c\"),\n"
      "  n = optional(number, -2.5),\n"
      "  b = optional(bool, !true),\n"
      "  l = optional(list(string), [\"x\", 1, true]),\n"
      "  m = optional(map(number), {a = 1, \"b\" = 2, (\"c\") = 3, 4 = 4}),\n"
      "  o = optional(object({x = number}), {x = (1)}),\n"
      "  z = optional(string, null),\n"
      "  t = optional(string, \"${1}${true}\"),\n"
      "  e = optional(number, 1 + 2 * 3),\n"
      "  f = optional(list(number), [for i in [1, 2]: i * 10 if i > 1]),\n"
      "  c = optional(string, true ? \"yes\" : \"no\"),\n"
      "})",
      TypeExprMode::ConstraintWithDefaults);
  ASSERT_TRUE(p.result.diagnostics.empty()) << p.result.diagnostics[0].detail;
  ASSERT_TRUE(p.result.defaults);
  const auto& v = p.result.defaults->values;
  EXPECT_EQ(describe(v.at("s")), "\"abc\"");
  EXPECT_EQ(describe(v.at("n")), "-2.5p512");
  EXPECT_EQ(describe(v.at("b")), "false");
  EXPECT_EQ(describe(v.at("l")), "cty.List(cty.String)[\"x\",\"1\",\"true\",]");
  EXPECT_EQ(describe(v.at("m")), "cty.Map(cty.Number){4:4p512,a:1p512,b:2p512,c:3p512,}");
  EXPECT_EQ(describe(v.at("o")), "{x:1p512,}");
  EXPECT_EQ(describe(v.at("z")), "null(cty.String)");
  EXPECT_EQ(describe(v.at("t")), "\"1true\"");
  // Any constant expression: operators, for expressions, conditionals.
  EXPECT_EQ(describe(v.at("e")), "7p512");
  EXPECT_EQ(describe(v.at("f")), "cty.List(cty.Number)[20p512,]");
  EXPECT_EQ(describe(v.at("c")), "\"yes\"");
}

TEST(GetTypeDefaults, NonLiteralDefaults) {
  struct Case {
    const char* source;
    const char* summary;
    const char* subject;
  };
  std::vector<Case> cases = {
      {"object({a = optional(string, var.x)})", "Variables not allowed", "1:30-1:33@29-32"},
      {"object({a = optional(string, upper(\"x\"))})", "Function calls not allowed",
       "1:30-1:40@29-39"},
      {"object({a = optional(number, 1 + \"x\")})", "Invalid operand", "1:34-1:37@33-36"},
      {"object({a = optional(map(string), {a.b = \"x\"})})", "Ambiguous attribute key",
       "1:36-1:39@35-38"},
      {"object({a = optional(map(string), {(null) = \"x\"})})", "Null value as key",
       "1:45-1:48@44-47"},
      {"object({a = optional(string, \"a${null}\")})", "Invalid template interpolation value",
       "1:34-1:38@33-37"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.source);
    Parsed p = read(c.source, TypeExprMode::ConstraintWithDefaults);
    ASSERT_EQ(p.result.diagnostics.size(), 1u);
    EXPECT_EQ(p.result.diagnostics[0].summary, c.summary);
    EXPECT_EQ(range_text(p.result.diagnostics[0].subject), c.subject);
    // A default that fails leaves the attribute required and without default.
    EXPECT_EQ(p.result.type->attr_optional(0), false);
    EXPECT_EQ(p.result.defaults, nullptr);
  }
}

// --- defaults_test.go: TestDefaults_Apply ---------------------------------------

TEST(DefaultsApply, Reference) {
  const Type* simple = obj({{"a", S}, {"b", B, true}});
  const Type* nested = obj({{"c", simple, true}, {"d", N}});
  auto o = [](std::vector<std::pair<std::string, Value>> attrs) {
    return Value::object(std::move(attrs));
  };
  auto m = [](const Type* e, std::vector<std::pair<std::string, Value>> kv) {
    return Value::map(e, std::move(kv));
  };
  Value T = Value::boolean(true), F = Value::boolean(false);

  struct Case {
    const char* name;
    DefaultsPtr defaults;
    Value value;
    Value want;
  };
  const Type* taints = Type::list(Type::map(D));
  const Type* pool = obj({{"name", S, true}, {"taints", taints, true}});
  DefaultsPtr pool_defaults =
      defs(pool, {{"name", str("default")}, {"taints", Value::list(Type::map(D), {})}});
  Value envoy = o({{"name", str("node-envoy-32")},
                   {"taints", Value::list(Type::map(S), {m(S, {{"key", str("etsy.com/nodepool")},
                                                               {"value", str("envoy")}})})}});
  const Type* rule = obj({{"description", S},
                          {"destination_ports", Type::list(S)},
                          {"destination_addresses", Type::list(S), true},
                          {"translated_address", S},
                          {"translated_port", S}});
  const Type* group = obj({{"description", S, true}, {"rules", Type::map(rule)}});
  Value rule_value = o({{"description", str("Port forward")},
                        {"destination_ports", Value::list(S, {str("3306")})},
                        {"destination_addresses", Value::list(S, {str("192.168.0.1")})},
                        {"translated_address", str("192.168.0.1")},
                        {"translated_port", str("3306")}});
  const Type* optobj = obj({{"nested_required", S}, {"nested_optional", S, true}});
  const Type* outer = obj({{"required", S}, {"optional_object", optobj, true}});
  DefaultsPtr outer_defaults =
      defs(outer,
           {{"optional_object",
             o({{"nested_required", str("required")}, {"nested_optional", Value::null(S)}})}},
           {{"optional_object", defs(optobj, {{"nested_optional", str("optional")}})}});
  Value outer_want =
      o({{"required", str("required")},
         {"optional_object",
          o({{"nested_required", str("required")}, {"nested_optional", str("optional")}})}});
  const Type* settings = obj({{"setting_one", S, true}, {"setting_two", N, true}});
  const Type* settings_s = obj({{"setting_one", S, true}, {"setting_two", S, true}});
  const Type* foo = obj({{"foo", S, true}});
  Value unknown_s = Value::unknown(S);
  Value unknown_s_nn = refine_not_null(unknown_s);

  std::vector<Case> cases = {
      {"no defaults", defs(Type::map(S)), m(S, {{"a", str("foo")}, {"b", str("bar")}}),
       m(S, {{"a", str("foo")}, {"b", str("bar")}})},
      {"simple object with defaults applied", defs(simple, {{"b", T}}), m(S, {{"a", str("foo")}}),
       m(S, {{"a", str("foo")}, {"b", str("true")}})},
      {"simple object with defaults but unknown value", defs(simple, {{"b", T}}),
       Value::unknown(Type::map(S)), Value::unknown(Type::map(S))},
      {"simple object with optional attributes specified", defs(simple, {{"b", T}}),
       m(S, {{"a", str("foo")}, {"b", str("false")}}),
       m(S, {{"a", str("foo")}, {"b", str("false")}})},
      {"object with explicit null for attribute with default", defs(simple, {{"b", T}}),
       m(S, {{"a", str("foo")}, {"b", Value::null(S)}}),
       m(S, {{"a", str("foo")}, {"b", str("true")}})},
      {"nested object with defaults applied", defs(nested, {}, {{"c", defs(simple, {{"b", F}})}}),
       o({{"c", o({{"a", str("foo")}})}, {"d", int64(5)}}),
       o({{"c", o({{"a", str("foo")}, {"b", F}})}, {"d", int64(5)}})},
      {"map of objects with defaults applied",
       defs(Type::map(simple), {}, {{"", defs(simple, {{"b", T}})}}),
       m(Type::object(std::vector<TypeAttr>{{"a", S}}),
         {{"f", o({{"a", str("foo")}})}, {"b", o({{"a", str("bar")}})}}),
       m(obj({{"a", S}, {"b", B}}),
         {{"f", o({{"a", str("foo")}, {"b", T}})}, {"b", o({{"a", str("bar")}, {"b", T}})}})},
      {"map of objects with defaults applied, given object instead of map",
       defs(Type::map(simple), {}, {{"", defs(simple, {{"b", T}})}}),
       o({{"f", o({{"a", str("foo")}})}, {"b", o({{"a", str("bar")}})}}),
       o({{"f", o({{"a", str("foo")}, {"b", T}})}, {"b", o({{"a", str("bar")}, {"b", T}})}})},
      {"list of objects with defaults applied",
       defs(Type::list(simple), {}, {{"", defs(simple, {{"b", T}})}}),
       Value::tuple({o({{"a", str("foo")}}), o({{"a", str("bar")}})}),
       Value::tuple({o({{"a", str("foo")}, {"b", T}}), o({{"a", str("bar")}, {"b", T}})})},
      {"tuple of objects with defaults applied",
       defs(tup({simple, nested}), {},
            {{"0", defs(simple, {{"b", F}})},
             {"1", defs(nested, {{"c", o({{"a", str("default")}, {"b", T}})}})}}),
       Value::tuple({o({{"a", str("foo")}}), o({{"d", int64(5)}})}),
       Value::tuple({o({{"a", str("foo")}, {"b", F}}),
                     o({{"c", o({{"a", str("default")}, {"b", T}})}, {"d", int64(5)}})})},
      {"set of nested objects, no default sub-object",
       defs(Type::set(nested), {}, {{"", defs(nested, {}, {{"c", defs(simple, {{"b", T}})}})}}),
       Value::tuple({o({{"c", o({{"a", str("foo")}})}, {"d", int64(5)}}), o({{"d", int64(7)}})}),
       Value::tuple(
           {o({{"c", o({{"a", str("foo")}, {"b", T}})}, {"d", int64(5)}}), o({{"d", int64(7)}})})},
      {"set of nested objects, empty default sub-object",
       defs(Type::set(nested), {},
            {{"", defs(nested, {{"c", Value::object({})}}, {{"c", defs(simple, {{"b", T}})}})}}),
       Value::tuple({o({{"c", o({{"a", str("foo")}})}, {"d", int64(5)}}), o({{"d", int64(7)}})}),
       Value::tuple({o({{"c", o({{"a", str("foo")}, {"b", T}})}, {"d", int64(5)}}),
                     o({{"c", o({{"b", T}})}, {"d", int64(7)}})})},
      {"set of nested objects, overriding default sub-object",
       defs(Type::set(nested), {},
            {{"", defs(nested, {{"c", o({{"a", str("fallback")}, {"b", F}})}},
                       {{"c", defs(simple, {{"b", T}})}})}}),
       Value::tuple({o({{"c", o({{"a", str("foo")}})}, {"d", int64(5)}}), o({{"d", int64(7)}})}),
       Value::tuple({o({{"c", o({{"a", str("foo")}, {"b", T}})}, {"d", int64(5)}}),
                     o({{"c", o({{"a", str("fallback")}, {"b", F}})}, {"d", int64(7)}})})},
      {"set of nested objects, nulls in default sub-object overridden",
       defs(Type::set(nested), {},
            {{"", defs(nested, {{"c", o({{"a", str("fallback")}, {"b", Value::null(B)}})}},
                       {{"c", defs(simple, {{"b", T}})}})}}),
       Value::tuple({o({{"c", o({{"a", str("foo")}})}, {"d", int64(5)}}), o({{"d", int64(7)}})}),
       Value::tuple({o({{"c", o({{"a", str("foo")}, {"b", T}})}, {"d", int64(5)}}),
                     o({{"c", o({{"a", str("fallback")}, {"b", T}})}, {"d", int64(7)}})})},
      {"null objects do not get default values inserted",
       defs(obj({{"required", S}, {"optional", S, true}}), {{"optional", str("optional")}}),
       Value::null(obj({{"required", S}, {"optional", S}})),
       Value::null(obj({{"required", S}, {"optional", S}}))},
      {"defaults with unset defaults are still applied (null)", outer_defaults,
       o({{"required", str("required")},
          {"optional_object", Value::null(obj({{"nested_required", S}, {"nested_optional", S}}))}}),
       outer_want},
      {"defaults with unset defaults are still applied (missing)", outer_defaults,
       o({{"required", str("required")}}), outer_want},
      {"all child and nested values are optional with defaults",
       defs(
           obj({{"settings", settings, true}}), {{"settings", Value::object({})}},
           {{"settings", defs(settings_s, {{"setting_one", str("")}, {"setting_two", int64(0)}})}}),
       Value::object({}),
       o({{"settings", o({{"setting_one", str("")}, {"setting_two", int64(0)}})}})},
      {"all nested values are optional with defaults, but direct child has no default",
       defs(
           obj({{"settings", settings, true}}), {},
           {{"settings", defs(settings_s, {{"setting_one", str("")}, {"setting_two", int64(0)}})}}),
       Value::object({}), Value::object({})},
      {"tuples retain custom values and dynamic types",
       defs(Type::list(pool), {}, {{"", pool_defaults}}),
       Value::tuple({o({{"name", str("node-pool-32")}}), envoy}),
       Value::tuple(
           {o({{"name", str("node-pool-32")}, {"taints", Value::list(Type::map(D), {})}}), envoy})},
      {"lists merge dynamic types with concrete types",
       defs(Type::list(pool), {}, {{"", pool_defaults}}),
       Value::list(envoy.type(), {o({{"name", str("node-pool-32")},
                                     {"taints", Value::null(Type::list(Type::map(S)))}}),
                                  envoy}),
       Value::list(
           envoy.type(),
           {o({{"name", str("node-pool-32")}, {"taints", Value::list(Type::map(S), {})}}), envoy})},
      {"applies default safely where possible when types mismatch",
       defs(Type::map(group), {},
            {{"", defs(group, {{"description", str("unknown")}},
                       {{"rules", defs(Type::map(rule), {},
                                       {{"", defs(rule, {{"destination_addresses",
                                                          Value::list(S, {})}})}})}})}}),
       m(obj({{"rules", rule_value.type()}}), {{"mysql", o({{"rules", rule_value}})}}),
       m(obj({{"description", S}, {"rules", rule_value.type()}}),
         {{"mysql", o({{"description", str("unknown")}, {"rules", rule_value}})}})},
      {"optional attribute with a default can never be null", defs(foo, {{"foo", str("bar")}}),
       o({{"foo", unknown_s}}), o({{"foo", unknown_s_nn}})},
      {"optional attribute with a null default could be null", defs(foo, {{"foo", Value::null(S)}}),
       o({{"foo", unknown_s}}), o({{"foo", unknown_s}})},
      {"optional attribute with no default could be null", defs(foo), o({{"foo", unknown_s}}),
       o({{"foo", unknown_s}})},
      {"optional attribute with non-null unknown value cannot be null",
       defs(foo, {{"foo", Value::null(S)}}), o({{"foo", unknown_s_nn}}),
       o({{"foo", unknown_s_nn}})},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(describe(c.defaults->apply(c.value)), describe(c.want));
  }
}

TEST(DefaultsApply, KeepsMarks) {
  const Type* simple = obj({{"a", S}, {"b", B, true}});
  DefaultsPtr d = defs(simple, {{"b", Value::boolean(true)}});
  Value v = Value::object({{"a", str("x")}}).mark("sensitive");
  EXPECT_EQ(describe(d->apply(v)), "marked({a:\"x\",b:true,},sensitive)");
  // Marks on nested values stay where they are.
  Value w = Value::object({{"a", str("x").mark("sensitive")}});
  EXPECT_EQ(describe(d->apply(w)), "{a:marked(\"x\",sensitive),b:true,}");
}

TEST(DefaultsApply, FromTypeExpression) {
  Parsed p = read("list(object({ name = string, port = optional(number, 80) }))",
                  TypeExprMode::ConstraintWithDefaults);
  ASSERT_TRUE(p.result.defaults);
  Value in = Value::tuple({Value::object({{"name", str("a")}}),
                           Value::object({{"name", str("b")}, {"port", int64(8080)}})});
  Value out = p.result.defaults->apply(in);
  ASSERT_TRUE(out.type()->is_tuple());
  ASSERT_EQ(out.length(), 2u);
  EXPECT_EQ(describe(out.element(0)), "{name:\"a\",port:80p512,}");
  EXPECT_EQ(describe(out.element(1)), "{name:\"b\",port:8080p64,}");
}

// --- type_string_test.go ----------------------------------------------------------

TEST(TypeString, Reference) {
  struct Case {
    const Type* type;
    const char* want;
  };
  std::vector<Case> cases = {
      {D, "any"},
      {S, "string"},
      {N, "number"},
      {B, "bool"},
      {Type::list(N), "list(number)"},
      {Type::set(B), "set(bool)"},
      {Type::map(S), "map(string)"},
      {Type::empty_object(), "object({})"},
      {obj({{"foo", B}}), "object({foo=bool})"},
      {obj({{"foo", B}, {"bar", S}}), "object({bar=string,foo=bool})"},
      {Type::empty_tuple(), "tuple([])"},
      {tup({B}), "tuple([bool])"},
      {tup({B, S}), "tuple([bool,string])"},
      {Type::list(D), "list(any)"},
      {tup({D}), "tuple([any])"},
      {obj({{"foo", D}}), "object({foo=any})"},
      // not an identifier: quoted as Go's %q does (not readable back)
      {obj({{"foo bar baz", S}}), "object({\"foo bar baz\"=string})"},
      {obj({{"a\"b\n", S}, {"é-ok", S}}), "object({\"a\\\"b\\n\"=string,é-ok=string})"},
      // optional attributes are written as plain ones, as the newest reference does
      {obj({{"foo", B, true}}), "object({foo=bool})"},
      {Type::map(obj({{"a", S, true}, {"b", tup({N, Type::set(S)})}})),
       "map(object({a=string,b=tuple([number,set(string)])}))"},
  };
  for (const Case& c : cases) EXPECT_EQ(type_string(c.type), c.want) << c.type->go_string();
}

TEST(TypeString, ValidIdentifier) {
  EXPECT_TRUE(valid_identifier("a"));
  EXPECT_TRUE(valid_identifier("_x-1"));
  EXPECT_TRUE(valid_identifier("null"));
  EXPECT_TRUE(valid_identifier("\xc3\xa9t\xc3\xa9"));
  EXPECT_FALSE(valid_identifier(""));
  EXPECT_FALSE(valid_identifier("1a"));
  EXPECT_FALSE(valid_identifier("-a"));
  EXPECT_FALSE(valid_identifier("a b"));
  EXPECT_FALSE(valid_identifier("a.b"));
  EXPECT_FALSE(
      valid_identifier("\xef\xbb\xbf"
                       "a"));
}

// ASCII names are checked without the scanner; the verdict is the
// scanner's for every ASCII string of up to two characters and for every
// one of three made of the characters that matter.
TEST(TypeString, ValidIdentifierAsTheScannerSays) {
  auto scanner = [](std::string_view s) {
    syntax::Tokens toks = syntax::scan(s, syntax::ScanMode::IdentOnly);
    return toks.size() == 2 && toks[0].type == syntax::Tok::Ident &&
           toks[1].type == syntax::Tok::EOF_;
  };
  std::vector<std::string> names = {""};
  for (int a = 0; a < 128; ++a) {
    names.push_back(std::string(1, char(a)));
    for (int b = 0; b < 128; ++b) names.push_back(std::string{char(a), char(b)});
  }
  const std::string some = "aZ_-09 .\t\x7f";
  for (char a : some)
    for (char b : some)
      for (char c : some) names.push_back(std::string{a, b, c});
  size_t valid = 0;
  for (const std::string& n : names) {
    ASSERT_EQ(valid_identifier(n), scanner(n)) << "\"" << n << "\"";
    valid += scanner(n) ? 1 : 0;
  }
  EXPECT_GT(valid, 3000u);  // the comparison saw both verdicts
}

// --- type_type.go -----------------------------------------------------------------

TEST(TypeConstraintCapsule, RoundTrip) {
  const Type* t = Type::list(obj({{"a", S}}));
  Value v = type_constraint_val(t);
  EXPECT_EQ(v.type(), type_constraint_type());
  EXPECT_TRUE(v.type()->is_capsule());
  EXPECT_EQ(v.type()->capsule_name(), "type constraint");
  EXPECT_EQ(type_constraint_from_val(v), t);
}

}  // namespace
}  // namespace hclvm

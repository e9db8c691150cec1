// Tests of the spec decoder (hclvm/hcldec.h) through its API: the spec
// kinds the spec language has no block for (tuple and object block specs,
// labels, block attributes, validation, transform functions), partial
// decoding, source ranges, schemas and variables. The expected values are
// the reference's (hcldec with the same specs and input, run through Go);
// the spec language and the hcldec command are covered by the conformance
// tests (tests/conformance) and the CLI tests.
#include <gtest/gtest.h>
#include <hclvm/hcldec.h>
#include <hclvm/functions.h>

#include <string>
#include <vector>

#include "test_util.h"
#include "value/json.h"

namespace hclvm::hcldec {
namespace {

const char kInput[] = R"(
svc "a" "x" {
  port = 1
}
svc "b" "y" {
  port = "two"
}
svc "a" "z" {
  port = 3
}
env {
  A = 1
  B = "b"
}
extra = 5
thing {
  v = 2
}
)";

Body input() { return parse_native_body(make_source("t.hcl", kInput)).body; }

std::string rng(const Range& r) { return range_string(r); }

// [v] as compact JSON of its own type ("?" when it cannot be written).
std::string render_value(const Value& v) {
  JsonResult<std::string> j = to_json(v, v.type());
  return j.ok() ? j.value : "?";
}

// "summary | detail | subject" of each diagnostic, in order.
std::vector<std::string> lines(const Diagnostics& diags) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags)
    out.push_back(d.summary + " | " + d.detail + " | " + (d.subject ? rng(*d.subject) : "-"));
  return out;
}

SpecPtr labelled_nested() {
  return object_spec(
      {{"name", block_label_spec(0, "name")}, {"port", attr_spec("port", Type::dynamic())}});
}

TEST(HcldecTest, TupleAttrsValidateAndPartialDecode) {
  SpecPtr tup = block_tuple_spec("svc",
                                 object_spec({{"name", block_label_spec(0, "name")},
                                              {"sub", block_label_spec(1, "sub")},
                                              {"port", attr_spec("port", Type::dynamic())}}),
                                 0, 2);
  SpecPtr thing =
      validate_spec(block_spec("thing", attr_spec("v", Type::number())), [](const Value& v) {
        Diagnostic d;
        d.summary = "bad";
        d.detail = render_value(v);
        return Diagnostics{d};
      });
  SpecPtr env = block_attrs_spec("env", Type::string());
  SpecPtr spec = object_spec({{"svcs", tup}, {"env", env}, {"thing", thing}});
  EvalContext ctx;
  PartialDecodeResult r = partial_decode(input(), *spec, &ctx);
  EXPECT_EQ(render_value(r.value),
            R"({"env":{"A":"1","B":"b"},"svcs":[{"name":"a","port":1,"sub":"x"},)"
            R"({"name":"b","port":"two","sub":"y"},{"name":"a","port":3,"sub":"z"}],)"
            R"("thing":2})");
  // The reference reports these in its random map order; ours is sorted by
  // the object's keys (svcs before thing).
  EXPECT_EQ(lines(r.diagnostics),
            (std::vector<std::string>{
                R"(Too many svc blocks | No more than 2 "svc" blocks are allowed | t.hcl:8,13-13)",
                "bad | 2 | t.hcl:17,7-8"}));
  // What the spec did not read stays for later.
  AttributesResult rest = r.remain.just_attributes();
  ASSERT_EQ(rest.attributes.size(), 1u);
  EXPECT_EQ(rest.attributes[0].name, "extra");

  EXPECT_EQ(implied_type(*spec),
            Type::object(std::vector<TypeAttr>{{"env", Type::map(Type::string())},
                                               {"svcs", Type::dynamic()},
                                               {"thing", Type::number()}}));
  BodySchema schema = implied_schema(*spec);
  ASSERT_EQ(schema.blocks.size(), 3u);
  EXPECT_TRUE(schema.attributes.empty());
  EXPECT_EQ(schema.blocks[0].type, "env");
  EXPECT_EQ(schema.blocks[1].type, "svc");
  EXPECT_EQ(schema.blocks[1].label_names, (std::vector<std::string>{"name", "sub"}));
  EXPECT_EQ(schema.blocks[2].type, "thing");

  EXPECT_EQ(rng(source_range(input(), *thing)), "t.hcl:17,7-8");
  EXPECT_EQ(rng(source_range(input(), *tup)), "t.hcl:2,13-13");
  EXPECT_EQ(rng(source_range(input(), *env)), "t.hcl:11,1-4");
}

TEST(HcldecTest, BlockObjectAndTransformFunc) {
  FunctionTable fns = default_functions();
  auto abs = std::make_shared<Function>(*fns.find("abs"));
  SpecPtr spec = object_spec({{"svcs", block_object_spec("svc", {"kind"}, labelled_nested())},
                              {"t", transform_func_spec(attr_spec("extra", Type::number()), abs)}});
  EvalContext ctx;
  PartialDecodeResult r = partial_decode(input(), *spec, &ctx);
  EXPECT_EQ(render_value(r.value),
            R"({"svcs":{"a":{"name":"x","port":1},"b":{"name":"y","port":"two"}},"t":5})");
  EXPECT_EQ(lines(r.diagnostics),
            (std::vector<std::string>{
                R"(Duplicate svc block | A block for svc "a" "z" was already defined. )"
                R"(The svc labels must be unique. | t.hcl:8,1-12)"}));
  auto children = child_block_types(*spec);
  ASSERT_EQ(children.size(), 1u);
  EXPECT_EQ(children[0].first, "svc");
}

TEST(HcldecTest, BlockMapWithDynamicTypesIsAnErrorNotACrash) {
  // The reference panics here; a map's elements must share one type.
  SpecPtr spec = object_spec({{"svcs", block_map_spec("svc", {"kind"}, labelled_nested())}});
  PartialDecodeResult r = partial_decode(input(), *spec, nullptr);
  EXPECT_TRUE(r.has_errors());
  EXPECT_EQ(lines(r.diagnostics)[0],
            "Invalid block_map spec | A block_map spec may not contain attributes with type "
            "'any'. | -");
}

TEST(HcldecTest, BlockMapNestsByLabels) {
  Body b = parse_native_body(make_source("m.hcl", R"(
svc "a" "x" {
  port = 1
}
svc "a" "y" {
  port = 2
}
svc "b" "x" {
  port = 3
}
)"))
               .body;
  SpecPtr spec = block_map_spec("svc", {"group", "name"}, attr_spec("port", Type::number()));
  DecodeResult r = decode(b, *spec, nullptr);
  EXPECT_FALSE(r.has_errors());
  EXPECT_EQ(render_value(r.value), R"({"a":{"x":1,"y":2},"b":{"x":3}})");
  EXPECT_EQ(implied_type(*spec), Type::map(Type::map(Type::number())));
  // No blocks: as in the reference, an empty map of the nested spec's type
  // however many labels there are.
  DecodeResult empty = decode(Body(), *spec, nullptr);
  EXPECT_EQ(empty.value.type(), Type::map(Type::number()));
  EXPECT_EQ(empty.value.length(), 0u);
}

TEST(HcldecTest, ListUnifiesElementTypesAndSetDropsDuplicates) {
  Body b = parse_native_body(make_source("l.hcl", R"(
item {
  v = 1
}
item {
  v = "1"
}
item {
  v = 1
}
)"))
               .body;
  DecodeResult list = decode(b, *block_list_spec("item", attr_spec("v")), nullptr);
  EXPECT_FALSE(list.has_errors());
  EXPECT_EQ(render_value(list.value), R"(["1","1","1"])");
  EXPECT_EQ(list.value.type(), Type::list(Type::string()));
  DecodeResult set = decode(b, *block_set_spec("item", attr_spec("v")), nullptr);
  EXPECT_EQ(set.value.type(), Type::set(Type::string()));
  EXPECT_EQ(set.value.length(), 1u);
  DecodeResult tuple = decode(b, *block_tuple_spec("item", attr_spec("v")), nullptr);
  EXPECT_EQ(render_value(tuple.value), R"([1,"1",1])");
}

TEST(HcldecTest, MissingItemsAreNullOfTheImpliedType) {
  SpecPtr spec = object_spec(
      {{"a", attr_spec("a", Type::list(Type::string()))},
       {"b", block_spec("b", attr_spec("x", Type::number()))},
       {"c", block_attrs_spec("c", Type::boolean())},
       {"d", default_spec(attr_spec("d", Type::string()), literal_spec(Value::string("dflt")))}});
  DecodeResult r = decode(Body(), *spec, nullptr);
  EXPECT_FALSE(r.has_errors());
  EXPECT_EQ(render_value(r.value), R"({"a":null,"b":null,"c":null,"d":"dflt"})");
  EXPECT_EQ(r.value.attr("a")->type(), Type::list(Type::string()));
  EXPECT_EQ(r.value.attr("c")->type(), Type::map(Type::boolean()));
}

TEST(HcldecTest, RequiredItemsAndDuplicates) {
  Body b = parse_native_body(make_source("r.hcl", "b {\n}\nb {\n}\n")).body;
  SpecPtr spec = object_spec({{"a", attr_spec("a", Type::string(), true)},
                              {"b", block_spec("b", object_spec({}), false)},
                              {"c", block_spec("c", object_spec({}), true)}});
  DecodeResult r = decode(b, *spec, nullptr);
  EXPECT_EQ(lines(r.diagnostics),
            (std::vector<std::string>{
                R"(Missing required argument | The argument "a" is required, but no definition )"
                R"(was found. | r.hcl:1,1-1)",
                R"(Duplicate b block | Only one block of type "b" is allowed. Previous )"
                R"(definition was at r.hcl:1,1-2. | r.hcl:3,1-2)",
                R"(Missing c block | A block of type "c" is required here. | r.hcl:1,1-1)"}));
}

TEST(HcldecTest, AttributeConversionErrorsNameTheAttribute) {
  Body b = parse_native_body(make_source("c.hcl", "a = [for x in xs: x]\n")).body;
  EvalContext ctx;
  ctx.set("xs", Value::tuple({Value::boolean(true)}));
  DecodeResult r = decode(b, *attr_spec("a", Type::list(Type::number())), &ctx);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.summary, "Incorrect attribute value type");
  EXPECT_EQ(d.detail,
            R"(Inappropriate value for attribute "a": element 0: number required, but have bool.)");
  EXPECT_EQ(rng(*d.subject), "c.hcl:1,5-21");
  EXPECT_EQ(rng(*d.context), "c.hcl:1,1-21");
  // The text renderer lists what the expression's variables held.
  EXPECT_EQ(d.expression_values, (std::vector<std::string>{"xs as tuple with 1 element"}));
  // The result is an unknown of the wanted type, for partial analysis.
  EXPECT_FALSE(r.value.is_known());
  EXPECT_EQ(r.value.type(), Type::list(Type::number()));
}

TEST(HcldecTest, VariablesFollowBlocksAndBlockAttributes) {
  Body b = parse_native_body(make_source("v.hcl", R"(
a = x.y
svc "n" {
  p = z[0]
}
env {
  B = w
  A = v
}
)"))
               .body;
  SpecPtr spec = object_spec(
      {{"a", attr_spec("a")},
       {"svc", block_list_spec(
                   "svc", object_spec({{"p", attr_spec("p")}, {"n", block_label_spec(0, "n")}}))},
       {"env", block_attrs_spec("env", Type::dynamic())}});
  std::vector<std::string> names;
  for (const Traversal& t : variables(b, *spec)) names.push_back(t.to_string());
  // Object children in key order (a, env, svc); block_attrs in source order.
  EXPECT_EQ(names, (std::vector<std::string>{"x.y", "w", "v", "z[0]"}));
}

TEST(HcldecTest, TransformExprSeesTheNestedValue) {
  ExprParse p = parse_expression(make_source("e.hcl", "nested * 2"));
  SpecPtr spec =
      transform_expr_spec(attr_spec("n", Type::number()), Expression::from_parse(std::move(p)));
  Body b = parse_native_body(make_source("n.hcl", "n = 21\n")).body;
  DecodeResult r = decode(b, *spec, nullptr);
  EXPECT_FALSE(r.has_errors());
  EXPECT_EQ(render_value(r.value), "42");
  EXPECT_EQ(implied_type(*spec), Type::number());
  // An error in the nested value stops the transform: no second error.
  Body bad = parse_native_body(make_source("n.hcl", "n = \"x\"\n")).body;
  DecodeResult rb = decode(bad, *spec, nullptr);
  EXPECT_EQ(rb.diagnostics.size(), 1u);
  EXPECT_FALSE(rb.value.is_known());
}

TEST(HcldecTest, SpecFunctionsAreGoCtyStdlib) {
  const FunctionTable& fns = spec_functions();
  for (const char* n : {"abs", "coalesce", "concat", "hasindex", "int", "jsondecode", "jsonencode",
                        "length", "lower", "max", "min", "reverse", "strlen", "substr", "upper"})
    EXPECT_NE(fns.find(n), nullptr) << n;
  EXPECT_EQ(fns.size(), 15u);
  auto eval = [&](const char* src) {
    EvalContext ctx;
    ctx.set_functions(std::make_shared<FunctionTable>(fns));
    ExprParse p = parse_expression(make_source("f.hcl", src));
    EvalResult r = Expression::from_parse(std::move(p)).value(&ctx);
    std::string out = render_value(r.value);
    for (const Diagnostic& d : r.diagnostics) out += " ! " + d.detail;
    return out;
  };
  EXPECT_EQ(eval("reverse(\"abc\")"), R"("cba")");
  EXPECT_EQ(eval("int(-3.7)"), "-3");
  EXPECT_EQ(eval("hasindex([1, 2], 1)"), "true");
  EXPECT_EQ(eval("hasindex([1], 3)"), "false");
  EXPECT_EQ(eval("length([1, 2, 3])"), "3");
  // go-cty's length and hasindex take collections only (objects are not).
  const char* only = "collection must be a list, a map or a tuple";
  EXPECT_NE(eval("length(\"abc\")").find(only), std::string::npos);
  EXPECT_NE(eval("hasindex({a = 1}, \"b\")").find(only), std::string::npos);
}

}  // namespace
}  // namespace hclvm::hcldec

namespace hclvm::hcldec {
namespace {

TEST(HcldecTest, TypeConstraintDefaultsApplyBeforeConversion) {
  ExprParse tp = parse_expression(make_source(
      "t.hcl",
      "object({name = string, port = optional(number, 80), tags = optional(list(string))})"));
  TypeExprResult t =
      parse_type_expr(Expression::from_parse(std::move(tp)), TypeExprMode::ConstraintWithDefaults);
  ASSERT_FALSE(has_errors(t.diagnostics));
  SpecPtr spec = attr_spec("svc", t.type, false, t.defaults);
  Body b = parse_native_body(make_source("d.hcl", "svc = { name = \"web\" }\n")).body;
  DecodeResult r = decode(b, *spec, nullptr);
  EXPECT_FALSE(r.has_errors());
  EXPECT_EQ(render_value(r.value), R"({"name":"web","port":80,"tags":null})");
  // A JSON body writes the same value the same way; JSON types are strings.
  Body j = parse_json_body(make_source("d.json", R"({"svc": {"name": "web", "port": 8080}})")).body;
  EXPECT_EQ(render_value(decode(j, *spec, nullptr).value),
            R"({"name":"web","port":8080,"tags":null})");
  JsonParse jt = parse_json_expression(make_source("t.json", R"x("map(optional(number))")x"));
  TypeExprResult jtr =
      parse_type_expr(Expression::from_parse(std::move(jt)), TypeExprMode::Constraint);
  EXPECT_EQ(jtr.diagnostics.size(), 1u);  // optional() belongs in object types only
  JsonParse jt2 = parse_json_expression(make_source("t.json", R"x("map(number)")x"));
  EXPECT_EQ(parse_type_expr(Expression::from_parse(std::move(jt2)), TypeExprMode::Constraint).type,
            Type::map(Type::number()));
}

}  // namespace
}  // namespace hclvm::hcldec

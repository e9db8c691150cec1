// hclvm::convert (include/hclvm/convert.h): native files written as the
// HCL JSON syntax and in hcl2json's shape, and trees as JSON. The goldens
// (tests/golden/convert/run.sh), the reference's reading of the corpus
// (corpus.sh) and @cdktf/hcl2json's (hcl2json.sh) cover whole files; these
// cases pin the rules one at a time, the error paths, and input that nests
// as deep as the parser allows.
#include <hclvm/convert.h>
#include <hclvm/json_syntax.h>

#include <gtest/gtest.h>

#include <string>

namespace {

using hclvm::convert::JsonOptions;
using hclvm::convert::native_to_json;
using hclvm::convert::Shape;

// Returns [src] in the hcl2json shape, keys sorted or in [preserve_order].
hclvm::convert::Result h2j(const std::string& src, bool preserve_order = false) {
  JsonOptions o;
  o.shape = Shape::Hcl2Json;
  o.preserve_order = preserve_order;
  return native_to_json("t.tf", src, o);
}

// Returns the conversion of [src], which must succeed.
std::string conv(const std::string& src) {
  auto r = native_to_json("t.hcl", src);
  EXPECT_TRUE(r.ok()) << src;
  return r.text;
}

TEST(JsonConvert, LiteralsAreJsonValues) {
  EXPECT_EQ(conv("a = 1\nb = \"x\"\nc = true\nd = null\ne = -2.5\n"),
            "{\n  \"a\": 1,\n  \"b\": \"x\",\n  \"c\": true,\n  \"d\": null,\n  \"e\": -2.5\n}\n");
}

TEST(JsonConvert, NumbersJsonCannotWriteStayExpressions) {
  EXPECT_EQ(conv("a = 007\nb = -0\n"), "{\n  \"a\": \"${007}\",\n  \"b\": \"${-0}\"\n}\n");
}

TEST(JsonConvert, TemplatesEscapeSequences) {
  EXPECT_EQ(conv("a = \"$${x} %%{y} ${z}\"\n"), "{\n  \"a\": \"$${x} %%{y} ${z}\"\n}\n");
  // A "$" that would join the next interpolation's "${" into an escape.
  EXPECT_EQ(conv("a = \"$ ${~z}\"\n"), "{\n  \"a\": \"${\\\"$\\\"}${z}\"\n}\n");
}

TEST(JsonConvert, DirectivesAreRebuilt) {
  EXPECT_EQ(conv("a = \"%{ if c ~} yes %{~ endif }\"\n"), "{\n  \"a\": \"%{if c}yes%{else}%{endif}\"\n}\n");
  EXPECT_EQ(conv("a = \"%{for k, v in m}${k}%{endfor}\"\n"),
            "{\n  \"a\": \"%{for k, v in m}${k}%{endfor}\"\n}\n");
}

TEST(JsonConvert, OtherExpressionsKeepTheirSource) {
  EXPECT_EQ(conv("a = f(x, \"y\")\n"), "{\n  \"a\": \"${f(x, \\\"y\\\")}\"\n}\n");
}

TEST(JsonConvert, ObjectKeys) {
  EXPECT_EQ(conv("a = { b = 1, (c) = 2, d.e = f, null = 3 }\n"),
            "{\n  \"a\": {\n    \"b\": 1,\n    \"${(c)}\": 2,\n    \"d.e\": \"${f}\",\n"
            "    \"null\": 3\n  }\n}\n");
  // Repeated keys: the later one wins in the native syntax, a JSON object
  // reports an error, so the object stays an expression.
  EXPECT_EQ(conv("a = { b = 1, b = 2 }\n"), "{\n  \"a\": \"${{ b = 1, b = 2 }}\"\n}\n");
}

TEST(JsonConvert, InterleavedRootBlocksMakeAnArray) {
  EXPECT_EQ(conv("x {}\ny {}\nx {}\n"),
            "[\n  {\n    \"x\": {},\n    \"y\": {}\n  },\n  {\n    \"x\": {}\n  }\n]\n");
  // Consecutive blocks of one type share the property.
  EXPECT_EQ(conv("x \"a\" {}\nx \"b\" {}\nx \"a\" {}\n"),
            "{\n  \"x\": [\n    {\n      \"a\": {},\n      \"b\": {}\n    },\n"
            "    {\n      \"a\": {}\n    }\n  ]\n}\n");
}

TEST(JsonConvert, NestedBlocksGroupByType) {
  EXPECT_EQ(conv("r {\n  i { p = 1 }\n  e {}\n  i { p = 2 }\n}\n"),
            "{\n  \"r\": {\n    \"i\": [\n      {\n        \"p\": 1\n      },\n      {\n"
            "        \"p\": 2\n      }\n    ],\n    \"e\": {}\n  }\n}\n");
}

TEST(JsonConvert, SyntaxErrorsGiveDiagnosticsAndNoText) {
  auto r = native_to_json("t.hcl", "a = \n");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.text.empty());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].summary, "Invalid expression");
}

TEST(JsonConvert, BytesThatAreNotUtf8AreRefused) {
  // The native syntax takes them in a name; a JSON string cannot hold them.
  auto r = native_to_json("t.hcl", "a = N\xd1x\n");
  ASSERT_TRUE(r.diagnostics.empty());
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.text.empty());
  EXPECT_FALSE(r.error.empty());
  // In a comment they are dropped with it.
  EXPECT_TRUE(native_to_json("t.hcl", "# \xd1\na = 1\n").ok());
}

TEST(JsonConvert, DeepNestingConvertsAndParsesBack) {
  // As deep as the parser takes, in an expression and in blocks.
  const int depth = 5000;
  std::string src = "a = " + std::string(depth, '[') + "1" + std::string(depth, ']') + "\n";
  for (int i = 0; i < depth; ++i) src += "b {\n";
  for (int i = 0; i < depth; ++i) src += "}\n";
  auto r = native_to_json("t.hcl", src);
  ASSERT_TRUE(r.ok()) << r.diagnostics[0].summary;
  auto p = hclvm::parse_json_config(hclvm::make_source("t.json", r.text));
  EXPECT_FALSE(p.has_errors());
  // The other shape and the tree too.
  EXPECT_TRUE(h2j(src).ok());
  auto f = hclvm::parse_config(hclvm::make_source("t.hcl", src));
  EXPECT_FALSE(hclvm::convert::ast_body_json(*f.body, *f.source).empty());
}

TEST(JsonConvert, DeepDocumentsStayLinearInSize) {
  // Indentation stops growing past kMaxIndentLevel levels: 9,000 nested
  // brackets (18 KB) once made a 162 MB document and a 10 GB tree dump.
  const size_t depth = 9000;
  std::string src = "x = " + std::string(depth, '[') + std::string(depth, ']') + "\n";
  auto r = native_to_json("t.hcl", src);
  ASSERT_TRUE(r.ok());
  EXPECT_LT(r.text.size(), 100 * src.size());
  EXPECT_FALSE(hclvm::parse_json_config(hclvm::make_source("t.json", r.text)).has_errors());
  auto f = hclvm::parse_config(hclvm::make_source("t.hcl", src));
  std::string tree = hclvm::convert::ast_body_json(*f.body, *f.source);
  EXPECT_LT(tree.size(), 1000 * src.size());
  // Shallow documents keep two spaces a level.
  EXPECT_EQ(conv("a = [[1]]\n"), "{\n  \"a\": [\n    [\n      1\n    ]\n  ]\n}\n");
}

TEST(Hcl2Json, BlocksAreArraysKeysSorted) {
  auto r = h2j("z = 1\nb \"x\" { p = 1 }\nb \"x\" {}\na = [1e3, -0.50, !false]\n");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.text,
            "{\n  \"a\": [\n    1000,\n    -0.5,\n    true\n  ],\n  \"b\": {\n    \"x\": [\n      {\n"
            "        \"p\": 1\n      },\n      {}\n    ]\n  },\n  \"z\": 1\n}\n");
  auto o = h2j("z = 1\nb {}\na = 2\n", true);
  EXPECT_EQ(o.text, "{\n  \"z\": 1,\n  \"b\": [\n    {}\n  ],\n  \"a\": 2\n}\n");
}

TEST(Hcl2Json, TemplatesAsHcl2JsonWritesThem) {
  // Any conditional part becomes a directive, an empty else is left out,
  // "${" and "%{" are escaped, HTML characters too (Go's encoding/json).
  auto r = h2j("a = \"x${c ? 1 : \"\"} $${d} %%{e} <\"\n");
  EXPECT_EQ(r.text, "{\n  \"a\": \"x%{if c}1%{endif} $${d} %%{e} \\u003c\"\n}\n");
}

TEST(Hcl2Json, RefusesWhatHcl2JsonRefuses) {
  auto a = h2j("a {}\na \"x\" {}\n");
  EXPECT_FALSE(a.ok());
  EXPECT_TRUE(a.text.empty());
  EXPECT_EQ(a.error, "Unable to convert Block to JSON: a.x");
  auto b = h2j("a \"x\" {}\na {}\n");
  EXPECT_EQ(b.error, "invalid HCL detected for \"a\" block, cannot have blocks with and without labels");
  EXPECT_FALSE(h2j("a = -true\n").ok());
}

TEST(AstJson, NodesCarryKindFieldsAndRanges) {
  auto f = hclvm::parse_config(hclvm::make_source("t.hcl", "a = x\n"));
  std::string j = hclvm::convert::ast_body_json(*f.body, *f.source);
  EXPECT_NE(j.find("\"kind\": \"ScopeTraversal\""), std::string::npos);
  EXPECT_NE(j.find("\"start\": {\"line\": 1, \"column\": 5, \"byte\": 4}"), std::string::npos);
  auto p = hclvm::parse_json_expression(hclvm::make_source("t.json", j));
  EXPECT_FALSE(p.has_errors());
}

}  // namespace

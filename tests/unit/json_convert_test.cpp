// hclvm::convert (include/hclvm/convert.h): native files written as the
// HCL JSON syntax and in hcl2json's shape, and trees as JSON. The goldens
// (tests/golden/convert/run.sh), the reference's reading of the corpus
// (corpus.sh) and @cdktf/hcl2json's (hcl2json.sh) cover whole files; these
// cases pin the rules one at a time, the error paths, and input that nests
// as deep as the parser allows.
#include <hclvm/config_layout.h>
#include <hclvm/convert.h>
#include <hclvm/body.h>
#include <hclvm/hcldec.h>
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

TEST(Hcl2Json, ModulesMergeAsConvertFilesDoes) {
  JsonOptions o;
  o.shape = Shape::Hcl2Json;
  auto r = hclvm::convert::module_to_hcl2json(
      {{"a.tf", "variable \"x\" { default = 1 }"}, {"b.tf", "locals { l = [1] }"}},
      {{"c.tf.json", R"({"locals": [{"l": [2]}], "variable": {"x": {}}, "output": {"o": {"value": 1}},
                         "empty": {}, "dup": 1, "dup": {"k": 2}})"}},
      o);
  ASSERT_TRUE(r.ok()) << r.error;
  // Arrays appended, an object merged into an array leaves it, an emptied
  // object is dropped, a repeated key takes its last value.
  EXPECT_EQ(r.text,
            "{\n  \"locals\": [\n    {\n      \"l\": [\n        1\n      ]\n    },\n    {\n      \"l\": [\n"
            "        2\n      ]\n    }\n  ],\n  \"variable\": {\n    \"x\": [\n      {\n        \"default\": 1\n"
            "      }\n    ]\n  },\n  \"output\": {\n    \"o\": {\n      \"value\": 1\n    }\n  },\n  \"dup\": {\n"
            "    \"k\": 2\n  }\n}\n");
  // The joined files' errors, and a JSON file that is not an object.
  EXPECT_FALSE(hclvm::convert::module_to_hcl2json({{"a.tf", "x = "}}, {}, o).ok());
  EXPECT_FALSE(hclvm::convert::module_to_hcl2json({}, {{"c.tf.json", "[1]"}}, o).ok());
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

// --- the JSON syntax back to the native syntax ---------------------------------------

// Returns JSON-syntax [json] converted back with [layout]; must succeed.
std::string back(const std::string& json, const hclvm::convert::BodyLayout& layout = {}) {
  auto r = hclvm::convert::json_to_native("t.json", json, layout);
  EXPECT_TRUE(r.ok()) << json << (r.diagnostics.empty() ? "" : ": " + r.diagnostics[0].summary + ": " +
                                                                   r.diagnostics[0].detail);
  return r.text;
}

// The layout of native [src].
hclvm::convert::BodyLayout like(const std::string& src) {
  auto f = hclvm::parse_config(hclvm::make_source("l.hcl", src));
  EXPECT_FALSE(f.has_errors());
  return hclvm::convert::layout_of(*f.body);
}

TEST(JsonToNative, ValuesBecomeExpressions) {
  EXPECT_EQ(back(R"({"a": 1, "b": true, "c": null, "d": "x", "e": [1, "y"], "f": {}, "g": -2.5e3})"),
            "a = 1\nb = true\nc = null\nd = \"x\"\ne = [1, \"y\"]\nf = {}\ng = -2.5e3\n");
}

TEST(JsonToNative, TemplatesUnwrapOrStayQuoted) {
  // A lone interpolation is its expression; others are quoted templates
  // with their literal text escaped and their sequences as they are.
  EXPECT_EQ(back(R"({"a": "${var.x + 1}"})"), "a = var.x + 1\n");
  EXPECT_EQ(back(R"({"a": "x${lookup(m, \"k\")}\"q\"\\ \n"})"),
            "a = \"x${lookup(m, \"k\")}\\\"q\\\"\\\\ \\n\"\n");
  EXPECT_EQ(back(R"({"a": "$${not} %%{this}"})"), "a = \"$${not} %%{this}\"\n");
  EXPECT_EQ(back(R"({"a": "%{if x}y%{endif}"})"), "a = \"%{if x}y%{endif}\"\n");
  // A literal inside stays a template (the same value either way).
  EXPECT_EQ(back(R"({"a": "${\"s\"}"})"), "a = \"${\"s\"}\"\n");
  // An expression with a line break outside brackets takes parentheses.
  EXPECT_EQ(back(R"({"a": "${x ?\n1 : 2}"})"), "a = (x ?\n1 : 2)\n");
  EXPECT_EQ(back(R"({"a": "${f(\n1)}"})"), "a = f(\n1)\n");
}

TEST(JsonToNative, ObjectKeys) {
  EXPECT_EQ(back(R"({"a": {"k": 1, "b c": 2, "null": 3, "${var.k}": 4, "${0}": 5, "${(p)}": 6}})"),
            "a = {\n  k       = 1\n  \"b c\"   = 2\n  \"null\"  = 3\n  (var.k) = 4\n  0       = 5\n  (p)     = 6\n}\n");
}

TEST(JsonToNative, BlocksFollowTheLayout) {
  std::string json = R"({"resource": {"t": {"n": {"x": 1, "lifecycle": {"ignore_changes": ["x"]},
    "ingress": [{"p": 1}, {"p": 2}]}}}, "output": {"o": {"value": "${t.n.x}"}}})";
  // Terraform's layout knows resource, lifecycle and output, not the
  // provider's ingress.
  EXPECT_EQ(back(json, hclvm::config::terraform_layout()),
            "resource \"t\" \"n\" {\n  x = 1\n\n  lifecycle {\n    ignore_changes = [\"x\"]\n  }\n\n"
            "  ingress = [\n    {\n      p = 1\n    },\n    {\n      p = 2\n    },\n  ]\n}\n\n"
            "output \"o\" {\n  value = t.n.x\n}\n");
  // A native file of the same shape knows ingress too.
  std::string native = back(json, like("resource \"a\" \"b\" {\n lifecycle {}\n ingress {}\n}\noutput \"o\" {}\n"));
  EXPECT_NE(native.find("  ingress {\n    p = 1\n  }\n\n  ingress {\n    p = 2\n  }\n"), std::string::npos) << native;
  // No layout: every property an attribute.
  EXPECT_EQ(back(R"({"b": {"l": {"x": 1}}})"), "b = {\n  l = {\n    x = 1\n  }\n}\n");
}

TEST(JsonToNative, LayoutFromAnHcldecSpec) {
  auto spec = hclvm::hcldec::load_spec_file(hclvm::make_source(
      "s.hcldec", "object {\n  block_map \"svc\" {\n    labels = [\"name\"]\n    object {\n"
                  "      block_list \"port\" {\n        object {\n          attr \"n\" { type = number }\n"
                  "        }\n      }\n    }\n  }\n}\n"));
  ASSERT_FALSE(spec.has_errors()) << spec.diagnostics[0].summary;
  auto layout = hclvm::convert::layout_of(*spec.root);
  EXPECT_EQ(back(R"({"svc": {"web": {"port": [{"n": 80}, {"n": 443}]}}})", layout),
            "svc \"web\" {\n  port {\n    n = 80\n  }\n\n  port {\n    n = 443\n  }\n}\n");
}

TEST(JsonToNative, RootArraysAndLabelLevelArrays) {
  auto layout = like("a \"x\" {}\nb {}\n");
  EXPECT_EQ(back(R"([{"a": {"x": {}}}, {"b": {}}, {"a": [{"y": {}}, {"z": {"k": 1}}]}])", layout),
            "a \"x\" {}\n\nb {}\n\na \"y\" {}\n\na \"z\" {\n  k = 1\n}\n");
}

TEST(JsonToNative, CommentsBothWays) {
  std::string src = "# about a\na = 1 # after a\n\n# apart\n\n# on b\nb \"l\" {\n  c = 2\n}\n# end\n";
  JsonOptions o;
  o.comments = true;
  auto j = native_to_json("t.hcl", src, o);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j.text,
            "{\n  \"//\": \"about a\",\n  \"a\": 1,\n  \"//\": \"after a\",\n  \"//\": \"apart\",\n  \"b\": {\n"
            "    \"l\": {\n      \"//\": \"on b\",\n      \"c\": 2\n    }\n  },\n  \"//\": \"end\"\n}\n");
  // The reference's JSON parser reads the same body (the "//" properties
  // are skipped): checked on the corpus by corpus.sh; here, it parses.
  EXPECT_FALSE(hclvm::parse_json_config(hclvm::make_source("t.json", j.text)).has_errors());
  EXPECT_EQ(back(j.text, like(src)), "# about a\na = 1\n# after a\n# apart\n\nb \"l\" {\n  # on b\n  c = 2\n}\n\n# end\n");
}

TEST(JsonToNative, CommentsThatAreNotUtf8AreKept) {
  // Found by convert_fuzz: bytes JSON cannot hold in a comment become
  // U+FFFD; the file is not refused for them.
  JsonOptions o;
  o.comments = true;
  auto j = native_to_json("t.hcl", "// a\xff\xfe" "b\nx = 1\n", o);
  ASSERT_TRUE(j.ok()) << j.error;
  EXPECT_EQ(j.text, "{\n  \"//\": \"a\xef\xbf\xbd\xef\xbf\xbd" "b\",\n  \"x\": 1\n}\n");
}

TEST(JsonToNative, WhatTheNativeSyntaxCannotHoldIsAnError) {
  auto r = hclvm::convert::json_to_native("t.json", R"({"a-b c": 1, "x": "${", "l": {"${x}": {}}})",
                                          like("l \"q\" {}\n"));
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_EQ(r.diagnostics[0].summary, "Invalid attribute name");
  EXPECT_EQ(r.diagnostics[0].subject->start.column, 2);
  EXPECT_EQ(r.diagnostics[1].summary, "Invalid template");
  EXPECT_EQ(r.diagnostics[2].summary, "Invalid block label");
  EXPECT_TRUE(r.text.empty());
  // The JSON's own syntax errors, as the JSON parser reports them.
  auto bad = hclvm::convert::json_to_native("t.json", "{\"a\": }");
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.text.empty());
}

TEST(JsonToNative, DeepNestingConverts) {
  const int depth = 5000;
  std::string json = "{\"a\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
  auto r = hclvm::convert::json_to_native("t.json", json);
  EXPECT_TRUE(r.ok() || !r.diagnostics.empty());  // converts, or says why; never crashes
}

// --- the shape of an hcldec spec -----------------------------------------------------

// Returns [src] (named [name]) in the shape of spec [spec]; [diags] gets the
// diagnostics.
std::string spec_shaped(const std::string& spec, const std::string& name, const std::string& src,
                        hclvm::Diagnostics* diags = nullptr) {
  auto sf = hclvm::hcldec::load_spec_file(hclvm::make_source("s.hcldec", spec));
  EXPECT_FALSE(sf.has_errors()) << sf.diagnostics[0].summary;
  auto f = hclvm::parse_body(hclvm::make_source(name, src));
  EXPECT_FALSE(f.has_errors());
  auto r = hclvm::convert::body_to_spec_json(f.body, *sf.root, nullptr);
  if (diags) *diags = r.diagnostics;
  return r.text;
}

TEST(SpecJson, TypesAndBlockShapesFollowTheSpec) {
  std::string spec =
      "object {\n  attr \"port\" { type = number }\n  attr \"on\" { type = bool }\n"
      "  block_list \"item\" {\n    object {\n      attr \"n\" { type = string }\n    }\n  }\n"
      "  block_map \"svc\" {\n    labels = [\"name\"]\n    object {\n      attr \"x\" { type = list(number) }\n    }\n  }\n}\n";
  std::string src = "port = \"80\"\non = \"true\"\nitem { n = 1 }\nitem { n = 2 }\nsvc \"a\" { x = [1, \"2\"] }\n";
  EXPECT_EQ(spec_shaped(spec, "t.hcl", src),
            "{\n  \"item\": [\n    {\n      \"n\": \"1\"\n    },\n    {\n      \"n\": \"2\"\n    }\n  ],\n"
            "  \"on\": true,\n  \"port\": 80,\n  \"svc\": {\n    \"a\": {\n      \"x\": [\n        1,\n        2\n      ]\n    }\n  }\n}\n");
}

TEST(SpecJson, WhatTheContextCannotEvaluateKeepsItsSource) {
  std::string spec = "object {\n  attr \"a\" { type = string }\n  attr \"b\" { type = map(string) }\n"
                     "  attr \"c\" { type = any }\n}\n";
  EXPECT_EQ(spec_shaped(spec, "t.hcl", "a = \"x-${var.y}\"\nb = { k = upper(\"v\") }\nc = map(string)\n"),
            "{\n  \"a\": \"x-${var.y}\",\n  \"b\": {\n    \"k\": \"${upper(\\\"v\\\")}\"\n  },\n"
            "  \"c\": \"${map(string)}\"\n}\n");
  // A JSON-syntax file: its values as they stand.
  EXPECT_EQ(spec_shaped(spec, "t.json", R"({"a": "${var.y}", "b": {"k": "v"}})"),
            "{\n  \"a\": \"${var.y}\",\n  \"b\": {\n    \"k\": \"v\"\n  },\n  \"c\": null\n}\n");
}

TEST(SpecJson, WhatHcldecReportsIsAnError) {
  hclvm::Diagnostics d;
  std::string text = spec_shaped("object {\n  attr \"a\" { type = number }\n}\n", "t.hcl", "a = \"x\"\nb = 1\n", &d);
  EXPECT_TRUE(text.empty());
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Unsupported argument");
  spec_shaped("object {\n  attr \"a\" { type = number }\n}\n", "t.hcl", "a = \"x\"\n", &d);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Incorrect attribute value type");
}

}  // namespace

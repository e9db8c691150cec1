// The lossless tree's shape and the editing API (hclvm::format::Document):
// path addressing, what each edit changes (and that nothing else changes:
// comments and layout elsewhere keep their bytes), where added things go,
// and the edits that are refused.
#include <hclvm/format.h>
#include <hclvm/value_json.h>

#include <gtest/gtest.h>

#include <string>

namespace {

using hclvm::format::Document;
using hclvm::format::kNoNode;
using hclvm::format::NodeKind;
using hclvm::format::Tree;

const char kMain[] =
    "# Buckets.\n"
    "resource \"aws_s3_bucket\" \"logs\" {\n"
    "  bucket = \"my-logs\" # the name\n"
    "  acl    = \"private\"\n"
    "\n"
    "  tags = {\n"
    "    Name = \"logs\"\n"
    "    Env  = \"dev\"\n"
    "  }\n"
    "\n"
    "  versioning {\n"
    "    enabled = true\n"
    "  }\n"
    "}\n"
    "\n"
    "locals {\n"
    "  azs = [\"a\", \"b\"]\n"
    "}\n"
    "\n"
    "locals {\n"
    "  name = \"second\"\n"
    "}\n"
    "\n"
    "variable \"x\" {}\n";

// Returns [text] with [from] replaced by [to] (once; [from] must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Returns what get([path]) gives on [doc], or the first error's detail.
std::string get(const Document& doc, std::string_view path) {
  std::string out;
  hclvm::Diagnostics d = doc.get(path, out);
  return d.empty() ? out : "error: " + d.front().summary + ": " + d.front().detail;
}

TEST(Tree, KindsAndParts) {
  Tree t(hclvm::make_source("m.tf", kMain));
  EXPECT_EQ(t.print(), kMain);
  EXPECT_EQ(t[t.root()].kind, NodeKind::Body);
  std::vector<hclvm::format::NodeId> items = t.children(t.root());
  ASSERT_EQ(items.size(), 4u);
  auto res = items[0];
  EXPECT_EQ(t[res].kind, NodeKind::Block);
  EXPECT_EQ(t.name(res), "resource");
  // A block takes the comment lines above it.
  EXPECT_EQ(t.bytes(res).substr(0, 11), "# Buckets.\n");
  auto labels = t.labels(res);
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(t.label_value(labels[1]), "logs");
  auto body = t.block_body(res);
  auto attrs = t.children(body);
  EXPECT_EQ(t[attrs[0]].kind, NodeKind::Attribute);
  EXPECT_EQ(t.name(attrs[0]), "bucket");
  // An attribute takes its trailing comment and newline; its value is the
  // expression alone.
  EXPECT_EQ(t.bytes(attrs[0]), "bucket = \"my-logs\" # the name\n");
  EXPECT_EQ(t.bytes(t.value(attrs[0])), "\"my-logs\"");
  auto tags = t.value(attrs[2]);
  EXPECT_EQ(t[tags].kind, NodeKind::Object);
  auto tag_items = t.children(tags);
  ASSERT_EQ(tag_items.size(), 2u);
  EXPECT_EQ(t[tag_items[1]].kind, NodeKind::ObjectItem);
  EXPECT_EQ(t.name(tag_items[1]), "Env");
  EXPECT_EQ(t.bytes(t.value(tag_items[1])), "\"dev\"");
  EXPECT_EQ(t.bytes(tag_items[1]), "Env  = \"dev\"\n");
}

TEST(Tree, ExpressionsDownToArguments) {
  const char* src = "x = f(a, [1, 2], { k = v }...) # c\n";
  Tree t(hclvm::make_source("x.hcl", src));
  auto attr = t.children(t.root())[0];
  auto call = t.value(attr);
  ASSERT_EQ(t[call].kind, NodeKind::FunctionCall);
  auto args = t.children(call);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(t[args[0]].kind, NodeKind::Argument);
  EXPECT_EQ(t.bytes(args[0]), "a,");
  EXPECT_EQ(t.bytes(args[2]), "{ k = v }...");
  auto tuple = t.value(args[1]);
  ASSERT_EQ(t[tuple].kind, NodeKind::Tuple);
  auto els = t.children(tuple);
  ASSERT_EQ(els.size(), 2u);
  EXPECT_EQ(t.bytes(els[0]), "1,");
  EXPECT_EQ(t.bytes(t.value(els[1])), "2");
  EXPECT_EQ(t.print(), src);
}

TEST(Tree, FilesWithErrorsPrintBack) {
  for (const char* src : {"a = \n", "b {\n  c = [1,\n", "x = \"unterminated\n", "@@@ = 1 }\n", "a = 1\na = 2\n",
                          "<<EOT\n", "\xef\xbb\xbf  x = \n", "x = {\n  a = 1,, b\n}\n"}) {
    Tree t(hclvm::make_source("e.hcl", src));
    EXPECT_TRUE(hclvm::has_errors(t.diagnostics())) << src;
    EXPECT_EQ(t.print(), src);
  }
}

TEST(Edit, Paths) {
  Document doc("m.tf", kMain);
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket.logs.bucket"), "\"my-logs\"");
  EXPECT_EQ(get(doc, "resource.\"aws_s3_bucket\".logs.tags.Env"), "\"dev\"");
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket.logs.tags[\"Name\"]"), "\"logs\"");
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket.logs.versioning.enabled"), "true");
  EXPECT_EQ(get(doc, "locals.azs[1]"), "\"b\"");
  // Each locals block is searched in turn; [N] picks one.
  EXPECT_EQ(get(doc, "locals.name"), "\"second\"");
  EXPECT_EQ(get(doc, "locals[1].name"), "\"second\"");
  EXPECT_EQ(get(doc, "locals[0].name"), "error: Nothing at path: locals[0] has no attribute or block named \"name\".");
  EXPECT_EQ(get(doc, "variable.x"), "variable \"x\" {}");
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket"),
            "error: Nothing at path: no block resource.aws_s3_bucket (blocks of type \"resource\" have 2 labels).");
  EXPECT_EQ(get(doc, "locals.azs[2]"), "error: Nothing at path: locals.azs has 2 elements.");
  EXPECT_EQ(get(doc, "locals.azs.x"), "error: Nothing at path: locals.azs is a tuple, not an object.");
  EXPECT_EQ(get(doc, "a..b"), "error: Invalid path: In \"a..b\": empty segment at byte 2.");
  EXPECT_EQ(get(doc, "a[x]"), "error: Invalid path: In \"a[x]\": a selector is [N] or [\"key\"].");
}

TEST(Edit, SetKeepsEverythingElse) {
  Document doc("m.tf", kMain);
  ASSERT_TRUE(doc.set("resource.aws_s3_bucket.logs.bucket", "\"new-logs\"").empty());
  EXPECT_EQ(doc.text(), replaced(kMain, "\"my-logs\" # the name", "\"new-logs\" # the name"));
  ASSERT_TRUE(doc.set("resource.aws_s3_bucket.logs.tags.Env", "upper(var.env)").empty());
  ASSERT_TRUE(doc.set("locals.azs[0]", "\"z\"").empty());
  std::string want = replaced(kMain, "\"my-logs\"", "\"new-logs\"");
  want = replaced(want, "Env  = \"dev\"", "Env  = upper(var.env)");
  want = replaced(want, "[\"a\", \"b\"]", "[\"z\", \"b\"]");
  EXPECT_EQ(doc.text(), want);
}

TEST(Edit, SetAddsWhatIsMissing) {
  Document doc("m.tf", kMain);
  ASSERT_TRUE(doc.set("resource.aws_s3_bucket.logs.force_destroy", "true").empty());
  ASSERT_TRUE(doc.set("resource.aws_s3_bucket.logs.tags.Own", "\"me\"").empty());
  ASSERT_TRUE(doc.set("variable.x.default", "{\na = 1\n}").empty());
  // After the last attribute; the new item's `=` lines up with its
  // aligned neighbours'.
  std::string want = replaced(kMain, "    Env  = \"dev\"\n  }\n", "    Env  = \"dev\"\n    Own  = \"me\"\n  }\n  force_destroy = true\n");
  // A one-line body opens up; a value over several lines is laid out and
  // indented.
  want = replaced(want, "variable \"x\" {}\n", "variable \"x\" {\n  default = {\n    a = 1\n  }\n}\n");
  EXPECT_EQ(doc.text(), want);
}

TEST(Edit, SetValue) {
  Document doc("v.tfvars", "region = \"x\"\n");
  auto v = hclvm::value_from_json(R"({"a": [1, 2], "b": "two\nlines\n"})");
  ASSERT_TRUE(v.error.empty());
  ASSERT_TRUE(doc.set("config", v.value).empty());
  ASSERT_TRUE(doc.set("region", hclvm::value_from_json("\"eu-west-1\"").value).empty());
  EXPECT_EQ(doc.text(),
            "region = \"eu-west-1\"\n"
            "config = {\n"
            "  a = [\n"
            "    1,\n"
            "    2,\n"
            "  ]\n"
            "  b = <<EOT\n"
            "two\n"
            "lines\n"
            "  EOT\n"
            "}\n");
}

TEST(Edit, AddAppendsAndRefusesExisting) {
  Document doc("m.tf", kMain);
  ASSERT_TRUE(doc.add("locals.azs", "\"c\"").empty());
  EXPECT_EQ(get(doc, "locals.azs"), "[\"a\", \"b\", \"c\"]");
  auto d = doc.add("locals.name", "1");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Already there");
  Document multi("l.hcl", "l = [\n  1,\n  2,\n]\nm = [\n  1\n]\nn = []\no = {}\n");
  ASSERT_TRUE(multi.add("l", "3").empty());
  ASSERT_TRUE(multi.add("m", "2").empty());
  ASSERT_TRUE(multi.add("n", "1").empty());
  ASSERT_TRUE(multi.add("o.k", "\"v\"").empty());
  ASSERT_TRUE(multi.add("o[\"a b\"]", "2").empty());
  EXPECT_EQ(multi.text(), "l = [\n  1,\n  2,\n  3,\n]\nm = [\n  1,\n  2\n]\nn = [1]\no = { k = \"v\", \"a b\" = 2 }\n");
}

TEST(Edit, AddBlockPlacement) {
  Document doc("m.tf", kMain);
  ASSERT_TRUE(doc.add_block("resource.aws_s3_bucket.logs.lifecycle").empty());
  ASSERT_TRUE(doc.add_block("resource.aws_s3_bucket.audit").empty());
  ASSERT_TRUE(doc.add_block("variable.x.validation").empty());
  std::string want = replaced(kMain, "    enabled = true\n  }\n}\n", "    enabled = true\n  }\n\n  lifecycle {\n  }\n}\n");
  want = replaced(want, "variable \"x\" {}\n",
                  "variable \"x\" {\n  validation {\n  }\n}\n\nresource \"aws_s3_bucket\" \"audit\" {\n}\n");
  EXPECT_EQ(doc.text(), want);
  Document empty("e.tf", "");
  ASSERT_TRUE(empty.add_block("terraform").empty());
  ASSERT_TRUE(empty.set("terraform.required_version", "\">= 1.5\"").empty());
  EXPECT_EQ(empty.text(), "terraform {\n  required_version = \">= 1.5\"\n}\n");
}

TEST(Edit, AttributeGoesBeforeBlocks) {
  Document doc("b.tf", "resource \"a\" \"b\" {\n  # the block\n  inner {\n  }\n}\n");
  ASSERT_TRUE(doc.set("resource.a.b.count", "2").empty());
  EXPECT_EQ(doc.text(), "resource \"a\" \"b\" {\n  count = 2\n\n  # the block\n  inner {\n  }\n}\n");
}

TEST(Edit, Remove) {
  Document doc("m.tf", kMain);
  ASSERT_TRUE(doc.remove("resource.aws_s3_bucket.logs.acl").empty());
  EXPECT_EQ(doc.text(), replaced(kMain, "  acl    = \"private\"\n", ""));
  // The last block of a body goes with the blank line before it.
  ASSERT_TRUE(doc.remove("resource.aws_s3_bucket.logs.versioning").empty());
  // A block goes with its comment lines and one of the blank lines around.
  ASSERT_TRUE(doc.remove("resource.aws_s3_bucket.logs").empty());
  ASSERT_TRUE(doc.remove("locals.azs[0]").empty());
  EXPECT_EQ(doc.text(),
            "locals {\n  azs = [\"b\"]\n}\n\nlocals {\n  name = \"second\"\n}\n\nvariable \"x\" {}\n");
  ASSERT_TRUE(doc.remove("locals[0].azs").empty());
  EXPECT_EQ(doc.text(), "locals {\n}\n\nlocals {\n  name = \"second\"\n}\n\nvariable \"x\" {}\n");
  Document list("l.hcl", "a = [1, 2, 3]\nb = [\n  1, # one\n  2, # two\n]\nc = { x = 1, y = 2 }\n");
  ASSERT_TRUE(list.remove("a[2]").empty());
  ASSERT_TRUE(list.remove("a[0]").empty());
  ASSERT_TRUE(list.remove("b[0]").empty());
  ASSERT_TRUE(list.remove("c.y").empty());
  EXPECT_EQ(list.text(), "a = [2]\nb = [\n  2, # two\n]\nc = { x = 1 }\n");
}

TEST(Edit, Rename) {
  Document doc("m.tf", kMain);
  ASSERT_TRUE(doc.rename("resource.aws_s3_bucket.logs", {"audit"}).empty());
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket.audit.acl"), "\"private\"");
  ASSERT_TRUE(doc.rename("resource.aws_s3_bucket.audit", {"aws_s3_bucket_v2", "a.b"}).empty());
  EXPECT_EQ(doc.text().substr(0, 55), "# Buckets.\nresource \"aws_s3_bucket_v2\" \"a.b\" {\n  bucket");
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket_v2.\"a.b\".acl"), "\"private\"");
  EXPECT_FALSE(doc.rename("locals", {"x"}).empty());
}

TEST(Edit, Refusals) {
  Document doc("m.tf", kMain);
  auto d = doc.set("locals.azs", "[1,");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Missing expression");  // the expression's own syntax error
  d = doc.set("resource.aws_s3_bucket.logs", "1");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Not a value");
  d = doc.set("nope.x", "1");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Nothing at path");
  d = doc.add_block("locals.\"not an identifier\"[0]");
  ASSERT_FALSE(d.empty());
  // A heredoc before a comment on its line, or before the closing bracket
  // of a one-line tuple, would not parse after the edit: the file stays.
  d = doc.set("resource.aws_s3_bucket.logs.bucket", "<<EOT\nx\nEOT\n");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Edit not made");
  d = doc.add("locals.azs", "<<EOT\nx\nEOT");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].summary, "Edit not made");
  EXPECT_EQ(doc.text(), kMain);
  // Where a line of its own follows, a heredoc goes in.
  ASSERT_TRUE(doc.set("resource.aws_s3_bucket.logs.acl", "<<EOT\nx\nEOT").empty());
  EXPECT_EQ(get(doc, "resource.aws_s3_bucket.logs.acl"), "<<EOT\nx\nEOT");
}

TEST(Edit, BrokenFilesCanBeEdited) {
  Document doc("b.hcl", "a = 1\nb = \n");
  ASSERT_TRUE(hclvm::has_errors(doc.diagnostics()));
  ASSERT_TRUE(doc.set("a", "2").empty());
  EXPECT_EQ(doc.text(), "a = 2\nb = \n");
}

}  // namespace

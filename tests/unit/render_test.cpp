// Tests for diagnostic rendering. Every expected string here was produced by
// the Go reference: the hcldec oracle on real files, or hcl's own
// NewDiagnosticTextWriter, encoding/json, strconv.Quote and go-wordwrap fed
// the same hand-made diagnostics and strings (hcl 2.14.1, Go 1.19).
#include "diag/render.h"

#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hclvm::diag {
namespace {

// Builds a range in [file] from [sl]:[sc] (byte [sb]) to [el]:[ec] (byte [eb]).
Range rng(const std::string& file, uint32_t sl, uint32_t sc, uint32_t sb, uint32_t el,
          uint32_t ec, uint32_t eb) {
  return Range{file, Pos{sl, sc, sb}, Pos{el, ec, eb}};
}

// Builds an error (or warning when [warn]) diagnostic.
Diagnostic diag(std::string summary, std::string detail, std::optional<Range> subject,
                std::optional<Range> context = std::nullopt, bool warn = false) {
  Diagnostic d;
  d.severity = warn ? Severity::Warning : Severity::Error;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  d.context = std::move(context);
  return d;
}

const TextStyle kPlain{80, false};
const TextStyle kColor{80, true};

const char kBad[] =
    "resource \"aws_instance\" \"web\" {\n  ami = \"abc\"\n  count = \n}\n\n"
    "variable \"x\" {\n  default = [1, 2\n}\na = \"foo\" \"bar\"\n";
const char kInvalidExpr[] =
    "Expected the start of an expression, but found an invalid expression token.";

// A root body with two top-level blocks shaped like kBad's (as the
// reference parses it: resource is bytes [0,58), variable [60,111)).
struct BadBody {
  std::string_view labels1[2] = {"aws_instance", "web"};
  std::string_view labels2[1] = {"x"};
  ast::Block b1, b2;
  ast::Block* blocks[2] = {&b1, &b2};
  ast::Body root;
  BadBody() {
    b1.type = "resource";
    b1.labels = {labels1, 2};
    b1.span = {0, 58};
    b2.type = "variable";
    b2.labels = {labels2, 1};
    b2.span = {60, 111};
    root.blocks = {blocks, 2};
  }
};

TEST(RangeString, SameLineAndMultiLine) {
  EXPECT_EQ(range_string(rng("a.tf", 3, 11, 56, 3, 14, 59)), "a.tf:3,11-14");
  EXPECT_EQ(range_string(rng("bad.tf", 3, 11, 56, 4, 1, 57)), "bad.tf:3,11-4,1");
  EXPECT_EQ(range_string(rng("", 1, 1, 0, 1, 1, 0)), ":1,1-1");
}

TEST(NativeContext, TopLevelBlockHeaders) {
  BadBody b;
  EXPECT_EQ(native_context(b.root, 0), "resource \"aws_instance\" \"web\"");
  EXPECT_EQ(native_context(b.root, 57), "resource \"aws_instance\" \"web\"");
  EXPECT_EQ(native_context(b.root, 58), "");
  EXPECT_EQ(native_context(b.root, 59), "");
  EXPECT_EQ(native_context(b.root, 60), "variable \"x\"");
  EXPECT_EQ(native_context(b.root, 103), "variable \"x\"");
  EXPECT_EQ(native_context(b.root, 111), "");
}

TEST(NativeContext, UnlabelledBlockAndQuotedLabels) {
  std::string_view labels[2] = {"a\tb", "\xc3\xa9\x01"};
  ast::Block blk;
  blk.type = "resource";
  blk.labels = {labels, 2};
  blk.span = {0, 41};
  ast::Block* blocks[1] = {&blk};
  ast::Body root;
  root.blocks = {blocks, 1};
  EXPECT_EQ(native_context(root, 39), "resource \"a\\tb\" \"\xc3\xa9\\x01\"");
  blk.labels = {};
  EXPECT_EQ(native_context(root, 39), "resource");
}

TEST(RenderText, SubjectEndingOnNextLineWithContext) {
  BadBody b;
  SnippetFiles files{{"bad.tf", {kBad, [&](uint32_t o) { return native_context(b.root, o); }}}};
  Diagnostics ds{diag("Invalid expression", kInvalidExpr, rng("bad.tf", 3, 11, 56, 4, 1, 57))};
  const char* want =
      "Error: Invalid expression\n"
      "\n"
      "  on bad.tf line 3, in resource \"aws_instance\" \"web\":\n"
      "   3:   count = \n"
      "   4: }\n"
      "\n"
      "Expected the start of an expression, but found an invalid expression token.\n"
      "\n";
  EXPECT_EQ(render_text(ds, files, kPlain), want);
  const char* want_color =
      "\x1b[31mError\x1b[0m: Invalid expression\n"
      "\n"
      "  on bad.tf line 3, in resource \"aws_instance\" \"web\":\n"
      "   3:   count = \n"
      "   4: }\n"
      "\n"
      "Expected the start of an expression, but found an invalid expression token.\n"
      "\n";
  EXPECT_EQ(render_text(ds, files, kColor), want_color);
}

TEST(RenderText, WrapsDetailAtWidth) {
  const char src[] = "block \"x\" {\n  a = 1\n";
  SnippetFiles files{{"c3.tf", {src, [](uint32_t) { return std::string("block \"x\""); }}}};
  Diagnostics ds{diag("Unclosed configuration block",
                      "There is no closing brace for this block before the end of the file. "
                      "This may be caused by incorrect brace nesting elsewhere in this file.",
                      rng("c3.tf", 1, 11, 10, 1, 12, 11))};
  const char* want =
      "Error: Unclosed configuration block\n"
      "\n"
      "  on c3.tf line 1, in block \"x\":\n"
      "   1: block \"x\" {\n"
      "\n"
      "There is no closing brace for this block before the end of the file. This may be\n"
      "caused by incorrect brace nesting elsewhere in this file.\n"
      "\n";
  EXPECT_EQ(render_text(ds, files, kPlain), want);
}

const char kC4[] = "a = (\n  \"x\"\n\n  *\n  2\n)\n";

TEST(RenderText, ContextWidensSnippetAndSkipsBlankLines) {
  SnippetFiles files{{"c4.hcl", {kC4, {}}}};
  Diagnostics ds{diag("Invalid operand", "Unsuitable value for left operand: a number is required.",
                      rng("c4.hcl", 2, 3, 8, 2, 6, 11), rng("c4.hcl", 2, 3, 8, 5, 4, 20))};
  const char* want =
      "\x1b[31mError\x1b[0m: Invalid operand\n"
      "\n"
      "  on c4.hcl line 2:\n"
      "   2:   \x1b[1;4m\"x\"\x1b[0m\n"
      "   4:   *\n"
      "   5:   2\n"
      "\n"
      "Unsuitable value for left operand: a number is required.\n"
      "\n";
  EXPECT_EQ(render_text(ds, files, kColor), want);
}

TEST(RenderText, WarningWithMultiLineHighlight) {
  SnippetFiles files{{"c4.hcl", {kC4, {}}}};
  Diagnostics ds{diag("Deprecated", "Multi-line subject.", rng("c4.hcl", 2, 4, 9, 5, 3, 19),
                      std::nullopt, true)};
  const char* want =
      "\x1b[33mWarning\x1b[0m: Deprecated\n"
      "\n"
      "  on c4.hcl line 2:\n"
      "   2:   \"\x1b[1;4mx\"\x1b[0m\n"
      "   4: \x1b[1;4m  *\x1b[0m\n"
      "   5: \x1b[1;4m  \x1b[0m2\n"
      "\n"
      "Multi-line subject.\n"
      "\n";
  EXPECT_EQ(render_text(ds, files, kColor), want);
  const char* want_plain =
      "Warning: Deprecated\n"
      "\n"
      "  on c4.hcl line 2:\n"
      "   2:   \"x\"\n"
      "   4:   *\n"
      "   5:   2\n"
      "\n"
      "Multi-line subject.\n"
      "\n";
  EXPECT_EQ(render_text(ds, files, kPlain), want_plain);
}

TEST(RenderText, EmptySubjectGrowsToOneCharacter) {
  SnippetFiles files{{"i.hcl", {"abc def\n", [](uint32_t) { return std::string("thing"); }}}};
  Diagnostics ds{diag("Empty", "", rng("i.hcl", 1, 4, 3, 1, 4, 3))};
  EXPECT_EQ(render_text(ds, files, kColor),
            "\x1b[31mError\x1b[0m: Empty\n\n  on i.hcl line 1, in thing:\n"
            "   1: abc\x1b[1;4m \x1b[0mdef\n\n");
}

TEST(RenderText, EmptySubjectUsesContextForSnippet) {
  SnippetFiles files{{"c4.hcl", {kC4, {}}}};
  Diagnostics ds{diag("Empty subject with context", "", rng("c4.hcl", 2, 3, 8, 2, 3, 8),
                      rng("c4.hcl", 2, 3, 8, 5, 4, 20))};
  EXPECT_EQ(render_text(ds, files, kColor),
            "\x1b[31mError\x1b[0m: Empty subject with context\n\n  on c4.hcl line 2:\n"
            "   2:   \x1b[1;4m\"\x1b[0mx\"\n   4:   *\n   5:   2\n\n");
}

TEST(RenderText, LoneCarriageReturnCountsAsLine) {
  SnippetFiles files{{"cr.hcl", {"a = 1\rb = 2\nc = \n", {}}}};
  Diagnostics ds{
      diag("S", "", rng("cr.hcl", 2, 5, 16, 3, 1, 17), rng("cr.hcl", 1, 1, 0, 3, 1, 17))};
  EXPECT_EQ(render_text(ds, files, kPlain),
            "Error: S\n\n  on cr.hcl line 2:\n   1: a = 1\rb = 2\n   3: c = \n\n");
}

TEST(RenderText, CrLfLineEndsAreDropped) {
  SnippetFiles files{{"crlf.hcl", {"a = 1\r\nb = \r\nc = 3\r\n", {}}}};
  Diagnostics ds{diag("Invalid expression", "", rng("crlf.hcl", 2, 5, 11, 3, 1, 13))};
  EXPECT_EQ(render_text(ds, files, kColor),
            "\x1b[31mError\x1b[0m: Invalid expression\n\n  on crlf.hcl line 2:\n"
            "   2: b = \n   3: c = 3\n\n");
}

TEST(RenderText, SourceNotAvailable) {
  Diagnostics ds{diag("Missing file", "d", rng("missing.tf", 7, 1, 50, 7, 2, 51))};
  EXPECT_EQ(render_text(ds, {}, kPlain),
            "Error: Missing file\n\n  on missing.tf line 7:\n  (source code not available)\n\nd\n\n");
}

TEST(RenderText, RangesPastTheEndShowNoLines) {
  SnippetFiles files{{"h.hcl", {"a = 1\n", {}}}, {"e.hcl", {"", {}}}};
  Diagnostics ds{diag("At EOF", "", rng("h.hcl", 2, 1, 6, 2, 1, 6)),
                 diag("Empty file", "", rng("e.hcl", 1, 1, 0, 1, 1, 0))};
  EXPECT_EQ(render_text(ds, files, kPlain),
            "Error: At EOF\n\n  on h.hcl line 2:\n\n"
            "Error: Empty file\n\n  on e.hcl line 1:\n\n");
}

TEST(RenderText, WideLineNumbers) {
  std::string src(10000, '\n');
  src += "x = \n";
  SnippetFiles files{{"n.hcl", {src, {}}}};
  Diagnostics ds{diag("Far", "", rng("n.hcl", 10001, 1, 10000, 10001, 2, 10001))};
  EXPECT_EQ(render_text(ds, files, kPlain), "Error: Far\n\n  on n.hcl line 10001:\n10001: x = \n\n");
}

TEST(RenderText, NoSubjectAndWidthZero) {
  std::string words;
  for (int i = 0; i < 30; ++i) words += "word ";
  Diagnostics ds{diag("No subject", words, std::nullopt)};
  EXPECT_EQ(render_text(ds, {}, TextStyle{40, false}),
            "Error: No subject\n\n"
            "word word word word word word word word\n"
            "word word word word word word word word\n"
            "word word word word word word word word\n"
            "word word word word word word \n\n");
  ds[0].severity = Severity::Warning;
  ds[0].summary = "No wrap";
  EXPECT_EQ(render_text(ds, {}, TextStyle{0, false}), "Warning: No wrap\n\n" + words + "\n\n");
}

TEST(RenderJson, EmptyList) {
  EXPECT_EQ(render_json({}), "{\n  \"diagnostics\": []\n}\n");
}

TEST(RenderJson, OracleShapeForSyntaxError) {
  // hcldec --spec=S bad.tf --diags=json, verbatim.
  Diagnostics ds{diag("Invalid expression", kInvalidExpr, rng("bad.tf", 3, 11, 56, 4, 1, 57))};
  const char* want = R"({
  "diagnostics": [
    {
      "severity": "error",
      "summary": "Invalid expression",
      "detail": "Expected the start of an expression, but found an invalid expression token.",
      "subject": {
        "filename": "bad.tf",
        "start": {
          "line": 3,
          "column": 11,
          "byte": 56
        },
        "end": {
          "line": 4,
          "column": 1,
          "byte": 57
        }
      }
    }
  ]
}
)";
  EXPECT_EQ(render_json(ds), want);
}

TEST(RenderJson, OmitsEmptyDetailAndSubjectAndNeverShowsContext) {
  Diagnostics ds{diag("Only summary <&>", "", std::nullopt, std::nullopt, true),
                 diag("S", "line1\nline2\t\"q\"", rng("dir/x.tf", 1, 2, 1, 3, 4, 20),
                      rng("dir/x.tf", 1, 1, 0, 3, 5, 21))};
  const char* want = R"({
  "diagnostics": [
    {
      "severity": "warning",
      "summary": "Only summary \u003c\u0026\u003e"
    },
    {
      "severity": "error",
      "summary": "S",
      "detail": "line1\nline2\t\"q\"",
      "subject": {
        "filename": "dir/x.tf",
        "start": {
          "line": 1,
          "column": 2,
          "byte": 1
        },
        "end": {
          "line": 3,
          "column": 4,
          "byte": 20
        }
      }
    }
  ]
}
)";
  EXPECT_EQ(render_json(ds), want);
}

TEST(JsonString, GoEscapes) {
  std::string in =
      "<a>&\"\\\n\r\t" + std::string(1, '\0') +
      "\x1f\x7f\xff\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9\xf0\x9f\x98\x80\xe2\x80";
  EXPECT_EQ(json_string(in),
            "\"\\u003ca\\u003e\\u0026\\\"\\\\\\n\\r\\t\\u0000\\u001f\x7f\\ufffd\\u2028\\u2029"
            "\xc3\xa9\xf0\x9f\x98\x80\\ufffd\\ufffd\"");
  // The oracle's escaping of a file name (hcldec --diags=json).
  EXPECT_EQ(json_string("a<b>&c\x01\x08\x0c\x7f\xff\xe2\x80\xa8\xc3\xa9\"\\.hcl"),
            "\"a\\u003cb\\u003e\\u0026c\\u0001\\u0008\\u000c\x7f\\ufffd\\u2028\xc3\xa9\\\"\\\\.hcl\"");
}

TEST(WrapWords, MatchesGoWordwrap) {
  struct Case {
    std::string in;
    unsigned width;
    std::string want;
  };
  std::vector<Case> cases = {
      {"aaa bbb ccc", 5, "aaa\nbbb\nccc"},
      {"a verylongwordthatexceeds the limit", 10, "a\nverylongwordthatexceeds\nthe limit"},
      {"trailing spaces     \nnext line", 12, "trailing\nspaces     \nnext line"},
      {"  lead  two\xc2\xa0nbsp words here", 8, "  lead\ntwo\xc2\xa0nbsp\nwords\nhere"},
      {"x\ty\xe2\x80\x83z w", 3, "x\ty\nz w"},
      {"bad \xff\xfe bytes here", 6, "bad \xef\xbf\xbd\xef\xbf\xbd\nbytes\nhere"},
      {"h\xc3\xa9llo w\xc3\xb6rld \xc3\xbcn\xc3\xaf" "code", 7,
       "h\xc3\xa9llo\nw\xc3\xb6rld\n\xc3\xbcn\xc3\xaf" "code"},
      {"one\n\ntwo   \n  three", 4, "one\n\ntwo\n\nthree"},
      {"abc def", 3, "abc\ndef"},
  };
  for (const auto& c : cases) EXPECT_EQ(wrap_words(c.in, c.width), c.want) << c.in;
}

// The block context by the definition: the first top-level block whose
// range holds the offset, found by looking at every block.
std::string native_context_by_scan(const ast::Body& root, uint32_t byte) {
  for (const ast::Block* b : root.blocks) {
    if (byte < b->span.begin || byte >= b->span.end) continue;
    std::string out(b->type);
    for (std::string_view label : b->labels) out += " \"" + std::string(label) + "\"";
    return out;
  }
  return "";
}

TEST(NativeContext, AgreesWithScanningEveryBlockAtEveryByte) {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text +=
        "resource \"r\" \"n" + std::to_string(i) + "\" {\n  a = 1\n  inner {\n    b = 2\n  }\n}\n";
    if (i % 3 == 0) text += "top_" + std::to_string(i) + " = 3\n\n";
  }
  FileParse p = parse_config(make_source("m.tf", text));
  ASSERT_FALSE(p.has_errors());
  ASSERT_EQ(p.body->blocks.size, 40u);
  for (uint32_t byte = 0; byte <= text.size() + 1; ++byte)
    ASSERT_EQ(native_context(*p.body, byte), native_context_by_scan(*p.body, byte)) << byte;
}

// The JSON context by the definition: down from the root, into the first
// object or array member holding the offset, looking at every member.
std::string json_context_by_scan(const json::Node& root, uint32_t byte) {
  auto holds = [byte](const json::Node* n) {
    return (n->kind == json::NodeKind::Object || n->kind == json::NodeKind::Array) &&
           n->start.byte <= byte && byte < n->end.byte;
  };
  std::string out;
  for (const json::Node* n = &root; n != nullptr;) {
    const json::Node* next = nullptr;
    if (n->kind == json::NodeKind::Object) {
      for (const json::Property& p : json::as<json::ObjectNode>(*n).properties) {
        if (!holds(p.value)) continue;
        out += "." + std::string(p.name->value);
        next = p.value;
        break;
      }
    } else if (n->kind == json::NodeKind::Array) {
      const auto& items = json::as<json::ArrayNode>(*n).items;
      for (uint32_t i = 0; i < items.size && next == nullptr; ++i) {
        if (!holds(items[i])) continue;
        out += "[" + std::to_string(i) + "]";
        next = items[i];
      }
    }
    n = next;
  }
  return out.empty() || out[0] != '.' ? out : out.substr(1);
}

TEST(JsonContext, AgreesWithScanningEveryMemberAtEveryByte) {
  std::string text =
      "{\"a\": {\"b\": [1, {\"c\": 2}, [], [[3]]], \"d\": 3, \"a\": {}}, \"e\": [ [5] , {\"f\": "
      "{\"g\": [true]}} ], \"h\": \"x\"";
  for (int i = 0; i < 30; ++i)
    text += ", \"k" + std::to_string(i) + "\": {\"v\": [" + std::to_string(i) + "]}";
  text += "}";
  JsonParse p = parse_json_config(make_source("m.json", text));
  ASSERT_FALSE(p.has_errors());
  EXPECT_EQ(json_context(*p.root, uint32_t(text.find("[true]") + 1)), "e[1].f.g");
  for (uint32_t byte = 0; byte <= text.size() + 1; ++byte)
    ASSERT_EQ(json_context(*p.root, byte), json_context_by_scan(*p.root, byte)) << byte;
}

// Rendering many diagnostics at once (which indexes each file's lines once)
// gives what rendering each alone gives, in any order and across files.
TEST(RenderText, ManyDiagnosticsRenderAsEachAlone) {
  std::string a, b = "x = 1\r\ny = \rz\n\nw = 4";  // b: CR LF, a lone CR, no final newline
  for (int i = 0; i < 50; ++i) a += "line" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  SnippetFiles files{{"a.hcl", {a, [](uint32_t o) { return "at " + std::to_string(o / 100); }}},
                     {"b.hcl", {b, {}}}};
  Diagnostics ds;
  for (uint32_t i = 0; i < 50; i += 7) {  // later lines first, with multi-line contexts
    uint32_t line = 49 - i, byte = uint32_t(a.find("line" + std::to_string(line) + " "));
    ds.push_back(diag("A" + std::to_string(line), "",
                      rng("a.hcl", line + 1, 1, byte, line + 1, 5, byte + 4),
                      rng("a.hcl", 1, 1, byte > 30 ? byte - 30 : 0, line + 1, 9, byte + 8)));
    ds.push_back(diag("B", "", rng("b.hcl", 1, 1, i % 17, 1, 1, i % 17)));
  }
  ds.push_back(
      diag("End of b", "", rng("b.hcl", 5, 6, uint32_t(b.size()), 5, 6, uint32_t(b.size()))));
  std::string one_by_one;
  for (const Diagnostic& d : ds) one_by_one += render_text(Diagnostics{d}, files, kPlain);
  EXPECT_EQ(render_text(ds, files, kPlain), one_by_one);
  // The empty subject at the end of a file without a final newline shows its last line.
  EXPECT_EQ(render_text(Diagnostics{ds.back()}, files, kPlain),
            "Error: End of b\n\n  on b.hcl line 5:\n   5: w = 4\n\n");
}

}  // namespace
}  // namespace hclvm::diag

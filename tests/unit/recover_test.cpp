// Tests of the recovering parser (recover.cpp), which alone decides the
// diagnostics of input with errors. Each row is an input and the complete
// list of diagnostics the reference reports for it (summary, detail, subject
// and context as line:col-line:col, in order), recorded from the reference
// parser (hashicorp/hcl 2.14.1 through a small Go program), with the rows
// where the newest reference differs (namespaced function calls `a::b()`,
// the spelling "parenthesis") corrected by hand from its source; all 274
// rows were then run through the newest reference (hcl v2.24.0, the same
// kind of program) and agree with it. The inputs
// cover every diagnostic of parser.go, parser_template.go and
// parser_traversal.go, the sticky recovery mode that silences follow-on
// errors, the order of escape errors among other template errors, and the
// error inputs of the reference's own parser tests.
//
// Further tests read the official spec suite's syntax-error cases and check
// a few facts of the partial trees. (corpus_test.cpp checks the first error
// of every real-world file the reference rejects.)
#include "syntax/parse.h"
#include "test_util.h"

#include <hclvm/syntax.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

namespace hclvm::syntax {
namespace {

enum class Mode { Config, Expr, Template, Traversal };

struct Want {
  const char* summary;
  const char* detail;
  const char* subject;  // line:col-line:col
  const char* context;  // "" when there is none
};

struct Case {
  Mode mode;
  const char* src;
  std::vector<Want> want;
};

// Prints a case as its input, for gtest's messages.
void PrintTo(const Case& c, std::ostream* os) { *os << ::testing::PrintToString(std::string(c.src)); }

// Formats [r] as line:col-line:col, or "" when absent.
std::string span_text(const std::optional<Range>& r) {
  if (!r) return "";
  return std::to_string(r->start.line) + ":" + std::to_string(r->start.column) + "-" + std::to_string(r->end.line) +
         ":" + std::to_string(r->end.column);
}

// Returns the diagnostics of parsing [src] as [mode] through [path] (the
// traversal parser has only the recovering path).
Diagnostics diagnose(Mode mode, const std::string& src, Path path) {
  auto source = make_source("test.hcl", src);
  switch (mode) {
    case Mode::Config: return parse_config_via(source, path).diagnostics;
    case Mode::Expr: return parse_expression_via(source, path).diagnostics;
    case Mode::Template: return parse_template_via(source, path).diagnostics;
    case Mode::Traversal: return parse_traversal_abs(source).diagnostics;
  }
  return {};
}

// Renders [d] one per line, for readable failure messages.
std::string render(const Diagnostics& ds) {
  std::string out;
  for (const Diagnostic& d : ds)
    out += "  " + d.summary + " | " + d.detail + " | " + span_text(d.subject) + " | " + span_text(d.context) + "\n";
  return out;
}

std::string render(const std::vector<Want>& ws) {
  std::string out;
  for (const Want& w : ws)
    out += std::string("  ") + w.summary + " | " + w.detail + " | " + w.subject + " | " + w.context + "\n";
  return out;
}

class Recover : public ::testing::TestWithParam<Case> {};

TEST_P(Recover, SameDiagnosticsAsReference) {
  const Case& c = GetParam();
  Diagnostics got = diagnose(c.mode, c.src, Path::Recover);
  std::string msg = std::string("input: ") + ::testing::PrintToString(std::string(c.src)) + "\nwant:\n" +
                    render(c.want) + "got:\n" + render(got);
  ASSERT_EQ(got.size(), c.want.size()) << msg;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].severity, Severity::Error) << msg;
    EXPECT_EQ(got[i].summary, c.want[i].summary) << msg;
    EXPECT_EQ(got[i].detail, c.want[i].detail) << msg;
    EXPECT_EQ(span_text(got[i].subject), c.want[i].subject) << msg;
    EXPECT_EQ(span_text(got[i].context), c.want[i].context) << msg;
  }
  // Through the public entry point (fast path first) the result is the same.
  if (c.mode != Mode::Traversal) {
    Diagnostics via_auto = diagnose(c.mode, c.src, Path::Auto);
    EXPECT_EQ(render(via_auto), render(got)) << "the public entry point (fast path first) disagrees\n" << msg;
  }
}

const Case kCases[] = {
    {Mode::Config, "a = 1 b\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "a = 1, b = 2\n", {{"Unexpected comma after argument", "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.", "1:6-1:7", "1:1-1:7"}}},
    {Mode::Config, "\"a\" = 1\n", {{"Invalid argument name", "Argument names must not be quoted.", "1:1-1:2", ""}}},
    {Mode::Config, "a\n", {{"Argument or block definition required", "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.", "1:1-1:2", ""}}},
    {Mode::Config, "a", {{"Argument or block definition required", "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.", "1:1-1:2", ""}}},
    {Mode::Config, "a b\n", {{"Invalid block definition", "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.", "1:4-2:1", "1:1-2:1"}}},
    {Mode::Config, "a \"b\" = 1\n", {{"Invalid block definition", "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "a\n{\n}\n", {{"Argument or block definition required", "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.", "1:1-1:2", ""}}},
    {Mode::Config, "b {", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:3-1:4", ""}}},
    {Mode::Config, "b {\n", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:3-1:4", ""}}},
    {Mode::Config, "b { a = 1, c = 2 }\n", {{"Invalid single-argument block definition", "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.", "1:10-1:11", ""}}},
    {Mode::Config, "b { a = 1\n}\n", {{"Invalid single-argument block definition", "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.", "1:10-2:1", ""}}},
    {Mode::Config, "b { a = 1 c }\n", {{"Invalid single-argument block definition", "A single-line block definition must end with a closing brace immediately after its single argument definition.", "1:11-1:12", ""}}},
    {Mode::Config, "b { a = 1", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:3-1:4", "1:1-1:4"}}},
    {Mode::Config, "b { c {} }\n", {{"Argument definition required", "A single-line block definition can contain only a single argument. If you meant to define argument \"c\", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.", "1:5-1:8", ""}}},
    {Mode::Config, "b { c \"x\" {} }\n", {{"Argument definition required", "A single-line block definition can contain only a single argument. If you meant to define argument \"c\", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.", "1:5-1:8", ""}}},
    {Mode::Config, "b { \"x\" = 1 }\n", {{"Argument or block definition required", "An argument or block definition is required here.", "1:5-1:6", ""}}},
    {Mode::Config, "b {} c = 1\n", {{"Missing newline after block definition", "A block definition must end with a newline.", "1:6-1:7", "1:1-1:7"}}},
    {Mode::Config, "a = 1\na = 2\n", {{"Attribute redefined", "The argument \"a\" was already set at test.hcl:1,1-2. Each argument may be set only once.", "2:1-2:2", ""}}},
    {Mode::Config, "a = 1\nb { a = 2 }\na = 3\n", {{"Attribute redefined", "The argument \"a\" was already set at test.hcl:1,1-2. Each argument may be set only once.", "3:1-3:2", ""}}},
    {Mode::Config, "}\n", {{"Argument or block definition required", "An argument or block definition is required here.", "1:1-1:2", ""}}},
    {Mode::Config, "b { a = 1 }}\n", {{"Missing newline after block definition", "A block definition must end with a newline.", "1:12-1:13", "1:1-1:13"}}},
    {Mode::Config, "1 = 2\n", {{"Argument or block definition required", "An argument or block definition is required here.", "1:1-1:2", ""}}},
    {Mode::Config, "a = 1 b\nc = 2 d\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "b \"x${y}\" {}\n", {{"Invalid string literal", "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.", "1:5-1:7", "1:3-1:7"}}},
    {Mode::Config, "b \"x%{y}\" {}\n", {{"Invalid string literal", "Template sequences are not allowed in this string. To include a literal \"%\", double it (as \"%%\") to escape it.", "1:5-1:7", "1:3-1:7"}}},
    {Mode::Config, "b \"x\" 1 {}\n", {{"Invalid block definition", "Either a quoted string block label or an opening brace (\"{\") is expected here.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "b \"\\q\" {}\n", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:4-1:6", ""}}},
    {Mode::Config, "b \"\\q\" \"${x}\" \"\\u12\" {}\n", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:4-1:6", ""}, {"Invalid string literal", "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.", "1:9-1:11", "1:8-1:11"}, {"Invalid escape sequence", "The \\u escape sequence must be followed by four hexadecimal digits.", "1:16-1:20", ""}}},
    {Mode::Config, "b \"abc", {{"Unterminated string literal", "Unable to find the closing quote mark before the end of the file.", "1:7-1:7", "1:3-1:7"}, {"Invalid block definition", "Either a quoted string block label or an opening brace (\"{\") is expected here.", "1:7-1:7", "1:1-1:7"}}},
    {Mode::Config, "b x \"y\" {\n  c = 1\n}\n", {}},
    {Mode::Config, "b {\n  c = 1\n", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:3-1:4", ""}}},
    {Mode::Config, "b {\n  c = 1 d\n}\ne = 1 f\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "2:9-2:10", "2:3-2:10"}}},
    {Mode::Config, "a = 1 /* x */ b\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "1:15-1:16", "1:1-1:16"}}},
    {Mode::Config, "a = 1 # c\nb = 2 // d\nc = 3 x # e\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "3:7-3:8", "3:1-3:8"}}},
    {Mode::Config, "b { a = 1 } # c\n", {}},
    {Mode::Config, "b { a = 1 } x\n", {{"Missing newline after block definition", "A block definition must end with a newline.", "1:13-1:14", "1:1-1:14"}}},
    {Mode::Config, "b {\n} x\n", {{"Missing newline after block definition", "A block definition must end with a newline.", "2:3-2:4", "1:1-2:4"}}},
    {Mode::Config, "= 1\n", {{"Argument or block definition required", "An argument or block definition is required here.", "1:1-1:2", ""}}},
    {Mode::Config, "a.b = 1\n", {{"Argument or block definition required", "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.", "1:1-1:2", ""}}},
    {Mode::Config, "a = 1 = 2\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "a == 1\n", {{"Argument or block definition required", "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.", "1:1-1:2", ""}}},
    {Mode::Config, "b { a = }\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:9-1:10", ""}}},
    {Mode::Config, "b { a = 1 }\nb {\n", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "2:3-2:4", ""}}},
    {Mode::Config, "a = \n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:5-2:1", ""}}},
    {Mode::Config, "a =", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:4-1:4", ""}}},
    {Mode::Config, "a = (1", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:7-1:7", "1:5-1:7"}}},
    {Mode::Config, "a = (1\n", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "2:1-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = (1 2)\n", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:8-1:9", "1:5-1:9"}}},
    {Mode::Config, "a = 1 +\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:8-2:1", ""}}},
    {Mode::Config, "a = 1 + \n2\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:9-2:1", ""}}},
    {Mode::Config, "a = true ? 1\n", {{"Missing false expression in conditional", "The conditional operator (...?...:...) requires a false expression, delimited by a colon.", "1:13-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = true ? 1 :\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:15-2:1", ""}}},
    {Mode::Config, "a = true ? : 2\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:12-1:13", ""}}},
    {Mode::Config, "a = [1 2]\n", {{"Missing item separator", "Expected a comma to mark the beginning of the next item.", "1:8-1:9", "1:5-1:9"}}},
    {Mode::Config, "a = [1, 2", {{"Unterminated tuple constructor expression", "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.", "1:5-1:6", ""}}},
    {Mode::Config, "a = [1, 2\n", {{"Unterminated tuple constructor expression", "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.", "1:5-1:6", ""}}},
    {Mode::Config, "a = [1,,2]\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:8-1:9", ""}}},
    {Mode::Config, "a = {x 1}\n", {{"Missing key/value separator", "Expected an equals sign (\"=\") to mark the beginning of the attribute value.", "1:8-1:9", "1:5-1:9"}}},
    {Mode::Config, "a = {x = 1 y = 2}\n", {{"Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", "1:12-1:13", "1:5-1:13"}}},
    {Mode::Config, "a = {x}\n", {{"Missing key/value separator", "Expected an equals sign (\"=\") to mark the beginning of the attribute value.", "1:7-1:8", "1:5-1:8"}}},
    {Mode::Config, "a = {x\n}\n", {{"Missing attribute value", "Expected an attribute value, introduced by an equals sign (\"=\").", "1:7-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = {x,}\n", {{"Missing attribute value", "Expected an attribute value, introduced by an equals sign (\"=\").", "1:7-1:8", "1:5-1:8"}}},
    {Mode::Config, "a = {x = 1", {{"Unterminated object constructor expression", "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:5-1:6", ""}}},
    {Mode::Config, "a = {x = }\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:10-1:11", ""}}},
    {Mode::Config, "a = {x = 1,, y = 2}\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:12-1:13", ""}}},
    {Mode::Config, "a = { = 1 }\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:7-1:8", ""}}},
    {Mode::Config, "a = {\"x\" = [1 2], y = 3}\n", {{"Missing item separator", "Expected a comma to mark the beginning of the next item.", "1:15-1:16", "1:12-1:16"}}},
    {Mode::Config, "a = f(1 2)\n", {{"Missing argument separator", "A comma is required to separate each function argument from the next.", "1:9-1:10", "1:5-1:10"}}},
    {Mode::Config, "a = f(1", {{"Unterminated function call", "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.", "1:5-1:7", ""}}},
    {Mode::Config, "a = f(x..., y)\n", {{"Missing closing parenthesis", "An expanded function argument (with ...) must be immediately followed by closing parentheses.", "1:8-1:11", "1:5-1:11"}}},
    {Mode::Config, "a = f(!)\nb = 1 c\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:8-1:9", ""}}},
    {Mode::Config, "a = f(,)\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:7-1:8", ""}}},
    {Mode::Config, "a = x.\n", {{"Invalid attribute name", "An attribute name is required after a dot.", "1:7-2:1", ""}}},
    {Mode::Config, "a = x.*.*\n", {{"Nested splat expression not allowed", "A splat expression (*) cannot be used inside another attribute-only splat expression.", "1:9-1:10", ""}}},
    {Mode::Config, "a = x.*.\n", {{"Invalid attribute name", "An attribute name is required after a dot.", "1:7-1:8", ""}}},
    {Mode::Config, "a = x.*.y.1\n", {}},
    {Mode::Config, "a = x[*\n", {{"Missing close bracket on splat index", "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").", "2:1-2:1", ""}}},
    {Mode::Config, "a = x[*].y[*\n", {{"Missing close bracket on splat index", "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").", "2:1-2:1", ""}}},
    {Mode::Config, "a = x[1\n", {{"Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").", "2:1-2:1", ""}}},
    {Mode::Config, "a = x[1 2]\n", {{"Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").", "1:10-1:11", ""}}},
    {Mode::Config, "a = x[\n", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "2:1-2:1", ""}}},
    {Mode::Config, "a = x.0.1\n", {{"Invalid legacy index syntax", "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [0][1].", "1:7-1:10", ""}}},
    {Mode::Config, "a = x.*.0.1\n", {{"Invalid legacy index syntax", "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [0][1].", "1:7-1:8", ""}}},
    {Mode::Config, "a = x.*.y.0.1.z\n", {{"Invalid legacy index syntax", "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [0][1].", "1:7-1:8", ""}}},
    {Mode::Config, "a = x.[0]\n", {{"Invalid attribute name", "An attribute name is required after a dot.", "1:7-1:8", ""}}},
    {Mode::Config, "a = x.\"y\"\n", {{"Invalid attribute name", "An attribute name is required after a dot.", "1:7-1:8", ""}}},
    {Mode::Config, "a = !\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:6-2:1", ""}}},
    {Mode::Config, "a = -\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:6-2:1", ""}}},
    {Mode::Config, "a = - - \n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:9-2:1", ""}}},
    {Mode::Config, "a = 1e9999999999\n", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:5-1:17", ""}}},
    {Mode::Config, "a = x.1e9999999999\n", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:7-1:19", ""}}},
    {Mode::Config, "a = 1 & 2\n", {{"Unsupported operator", "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?", "1:7-1:8", ""}, {"Missing newline after argument", "An argument definition must end with a newline.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "a = 1 | 2\n", {{"Unsupported operator", "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?", "1:7-1:8", ""}, {"Missing newline after argument", "An argument definition must end with a newline.", "1:7-1:8", "1:1-1:8"}}},
    {Mode::Config, "a = 1; b = 2\n", {{"Invalid character", "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.", "1:6-1:7", ""}, {"Missing newline after argument", "An argument definition must end with a newline.", "1:6-1:7", "1:1-1:7"}}},
    {Mode::Config, "a = 'x'\n", {{"Invalid character", "Single quotes are not valid. Use double quotes (\") to enclose strings.", "1:5-1:6", ""}, {"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:5-1:6", ""}}},
    {Mode::Config, "a = `x`\n", {{"Invalid character", "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".", "1:5-1:6", ""}, {"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:5-1:6", ""}}},
    {Mode::Config, "a = 1 ** 2\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:8-1:9", ""}}},
    {Mode::Config, "a = x::\n", {{"Missing function name", "Function scope resolution symbol :: must be followed by a function name in this scope.", "1:8-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = x::y\n", {{"Missing open parenthesis", "Function selector must be followed by an open parenthesis to begin the function call.", "1:9-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = x::y::\n", {{"Missing function name", "Function scope resolution symbol :: must be followed by a function name in this scope.", "1:11-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = x::1()\n", {{"Missing function name", "Function scope resolution symbol :: must be followed by a function name in this scope.", "1:8-1:9", "1:5-1:9"}}},
    {Mode::Config, "a = x::y(1\n", {{"Unterminated function call", "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.", "1:5-1:10", ""}}},
    {Mode::Config, "a = x::y z(1)\nb = 2\n", {{"Missing open parenthesis", "Function selector must be followed by an open parenthesis to begin the function call.", "1:10-1:11", "1:5-1:11"}}},
    {Mode::Config, "a = [for x in y: x if]\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:22-1:23", ""}}},
    {Mode::Config, "a = [for in y: x]\n", {{"Invalid 'for' expression", "For expression requires the 'in' keyword after its name declarations.", "1:13-1:14", "1:5-1:14"}}},
    {Mode::Config, "a = [for 1 in y: x]\n", {{"Invalid 'for' expression", "For expression requires variable name after 'for'.", "1:10-1:11", "1:5-1:11"}}},
    {Mode::Config, "a = [for k, 1 in y: x]\n", {{"Invalid 'for' expression", "For expression requires value variable name after comma.", "1:13-1:14", "1:5-1:14"}}},
    {Mode::Config, "a = [for x y]\n", {{"Invalid 'for' expression", "For expression requires the 'in' keyword after its name declarations.", "1:12-1:13", "1:5-1:13"}}},
    {Mode::Config, "a = [for x in y x]\n", {{"Invalid 'for' expression", "For expression requires a colon after the collection expression.", "1:17-1:18", "1:5-1:18"}}},
    {Mode::Config, "a = [for x in y: x => x]\n", {{"Invalid 'for' expression", "Key expression is not valid when building a tuple.", "1:18-1:19", "1:5-1:25"}}},
    {Mode::Config, "a = [for x in y: x...]\n", {{"Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", "1:19-1:22", "1:5-1:23"}}},
    {Mode::Config, "a = [for x in y: x => x...]\n", {{"Invalid 'for' expression", "Key expression is not valid when building a tuple.", "1:18-1:19", "1:5-1:28"}, {"Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", "1:24-1:27", "1:5-1:28"}}},
    {Mode::Config, "a = {for x in y: x}\n", {{"Invalid 'for' expression", "Key expression is required when building an object.", "1:18-1:19", "1:5-1:20"}}},
    {Mode::Config, "a = {for x in y: x...}\n", {{"Invalid 'for' expression", "Key expression is required when building an object.", "1:18-1:19", "1:5-1:23"}}},
    {Mode::Config, "a = [for x in y: x z]\n", {{"Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", "1:20-1:21", "1:5-1:21"}}},
    {Mode::Config, "a = {for x in y: x => x z}\n", {{"Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", "1:25-1:26", "1:5-1:26"}}},
    {Mode::Config, "a = [for x in : x]\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:15-1:16", ""}}},
    {Mode::Config, "a = [for x in y: ]\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:18-1:19", ""}}},
    {Mode::Config, "a = [for x in y: x if ]\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:23-1:24", ""}}},
    {Mode::Config, "a = [for x in y: x\n", {{"Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", "2:1-2:1", "1:5-2:1"}}},
    {Mode::Config, "a = {for k, v in y: k => v if v}\nb = {for k, v in y:\n k => v\n}\n", {}},
    {Mode::Config, "a = [for x in y: (1 2)]\n", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:21-1:22", "1:18-1:22"}}},
    {Mode::Config, "a = \"${x\"\n", {{"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.", "1:10-2:1", ""}, {"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.", "1:6-1:8", ""}}},
    {Mode::Config, "a = \"${x y}\"\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:10-1:11", "1:6-1:11"}}},
    {Mode::Config, "a = \"${x:y}\"\n", {{"Extra characters after interpolation expression", "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".", "1:9-1:10", "1:6-1:10"}}},
    {Mode::Config, "a = \"${x\n", {{"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.", "1:6-1:8", ""}}},
    {Mode::Config, "a = \"${\"\n", {{"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.", "1:9-2:1", ""}, {"Unterminated template string", "No closing marker was found for the string.", "1:9-2:1", "1:9-2:1"}}},
    {Mode::Config, "a = \"%{ if x }\"\n", {{"Unexpected end of template", "The if directive at test.hcl:1,6-15 is missing its corresponding endif directive.", "1:15-1:16", ""}}},
    {Mode::Config, "a = \"%{ else }\"\n", {{"Unexpected else directive", "The control directives within this template are unbalanced.", "1:6-1:15", ""}}},
    {Mode::Config, "a = \"%{ endif }\"\n", {{"Unexpected endif directive", "The control directives within this template are unbalanced.", "1:6-1:16", ""}}},
    {Mode::Config, "a = \"%{ endfor }\"\n", {{"Unexpected endfor directive", "The control directives within this template are unbalanced.", "1:6-1:17", ""}}},
    {Mode::Config, "a = \"%{ iff x }\"\n", {{"Invalid template control keyword", "\"iff\" is not a valid template control keyword. Did you mean \"if\"?", "1:9-1:12", "1:6-1:12"}}},
    {Mode::Config, "a = \"%{ foo }\"\n", {{"Invalid template control keyword", "\"foo\" is not a valid template control keyword. Did you mean \"for\"?", "1:9-1:12", "1:6-1:12"}}},
    {Mode::Config, "a = \"%{ endfo }\"\n", {{"Invalid template control keyword", "\"endfo\" is not a valid template control keyword. Did you mean \"endif\"?", "1:9-1:14", "1:6-1:14"}}},
    {Mode::Config, "a = \"%{ 1 }\"\n", {{"Invalid template directive", "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.", "1:9-1:10", "1:6-1:10"}}},
    {Mode::Config, "a = \"%{ for 1 }\"\n", {{"Invalid 'for' directive", "For directive requires variable name after 'for'.", "1:13-1:14", ""}}},
    {Mode::Config, "a = \"%{ for k, 1 in x }\"\n", {{"Invalid 'for' directive", "For directive requires value variable name after comma.", "1:16-1:17", ""}}},
    {Mode::Config, "a = \"%{ for x y }\"\n", {{"Invalid 'for' directive", "For directive requires 'in' keyword after names.", "1:15-1:16", ""}}},
    {Mode::Config, "a = \"%{ if x y }\"\n", {{"Extra characters in if marker", "Expected a closing brace to end the sequence, but found extra characters.", "1:14-1:15", "1:6-1:15"}, {"Unexpected end of template", "The if directive at test.hcl:1,6-15 is missing its corresponding endif directive.", "1:17-1:18", ""}}},
    {Mode::Config, "a = \"%{ else x }\"\n", {{"Extra characters in else marker", "Expected a closing brace to end the sequence, but found extra characters.", "1:14-1:15", "1:6-1:15"}, {"Unexpected else directive", "The control directives within this template are unbalanced.", "1:6-1:15", ""}}},
    {Mode::Config, "a = \"%{if x}a%{else}b%{else}c%{endif}\"\n", {{"Unexpected else directive", "Already in the else clause for the if started at test.hcl:1,6-13.", "1:22-1:29", ""}, {"Unexpected endif directive", "The control directives within this template are unbalanced.", "1:30-1:38", ""}}},
    {Mode::Config, "a = \"%{for x in y}%{else}%{endfor}\"\n", {{"Unexpected else directive", "An else clause is not expected for a for directive.", "1:19-1:26", ""}, {"Unexpected endfor directive", "The control directives within this template are unbalanced.", "1:26-1:35", ""}}},
    {Mode::Config, "a = \"%{for x in y}%{endif}\"\n", {{"Unexpected endif directive", "Expecting an endfor directive corresponding to the for directive at test.hcl:1,6-19.", "1:19-1:27", ""}}},
    {Mode::Config, "a = \"%{if x}%{endfor}\"\n", {{"Unexpected endfor directive", "Expecting an endif directive for the if started at test.hcl:1,6-13.", "1:13-1:22", ""}}},
    {Mode::Config, "a = \"%{for x in y}\"\n", {{"Unexpected end of template", "The for directive at test.hcl:1,6-19 is missing its corresponding endfor directive.", "1:19-1:20", ""}}},
    {Mode::Config, "a = \"%{if x}%{if y}%{endif}\"\n", {{"Unexpected end of template", "The if directive at test.hcl:1,6-13 is missing its corresponding endif directive.", "1:28-1:29", ""}}},
    {Mode::Config, "a = \"\\q ${x y}\"\n", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:6-1:8", ""}, {"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:13-1:14", "1:6-1:14"}}},
    {Mode::Config, "a = \"${x y} \\q\"\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:10-1:11", "1:6-1:11"}, {"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:13-1:15", ""}}},
    {Mode::Config, "a = \"\\q${\"\\r\\z\"}\\w\"\n", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:6-1:8", ""}, {"Invalid escape sequence", "The symbol \"z\" is not a valid escape sequence selector.", "1:13-1:15", ""}, {"Invalid escape sequence", "The symbol \"w\" is not a valid escape sequence selector.", "1:17-1:19", ""}}},
    {Mode::Config, "a = \"\\q%{if x}\\w\"\n", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:6-1:8", ""}, {"Invalid escape sequence", "The symbol \"w\" is not a valid escape sequence selector.", "1:15-1:17", ""}, {"Unexpected end of template", "The if directive at test.hcl:1,8-15 is missing its corresponding endif directive.", "1:17-1:18", ""}}},
    {Mode::Config, "a = \"\\U0011ffff\"\n", {{"Invalid escape sequence", "Cannot encode character U+11ffff in UTF-8.", "1:6-1:16", ""}}},
    {Mode::Config, "a = \"\\u12\" \"\\U123\"\n", {{"Invalid escape sequence", "The \\u escape sequence must be followed by four hexadecimal digits.", "1:6-1:10", ""}, {"Missing newline after argument", "An argument definition must end with a newline.", "1:12-1:13", "1:1-1:13"}}},
    {Mode::Config, "a = \"abc\n\"\n", {{"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.", "1:9-2:1", ""}, {"Unterminated template string", "No closing marker was found for the string.", "1:9-2:1", "1:6-2:1"}}},
    {Mode::Config, "a = \"abc\n", {{"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.", "1:9-2:1", ""}, {"Unterminated template string", "No closing marker was found for the string.", "1:9-2:1", "1:6-2:1"}}},
    {Mode::Config, "a = \"abc", {{"Unterminated template string", "No closing marker was found for the string.", "1:9-1:9", "1:6-1:9"}}},
    {Mode::Config, "a = <<EOT\nabc\n", {{"Unterminated template string", "No closing marker was found for the string.", "3:1-3:1", "2:1-3:1"}}},
    {Mode::Config, "a = <<EOT\nabc\nEOT", {{"Unterminated template string", "No closing marker was found for the string.", "3:4-3:4", "2:1-3:4"}}},
    {Mode::Config, "a = <<EOT\n${x y}\nEOT\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "2:5-2:6", "2:1-2:6"}}},
    {Mode::Config, "a = <<EOT\n%{if x}\nEOT\n", {{"Unexpected end of template", "The if directive at test.hcl:2,1-8 is missing its corresponding endif directive.", "3:1-3:4", ""}}},
    {Mode::Config, "a = <<-EOT\n  ${x\n  EOT\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "3:3-3:6", "2:1-3:6"}}},
    {Mode::Config, "a = \"é${x y}\"\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:11-1:12", "1:6-1:12"}}},
    {Mode::Config, "a = \"${x}\" \"y\"\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "1:12-1:13", "1:1-1:13"}}},
    {Mode::Config, "a = \"${\"${x y}\"}\"\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:13-1:14", "1:9-1:14"}}},
    {Mode::Config, "a = \"${~ x y ~}\"\n", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:12-1:13", "1:6-1:13"}}},
    {Mode::Config, "a = \"%{~ iff ~}\"\n", {{"Invalid template control keyword", "\"iff\" is not a valid template control keyword. Did you mean \"if\"?", "1:10-1:13", "1:6-1:13"}}},
    {Mode::Config, "a = \"%{ if }\"\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:12-1:13", ""}, {"Unexpected end of template", "The if directive at test.hcl:1,6-13 is missing its corresponding endif directive.", "1:13-1:14", ""}}},
    {Mode::Config, "a = \"${}\"\n", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:8-1:9", ""}}},
    {Mode::Config, "a = \"${ x }\" x\n", {{"Missing newline after argument", "An argument definition must end with a newline.", "1:14-1:15", "1:1-1:15"}}},
    {Mode::Config, "a = \"$${x\"\n", {}},
    {Mode::Config, "b {\n  a = (1\n}\nc = 2\n", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "3:1-3:2", "2:7-3:2"}}},
    {Mode::Config, "b {\n  a = [1 2\n  c = 3\n}\nd = 4 e\n", {{"Missing item separator", "Expected a comma to mark the beginning of the next item.", "2:10-2:11", "2:7-2:11"}}},
    {Mode::Config, "b {\n  a = {\n    x = 1 y\n  }\n}\nc = 1 d\n", {{"Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", "3:11-3:12", "2:7-3:12"}}},
    {Mode::Config, "a = f(\n  1,\n  2\n", {{"Unterminated function call", "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.", "1:5-1:7", ""}}},
    {Mode::Config, "a = {\n  b = 1,\n  c = 2 d\n}\n", {{"Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", "3:9-3:10", "1:5-3:10"}}},
    {Mode::Config, "a = [\n  1\n  2\n]\n", {{"Missing item separator", "Expected a comma to mark the beginning of the next item.", "3:3-3:4", "1:5-3:4"}}},
    {Mode::Config, "b \"x\" {\n  c = \"${\"\n}\n", {{"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.", "2:11-3:1", ""}, {"Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.", "3:2-4:1", ""}, {"Unterminated template string", "No closing marker was found for the string.", "2:11-3:1", "2:11-3:1"}}},
    {Mode::Config, "a = x[*].y.*.z\n", {}},
    {Mode::Config, "a = x.*[0]\n", {}},
    {Mode::Config, "a = x[*][*\n", {{"Missing close bracket on splat index", "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").", "2:1-2:1", ""}}},
    {Mode::Config, "block {}block {}\n", {{"Missing newline after block definition", "A block definition must end with a newline.", "1:9-1:14", "1:1-1:14"}}},
    {Mode::Config, "block { block {} }\n", {{"Argument definition required", "A single-line block definition can contain only a single argument. If you meant to define argument \"block\", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.", "1:9-1:16", ""}}},
    {Mode::Config, "block \"invalid ${not_allowed_here} foo\" {}\n", {{"Invalid string literal", "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.", "1:16-1:18", "1:7-1:18"}}},
    {Mode::Config, "\nblock \"invalid\" 1.2 {}\nblock \"valid\" {}\n", {{"Invalid block definition", "Either a quoted string block label or an opening brace (\"{\") is expected here.", "2:17-2:20", "2:1-2:20"}}},
    {Mode::Config, "block \"f\\o\" {}\n", {{"Invalid escape sequence", "The symbol \"o\" is not a valid escape sequence selector.", "1:9-1:11", ""}}},
    {Mode::Config, "a = \"\\uu2022\"\n", {{"Invalid escape sequence", "The \\u escape sequence must be followed by four hexadecimal digits.", "1:6-1:8", ""}}},
    {Mode::Config, "a = \"\\U2022\"\n", {{"Invalid escape sequence", "The \\U escape sequence must be followed by eight hexadecimal digits.", "1:6-1:12", ""}}},
    {Mode::Config, "a = \"\\u20m2\"\n", {{"Invalid escape sequence", "The \\u escape sequence must be followed by four hexadecimal digits.", "1:6-1:10", ""}}},
    {Mode::Config, "a = \"\\U00300000\"\n", {{"Invalid escape sequence", "Cannot encode character U+300000 in UTF-8.", "1:6-1:16", ""}}},
    {Mode::Config, "a = \"\\Ub2705550\"\n", {{"Invalid escape sequence", "Cannot encode character U+b2705550 in UTF-8.", "1:6-1:16", ""}}},
    {Mode::Config, "a = foo.0.1.baz\n", {{"Invalid legacy index syntax", "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [0][1].", "1:9-1:12", ""}}},
    {Mode::Config, "a = [for k, v in foo: k => v... if true]\n", {{"Invalid 'for' expression", "Key expression is not valid when building a tuple.", "1:23-1:24", "1:5-1:41"}, {"Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", "1:29-1:32", "1:5-1:41"}}},
    {Mode::Config, "a = 1,", {{"Unexpected comma after argument", "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.", "1:6-1:7", "1:1-1:7"}}},
    {Mode::Config, "a = `str`", {{"Invalid character", "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".", "1:5-1:6", ""}, {"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:5-1:6", ""}}},
    {Mode::Config, "a = 'str'", {{"Invalid character", "Single quotes are not valid. Use double quotes (\") to enclose strings.", "1:5-1:6", ""}, {"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:5-1:6", ""}}},
    {Mode::Config, "block \"unterminated_string \"name\" {}", {{"Unterminated string literal", "Unable to find the closing quote mark before the end of the file.", "1:37-1:37", "1:33-1:37"}, {"Invalid block definition", "Either a quoted string block label or an opening brace (\"{\") is expected here.", "1:37-1:37", "1:1-1:37"}}},
    {Mode::Config, "blah {\n", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:6-1:7", ""}}},
    {Mode::Config, "blah {\n  a = 1\n", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:6-1:7", ""}}},
    {Mode::Config, "blah {", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:6-1:7", ""}}},
    {Mode::Config, "blah { a = 1", {{"Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:6-1:7", "1:1-1:7"}}},
    {Mode::Config, "foo = { a = 1", {{"Unterminated object constructor expression", "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:7-1:8", ""}}},
    {Mode::Config, "foo = { a ", {{"Unterminated object constructor expression", "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", "1:7-1:8", ""}}},
    {Mode::Config, "foo = [ a", {{"Unterminated tuple constructor expression", "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.", "1:7-1:8", ""}}},
    {Mode::Config, "foo = boop(\"a\"", {{"Unterminated function call", "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.", "1:7-1:12", ""}}},
    {Mode::Config, "foo = (1", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:9-1:9", "1:7-1:9"}}},
    {Mode::Config, "foo = \"${a", {{"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.", "1:8-1:10", ""}}},
    {Mode::Config, "foo = \"${a\"", {{"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.", "1:8-1:10", ""}}},
    {Mode::Config, "foo = \"${a}", {{"Unterminated template string", "No closing marker was found for the string.", "1:12-1:12", "1:8-1:12"}}},
    {Mode::Config, "foo = {", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:8-1:8", ""}}},
    {Mode::Config, "foo = [", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:8-1:8", ""}}},
    {Mode::Config, "foo = foo(", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:11-1:11", ""}}},
    {Mode::Expr, "1 2", {{"Extra characters after expression", "An expression was successfully parsed, but extra characters were found after it.", "1:3-1:4", ""}}},
    {Mode::Expr, "", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:1-1:1", ""}}},
    {Mode::Expr, "(1", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:3-1:3", "1:1-1:3"}}},
    {Mode::Expr, "a b c", {{"Extra characters after expression", "An expression was successfully parsed, but extra characters were found after it.", "1:3-1:4", ""}}},
    {Mode::Expr, "[1,\n2", {{"Unterminated tuple constructor expression", "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.", "1:1-1:2", ""}}},
    {Mode::Expr, "a ? b", {{"Missing false expression in conditional", "The conditional operator (...?...:...) requires a false expression, delimited by a colon.", "1:6-1:6", "1:1-1:6"}}},
    {Mode::Expr, "a = 1", {{"Extra characters after expression", "An expression was successfully parsed, but extra characters were found after it.", "1:3-1:4", ""}}},
    {Mode::Expr, "\"${a\"", {{"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.", "1:2-1:4", ""}}},
    {Mode::Expr, "1 +", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:4-1:4", ""}}},
    {Mode::Expr, "!", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:2-1:2", ""}}},
    {Mode::Expr, "-", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:2-1:2", ""}}},
    {Mode::Expr, "{a = 1 b = 2}", {{"Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", "1:8-1:9", "1:1-1:9"}}},
    {Mode::Expr, "{a = 1\n b = 2 c}", {{"Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", "2:8-2:9", "1:1-2:9"}}},
    {Mode::Expr, "f(a b)", {{"Missing argument separator", "A comma is required to separate each function argument from the next.", "1:5-1:6", "1:1-1:6"}}},
    {Mode::Expr, "[for x in y: x => x]", {{"Invalid 'for' expression", "Key expression is not valid when building a tuple.", "1:14-1:15", "1:1-1:21"}}},
    {Mode::Expr, "x.*.*", {{"Nested splat expression not allowed", "A splat expression (*) cannot be used inside another attribute-only splat expression.", "1:5-1:6", ""}}},
    {Mode::Expr, "x[*", {{"Missing close bracket on splat index", "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").", "1:4-1:4", ""}}},
    {Mode::Expr, "\"\\q\" + \"${1 2}\"", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:2-1:4", ""}, {"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:13-1:14", "1:9-1:14"}}},
    {Mode::Expr, "(a b) c", {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:4-1:5", "1:1-1:5"}}},
    {Mode::Expr, "a.", {{"Invalid attribute name", "An attribute name is required after a dot.", "1:3-1:3", ""}}},
    {Mode::Expr, "a.[0].b c", {{"Invalid attribute name", "An attribute name is required after a dot.", "1:3-1:4", ""}}},
    {Mode::Expr, "1e9999999999", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:1-1:13", ""}}},
    {Mode::Expr, "1.5.2", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:1-1:6", ""}}},
    {Mode::Expr, "1..2", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:1-1:5", ""}}},
    {Mode::Expr, "<<EOT\nabc\n", {{"Unterminated template string", "No closing marker was found for the string.", "3:1-3:1", "2:1-3:1"}}},
    // cty reads numbers into a 512-bit binary float: the decimal exponent
    // must fit in 64 bits and the binary exponent in 32.
    {Mode::Expr, "1e2147483646", {}},
    {Mode::Expr, "1e2147483647", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:1-1:13", ""}}},
    {Mode::Expr, "0e9999999999", {}},
    {Mode::Expr, "0e99999999999999999999", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:1-1:23", ""}}},
    {Mode::Expr, "1e-2147483649", {}},
    {Mode::Expr, "1e9223372036854775808", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:1-1:22", ""}}},
    {Mode::Template, "${a", {{"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.", "1:1-1:3", ""}}},
    {Mode::Template, "%{if a}", {{"Unexpected end of template", "The if directive at test.hcl:1,1-8 is missing its corresponding endif directive.", "1:8-1:8", ""}}},
    {Mode::Template, "%{ endif }", {{"Unexpected endif directive", "The control directives within this template are unbalanced.", "1:1-1:11", ""}}},
    {Mode::Template, "${a b}", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:5-1:6", "1:1-1:6"}}},
    {Mode::Template, "%{ bogus }", {{"Invalid template control keyword", "\"bogus\" is not a valid template control keyword.", "1:4-1:9", "1:1-1:9"}}},
    {Mode::Template, "hello ${", {{"Missing expression", "Expected the start of an expression, but found the end of the file.", "1:9-1:9", ""}}},
    {Mode::Template, "\\q", {}},
    {Mode::Template, "%{for x in y}${x}%{endfor", {{"Extra characters in endfor marker", "Expected a closing brace to end the sequence, but found extra characters.", "1:26-1:26", "1:1-1:26"}}},
    {Mode::Template, "a%{if}b", {{"Invalid expression", "Expected the start of an expression, but found an invalid expression token.", "1:6-1:7", ""}, {"Unexpected end of template", "The if directive at test.hcl:1,2-7 is missing its corresponding endif directive.", "1:8-1:8", ""}}},
    {Mode::Template, "${~a b~}", {{"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:6-1:7", "1:1-1:7"}}},
    {Mode::Template, "${a:b}", {{"Extra characters after interpolation expression", "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".", "1:4-1:5", "1:1-1:5"}}},
    {Mode::Template, "%{if a}x%{else}y%{else}z%{endif}", {{"Unexpected else directive", "Already in the else clause for the if started at test.hcl:1,1-8.", "1:17-1:24", ""}, {"Unexpected endif directive", "The control directives within this template are unbalanced.", "1:25-1:33", ""}}},
    {Mode::Template, "%{for x in y}%{endif}", {{"Unexpected endif directive", "Expecting an endfor directive corresponding to the for directive at test.hcl:1,1-14.", "1:14-1:22", ""}}},
    {Mode::Template, "${\"\\q\"} ${1 2}", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:4-1:6", ""}, {"Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".", "1:13-1:14", "1:1-1:14"}}},
    {Mode::Template, "%{ for 1 }x", {{"Invalid 'for' directive", "For directive requires variable name after 'for'.", "1:8-1:9", ""}}},
    {Mode::Template, "%{ if a b }x%{ endif }", {{"Extra characters in if marker", "Expected a closing brace to end the sequence, but found extra characters.", "1:9-1:10", "1:1-1:10"}}},
    {Mode::Template, "${\"a\"", {{"Unclosed template interpolation sequence", "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.", "1:1-1:3", ""}}},
    {Mode::Traversal, "", {{"Variable name required", "Must begin with a variable name.", "1:1-1:1", ""}}},
    {Mode::Traversal, "1", {{"Variable name required", "Must begin with a variable name.", "1:1-1:2", ""}}},
    {Mode::Traversal, "a.", {{"Attribute name required", "Dot must be followed by attribute name.", "1:3-1:3", "1:1-1:3"}}},
    {Mode::Traversal, "a.*", {{"Attribute name required", "Splat expressions (.*) may not be used here.", "1:3-1:4", "1:1-1:4"}}},
    {Mode::Traversal, "a[*]", {{"Attribute name required", "Splat expressions ([*]) may not be used here.", "1:3-1:4", "1:1-1:4"}}},
    {Mode::Traversal, "a[x]", {{"Index value required", "Index brackets must contain either a literal number or a literal string.", "1:3-1:4", "1:1-1:4"}}},
    {Mode::Traversal, "a[1", {{"Unclosed index brackets", "Index key must be followed by a closing bracket.", "1:4-1:4", "1:2-1:4"}}},
    {Mode::Traversal, "a[\"x\"", {{"Unclosed index brackets", "Index key must be followed by a closing bracket.", "1:6-1:6", "1:2-1:6"}}},
    {Mode::Traversal, "a b", {{"Invalid character", "Expected an attribute access or an index operator.", "1:3-1:4", "1:1-1:4"}}},
    {Mode::Traversal, "a[\"${x}\"]", {{"Invalid string literal", "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.", "1:4-1:6", "1:3-1:6"}}},
    {Mode::Traversal, "a[\"\\q\"]", {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "1:4-1:6", ""}}},
    {Mode::Traversal, "a[1e99999999999]", {{"Invalid number literal", "Failed to recognize the value of this number literal.", "1:3-1:16", ""}}},
    {Mode::Traversal, "a.b[0][\"c\"] d", {{"Invalid character", "Expected an attribute access or an index operator.", "1:13-1:14", "1:1-1:14"}}},
    {Mode::Traversal, "a.1", {{"Attribute name required", "Dot must be followed by attribute name.", "1:3-1:4", "1:1-1:4"}}},
    {Mode::Traversal, "a[1].", {{"Attribute name required", "Dot must be followed by attribute name.", "1:6-1:6", "1:1-1:6"}}},

};

INSTANTIATE_TEST_SUITE_P(Table, Recover, ::testing::ValuesIn(kCases));

// --- partial trees -------------------------------------------------------------

// Parses [src] as a config with the recovering parser.
FileParse recover_file(const std::string& src) { return parse_config_via(make_source("test.hcl", src), Path::Recover); }

// A block whose header breaks keeps its labels; its braces are the
// reference's placeholders at the type keyword, so its range (keyword to
// closing brace) is the keyword: hcled finds no block around the header
// (terraform validate -json's snippet has no context there).
TEST(RecoverTree, BrokenBlockHeaderSpansItsKeyword) {
  FileParse r = recover_file("b \"x\" 1 {}\n");
  ASSERT_NE(r.body, nullptr);
  ASSERT_EQ(r.body->blocks.size, 1u);
  const ast::Block& b = *r.body->blocks[0];
  ASSERT_EQ(b.labels.size, 1u);
  EXPECT_EQ(b.labels[0], "x");
  EXPECT_EQ(span_text(r.source->range(b.span)), "1:1-1:2");
  ASSERT_NE(b.body, nullptr);
}

// The first definition of a repeated attribute is the one kept.
TEST(RecoverTree, RedefinedAttributeKeepsTheFirst) {
  FileParse r = recover_file("a = 1\na = 2\n");
  ASSERT_NE(r.body, nullptr);
  ASSERT_EQ(r.body->attributes.size, 1u);
  EXPECT_EQ(span_text(r.source->range(r.body->attributes[0]->span)), "1:1-1:6");
}

// A failed directive adds nothing to the template, but its `%{~` still trims
// the literal before it; the literals around it become one.
TEST(RecoverTree, FailedDirectiveStillTrims) {
  FileParse r = recover_file("a = \"x %{~ bogus } y\"\n");
  ASSERT_NE(r.body, nullptr);
  ASSERT_EQ(r.body->attributes.size, 1u);
  const ast::Expr* e = r.body->attributes[0]->expr;
  ASSERT_EQ(e->kind, ast::ExprKind::Template);
  const auto& t = ast::as<ast::TemplateExpr>(*e);
  ASSERT_EQ(t.parts.size, 1u);
  ASSERT_EQ(t.parts[0]->kind, ast::ExprKind::Literal);
  EXPECT_EQ(ast::as<ast::LiteralExpr>(*t.parts[0]).value.text, "x y");
}

// A strip marker after a failed directive cannot reach the literal before it.
TEST(RecoverTree, StripMarkerDoesNotReachAcrossFailedDirective) {
  FileParse r = recover_file("a = \"x %{ bogus }${~y}\"\n");
  ASSERT_NE(r.body, nullptr);
  const ast::Expr* e = r.body->attributes[0]->expr;
  ASSERT_EQ(e->kind, ast::ExprKind::Template);
  const auto& t = ast::as<ast::TemplateExpr>(*e);
  ASSERT_GE(t.parts.size, 1u);
  ASSERT_EQ(t.parts[0]->kind, ast::ExprKind::Literal);
  EXPECT_EQ(ast::as<ast::LiteralExpr>(*t.parts[0]).value.text, "x ");
}

// An object keeps the item whose value failed (newest reference).
TEST(RecoverTree, ObjectKeepsItemWithBrokenValue) {
  FileParse r = recover_file("a = {x = 1, y = (2 3)}\n");
  ASSERT_NE(r.body, nullptr);
  const ast::Expr* e = r.body->attributes[0]->expr;
  ASSERT_EQ(e->kind, ast::ExprKind::Object);
  EXPECT_EQ(ast::as<ast::ObjectExpr>(*e).items.size, 2u);
}

// A namespaced call keeps its full name.
TEST(RecoverTree, NamespacedCallName) {
  ExprParse r = parse_expression_via(make_source("test.hcl", "provider::aws::arn(1) 2"), Path::Recover);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  ASSERT_NE(r.expr, nullptr);
  ASSERT_EQ(r.expr->kind, ast::ExprKind::FunctionCall);
  const auto& call = ast::as<ast::FunctionCallExpr>(*r.expr);
  EXPECT_EQ(call.name, "provider::aws::arn");
  EXPECT_EQ(span_text(r.source->range(call.name_span)), "1:1-1:19");
}

// A relative traversal (the reference has no parser for these) follows
// the absolute traversal's step rules without the root name.
TEST(RecoverTree, RelativeTraversal) {
  TraversalParse ok = parse_traversal_rel(make_source("test.hcl", ".b[0][\"c\"]"));
  EXPECT_TRUE(ok.diagnostics.empty()) << render(ok.diagnostics);
  ASSERT_EQ(ok.traversal.size, 3u);
  EXPECT_EQ(ok.traversal[0].kind, ast::StepKind::Attr);
  EXPECT_EQ(ok.traversal[2].key().text, "c");
  TraversalParse bad = parse_traversal_rel(make_source("test.hcl", ".b c"));
  ASSERT_EQ(bad.diagnostics.size(), 1u);
  EXPECT_EQ(bad.diagnostics[0].summary, "Invalid character");
  EXPECT_EQ(span_text(bad.diagnostics[0].subject), "1:4-1:5");
  EXPECT_EQ(span_text(bad.diagnostics[0].context), "1:1-1:5");
}

// --- deep nesting ----------------------------------------------------------------

// Returns [s] repeated [n] times.
std::string rep(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// Nesting deeper than the parser's first try may go on the caller's stack
// (it then starts over on a thread with a big stack) still gives exactly
// the reference's diagnostics, each once. The reference handles these
// depths (it dies of a stack overflow only near 100,000 levels).
TEST(RecoverDeep, SameDiagnosticsAsReference) {
  struct Deep {
    std::string src;
    std::vector<Want> want;
  };
  const Deep cases[] = {
      {"a = " + rep("(", 9000) + "1 2" + rep(")", 9000) + "\nb = 1 c\n",
       {{"Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", "1:9007-1:9008",
         "1:9004-1:9008"}}},
      {rep("a {\n", 9000) + "b = \"\\q\"\nc = 1 d\n",
       {{"Invalid escape sequence", "The symbol \"q\" is not a valid escape sequence selector.", "9001:6-9001:8", ""},
        {"Missing newline after argument", "An argument definition must end with a newline.", "9002:7-9002:8",
         "9002:1-9002:8"}}},
      {"a = " + rep("[\"${", 3000) + "x y",
       {{"Extra characters after interpolation expression",
         "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can "
         "happen when you include interpolation syntax for another language, such as shell scripting, but forget to "
         "escape the interpolation start token. If this is an embedded sequence for another language, escape it by "
         "starting with \"$${\" instead of just \"${\".",
         "1:12007-1:12008", "1:12003-1:12008"}}},
  };
  for (const Deep& c : cases) {
    Diagnostics got = diagnose(Mode::Config, c.src, Path::Recover);
    ASSERT_EQ(render(got), render(c.want)) << c.src.substr(0, 40);
  }
}

// Nesting far deeper than the reference survives gives a result, not a
// crash: here every level is parsed (or, beyond the big stack, reported).
TEST(RecoverDeep, HundredThousandLevelsSurvive) {
  const size_t n = 100000;
  for (const std::string& src : {"a = " + rep("(", n) + "1" + rep(")", n) + " b\n", rep("a {\n", n),
                                 "a = " + rep("-", n) + "x[", "a = x" + rep("[*]", n) + " b\n"}) {
    Diagnostics got = diagnose(Mode::Config, src, Path::Recover);
    EXPECT_FALSE(got.empty());
  }
}

// --- the official spec suite -----------------------------------------------------

// Returns the (line, column, byte) triples of the `from` and `to` blocks of
// every `error` in spec test file [t], in order.
std::vector<std::string> expected_error_ranges(const std::string& t) {
  std::vector<std::string> out;
  std::regex pos(R"((from|to)\s*\{\s*line\s*=\s*(\d+)\s*column\s*=\s*(\d+)\s*byte\s*=\s*(\d+)\s*\})");
  std::string cur;
  for (auto it = std::sregex_iterator(t.begin(), t.end(), pos); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::string p = m[2].str() + ":" + m[3].str();
    if (m[1] == "from") {
      cur = p;
    } else {
      out.push_back(cur + "-" + p);
    }
  }
  return out;
}

// The spec suite's files with syntax errors: same error ranges, in order.
TEST(RecoverSpecSuite, SyntaxErrorCases) {
  std::filesystem::path dir = "/usr/share/gocode/src/github.com/hashicorp/hcl/v2/specsuite/tests";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "spec suite not installed at " << dir;
  int checked = 0;
  for (const char* name : {"structure/blocks/single_oneline_invalid", "structure/blocks/single_unclosed",
                           "structure/attributes/singleline_bad"}) {
    std::string t = test::read_file(dir / (std::string(name) + ".t"));
    std::string hcl = test::read_file(dir / (std::string(name) + ".hcl"));
    std::vector<std::string> want = expected_error_ranges(t);
    ASSERT_FALSE(want.empty()) << name;
    Diagnostics got = parse_config_via(make_source(std::string(name) + ".hcl", hcl), Path::Recover).diagnostics;
    std::vector<std::string> got_ranges;
    for (const Diagnostic& d : got) got_ranges.push_back(span_text(d.subject));
    EXPECT_EQ(got_ranges, want) << name << "\n" << render(got);
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

}  // namespace
}  // namespace hclvm::syntax

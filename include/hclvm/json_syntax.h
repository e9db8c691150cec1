// The JSON syntax of HCL (the reference's json package): a JSON document
// read as a tree that keeps what a plain JSON parser throws away (the order
// of properties, repeated properties, numbers as their source text, the
// position of every value and property name), the mapping of JSON values
// to expressions, and the static analyses of those expressions.
//
//   hclvm::JsonParse p = hclvm::parse_json_config(src);      // or parse_json_expression
//
// Compiling and evaluating JSON values is in hclvm/json_program.h.
//
// Positions are the reference's, which for JSON differ from the native
// syntax's: a tab takes two columns, a carriage return none, and inside a
// string each grapheme cluster one. So JSON nodes carry their positions
// (Pos: line, column, byte) rather than byte spans for Source::range().
// A template inside a string is parsed from the decoded string, as if it
// started one byte and one column after the opening quote (the reference's
// own approximation, which escapes before a template sequence shift).
//
// Bodies (schema-driven content, blocks) are built on this tree elsewhere;
// the tree keeps what they need: property name ranges, object and array
// ranges, the close brace of objects, and "//" properties (body processing
// skips those, expressions do not).
#pragma once

#include <hclvm/analysis.h>
#include <hclvm/arena.h>
#include <hclvm/ast.h>
#include <hclvm/diagnostic.h>
#include <hclvm/syntax.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm {

namespace json {

enum class NodeKind : uint8_t { Object, Array, String, Number, Bool, Null, Invalid };

// A JSON value. [start, end) covers it: from the brace, bracket or quote
// to the matching one, or the whole token. Invalid stands where the input
// had no usable value (the reference's invalidVal): its range is the token
// found there.
struct Node {
  NodeKind kind;
  Pos start, end;
};

// A string with its escapes resolved (invalid UTF-8 and lone surrogates
// become U+FFFD, as Go's encoding/json decodes them).
struct StringNode : Node {
  std::string_view value;
};

// A number as written in the source (a valid JSON number).
struct NumberNode : Node {
  std::string_view text;
};

struct BoolNode : Node {
  bool value;
};

// One property of an object; [name] carries the name's range, quotes
// included (the reference's NameRange).
struct Property {
  StringNode* name;
  Node* value;
};

struct ObjectNode : Node {
  ast::List<Property> properties;  // source order, repeated names kept
  // The closing brace. The placeholder object that stands for a root which
  // is not an object or array has none: zero positions, as the reference's.
  Pos close_start, close_end;
};

struct ArrayNode : Node {
  ast::List<Node*> items;
};

// Downcasts [n] to the node type for its kind (unchecked).
template <class T>
const T& as(const Node& n) { return static_cast<const T&>(n); }

// Returns the range [start, end) of [n] in the file named [filename].
inline Range range(const Node& n, const std::string& filename) {
  return Range{filename, n.start, n.end};
}

// Returns the reference's StartRange of [n]: the opening brace or bracket
// of an object or array, else the whole node.
Range start_range(const Node& n, const std::string& filename);

}  // namespace json

// A JSON parse: the tree (never null, possibly partial after errors) and
// the diagnostics. ParseResult::source holds the document; its Source::pos
// counts columns the native syntax's way, so use the nodes' positions.
struct JsonParse : ParseResult {
  const json::Node* root = nullptr;
};

// Parses [src] as a JSON configuration file (json.Parse / ParseWithStartPos,
// positions counted from [start]): a root that is not an object or array
// is reported and replaced with an empty object at 1:1, byte 0, whatever
// [start] is (as the reference does).
JsonParse parse_json_config(std::shared_ptr<const Source> src, Pos start = Pos{});

// Parses [src] as one JSON value (json.ParseExpression /
// ParseExpressionWithStartPos): any value is fine as the root.
JsonParse parse_json_expression(std::shared_ptr<const Source> src, Pos start = Pos{});

// --- static analysis: overloads of hclvm/analysis.h for JSON values ----------------

// The variables the JSON value [node] of [doc] reads in full expression
// mode: those of each string parsed as a template (none when it does not
// parse), property names before their values.
std::vector<Traversal> variables(const json::Node& node, const JsonParse& doc);

// Returns [node] read as an absolute traversal: a string holding one
// (`"a.b[0]"`, parsed from the opening quote's position, as the reference
// does); anything else gets "Invalid expression" on its range.
TraversalResult abs_traversal_for_expr(const json::Node& node, const JsonParse& doc);

// Returns what abs_traversal_for_expr does, with the root as an Attr step.
TraversalResult rel_traversal_for_expr(const json::Node& node, const JsonParse& doc);

// Returns the name of a string holding a lone identifier, else "".
std::string expr_as_keyword(const json::Node& node, const JsonParse& doc);

struct JsonExprListResult {
  std::vector<const json::Node*> items;  // may be empty without errors: `[]`
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns the items of an array; anything else gets "Invalid expression"
// on its start range.
JsonExprListResult expr_list(const json::Node& node, const JsonParse& doc);

// One property of an object as a key expression and a value expression:
// the key is the name string (evaluated as a template in full mode).
struct JsonKeyValuePair {
  const json::StringNode* key;
  const json::Node* value;
};

struct JsonExprMapResult {
  std::vector<JsonKeyValuePair> pairs;  // source order, repeated names kept
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns the properties of an object; anything else gets "Invalid
// expression" on its start range.
JsonExprMapResult expr_map(const json::Node& node, const JsonParse& doc);

struct JsonExprCallResult {
  // The string's contents parsed as a native expression, which owns the
  // tree that call.arguments point into.
  ExprParse parse;
  StaticCall call;  // empty when there are errors
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Returns the function call a string holds (`"f(a, b)"`, parsed as a native
// expression from the opening quote's position); anything else, or a
// string that does not parse or is no call, gets "Invalid expression" on
// the node's start range.
JsonExprCallResult expr_call(const json::Node& node, const JsonParse& doc);

}  // namespace hclvm

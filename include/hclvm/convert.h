// Conversions between the native syntax and JSON: configuration files as
// JSON documents, and syntax trees as JSON.
//
// native_to_json() writes a configuration file of the native syntax as a
// JSON document. Its default shape is the HCL JSON syntax (a .tf.json or
// .hcl.json file the reference reads as the same body): literals become
// JSON values, templates stay templates ("${...}" and "%{...}" sequences,
// with literal "${" and "%{" escaped), every other expression becomes a
// "${...}" template holding its source text, blocks nest by type and
// labels, and attributes and blocks keep their source order. The JSON
// syntax can keep the order of blocks of different types only at the
// root (where the body becomes an array of objects when block types
// interleave); in a nested body, blocks keep their order within their
// type, and each type stands where its first block stood.
//
//   hclvm::convert::Result r = hclvm::convert::native_to_json("main.tf", text);
//   if (!r.ok()) report(r.diagnostics);   // the file's syntax errors
//   else write(r.text);
#pragma once

#include <hclvm/ast.h>
#include <hclvm/diagnostic.h>
#include <hclvm/syntax.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hclvm {
class Body;
class EvalContext;
}
namespace hclvm::hcldec {
class Spec;
}
namespace hclvm::json {
struct Node;
}

namespace hclvm::convert {

// Which document native_to_json() writes.
enum class Shape : uint8_t {
  JsonSyntax,  // the HCL JSON syntax
  // What @cdktf/hcl2json's parse(filename, contents) returns (the Go
  // hcl2json converter it ships): every block as an array of bodies under
  // its type and labels, attributes after blocks (one of the same name
  // replaces the block), keys in Go's sorted order, numbers as cty prints
  // them, strings escaped as Go's encoding/json does, every expression
  // that is not a literal, tuple, object or template as "${SOURCE}".
  Hcl2Json,
};

struct JsonOptions {
  Shape shape = Shape::JsonSyntax;
  // Hcl2Json: keys in source order rather than sorted (a body's attributes
  // and block types where each first appears).
  bool preserve_order = false;
  // JsonSyntax: comments kept as "//" properties (which the reference's
  // body processing skips): those before an attribute just before it,
  // those before a block first in the block's body, one that trails an
  // item on its line just after it, those at the end of a body last.
  // Comments inside expressions and block headers are dropped.
  bool comments = false;
};

// What a conversion gave.
struct Result {
  std::shared_ptr<const Source> source;  // the file parsed (native_to_json)
  Diagnostics diagnostics;  // the input's syntax errors and warnings
  std::string text;         // the document (ending in a newline); empty on errors
  // Why a file without syntax errors has no document in the shape asked
  // for (JsonSyntax: names, strings or expressions with bytes that are not
  // UTF-8, which the native syntax takes and JSON cannot hold; Hcl2Json:
  // what hcl2json refuses, blocks of one type with and without labels,
  // `-true`); empty otherwise.
  std::string error;
  bool ok() const { return !has_errors(diagnostics) && error.empty(); }
};

// Converts the configuration file [bytes] named [name] of the native
// syntax to the JSON document [options] asks for. A file with syntax
// errors gives its diagnostics (those of parse_config) and no text.
Result native_to_json(std::string name, std::string bytes, const JsonOptions& options = {});

// Writes the parsed body [body] of [src] (a file parsed without errors) as
// the JSON document [options] asks for: the text, or the error.
Result body_to_json(const ast::Body& body, const Source& src, const JsonOptions& options = {});

// Syntax trees as JSON (`hclvm ast --format json`; the schema is in
// docs/ast-json.md): [body], [expr] or the traversal [steps], parsed from
// [src], as one JSON document ending in a newline. Trees with errors (the
// parsers' partial trees) are written too.
std::string ast_body_json(const ast::Body& body, const Source& src);
std::string ast_expr_json(const ast::Expr& expr, const Source& src);
std::string ast_traversal_json(ast::List<ast::Traverser> steps, const Source& src);
// The tree of a document of the JSON syntax ([root] of a JsonParse, see
// hclvm/json_syntax.h): JsonObject (properties: JsonProperty with name,
// name_range and value; close_range), JsonArray (items), JsonString,
// JsonNumber (value: the source text), JsonBool, JsonNull and JsonInvalid
// (where the input had no usable value), each with its range.
std::string ast_json_tree_json(const json::Node& root);

// The Hcl2Json shape (hcl2json.cpp): [body] of [src] as [r]'s text or error.
void body_to_hcl2json(const ast::Body& body, const Source& src, const JsonOptions& options, Result& r);

// One document for a whole module, as @cdktf/hcl2json's convertFiles(dir)
// makes it: the native files [tf_files] (name, bytes; in the order given,
// convertFiles's is by name) joined, each followed by a newline, and
// converted as one file named "hcl2json.tf" in the Hcl2Json shape; then
// each JSON file of [json_files] (plain JSON, as JSON.parse reads it: a
// repeated key keeps its first place and its last value) merged in as
// convertFiles's deepMerge does (objects merged, emptied objects dropped,
// arrays appended, anything else replaced). Syntax errors of the joined
// text or of a JSON file are returned as diagnostics; what hcl2json
// refuses, or a JSON file that is not an object, as the error.
Result module_to_hcl2json(const std::vector<std::pair<std::string, std::string>>& tf_files,
                          const std::vector<std::pair<std::string, std::string>>& json_files,
                          const JsonOptions& options = {});

// --- the shape of an hcldec spec ------------------------------------------------------

// Writes [body] (of either syntax) as the JSON document hcldec's decoding
// with [spec] gives it — blocks as the spec's lists, sets, maps and
// objects, attributes under the spec's names, converted to the spec's
// types — with every attribute that [ctx] (the spec file's variables and
// functions; null: none) cannot evaluate to a known value kept as the
// JSON syntax writes its expression ("${SOURCE}"), so nothing is lost.
// What hcldec reports (unsupported arguments, missing required ones,
// values of the wrong type) is returned in the diagnostics, with no text.
// transform and validate specs read what they wrap (transforms applied
// only to what the context evaluates).
Result body_to_spec_json(const Body& body, const hcldec::Spec& spec, const EvalContext* ctx);

// --- the JSON syntax back to the native syntax --------------------------------------

// Which properties of a JSON body are blocks, and how many labels each
// block type carries. The JSON syntax cannot tell a block from an attribute
// whose value is an object (the reader needs a schema, as the reference's
// does), so converting back to the native syntax takes one: from an hcldec
// spec, from a native file of the same shape, or Terraform's and Packer's
// (config::terraform_layout, config::packer_layout). A property the layout
// does not name is an attribute.
struct BodyLayout {
  struct BlockType {
    std::string type;
    size_t labels = 0;
    std::shared_ptr<const BodyLayout> body;  // the blocks' bodies; null: attributes only
  };
  std::vector<BlockType> blocks;  // distinct types

  // Returns the block type named [type], or null.
  const BlockType* find(std::string_view type) const;
};

// The layout of native body [body]: its block types, each with the label
// count of its first block and the merged layout of all their bodies.
BodyLayout layout_of(const ast::Body& body);
// The layout hcldec spec [spec] reads (its block specs, recursively;
// block_map and block_object labels counted).
BodyLayout layout_of(const hcldec::Spec& spec);

// Converts the JSON-syntax file [bytes] named [name] to the native syntax,
// laid out as hclfmt lays it out: the properties [layout] names as blocks
// (a label level per label, arrays for several blocks), every other
// property as an attribute, "//" properties of bodies as `#` comments.
// Strings are templates: "${EXPR}" becomes EXPR, other templates quoted
// templates; numbers, booleans and null stay literals; objects and arrays
// become object and tuple constructors. What the native syntax cannot
// hold (an attribute or label name it cannot write, a string that is no
// valid template, a block property that is not an object or array of
// objects) gives an error diagnostic at that property and no text. The
// JSON file's own syntax errors are returned as parse_json_config gives
// them.
Result json_to_native(std::string name, std::string bytes, const BodyLayout& layout = {});

}  // namespace hclvm::convert

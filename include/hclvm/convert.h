// Conversions between the native syntax and JSON.
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

namespace hclvm::convert {

// Which document native_to_json() writes.
enum class Shape : uint8_t {
  JsonSyntax,  // the HCL JSON syntax
};

struct JsonOptions {
  Shape shape = Shape::JsonSyntax;
};

// What a conversion gave.
struct Result {
  std::shared_ptr<const Source> source;
  Diagnostics diagnostics;  // the input's syntax errors and warnings
  std::string text;         // the document (ending in a newline); empty on errors
  bool ok() const { return !has_errors(diagnostics); }
};

// Converts the configuration file [bytes] named [name] of the native
// syntax to the JSON document [options] asks for. A file with syntax
// errors gives its diagnostics (those of parse_config) and no text.
Result native_to_json(std::string name, std::string bytes, const JsonOptions& options = {});

// Writes the parsed body [body] of [src] (a file parsed without errors) as
// the JSON document [options] asks for.
std::string body_to_json(const ast::Body& body, const Source& src, const JsonOptions& options = {});

}  // namespace hclvm::convert

// Formatting and lossless editing of the native syntax.
//
// Formatting gives, byte for byte, what the reference formatters give:
// hclfmt (hclwrite.Format) for HCL files in general, and `terraform fmt`
// (the same layout after Terraform's own rewrites of labels, interpolation-
// only values and variable types) for Terraform's files:
//
//   std::string out = hclvm::format::format_hcl("a=1\nbb = [ 1,2 ]\n");
//   // "a  = 1\nbb = [1, 2]\n"
//
// The lossless tree hangs every token of a file, comments, newlines and the
// spaces before each token included, on the structure the parser finds:
// bodies, attributes, blocks, labels, and expressions down to object items,
// tuple elements and call arguments. Printing it gives the file back byte
// for byte, syntax errors or not. A Document edits a file through its tree
// (set, add, remove, rename by path); whatever an edit does not touch keeps
// its bytes and comments:
//
//   hclvm::format::Document doc("main.tf", text);
//   doc.set("resource.aws_s3_bucket.logs.tags.Env", "\"prod\"");
//   doc.remove("variable.unused");
//   write(doc.text());
//
// docs/api.md describes paths and the placement of what edits add.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/diagnostic.h>
#include <hclvm/syntax.h>
#include <hclvm/value.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::format {

// --- formatting ----------------------------------------------------------------

// Which formatter's output to give: hclfmt's or terraform fmt's.
enum class Style : uint8_t { Hcl, Terraform };

// Returns the style terraform fmt and hclfmt imply for file [path]:
// Terraform for *.tf, *.tfvars, *.tftest.hcl and *.tfmock.hcl, Hcl for any
// other name.
Style style_for_path(std::string_view path);

// Returns [src] laid out as hclwrite.Format does: indentation, spaces, and
// the alignment of `=` and trailing comments; tokens themselves are never
// changed. Like the reference it needs no parse and never fails: input with
// syntax errors is laid out token by token all the same.
std::string format_hcl(std::string_view src);

// What formatting a file gave.
struct Result {
  std::shared_ptr<const Source> source;
  Diagnostics diagnostics;  // the file's syntax errors and warnings
  std::string text;         // the formatted file, or the input itself when it has errors
  bool changed = false;     // text differs from the input
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Parses [src] and formats it in [style]. A file with syntax errors is
// left as it is (text is the input) and the errors are returned, as
// terraform fmt and `hclfmt -check` refuse such files.
Result format_file(std::shared_ptr<const Source> src, Style style);

// --- the lossless tree ----------------------------------------------------------

enum class NodeKind : uint8_t {
#define FORMAT_NODE(name, text) name,
#include <hclvm/format_nodes.def>
#undef FORMAT_NODE
};

// Returns the short name of [k] ("attribute", "call", ...).
std::string_view node_kind_name(NodeKind k);

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

// A node owns tokens [first_token, end_token). Children are linked in
// source order; their runs lie inside the node's and do not overlap.
struct Node {
  NodeKind kind;
  uint32_t first_token = 0, end_token = 0;
  NodeId parent = kNoNode, first_child = kNoNode, next_sibling = kNoNode;
  // The parsed node it stands for: an ast::Expr for expressions, an
  // ast::Attribute, ast::Block, ast::Body or ast::ObjectItem, a Label's
  // std::string_view in its block's labels; null for Element and Argument.
  const void* syntax = nullptr;
};

// One token: its kind's name (as in the reference: "Ident", "OQuote", ...),
// its bytes, and the blanks between it and the token before.
struct TokenView {
  std::string_view kind;
  std::string_view text;
  std::string_view space_before;
};

// The lossless tree of one file. Building it scans and parses the file
// once; the tree is immutable.
class Tree {
 public:
  // Builds the tree of [src] (never fails; diagnostics() has its errors).
  explicit Tree(std::shared_ptr<const Source> src);
  ~Tree();
  Tree(Tree&&) noexcept;
  Tree& operator=(Tree&&) noexcept;

  const Source& source() const { return *source_; }
  const std::shared_ptr<const Source>& source_ptr() const { return source_; }
  std::string_view text() const;
  const Diagnostics& diagnostics() const;
  // The parsed file the tree was built on.
  const ast::Body* body() const;

  NodeId root() const { return 0; }
  size_t size() const { return nodes_.size(); }
  const Node& operator[](NodeId id) const { return nodes_[id]; }

  size_t token_count() const;
  TokenView token(uint32_t i) const;

  // Returns the bytes of [id]: from its first token to the end of its last
  // (the blanks before the first token are not included).
  std::string_view bytes(NodeId id) const;
  // Appends [id] printed from its tokens and children to [out], the blanks
  // before its first token included.
  void print(NodeId id, std::string& out) const;
  // Returns the whole tree printed: the file's bytes, unchanged.
  std::string print() const;
  // Returns one line per node, indented by depth: kind, token run and text.
  std::string dump() const;

  // Typed access. Each returns kNoNode or an empty view when [id] has no
  // such part.
  std::string_view name(NodeId id) const;  // Attribute: its name; Block: its type; ObjectItem: its key's text
  NodeId value(NodeId id) const;           // Attribute, ObjectItem: the value; Element, Argument: the expression
  NodeId key(NodeId id) const;             // ObjectItem: the key
  NodeId block_body(NodeId id) const;      // Block: its body
  std::vector<NodeId> children(NodeId id) const;
  std::vector<NodeId> labels(NodeId id) const;         // Block: its Label nodes
  std::string label_value(NodeId label) const;         // a Label's value (escapes decoded)

 private:
  friend class Document;
  struct Impl;
  std::shared_ptr<const Source> source_;
  std::unique_ptr<Impl> impl_;
  std::vector<Node> nodes_;
};

// --- editing ---------------------------------------------------------------------

// A file being edited. Each edit changes the text and builds the tree
// again; an edit that fails changes nothing and says why.
//
// Paths (docs/api.md): segments separated by dots, each an identifier or a
// quoted string, or a selector in brackets. From a body, a segment names
// an attribute or a block type; a block's labels follow as segments
// (`resource.aws_s3_bucket.logs`); `[N]` picks the Nth match (from 0).
// From an object, a segment or `["key"]` names an item; from a tuple, `[N]`
// an element. `resource.aws_s3_bucket.logs.tags.Env`,
// `module.vpc.azs[0]`, `locals[1].name`, `variable."my.var".default`.
class Document {
 public:
  // Reads [text] named [name] (never fails; syntax errors are in
  // diagnostics(), and parts of a file with errors can still be edited).
  Document(std::string name, std::string text);

  const std::string& text() const { return text_; }
  const Tree& tree() const { return *tree_; }
  const Diagnostics& diagnostics() const { return tree_->diagnostics(); }

  // Returns the node [path] names, or kNoNode with the reason in [why].
  NodeId find(std::string_view path, Diagnostics* why = nullptr) const;
  // Returns in [out] the text of what [path] names: an attribute's or an
  // item's value, an element, or a whole block.
  Diagnostics get(std::string_view path, std::string& out) const;

  // Sets what [path] names (an attribute, object item or tuple element) to
  // the expression [expr]; an attribute or item that does not exist is
  // added to the body or object the path leads to.
  Diagnostics set(std::string_view path, std::string_view expr);
  // The same with the value [v], written as an HCL literal.
  Diagnostics set(std::string_view path, const Value& v);
  // Adds [expr] at [path]: a new attribute or object item (it must not
  // exist yet), or a new last element when [path] names a tuple.
  Diagnostics add(std::string_view path, std::string_view expr);
  // The same with the value [v], written as an HCL literal.
  Diagnostics add(std::string_view path, const Value& v);
  // Adds an empty block at [path]: the longest prefix that names a body,
  // then the block's type and labels (`resource.aws_s3_bucket.new`).
  Diagnostics add_block(std::string_view path);
  // Removes the attribute, block, object item or element at [path], with
  // its comments.
  Diagnostics remove(std::string_view path);
  // Replaces the last labels of the block at [path] with [labels].
  Diagnostics rename(std::string_view path, const std::vector<std::string>& labels);

 private:
  // Replaces bytes [begin, end) with [with] if the file still parses as
  // well as before; returns why not otherwise.
  Diagnostics splice(uint32_t begin, uint32_t end, std::string_view with);

  std::string name_;
  std::string text_;
  std::unique_ptr<Tree> tree_;
};

}  // namespace hclvm::format

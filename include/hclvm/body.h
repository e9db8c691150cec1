// Bodies: how applications read a configuration through a schema ("this
// body has these arguments and these blocks"), the same way whichever
// syntax the file was written in. A Body comes from a native-syntax file,
// a JSON-syntax file, or the merge of several bodies; content(schema),
// partial_content(schema) and just_attributes() give the reference's
// answers and diagnostics for each (hcl.Body of hashicorp/hcl: hclsyntax's
// Body, the json package's body, and MergeBodies).
//
//   hclvm::ConfigFile f = hclvm::parse_body(hclvm::make_source("main.tf", bytes));
//   hclvm::BodySchema schema{{{"region", true}}, {{"resource", {"type", "name"}}}};
//   hclvm::ContentResult c = f.body.content(schema);
//   if (const hclvm::Attribute* a = c.content.attributes.find("region")) {
//     hclvm::EvalResult v = a->expr.value(&ctx);
//   }
//   for (const hclvm::Block& b : c.content.blocks)
//     b.body.content(resource_schema);   // blocks nest: the same API again
//
// Ownership: a Body, a Block's body and an Expression share the parsed
// tree and its Source, which live as long as any of them does. All of them
// are immutable values, cheap to copy and safe to use from many threads.
//
// Expressions compile once: the first evaluation of an expression node
// compiles it (the native syntax to bytecode, a JSON value to a
// JsonProgram), and every later evaluation of the same node, through any
// handle, from any thread, reuses that program.
#pragma once

#include <hclvm/analysis.h>
#include <hclvm/diagnostic.h>
#include <hclvm/eval.h>
#include <hclvm/json_program.h>
#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm {

// Which syntax a file, body or expression was written in.
enum class Syntax : uint8_t { Native, Json };

// --- schemas ------------------------------------------------------------------------

struct AttributeSchema {
  std::string name;
  bool required = false;
};

struct BlockHeaderSchema {
  std::string type;
  std::vector<std::string> label_names;  // one per label the block must have
};

struct BodySchema {
  std::vector<AttributeSchema> attributes;
  std::vector<BlockHeaderSchema> blocks;
};

namespace body_detail {
struct Tree;
struct Compiled;
class BodyImpl;
class ExprWrap;
struct Access;
}  // namespace body_detail

// --- expressions --------------------------------------------------------------------

// An expression of either syntax (hcl.Expression): a handle on a node of a
// parsed tree, which it keeps alive. A default-constructed Expression is
// empty (no tree): only operator bool and syntax() may be asked of it.
//
// A handle may also be wrapped: evaluated in a context that adds variables
// (an attribute of a block that a dynamic block made, hclvm/dynblock.h),
// or static (make_static: a fixed value with a range, and no node). A
// wrapped handle keeps its node, so ranges and the static analyses below
// see through the wrapping, as the reference's hcl.UnwrapExpression does.
class Expression {
 public:
  Expression() = default;
  Expression(const Expression& o)
      : tree_(o.tree_), node_(o.node_), wrap_(o.wrap_), compiled_(o.compiled_.load()) {}
  Expression(Expression&& o) noexcept
      : tree_(std::move(o.tree_)),
        node_(o.node_),
        wrap_(std::move(o.wrap_)),
        compiled_(o.compiled_.load()) {}
  Expression& operator=(const Expression& o) {
    tree_ = o.tree_;
    node_ = o.node_;
    wrap_ = o.wrap_;
    compiled_.store(o.compiled_.load());
    return *this;
  }
  Expression& operator=(Expression&& o) noexcept {
    tree_ = std::move(o.tree_);
    node_ = o.node_;
    wrap_ = std::move(o.wrap_);
    compiled_.store(o.compiled_.load());
    return *this;
  }

  // Whether the handle refers to an expression.
  explicit operator bool() const { return node_ != nullptr || wrap_ != nullptr; }
  // The syntax the expression was written in (Native for a static one).
  Syntax syntax() const;
  // The expression's whole source range.
  Range range() const;
  // The reference's StartRange: the opening bracket of a collection, the
  // name and parenthesis of a call, the left operand of an operator...
  Range start_range() const;
  // The variables the expression reads (hcl.Expression.Variables): for a
  // JSON value, those of its strings read as templates. A wrapped
  // expression leaves out those its wrapping provides.
  std::vector<Traversal> variables() const;

  // Evaluates the expression as the reference's Value(ctx) does. With
  // [ctx] null, a native expression may use no variable ("Variables not
  // allowed") and call no function, and a JSON value is read literally
  // (strings are not templates). Compiles the node on first use.
  EvalResult value(Vm& vm, const EvalContext* ctx) const;
  // The same, with a Vm owned by the calling thread (so not from inside a
  // function that an evaluation on this thread is calling).
  EvalResult value(const EvalContext* ctx) const;

  // The node behind the handle: the native one or the JSON one (the other
  // is null; both for a static expression), and the source it was parsed
  // from (an empty one for a static expression).
  const ast::Expr* native_expr() const;
  const json::Node* json_node() const;
  const Source& source() const;
  // Whether the handle is static (make_static).
  bool is_static() const { return node_ == nullptr && wrap_ != nullptr; }

  // Wraps a parsed native expression or template [p] (empty without a tree).
  static Expression from_parse(ExprParse p);
  // Wraps a parsed JSON value [p] (empty without a tree).
  static Expression from_parse(JsonParse p);
  // An expression that evaluates to [v] in any context, reads no variable,
  // and whose range and start range are [r] (hcl.StaticExpr). The static
  // analyses find no traversal, list, map or call in it.
  static Expression make_static(Value v, Range r);

 private:
  friend struct body_detail::Access;
  // Evaluates the node itself, without the wrapping.
  EvalResult node_value(Vm& vm, const EvalContext* ctx) const;

  std::shared_ptr<const body_detail::Tree> tree_;
  const void* node_ = nullptr;
  // The wrapping, or null for a plain handle (the common case: one test).
  std::shared_ptr<const body_detail::ExprWrap> wrap_;
  // The node's program, owned by the tree: found there once per handle, so
  // that evaluating through a handle again takes no lock.
  mutable std::atomic<const body_detail::Compiled*> compiled_{nullptr};
};

// The static analyses of hclvm/analysis.h, for an Expression of either
// syntax; the expressions they return share its tree.

// Returns [e] read as an absolute traversal (hcl.AbsTraversalForExpr).
TraversalResult abs_traversal_for_expr(const Expression& e);
// Returns [e] read as a relative traversal (hcl.RelTraversalForExpr).
TraversalResult rel_traversal_for_expr(const Expression& e);
// Returns the lone identifier [e] is, or "" (hcl.ExprAsKeyword).
std::string expr_as_keyword(const Expression& e);

struct ExpressionListResult {
  std::vector<Expression> items;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};
// Returns the items of [e], a tuple or JSON array (hcl.ExprList).
ExpressionListResult expr_list(const Expression& e);

struct ExpressionPair {
  Expression key;  // native: the object key node; JSON: the property name string
  Expression value;
};

struct ExpressionMapResult {
  std::vector<ExpressionPair> pairs;  // source order
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};
// Returns the items of [e], an object or JSON object (hcl.ExprMap).
ExpressionMapResult expr_map(const Expression& e);

// A function call read statically (hcl.StaticCall).
struct ExpressionCall {
  std::string name;
  Range name_range;
  std::vector<Expression> arguments;
  Range args_range;
  bool expand_final = false;
};

struct ExpressionCallResult {
  ExpressionCall call;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};
// Returns the function call [e] is, or a JSON string holds (hcl.ExprCall).
ExpressionCallResult expr_call(const Expression& e);

// --- content ------------------------------------------------------------------------

struct Attribute {
  std::string name;
  Expression expr;
  Range range;  // from the name to the end of the value
  Range name_range;
};

// Attributes by name (hcl.Attributes), remembering the order they were
// found in: source order within a body, body order in a merged body.
class Attributes {
 public:
  // The attribute [name], or null.
  const Attribute* find(std::string_view name) const;
  // Whether there is an attribute [name].
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  // The attributes in order, by position.
  size_t size() const { return list_.size(); }
  bool empty() const { return list_.empty(); }
  const Attribute& operator[](size_t i) const { return list_[i]; }
  std::vector<Attribute>::const_iterator begin() const { return list_.begin(); }
  std::vector<Attribute>::const_iterator end() const { return list_.end(); }
  // Adds [a] unless its name is taken; returns whether it was added.
  bool add(Attribute a);

 private:
  std::vector<Attribute> list_;
  std::map<std::string, size_t, std::less<>> index_;
};

struct ContentResult;
struct PartialContentResult;
struct AttributesResult;

// A body of either syntax, or a merge of bodies (hcl.Body). A
// default-constructed Body is the empty body (hcl.EmptyBody).
class Body {
 public:
  // Expanded: a body whose dynamic blocks are expanded (dynblock::expand);
  // Unknown: the body of the one block that stands for the blocks of a
  // dynamic block whose for_each is unknown; Other: a kind an application
  // made (such as Terraform's override merge, hclvm/config.h).
  enum class Kind : uint8_t { Native, Json, Merged, Expanded, Unknown, Other };

  Body();
  // What the body is read from.
  Kind kind() const;

  // Reads the body with [schema]; anything the schema does not name is an
  // error ("Unsupported argument", "Extraneous JSON object property"...).
  ContentResult content(const BodySchema& schema) const;
  // Reads what [schema] names and returns the rest as a body of its own,
  // for a later call with another schema.
  PartialContentResult partial_content(const BodySchema& schema) const;
  // Reads every argument, without a schema; blocks are errors.
  AttributesResult just_attributes() const;
  // Where a diagnostic about something missing from the body points.
  Range missing_item_range() const;
  // Whether the body stands for blocks not known yet, so that a decoder
  // should make the whole value of its blocks unknown (the reference's
  // hcldec.UnknownBody): the body of the block that a dynamic block with
  // an unknown for_each expands to. False for every other body.
  bool is_unknown() const;
  // The marks a decoder should put on the value it makes of this body
  // (the reference's hcldec.MarkedBody): those of the for_each of the
  // dynamic block that made it. Empty for every other body.
  Marks value_marks() const;

  // What the body wraps: the native body, the JSON value, or the merged
  // bodies (null or empty for the other kinds).
  const ast::Body* native_body() const;
  const json::Node* json_node() const;
  std::vector<Body> merged() const;

 private:
  friend struct body_detail::Access;
  explicit Body(std::shared_ptr<const body_detail::BodyImpl> impl);
  std::shared_ptr<const body_detail::BodyImpl> impl_;  // null: the empty body
};

struct Block {
  std::string type;
  std::vector<std::string> labels;
  Body body;
  Range def_range;  // native: type to last label; JSON: the brace or bracket
  Range type_range;
  std::vector<Range> label_ranges;
};

struct BodyContent {
  Attributes attributes;
  std::vector<Block> blocks;  // source order
  Range missing_item_range;

  // The blocks of type [type], in order (hcl.Blocks.OfType).
  std::vector<const Block*> blocks_of_type(std::string_view type) const;
};

struct ContentResult {
  BodyContent content;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

struct PartialContentResult {
  BodyContent content;
  Body remain;  // the items the schema did not name
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

struct AttributesResult {
  Attributes attributes;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// --- files --------------------------------------------------------------------------

// A parsed configuration file (hcl.File): its body, even after syntax
// errors (a partial body, as the reference's), and the parse diagnostics.
struct ConfigFile {
  Body body;
  std::shared_ptr<const Source> source;
  Syntax syntax = Syntax::Native;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Parses [src] as a configuration file: JSON syntax when its name ends in
// ".json", native syntax otherwise.
ConfigFile parse_body(std::shared_ptr<const Source> src);
// Parses [src] as a configuration file in the native syntax.
ConfigFile parse_native_body(std::shared_ptr<const Source> src);
// Parses [src] as a configuration file in the JSON syntax.
ConfigFile parse_json_body(std::shared_ptr<const Source> src);

// Wraps an existing parse [p] of a configuration file as a Body (the body
// shares its tree). A FileParse without a body gives the empty body.
Body make_body(FileParse p);
Body make_body(JsonParse p);

// Merges [bodies] into one (hcl.MergeBodies): content is read from each in
// order; an argument set in two of them is a "Duplicate argument", and a
// required argument is checked across all of them. Merged bodies among
// [bodies] are flattened.
Body merge_bodies(std::vector<Body> bodies);
// Merges the bodies of [files] (hcl.MergeFiles).
Body merge_files(const std::vector<ConfigFile>& files);

}  // namespace hclvm

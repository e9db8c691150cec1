// What the files of src/body share: the Tree that bodies and expressions
// keep alive (a parse of either syntax, with the programs compiled from its
// expressions), the interface each kind of body implements, and the
// reference's did-you-mean.
#pragma once

#include <hclvm/body.h>
#include <hclvm/compiled_file.h>
#include <hclvm/json_program.h>

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace hclvm::body_detail {

// One expression compiled for evaluation: a native program or a JSON one.
struct Compiled {
  std::shared_ptr<const Program> native;
  std::shared_ptr<const JsonProgram> json;
  // A program adopted from a file read lazily, decoded when first asked for
  // (then native replaces this entry).
  std::shared_ptr<const detail::LazyProgram> lazy;
  Diagnostics diagnostics;  // what compiling reported, repeated on each evaluation
};

// A parse that bodies and expressions point into: a file or an expression
// of either syntax. Programs are compiled on demand and kept by node, so
// an expression compiles once however many handles refer to it.
struct Tree {
  Syntax syntax = Syntax::Native;
  std::variant<FileParse, ExprParse, JsonParse> parse;

  // The source the tree was parsed from.
  const Source& source() const;
  const std::shared_ptr<const Source>& source_ptr() const;
  // The JSON parse (only when syntax is Json).
  const JsonParse& json() const { return std::get<JsonParse>(parse); }

  // The program of [node] (an ast::Expr or a json::Node of this tree).
  std::shared_ptr<const Compiled> compiled(const void* node) const;
  // Makes [c] the program of [node] unless it has one: a program compiled
  // elsewhere from the same source (a cache entry), so that it is not
  // compiled again.
  void adopt(const void* node, std::shared_ptr<const Compiled> c) const;

 private:
  mutable std::mutex mu_;
  mutable std::unordered_map<const void*, std::shared_ptr<const Compiled>> programs_;
};

using TreePtr = std::shared_ptr<const Tree>;
// Names hidden from a remaining body by the partial content that made it.
using NameSet = std::set<std::string, std::less<>>;

// One kind of body (hcl.Body's implementations).
class BodyImpl {
 public:
  virtual ~BodyImpl() = default;
  virtual Body::Kind kind() const = 0;
  virtual ContentResult content(const BodySchema& schema) const = 0;
  virtual PartialContentResult partial_content(const BodySchema& schema) const = 0;
  virtual AttributesResult just_attributes() const = 0;
  virtual Range missing_item_range() const = 0;
  virtual bool is_unknown() const { return false; }
  virtual Marks value_marks() const { return {}; }
  virtual const ast::Body* native_body() const { return nullptr; }
  virtual const json::Node* json_node() const { return nullptr; }
  virtual std::vector<Body> merged() const { return {}; }
  // The parse the body reads (native and JSON bodies), or null.
  virtual const Tree* tree() const { return nullptr; }
};

// What a wrapped Expression does instead of evaluating its node plainly
// (the reference's expression types that wrap or replace a syntax node:
// dynblock's exprWrap, hcl.StaticExpr).
class ExprWrap {
 public:
  virtual ~ExprWrap() = default;
  virtual EvalResult value(Vm& vm, const EvalContext* ctx) const = 0;
  virtual std::vector<Traversal> variables() const = 0;
  // The range of an expression without a node (null: the node's).
  virtual const Range* static_range() const { return nullptr; }
};

// The implementation of the empty body (a merge of no bodies).
const BodyImpl& empty_body();

// Builds the handles whose constructors the public API keeps private.
struct Access {
  // Returns a Body over [impl].
  static Body body(std::shared_ptr<const BodyImpl> impl) { return Body(std::move(impl)); }
  // Returns what [b] wraps (null for the empty body).
  static const BodyImpl* impl(const Body& b) { return b.impl_.get(); }
  // Returns a handle on [node] of [tree].
  static Expression expression(TreePtr tree, const void* node) {
    Expression e;
    e.tree_ = std::move(tree);
    e.node_ = node;
    return e;
  }
  // The tree and the node of [e].
  static const TreePtr& tree(const Expression& e) { return e.tree_; }
  static const void* node(const Expression& e) { return e.node_; }
  // Returns [e] with [wrap] instead of its own wrapping: the same node
  // (and program), evaluated through [wrap], which usually holds [e].
  static Expression wrapped(const Expression& e, std::shared_ptr<const ExprWrap> wrap) {
    Expression w = e;
    w.wrap_ = std::move(wrap);
    return w;
  }
};

// The native body [b] of [tree], nothing hidden.
Body make_native_body(TreePtr tree, const ast::Body* b);
// The JSON body whose value is [v] (of [tree]), with the names a partial
// content hid.
Body make_json_body(TreePtr tree, const json::Node* v, NameSet hidden_attrs = {});

// Returns the first of [candidates] within an edit distance of 3 of
// [given] (the reference's nameSuggestion), or "".
std::string name_suggestion(std::string_view given, const std::vector<std::string>& candidates);

// A Range whose filename and positions are all zero (Go's hcl.Range{}).
Range zero_range(std::string filename = "");

// The range from the start of [a] to the end of [b] (hcl.RangeBetween).
Range range_between(const Range& a, const Range& b);

}  // namespace hclvm::body_detail

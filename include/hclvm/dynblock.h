// Dynamic blocks (the reference's ext/dynblock): a `dynamic` block stands
// for as many blocks of its label's type as its for_each collection has
// elements, each with the body of its `content` block evaluated with an
// iterator variable (named by `iterator`, by default the block type) whose
// `key` and `value` are those of the element:
//
//   dynamic "setting" {
//     for_each = var.settings
//     iterator = s               # optional
//     labels   = [s.key]         # when blocks of the type have labels
//     content {
//       name  = s.key
//       value = s.value
//     }
//   }
//
//   hclvm::Body body = hclvm::dynblock::expand(file.body, &ctx);
//   hclvm::ContentResult c = body.content(schema);   // "setting" blocks, expanded
//
// Expanding is lazy, as in the reference: expand() returns at once, and
// each content() or partial_content() expands the dynamic blocks of the
// types its schema asks for, in source order among the static blocks of
// the same types; nested blocks are expanded when they are read, so
// dynamic blocks may nest (an inner for_each can read the outer iterator).
// An unknown for_each expands to one block whose body is_unknown(), and
// whose arguments all evaluate to unknown values. Marks on for_each are
// left on every value the blocks made from it produce, and reported by
// their bodies' value_marks().
//
// walk_variables() and walk_expand_variables() find the variables a body
// needs before it can be expanded (and read), level by level with a schema
// for each, seeing through dynamic blocks: for_each, labels, and (for
// walk_variables) the arguments of the content, without the iterators.
#pragma once

#include <hclvm/body.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::dynblock {

// A check of a for_each value made before the built-in ones (the
// reference's OptCheckForEach): [value] as evaluated (marks and all), the
// for_each expression and the context it was evaluated in. Errors among
// the diagnostics it returns skip the dynamic block.
using ForEachCheck =
    std::function<Diagnostics(const Value& value, const Expression& expr, const EvalContext* ctx)>;

struct ExpandOptions {
  std::vector<ForEachCheck> check_for_each;  // run in order
};

// Returns [body] with its dynamic blocks expanded (dynblock.Expand).
// [ctx] evaluates for_each and labels; it may be null, and must outlive the
// returned body and the bodies and expressions read from it (the iterators
// are added to children of it). Arguments are evaluated with the context
// their caller gives, plus the iterators of the blocks around them.
Body expand(Body body, const EvalContext* ctx, ExpandOptions options = {});

struct WalkVisit;

// One body of a walk (dynblock.WalkVariablesNode). Cheap to copy.
class WalkNode {
 public:
  // Returns the variables that the dynamic blocks directly in the body (and
  // for walk_variables, the arguments of [schema]) read, and the children
  // to visit next, each with the schema of its block type
  // (WalkVariablesNode.Visit). Nothing here is reported as an error:
  // erroneous dynamic blocks still give what can be found in them.
  WalkVisit visit(const BodySchema& schema) const;
  // The body of the node, for a caller that chooses a schema by content.
  const Body& body() const { return body_; }

 private:
  friend WalkNode walk_variables(Body body);
  friend WalkNode walk_expand_variables(Body body);
  struct Iterators;
  WalkNode(Body body, std::shared_ptr<const Iterators> iterators, bool include_content);

  Body body_;
  std::shared_ptr<const Iterators> iterators_;  // of the dynamic blocks around; null at the top
  bool include_content_ = false;
};

// A child of a body in a walk: a nested block (for a dynamic block, its
// content) whose body is read with the schema of blocks of [block_type].
struct WalkChild {
  std::string block_type;
  WalkNode node;
};

struct WalkVisit {
  std::vector<Traversal> variables;  // those the expansion (and content) needs here
  std::vector<WalkChild> children;   // in source order
};

// The walk of the variables that expanding [body] and reading the result
// need (dynblock.WalkVariables): the root node.
WalkNode walk_variables(Body body);
// The walk of only those that expanding [body] needs: for_each and labels,
// not the content (dynblock.WalkExpandVariables).
WalkNode walk_expand_variables(Body body);

// The schemas of a tree of bodies, for walk_tree: what a decoder's spec
// knows (the reference's VariablesHCLDec reads hcldec.ImpliedSchema and
// hcldec.ChildBlockTypes).
class WalkSchema {
 public:
  virtual ~WalkSchema() = default;
  // The schema to visit a body with.
  virtual BodySchema schema() const = 0;
  // The schemas for the body of a block of type [block_type], or null to
  // leave such blocks out of the walk.
  virtual std::shared_ptr<const WalkSchema> child(std::string_view block_type) const = 0;
};

// Walks the whole tree from [node] down, visiting each body with the schema
// [schema] gives it: the variables of the node, then those of each child
// in order, depth first.
std::vector<Traversal> walk_tree(const WalkNode& node, const WalkSchema& schema);

}  // namespace hclvm::dynblock

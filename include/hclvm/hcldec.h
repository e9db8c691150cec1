// Schema-driven decoding (the reference's hcldec package): a Spec describes
// how to turn a body into one value — which arguments and blocks it reads,
// what types they must have, and how the results nest — and decode() reads
// a body with it, validating as it goes:
//
//   using namespace hclvm::hcldec;
//   auto spec = object_spec({
//       {"name", attr_spec("name", Type::string(), /*required=*/true)},
//       {"ports", block_list_spec("port", object_spec({{"number", attr_spec("number",
//                                                                 Type::number())}}))},
//   });
//   DecodeResult r = decode(file.body, *spec, &ctx);   // r.value: an object
//
// The spec kinds are the reference's, with its results, implied types,
// schemas and diagnostics:
//
//   ObjectSpec       an object, one attribute per child spec (same body)
//   TupleSpec        a tuple, one element per child spec (same body)
//   AttrSpec         an argument's value converted to a type; null if absent
//   LiteralSpec      a fixed value
//   ExprSpec         an expression evaluated in the decode context
//   BlockSpec        the nested spec applied to the one block of a type
//   BlockListSpec    a list, one element per block of a type (min/max items)
//   BlockTupleSpec   a tuple, as BlockListSpec, elements of any types
//   BlockSetSpec     a set, as BlockListSpec
//   BlockMapSpec     nested maps keyed by the blocks' labels
//   BlockObjectSpec  nested objects keyed by the blocks' labels
//   BlockAttrsSpec   a map from the arguments of the one block of a type
//   BlockLabelSpec   a label of the block whose body is being decoded
//   DefaultSpec      the primary spec's value, or the default's when null
//   TransformExprSpec  an expression over the wrapped spec's value (`nested`)
//   TransformFuncSpec  a function applied to the wrapped spec's value
//   ValidateSpec     the wrapped spec's value, checked by a callback
//
// Where the reference iterates a Go map (the children of an ObjectSpec), we
// go in sorted key order, so schemas and diagnostics come in a fixed order.
//
// Specs are immutable once built and may be shared between threads; decode
// evaluates expressions on the calling thread's Vm (Expression::value).
#pragma once

#include <hclvm/body.h>
#include <hclvm/diagnostic.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/type.h>
#include <hclvm/typeexpr.h>
#include <hclvm/value.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace hclvm::hcldec {

// A label of the block whose body a nested spec decodes.
struct BlockLabel {
  std::string value;
  Range range;
};

class Spec;
using SpecPtr = std::shared_ptr<const Spec>;
using VisitFn = std::function<void(const Spec&)>;

// One spec kind. The methods are the reference's Spec interface and its
// optional parts (attrSpec, blockSpec, specNeedingVariables); applications
// use the free functions below instead.
class Spec {
 public:
  virtual ~Spec() = default;

  // The value of this spec for [content] (the body read with the implied
  // schema of the spec tree it belongs to), [labels] of the enclosing block.
  virtual Value decode(const BodyContent& content, std::span<const BlockLabel> labels,
                       const EvalContext* ctx, Diagnostics& diags) const = 0;
  // The type decode() returns.
  virtual const Type* implied_type() const = 0;
  // Calls [fn] for each child spec that reads the same body.
  virtual void visit_same_body_children(const VisitFn& fn) const;
  // Where the value comes from, or where it would be added.
  virtual Range source_range(const BodyContent& content,
                             std::span<const BlockLabel> labels) const = 0;
  // The arguments this spec reads from the body (attrSpec).
  virtual void attr_schemata(std::vector<AttributeSchema>& out) const;
  // The block types this spec reads from the body (blockSpec).
  virtual void block_header_schemata(std::vector<BlockHeaderSchema>& out) const;
  // The spec for the bodies of those blocks; null when this is no block spec.
  virtual const Spec* nested_spec() const;
  // The variables decoding would read from [content] (specNeedingVariables).
  virtual void variables_needed(const BodyContent& content, std::vector<Traversal>& out) const;
};

struct ObjectSpec final : Spec {
  std::vector<std::pair<std::string, SpecPtr>> attrs;  // sorted by name, distinct

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
  void visit_same_body_children(const VisitFn& fn) const override;
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
};

struct TupleSpec final : Spec {
  std::vector<SpecPtr> elems;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
  void visit_same_body_children(const VisitFn& fn) const override;
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
};

struct AttrSpec final : Spec {
  std::string name;
  const Type* type = Type::dynamic();
  bool required = false;
  // Defaults for the optional attributes of [type] (a type constraint read
  // with hclvm/typeexpr.h), inserted into the value before it is converted
  // to [type], as Terraform does for variables. Null: none.
  std::shared_ptr<const TypeDefaults> defaults;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return type; }
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
  void attr_schemata(std::vector<AttributeSchema>& out) const override;
  void variables_needed(const BodyContent&, std::vector<Traversal>& out) const override;
};

struct LiteralSpec final : Spec {
  Value value;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override {
    return value;
  }
  const Type* implied_type() const override { return value.type(); }
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
};

struct ExprSpec final : Spec {
  Expression expr;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return Type::dynamic(); }
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override {
    return expr.range();
  }
  void variables_needed(const BodyContent&, std::vector<Traversal>& out) const override;
};

// What the block specs share: the block type and the nested spec.
struct BlockSpecBase : Spec {
  std::string type_name;
  SpecPtr nested;

  void block_header_schemata(std::vector<BlockHeaderSchema>& out) const override;
  const Spec* nested_spec() const override { return nested.get(); }
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
  void variables_needed(const BodyContent&, std::vector<Traversal>& out) const override;

 protected:
  // The labels the blocks carry before those the nested spec reads.
  virtual std::span<const std::string> leading_labels() const { return {}; }
};

struct BlockSpec final : BlockSpecBase {
  bool required = false;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
};

// BlockListSpec, BlockSetSpec and BlockTupleSpec.
struct BlockSequenceSpec : BlockSpecBase {
  int64_t min_items = 0;
  int64_t max_items = 0;  // 0: no limit
};

struct BlockListSpec final : BlockSequenceSpec {
  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
};

struct BlockSetSpec final : BlockSequenceSpec {
  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
};

struct BlockTupleSpec final : BlockSequenceSpec {
  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return Type::dynamic(); }
};

// BlockMapSpec and BlockObjectSpec.
struct BlockKeyedSpec : BlockSpecBase {
  std::vector<std::string> label_names;  // at least one

 protected:
  std::span<const std::string> leading_labels() const override { return label_names; }
};

struct BlockMapSpec final : BlockKeyedSpec {
  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
};

struct BlockObjectSpec final : BlockKeyedSpec {
  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return Type::dynamic(); }
};

struct BlockAttrsSpec final : Spec {
  std::string type_name;
  const Type* element_type = Type::dynamic();
  bool required = false;
  // Defaults for [element_type]'s optional attributes, as in AttrSpec.
  std::shared_ptr<const TypeDefaults> defaults;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return Type::map(element_type); }
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
  void block_header_schemata(std::vector<BlockHeaderSchema>& out) const override;
  const Spec* nested_spec() const override;
  void variables_needed(const BodyContent&, std::vector<Traversal>& out) const override;
};

// Only inside the nested spec of a block spec; the indices of the label
// specs read from one body must run 0, 1, ... without gaps.
struct BlockLabelSpec final : Spec {
  size_t index = 0;
  std::string name;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return Type::string(); }
  Range source_range(const BodyContent&, std::span<const BlockLabel>) const override;
};

// The default spec must not read blocks (only the primary's blocks count).
struct DefaultSpec final : Spec {
  SpecPtr primary;
  SpecPtr fallback;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return primary->implied_type(); }
  void visit_same_body_children(const VisitFn& fn) const override;
  Range source_range(const BodyContent& c, std::span<const BlockLabel> l) const override {
    return primary->source_range(c, l);
  }
  void attr_schemata(std::vector<AttributeSchema>& out) const override;
  void block_header_schemata(std::vector<BlockHeaderSchema>& out) const override;
  const Spec* nested_spec() const override { return primary->nested_spec(); }
};

struct TransformExprSpec final : Spec {
  SpecPtr wrapped;
  Expression expr;
  // The parent of the context [expr] is evaluated in (may be null), and
  // the name of the variable holding the wrapped value.
  std::shared_ptr<const EvalContext> transform_ctx;
  std::string var_name = "nested";

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
  void visit_same_body_children(const VisitFn& fn) const override { fn(*wrapped); }
  Range source_range(const BodyContent& c, std::span<const BlockLabel> l) const override {
    return wrapped->source_range(c, l);
  }
};

// The function must take exactly one argument.
struct TransformFuncSpec final : Spec {
  SpecPtr wrapped;
  std::shared_ptr<const Function> func;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override;
  void visit_same_body_children(const VisitFn& fn) const override { fn(*wrapped); }
  Range source_range(const BodyContent& c, std::span<const BlockLabel> l) const override {
    return wrapped->source_range(c, l);
  }
};

// Diagnostics without a subject get the wrapped spec's source range.
struct ValidateSpec final : Spec {
  SpecPtr wrapped;
  std::function<Diagnostics(const Value&)> func;

  Value decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext*,
               Diagnostics&) const override;
  const Type* implied_type() const override { return wrapped->implied_type(); }
  void visit_same_body_children(const VisitFn& fn) const override { fn(*wrapped); }
  Range source_range(const BodyContent& c, std::span<const BlockLabel> l) const override {
    return wrapped->source_range(c, l);
  }
};

// --- building specs ----------------------------------------------------------------

// An ObjectSpec of [attrs] (any order; a later duplicate name replaces an
// earlier one, as in a Go map).
SpecPtr object_spec(std::vector<std::pair<std::string, SpecPtr>> attrs);
SpecPtr tuple_spec(std::vector<SpecPtr> elems);
SpecPtr attr_spec(std::string name, const Type* type = Type::dynamic(), bool required = false,
                  std::shared_ptr<const TypeDefaults> defaults = nullptr);
SpecPtr literal_spec(Value v);
SpecPtr expr_spec(Expression e);
SpecPtr block_spec(std::string type_name, SpecPtr nested, bool required = false);
SpecPtr block_list_spec(std::string type_name, SpecPtr nested, int64_t min_items = 0,
                        int64_t max_items = 0);
SpecPtr block_set_spec(std::string type_name, SpecPtr nested, int64_t min_items = 0,
                       int64_t max_items = 0);
SpecPtr block_tuple_spec(std::string type_name, SpecPtr nested, int64_t min_items = 0,
                         int64_t max_items = 0);
SpecPtr block_map_spec(std::string type_name, std::vector<std::string> label_names, SpecPtr nested);
SpecPtr block_object_spec(std::string type_name, std::vector<std::string> label_names,
                          SpecPtr nested);
SpecPtr block_attrs_spec(std::string type_name, const Type* element_type, bool required = false);
SpecPtr block_label_spec(size_t index, std::string name);
SpecPtr default_spec(SpecPtr primary, SpecPtr fallback);
SpecPtr transform_expr_spec(SpecPtr wrapped, Expression expr,
                            std::shared_ptr<const EvalContext> ctx = nullptr,
                            std::string var_name = "nested");
SpecPtr transform_func_spec(SpecPtr wrapped, std::shared_ptr<const Function> func);
SpecPtr validate_spec(SpecPtr wrapped, std::function<Diagnostics(const Value&)> func);

// --- decoding ----------------------------------------------------------------------

struct DecodeResult {
  Value value;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

struct PartialDecodeResult {
  Value value;
  Body remain;  // what the spec did not read, for a later decode
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Reads [body] with [spec] (hcldec.Decode): anything the spec does not
// name is an error. With [ctx] null, expressions may use no variables and
// call no functions.
DecodeResult decode(const Body& body, const Spec& spec, const EvalContext* ctx);
// As decode(), but items of the top-level body the spec does not name are
// returned as a body (hcldec.PartialDecode); nested blocks are read whole.
PartialDecodeResult partial_decode(const Body& body, const Spec& spec, const EvalContext* ctx);

// The type decode() returns for [spec] (hcldec.ImpliedType).
const Type* implied_type(const Spec& spec);
// The schema decode() reads the top-level body with (hcldec.ImpliedSchema).
BodySchema implied_schema(const Spec& spec);
// Where the value for [spec] comes from in [body] (hcldec.SourceRange).
Range source_range(const Body& body, const Spec& spec);
// The block types [spec] reads from the top-level body, with the spec of
// their bodies, sorted by type (hcldec.ChildBlockTypes).
std::vector<std::pair<std::string, const Spec*>> child_block_types(const Spec& spec);
// The variables decoding [body] with [spec] would read (hcldec.Variables).
std::vector<Traversal> variables(const Body& body, const Spec& spec);

// The variables that expanding the dynamic blocks of [body] (hclvm/
// dynblock.h) and then decoding it with [spec] would read: for_each,
// labels and the content's arguments without the iterators, at every level
// the spec reads (dynblock.VariablesHCLDec).
std::vector<Traversal> dynamic_block_variables(const Body& body, const Spec& spec);
// Only those the expansion itself needs: for_each and labels
// (dynblock.ExpandVariablesHCLDec).
std::vector<Traversal> dynamic_block_expand_variables(const Body& body, const Spec& spec);

// --- spec files --------------------------------------------------------------------

// A spec written in the hcldec command's spec language (see docs/hcldec.md):
// the root spec, the variables of `variables` blocks and the functions of
// `function` blocks, which the input files may use.
struct SpecFile {
  SpecPtr root;
  std::vector<std::pair<std::string, Value>> variables;  // in definition order
  FunctionTable functions;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// Reads the spec file [src] (native syntax). On errors, root is the
// reference's error spec (a null literal) and the diagnostics say why.
SpecFile load_spec_file(std::shared_ptr<const Source> src);

// The functions expressions of a spec file may call (hcldec's spec
// functions: abs, coalesce, concat, hasindex, int, jsondecode, jsonencode,
// length, lower, max, min, reverse, strlen, substr, upper — go-cty's stdlib
// versions).
const FunctionTable& spec_functions();

}  // namespace hclvm::hcldec

// Dynamic blocks (hclvm/dynblock.h; the reference's ext/dynblock).
//
// An expanded body wraps another and reads it with the caller's schema
// plus the `dynamic` block type; each dynamic block of a type the schema
// asks for is decoded (for_each, iterator, labels, one content block) and
// replaced, where it stood, by one block per element of for_each whose body
// is the content's, expanded in turn with an iteration: the iterator of the
// element and those of the dynamic blocks around. Static blocks are
// expanded too, with the iteration they are in, so that dynamic blocks nest
// at any depth. Reading a body that an iteration made wraps the
// expressions of its arguments (ExprWrap), so that they evaluate in a child
// of their caller's context that holds the iterators, and do not list them
// among their variables.
//
// The contexts that for_each and labels are evaluated in are children of
// the caller's, one per iteration: each is owned by the bodies expanded in
// it (Scope), and keeps the one it is a child of alive.
//
// A partial read leaves an expanded body over the same original body that
// hides what the schema named (the original's own remaining body would
// lose the dynamic blocks of other types). An unknown for_each expands to
// one block whose iterator is unknown, with an UnknownBody: the same
// content, every argument an unknown value.
//
// Where the newest reference differs from older ones, it is followed:
// checks of the application see for_each first, and a marked for_each is
// iterated unmarked, its marks put on every value of the blocks it makes.
#include <hclvm/dynblock.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "body/internal.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "vm/expr_values.h"

namespace hclvm::dynblock {

namespace {

using body_detail::Access;
using body_detail::BodyImpl;
using body_detail::NameSet;

// --- iterations ------------------------------------------------------------------------

// The iterator of one element of a for_each, and the iterators of the
// dynamic blocks around it (the reference's iteration).
struct Iteration {
  std::string name;
  Value object;  // {key = ..., value = ...}, what the iterator holds
  // The iterations around, by iterator name: an inner one hides an outer
  // one of the same name.
  std::map<std::string, std::shared_ptr<const Iteration>, std::less<>> inherited;

  // Whether the iterator variables include [root].
  bool provides(std::string_view root) const {
    return root == name || inherited.find(root) != inherited.end();
  }
};
using IterationPtr = std::shared_ptr<const Iteration>;

// The iteration of iterator [name] over the element ([key], [value]),
// inside [outer] (null at the top).
IterationPtr child_iteration(const IterationPtr& outer, std::string name, Value key, Value value) {
  auto it = std::make_shared<Iteration>();
  it->name = std::move(name);
  it->object = Value::object({{"key", std::move(key)}, {"value", std::move(value)}});
  if (outer) {
    it->inherited = outer->inherited;
    it->inherited[outer->name] = outer;
  }
  return it;
}

// Gives [c], a child of the context an iteration is in, the iterators of
// [it]. Without an iteration it gets no variables at all, so that look-ups
// pass it by, as the reference's child context with a nil map.
void add_iterators(const Iteration* it, EvalContext& c) {
  if (it == nullptr) {
    c.set_variables_allowed(false);
    return;
  }
  for (const auto& [name, outer] : it->inherited) c.set(name, outer->object);
  c.set(it->name, it->object);
}

// A child context with the iterators of an iteration, which keeps the
// context it is a child of alive when that is a Scope too.
struct Scope {
  Scope(std::shared_ptr<const Scope> outer_scope, const EvalContext* base, const Iteration* it)
      : outer(std::move(outer_scope)), ctx(base) {
    add_iterators(it, ctx);
  }
  std::shared_ptr<const Scope> outer;
  EvalContext ctx;
};

// The wrapping of an argument read from a body an iteration made: the
// iterators added to the caller's context, and the marks of the for_each
// added to the result (the reference's exprWrap).
class IterationWrap final : public body_detail::ExprWrap {
 public:
  IterationWrap(Expression inner, IterationPtr it, Marks marks)
      : inner_(std::move(inner)), it_(std::move(it)), marks_(std::move(marks)) {}

  EvalResult value(Vm& vm, const EvalContext* ctx) const override {
    EvalResult r;
    if (it_) {
      EvalContext child(ctx);
      add_iterators(it_.get(), child);
      r = inner_.value(vm, &child);
    } else {
      r = inner_.value(vm, ctx);
    }
    if (!marks_.empty()) r.value = r.value.mark(marks_);
    return r;
  }

  std::vector<Traversal> variables() const override {
    std::vector<Traversal> vars = inner_.variables();
    if (!it_) return vars;
    std::vector<Traversal> out;
    for (Traversal& t : vars)
      if (!it_->provides(t.root_name())) out.push_back(std::move(t));
    return out;
  }

 private:
  Expression inner_;
  IterationPtr it_;
  Marks marks_;
};

// A diagnostic about [expr], whose variables' values in [ctx] the text
// renderer shows (the reference's Expression and EvalContext fields).
Diagnostic value_error(std::string summary, std::string detail, const Expression& expr,
                       const EvalContext* ctx) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = expr.range();
  if (ctx != nullptr) d.expression_values = vm::expression_values(expr.variables(), *ctx);
  return d;
}

Diagnostic error(std::string summary, std::string detail, Range subject) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  return d;
}

void append(Diagnostics& to, Diagnostics from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// --- unknown bodies --------------------------------------------------------------------

Body unknown_body(Body tmpl);

// The body of a block that stands for the blocks of a dynamic block whose
// for_each is unknown (the reference's unknownBody): read as [tmpl] is, with
// every argument an unknown value (still at its range) and every nested
// block's body unknown too. Reading it reports what reading [tmpl] does, so
// that a content that does not fit the schema is still an error.
class UnknownBody final : public BodyImpl {
 public:
  explicit UnknownBody(Body tmpl) : tmpl_(std::move(tmpl)) {}

  Body::Kind kind() const override { return Body::Kind::Unknown; }
  bool is_unknown() const override { return true; }
  Marks value_marks() const override { return tmpl_.value_marks(); }
  Range missing_item_range() const override { return tmpl_.missing_item_range(); }

  ContentResult content(const BodySchema& schema) const override {
    ContentResult r = tmpl_.content(schema);
    r.content = fix_content(std::move(r.content));
    return r;
  }

  PartialContentResult partial_content(const BodySchema& schema) const override {
    PartialContentResult r = tmpl_.partial_content(schema);
    r.content = fix_content(std::move(r.content));
    r.remain = unknown_body(std::move(r.remain));
    return r;
  }

  AttributesResult just_attributes() const override {
    AttributesResult r = tmpl_.just_attributes();
    r.attributes = fix_attributes(r.attributes);
    return r;
  }

 private:
  // [got] made unknown. The reference builds new content without the
  // missing item range, which stays Go's zero range.
  BodyContent fix_content(BodyContent got) const {
    BodyContent out;
    out.attributes = fix_attributes(got.attributes);
    out.missing_item_range = body_detail::zero_range();
    for (Block& b : got.blocks) {
      b.body = unknown_body(std::move(b.body));
      out.blocks.push_back(std::move(b));
    }
    return out;
  }

  Attributes fix_attributes(const Attributes& got) const {
    Attributes out;
    Value unknown = Value::dynamic().mark(value_marks());
    for (const Attribute& a : got) {
      Attribute fixed = a;
      fixed.expr = Expression::make_static(unknown, a.expr.range());
      out.add(std::move(fixed));
    }
    return out;
  }

  Body tmpl_;
};

Body unknown_body(Body tmpl) {
  return Access::body(std::make_shared<UnknownBody>(std::move(tmpl)));
}

// --- expanded bodies -------------------------------------------------------------------

// A body whose dynamic blocks are expanded when it is read (the
// reference's expandBody).
class ExpandBody final : public BodyImpl {
 public:
  struct State {
    Body original;
    const EvalContext* ctx = nullptr;    // for for_each and labels
    std::shared_ptr<const Scope> scope;  // owns ctx unless it is the caller's
    IterationPtr iteration;              // null outside every dynamic block
    std::shared_ptr<const std::vector<ForEachCheck>> checks;
    Marks marks;  // of the for_each of the dynamic block that made the body
    // What a partial read took, hidden from the body it leaves.
    NameSet hidden_attrs;
    std::map<std::string, BlockHeaderSchema, std::less<>> hidden_blocks;
  };

  explicit ExpandBody(State s) : s_(std::move(s)) {}

  Body::Kind kind() const override { return Body::Kind::Expanded; }
  Marks value_marks() const override { return s_.marks; }
  Range missing_item_range() const override { return s_.original.missing_item_range(); }

  ContentResult content(const BodySchema& schema) const override {
    ContentResult raw = s_.original.content(extend(schema));
    ContentResult r;
    r.diagnostics = std::move(raw.diagnostics);
    r.content.blocks = expand_blocks(schema, raw.content.blocks, false, r.diagnostics);
    r.content.attributes = prepare_attributes(raw.content.attributes);
    r.content.missing_item_range = s_.original.missing_item_range();
    return r;
  }

  PartialContentResult partial_content(const BodySchema& schema) const override;

  // Arguments are read from the original body as they are: blocks are
  // errors here, and only blocks are expanded (so arguments are not
  // wrapped, nor hidden ones left out, as in the reference).
  AttributesResult just_attributes() const override { return s_.original.just_attributes(); }

 private:
  // The decoded header and arguments of a dynamic block (expandSpec).
  struct Spec {
    std::string type;
    Range type_range, def_range;
    Value for_each;  // unmarked
    Marks marks;     // those for_each had
    std::string iterator;
    std::vector<Expression> labels;
    Body content;
  };

  BodySchema extend(const BodySchema& schema) const;
  Attributes prepare_attributes(const Attributes& raw) const;
  std::vector<Block> expand_blocks(const BodySchema& schema, std::vector<Block>& raw, bool partial,
                                   Diagnostics& diags) const;
  std::optional<Spec> decode_spec(const BlockHeaderSchema& header, const Block& raw,
                                  Diagnostics& diags) const;
  std::optional<Block> new_block(const Spec& spec, const Iteration& it, Diagnostics& diags) const;
  Body expand_child(Body child, IterationPtr it, Marks marks) const;

  State s_;
};

// [schema] with the dynamic block type, and what is hidden, so that the
// original body neither misses nor reports anything of them (they are
// left out again afterwards).
BodySchema ExpandBody::extend(const BodySchema& schema) const {
  BodySchema ext = schema;
  ext.blocks.push_back(BlockHeaderSchema{"dynamic", {"type"}});
  for (const auto& [type, header] : s_.hidden_blocks) ext.blocks.push_back(header);
  for (const std::string& name : s_.hidden_attrs) ext.attributes.push_back({name, false});
  return ext;
}

// [raw] without the hidden arguments, their expressions wrapped to see the
// iterators and carry the marks of the for_each.
Attributes ExpandBody::prepare_attributes(const Attributes& raw) const {
  bool wrap = s_.iteration != nullptr || !s_.marks.empty();
  if (s_.hidden_attrs.empty() && !wrap) return raw;
  Attributes out;
  for (const Attribute& a : raw) {
    if (s_.hidden_attrs.count(a.name) != 0) continue;
    if (!wrap) {
      out.add(a);
      continue;
    }
    Attribute w = a;
    w.expr =
        Access::wrapped(a.expr, std::make_shared<IterationWrap>(a.expr, s_.iteration, s_.marks));
    out.add(std::move(w));
  }
  return out;
}

PartialContentResult ExpandBody::partial_content(const BodySchema& schema) const {
  // The original's remaining body is of no use: it would hide every
  // dynamic block, whatever types later reads ask for.
  PartialContentResult raw = s_.original.partial_content(extend(schema));
  PartialContentResult r;
  r.diagnostics = std::move(raw.diagnostics);
  r.content.blocks = expand_blocks(schema, raw.content.blocks, true, r.diagnostics);
  r.content.attributes = prepare_attributes(raw.content.attributes);
  r.content.missing_item_range = s_.original.missing_item_range();
  State remain = s_;
  for (const AttributeSchema& a : schema.attributes) remain.hidden_attrs.insert(a.name);
  for (const BlockHeaderSchema& b : schema.blocks) remain.hidden_blocks[b.type] = b;
  r.remain = Access::body(std::make_shared<ExpandBody>(std::move(remain)));
  return r;
}

// The blocks of [raw] (the original's, in source order) with each dynamic
// block of a type [schema] asks for replaced by what it stands for, and the
// bodies of all of them expanded.
std::vector<Block> ExpandBody::expand_blocks(const BodySchema& schema, std::vector<Block>& raw,
                                             bool partial, Diagnostics& diags) const {
  std::vector<Block> out;
  for (Block& b : raw) {
    if (b.type != "dynamic") {
      if (s_.hidden_blocks.count(b.type) != 0) continue;
      // A static block makes no iteration but stays in this one, for its
      // arguments and the dynamic blocks inside it; the for_each marks are
      // not passed on to it (as in the newest reference).
      b.body = expand_child(std::move(b.body), s_.iteration, Marks{});
      out.push_back(std::move(b));
      continue;
    }
    if (b.labels.empty()) continue;  // only if a schema redefined "dynamic"
    const std::string& type = b.labels[0];
    if (s_.hidden_blocks.count(type) != 0) continue;
    const BlockHeaderSchema* header = nullptr;
    for (const BlockHeaderSchema& h : schema.blocks) {
      if (h.type == type) {
        header = &h;
        break;
      }
    }
    if (header == nullptr) {
      if (!partial) {
        diags.push_back(error("Unsupported block type",
                              "Blocks of type " + uni::go_quote(type) + " are not expected here.",
                              b.label_ranges[0]));
      }
      continue;
    }
    std::optional<Spec> spec = decode_spec(*header, b, diags);
    if (!spec) continue;
    const Value& each = spec->for_each;
    if (!each.is_known()) {
      // One block stands for those not known yet: its iterator unknown,
      // and everything read from its body unknown.
      IterationPtr it =
          child_iteration(s_.iteration, spec->iterator, Value::dynamic(), Value::dynamic());
      if (std::optional<Block> nb = new_block(*spec, *it, diags)) {
        nb->body = unknown_body(expand_child(std::move(nb->body), it, spec->marks));
        out.push_back(std::move(*nb));
      }
      continue;
    }
    // The elements in cty's order: lists, tuples and sets by position
    // (a set's key is the element), maps and objects by key.
    const Type* t = each.type();
    size_t n = each.length();
    for (size_t i = 0; i < n; ++i) {
      Value key, value;
      if (t->is_map()) {
        key = Value::string(each.map_key(i));
        value = each.map_value(i);
      } else if (t->is_object()) {
        key = Value::string(t->attr_name(i));
        value = each.attr(i);
      } else if (t->is_set()) {
        key = value = each.element(i);
      } else {
        key = Value::integer(int64_t(i));
        value = each.element(i);
      }
      IterationPtr it = child_iteration(s_.iteration, spec->iterator, key, value);
      if (std::optional<Block> nb = new_block(*spec, *it, diags)) {
        nb->body = expand_child(std::move(nb->body), it, spec->marks);
        out.push_back(std::move(*nb));
      }
    }
  }
  return out;
}

// Decodes the dynamic block [raw] for blocks of [header]'s type (decodeSpec).
std::optional<ExpandBody::Spec> ExpandBody::decode_spec(const BlockHeaderSchema& header,
                                                        const Block& raw,
                                                        Diagnostics& diags) const {
  static const BodySchema kWithLabels{{{"for_each", true}, {"iterator", false}, {"labels", true}},
                                      {{"content", {}}}};
  static const BodySchema kWithoutLabels{{{"for_each", true}, {"iterator", false}},
                                         {{"content", {}}}};
  ContentResult c = raw.body.content(header.label_names.empty() ? kWithoutLabels : kWithLabels);
  bool bad = c.has_errors();
  append(diags, std::move(c.diagnostics));
  if (bad) return std::nullopt;
  const BodyContent& content = c.content;

  const Attribute& each = *content.attributes.find("for_each");
  EvalResult ev = each.expr.value(s_.ctx);
  bad = ev.has_errors();
  append(diags, std::move(ev.diagnostics));
  if (bad) return std::nullopt;
  if (s_.checks) {
    for (const ForEachCheck& check : *s_.checks) {
      Diagnostics more = check(ev.value, each.expr, s_.ctx);
      bad = has_errors(more);
      append(diags, std::move(more));
      if (bad) return std::nullopt;
    }
  }

  Spec spec;
  std::tie(spec.for_each, spec.marks) = ev.value.unmark_with_marks();
  const Type* t = spec.for_each.type();
  bool iterable = t->is_list() || t->is_map() || t->is_set() || t->is_tuple() || t->is_object();
  // A dynamic type is a null or an unknown, reported or expanded below.
  if (!iterable && !t->is_dynamic()) {
    diags.push_back(value_error("Invalid dynamic for_each value",
                                "Cannot use a " + t->friendly_name() +
                                    " value in for_each. An iterable collection is required.",
                                each.expr, s_.ctx));
    return std::nullopt;
  }
  if (spec.for_each.is_null()) {
    diags.push_back(value_error("Invalid dynamic for_each value",
                                "Cannot use a null value in for_each.", each.expr, s_.ctx));
    return std::nullopt;
  }

  spec.iterator = header.type;
  if (const Attribute* a = content.attributes.find("iterator")) {
    TraversalResult tr = abs_traversal_for_expr(a->expr);
    bad = tr.has_errors();
    append(diags, std::move(tr.diagnostics));
    if (bad) return std::nullopt;
    if (tr.traversal.steps.size() != 1) {
      diags.push_back(error("Invalid dynamic iterator name",
                            "Dynamic iterator must be a single variable name.",
                            tr.traversal.range()));
      return std::nullopt;
    }
    spec.iterator = std::string(tr.traversal.root_name());
  }

  if (const Attribute* a = content.attributes.find("labels")) {
    ExpressionListResult l = expr_list(a->expr);
    bad = l.has_errors();
    append(diags, std::move(l.diagnostics));
    if (bad) return std::nullopt;
    size_t want = header.label_names.size();
    std::string detail = "Blocks of type " + uni::go_quote(header.type) + " require " +
                         std::to_string(want) + " label(s).";
    if (l.items.size() > want) {
      diags.push_back(error("Extraneous dynamic block label", detail, l.items[want].range()));
      return std::nullopt;
    }
    if (l.items.size() < want) {
      diags.push_back(error("Insufficient dynamic block labels", detail, a->expr.range()));
      return std::nullopt;
    }
    spec.labels = std::move(l.items);
  }

  // The schema asks for "content" blocks only.
  if (content.blocks.empty()) {
    diags.push_back(error("Missing dynamic content block",
                          "A dynamic block must have a nested block of type \"content\" to "
                          "describe the body of each generated block.",
                          content.missing_item_range));
    return std::nullopt;
  }
  if (content.blocks.size() > 1) {
    diags.push_back(error("Extraneous dynamic content block",
                          "Only one nested content block is allowed for each dynamic block.",
                          content.blocks[1].def_range));
    return std::nullopt;
  }

  spec.type = header.type;
  spec.type_range = raw.label_ranges[0];
  spec.def_range = raw.def_range;
  spec.content = content.blocks[0].body;
  return spec;
}

// The block that [spec] makes for the element of iteration [it], its body
// not expanded yet; none when a label is wrong (newBlock).
std::optional<Block> ExpandBody::new_block(const Spec& spec, const Iteration& it,
                                           Diagnostics& diags) const {
  Block b;
  b.type = spec.type;
  b.type_range = spec.type_range;
  b.def_range = spec.def_range;
  b.body = spec.content;
  if (spec.labels.empty()) return b;
  EvalContext lctx(s_.ctx);
  add_iterators(&it, lctx);
  for (const Expression& e : spec.labels) {
    EvalResult ev = e.value(&lctx);
    bool bad = ev.has_errors();
    append(diags, std::move(ev.diagnostics));
    if (bad) return std::nullopt;
    ConvertResult cv = convert(ev.value, Type::string());
    std::string problem;
    if (!cv.ok()) {
      problem = "Cannot use this value as a dynamic block label: " + cv.error().message + ".";
    } else if (cv.value().is_null()) {
      problem = "Cannot use a null value as a dynamic block label.";
    } else if (!cv.value().is_known()) {
      problem =
          "This value is not yet known. Dynamic block labels must be immediately-known values.";
    } else if (cv.value().is_marked()) {
      // A label is a plain string: nothing could carry the marks on.
      problem = "This value has dynamic marks that make it unsuitable for use as a block label.";
    }
    if (!problem.empty()) {
      diags.push_back(value_error("Invalid dynamic block label", problem, e, &lctx));
      return std::nullopt;
    }
    b.labels.emplace_back(cv.value().as_string());
    b.label_ranges.push_back(e.range());
  }
  return b;
}

// [child] expanded within iteration [it] (null: none) and the for_each
// marks [marks].
Body ExpandBody::expand_child(Body child, IterationPtr it, Marks marks) const {
  auto scope = std::make_shared<Scope>(s_.scope, s_.ctx, it.get());
  State st;
  st.original = std::move(child);
  st.ctx = &scope->ctx;
  st.scope = std::move(scope);
  st.iteration = std::move(it);
  st.checks = s_.checks;
  st.marks = std::move(marks);
  return Access::body(std::make_shared<ExpandBody>(std::move(st)));
}

}  // namespace

Body expand(Body body, const EvalContext* ctx, ExpandOptions options) {
  ExpandBody::State st;
  st.original = std::move(body);
  st.ctx = ctx;
  if (!options.check_for_each.empty())
    st.checks =
        std::make_shared<const std::vector<ForEachCheck>>(std::move(options.check_for_each));
  return Access::body(std::make_shared<ExpandBody>(std::move(st)));
}

// --- the variables walk ----------------------------------------------------------------

// The iterator names a walk node's arguments do not read from outside: its
// own dynamic block's, and those of the dynamic blocks around.
struct WalkNode::Iterators {
  std::string name;
  std::set<std::string, std::less<>> inherited;

  bool provides(std::string_view root) const {
    return root == name || inherited.find(root) != inherited.end();
  }
};

WalkNode::WalkNode(Body body, std::shared_ptr<const Iterators> iterators, bool include_content)
    : body_(std::move(body)), iterators_(std::move(iterators)), include_content_(include_content) {}

WalkNode walk_variables(Body body) { return WalkNode(std::move(body), nullptr, true); }

WalkNode walk_expand_variables(Body body) { return WalkNode(std::move(body), nullptr, false); }

WalkVisit WalkNode::visit(const BodySchema& schema) const {
  // Laxer than the expansion's schema, to find what there is to find in
  // erroneous dynamic blocks too.
  static const BodySchema kInner{{{"for_each", false}, {"labels", false}, {"iterator", false}},
                                 {{"content", {}}}};
  BodySchema ext = schema;
  ext.blocks.push_back(BlockHeaderSchema{"dynamic", {"type"}});
  PartialContentResult pc = body_.partial_content(ext);

  WalkVisit out;
  if (include_content_) {
    for (const Attribute& a : pc.content.attributes)
      for (Traversal& t : a.expr.variables())
        if (!iterators_ || !iterators_->provides(t.root_name()))
          out.variables.push_back(std::move(t));
  }
  for (Block& b : pc.content.blocks) {
    if (b.type != "dynamic") {
      out.children.push_back({b.type, WalkNode(std::move(b.body), iterators_, include_content_)});
      continue;
    }
    if (b.labels.empty()) continue;  // only if a schema redefined "dynamic"
    PartialContentResult inner = b.body.partial_content(kInner);
    auto its = std::make_shared<Iterators>();
    its->name = b.labels[0];
    if (const Attribute* a = inner.content.attributes.find("iterator")) {
      // An invalid iterator is an error when the block is expanded: none
      // of its variables are needed before.
      TraversalResult tr = abs_traversal_for_expr(a->expr);
      if (tr.traversal.empty()) continue;
      its->name = std::string(tr.traversal.root_name());
    }
    if (iterators_) {
      its->inherited = iterators_->inherited;
      its->inherited.insert(iterators_->name);
    }
    // for_each sees the iterators around, labels its own too.
    if (const Attribute* a = inner.content.attributes.find("for_each")) {
      for (Traversal& t : a->expr.variables())
        if (its->inherited.find(t.root_name()) == its->inherited.end())
          out.variables.push_back(std::move(t));
    }
    if (const Attribute* a = inner.content.attributes.find("labels")) {
      for (Traversal& t : a->expr.variables())
        if (!its->provides(t.root_name())) out.variables.push_back(std::move(t));
    }
    // Every content block, though expanding takes exactly one.
    for (Block& content : inner.content.blocks)
      out.children.push_back(
          {b.labels[0], WalkNode(std::move(content.body), its, include_content_)});
  }
  return out;
}

std::vector<Traversal> walk_tree(const WalkNode& node, const WalkSchema& schema) {
  WalkVisit v = node.visit(schema.schema());
  std::vector<Traversal> out = std::move(v.variables);
  for (const WalkChild& c : v.children) {
    if (std::shared_ptr<const WalkSchema> cs = schema.child(c.block_type)) {
      std::vector<Traversal> more = walk_tree(c.node, *cs);
      out.insert(out.end(), std::make_move_iterator(more.begin()),
                 std::make_move_iterator(more.end()));
    }
  }
  return out;
}

}  // namespace hclvm::dynblock

// The arguments of resource, data source and ephemeral resource blocks.
// Without a provider, there is no schema to read a resource's body with;
// the shape of the body is taken from the configuration itself instead:
// every argument written, and every nested block type (static, or made by
// a `dynamic` block) with the shape of all its bodies merged. The
// variables the body needs are found through dynblock's walk (so that
// iterators are not taken for references), and the body is evaluated by
// expanding its dynamic blocks and reading it with that shape: arguments
// become attributes, blocks of a type a list of objects.
#include <hclvm/dynblock.h>

#include <algorithm>
#include <map>
#include <set>

#include "body/internal.h"
#include "config/eval.h"
#include "config/override_body.h"

namespace hclvm::config::detail {

// The inferred shape of a body: its arguments, and per block type the
// number of labels and the shape of those blocks' bodies. Once complete,
// finish() makes the schema the body is read with and the object its value
// is.
struct BodyShape {
  BodyShape() = default;
  // Not copied: what finish() makes views the names held here (moving
  // the containers keeps them where they are).
  BodyShape(const BodyShape&) = delete;
  BodyShape& operator=(const BodyShape&) = delete;
  BodyShape(BodyShape&&) = default;
  BodyShape& operator=(BodyShape&&) = default;

  std::set<std::string> attributes;
  struct Child {
    size_t labels = 0;
    std::shared_ptr<BodyShape> shape;
  };
  std::map<std::string, Child> blocks;

  const BodySchema& schema() const { return schema_; }

  // The value of a body of this shape: [values] holds its attributes' then
  // its block types' values, in the order of [attributes] and [blocks].
  Value object(std::vector<Value> values) const {
    if (distinct_) return object_.make(std::move(values), slots_);
    std::vector<std::pair<std::string, Value>> attrs;
    size_t i = 0;
    for (const std::string& a : attributes) attrs.emplace_back(a, std::move(values[i++]));
    for (const auto& [type, c] : blocks) attrs.emplace_back(type, std::move(values[i++]));
    return Value::object(std::move(attrs));
  }

  // Makes what schema() and object() use, here and in every nested shape.
  void finish() {
    schema_ = BodySchema();
    for (const std::string& a : attributes) schema_.attributes.push_back({a, false});
    std::vector<std::string_view> names(attributes.begin(), attributes.end());
    for (auto& [type, c] : blocks) {
      BlockHeaderSchema b{type, {}};
      for (size_t i = 0; i < c.labels; ++i) b.label_names.push_back("label" + std::to_string(i));
      schema_.blocks.push_back(std::move(b));
      names.push_back(type);
      if (c.shape) c.shape->finish();
    }
    // An argument and a block type of one name make no object of their
    // own: such a body is made the general way.
    std::vector<uint32_t> order(names.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return names[a] < names[b]; });
    distinct_ = std::adjacent_find(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
                  return names[a] == names[b];
                }) == order.end();
    slots_.assign(names.size(), 0);
    std::vector<std::string_view> sorted;
    for (uint32_t j = 0; j < order.size(); ++j) {
      slots_[order[j]] = j;
      sorted.push_back(names[order[j]]);
    }
    object_ = FixedObject(std::move(sorted));
  }

 private:
  BodySchema schema_;
  FixedObject object_;
  std::vector<uint32_t> slots_;  // of the [i]th value: its attribute's place in object_
  bool distinct_ = false;
};

namespace {

// The meta-arguments of resource blocks, which are not part of the body.
bool meta_name(std::string_view n) {
  return n == "count" || n == "for_each" || n == "provider" || n == "depends_on" ||
         n == "lifecycle" || n == "connection" || n == "provisioner" || n == "_" ||
         n == "locals";
}

void add_native(BodyShape& s, const ast::Body& b, bool top);

// Adds what the native block [blk] (a static block or dynamic one) shows.
void add_native_block(BodyShape& s, const ast::Block& blk) {
  if (blk.type == "dynamic") {
    if (blk.labels.size != 1 || blk.body == nullptr) return;
    BodyShape::Child& c = s.blocks[std::string(blk.labels[0])];
    if (!c.shape) c.shape = std::make_shared<BodyShape>();
    for (const ast::Block* inner : blk.body->blocks)
      if (inner->type == "content" && inner->body) add_native(*c.shape, *inner->body, false);
    return;
  }
  BodyShape::Child& c = s.blocks[std::string(blk.type)];
  c.labels = std::max<size_t>(c.labels, blk.labels.size);
  if (!c.shape) c.shape = std::make_shared<BodyShape>();
  if (blk.body) add_native(*c.shape, *blk.body, false);
}

void add_native(BodyShape& s, const ast::Body& b, bool top) {
  for (const ast::Attribute* a : b.attributes)
    if (!top || !meta_name(a->name)) s.attributes.insert(std::string(a->name));
  for (const ast::Block* blk : b.blocks)
    if (!top || !meta_name(blk->type)) add_native_block(s, *blk);
}

void add_body(BodyShape& s, const Body& b, bool top);

}  // namespace

// The two bodies an override merge was made of (override_body.cpp).
std::optional<std::pair<Body, Body>> override_parts(const Body& b);

namespace {

void add_body(BodyShape& s, const Body& b, bool top) {
  switch (b.kind()) {
    case Body::Kind::Native:
      if (const ast::Body* n = b.native_body()) add_native(s, *n, top);
      break;
    case Body::Kind::Json: {
      AttributesResult r = b.just_attributes();
      for (const Attribute& a : r.attributes)
        if (!top || !meta_name(a.name)) s.attributes.insert(a.name);
      break;
    }
    case Body::Kind::Merged:
      for (const Body& part : b.merged()) add_body(s, part, top);
      break;
    case Body::Kind::Other:
      if (auto parts = override_parts(b)) {
        add_body(s, parts->first, top);
        add_body(s, parts->second, top);
      }
      break;
    default: break;
  }
}

// The variables of the body below [node], read with [shape].
void walk(const dynblock::WalkNode& node, const BodyShape& shape, std::vector<Traversal>& out) {
  dynblock::WalkVisit v = node.visit(shape.schema());
  for (Traversal& t : v.variables) out.push_back(std::move(t));
  for (const dynblock::WalkChild& c : v.children) {
    auto it = shape.blocks.find(c.block_type);
    if (it == shape.blocks.end() || !it->second.shape) continue;
    walk(c.node, *it->second.shape, out);
  }
}

// The value of [body] read with [shape] in [ctx].
Value read_body(EvalState& st, const Body& body, const BodyShape& shape, const EvalContext& ctx,
                Diagnostics& out, bool& failed);

Value read_body(EvalState& st, const Body& body, const BodyShape& shape, const EvalContext& ctx,
                Diagnostics& out, bool& failed) {
  ContentResult c = body.content(shape.schema());
  for (Diagnostic& d : c.diagnostics) {
    if (d.severity == Severity::Error) failed = true;
    out.push_back(std::move(d));
  }
  std::vector<Value> values;
  values.reserve(shape.attributes.size() + shape.blocks.size());
  for (const std::string& name : shape.attributes) {
    const Attribute* a = c.content.attributes.find(name);
    if (a == nullptr) {
      values.push_back(Value::null(Type::dynamic()));
      continue;
    }
    EvalResult r = body.is_unknown() ? EvalResult{Value::dynamic(), {}}
                                     : a->expr.value(*st.vm, &ctx);
    if (r.has_errors()) failed = true;
    out.insert(out.end(), r.diagnostics.begin(), r.diagnostics.end());
    values.push_back(r.has_errors() ? Value::dynamic() : std::move(r.value));
  }
  for (const auto& [type, child] : shape.blocks) {
    std::vector<Value> items;
    for (const Block& b : c.content.blocks) {
      if (b.type != type) continue;
      Value v = read_body(st, b.body, *child.shape, ctx, out, failed);
      if (b.body.is_unknown()) v = Value::dynamic();
      items.push_back(v.mark(b.body.value_marks()));
    }
    values.push_back(Value::tuple(std::move(items)));
  }
  return shape.object(std::move(values));
}

}  // namespace

std::shared_ptr<const BodyShape> infer_shape(const Body& body) {
  auto s = std::make_shared<BodyShape>();
  add_body(*s, body, true);
  s->finish();
  return s;
}

std::vector<Traversal> body_variables(const Body& body, const BodyShape& shape) {
  std::vector<Traversal> out;
  walk(dynblock::walk_variables(body), shape, out);
  return out;
}

void finish_diags(const EvalState& st, Diagnostics& diags, const EvalContext& ctx,
                  const FunctionTable* fns, const Source* src);

namespace {

// The resource types Terraform has built in have a schema: a body is read
// with it, and what it lacks is reported as Terraform reports it.
const BodyShape* builtin_shape(const Resource& r) {
  static const BodyShape data_store = [] {
    BodyShape s;
    s.attributes = {"input", "triggers_replace"};
    s.finish();
    return s;
  }();
  static const BodyShape remote_state = [] {
    BodyShape s;
    s.attributes = {"backend", "config", "defaults", "workspace"};
    s.finish();
    return s;
  }();
  if (r.mode == ResMode::Managed && r.type == "terraform_data") return &data_store;
  if (r.mode == ResMode::Data && r.type == "terraform_remote_state") return &remote_state;
  return nullptr;
}

// The schema [shape] reads a body of [r] with (builtin types: their
// required arguments too).
BodySchema schema_for(const Resource& r, const BodyShape& shape) {
  BodySchema schema = shape.schema();
  if (r.mode == ResMode::Data && r.type == "terraform_remote_state") {
    for (AttributeSchema& a : schema.attributes)
      if (a.name == "backend") a.required = true;
  }
  return schema;
}

// Whether the body [b] (or a body inside it) has a dynamic block, or is
// one whose blocks cannot be told from its arguments (JSON).
bool has_dynamic(const Body& b) {
  std::vector<const ast::Body*> stack;
  switch (b.kind()) {
    case Body::Kind::Native:
      if (const ast::Body* n = b.native_body()) stack.push_back(n);
      break;
    case Body::Kind::Merged:
      for (const Body& part : b.merged())
        if (has_dynamic(part)) return true;
      return false;
    case Body::Kind::Other:
      if (auto parts = override_parts(b)) return has_dynamic(parts->first) || has_dynamic(parts->second);
      return true;
    default: return true;
  }
  while (!stack.empty()) {
    const ast::Body* n = stack.back();
    stack.pop_back();
    for (const ast::Block* blk : n->blocks) {
      if (blk->type == "dynamic") return true;
      if (blk->body) stack.push_back(blk->body);
    }
  }
  return false;
}

}  // namespace

// A resource body without dynamic blocks, read once with its shape: what
// evaluating it needs is only running its expressions.
struct StaticBody {
  std::vector<std::pair<std::string, Expression>> attributes;  // every shape attribute; empty: absent
  std::vector<std::pair<std::string, std::vector<StaticBody>>> blocks;
  Diagnostics diagnostics;  // what reading it with a builtin type's schema reported
  const BodyShape* shape = nullptr;  // the resource's, which holds this

  // Reads [body] with [shape] and [schema].
  static StaticBody read(const Body& body, const BodyShape& shape, const BodySchema& schema) {
    StaticBody out;
    out.shape = &shape;
    ContentResult c = body.content(schema);
    out.diagnostics = std::move(c.diagnostics);
    for (const std::string& name : shape.attributes) {
      const Attribute* a = c.content.attributes.find(name);
      out.attributes.emplace_back(name, a ? a->expr : Expression());
    }
    for (const auto& [type, child] : shape.blocks) {
      std::vector<StaticBody> items;
      for (const Block& b : c.content.blocks)
        if (b.type == type) items.push_back(read(b.body, *child.shape, child.shape->schema()));
      out.blocks.emplace_back(type, std::move(items));
    }
    return out;
  }

  // The value of the body in [ctx].
  Value value(EvalState& st, const EvalContext& ctx, Diagnostics& out, bool& failed) const {
    std::vector<Value> values;
    values.reserve(attributes.size() + blocks.size());
    for (const auto& [name, e] : attributes) {
      if (!e) {
        values.push_back(Value::null(Type::dynamic()));
        continue;
      }
      EvalResult r = e.value(*st.vm, &ctx);
      if (r.has_errors()) failed = true;
      out.insert(out.end(), r.diagnostics.begin(), r.diagnostics.end());
      values.push_back(r.has_errors() ? Value::dynamic() : std::move(r.value));
    }
    for (const auto& [type, items] : blocks) {
      std::vector<Value> vals;
      for (const StaticBody& b : items) vals.push_back(b.value(st, ctx, out, failed));
      values.push_back(Value::tuple(std::move(vals)));
    }
    return shape->object(std::move(values));
  }
};

void prepare_resource_body(Resource& r) {
  std::shared_ptr<const BodyShape> inferred = infer_shape(r.config);
  if (const BodyShape* b = builtin_shape(r)) {
    r.shape = std::shared_ptr<const BodyShape>(std::shared_ptr<const BodyShape>(), b);
  } else {
    r.shape = inferred;
  }
  // A built-in type's references are those its schema reads
  // (ReferencesInBlock): an argument it does not take is reported, not
  // evaluated.
  r.variables_shape = builtin_shape(r) != nullptr ? r.shape : inferred;
  if (!has_dynamic(r.config))
    r.static_body = std::make_shared<const StaticBody>(StaticBody::read(r.config, *r.shape, schema_for(r, *r.shape)));
}

namespace {

// For a resource type Terraform has built in (which takes no nested
// block), when its references failed: the dynamic blocks of its body are
// unsupported all the same (dynblock checks their type before their
// for_each is evaluated), unless the errors are in its arguments, which
// stop Terraform before it decodes the body ([out] holds them).
void unsupported_dynamic_blocks(const Resource& r, Diagnostics& out) {
  BodySchema schema = schema_for(r, *r.shape);
  schema.blocks.push_back({"dynamic", {"type"}});
  PartialContentResult c = r.config.partial_content(schema);
  for (const Diagnostic& d : out) {
    if (d.severity != Severity::Error || !d.subject) continue;
    for (const Attribute& a : c.content.attributes) {
      const Range& x = a.expr.range();
      if (d.subject->filename == x.filename && d.subject->start.byte >= x.start.byte &&
          d.subject->end.byte <= x.end.byte)
        return;
    }
  }
  for (const Block& b : c.content.blocks) {
    if (b.type != "dynamic") continue;
    error(out, "Unsupported block type",
          "Blocks of type \"" + b.labels[0] + "\" are not expected here.", b.label_ranges[0]);
  }
}

}  // namespace

Value eval_resource_body(EvalState& st, const Resource& r, const ModInst& mi, const Rep& rep,
                         Diagnostics& out, const EvalContext* shared) {
  if (!r.body_info || !r.shape) return Value::dynamic();
  if (r.body_info->has_errors()) {
    out.insert(out.end(), r.body_info->diags.begin(), r.body_info->diags.end());
    if (builtin_shape(r) != nullptr) unsupported_dynamic_blocks(r, out);
    return Value::dynamic();
  }
  out.insert(out.end(), r.body_info->diags.begin(), r.body_info->diags.end());
  EvalContext ctx(shared ? shared : &st.fn_ctx);
  ctx.set_functions(fns_for(st, *mi.mod));
  build_context(st, *r.body_info, mi, rep, ctx, nullptr, shared ? RefPart::Instance : RefPart::All);
  Diagnostics d;
  bool failed = false;
  Value v;
  if (r.static_body) {
    d = r.static_body->diagnostics;
    failed = has_errors(d);
    if (!failed) v = r.static_body->value(st, ctx, d, failed);
  } else {
    Body expanded = dynblock::expand(r.config, &ctx);
    if (builtin_shape(r) != nullptr) {
      ContentResult check = expanded.content(schema_for(r, *r.shape));
      for (Diagnostic& x : check.diagnostics) {
        if (x.severity == Severity::Error) failed = true;
        d.push_back(std::move(x));
      }
    }
    if (!failed) v = read_body(st, expanded, *r.shape, ctx, d, failed);
  }
  finish_diags(st, d, ctx, ctx.functions(), nullptr);
  out.insert(out.end(), d.begin(), d.end());
  return failed ? Value::dynamic() : v;
}

}  // namespace hclvm::config::detail

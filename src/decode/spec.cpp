// The spec kinds of include/hclvm/hcldec.h: how each reads body content,
// its implied type, the schema it contributes and where its value comes
// from, as the reference's hcldec/spec.go does.
#include <hclvm/dynblock.h>
#include <hclvm/hcldec.h>

#include <algorithm>
#include <map>
#include <variant>

#include "util/unicode.h"
#include "value/convert.h"
#include "vm/expr_values.h"

namespace hclvm::hcldec {

using uni::go_quote;

namespace {

// The labels of [b] as a nested spec sees them.
std::vector<BlockLabel> labels_of(const Block& b) {
  std::vector<BlockLabel> out;
  out.reserve(b.labels.size());
  for (size_t i = 0; i < b.labels.size(); ++i)
    out.push_back({b.labels[i], i < b.label_ranges.size() ? b.label_ranges[i] : b.def_range});
  return out;
}

// Reads [body] with [spec]'s schema and decodes it (the reference's decode).
Value decode_body(const Body& body, std::span<const BlockLabel> labels, const EvalContext* ctx,
                  const Spec& spec, Diagnostics& diags) {
  ContentResult c = body.content(implied_schema(spec));
  diags.insert(diags.end(), c.diagnostics.begin(), c.diagnostics.end());
  return spec.decode(c.content, labels, ctx, diags);
}

// The source range of [spec]'s value in [body] (the reference's sourceRange).
Range body_source_range(const Body& body, std::span<const BlockLabel> labels, const Spec& spec) {
  PartialContentResult c = body.partial_content(implied_schema(spec));
  return spec.source_range(c.content, labels);
}

// The first block of type [type] in [content], or null.
const Block* first_block(const BodyContent& content, std::string_view type) {
  for (const Block& b : content.blocks)
    if (b.type == type) return &b;
  return nullptr;
}

// The range between an argument's name and its value, the context of a
// diagnostic about the value.
Range attr_context(const Attribute& a) {
  Range r = a.name_range;
  r.end = a.expr.range().end;
  return r;
}

// A diagnostic about the value of [a] that the text renderer shows with the
// values of the variables the expression reads.
Diagnostic value_diag(std::string summary, std::string detail, const Attribute& a,
                      const EvalContext* ctx) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = a.expr.range();
  d.context = attr_context(a);
  if (ctx != nullptr) d.expression_values = vm::expression_values(a.expr.variables(), *ctx);
  return d;
}

Diagnostic error(std::string summary, std::string detail, std::optional<Range> subject) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = std::move(subject);
  return d;
}

// Evaluates [a] and converts the result to [type]; on failure reports
// [summary] with [detail_prefix] and returns an unknown of [type].
Value attribute_value(const Attribute& a, const Type* type, const TypeDefaults* defaults,
                      const Type* unknown_type, const EvalContext* ctx, Diagnostics& diags,
                      const char* summary, const std::string& detail_prefix) {
  EvalResult r = a.expr.value(ctx);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (defaults != nullptr) r.value = defaults->apply(r.value);
  ConvertResult conv = convert(r.value, type);
  if (conv.ok()) return conv.value();
  diags.push_back(value_diag(summary, detail_prefix + conv.error().message + ".", a, ctx));
  return Value::unknown(unknown_type);
}

// What the sequence specs (list, set, tuple) collect from their blocks.
struct Collected {
  std::vector<Value> elems;
  std::vector<Range> ranges;  // where each element came from
  bool unknown = false;       // a block's body is wholly unknown
};

Collected collect_blocks(const BlockSpecBase& s, const BodyContent& content, const EvalContext* ctx,
                         Diagnostics& diags) {
  Collected out;
  for (const Block& b : content.blocks) {
    if (b.type != s.type_name) continue;
    std::vector<BlockLabel> labels = labels_of(b);
    Value v = decode_body(b.body, labels, ctx, *s.nested, diags);
    // The marks of a body made from a marked for_each (hcldec.MarkedBody).
    if (Marks m = b.body.value_marks(); !m.empty()) v = v.mark(m);
    if (b.body.is_unknown()) {
      out.unknown = true;
      return out;
    }
    out.elems.push_back(std::move(v));
    out.ranges.push_back(body_source_range(b.body, labels, *s.nested));
  }
  return out;
}

// The reference's checks of a sequence's length.
void check_items(const BlockSequenceSpec& s, const BodyContent& content, const Collected& c,
                 Diagnostics& diags) {
  const std::string& t = s.type_name;
  int64_t n = static_cast<int64_t>(c.elems.size());
  if (n < s.min_items) {
    diags.push_back(error(
        "Insufficient " + t + " blocks",
        "At least " + std::to_string(s.min_items) + " " + go_quote(t) + " blocks are required.",
        content.missing_item_range));
  } else if (s.max_items > 0 && n > s.max_items) {
    diags.push_back(error(
        "Too many " + t + " blocks",
        "No more than " + std::to_string(s.max_items) + " " + go_quote(t) + " blocks are allowed",
        c.ranges[static_cast<size_t>(s.max_items)]));
  }
}

// Converts the elements of a list or set to one type; false (with a
// diagnostic) when they have none in common.
bool unify_elements(const std::string& type_name, Collected& c, const Type*& ety,
                    Diagnostics& diags) {
  std::vector<const Type*> types;
  types.reserve(c.elems.size());
  for (const Value& v : c.elems) types.push_back(v.type());
  Unified u = unify_unsafe(types);
  const std::string summary = "Unconsistent argument types in " + type_name + " blocks";
  if (u.type == nullptr) {
    diags.push_back(error(summary,
                          "Corresponding attributes in all blocks of this type must be the same.",
                          c.ranges[0]));
    return false;
  }
  for (size_t i = 0; i < c.elems.size(); ++i) {
    if (!u.conversions[i]) continue;
    ConvertResult r = (*u.conversions[i])(c.elems[i]);
    if (!r.ok()) {
      diags.push_back(error(summary,
                            "Block with index " + std::to_string(i) +
                                " has inconsistent argument types: " + r.error().message + ".",
                            c.ranges[i]));
      return false;
    }
    c.elems[i] = r.value();
  }
  ety = u.type;
  return true;
}

// The blocks of a map or object spec, nested by their leading labels.
struct KeyedTree {
  std::map<std::string, std::variant<Value, std::unique_ptr<KeyedTree>>> items;
};

// Collects the blocks of [s] into [tree]; false when a body is unknown.
bool collect_keyed(const BlockKeyedSpec& s, const BodyContent& content, const EvalContext* ctx,
                   KeyedTree& tree, Diagnostics& diags) {
  const size_t depth = s.label_names.size();
  for (const Block& b : content.blocks) {
    if (b.type != s.type_name) continue;
    if (b.body.is_unknown()) return false;
    std::vector<BlockLabel> labels = labels_of(b);
    if (labels.size() < depth) continue;  // content() already reported it
    Value v = decode_body(b.body, std::span(labels).subspan(depth), ctx, *s.nested, diags);
    if (Marks m = b.body.value_marks(); !m.empty()) v = v.mark(m);
    KeyedTree* target = &tree;
    for (size_t i = 0; i + 1 < depth; ++i) {
      auto& slot = target->items[b.labels[i]];
      if (!std::holds_alternative<std::unique_ptr<KeyedTree>>(slot))
        slot = std::make_unique<KeyedTree>();
      target = std::get<std::unique_ptr<KeyedTree>>(slot).get();
    }
    const std::string& key = b.labels[depth - 1];
    if (target->items.count(key)) {
      std::string quoted;
      for (const std::string& l : b.labels) quoted += " " + go_quote(l);
      diags.push_back(error("Duplicate " + s.type_name + " block",
                            "A block for " + s.type_name + quoted + " was already defined. The " +
                                s.type_name + " labels must be unique.",
                            b.def_range));
      continue;
    }
    target->items.emplace(key, std::move(v));
  }
  return true;
}

// [tree] as nested maps ([as_map]) or objects.
Value keyed_value(const KeyedTree& tree, bool as_map) {
  std::vector<std::pair<std::string, Value>> entries;
  for (const auto& [k, item] : tree.items) {
    if (const Value* v = std::get_if<Value>(&item))
      entries.emplace_back(k, *v);
    else
      entries.emplace_back(k, keyed_value(*std::get<std::unique_ptr<KeyedTree>>(item), as_map));
  }
  if (!as_map) return Value::object(std::move(entries));
  const Type* ety = entries.front().second.type();
  return Value::map(ety, std::move(entries));
}

// findLabelSpecs: the label names the label specs of [spec] read.
std::vector<std::string> label_specs(const Spec& spec) {
  std::map<size_t, std::string> names;
  VisitFn visit = [&](const Spec& s) {
    if (auto* l = dynamic_cast<const BlockLabelSpec*>(&s)) names[l->index] = l->name;
    s.visit_same_body_children(visit);
  };
  visit(spec);
  if (names.empty()) return {};
  std::vector<std::string> out(names.rbegin()->first + 1);
  for (size_t i = 0; i < out.size(); ++i) {
    auto it = names.find(i);
    if (it != names.end() && !it->second.empty()) {
      out[i] = it->second;
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "missing%02zu", i);
      out[i] = buf;
    }
  }
  return out;
}

}  // namespace

// --- defaults of the interface ------------------------------------------------------

void Spec::visit_same_body_children(const VisitFn&) const {}
void Spec::attr_schemata(std::vector<AttributeSchema>&) const {}
void Spec::block_header_schemata(std::vector<BlockHeaderSchema>&) const {}
const Spec* Spec::nested_spec() const { return nullptr; }
void Spec::variables_needed(const BodyContent&, std::vector<Traversal>&) const {}

// --- object and tuple ---------------------------------------------------------------

Value ObjectSpec::decode(const BodyContent& content, std::span<const BlockLabel> labels,
                         const EvalContext* ctx, Diagnostics& diags) const {
  std::vector<std::pair<std::string, Value>> vals;
  vals.reserve(attrs.size());
  for (const auto& [k, spec] : attrs)
    vals.emplace_back(k, spec->decode(content, labels, ctx, diags));
  return Value::object(std::move(vals));
}

const Type* ObjectSpec::implied_type() const {
  std::vector<TypeAttr> types;
  types.reserve(attrs.size());
  for (const auto& [k, spec] : attrs) types.push_back({k, spec->implied_type()});
  return Type::object(types);
}

void ObjectSpec::visit_same_body_children(const VisitFn& fn) const {
  for (const auto& a : attrs) fn(*a.second);
}

Range ObjectSpec::source_range(const BodyContent& content, std::span<const BlockLabel>) const {
  return content.missing_item_range;
}

Value TupleSpec::decode(const BodyContent& content, std::span<const BlockLabel> labels,
                        const EvalContext* ctx, Diagnostics& diags) const {
  std::vector<Value> vals;
  vals.reserve(elems.size());
  for (const SpecPtr& spec : elems) vals.push_back(spec->decode(content, labels, ctx, diags));
  return Value::tuple(std::move(vals));
}

const Type* TupleSpec::implied_type() const {
  std::vector<const Type*> types;
  types.reserve(elems.size());
  for (const SpecPtr& spec : elems) types.push_back(spec->implied_type());
  return Type::tuple(types);
}

void TupleSpec::visit_same_body_children(const VisitFn& fn) const {
  for (const SpecPtr& e : elems) fn(*e);
}

Range TupleSpec::source_range(const BodyContent& content, std::span<const BlockLabel>) const {
  return content.missing_item_range;
}

// --- attributes, literals, expressions ----------------------------------------------

Value AttrSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                       const EvalContext* ctx, Diagnostics& diags) const {
  const Attribute* a = content.attributes.find(name);
  // A missing required argument was reported when the content was read.
  if (a == nullptr) return Value::null(type->without_optional_attrs_deep());
  return attribute_value(*a, type, defaults.get(), type->without_optional_attrs_deep(), ctx, diags,
                         "Incorrect attribute value type",
                         "Inappropriate value for attribute " + go_quote(name) + ": ");
}

Range AttrSpec::source_range(const BodyContent& content, std::span<const BlockLabel>) const {
  const Attribute* a = content.attributes.find(name);
  return a ? a->expr.range() : content.missing_item_range;
}

void AttrSpec::attr_schemata(std::vector<AttributeSchema>& out) const {
  out.push_back({name, required});
}

void AttrSpec::variables_needed(const BodyContent& content, std::vector<Traversal>& out) const {
  if (const Attribute* a = content.attributes.find(name)) {
    std::vector<Traversal> v = a->expr.variables();
    out.insert(out.end(), v.begin(), v.end());
  }
}

Range LiteralSpec::source_range(const BodyContent&, std::span<const BlockLabel>) const {
  Range r;
  r.filename = "<unknown>";
  r.start = r.end = Pos{0, 0, 0};
  return r;
}

Value ExprSpec::decode(const BodyContent&, std::span<const BlockLabel>, const EvalContext* ctx,
                       Diagnostics& diags) const {
  EvalResult r = expr.value(ctx);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  return r.value;
}

void ExprSpec::variables_needed(const BodyContent&, std::vector<Traversal>& out) const {
  std::vector<Traversal> v = expr.variables();
  out.insert(out.end(), v.begin(), v.end());
}

// --- blocks -------------------------------------------------------------------------

void BlockSpecBase::block_header_schemata(std::vector<BlockHeaderSchema>& out) const {
  std::span<const std::string> lead = leading_labels();
  std::vector<std::string> names(lead.begin(), lead.end());
  for (std::string& n : label_specs(*nested)) names.push_back(std::move(n));
  out.push_back({type_name, std::move(names)});
}

Range BlockSpecBase::source_range(const BodyContent& content, std::span<const BlockLabel>) const {
  // The first block of the type: blocks of one type need not be adjacent.
  const Block* b = first_block(content, type_name);
  if (b == nullptr) return content.missing_item_range;
  return body_source_range(b->body, labels_of(*b), *nested);
}

void BlockSpecBase::variables_needed(const BodyContent& content,
                                     std::vector<Traversal>& out) const {
  for (const Block& b : content.blocks) {
    if (b.type != type_name) continue;
    std::vector<Traversal> v = variables(b.body, *nested);
    out.insert(out.end(), v.begin(), v.end());
  }
}

Value BlockSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                        const EvalContext* ctx, Diagnostics& diags) const {
  const Block* child = nullptr;
  for (const Block& b : content.blocks) {
    if (b.type != type_name) continue;
    if (child != nullptr) {
      diags.push_back(error("Duplicate " + type_name + " block",
                            "Only one block of type " + go_quote(type_name) +
                                " is allowed. Previous definition was at " +
                                range_string(child->def_range) + ".",
                            b.def_range));
      break;
    }
    child = &b;
  }
  if (child == nullptr) {
    if (required)
      diags.push_back(error("Missing " + type_name + " block",
                            "A block of type " + go_quote(type_name) + " is required here.",
                            content.missing_item_range));
    return Value::null(nested->implied_type()->without_optional_attrs_deep());
  }
  return decode_body(child->body, labels_of(*child), ctx, *nested, diags);
}

const Type* BlockSpec::implied_type() const { return nested->implied_type(); }

Value BlockListSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                            const EvalContext* ctx, Diagnostics& diags) const {
  Collected c = collect_blocks(*this, content, ctx, diags);
  if (c.unknown) return Value::unknown(implied_type()->without_optional_attrs_deep());
  check_items(*this, content, c, diags);
  if (c.elems.empty()) return Value::list(nested->implied_type(), {});
  const Type* ety = nullptr;
  if (!unify_elements(type_name, c, ety, diags)) return Value::dynamic();
  return Value::list(ety, std::move(c.elems));
}

const Type* BlockListSpec::implied_type() const { return Type::list(nested->implied_type()); }

Value BlockSetSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                           const EvalContext* ctx, Diagnostics& diags) const {
  Collected c = collect_blocks(*this, content, ctx, diags);
  if (c.unknown) return Value::unknown(implied_type()->without_optional_attrs_deep());
  check_items(*this, content, c, diags);
  if (c.elems.empty()) return Value::set(nested->implied_type(), {});
  const Type* ety = nullptr;
  if (!unify_elements(type_name, c, ety, diags)) return Value::dynamic();
  return Value::set(ety, std::move(c.elems));
}

const Type* BlockSetSpec::implied_type() const { return Type::set(nested->implied_type()); }

Value BlockTupleSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                             const EvalContext* ctx, Diagnostics& diags) const {
  Collected c = collect_blocks(*this, content, ctx, diags);
  if (c.unknown) return Value::unknown(implied_type()->without_optional_attrs_deep());
  check_items(*this, content, c, diags);
  return Value::tuple(std::move(c.elems));
}

Value BlockMapSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                           const EvalContext* ctx, Diagnostics& diags) const {
  if (implied_type()->has_dynamic_types()) {
    // The reference panics: a map's elements must share one type.
    diags.push_back(error("Invalid block_map spec",
                          "A block_map spec may not contain attributes with type 'any'.",
                          std::nullopt));
    return Value::dynamic();
  }
  KeyedTree tree;
  if (!collect_keyed(*this, content, ctx, tree, diags))
    return Value::unknown(implied_type()->without_optional_attrs_deep());
  if (tree.items.empty()) return Value::map(nested->implied_type(), {});
  return keyed_value(tree, true);
}

const Type* BlockMapSpec::implied_type() const {
  const Type* t = nested->implied_type();
  for (size_t i = 0; i < label_names.size(); ++i) t = Type::map(t);
  return t;
}

Value BlockObjectSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                              const EvalContext* ctx, Diagnostics& diags) const {
  KeyedTree tree;
  if (!collect_keyed(*this, content, ctx, tree, diags))
    return Value::unknown(implied_type()->without_optional_attrs_deep());
  if (tree.items.empty()) return Value::object({});
  return keyed_value(tree, false);
}

// --- block attributes and labels ----------------------------------------------------

namespace {

// The first block of [type] and the second one, if any.
std::pair<const Block*, const Block*> find_blocks(const BodyContent& content,
                                                  std::string_view type) {
  const Block* first = nullptr;
  for (const Block& b : content.blocks) {
    if (b.type != type) continue;
    if (first != nullptr) return {first, &b};
    first = &b;
  }
  return {first, nullptr};
}

// The nested spec BlockAttrsSpec reports so that it counts as a block spec;
// never decoded.
const Spec& noop_spec() {
  static const LiteralSpec spec = [] {
    LiteralSpec s;
    s.value = Value::null(Type::dynamic());
    return s;
  }();
  return spec;
}

}  // namespace

Value BlockAttrsSpec::decode(const BodyContent& content, std::span<const BlockLabel>,
                             const EvalContext* ctx, Diagnostics& diags) const {
  auto [block, other] = find_blocks(content, type_name);
  if (block == nullptr) {
    if (required)
      diags.push_back(error("Missing " + type_name + " block",
                            "A block of type " + go_quote(type_name) + " is required here.",
                            content.missing_item_range));
    return Value::null(Type::map(element_type)->without_optional_attrs_deep());
  }
  if (other != nullptr)
    diags.push_back(error("Duplicate " + type_name + " block",
                          "Only one block of type " + go_quote(type_name) +
                              " is allowed. Previous definition was at " +
                              range_string(block->def_range) + ".",
                          other->def_range));
  AttributesResult attrs = block->body.just_attributes();
  diags.insert(diags.end(), attrs.diagnostics.begin(), attrs.diagnostics.end());
  if (attrs.attributes.empty()) return Value::map(element_type, {});
  std::vector<std::pair<std::string, Value>> vals;
  const std::string prefix = "Invalid value for attribute of " + go_quote(type_name) + " block: ";
  for (const Attribute& a : attrs.attributes)
    vals.emplace_back(a.name, attribute_value(a, element_type, defaults.get(), element_type, ctx,
                                              diags, "Invalid attribute value", prefix));
  // With element type `any` the values may differ in type: the map takes
  // the type they unify to, as cty.MapVal requires of them.
  std::vector<const Type*> types;
  for (const auto& v : vals) types.push_back(v.second.type());
  Unified u = unify_unsafe(types);
  if (u.type == nullptr) {
    diags.push_back(
        error("Invalid attribute value",
              "The arguments of a " + go_quote(type_name) + " block must all have the same type.",
              block->def_range));
    return Value::unknown(Type::map(element_type));
  }
  for (size_t i = 0; i < vals.size(); ++i)
    if (u.conversions[i]) vals[i].second = (*u.conversions[i])(vals[i].second).value();
  return Value::map(u.type, std::move(vals));
}

Range BlockAttrsSpec::source_range(const BodyContent& content, std::span<const BlockLabel>) const {
  const Block* b = find_blocks(content, type_name).first;
  return b ? b->def_range : content.missing_item_range;
}

void BlockAttrsSpec::block_header_schemata(std::vector<BlockHeaderSchema>& out) const {
  out.push_back({type_name, {}});
}

const Spec* BlockAttrsSpec::nested_spec() const { return &noop_spec(); }

void BlockAttrsSpec::variables_needed(const BodyContent& content,
                                      std::vector<Traversal>& out) const {
  const Block* b = find_blocks(content, type_name).first;
  if (b == nullptr) return;
  AttributesResult attrs = b->body.just_attributes();
  if (attrs.has_errors()) return;
  std::vector<Traversal> vars;
  for (const Attribute& a : attrs.attributes) {
    std::vector<Traversal> v = a.expr.variables();
    vars.insert(vars.end(), v.begin(), v.end());
  }
  // Source order, so that errors about them come in source order too.
  std::stable_sort(vars.begin(), vars.end(), [](const Traversal& x, const Traversal& y) {
    return x.range().start.byte < y.range().start.byte;
  });
  out.insert(out.end(), vars.begin(), vars.end());
}

Value BlockLabelSpec::decode(const BodyContent&, std::span<const BlockLabel> labels,
                             const EvalContext*, Diagnostics& diags) const {
  if (index >= labels.size()) {
    // The reference panics: a label spec outside a block spec's nested spec.
    diags.push_back(error("Invalid block label spec",
                          "A block label spec is used outside the nested spec of a block.",
                          std::nullopt));
    return Value::null(Type::string());
  }
  return Value::string(labels[index].value);
}

Range BlockLabelSpec::source_range(const BodyContent& content,
                                   std::span<const BlockLabel> labels) const {
  if (index >= labels.size()) return content.missing_item_range;
  return labels[index].range;
}

// --- default, transform, validate ---------------------------------------------------

Value DefaultSpec::decode(const BodyContent& content, std::span<const BlockLabel> labels,
                          const EvalContext* ctx, Diagnostics& diags) const {
  Value v = primary->decode(content, labels, ctx, diags);
  if (v.is_null()) v = fallback->decode(content, labels, ctx, diags);
  return v;
}

void DefaultSpec::visit_same_body_children(const VisitFn& fn) const {
  fn(*primary);
  fn(*fallback);
}

void DefaultSpec::attr_schemata(std::vector<AttributeSchema>& out) const {
  // Both, so that both values are in the content.
  primary->attr_schemata(out);
  fallback->attr_schemata(out);
}

void DefaultSpec::block_header_schemata(std::vector<BlockHeaderSchema>& out) const {
  // Only the primary's: nested_spec() could not say which to use otherwise.
  primary->block_header_schemata(out);
}

Value TransformExprSpec::decode(const BodyContent& content, std::span<const BlockLabel> labels,
                                const EvalContext* ctx, Diagnostics& diags) const {
  size_t before = diags.size();
  Value wrapped_val = wrapped->decode(content, labels, ctx, diags);
  // Errors in the wrapped value would only cause confusing errors here.
  if (has_errors(Diagnostics(diags.begin() + before, diags.end())))
    return Value::unknown(implied_type()->without_optional_attrs_deep());
  EvalContext child(transform_ctx.get());
  child.set(var_name, std::move(wrapped_val));
  EvalResult r = expr.value(&child);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  return r.value;
}

const Type* TransformExprSpec::implied_type() const {
  EvalContext child(transform_ctx.get());
  child.set(var_name, Value::unknown(wrapped->implied_type()));
  return expr.value(&child).value.type();
}

Value TransformFuncSpec::decode(const BodyContent& content, std::span<const BlockLabel> labels,
                                const EvalContext* ctx, Diagnostics& diags) const {
  size_t before = diags.size();
  Value wrapped_val = wrapped->decode(content, labels, ctx, diags);
  if (has_errors(Diagnostics(diags.begin() + before, diags.end())))
    return Value::unknown(implied_type()->without_optional_attrs_deep());
  Value arg[1] = {std::move(wrapped_val)};
  FuncResult r = func->call(arg);
  if (!r.ok()) {
    diags.push_back(error("Transform function failed",
                          "Decoder transform returned an error: " + r.error->message,
                          source_range(content, labels)));
    return Value::unknown(implied_type()->without_optional_attrs_deep());
  }
  return r.value;
}

const Type* TransformFuncSpec::implied_type() const {
  Value arg[1] = {Value::unknown(wrapped->implied_type())};
  TypeResult r = func->return_type(arg);
  return r.ok() ? r.type : Type::dynamic();
}

Value ValidateSpec::decode(const BodyContent& content, std::span<const BlockLabel> labels,
                           const EvalContext* ctx, Diagnostics& diags) const {
  size_t before = diags.size();
  Value v = wrapped->decode(content, labels, ctx, diags);
  if (has_errors(Diagnostics(diags.begin() + before, diags.end())))
    return Value::unknown(implied_type()->without_optional_attrs_deep());
  for (Diagnostic& d : func(v)) {
    if (!d.subject) d.subject = source_range(content, labels);
    diags.push_back(std::move(d));
  }
  return v;
}

// --- building -----------------------------------------------------------------------

namespace {

template <class S>
std::shared_ptr<S> make() {
  return std::make_shared<S>();
}

template <class S>
SpecPtr sequence(std::string type_name, SpecPtr nested, int64_t min_items, int64_t max_items) {
  auto s = make<S>();
  s->type_name = std::move(type_name);
  s->nested = std::move(nested);
  s->min_items = min_items;
  s->max_items = max_items;
  return s;
}

template <class S>
SpecPtr keyed(std::string type_name, std::vector<std::string> label_names, SpecPtr nested) {
  auto s = make<S>();
  s->type_name = std::move(type_name);
  s->label_names = std::move(label_names);
  s->nested = std::move(nested);
  return s;
}

}  // namespace

SpecPtr object_spec(std::vector<std::pair<std::string, SpecPtr>> attrs) {
  std::map<std::string, SpecPtr> byname;
  for (auto& [k, v] : attrs) byname[k] = std::move(v);
  auto s = make<ObjectSpec>();
  for (auto& [k, v] : byname) s->attrs.emplace_back(k, std::move(v));
  return s;
}

SpecPtr tuple_spec(std::vector<SpecPtr> elems) {
  auto s = make<TupleSpec>();
  s->elems = std::move(elems);
  return s;
}

SpecPtr attr_spec(std::string name, const Type* type, bool required,
                  std::shared_ptr<const TypeDefaults> defaults) {
  auto s = make<AttrSpec>();
  s->name = std::move(name);
  s->type = type;
  s->required = required;
  s->defaults = std::move(defaults);
  return s;
}

SpecPtr literal_spec(Value v) {
  auto s = make<LiteralSpec>();
  s->value = std::move(v);
  return s;
}

SpecPtr expr_spec(Expression e) {
  auto s = make<ExprSpec>();
  s->expr = std::move(e);
  return s;
}

SpecPtr block_spec(std::string type_name, SpecPtr nested, bool required) {
  auto s = make<BlockSpec>();
  s->type_name = std::move(type_name);
  s->nested = std::move(nested);
  s->required = required;
  return s;
}

SpecPtr block_list_spec(std::string type_name, SpecPtr nested, int64_t min_items,
                        int64_t max_items) {
  return sequence<BlockListSpec>(std::move(type_name), std::move(nested), min_items, max_items);
}

SpecPtr block_set_spec(std::string type_name, SpecPtr nested, int64_t min_items,
                       int64_t max_items) {
  return sequence<BlockSetSpec>(std::move(type_name), std::move(nested), min_items, max_items);
}

SpecPtr block_tuple_spec(std::string type_name, SpecPtr nested, int64_t min_items,
                         int64_t max_items) {
  return sequence<BlockTupleSpec>(std::move(type_name), std::move(nested), min_items, max_items);
}

SpecPtr block_map_spec(std::string type_name, std::vector<std::string> label_names,
                       SpecPtr nested) {
  return keyed<BlockMapSpec>(std::move(type_name), std::move(label_names), std::move(nested));
}

SpecPtr block_object_spec(std::string type_name, std::vector<std::string> label_names,
                          SpecPtr nested) {
  return keyed<BlockObjectSpec>(std::move(type_name), std::move(label_names), std::move(nested));
}

SpecPtr block_attrs_spec(std::string type_name, const Type* element_type, bool required) {
  auto s = make<BlockAttrsSpec>();
  s->type_name = std::move(type_name);
  s->element_type = element_type;
  s->required = required;
  return s;
}

SpecPtr block_label_spec(size_t index, std::string name) {
  auto s = make<BlockLabelSpec>();
  s->index = index;
  s->name = std::move(name);
  return s;
}

SpecPtr default_spec(SpecPtr primary, SpecPtr fallback) {
  auto s = make<DefaultSpec>();
  s->primary = std::move(primary);
  s->fallback = std::move(fallback);
  return s;
}

SpecPtr transform_expr_spec(SpecPtr wrapped, Expression expr,
                            std::shared_ptr<const EvalContext> ctx, std::string var_name) {
  auto s = make<TransformExprSpec>();
  s->wrapped = std::move(wrapped);
  s->expr = std::move(expr);
  s->transform_ctx = std::move(ctx);
  s->var_name = std::move(var_name);
  return s;
}

SpecPtr transform_func_spec(SpecPtr wrapped, std::shared_ptr<const Function> func) {
  auto s = make<TransformFuncSpec>();
  s->wrapped = std::move(wrapped);
  s->func = std::move(func);
  return s;
}

SpecPtr validate_spec(SpecPtr wrapped, std::function<Diagnostics(const Value&)> func) {
  auto s = make<ValidateSpec>();
  s->wrapped = std::move(wrapped);
  s->func = std::move(func);
  return s;
}

// --- decoding -----------------------------------------------------------------------

BodySchema implied_schema(const Spec& spec) {
  BodySchema schema;
  VisitFn visit = [&](const Spec& s) {
    s.attr_schemata(schema.attributes);
    s.block_header_schemata(schema.blocks);
    s.visit_same_body_children(visit);
  };
  visit(spec);
  return schema;
}

DecodeResult decode(const Body& body, const Spec& spec, const EvalContext* ctx) {
  DecodeResult r;
  r.value = decode_body(body, {}, ctx, spec, r.diagnostics);
  return r;
}

PartialDecodeResult partial_decode(const Body& body, const Spec& spec, const EvalContext* ctx) {
  PartialDecodeResult r;
  PartialContentResult c = body.partial_content(implied_schema(spec));
  r.diagnostics = std::move(c.diagnostics);
  r.remain = std::move(c.remain);
  r.value = spec.decode(c.content, {}, ctx, r.diagnostics);
  return r;
}

const Type* implied_type(const Spec& spec) { return spec.implied_type(); }

Range source_range(const Body& body, const Spec& spec) { return body_source_range(body, {}, spec); }

std::vector<std::pair<std::string, const Spec*>> child_block_types(const Spec& spec) {
  std::map<std::string, const Spec*> found;
  VisitFn visit = [&](const Spec& s) {
    if (const Spec* nested = s.nested_spec()) {
      std::vector<BlockHeaderSchema> headers;
      s.block_header_schemata(headers);
      for (const BlockHeaderSchema& h : headers) found[h.type] = nested;
    }
    s.visit_same_body_children(visit);
  };
  visit(spec);
  return {found.begin(), found.end()};
}

std::vector<Traversal> variables(const Body& body, const Spec& spec) {
  std::vector<Traversal> vars;
  PartialContentResult c = body.partial_content(implied_schema(spec));
  VisitFn visit = [&](const Spec& s) {
    s.variables_needed(c.content, vars);
    s.visit_same_body_children(visit);
  };
  visit(spec);
  return vars;
}

namespace {

// A spec as the dynamic blocks' variables walk sees it.
class SpecWalkSchema final : public dynblock::WalkSchema {
 public:
  explicit SpecWalkSchema(const Spec& spec) : spec_(spec) {}
  BodySchema schema() const override { return implied_schema(spec_); }
  std::shared_ptr<const dynblock::WalkSchema> child(std::string_view block_type) const override {
    for (const auto& [type, nested] : child_block_types(spec_))
      if (type == block_type) return std::make_shared<SpecWalkSchema>(*nested);
    return nullptr;
  }

 private:
  const Spec& spec_;
};

}  // namespace

std::vector<Traversal> dynamic_block_variables(const Body& body, const Spec& spec) {
  return dynblock::walk_tree(dynblock::walk_variables(body), SpecWalkSchema(spec));
}

std::vector<Traversal> dynamic_block_expand_variables(const Body& body, const Spec& spec) {
  return dynblock::walk_tree(dynblock::walk_expand_variables(body), SpecWalkSchema(spec));
}

}  // namespace hclvm::hcldec

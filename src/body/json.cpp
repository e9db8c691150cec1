// Bodies of the JSON syntax (the reference's json/structure.go). A body is
// a JSON value, normally an object whose properties are arguments and
// blocks; an array of objects stands for their properties in turn, and
// null for no properties. What a property means comes from the schema
// only: an argument's value is an expression; a block's value holds one
// level of object properties per label (objects or arrays of objects at
// every level), then the block's body, an object, or an array of them for
// several blocks. Properties named "//" are comments wherever arguments
// are read without a schema or checked for being unexpected.
//
// A remaining body (from partial_content) hides the names the schema took,
// arguments and block types alike. As the reference does, content() looks
// for misplaced values twice (in reading what the schema names, then in
// looking for unexpected properties), so it reports them twice.
#include <hclvm/body.h>

#include <string>
#include <unordered_map>

#include "body/internal.h"
#include "util/unicode.h"

namespace hclvm::body_detail {

namespace {

using json::NodeKind;

class JsonBody final : public BodyImpl {
 public:
  JsonBody(TreePtr tree, const json::Node* val, NameSet hidden)
      : tree_(std::move(tree)), val_(val), hidden_(std::move(hidden)) {}

  Body::Kind kind() const override { return Body::Kind::Json; }
  const json::Node* json_node() const override { return val_; }

  ContentResult content(const BodySchema& schema) const override;
  PartialContentResult partial_content(const BodySchema& schema) const override;
  AttributesResult just_attributes() const override;
  Range missing_item_range() const override;

 private:
  // What partial_content returns, with the names the remaining body hides.
  struct Partial {
    PartialContentResult result;
    NameSet used;
  };
  // Reads what [schema] names (PartialContent).
  Partial read(const BodySchema& schema) const;

  // The name of the file.
  const std::string& file() const { return tree_->source().name(); }
  // Returns the range of [n].
  Range range(const json::Node& n) const { return json::range(n, file()); }
  // Returns the reference's StartRange of [n].
  Range start_range(const json::Node& n) const;
  // Returns the property [p] as an attribute of the content.
  Attribute attribute(const json::Property& p) const;
  // The properties of [v] read as a body, or as the level of the label
  // [label] of a block (non-null): those of an object, or of each object of
  // an array; null has none.
  std::vector<const json::Property*> deep_properties(const json::Node& v, const std::string* label,
                                                     Diagnostics& diags) const;
  // Reads the blocks of type [type] (whose labels are [names]) from [v],
  // the value of the property [type_range], after the labels [labels].
  void unpack_block(const json::Node& v, const std::string& type, const Range& type_range,
                    const std::vector<std::string>& names, std::vector<std::string>& labels,
                    std::vector<Range>& label_ranges, std::vector<Block>& out,
                    Diagnostics& diags) const;

  TreePtr tree_;
  const json::Node* val_;
  NameSet hidden_;
};

// Reports whether [n] is the placeholder object that stands for a root of
// the wrong kind. It has no braces: the reference gives it empty ranges.
bool is_placeholder(const json::Node& n) {
  return n.kind == NodeKind::Object && json::as<json::ObjectNode>(n).close_start.line == 0;
}

Range JsonBody::start_range(const json::Node& n) const {
  if (is_placeholder(n)) return Range{file(), n.start, n.start};
  return json::start_range(n, file());
}

// The closing brace of an object, the opening bracket of an array.
Range JsonBody::missing_item_range() const {
  switch (val_->kind) {
    case NodeKind::Object: {
      const auto& o = json::as<json::ObjectNode>(*val_);
      if (is_placeholder(o)) return zero_range();
      return Range{file(), o.close_start, o.close_end};
    }
    default: return start_range(*val_);
  }
}

Attribute JsonBody::attribute(const json::Property& p) const {
  Range name = range(*p.name);
  return Attribute{std::string(p.name->value), Access::expression(tree_, p.value),
                   range_between(name, range(*p.value)), name};
}

std::vector<const json::Property*> JsonBody::deep_properties(const json::Node& v,
                                                             const std::string* label,
                                                             Diagnostics& diags) const {
  std::vector<const json::Property*> out;
  auto wrong = [&](const json::Node& n, std::string detail) {
    Diagnostic d;
    d.summary = "Incorrect JSON value type";
    d.detail = std::move(detail);
    d.subject = start_range(n);
    diags.push_back(std::move(d));
  };
  switch (v.kind) {
    case NodeKind::Null: break;
    case NodeKind::Object:
      for (const json::Property& p : json::as<json::ObjectNode>(v).properties) out.push_back(&p);
      break;
    case NodeKind::Array:
      for (const json::Node* item : json::as<json::ArrayNode>(v).items) {
        if (item->kind == NodeKind::Object) {
          for (const json::Property& p : json::as<json::ObjectNode>(*item).properties)
            out.push_back(&p);
        } else if (label != nullptr) {
          wrong(*item, "A JSON object is required here, to specify " + *label +
                           " labels for this block.");
        } else {
          wrong(*item, "A JSON object is required here, to define arguments and child blocks.");
        }
      }
      break;
    default:
      if (label != nullptr)
        wrong(v, "Either a JSON object or JSON array of objects is required here, to specify " +
                     *label + " labels for this block.");
      else
        wrong(v,
              "Either a JSON object or JSON array of objects is required here, to define "
              "arguments and child blocks.");
      break;
  }
  return out;
}

void JsonBody::unpack_block(const json::Node& v, const std::string& type, const Range& type_range,
                            const std::vector<std::string>& names,
                            std::vector<std::string>& labels, std::vector<Range>& label_ranges,
                            std::vector<Block>& out, Diagnostics& diags) const {
  if (labels.size() < names.size()) {
    const std::string& label = names[labels.size()];
    std::vector<const json::Property*> props = deep_properties(v, &label, diags);
    if (props.empty()) {
      Diagnostic d;
      d.summary = "Missing block label";
      d.detail = "At least one object property is required, whose name represents the " + type +
                 " block's " + label + ".";
      d.subject = start_range(v);
      diags.push_back(std::move(d));
      return;
    }
    for (const json::Property* p : props) {
      labels.emplace_back(p->name->value);
      label_ranges.push_back(range(*p->name));
      unpack_block(*p->value, type, type_range, names, labels, label_ranges, out, diags);
      labels.pop_back();
      label_ranges.pop_back();
    }
    return;
  }
  auto add = [&](const json::Node& body, const json::Node& def) {
    Block b;
    b.type = type;
    b.labels = labels;
    b.body = make_json_body(tree_, &body);
    b.def_range = start_range(def);
    b.type_range = type_range;
    b.label_ranges = label_ranges;
    out.push_back(std::move(b));
  };
  switch (v.kind) {
    case NodeKind::Null: break;  // no block at all
    case NodeKind::Object: add(v, v); break;
    case NodeKind::Array:
      // One block per item, whatever the item is: its body reports a
      // wrong kind when read.
      for (const json::Node* item : json::as<json::ArrayNode>(v).items) add(*item, v);
      break;
    default: {
      Diagnostic d;
      d.summary = "Incorrect JSON value type";
      d.detail = "Either a JSON object or a JSON array is required, representing the contents of "
                 "one or more " +
                 uni::go_quote(type) + " blocks.";
      d.subject = start_range(v);
      diags.push_back(std::move(d));
      break;
    }
  }
}

JsonBody::Partial JsonBody::read(const BodySchema& schema) const {
  Partial p;
  PartialContentResult& r = p.result;
  Diagnostics& diags = r.diagnostics;
  std::vector<const json::Property*> props = deep_properties(*val_, nullptr, diags);
  p.used = hidden_;
  r.content.missing_item_range = missing_item_range();

  // A name the schema lists twice takes its last entry.
  std::unordered_map<std::string_view, const AttributeSchema*> attrs;
  std::unordered_map<std::string_view, const BlockHeaderSchema*> blocks;
  for (const AttributeSchema& s : schema.attributes) attrs[s.name] = &s;
  for (const BlockHeaderSchema& s : schema.blocks) blocks[s.type] = &s;

  for (const json::Property* prop : props) {
    std::string_view name = prop->name->value;
    if (hidden_.count(name) != 0) continue;
    if (attrs.count(name) != 0) {
      if (const Attribute* existing = r.content.attributes.find(name)) {
        Diagnostic d;
        d.summary = "Duplicate argument";
        d.detail = "The argument " + uni::go_quote(name) + " was already set at " +
                   range_string(existing->range) + ".";
        d.subject = range(*prop->name);
        d.context = d.subject;
        diags.push_back(std::move(d));
        continue;
      }
      r.content.attributes.add(attribute(*prop));
      p.used.emplace(name);
    } else if (auto b = blocks.find(name); b != blocks.end()) {
      std::vector<std::string> labels;
      std::vector<Range> label_ranges;
      unpack_block(*prop->value, b->second->type, range(*prop->name), b->second->label_names,
                   labels, label_ranges, r.content.blocks, diags);
      p.used.emplace(name);
    }
    // Anything else is for a later schema: content() reports it.
  }

  for (const AttributeSchema& s : schema.attributes) {
    if (!s.required || r.content.attributes.contains(s.name)) continue;
    Diagnostic d;
    d.summary = "Missing required argument";
    d.detail =
        "The argument " + uni::go_quote(s.name) + " is required, but no definition was found.";
    d.subject = missing_item_range();
    diags.push_back(std::move(d));
  }
  r.remain = make_json_body(tree_, val_, p.used);
  return p;
}

PartialContentResult JsonBody::partial_content(const BodySchema& schema) const {
  return std::move(read(schema).result);
}

ContentResult JsonBody::content(const BodySchema& schema) const {
  Partial p = read(schema);
  ContentResult r{std::move(p.result.content), std::move(p.result.diagnostics)};
  // Arguments not used yet are suggested; block types always, since blocks
  // may repeat.
  std::vector<std::string> candidates;
  for (const AttributeSchema& s : schema.attributes)
    if (p.used.count(s.name) == 0) candidates.push_back(s.name);
  for (const BlockHeaderSchema& s : schema.blocks) candidates.push_back(s.type);

  for (const json::Property* prop : deep_properties(*val_, nullptr, r.diagnostics)) {
    std::string_view name = prop->name->value;
    if (name == "//" || p.used.count(name) != 0) continue;
    std::string suggestion = name_suggestion(name, candidates);
    Diagnostic d;
    d.summary = "Extraneous JSON object property";
    d.detail = "No argument or block type is named " + uni::go_quote(name) + "." +
               (suggestion.empty() ? "" : " Did you mean " + uni::go_quote(suggestion) + "?");
    d.subject = range(*prop->name);
    d.context = d.subject;
    r.diagnostics.push_back(std::move(d));
  }
  return r;
}

AttributesResult JsonBody::just_attributes() const {
  AttributesResult r;
  if (val_->kind != NodeKind::Object) {
    Diagnostic d;
    d.summary = "Incorrect JSON value type";
    d.detail = "A JSON object is required here, setting the arguments for this block.";
    d.subject = start_range(*val_);
    r.diagnostics.push_back(std::move(d));
    return r;
  }
  for (const json::Property& p : json::as<json::ObjectNode>(*val_).properties) {
    std::string_view name = p.name->value;
    if (name == "//" || hidden_.count(name) != 0) continue;
    if (const Attribute* existing = r.attributes.find(name)) {
      Diagnostic d;
      d.summary = "Duplicate attribute definition";
      d.detail = "The argument " + uni::go_quote(name) + " was already set at " +
                 range_string(existing->range) + ".";
      d.subject = range(*p.name);
      r.diagnostics.push_back(std::move(d));
      continue;
    }
    r.attributes.add(attribute(p));
  }
  return r;
}

}  // namespace

Body make_json_body(TreePtr tree, const json::Node* v, NameSet hidden_attrs) {
  return Access::body(std::make_shared<JsonBody>(std::move(tree), v, std::move(hidden_attrs)));
}

}  // namespace hclvm::body_detail

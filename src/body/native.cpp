// Bodies of the native syntax (hclsyntax's Body.Content, PartialContent,
// JustAttributes and MissingItemRange). A body read with partial_content
// leaves a body over the same tree that hides what the schema took: the
// attributes it found, and every block type it named (blocks of a type may
// repeat, so a type is hidden only once all of its blocks are read).
//
// The reference keeps the hidden names. A name hides nothing but the body's
// own items of that name (attribute names are unique in a body, which the
// parser checks), so here a body keeps one flag per attribute and block of
// its syntax: hidden or not. That reads the same, without a set of strings
// copied at every read.
//
// The reference keeps a body's attributes in a Go map, so it reports
// unexpected arguments in no particular order; here they come in source
// order, as do the attributes of the content.
#include <hclvm/body.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "body/internal.h"
#include "util/unicode.h"

namespace hclvm::body_detail {

namespace {

// Flags over a body's attributes, then its blocks: the hidden ones. Empty
// when none is.
using Hidden = std::vector<bool>;

class NativeBody final : public BodyImpl {
 public:
  NativeBody(TreePtr tree, const ast::Body* body, Hidden hidden)
      : tree_(std::move(tree)), body_(body), hidden_(std::move(hidden)) {}

  Body::Kind kind() const override { return Body::Kind::Native; }
  const ast::Body* native_body() const override { return body_; }
  const Tree* tree() const override { return tree_.get(); }

  ContentResult content(const BodySchema& schema) const override;
  PartialContentResult partial_content(const BodySchema& schema) const override;
  AttributesResult just_attributes() const override;

  // The start of the body, empty: its opening brace, or the file's start.
  Range missing_item_range() const override {
    Range r = range(body_->span);
    r.end = r.start;
    return r;
  }

 private:
  // The content of a schema, and what a remaining body hides (a flag for
  // every item).
  struct Partial {
    PartialContentResult result;
    Hidden hidden;
  };
  // Reads what [schema] names (PartialContent).
  Partial read(const BodySchema& schema) const;
  // The index of the attribute named [name], or -1.
  long attribute_index(std::string_view name) const;

  // Returns the range of span [s] of the file.
  Range range(ast::Span s) const { return tree_->source().range(s); }
  // Returns the attribute [a] of this body as content.
  Attribute attribute(const ast::Attribute& a) const;
  // Returns the block [b] of this body as content.
  Block block(const ast::Block& b) const;

  TreePtr tree_;
  const ast::Body* body_;
  Hidden hidden_;
};

long NativeBody::attribute_index(std::string_view name) const {
  const auto& attrs = body_->attributes;
  for (uint32_t i = 0; i < attrs.size; ++i)
    if (attrs[i]->name == name) return long(i);
  return -1;
}

Attribute NativeBody::attribute(const ast::Attribute& a) const {
  return Attribute{std::string(a.name), Access::expression(tree_, a.expr), range(a.span),
                   range(a.name_span)};
}

Block NativeBody::block(const ast::Block& b) const {
  Block out;
  out.type = std::string(b.type);
  for (std::string_view l : b.labels) out.labels.emplace_back(l);
  out.body = make_native_body(tree_, b.body);
  out.type_range = range(b.type_span);
  for (ast::Span s : b.label_spans) out.label_ranges.push_back(range(s));
  out.def_range = range_between(
      out.type_range, out.label_ranges.empty() ? out.type_range : out.label_ranges.back());
  return out;
}

NativeBody::Partial NativeBody::read(const BodySchema& schema) const {
  Partial p;
  const uint32_t n_attrs = body_->attributes.size, n_blocks = body_->blocks.size;
  p.hidden = hidden_;
  if (p.hidden.empty()) p.hidden.assign(n_attrs + n_blocks, false);
  PartialContentResult& r = p.result;
  Diagnostics& diags = r.diagnostics;

  // Arguments, in the schema's order: a name the schema lists twice is
  // found once and missing the second time, as in the reference. A large
  // body is looked up through a map, a small one by a walk.
  std::unordered_map<std::string_view, uint32_t> by_name;
  if (n_attrs > 16)
    for (uint32_t i = 0; i < n_attrs; ++i) by_name.emplace(body_->attributes[i]->name, i);
  std::vector<bool> taken(n_attrs, false);
  for (const AttributeSchema& s : schema.attributes) {
    long i = -1;
    if (n_attrs > 16) {
      auto it = by_name.find(s.name);
      if (it != by_name.end()) i = long(it->second);
    } else {
      i = attribute_index(s.name);
    }
    if (i < 0 || p.hidden[size_t(i)]) {
      if (s.required) {
        Diagnostic d;
        d.summary = "Missing required argument";
        d.detail = "The argument " + uni::go_quote(s.name) +
                   " is required, but no definition was found.";
        d.subject = missing_item_range();
        diags.push_back(std::move(d));
      }
      continue;
    }
    p.hidden[size_t(i)] = true;
    taken[size_t(i)] = true;
  }
  for (uint32_t i = 0; i < n_attrs; ++i)
    if (taken[i]) r.content.attributes.add(attribute(*body_->attributes[i]));

  // Blocks: a type the schema lists twice takes its last header.
  auto header_of = [&schema](std::string_view type) -> const BlockHeaderSchema* {
    for (size_t k = schema.blocks.size(); k-- > 0;)
      if (schema.blocks[k].type == type) return &schema.blocks[k];
    return nullptr;
  };
  for (uint32_t bi = 0; bi < n_blocks; ++bi) {
    const ast::Block* b = body_->blocks[bi];
    if (p.hidden[n_attrs + bi]) continue;
    const BlockHeaderSchema* wanted = header_of(b->type);
    if (wanted == nullptr) continue;
    const std::vector<std::string>& names = wanted->label_names;
    if (b->labels.size == names.size()) {
      r.content.blocks.push_back(block(*b));
      continue;
    }
    std::string type(b->type);
    Range header = range_between(range(b->type_span), range(b->open_brace_span));
    if (b->labels.size > names.size()) {
      Diagnostic d;
      d.summary = "Extraneous label for " + type;
      if (names.empty()) {
        d.detail = "No labels are expected for " + type + " blocks.";
      } else {
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
        d.detail = "Only " + std::to_string(names.size()) + " labels (" + list +
                   ") are expected for " + type + " blocks.";
      }
      d.subject = range(b->label_spans[uint32_t(names.size())]);
      d.context = header;
      diags.push_back(std::move(d));
      continue;
    }
    {  // fewer labels than names
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      Diagnostic d;
      d.summary = "Missing " + names[b->labels.size] + " for " + type;
      d.detail = "All " + type + " blocks must have " + std::to_string(names.size()) +
                 " labels (" + list + ").";
      d.subject = range(b->open_brace_span);
      d.context = header;
      diags.push_back(std::move(d));
    }
  }
  // Types are hidden only now, so that every block of a type is read.
  for (uint32_t bi = 0; bi < n_blocks; ++bi)
    if (header_of(body_->blocks[bi]->type) != nullptr) p.hidden[n_attrs + bi] = true;

  r.content.missing_item_range = missing_item_range();
  r.remain = Access::body(std::make_shared<NativeBody>(tree_, body_, p.hidden));
  return p;
}

PartialContentResult NativeBody::partial_content(const BodySchema& schema) const {
  return std::move(read(schema).result);
}

ContentResult NativeBody::content(const BodySchema& schema) const {
  Partial p = read(schema);
  ContentResult r{std::move(p.result.content), std::move(p.result.diagnostics)};
  for (uint32_t i = 0; i < body_->attributes.size; ++i) {
    const ast::Attribute* a = body_->attributes[i];
    if (p.hidden[i]) continue;
    // Suggest the arguments not found yet; else a block type of this name.
    std::vector<std::string> candidates;
    for (const AttributeSchema& s : schema.attributes)
      if (!r.content.attributes.contains(s.name)) candidates.push_back(s.name);
    std::string suggestion = name_suggestion(a->name, candidates);
    std::string hint;
    if (!suggestion.empty()) {
      hint = " Did you mean " + uni::go_quote(suggestion) + "?";
    } else {
      for (const BlockHeaderSchema& s : schema.blocks) {
        if (s.type == a->name) {
          hint = " Did you mean to define a block of type " + uni::go_quote(a->name) + "?";
          break;
        }
      }
    }
    Diagnostic d;
    d.summary = "Unsupported argument";
    d.detail = "An argument named " + uni::go_quote(a->name) + " is not expected here." + hint;
    d.subject = range(a->name_span);
    r.diagnostics.push_back(std::move(d));
  }
  for (uint32_t bi = 0; bi < body_->blocks.size; ++bi) {
    const ast::Block* b = body_->blocks[bi];
    if (p.hidden[body_->attributes.size + bi]) continue;
    std::vector<std::string> candidates;
    for (const BlockHeaderSchema& s : schema.blocks) candidates.push_back(s.type);
    std::string suggestion = name_suggestion(b->type, candidates);
    std::string hint;
    if (!suggestion.empty()) {
      hint = " Did you mean " + uni::go_quote(suggestion) + "?";
    } else {
      for (const AttributeSchema& s : schema.attributes) {
        if (s.name == b->type) {
          hint = " Did you mean to define argument " + uni::go_quote(b->type) +
                 "? If so, use the equals sign to assign it a value.";
          break;
        }
      }
    }
    Diagnostic d;
    d.summary = "Unsupported block type";
    d.detail = "Blocks of type " + uni::go_quote(b->type) + " are not expected here." + hint;
    d.subject = range(b->type_span);
    r.diagnostics.push_back(std::move(d));
  }
  return r;
}

AttributesResult NativeBody::just_attributes() const {
  AttributesResult r;
  if (!body_->blocks.empty()) {
    // The first block, even one a partial content took: the reference
    // reports it whatever it hides.
    const ast::Block& b = *body_->blocks[0];
    Diagnostic d;
    d.summary = "Unexpected " + uni::go_quote(b.type) + " block";
    d.detail = "Blocks are not allowed here.";
    d.subject = range(b.type_span);
    r.diagnostics.push_back(std::move(d));
  }
  for (uint32_t i = 0; i < body_->attributes.size; ++i)
    if (hidden_.empty() || !hidden_[i]) r.attributes.add(attribute(*body_->attributes[i]));
  return r;
}

}  // namespace

Body make_native_body(TreePtr tree, const ast::Body* b) {
  return Access::body(std::make_shared<NativeBody>(std::move(tree), b, Hidden{}));
}

}  // namespace hclvm::body_detail

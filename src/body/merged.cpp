// Merged bodies (the reference's merged.go): several bodies read as one.
// Each body is read with the schema made optional, since any one of them
// may set an argument; an argument set by two bodies is a "Duplicate
// argument", and required arguments are checked over the whole at the end
// (without a source range: no one body is at fault). Blocks come body by
// body. A partial read leaves the merge of each body's remaining body.
//
// Merging flattens: a merged body among the inputs contributes its bodies,
// so an empty merge vanishes. A merge of one body is still a merge (its
// required arguments are checked the merged way).
#include <hclvm/body.h>

#include "body/internal.h"
#include "util/unicode.h"

namespace hclvm::body_detail {

namespace {

class MergedBody final : public BodyImpl {
 public:
  explicit MergedBody(std::vector<Body> bodies) : bodies_(std::move(bodies)) {}

  Body::Kind kind() const override { return Body::Kind::Merged; }
  std::vector<Body> merged() const override { return bodies_; }

  ContentResult content(const BodySchema& schema) const override {
    PartialContentResult r = read(schema, false);
    return ContentResult{std::move(r.content), std::move(r.diagnostics)};
  }
  PartialContentResult partial_content(const BodySchema& schema) const override {
    return read(schema, true);
  }
  AttributesResult just_attributes() const override;

  Range missing_item_range() const override {
    // The reference takes the first body's, for want of a better one.
    return bodies_.empty() ? zero_range("<empty>") : bodies_[0].missing_item_range();
  }

 private:
  PartialContentResult read(const BodySchema& schema, bool partial) const;

  std::vector<Body> bodies_;
};

// Adds the attributes of [from] to [to]; one already there is reported.
void merge_attributes(Attributes& to, const Attributes& from, Diagnostics& diags) {
  for (const Attribute& a : from) {
    if (const Attribute* existing = to.find(a.name)) {
      Diagnostic d;
      d.summary = "Duplicate argument";
      d.detail = "Argument " + uni::go_quote(a.name) + " was already set at " +
                 range_string(existing->name_range);
      d.subject = a.name_range;
      diags.push_back(std::move(d));
      continue;
    }
    to.add(a);
  }
}

PartialContentResult MergedBody::read(const BodySchema& schema, bool partial) const {
  BodySchema optional = schema;
  for (AttributeSchema& s : optional.attributes) s.required = false;

  PartialContentResult r;
  // The reference leaves the merged content's missing item range unset.
  r.content.missing_item_range = zero_range();
  std::vector<Body> remains;
  for (const Body& b : bodies_) {
    BodyContent c;
    if (partial) {
      PartialContentResult p = b.partial_content(optional);
      c = std::move(p.content);
      remains.push_back(std::move(p.remain));
      r.diagnostics.insert(r.diagnostics.end(), p.diagnostics.begin(), p.diagnostics.end());
    } else {
      ContentResult p = b.content(optional);
      c = std::move(p.content);
      r.diagnostics.insert(r.diagnostics.end(), p.diagnostics.begin(), p.diagnostics.end());
    }
    merge_attributes(r.content.attributes, c.attributes, r.diagnostics);
    for (Block& blk : c.blocks) r.content.blocks.push_back(std::move(blk));
  }
  for (const AttributeSchema& s : schema.attributes) {
    if (!s.required || r.content.attributes.contains(s.name)) continue;
    Diagnostic d;
    d.summary = "Missing required argument";
    d.detail = "The argument " + uni::go_quote(s.name) + " is required, but was not set.";
    r.diagnostics.push_back(std::move(d));
  }
  r.remain = merge_bodies(std::move(remains));
  return r;
}

AttributesResult MergedBody::just_attributes() const {
  AttributesResult r;
  for (const Body& b : bodies_) {
    AttributesResult a = b.just_attributes();
    r.diagnostics.insert(r.diagnostics.end(), a.diagnostics.begin(), a.diagnostics.end());
    merge_attributes(r.attributes, a.attributes, r.diagnostics);
  }
  return r;
}

}  // namespace

const BodyImpl& empty_body() {
  static const MergedBody empty{{}};
  return empty;
}

}  // namespace hclvm::body_detail

namespace hclvm {

Body merge_bodies(std::vector<Body> bodies) {
  using body_detail::Access;
  std::vector<Body> flat;
  for (Body& b : bodies) {
    const body_detail::BodyImpl* impl = Access::impl(b);
    if (impl == nullptr) continue;  // the empty body
    if (impl->kind() == Body::Kind::Merged) {
      for (Body& inner : impl->merged()) flat.push_back(std::move(inner));
    } else {
      flat.push_back(std::move(b));
    }
  }
  if (flat.empty()) return Body();
  return Access::body(std::make_shared<body_detail::MergedBody>(std::move(flat)));
}

}  // namespace hclvm

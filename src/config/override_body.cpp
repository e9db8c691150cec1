// Terraform's MergeBodies for override files (internal/configs/
// module_merge_body.go), which is not hcl.MergeBodies: an argument of the
// override replaces the base's argument of that name; if the override has
// any block of a type (or a `dynamic` block of that type), every block of
// that type of the base (and the base's dynamic blocks of it) is dropped
// and the override's follow the remaining ones. Reading with a schema
// reads both bodies partially, so neither reports what the other has.
#include "config/override_body.h"

#include <set>

#include "body/internal.h"
#include "config/internal.h"

namespace hclvm::config::detail {

namespace {

// [s] with a `dynamic "T"` block type added, as schemaWithDynamic does.
BodySchema with_dynamic(BodySchema s) {
  for (const BlockHeaderSchema& b : s.blocks)
    if (b.type == "dynamic") return s;
  s.blocks.push_back({"dynamic", {"type"}});
  return s;
}

// [s] with no argument required (schemaForOverrides).
BodySchema optional(BodySchema s) {
  for (AttributeSchema& a : s.attributes) a.required = false;
  return s;
}

// The block type a block of the content stands for: a dynamic block's label.
std::string block_kind(const Block& b) {
  if (b.type == "dynamic" && !b.labels.empty()) return b.labels[0];
  return b.type;
}

class OverrideBody final : public body_detail::BodyImpl {
 public:
  OverrideBody(Body base, Body over) : base_(std::move(base)), over_(std::move(over)) {}

  Body::Kind kind() const override { return Body::Kind::Other; }

  ContentResult content(const BodySchema& schema) const override {
    PartialContentResult r = partial_content(schema);
    return ContentResult{std::move(r.content), std::move(r.diagnostics)};
  }

  PartialContentResult partial_content(const BodySchema& schema) const override {
    bool asked_dynamic = false;
    for (const BlockHeaderSchema& b : schema.blocks) asked_dynamic |= b.type == "dynamic";
    PartialContentResult b = base_.partial_content(with_dynamic(schema));
    PartialContentResult o = over_.partial_content(with_dynamic(optional(schema)));
    PartialContentResult r;
    r.diagnostics = std::move(b.diagnostics);
    r.diagnostics.insert(r.diagnostics.end(), o.diagnostics.begin(), o.diagnostics.end());
    r.content = prepare(b.content, o.content);
    if (!asked_dynamic) {
      // The caller did not ask for dynamic blocks: leave them in the remainder.
      std::vector<Block> kept;
      for (Block& blk : r.content.blocks)
        if (blk.type != "dynamic") kept.push_back(std::move(blk));
      r.content.blocks = std::move(kept);
    }
    r.remain = make_override_body(std::move(b.remain), std::move(o.remain));
    return r;
  }

  AttributesResult just_attributes() const override {
    AttributesResult b = base_.just_attributes();
    AttributesResult o = over_.just_attributes();
    AttributesResult r;
    r.diagnostics = std::move(b.diagnostics);
    r.diagnostics.insert(r.diagnostics.end(), o.diagnostics.begin(), o.diagnostics.end());
    for (const Attribute& a : b.attributes) {
      const Attribute* ov = o.attributes.find(a.name);
      r.attributes.add(ov ? *ov : a);
    }
    for (const Attribute& a : o.attributes) r.attributes.add(a);
    return r;
  }

  Range missing_item_range() const override { return base_.missing_item_range(); }

  const Body& base() const { return base_; }
  const Body& over() const { return over_; }

 private:
  // prepareContent: the base's content with the override's applied.
  static BodyContent prepare(const BodyContent& base, const BodyContent& over) {
    BodyContent c;
    c.missing_item_range = base.missing_item_range;
    for (const Attribute& a : base.attributes) {
      const Attribute* ov = over.attributes.find(a.name);
      c.attributes.add(ov ? *ov : a);
    }
    for (const Attribute& a : over.attributes) c.attributes.add(a);
    std::set<std::string> overridden;
    for (const Block& b : over.blocks) overridden.insert(block_kind(b));
    for (const Block& b : base.blocks)
      if (!overridden.count(block_kind(b))) c.blocks.push_back(b);
    for (const Block& b : over.blocks) c.blocks.push_back(b);
    return c;
  }

  Body base_, over_;
};

}  // namespace

std::optional<std::pair<Body, Body>> override_parts(const Body& b) {
  const auto* impl = dynamic_cast<const OverrideBody*>(body_detail::Access::impl(b));
  if (impl == nullptr) return std::nullopt;
  return std::make_pair(impl->base(), impl->over());
}

Body make_override_body(Body base, Body over) {
  return body_detail::Access::body(
      std::make_shared<OverrideBody>(std::move(base), std::move(over)));
}

}  // namespace hclvm::config::detail

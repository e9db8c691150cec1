// A body written as JSON in the shape an hcldec spec gives it (`hclvm json
// --spec`): what hcldec's decoding would return, object for object and
// block for block, with every attribute that the spec's context can
// evaluate as its value converted to the spec's type, and every one it
// cannot (variables and functions the spec does not define) kept as the
// JSON syntax writes it ("${SOURCE}" for an expression), so that nothing
// is lost.
#include <hclvm/convert.h>
#include <hclvm/hcldec.h>
#include <hclvm/json_syntax.h>
#include <hclvm/value_json.h>

#include "convert/json_syntax_expr.h"
#include "convert/json_writer.h"
#include "util/stack.h"

#include <string>
#include <vector>

namespace hclvm::convert {

namespace {

using namespace hcldec;

class SpecJson {
 public:
  SpecJson(const EvalContext* ctx, Diagnostics& diags) : ctx_(ctx), diags_(diags) {}

  // The value of [spec] for [body], whose enclosing blocks' labels left for
  // it are [labels].
  JValue body(const Spec& spec, const Body& body, const std::vector<BlockLabel>& labels) {
    util::enter_level();
    ContentResult c = body.content(implied_schema(spec));
    diags_.insert(diags_.end(), c.diagnostics.begin(), c.diagnostics.end());
    return node(spec, c.content, labels);
  }

 private:
  const EvalContext* ctx_;
  Diagnostics& diags_;

  JValue node(const Spec& spec, const BodyContent& c, const std::vector<BlockLabel>& labels) {
    util::enter_level();
    if (const auto* o = dynamic_cast<const ObjectSpec*>(&spec)) {
      JValue v = JValue::object();
      for (const auto& [name, child] : o->attrs) v.props.emplace_back(name, node(*child, c, labels));
      return v;
    }
    if (const auto* t = dynamic_cast<const TupleSpec*>(&spec)) {
      JValue v = JValue::array();
      for (const SpecPtr& e : t->elems) v.items.push_back(node(*e, c, labels));
      return v;
    }
    if (const auto* a = dynamic_cast<const AttrSpec*>(&spec)) return attr(*a, c, labels);
    if (const auto* b = dynamic_cast<const BlockSpec*>(&spec)) {
      auto blocks = c.blocks_of_type(b->type_name);
      if (blocks.empty()) return leaf(spec, c, labels);  // null, or "Missing ... block" when required
      return block_body(*b, *blocks[0], 0);
    }
    if (const auto* b = dynamic_cast<const BlockSequenceSpec*>(&spec)) {
      JValue v = JValue::array();
      for (const Block* blk : c.blocks_of_type(b->type_name)) v.items.push_back(block_body(*b, *blk, 0));
      if (v.items.size() < size_t(b->min_items) || (b->max_items > 0 && v.items.size() > size_t(b->max_items)))
        (void)leaf(spec, c, labels);  // hcldec's count errors
      return v;
    }
    if (const auto* b = dynamic_cast<const BlockKeyedSpec*>(&spec)) {
      JValue v = JValue::object();
      for (const Block* blk : c.blocks_of_type(b->type_name)) {
        if (blk->labels.size() < b->label_names.size()) continue;  // the content read reported it
        JValue* level = &v;
        for (size_t i = 0; i < b->label_names.size(); ++i) {
          const std::string& key = blk->labels[i];
          JValue* next = nullptr;
          for (JProp& p : level->props)
            if (p.first == key) next = &p.second;
          if (next == nullptr) {
            level->props.emplace_back(key, i + 1 < b->label_names.size() ? JValue::object() : JValue::raw("null"));
            next = &level->props.back().second;
          }
          level = next;
        }
        *level = block_body(*b, *blk, b->label_names.size());
      }
      return v;
    }
    if (const auto* d = dynamic_cast<const DefaultSpec*>(&spec)) {
      JValue v = node(*d->primary, c, labels);
      return v.kind == JValue::Kind::Raw && v.text == "null" ? node(*d->fallback, c, labels) : v;
    }
    if (const auto* l = dynamic_cast<const BlockLabelSpec*>(&spec)) {
      if (l->index < labels.size()) return JValue::string(labels[l->index].value);
      return leaf(spec, c, labels);
    }
    if (const auto* e = dynamic_cast<const ExprSpec*>(&spec)) return expression(e->expr);
    return leaf(spec, c, labels);
  }

  // The body of block [blk] of block spec [b], whose first [skip] labels
  // are the spec's keys.
  JValue block_body(const BlockSpecBase& b, const Block& blk, size_t skip) {
    std::vector<BlockLabel> labels;
    for (size_t i = skip; i < blk.labels.size(); ++i)
      labels.push_back({blk.labels[i], i < blk.label_ranges.size() ? blk.label_ranges[i] : blk.def_range});
    if (!b.nested) return JValue::raw("null");
    return body(*b.nested, blk.body, labels);
  }

  // An attribute: its value when the context evaluates it, converted to
  // the spec's type; else its expression as the JSON syntax writes it.
  JValue attr(const AttrSpec& a, const BodyContent& c, const std::vector<BlockLabel>& labels) {
    const Attribute* at = c.attributes.find(a.name);
    if (at == nullptr) return leaf(a, c, labels);
    EvalResult r = at->expr.value(ctx_);
    if (has_errors(r.diagnostics) || !r.value.is_wholly_known()) return expression(at->expr);
    return leaf(a, c, labels);
  }

  // The value hcldec's decoding gives [spec] here, as JSON; what JSON
  // cannot write (an unknown value) as null. Its diagnostics are kept.
  JValue leaf(const Spec& spec, const BodyContent& c, const std::vector<BlockLabel>& labels) {
    Value v = spec.decode(c, labels, ctx_, diags_);
    JsonText j = value_to_json(v.unmark_deep().first);
    if (!j.ok()) return JValue::raw("null");
    // Read back as a tree, so that it is laid out as the rest.
    JsonParse p = parse_json_expression(make_source("<value>", std::move(j.json)));
    return p.root != nullptr && !p.has_errors() ? json_tree(*p.root) : JValue::raw("null");
  }

  // Expression [e] as the JSON syntax writes it: a native expression as
  // its JSON-syntax form, a JSON value as it stands in the file.
  JValue expression(const Expression& e) {
    if (const ast::Expr* n = e.native_expr()) return native_expr_as_json(*n, e.source());
    Range r = e.range();
    std::string_view text = e.source().text();
    if (e.json_node() != nullptr && r.end.byte <= text.size())
      return JValue::raw(std::string(text.substr(r.start.byte, r.end.byte - r.start.byte)));
    return JValue::raw("null");
  }
};

}  // namespace

Result body_to_spec_json(const Body& body, const hcldec::Spec& spec, const EvalContext* ctx) {
  Result r;
  r.text = util::run_deep([&](const util::StackBudget&) {
    SpecJson w(ctx, r.diagnostics);
    JValue doc = w.body(spec, body, {});
    uni::JsonQuoting q;
    q.html = false;
    std::string out;
    write_json(doc, out, q);
    out += '\n';
    return out;
  });
  if (has_errors(r.diagnostics)) r.text.clear();
  return r;
}

}  // namespace hclvm::convert

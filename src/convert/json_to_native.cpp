// The HCL JSON syntax written back as the native syntax (`hclvm json --to
// hcl`): a body's properties become attributes and, where the layout says
// so, blocks; JSON values become the native expressions the reference
// reads them as.
//
// Expressions: a string is a template. One that is a single interpolation
// and nothing else ("${EXPR}", which the reference unwraps to the
// expression's own value) becomes EXPR, in parentheses when it spans
// lines; any other becomes a quoted template whose literal text is
// escaped for quotes and whose sequences are copied as they are. Numbers,
// booleans and null are literals; arrays tuples; objects object
// constructors with keys written as names where they are plain names.
//
// Bodies: a property the layout names as a block type nests one JSON
// object per label level, any level possibly an array of such objects;
// after the labels an object is one block's body and an array one body per
// block. "//" properties of bodies are comments.
//
// The text is built with two spaces a level and then laid out by the
// formatter (format_hcl), which aligns the `=` of runs of attributes; the
// result is parsed again as a last check.
#include <hclvm/convert.h>
#include <hclvm/format.h>
#include <hclvm/hcldec.h>
#include <hclvm/json_syntax.h>

#include "syntax/token.h"
#include "util/stack.h"
#include "value/render.h"

#include <algorithm>
#include <string_view>

namespace hclvm::convert {

const BodyLayout::BlockType* BodyLayout::find(std::string_view type) const {
  for (const BlockType& b : blocks)
    if (b.type == type) return &b;
  return nullptr;
}

namespace {

// The layout of the bodies [bodies] (of blocks of one type, or the root):
// each block type with the label count of its first block and the layout
// of all its blocks' bodies.
BodyLayout bodies_layout(const std::vector<const ast::Body*>& bodies) {
  util::enter_level();
  std::vector<std::pair<BodyLayout::BlockType, std::vector<const ast::Body*>>> types;
  for (const ast::Body* body : bodies)
    for (const ast::Block* b : body->blocks) {
      auto it = std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first.type == b->type; });
      if (it == types.end()) {
        types.push_back({BodyLayout::BlockType{std::string(b->type), b->labels.size, nullptr}, {}});
        it = types.end() - 1;
      }
      it->second.push_back(b->body);
    }
  BodyLayout layout;
  for (auto& [type, children] : types) {
    type.body = std::make_shared<const BodyLayout>(bodies_layout(children));
    layout.blocks.push_back(std::move(type));
  }
  return layout;
}

BodyLayout spec_layout(const hcldec::Spec& spec) {
  util::enter_level();
  BodyLayout layout;
  BodySchema schema = hcldec::implied_schema(spec);
  auto nested = hcldec::child_block_types(spec);
  for (const BlockHeaderSchema& h : schema.blocks) {
    BodyLayout::BlockType t{h.type, h.label_names.size(), nullptr};
    for (const auto& [type, child] : nested)
      if (type == h.type && child != nullptr) t.body = std::make_shared<BodyLayout>(spec_layout(*child));
    layout.blocks.push_back(std::move(t));
  }
  return layout;
}

// Reports whether [s] can be written as a bare name in an object
// constructor's key (a keyword cannot: `{null = 1}` would be read as the
// literal null; as an attribute's name it can).
bool bare_name(std::string_view s) {
  return valid_identifier(s) && s != "null" && s != "true" && s != "false" && s != "for" &&
         s != "in" && s != "if";
}

// Reports whether [e] is a number literal's text.
bool number_text(std::string_view e) {
  return !e.empty() && std::all_of(e.begin(), e.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
  }) && e[0] >= '0' && e[0] <= '9';
}

// Reports whether JSON value [v] can hold blocks: an object, or an array
// of objects with at least one. (A property that a layout names as a block
// type but whose value cannot be blocks is an attribute of the same name:
// layouts taken from native files merge the bodies of all blocks of a
// type, and one may have an attribute where another has blocks.)
bool holds_blocks(const json::Node& v) {
  if (v.kind == json::NodeKind::Object) return true;
  if (v.kind != json::NodeKind::Array) return false;
  const auto& items = json::as<json::ArrayNode>(v).items;
  return !items.empty() && std::all_of(items.begin(), items.end(),
                                       [](const json::Node* i) { return i->kind == json::NodeKind::Object; });
}

// Reports whether expression text [e] has a newline outside brackets,
// which would end an attribute: such an expression is written in
// parentheses.
bool breaks_line(std::string_view e) {
  if (e.find('\n') == std::string_view::npos) return false;
  int depth = 0;
  for (const syntax::Token& t : syntax::scan(e, syntax::ScanMode::Normal)) {
    switch (t.type) {
      case syntax::Tok::OBrace:
      case syntax::Tok::OBrack:
      case syntax::Tok::OParen:
      case syntax::Tok::OQuote:
      case syntax::Tok::OHeredoc:
      case syntax::Tok::TemplateInterp:
      case syntax::Tok::TemplateControl: ++depth; break;
      case syntax::Tok::CBrace:
      case syntax::Tok::CBrack:
      case syntax::Tok::CParen:
      case syntax::Tok::CQuote:
      case syntax::Tok::CHeredoc:
      case syntax::Tok::TemplateSeqEnd: --depth; break;
      case syntax::Tok::Newline: if (depth <= 0) return true; break;
      case syntax::Tok::Comment:
        if (depth <= 0 && e.substr(t.span.begin, t.span.end - t.span.begin).find('\n') != std::string_view::npos)
          return true;
        break;
      default: break;
    }
  }
  return false;
}

class NativeWriter {
 public:
  NativeWriter(const JsonParse& doc, Diagnostics& diags) : doc_(doc), diags_(diags) {}

  // Writes the root body [root] with [layout].
  std::string root(const json::Node& root, const BodyLayout& layout) {
    if (root.kind == json::NodeKind::Array) {
      for (const json::Node* item : json::as<json::ArrayNode>(root).items) {
        if (item->kind != json::NodeKind::Object) {
          error(*item, "Incorrect JSON value type",
                "A JSON array at the root of a file must hold objects, each a part of the body.");
          continue;
        }
        body_items(json::as<json::ObjectNode>(*item), &layout, 0);
      }
    } else if (root.kind == json::NodeKind::Object) {
      body_items(json::as<json::ObjectNode>(root), &layout, 0);
    }
    return std::move(out_);
  }

 private:
  const JsonParse& doc_;
  Diagnostics& diags_;
  std::string out_;
  // What was written last at the current level, for blank lines: a block
  // is set apart from what stands before and after it.
  enum class Last : uint8_t { Nothing, Attribute, Block, Comment } last_ = Last::Nothing;

  void error(const json::Node& at, std::string summary, std::string detail) {
    Diagnostic d;
    d.summary = std::move(summary);
    d.detail = std::move(detail);
    d.subject = json::start_range(at, doc_.source->name());
    diags_.push_back(std::move(d));
  }

  void indent(unsigned depth) { out_.append(size_t(depth) * 2, ' '); }

  // Starts an item of a body: a blank line before a block, and before
  // anything after a block. (Comments before a block in its parent body
  // were set apart from it: the comments of a block are in its body.)
  void start_item(bool is_block) {
    if (last_ == Last::Block || (is_block && last_ != Last::Nothing)) out_ += '\n';
  }

  // Writes the properties of body [obj] at indentation [depth].
  void body_items(const json::ObjectNode& obj, const BodyLayout* layout, unsigned depth) {
    util::enter_level();
    for (const json::Property& p : obj.properties) {
      std::string_view name = p.name->value;
      if (name == "//") {
        comment(*p.value, depth);
        continue;
      }
      const BodyLayout::BlockType* bt = layout ? layout->find(name) : nullptr;
      if (bt != nullptr && holds_blocks(*p.value)) {
        std::vector<std::string> labels;
        block_level(*p.value, *bt, labels, depth);
        continue;
      }
      if (!valid_identifier(name)) {
        error(*p.name, "Invalid attribute name",
              "\"" + std::string(name) +
                  "\" cannot be written as an attribute name in the native syntax, which takes only "
                  "identifiers.");
        continue;
      }
      start_item(false);
      indent(depth);
      out_.append(name);
      out_ += " = ";
      expr(*p.value, depth);
      out_ += '\n';
      last_ = Last::Attribute;
    }
  }

  // Writes the string [v] of a "//" property as `#` comment lines.
  void comment(const json::Node& v, unsigned depth) {
    if (v.kind != json::NodeKind::String) return;  // the reference ignores any "//" value
    if (last_ == Last::Block) out_ += '\n';
    std::string_view text = json::as<json::StringNode>(v).value;
    size_t i = 0;
    do {
      size_t nl = text.find('\n', i);
      std::string_view line = text.substr(i, nl == std::string_view::npos ? text.size() - i : nl - i);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      indent(depth);
      out_ += '#';
      if (!line.empty()) {
        out_ += ' ';
        out_.append(line);
      }
      out_ += '\n';
      i = nl == std::string_view::npos ? text.size() : nl + 1;
    } while (i < text.size());
    last_ = Last::Comment;
  }

  // Writes the blocks of type [bt] that value [v] holds, [labels] read so
  // far (one per label level above [v]).
  void block_level(const json::Node& v, const BodyLayout::BlockType& bt, std::vector<std::string>& labels,
                   unsigned depth) {
    util::enter_level();
    if (v.kind == json::NodeKind::Array) {
      for (const json::Node* item : json::as<json::ArrayNode>(v).items) {
        if (item->kind != json::NodeKind::Object) {
          error(*item, "Incorrect JSON value type",
                "Either a JSON object or a JSON array of objects is required here, for the " +
                    (labels.size() < bt.labels ? std::string("labels of ") : std::string("bodies of ")) +
                    "\"" + bt.type + "\" blocks.");
          continue;
        }
        block_level(*item, bt, labels, depth);
      }
      return;
    }
    if (v.kind != json::NodeKind::Object) {
      error(v, "Incorrect JSON value type",
            "Either a JSON object or a JSON array of objects is required here, for the " +
                (labels.size() < bt.labels ? std::string("labels of ") : std::string("bodies of ")) + "\"" +
                bt.type + "\" blocks.");
      return;
    }
    const auto& obj = json::as<json::ObjectNode>(v);
    // A level whose properties are not all blocks' is a body already: the
    // block has fewer labels than the layout's (blocks of one type with
    // different numbers of labels).
    bool body = std::any_of(obj.properties.begin(), obj.properties.end(), [](const json::Property& p) {
      return p.name->value != "//" && !holds_blocks(*p.value);
    });
    if (labels.size() < bt.labels && !body) {
      for (const json::Property& p : obj.properties) {
        std::string_view label = p.name->value;
        if (label.find("${") != std::string_view::npos || label.find("%{") != std::string_view::npos) {
          error(*p.name, "Invalid block label",
                "A label of the native syntax cannot hold \"${\" or \"%{\"; this one cannot be written.");
          continue;
        }
        labels.emplace_back(label);
        block_level(*p.value, bt, labels, depth);
        labels.pop_back();
      }
      return;
    }
    start_item(true);
    indent(depth);
    out_ += bt.type;
    for (const std::string& l : labels) {
      out_ += ' ';
      out_ += hcl_quote(l);
    }
    if (obj.properties.empty()) {
      out_ += " {}\n";
      last_ = Last::Block;
      return;
    } else {
      out_ += " {\n";
      last_ = Last::Nothing;
      body_items(obj, bt.body.get(), depth + 1);
    }
    indent(depth);
    out_ += "}\n";
    last_ = Last::Block;
  }

  // Writes value [v] as an expression, nested lines at [depth] + 1.
  void expr(const json::Node& v, unsigned depth) {
    util::enter_level();
    switch (v.kind) {
      case json::NodeKind::String: string(json::as<json::StringNode>(v), false); return;
      case json::NodeKind::Number: out_.append(json::as<json::NumberNode>(v).text); return;
      case json::NodeKind::Bool: out_ += json::as<json::BoolNode>(v).value ? "true" : "false"; return;
      case json::NodeKind::Null: out_ += "null"; return;
      case json::NodeKind::Invalid: out_ += "null"; return;  // never reached: such a file has errors
      case json::NodeKind::Array: {
        const auto& items = json::as<json::ArrayNode>(v).items;
        bool flat = std::all_of(items.begin(), items.end(), [](const json::Node* i) {
          return i->kind != json::NodeKind::Array && i->kind != json::NodeKind::Object;
        });
        if (flat) {
          out_ += '[';
          for (size_t i = 0; i < items.size; ++i) {
            if (i) out_ += ", ";
            expr(*items[i], depth);
          }
          out_ += ']';
          return;
        }
        out_ += "[\n";
        for (const json::Node* i : items) {
          indent(depth + 1);
          expr(*i, depth + 1);
          out_ += ",\n";
        }
        indent(depth);
        out_ += ']';
        return;
      }
      case json::NodeKind::Object: {
        const auto& props = json::as<json::ObjectNode>(v).properties;
        if (props.empty()) {
          out_ += "{}";
          return;
        }
        out_ += "{\n";
        for (const json::Property& p : props) {
          indent(depth + 1);
          string(*p.name, true);
          out_ += " = ";
          expr(*p.value, depth + 1);
          out_ += '\n';
        }
        indent(depth);
        out_ += '}';
        return;
      }
    }
  }

  // Writes the template that string [s] holds, as an object key when
  // [key] (a plain name bare, an interpolation alone in parentheses).
  void string(const json::StringNode& s, bool key) {
    std::string_view text = s.value;
    // Without "${" or "%{" a string is literal text: no template to parse.
    if (text.find("${") == std::string_view::npos && text.find("%{") == std::string_view::npos) {
      if (key && bare_name(text)) {
        out_.append(text);
      } else {
        out_ += '"';
        append_hcl_escaped(out_, text, false);
        out_ += '"';
      }
      return;
    }
    auto src = make_source(doc_.source->name(), std::string(text));
    ExprParse p = parse_template(src);
    if (p.has_errors() || p.expr == nullptr) {
      std::string why = p.diagnostics.empty() ? std::string() : p.diagnostics.front().summary;
      for (const Diagnostic& d : p.diagnostics)
        if (d.severity == Severity::Error) {
          why = d.summary + (d.detail.empty() ? "" : ": " + d.detail);
          break;
        }
      error(s, "Invalid template", "This string is not a valid template, so it has no native form: " + why);
      return;
    }
    // "${EXPR}" is EXPR, unless EXPR is a literal or template itself
    // (then the template is kept as it is, which means the same).
    const ast::Expr* inner = p.expr->kind == ast::ExprKind::TemplateWrap
                                 ? ast::as<ast::TemplateWrapExpr>(*p.expr).wrapped
                                 : nullptr;
    if (key && inner != nullptr && inner->kind == ast::ExprKind::Literal &&
        ast::as<ast::LiteralExpr>(*inner).value.kind == ast::LitKind::Number) {
      out_.append(text.substr(inner->span.begin, inner->span.end - inner->span.begin));
      return;
    }
    if (inner != nullptr && inner->kind != ast::ExprKind::Literal && inner->kind != ast::ExprKind::Template) {
      std::string_view e = text.substr(inner->span.begin, inner->span.end - inner->span.begin);
      // A key other than a number or a parenthesised expression takes
      // parentheses: a lone name would be read as a literal key, and a
      // conditional's ":" as the item's separator.
      bool parens = key ? !(inner->kind == ast::ExprKind::Parens || number_text(e)) : breaks_line(e);
      if (parens) out_ += '(';
      out_.append(e);
      if (parens) out_ += ')';
      return;
    }
    if (key && bare_name(text)) {
      out_.append(text);
      return;
    }
    quoted_template(text);
  }

  // Writes bare template [text] as a quoted template: literal text escaped,
  // template sequences as they are.
  void quoted_template(std::string_view text) {
    syntax::Tokens toks = syntax::scan(text, syntax::ScanMode::Template);
    out_ += '"';
    size_t at = 0;
    int depth = 0;
    for (const syntax::Token& t : toks) {
      if (t.type == syntax::Tok::EOF_) break;
      if (t.span.begin > at) out_.append(text.substr(at, t.span.begin - at));
      std::string_view tt = text.substr(t.span.begin, t.span.end - t.span.begin);
      if (t.type == syntax::Tok::TemplateInterp || t.type == syntax::Tok::TemplateControl) ++depth;
      if (t.type == syntax::Tok::TemplateSeqEnd) --depth;
      if (depth == 0 && t.type == syntax::Tok::StringLit)
        append_hcl_escaped(out_, tt, false);  // its escapes are already there
      else
        out_.append(tt);
      at = t.span.end;
    }
    if (at < text.size()) out_.append(text.substr(at));
    out_ += '"';
  }
};

}  // namespace

BodyLayout layout_of(const ast::Body& body) {
  return util::run_deep([&](const util::StackBudget&) {
    return bodies_layout({&body});
  });
}

BodyLayout layout_of(const hcldec::Spec& spec) {
  return util::run_deep([&](const util::StackBudget&) { return spec_layout(spec); });
}

Result json_to_native(std::string name, std::string bytes, const BodyLayout& layout) {
  Result r;
  JsonParse doc = parse_json_config(make_source(std::move(name), std::move(bytes)));
  r.source = doc.source;
  r.diagnostics = std::move(doc.diagnostics);
  if (has_errors(r.diagnostics) || doc.root == nullptr) return r;
  std::string text = util::run_deep([&](const util::StackBudget&) {
    NativeWriter w(doc, r.diagnostics);
    return w.root(*doc.root, layout);
  });
  if (has_errors(r.diagnostics)) return r;
  r.text = format::format_hcl(text);
  // The native parser must read what was written; anything else is a bug
  // here, reported rather than written.
  FileParse check = parse_config(make_source(r.source->name(), r.text));
  if (check.has_errors()) {
    Diagnostic d;
    d.summary = "Conversion failed";
    const Diagnostic& first = check.diagnostics.front();
    d.detail = "The native text written for this file does not parse (" + first.summary +
               (first.subject ? " at " + range_string(*first.subject) : std::string()) +
               "); please report this as a bug of hclvm.";
    r.diagnostics.push_back(std::move(d));
    r.text.clear();
  }
  return r;
}

}  // namespace hclvm::convert

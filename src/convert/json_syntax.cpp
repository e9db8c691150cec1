// The native syntax written as the HCL JSON syntax (the `jsonsyntax` shape
// of `hclvm json`), so that the reference's JSON parser reads the same
// body: the same attributes with expressions of the same meaning, the
// same blocks with the same labels.
//
// Expressions: literals become JSON values, tuples arrays, objects with
// keys that are names or literals objects (a JSON object's keys are
// templates in expression context, so other keys become "${...}" too),
// templates are written again as standalone templates from their parts
// (literal text escaped, interpolations as their source text, directives
// rebuilt), and anything else becomes "${SOURCE}", which the reference
// unwraps to the expression's own value.
//
// Bodies: a block type with labels nests one JSON object per label level;
// blocks with the same type and labels become an array of bodies. The
// order of the input is kept wherever the JSON syntax can keep it: a
// level whose keys would repeat out of turn becomes an array of objects
// (the body at the root, or a label level); a nested body cannot be an
// array (that would mean several blocks), so there each block type is
// written where its first block stood.
#include <hclvm/convert.h>

#include "convert/json_writer.h"
#include "convert/json_syntax_expr.h"
#include "syntax/token.h"
#include "util/stack.h"

#include <algorithm>
#include <unordered_set>
#include <string_view>
#include <vector>

namespace hclvm::convert {

namespace {

using ast::as;
using ast::ExprKind;
using ast::LitKind;

// Reports whether [s] is a number as JSON writes them.
bool json_number(std::string_view s) {
  size_t i = 0, n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i >= n) return false;
  if (s[i] == '0') {
    ++i;
  } else if (s[i] >= '1' && s[i] <= '9') {
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
  } else {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    size_t d = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == d) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    size_t d = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == d) return false;
  }
  return i == n;
}

// Reports whether number text [s] has a nonzero digit (so that negating it
// cannot give a negative zero).
bool nonzero_number(std::string_view s) {
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return true;
  }
  return false;
}

// Appends literal text [s] to the template [out], escaping the sequences
// that would start an interpolation or a directive.
void append_template_literal(std::string& out, std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if ((c == '$' || c == '%') && i + 1 < s.size() && s[i + 1] == '{') out += c;
    out += c;
  }
}

// An object being built, with the set of its keys.
struct ObjectBuilder {
  // Objects this small are searched; larger ones get a set of their keys.
  static constexpr size_t kScan = 16;

  JValue value = JValue::object();
  std::unordered_set<std::string> keys;  // built past kScan properties

  // Reports whether the object has a property named [key].
  bool has(const std::string& key) const {
    if (!keys.empty()) return keys.count(key) != 0;
    for (const JProp& p : value.props)
      if (p.first == key) return true;
    return false;
  }
  // Adds property [key] with value [v].
  void add(std::string key, JValue v) {
    if (!keys.empty()) {
      keys.insert(key);
    } else if (value.props.size() >= kScan) {
      for (const JProp& p : value.props) keys.insert(p.first);
      keys.insert(key);
    }
    value.props.emplace_back(std::move(key), std::move(v));
  }
};

class Writer {
 public:
  explicit Writer(const Source& src) : text_(src.text()) {}

  // The source text of [span].
  std::string_view source(ast::Span span) const {
    return text_.substr(span.begin, span.end - span.begin);
  }

  // Returns expression [e] as a JSON value.
  JValue expr(const ast::Expr& e) {
    util::enter_level();
    switch (e.kind) {
      case ExprKind::Literal: {
        const ast::Literal& v = as<ast::LiteralExpr>(e).value;
        switch (v.kind) {
          case LitKind::Null: return JValue::raw("null");
          case LitKind::Bool: return JValue::raw(v.boolean ? "true" : "false");
          case LitKind::Number:
            if (json_number(v.text)) return JValue::raw(std::string(v.text));
            break;
          case LitKind::String: return JValue::string(template_literal(v.text));
          default: break;
        }
        break;
      }
      case ExprKind::Unary: {
        // A negative number literal is written as a JSON number.
        const auto& u = as<ast::UnaryExpr>(e);
        if (u.op == ast::UnaryOp::Negate && u.operand->kind == ExprKind::Literal) {
          const ast::Literal& v = as<ast::LiteralExpr>(*u.operand).value;
          if (v.kind == LitKind::Number && v.text[0] != '-' && json_number(v.text) &&
              nonzero_number(v.text))
            return JValue::raw("-" + std::string(v.text));
        }
        break;
      }
      case ExprKind::Template: {
        std::string t;
        template_parts(as<ast::TemplateExpr>(e).parts, t);
        return JValue::string(std::move(t));
      }
      case ExprKind::TemplateWrap:
        return JValue::string(interpolation(*as<ast::TemplateWrapExpr>(e).wrapped));
      case ExprKind::Tuple: {
        JValue a = JValue::array();
        for (const ast::Expr* item : as<ast::TupleExpr>(e).items) a.items.push_back(expr(*item));
        return a;
      }
      case ExprKind::Object: {
        // The native syntax lets a later key replace an earlier one; a JSON
        // object reports "Duplicate object attribute", so an object whose
        // keys repeat stays an expression.
        ObjectBuilder o;
        for (const ast::ObjectItem& item : as<ast::ObjectExpr>(e).items) {
          std::string key = object_key(*item.key);
          if (o.has(key)) return JValue::string(interpolation(e));
          o.add(std::move(key), expr(*item.value));
        }
        return std::move(o.value);
      }
      default: break;
    }
    return JValue::string(interpolation(e));
  }

 private:
  // Returns "${SOURCE}" for expression [e].
  std::string interpolation(const ast::Expr& e) const {
    std::string s = "${";
    s += source(e.span);
    s += '}';
    return s;
  }

  // Returns literal text [s] as a template that gives it back.
  static std::string template_literal(std::string_view s) {
    std::string t;
    append_template_literal(t, s);
    return t;
  }

  // Returns the object key [key] (an ObjectKeyExpr) as a JSON property name,
  // which is a template in expression context.
  std::string object_key(const ast::Expr& key) const {
    const ast::Expr* k = &key;
    bool force = false;
    if (k->kind == ExprKind::ObjectKey) {
      force = as<ast::ObjectKeyExpr>(*k).force_non_literal;
      k = as<ast::ObjectKeyExpr>(*k).wrapped;
    }
    if (!force) {
      // A name, or a traversal (which the native syntax evaluates as an
      // error, "Ambiguous attribute key", but Terraform reads statically,
      // as in `providers = { aws.east = aws.b }`, and reads the same from
      // the JSON syntax's string "aws.east"); `null`, `true` and `false`
      // stand for their names.
      if (k->kind == ExprKind::ScopeTraversal) return template_literal(source(k->span));
      if (k->kind == ExprKind::Literal) {
        LitKind lk = as<ast::LiteralExpr>(*k).value.kind;
        if (lk == LitKind::Null || lk == LitKind::Bool) return template_literal(source(k->span));
      }
    }
    if (k->kind == ExprKind::Template) {
      std::string t;
      template_parts(as<ast::TemplateExpr>(*k).parts, t);
      return t;
    }
    if (k->kind == ExprKind::Literal && as<ast::LiteralExpr>(*k).value.kind == LitKind::String)
      return template_literal(as<ast::LiteralExpr>(*k).value.text);
    return interpolation(*k);
  }

  // Appends the template parts [parts] to [out] as a standalone template.
  void template_parts(const ast::List<ast::Expr*>& parts, std::string& out) const {
    util::enter_level();
    for (uint32_t i = 0; i < parts.size; ++i) {
      const ast::Expr& p = *parts[i];
      if (p.kind == ExprKind::Literal && as<ast::LiteralExpr>(p).value.kind == LitKind::String) {
        std::string_view s = as<ast::LiteralExpr>(p).value.text;
        // A "$" or "%" that ends a literal before a sequence would read as
        // an escape: it is written as an interpolation of itself.
        char last = s.empty() ? 0 : s.back();
        bool before_sequence = (last == '$' || last == '%') && i + 1 < parts.size;
        if (before_sequence) s.remove_suffix(1);
        append_template_literal(out, s);
        if (before_sequence) out += last == '$' ? "${\"$\"}" : "${\"%\"}";
        continue;
      }
      directive_or_interpolation(p, out);
    }
  }

  // Appends one non-literal part [p] of a template to [out]: an `%{if}` or
  // `%{for}` directive rebuilt from its parts, or an interpolation.
  void directive_or_interpolation(const ast::Expr& p, std::string& out) const {
    bool directive = source(p.span).substr(0, 2) == "%{";
    if (directive && p.kind == ExprKind::Conditional) {
      const auto& c = as<ast::ConditionalExpr>(p);
      out += "%{if ";
      out += source(c.condition->span);
      out += '}';
      template_body(*c.true_result, out);
      out += "%{else}";
      template_body(*c.false_result, out);
      out += "%{endif}";
      return;
    }
    if (directive && p.kind == ExprKind::TemplateJoin &&
        as<ast::TemplateJoinExpr>(p).tuple->kind == ExprKind::For) {
      const auto& f = as<ast::ForExpr>(*as<ast::TemplateJoinExpr>(p).tuple);
      out += "%{for ";
      if (!f.key_var.empty()) {
        out += f.key_var;
        out += ", ";
      }
      out += f.val_var;
      out += " in ";
      out += source(f.collection->span);
      out += '}';
      template_body(*f.value, out);
      out += "%{endfor}";
      return;
    }
    out += interpolation(p);
  }

  // Appends the body [e] of a directive to [out].
  void template_body(const ast::Expr& e, std::string& out) const {
    if (e.kind == ExprKind::Template) {
      template_parts(as<ast::TemplateExpr>(e).parts, out);
    } else if (e.kind == ExprKind::Literal && as<ast::LiteralExpr>(e).value.kind == LitKind::String) {
      append_template_literal(out, as<ast::LiteralExpr>(e).value.text);
    } else if (e.kind == ExprKind::TemplateWrap) {
      out += interpolation(*as<ast::TemplateWrapExpr>(e).wrapped);
    } else {
      directive_or_interpolation(e, out);
    }
  }

  std::string_view text_;
};

// The items of a body in source order: attributes and blocks.
struct Item {
  const ast::Attribute* attr = nullptr;
  const ast::Block* block = nullptr;
  uint32_t begin() const { return attr ? attr->span.begin : block->span.begin; }
};

std::vector<Item> items_of(const ast::Body& body) {
  std::vector<Item> items;
  items.reserve(body.attributes.size + body.blocks.size);
  for (const ast::Attribute* a : body.attributes) items.push_back({a, nullptr});
  for (const ast::Block* b : body.blocks) items.push_back({nullptr, b});
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& x, const Item& y) { return x.begin() < y.begin(); });
  return items;
}

// The text of comment [c] without its markers and surrounding spaces.
std::string_view comment_text(std::string_view c) {
  if (c.starts_with("#")) c.remove_prefix(1);
  else if (c.starts_with("//")) c.remove_prefix(2);
  else if (c.starts_with("/*")) {
    c.remove_prefix(2);
    if (c.ends_with("*/")) c.remove_suffix(2);
  }
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t' || c.front() == '\n' || c.front() == '\r'))
    c.remove_prefix(1);
  while (!c.empty() && (c.back() == ' ' || c.back() == '\t' || c.back() == '\n' || c.back() == '\r'))
    c.remove_suffix(1);
  return c;
}

class BodyWriter {
 public:
  // With [comments], the comments between the items of bodies are kept as
  // "//" properties.
  BodyWriter(const Source& src, bool comments) : exprs_(src), text_(src.text()) {
    if (!comments) return;
    for (const syntax::Token& t : syntax::scan(text_, syntax::ScanMode::Normal))
      if (t.type == syntax::Tok::Comment) comments_.push_back(t.span);
  }

  // Returns body [body] as a JSON object; at the [root], as an array of
  // objects when that keeps the order of interleaved block types. [lead]:
  // the comments that stood before the block whose body this is.
  JValue body(const ast::Body& body, bool root, std::string lead = {}) {
    util::enter_level();
    std::vector<Item> items = items_of(body);
    std::vector<ObjectBuilder> chunks(1);
    if (!lead.empty()) chunks.back().add("//", JValue::string(std::move(lead)));
    // The root body's span starts at its first item; its comments start
    // at the top of the file.
    uint32_t prev_end = root ? 0 : body.span.begin;
    // The blocks of the property a block type has in a chunk; at the root
    // only the last property of the last chunk takes more blocks.
    struct Group {
      std::string_view type;
      uint32_t labels;
      size_t chunk, prop;
      std::vector<const ast::Block*> blocks;
    };
    std::vector<Group> groups;
    for (const Item& it : items) {
      // Comments before the item: one on the line where the previous item
      // ends is that item's and follows it; those set apart from the item
      // by a blank line stay in this body; the others are the item's.
      Comments c = comments_between(prev_end, it.begin(), &it != items.data());
      if (!c.trailing.empty()) chunks.back().add("//", JValue::string(std::move(c.trailing)));
      prev_end = it.attr ? it.attr->span.end : it.block->span.end;
      if (it.attr) {
        std::string name(it.attr->name);
        if (chunks.back().has(name)) chunks.emplace_back();
        if (!c.detached.empty()) chunks.back().add("//", JValue::string(std::move(c.detached)));
        if (!c.attached.empty()) chunks.back().add("//", JValue::string(std::move(c.attached)));
        chunks.back().add(std::move(name), exprs_.expr(*it.attr->expr));
        continue;
      }
      const ast::Block& b = *it.block;
      Group* g = nullptr;
      if (root) {
        if (!groups.empty() && groups.back().chunk == chunks.size() - 1 &&
            groups.back().prop == chunks.back().value.props.size() - 1 &&
            groups.back().type == b.type && groups.back().labels == b.labels.size)
          g = &groups.back();
      } else {
        for (Group& x : groups)
          if (x.type == b.type && x.labels == b.labels.size) g = &x;
      }
      if (!g) {
        std::string type(b.type);
        if (root && chunks.back().has(type)) chunks.emplace_back();
        if (!c.detached.empty()) chunks.back().add("//", JValue::string(std::move(c.detached)));
        groups.push_back({b.type, b.labels.size, chunks.size() - 1, chunks.back().value.props.size(), {}});
        chunks.back().add(std::move(type), JValue::object());
        g = &groups.back();
      } else if (!c.detached.empty()) {
        // The block joins its type's property, written before: its body
        // takes all its comments.
        c.attached = c.detached + (c.attached.empty() ? "" : "\n\n" + c.attached);
      }
      if (!c.attached.empty()) block_comments_.emplace_back(&b, std::move(c.attached));
      g->blocks.push_back(&b);
    }
    for (Group& g : groups) chunks[g.chunk].value.props[g.prop].second = labels(g.blocks, 0);
    Comments last = comments_between(prev_end, root ? uint32_t(text_.size()) : body.span.end, !items.empty());
    if (!last.trailing.empty()) chunks.back().add("//", JValue::string(std::move(last.trailing)));
    if (!last.detached.empty()) chunks.back().add("//", JValue::string(std::move(last.detached)));
    if (!last.attached.empty()) chunks.back().add("//", JValue::string(std::move(last.attached)));
    if (chunks.size() == 1) return std::move(chunks[0].value);
    JValue a = JValue::array();
    for (ObjectBuilder& c : chunks) a.items.push_back(std::move(c.value));
    return a;
  }

 private:
  // Returns the blocks [blocks] (same type, same number of labels) from
  // label level [level] on.
  JValue labels(const std::vector<const ast::Block*>& blocks, uint32_t level) {
    util::enter_level();
    if (level == blocks[0]->labels.size) {
      if (blocks.size() == 1) return body(*blocks[0]->body, false, take_comments(blocks[0]));
      JValue a = JValue::array();
      for (const ast::Block* b : blocks) a.items.push_back(body(*b->body, false, take_comments(b)));
      return a;
    }
    // Runs of blocks with the same label at this level, in order; a label
    // seen again after another starts a new object.
    std::vector<ObjectBuilder> chunks(1);
    size_t i = 0;
    while (i < blocks.size()) {
      std::string label(blocks[i]->labels[level]);
      size_t j = i + 1;
      while (j < blocks.size() && blocks[j]->labels[level] == label) ++j;
      std::vector<const ast::Block*> run(blocks.begin() + static_cast<ptrdiff_t>(i),
                                         blocks.begin() + static_cast<ptrdiff_t>(j));
      if (chunks.back().has(label)) chunks.emplace_back();
      chunks.back().add(std::move(label), labels(run, level + 1));
      i = j;
    }
    if (chunks.size() == 1) return std::move(chunks[0].value);
    JValue a = JValue::array();
    for (ObjectBuilder& c : chunks) a.items.push_back(std::move(c.value));
    return a;
  }

  // The comments between two items of a body, each group's texts joined
  // by newlines.
  struct Comments {
    std::string trailing;  // on the line where the item before ends
    std::string detached;  // then those up to the last blank line
    std::string attached;  // then those after it
  };

  // The comments that begin in [begin, end); [after_item]: [begin] is
  // where an item ends.
  Comments comments_between(uint32_t begin, uint32_t end, bool after_item) const {
    Comments out;
    if (comments_.empty()) return out;  // comments not asked for, or none
    auto first = std::lower_bound(comments_.begin(), comments_.end(), begin,
                                  [](const ast::Span& c, uint32_t b) { return c.begin < b; });
    auto last = first;
    while (last != comments_.end() && last->begin < end) ++last;
    // Where the run of comments that the item's is begins: after the last
    // blank line among them.
    auto attached_from = first;
    for (auto it = first; it != last; ++it) {
      uint32_t next = it + 1 != last ? (it + 1)->begin : end;
      std::string_view gap = text_.substr(it->end, next - it->end);
      size_t newlines = size_t(std::count(gap.begin(), gap.end(), '\n')) + (text_[it->end - 1] == '\n');
      if (newlines >= 2) attached_from = it + 1;
    }
    for (auto it = first; it != last; ++it) {
      bool same_line = after_item && it == first &&
                       text_.substr(begin, it->begin - begin).find('\n') == std::string_view::npos;
      std::string& into = same_line ? out.trailing : it < attached_from ? out.detached : out.attached;
      if (!into.empty()) into += '\n';
      // A comment is only read, never parsed: bytes that are not UTF-8
      // (which JSON cannot hold) become U+FFFD rather than refusing the file.
      for (std::string_view c = comment_text(text_.substr(it->begin, it->end - it->begin)); !c.empty();) {
        uni::Rune r = uni::decode(c, 0);
        if (r.ok) into.append(c.substr(0, r.len));
        else uni::append_utf8(into, 0xFFFD);
        c.remove_prefix(r.len);
      }
    }
    return out;
  }

  // Takes the comments that stood before block [b].
  std::string take_comments(const ast::Block* b) {
    for (auto& [block, text] : block_comments_)
      if (block == b) return std::move(text);
    return {};
  }

  Writer exprs_;
  std::string_view text_;
  std::vector<ast::Span> comments_;  // in source order
  std::vector<std::pair<const ast::Block*, std::string>> block_comments_;
};

// Why a file whose names or expressions hold bytes that are not UTF-8 (the
// native syntax takes them; a JSON string cannot hold them) is refused.
constexpr const char* kNotUtf8 =
    "it holds bytes that are not UTF-8 in a name, a string or an expression, which JSON cannot hold";

// Reports whether every string and property name in [v] is UTF-8.
bool valid_text(const JValue& v) {
  util::enter_level();
  if (v.kind == JValue::Kind::String && !uni::valid_utf8(v.text)) return false;
  for (const JProp& p : v.props)
    if (!uni::valid_utf8(p.first) || !valid_text(p.second)) return false;
  for (const JValue& i : v.items)
    if (!valid_text(i)) return false;
  return true;
}

}  // namespace

JValue native_expr_as_json(const ast::Expr& e, const Source& src) { return Writer(src).expr(e); }

Result body_to_json(const ast::Body& body, const Source& src, const JsonOptions& options) {
  Result r;
  if (options.shape == Shape::Hcl2Json) {
    body_to_hcl2json(body, src, options, r);
    return r;
  }
  r.text = util::run_deep([&](const util::StackBudget&) {
    BodyWriter w(src, options.comments);
    JValue doc = w.body(body, true);
    if (!valid_text(doc)) {
      r.error = kNotUtf8;
      return std::string();
    }
    // Only what JSON requires is escaped, so that text such as
    // "a < b && c" stays readable.
    uni::JsonQuoting q;
    q.html = false;
    std::string out;
    out.reserve(src.text().size() * 2);
    write_json(doc, out, q);
    out += '\n';
    return out;
  });
  return r;
}

Result native_to_json(std::string name, std::string bytes, const JsonOptions& options) {
  Result r;
  FileParse p = parse_config(make_source(std::move(name), std::move(bytes)));
  r.source = p.source;
  r.diagnostics = std::move(p.diagnostics);
  if (!r.ok() || !p.body) return r;
  Result c = body_to_json(*p.body, *p.source, options);
  r.text = std::move(c.text);
  r.error = std::move(c.error);
  return r;
}

}  // namespace hclvm::convert

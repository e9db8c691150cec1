// The `hcl2json` shape of `hclvm json`: the document @cdktf/hcl2json's
// parse(filename, contents) returns, for users migrating from it. That
// package runs the Go converter of hcl2json (cdktf's fork) compiled to
// WebAssembly; this follows its rules, quirks included:
//
// - A body is a map: blocks first, each under its type and then one
//   object per label, its body appended to an array at the last level;
//   then attributes, one of which replaces a block property of the same
//   name. A block whose path meets an array (a block of the same type
//   without labels) or whose last level holds an object (blocks of the
//   same type with more labels) makes the conversion fail.
// - Keys are in Go's sorted order (encoding/json sorts map keys), unless
//   preserve_order asks for the source's.
// - Literals are JSON values, numbers as cty writes them (big.Float's
//   shortest 'f' text); `-N` and `!B` are evaluated, and fail on operands
//   of the wrong type. Tuples are arrays, objects maps (a later key
//   replaces an earlier one).
// - A quoted string without sequences is its text (in NFC) with "${" and
//   "%{" escaped. A template is rebuilt part by part: literal text so,
//   a null literal as "null", any conditional (also `${c ? a : b}`) as an
//   `%{if}` directive whose `%{else}` is left out when empty, `%{for}` as
//   a directive, any other part as "${SOURCE}".
// - Object keys: a traversal is its source text, a literal its string, a
//   template rebuilt, anything else "${SOURCE}".
// - SOURCE is the expression's source text, and one byte more when the
//   byte after it is ")" (the converter's guard against ranges that end
//   before a closing parenthesis).
#include <hclvm/convert.h>
#include <hclvm/number.h>

#include "convert/json_writer.h"
#include "util/stack.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hclvm::convert {

namespace {

using ast::as;
using ast::ExprKind;
using ast::LitKind;

// Why a conversion stops: hcl2json refuses the input.
struct Refused {
  std::string message;
};

// An object being built as a Go map: a key set again keeps its place and
// takes the new value. [first] records where each key first came from in
// the source, for preserve_order.
struct GoMap {
  // Maps this small are searched; larger ones get an index.
  static constexpr size_t kScan = 16;

  JValue value = JValue::object();
  std::unordered_map<std::string, size_t> index;  // built past kScan keys
  std::vector<uint32_t> first;

  // Returns the position of [key] in value.props, or npos.
  size_t position(std::string_view key) const {
    if (index.empty()) {
      for (size_t i = 0; i < value.props.size(); ++i)
        if (value.props[i].first == key) return i;
      return std::string::npos;
    }
    auto it = index.find(std::string(key));
    return it == index.end() ? std::string::npos : it->second;
  }
  // Returns the value of [key], or null.
  JValue* find(std::string_view key) {
    size_t i = position(key);
    return i == std::string::npos ? nullptr : &value.props[i].second;
  }
  // Sets [key] to [v]; [pos] is where it is in the source.
  void set(std::string_view key, JValue v, uint32_t pos) {
    if (size_t i = position(key); i != std::string::npos) {
      value.props[i].second = std::move(v);
      return;
    }
    value.props.emplace_back(std::string(key), std::move(v));
    first.push_back(pos);
    if (!index.empty()) {
      index.emplace(key, value.props.size() - 1);
    } else if (value.props.size() > kScan) {
      for (size_t i = 0; i < value.props.size(); ++i) index.emplace(value.props[i].first, i);
    }
  }
  // Returns the finished object: keys sorted as Go's encoding/json sorts
  // them (by bytes), or in the order of [first].
  JValue finish(bool preserve_order) {
    std::vector<size_t> order(value.props.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (preserve_order) {
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return first[a] < first[b]; });
    } else {
      std::sort(order.begin(), order.end(),
                [&](size_t a, size_t b) { return value.props[a].first < value.props[b].first; });
    }
    JValue out = JValue::object();
    out.props.reserve(order.size());
    for (size_t i : order) out.props.push_back(std::move(value.props[i]));
    return out;
  }
};

// Returns the literal text [s] of a template as hcl2json writes it: in
// NFC (a string literal's value is a cty string), "${" escaped as "$${"
// and "%{" as "%%{".
std::string escape_literal(std::string_view s) {
  std::string n = uni::nfc(s);
  std::string out;
  out.reserve(n.size());
  for (size_t i = 0; i < n.size(); ++i) {
    if ((n[i] == '$' || n[i] == '%') && i + 1 < n.size() && n[i + 1] == '{') out += n[i];
    out += n[i];
  }
  return out;
}

class Hcl2Json {
 public:
  Hcl2Json(const Source& src, bool preserve_order) : text_(src.text()), preserve_(preserve_order) {}

  // Returns body [b] as an object (ConvertBody).
  JValue body(const ast::Body& b) {
    util::enter_level();
    // Label levels are built as maps too; they are finished, and their
    // keys sorted, once the whole body is.
    Level root;
    root.map.value.props.reserve(b.attributes.size + (b.blocks.size ? 1 : 0));
    for (const ast::Block* blk : b.blocks) block(*blk, root);
    for (const ast::Attribute* a : b.attributes) {
      JValue v = expr(*a->expr);
      root.map.set(a->name, std::move(v), a->span.begin);
      if (!root.children.empty()) root.children.erase(std::string(a->name));
    }
    return finish(root);
  }

 private:
  // A map of a body or of a label level, with the label levels below it
  // still being built (by key).
  struct Level {
    GoMap map;
    std::unordered_map<std::string, std::unique_ptr<Level>> children;
  };

  // Returns [l] finished: each child level finished into its key.
  JValue finish(Level& l) {
    for (auto& [key, child] : l.children) *l.map.find(key) = finish(*child);
    return l.map.finish(preserve_);
  }

  // Adds block [b] to [out] (convertBlock).
  void block(const ast::Block& b, Level& out) {
    Level* level = &out;
    std::string key(b.type);
    for (uint32_t i = 0; i < b.labels.size; ++i) {
      auto it = level->children.find(key);
      if (it == level->children.end()) {
        if (level->map.find(key) != nullptr) throw Refused{block_error(b)};
        level->map.set(key, JValue::object(), b.span.begin);
        it = level->children.emplace(key, std::make_unique<Level>()).first;
      }
      level = it->second.get();
      key = std::string(b.labels[i]);
    }
    JValue v = body(*b.body);
    if (level->children.count(key) != 0)
      throw Refused{"invalid HCL detected for \"" + key +
                    "\" block, cannot have blocks with and without labels"};
    if (JValue* cur = level->map.find(key)) {
      cur->items.push_back(std::move(v));
      return;
    }
    JValue list = JValue::array();
    list.items.push_back(std::move(v));
    level->map.set(key, std::move(list), b.span.begin);
  }

  // The message of a block whose labels meet something that is not an object.
  static std::string block_error(const ast::Block& b) {
    std::string m = "Unable to convert Block to JSON: " + std::string(b.type) + ".";
    for (uint32_t i = 0; i < b.labels.size; ++i) {
      if (i) m += '.';
      m += b.labels[i];
    }
    return m;
  }

  // The source of [span], with the closing parenthesis after it if there is one.
  std::string range_source(ast::Span span) const {
    uint32_t end = span.end;
    if (end < text_.size() && text_[end] == ')') ++end;
    return std::string(text_.substr(span.begin, end - span.begin));
  }

  std::string wrap(const ast::Expr& e) const { return "${" + range_source(e.span) + "}"; }

  // Returns literal [v] as JSON (ctyjson's SimpleJSONValue).
  static JValue literal(const ast::Literal& v) {
    switch (v.kind) {
      case LitKind::Null: return JValue::raw("null");
      case LitKind::Bool: return JValue::raw(v.boolean ? "true" : "false");
      case LitKind::Number: return JValue::raw(number_text(v.text));
      case LitKind::String: return JValue::string(uni::nfc(v.text));
      default: return JValue::raw("null");
    }
  }

  // Returns number text [t] as cty writes the number.
  static std::string number_text(std::string_view t) {
    // An integer of a few digits without a leading zero is written as it
    // is (the common case, without the arbitrary-precision parse).
    if (!t.empty() && t.size() <= 15 && (t[0] != '0' || t.size() == 1) &&
        std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::string(t);
    std::optional<Number> n = Number::parse(t);
    return n ? n->text() : std::string(t);
  }

  // Returns [e] as JSON (ConvertExpression).
  JValue expr(const ast::Expr& e) {
    util::enter_level();
    switch (e.kind) {
      case ExprKind::Literal: return literal(as<ast::LiteralExpr>(e).value);
      case ExprKind::Unary: return unary(as<ast::UnaryExpr>(e));
      case ExprKind::Template: return JValue::string(template_text(as<ast::TemplateExpr>(e)));
      case ExprKind::TemplateWrap: return expr(*as<ast::TemplateWrapExpr>(e).wrapped);
      case ExprKind::Tuple: {
        JValue a = JValue::array();
        a.items.reserve(as<ast::TupleExpr>(e).items.size);
        for (const ast::Expr* item : as<ast::TupleExpr>(e).items) a.items.push_back(expr(*item));
        return a;
      }
      case ExprKind::Object: {
        GoMap m;
        m.value.props.reserve(as<ast::ObjectExpr>(e).items.size);
        for (const ast::ObjectItem& item : as<ast::ObjectExpr>(e).items) {
          std::string k = key(*item.key);
          m.set(k, expr(*item.value), item.key->span.begin);
        }
        return m.finish(preserve_);
      }
      default: return JValue::string(wrap(e));
    }
  }

  // `-N` and `!B` of a literal, evaluated; any other operand wrapped.
  JValue unary(const ast::UnaryExpr& u) const {
    if (u.operand->kind != ExprKind::Literal) return JValue::string(wrap(u));
    const ast::Literal& v = as<ast::LiteralExpr>(*u.operand).value;
    if (u.op == ast::UnaryOp::Negate && v.kind == LitKind::Number) {
      std::optional<Number> n = Number::parse(v.text);
      if (n) return JValue::raw(n->neg().text());
    }
    if (u.op == ast::UnaryOp::Not && v.kind == LitKind::Bool) return JValue::raw(v.boolean ? "false" : "true");
    throw Refused{"convert expression: Invalid operand"};
  }

  // Returns template [t] as text (convertTemplate).
  std::string template_text(const ast::TemplateExpr& t) {
    util::enter_level();
    std::string out;
    for (const ast::Expr* p : t.parts) out += part(*p);
    return out;
  }

  // Returns one part [e] of a template as text (convertStringPart).
  std::string part(const ast::Expr& e) {
    switch (e.kind) {
      case ExprKind::Literal: {
        const ast::Literal& v = as<ast::LiteralExpr>(e).value;
        switch (v.kind) {
          case LitKind::Null: return "null";
          case LitKind::Bool: return v.boolean ? "true" : "false";
          case LitKind::Number: return number_text(v.text);
          case LitKind::String: return escape_literal(v.text);
          default: return "";
        }
      }
      case ExprKind::Template: return template_text(as<ast::TemplateExpr>(e));
      case ExprKind::TemplateWrap: return part(*as<ast::TemplateWrapExpr>(e).wrapped);
      case ExprKind::Conditional: {
        const auto& c = as<ast::ConditionalExpr>(e);
        std::string out = "%{if " + range_source(c.condition->span) + "}";
        out += part(*c.true_result);
        std::string f = part(*c.false_result);
        if (!f.empty()) out += "%{else}" + f;
        return out + "%{endif}";
      }
      case ExprKind::TemplateJoin: {
        const ast::Expr& tuple = *as<ast::TemplateJoinExpr>(e).tuple;
        if (tuple.kind != ExprKind::For) break;
        const auto& f = as<ast::ForExpr>(tuple);
        std::string out = "%{for ";
        if (!f.key_var.empty()) out += std::string(f.key_var) + ", ";
        out += std::string(f.val_var) + " in " + range_source(f.collection->span) + "}";
        out += part(*f.value);
        return out + "%{endfor}";
      }
      default: break;
    }
    return wrap(e);
  }

  // Returns object key [k] (an ObjectKeyExpr) as text (convertKey).
  std::string key(const ast::Expr& k) {
    const ast::Expr* w = &k;
    if (w->kind == ExprKind::ObjectKey) {
      w = as<ast::ObjectKeyExpr>(*w).wrapped;
      if (w->kind == ExprKind::ScopeTraversal) return range_source(w->span);
    }
    return part(*w);
  }

  std::string_view text_;
  bool preserve_;
};

}  // namespace

namespace {

// Whether [v] is what JavaScript calls a plain object here (not an array,
// not null).
bool is_object(const JValue& v) { return v.kind == JValue::Kind::Object; }

// Merges [source] into [target] as @cdktf/hcl2json's deepMerge does: an
// object merges into the object there (made one if it is neither an object
// nor an array), dropped when it ends up empty; an array is appended to an
// array there or takes its place; anything else takes the place of what is
// there. New keys go last, keys already there keep their place.
void deep_merge(JValue& target, const JValue& source) {
  util::enter_level();
  for (const JProp& p : source.props) {
    JProp* at = nullptr;
    for (JProp& q : target.props)
      if (q.first == p.first) at = &q;
    if (at == nullptr) {
      target.props.emplace_back(p.first, JValue::raw("null"));
      at = &target.props.back();
    }
    if (is_object(p.second)) {
      // typeof: an array is an object too, and takes the merge (whose
      // keys JSON does not show on an array); anything else becomes {}.
      bool array = at->second.kind == JValue::Kind::Array;
      if (!is_object(at->second) && !array) at->second = JValue::object();
      if (!array) deep_merge(at->second, p.second);
      if (array ? at->second.items.empty() : at->second.props.empty()) {
        std::string key = at->first;
        std::erase_if(target.props, [&](const JProp& q) { return q.first == key; });
      }
    } else if (p.second.kind == JValue::Kind::Array && at->second.kind == JValue::Kind::Array) {
      for (const JValue& i : p.second.items) at->second.items.push_back(i);
    } else {
      at->second = p.second;
    }
  }
}

// Returns [doc] written as the hcl2json shape's text (Go's escaping),
// room made for a document about twice the [source_size] of its input.
std::string document_text(const JValue& doc, size_t source_size) {
  std::string out;
  out.reserve(source_size * 2);
  write_json(doc, out, uni::JsonQuoting{});
  out += '\n';
  return out;
}

// The hcl2json document of [body] of [src] (throws Refused).
JValue hcl2json_doc(const ast::Body& body, const Source& src, const JsonOptions& options) {
  Hcl2Json c(src, options.preserve_order);
  return c.body(body);
}

}  // namespace

Result module_to_hcl2json(const std::vector<std::pair<std::string, std::string>>& tf_files,
                          const std::vector<std::pair<std::string, std::string>>& json_files,
                          const JsonOptions& options) {
  Result r;
  std::string text;
  for (const auto& f : tf_files) {
    text += f.second;
    text += '\n';
  }
  FileParse p = parse_config(make_source("hcl2json.tf", std::move(text)));
  r.source = p.source;
  r.diagnostics = std::move(p.diagnostics);
  if (has_errors(r.diagnostics) || p.body == nullptr) return r;
  std::vector<JsonParse> docs;
  for (const auto& [name, bytes] : json_files) {
    JsonParse d = parse_json_expression(make_source(name, bytes));
    r.diagnostics.insert(r.diagnostics.end(), d.diagnostics.begin(), d.diagnostics.end());
    if (!d.has_errors() && d.root != nullptr && d.root->kind != json::NodeKind::Object) {
      r.error = name + ": the document is not a JSON object, which a module's JSON file must be";
      return r;
    }
    docs.push_back(std::move(d));
  }
  if (has_errors(r.diagnostics)) return r;
  try {
    r.text = util::run_deep([&](const util::StackBudget&) {
      JValue doc = hcl2json_doc(*p.body, *p.source, options);
      for (const JsonParse& d : docs) deep_merge(doc, json_tree(*d.root, true));
      return document_text(doc, p.source->text().size());
    });
  } catch (const Refused& e) {
    r.text.clear();
    r.error = e.message;
  }
  return r;
}

void body_to_hcl2json(const ast::Body& body, const Source& src, const JsonOptions& options, Result& r) {
  try {
    r.text = util::run_deep([&](const util::StackBudget&) {
      return document_text(hcl2json_doc(body, src, options), src.text().size());
    });
  } catch (const Refused& e) {
    r.text.clear();
    r.error = e.message;
  }
}

}  // namespace hclvm::convert

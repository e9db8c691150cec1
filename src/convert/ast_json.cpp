// Syntax trees of the native syntax as JSON (`hclvm ast --format json`),
// in the schema docs/ast-json.md describes: every node an object with its
// "kind", its fields under stable names, and its "range" (line, column,
// byte of both ends, as the reference counts them). Nothing is left out:
// the ranges of names, brackets and symbols are there too, and absent
// children are null, so the JSON holds everything the text dump shows.
#include <hclvm/convert.h>
#include <hclvm/json_syntax.h>

#include "convert/json_writer.h"
#include "util/stack.h"

#include <string>
#include <unordered_map>

namespace hclvm::convert {

namespace {

using namespace hclvm::ast;
using ast::Attribute;
using ast::Block;
using ast::Body;

// Returns the name of literal kind [k] in the schema.
const char* literal_kind(LitKind k) {
  switch (k) {
    case LitKind::Null: return "null";
    case LitKind::Bool: return "bool";
    case LitKind::Number: return "number";
    case LitKind::String: return "string";
    case LitKind::Dynamic: return "dynamic";
    case LitKind::UnknownNumber: return "unknown_number";
  }
  return "?";
}

// Adds property [name] with value [v] to object [o].
void add(JValue& o, const char* name, JValue v) { o.props.emplace_back(name, std::move(v)); }

// Returns position [p] as an object: line, column, byte.
JValue pos_json(const Pos& p) {
  JValue o = JValue::object();
  add(o, "line", JValue::raw(std::to_string(p.line)));
  add(o, "column", JValue::raw(std::to_string(p.column)));
  add(o, "byte", JValue::raw(std::to_string(p.byte)));
  return o;
}

// Returns the range from [a] to [b] as an object: start and end.
JValue range_json(const Pos& a, const Pos& b) {
  JValue o = JValue::object();
  add(o, "start", pos_json(a));
  add(o, "end", pos_json(b));
  return o;
}

class AstJson {
 public:
  explicit AstJson(const Source& src) : src_(src) {}

  // Returns body [b] with its attributes and blocks.
  JValue body(const Body& b) {
    util::enter_level();
    JValue o = node("Body", b.span);
    add(o, "end_range", range(b.end_span));
    JValue attrs = JValue::array();
    for (const Attribute* a : b.attributes) attrs.items.push_back(attribute(*a));
    add(o, "attributes", std::move(attrs));
    JValue blocks = JValue::array();
    for (const Block* k : b.blocks) blocks.items.push_back(block(*k));
    add(o, "blocks", std::move(blocks));
    return o;
  }

  // Returns attribute [a] with its expression.
  JValue attribute(const Attribute& a) {
    JValue o = node("Attribute", a.span);
    add(o, "name", JValue::string(std::string(a.name)));
    add(o, "name_range", range(a.name_span));
    add(o, "equals_range", range(a.equals_span));
    add(o, "expr", expr(a.expr));
    return o;
  }

  // Returns block [k] with its labels and body.
  JValue block(const Block& k) {
    JValue o = node("Block", k.span);
    add(o, "type", JValue::string(std::string(k.type)));
    add(o, "type_range", range(k.type_span));
    JValue labels = JValue::array();
    for (std::string_view l : k.labels) labels.items.push_back(JValue::string(std::string(l)));
    add(o, "labels", std::move(labels));
    JValue spans = JValue::array();
    for (Span s : k.label_spans) spans.items.push_back(range(s));
    add(o, "label_ranges", std::move(spans));
    add(o, "open_brace_range", range(k.open_brace_span));
    add(o, "close_brace_range", range(k.close_brace_span));
    add(o, "body", k.body ? body(*k.body) : JValue::raw("null"));
    return o;
  }

  // Returns expression [e], or null.
  JValue expr(const Expr* e) {
    if (e == nullptr) return JValue::raw("null");
    util::enter_level();
    switch (e->kind) {
      case ExprKind::Literal: {
        JValue o = node("Literal", e->span);
        literal(o, as<LiteralExpr>(*e).value);
        return o;
      }
      case ExprKind::Template: {
        JValue o = node("Template", e->span);
        add(o, "parts", exprs(as<TemplateExpr>(*e).parts));
        return o;
      }
      case ExprKind::TemplateWrap: {
        JValue o = node("TemplateWrap", e->span);
        add(o, "wrapped", expr(as<TemplateWrapExpr>(*e).wrapped));
        return o;
      }
      case ExprKind::TemplateJoin: {
        JValue o = node("TemplateJoin", e->span);
        add(o, "tuple", expr(as<TemplateJoinExpr>(*e).tuple));
        return o;
      }
      case ExprKind::ScopeTraversal: {
        JValue o = node("ScopeTraversal", e->span);
        add(o, "traversal", steps(as<ScopeTraversalExpr>(*e).steps));
        return o;
      }
      case ExprKind::RelativeTraversal: {
        const auto& r = as<RelativeTraversalExpr>(*e);
        JValue o = node("RelativeTraversal", e->span);
        add(o, "source", expr(r.source));
        add(o, "traversal", steps(r.steps));
        return o;
      }
      case ExprKind::FunctionCall: {
        const auto& c = as<FunctionCallExpr>(*e);
        JValue o = node("FunctionCall", e->span);
        add(o, "name", JValue::string(std::string(c.name)));
        add(o, "name_range", range(c.name_span));
        add(o, "args", exprs(c.args));
        add(o, "expand_final", JValue::raw(c.expand_final ? "true" : "false"));
        add(o, "open_paren_range", range(c.open_paren_span));
        add(o, "close_paren_range", range(c.close_paren_span));
        return o;
      }
      case ExprKind::Conditional: {
        const auto& c = as<ConditionalExpr>(*e);
        JValue o = node("Conditional", e->span);
        add(o, "condition", expr(c.condition));
        add(o, "true_result", expr(c.true_result));
        add(o, "false_result", expr(c.false_result));
        return o;
      }
      case ExprKind::Binary: {
        const auto& b = as<BinaryExpr>(*e);
        JValue o = node("Binary", e->span);
        add(o, "operator", JValue::string(binary_op_symbol(b.op)));
        add(o, "lhs", expr(b.lhs));
        add(o, "rhs", expr(b.rhs));
        return o;
      }
      case ExprKind::Unary: {
        const auto& u = as<UnaryExpr>(*e);
        JValue o = node("Unary", e->span);
        add(o, "operator", JValue::string(u.op == UnaryOp::Negate ? "-" : "!"));
        add(o, "symbol_range", range(u.symbol_span));
        add(o, "operand", expr(u.operand));
        return o;
      }
      case ExprKind::Tuple: {
        const auto& t = as<TupleExpr>(*e);
        JValue o = node("Tuple", e->span);
        add(o, "open_range", range(t.open_span));
        add(o, "items", exprs(t.items));
        return o;
      }
      case ExprKind::Object: {
        const auto& ob = as<ObjectExpr>(*e);
        JValue o = node("Object", e->span);
        add(o, "open_range", range(ob.open_span));
        JValue items = JValue::array();
        for (const ObjectItem& i : ob.items) {
          JValue item = JValue::object();
          add(item, "key", expr(i.key));
          add(item, "value", expr(i.value));
          items.items.push_back(std::move(item));
        }
        add(o, "items", std::move(items));
        return o;
      }
      case ExprKind::ObjectKey: {
        const auto& k = as<ObjectKeyExpr>(*e);
        JValue o = node("ObjectKey", e->span);
        add(o, "force_non_literal", JValue::raw(k.force_non_literal ? "true" : "false"));
        add(o, "wrapped", expr(k.wrapped));
        return o;
      }
      case ExprKind::For: {
        const auto& f = as<ForExpr>(*e);
        JValue o = node("For", e->span);
        add(o, "key_var", f.key_var.empty() ? JValue::raw("null") : JValue::string(std::string(f.key_var)));
        add(o, "value_var", JValue::string(std::string(f.val_var)));
        add(o, "collection", expr(f.collection));
        add(o, "key", expr(f.key));
        add(o, "value", expr(f.value));
        add(o, "condition", expr(f.condition));
        add(o, "group", JValue::raw(f.group ? "true" : "false"));
        add(o, "open_range", range(f.open_span));
        add(o, "close_range", range(f.close_span));
        return o;
      }
      case ExprKind::Index: {
        const auto& x = as<IndexExpr>(*e);
        JValue o = node("Index", e->span);
        add(o, "collection", expr(x.collection));
        add(o, "key", expr(x.key));
        add(o, "open_range", range(x.open_span));
        add(o, "bracket_range", range(x.bracket_span));
        return o;
      }
      case ExprKind::Splat: {
        const auto& s = as<SplatExpr>(*e);
        JValue o = node("Splat", e->span);
        add(o, "source", expr(s.source));
        add(o, "item", expr(s.item));
        add(o, "each", expr(s.each));
        add(o, "marker_range", range(s.marker_span));
        return o;
      }
      case ExprKind::AnonSymbol: {
        JValue o = node("AnonSymbol", e->span);
        auto [it, fresh] = anon_.try_emplace(e, anon_.size() + 1);
        (void)fresh;
        add(o, "id", JValue::raw(std::to_string(it->second)));
        return o;
      }
      case ExprKind::Parens: {
        JValue o = node("Parens", e->span);
        add(o, "inner", expr(as<ParensExpr>(*e).inner));
        return o;
      }
    }
    return node("Unknown", e->span);
  }

  // Returns traversal [s] as an array of steps.
  JValue steps(List<Traverser> s) {
    JValue a = JValue::array();
    for (const Traverser& t : s) {
      JValue o = JValue::object();
      switch (t.kind) {
        case StepKind::Root:
          add(o, "kind", JValue::string("Root"));
          add(o, "name", JValue::string(std::string(t.name())));
          break;
        case StepKind::Attr:
          add(o, "kind", JValue::string("Attr"));
          add(o, "name", JValue::string(std::string(t.name())));
          break;
        case StepKind::Index:
          add(o, "kind", JValue::string("Index"));
          literal(o, t.key());
          break;
      }
      add(o, "range", range(t.span));
      a.items.push_back(std::move(o));
    }
    return a;
  }

 private:
  // Returns a node object of [kind] with its range [s].
  JValue node(const char* kind, Span s) const {
    JValue o = JValue::object();
    add(o, "kind", JValue::string(kind));
    add(o, "range", range(s));
    return o;
  }

  // Adds the fields of literal [v] to [o]: "type", and "value" (a bool,
  // a string, or a number's source text as a string, which keeps every
  // digit; null for null and dynamic).
  static void literal(JValue& o, const Literal& v) {
    add(o, "type", JValue::string(literal_kind(v.kind)));
    switch (v.kind) {
      case LitKind::Bool: add(o, "value", JValue::raw(v.boolean ? "true" : "false")); break;
      case LitKind::Number:
      case LitKind::UnknownNumber:
      case LitKind::String: add(o, "value", JValue::string(std::string(v.text))); break;
      default: add(o, "value", JValue::raw("null")); break;
    }
  }

  // Returns the expressions [l] as an array.
  JValue exprs(const List<Expr*>& l) {
    JValue a = JValue::array();
    for (const Expr* x : l) a.items.push_back(expr(x));
    return a;
  }

  // Returns the range of [s]: start and end, each line, column and byte.
  JValue range(Span s) const {
    Range r = src_.range(s);
    return range_json(r.start, r.end);
  }

  const Source& src_;
  std::unordered_map<const Expr*, size_t> anon_;
};

// The tree of a JSON-syntax document: every value a node with its kind
// and range (positions as the JSON parser counts them).
class JsonTreeJson {
 public:
  JValue node(const json::Node& n) {
    util::enter_level();
    switch (n.kind) {
      case json::NodeKind::Object: {
        const auto& o = json::as<json::ObjectNode>(n);
        JValue v = base("JsonObject", n);
        JValue props = JValue::array();
        for (const json::Property& p : o.properties) {
          JValue q = JValue::object();
          add(q, "kind", JValue::string("JsonProperty"));
          add(q, "name", JValue::string(std::string(p.name->value)));
          add(q, "name_range", range(p.name->start, p.name->end));
          add(q, "value", node(*p.value));
          props.items.push_back(std::move(q));
        }
        add(v, "properties", std::move(props));
        add(v, "close_range", range(o.close_start, o.close_end));
        return v;
      }
      case json::NodeKind::Array: {
        JValue v = base("JsonArray", n);
        JValue items = JValue::array();
        for (const json::Node* i : json::as<json::ArrayNode>(n).items) items.items.push_back(node(*i));
        add(v, "items", std::move(items));
        return v;
      }
      case json::NodeKind::String: {
        JValue v = base("JsonString", n);
        add(v, "value", JValue::string(std::string(json::as<json::StringNode>(n).value)));
        return v;
      }
      case json::NodeKind::Number: {
        JValue v = base("JsonNumber", n);
        add(v, "value", JValue::string(std::string(json::as<json::NumberNode>(n).text)));
        return v;
      }
      case json::NodeKind::Bool: {
        JValue v = base("JsonBool", n);
        add(v, "value", JValue::raw(json::as<json::BoolNode>(n).value ? "true" : "false"));
        return v;
      }
      case json::NodeKind::Null: return base("JsonNull", n);
      case json::NodeKind::Invalid: return base("JsonInvalid", n);
    }
    return JValue::raw("null");
  }

 private:
  static JValue base(const char* kind, const json::Node& n) {
    JValue o = JValue::object();
    add(o, "kind", JValue::string(kind));
    add(o, "range", range_json(n.start, n.end));
    return o;
  }

  static JValue range(const Pos& a, const Pos& b) { return range_json(a, b); }
};

// Returns [v] written as JSON, strings escaped as Go's encoding/json does
// but for HTML characters, positions on one line each.
std::string text_of(const JValue& v) {
  uni::JsonQuoting q;
  q.html = false;
  std::string out;
  write_json(v, out, q, 0, true);
  out += '\n';
  return out;
}

}  // namespace

std::string ast_body_json(const ast::Body& body, const Source& src) {
  return util::run_deep([&](const util::StackBudget&) { return text_of(AstJson(src).body(body)); });
}

std::string ast_expr_json(const ast::Expr& expr, const Source& src) {
  return util::run_deep([&](const util::StackBudget&) { return text_of(AstJson(src).expr(&expr)); });
}

std::string ast_traversal_json(ast::List<ast::Traverser> steps, const Source& src) {
  return util::run_deep([&](const util::StackBudget&) { return text_of(AstJson(src).steps(steps)); });
}

std::string ast_json_tree_json(const json::Node& root) {
  return util::run_deep([&](const util::StackBudget&) { return text_of(JsonTreeJson().node(root)); });
}

}  // namespace hclvm::convert

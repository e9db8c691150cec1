// Static analysis of JSON values as expressions (the reference's json
// expression methods Variables, AsTraversal, ExprList, ExprMap and
// ExprCall, as hcl's generic functions use them). Arrays and objects
// answer ExprList and ExprMap with their parts; a string answers the rest
// by being parsed as native syntax: as a template for Variables (from one
// column after the opening quote, as evaluation parses it), as a traversal
// or an expression for the others (from the opening quote itself, as the
// reference does). A string that does not parse answers nothing.
#include <hclvm/json_syntax.h>

namespace hclvm {

namespace {

using namespace hclvm::json;

constexpr const char* kInvalidExpression = "Invalid expression";

// Returns an error "Invalid expression" with [detail] on [subject].
Diagnostic invalid_expression(const char* detail, Range subject) {
  Diagnostic d;
  d.summary = kInvalidExpression;
  d.detail = detail;
  d.subject = std::move(subject);
  return d;
}

// The contents of string [s] of [doc] as a source starting at [at].
std::shared_ptr<const Source> string_source(const StringNode& s, const JsonParse& doc, Pos at) {
  return make_source(doc.source->name(), std::string(s.value), at);
}

// Appends the variables of string [s] read as a template to [out].
void string_variables(const StringNode& s, const JsonParse& doc, std::vector<Traversal>& out) {
  // Plain text reads no variable.
  if (s.value.find_first_of("$%") == std::string_view::npos) return;
  Pos at = s.start;
  ++at.column, ++at.byte;
  ExprParse p = parse_template(string_source(s, doc, at));
  if (p.has_errors()) return;
  for (Traversal& t : variables(*p.expr, *p.source)) out.push_back(std::move(t));
}

}  // namespace

std::vector<Traversal> variables(const json::Node& node, const JsonParse& doc) {
  std::vector<Traversal> out;
  // Depth first, names before values, with an explicit stack: any depth.
  std::vector<const Node*> todo{&node};
  while (!todo.empty()) {
    const Node* n = todo.back();
    todo.pop_back();
    switch (n->kind) {
      case NodeKind::String: string_variables(as<StringNode>(*n), doc, out); break;
      case NodeKind::Array: {
        const auto& items = as<ArrayNode>(*n).items;
        for (uint32_t i = items.size; i-- > 0;) todo.push_back(items[i]);
        break;
      }
      case NodeKind::Object: {
        const auto& props = as<ObjectNode>(*n).properties;
        for (uint32_t i = props.size; i-- > 0;) {
          todo.push_back(props[i].value);
          todo.push_back(props[i].name);
        }
        break;
      }
      default: break;
    }
  }
  return out;
}

TraversalResult abs_traversal_for_expr(const json::Node& node, const JsonParse& doc) {
  TraversalResult r;
  if (node.kind == NodeKind::String) {
    TraversalParse p =
        parse_traversal_abs(string_source(as<StringNode>(node), doc, node.start));
    if (!p.has_errors()) {
      r.traversal = make_traversal(p.traversal, *p.source);
      return r;
    }
  }
  r.diagnostics.push_back(invalid_expression(
      "A single static variable reference is required: only attribute access and indexing "
      "with constant keys. No calculations, function calls, template expressions, etc are "
      "allowed here.",
      range(node, doc.source->name())));
  return r;
}

TraversalResult rel_traversal_for_expr(const json::Node& node, const JsonParse& doc) {
  TraversalResult r = abs_traversal_for_expr(node, doc);
  if (!r.traversal.empty()) r.traversal.steps[0].kind = TraversalStep::Kind::Attr;
  return r;
}

std::string expr_as_keyword(const json::Node& node, const JsonParse& doc) {
  if (node.kind != NodeKind::String) return "";
  TraversalResult r = abs_traversal_for_expr(node, doc);
  if (r.traversal.steps.size() != 1) return "";
  return r.traversal.steps[0].name;
}

JsonExprListResult expr_list(const json::Node& node, const JsonParse& doc) {
  JsonExprListResult r;
  if (node.kind == NodeKind::Array) {
    for (const Node* i : as<ArrayNode>(node).items) r.items.push_back(i);
    return r;
  }
  r.diagnostics.push_back(invalid_expression("A static list expression is required.",
                                             start_range(node, doc.source->name())));
  return r;
}

JsonExprMapResult expr_map(const json::Node& node, const JsonParse& doc) {
  JsonExprMapResult r;
  if (node.kind == NodeKind::Object) {
    for (const Property& p : as<ObjectNode>(node).properties)
      r.pairs.push_back(JsonKeyValuePair{p.name, p.value});
    return r;
  }
  r.diagnostics.push_back(invalid_expression("A static map expression is required.",
                                             start_range(node, doc.source->name())));
  return r;
}

JsonExprCallResult expr_call(const json::Node& node, const JsonParse& doc) {
  JsonExprCallResult r;
  if (node.kind == NodeKind::String) {
    r.parse = parse_expression(string_source(as<StringNode>(node), doc, node.start));
    if (!r.parse.has_errors()) {
      ExprCallResult c = expr_call(*r.parse.expr, *r.parse.source);
      if (!c.has_errors()) {
        r.call = std::move(c.call);
        return r;
      }
    }
  }
  r.diagnostics.push_back(invalid_expression("A static function call is required.",
                                             start_range(node, doc.source->name())));
  return r;
}

}  // namespace hclvm

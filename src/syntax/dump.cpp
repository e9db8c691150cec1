// The tree dump (see dump.h). Each line is
//   [role: ]Kind field=value ... @line:col-line:col
// with children indented two spaces below their parent. Strings are printed
// JSON-escaped (plus \xHH for bytes that are not UTF-8), so a dump is plain
// ASCII-safe text whatever the source holds. Anonymous splat symbols get a
// number on first sight, so `each` shows which symbol it reads.
#include "syntax/dump.h"

#include "util/unicode.h"

#include <string>
#include <unordered_map>

namespace hclvm::syntax {

using namespace hclvm::ast;

namespace {

// Returns [s] as a JSON string literal (no HTML escapes; DEL escaped);
// invalid UTF-8 bytes become \xHH.
std::string quote(std::string_view s) {
  std::string out;
  uni::append_json_quoted(out, s,
                          uni::JsonQuoting{.html = false,
                                           .line_separators = false,
                                           .short_bf = true,
                                           .escape_del = true,
                                           .bad_bytes_as_hex = true});
  return out;
}

// Writes nodes depth-first into one string.
class Dumper {
 public:
  explicit Dumper(const Source& src) : src_(src) {}

  // Returns the text written so far.
  std::string take() { return std::move(out_); }

  // Writes body [b] and everything in it at depth [d].
  void body(const Body& b, int d, const char* role = nullptr) {
    line(d, role, "Body end=" + span(b.end_span), b.span);
    for (const Attribute* a : b.attributes) attribute(*a, d + 1);
    for (const Block* k : b.blocks) block(*k, d + 1);
  }

  // Writes attribute [a] and its expression at depth [d].
  void attribute(const Attribute& a, int d) {
    line(d, nullptr,
         "Attribute " + quote(a.name) + " name=" + span(a.name_span) + " equals=" + span(a.equals_span), a.span);
    expr(a.expr, d + 1, "expr");
  }

  // Writes block [k], its labels and its body at depth [d].
  void block(const Block& k, int d) {
    line(d, nullptr,
         "Block " + quote(k.type) + " type=" + span(k.type_span) + " open=" + span(k.open_brace_span) +
             " close=" + span(k.close_brace_span),
         k.span);
    // Labels and their spans are separate lists: print both in full, so a
    // length mismatch shows too.
    for (uint32_t i = 0; i < k.labels.size; ++i) {
      std::string text = "Label " + quote(k.labels[i]);
      if (i < k.label_spans.size) text += " @" + span(k.label_spans[i]);
      indent(d + 1);
      out_ += text;
      out_ += '\n';
    }
    for (uint32_t i = k.labels.size; i < k.label_spans.size; ++i) {
      indent(d + 1);
      out_ += "LabelSpan @" + span(k.label_spans[i]) + '\n';
    }
    if (k.body != nullptr)
      body(*k.body, d + 1, "body");
    else
      null(d + 1, "body");
  }

  // Writes expression [e] (which may be null) at depth [d], labelled [role].
  void expr(const Expr* e, int d, const char* role = nullptr) {
    if (e == nullptr) return null(d, role);
    switch (e->kind) {
      case ExprKind::Literal:
        line(d, role, "Literal " + literal(as<LiteralExpr>(*e).value), e->span);
        break;
      case ExprKind::Template:
        line(d, role, "Template", e->span);
        for (const Expr* p : as<TemplateExpr>(*e).parts) expr(p, d + 1);
        break;
      case ExprKind::TemplateWrap:
        line(d, role, "TemplateWrap", e->span);
        expr(as<TemplateWrapExpr>(*e).wrapped, d + 1, "wrapped");
        break;
      case ExprKind::TemplateJoin:
        line(d, role, "TemplateJoin", e->span);
        expr(as<TemplateJoinExpr>(*e).tuple, d + 1, "tuple");
        break;
      case ExprKind::ScopeTraversal:
        line(d, role, "ScopeTraversal", e->span);
        steps(as<ScopeTraversalExpr>(*e).steps, d + 1);
        break;
      case ExprKind::RelativeTraversal: {
        const auto& r = as<RelativeTraversalExpr>(*e);
        line(d, role, "RelativeTraversal", e->span);
        expr(r.source, d + 1, "source");
        steps(r.steps, d + 1);
        break;
      }
      case ExprKind::FunctionCall: {
        const auto& c = as<FunctionCallExpr>(*e);
        line(d, role,
             "FunctionCall " + quote(c.name) + (c.expand_final ? " expand_final" : "") + " name=" + span(c.name_span) +
                 " open=" + span(c.open_paren_span) + " close=" + span(c.close_paren_span),
             e->span);
        for (const Expr* a : c.args) expr(a, d + 1, "arg");
        break;
      }
      case ExprKind::Conditional: {
        const auto& c = as<ConditionalExpr>(*e);
        line(d, role, "Conditional", e->span);
        expr(c.condition, d + 1, "condition");
        expr(c.true_result, d + 1, "true");
        expr(c.false_result, d + 1, "false");
        break;
      }
      case ExprKind::Binary: {
        const auto& b = as<BinaryExpr>(*e);
        line(d, role, std::string("Binary ") + ast::binary_op_symbol(b.op), e->span);
        expr(b.lhs, d + 1, "lhs");
        expr(b.rhs, d + 1, "rhs");
        break;
      }
      case ExprKind::Unary: {
        const auto& u = as<UnaryExpr>(*e);
        line(d, role, std::string("Unary ") + (u.op == UnaryOp::Negate ? "-" : "!") + " symbol=" + span(u.symbol_span),
             e->span);
        expr(u.operand, d + 1, "operand");
        break;
      }
      case ExprKind::Tuple: {
        const auto& t = as<TupleExpr>(*e);
        line(d, role, "Tuple open=" + span(t.open_span), e->span);
        for (const Expr* i : t.items) expr(i, d + 1);
        break;
      }
      case ExprKind::Object: {
        const auto& o = as<ObjectExpr>(*e);
        line(d, role, "Object open=" + span(o.open_span), e->span);
        for (const ObjectItem& i : o.items) {
          expr(i.key, d + 1, "key");
          expr(i.value, d + 1, "value");
        }
        break;
      }
      case ExprKind::ObjectKey: {
        const auto& k = as<ObjectKeyExpr>(*e);
        line(d, role, std::string("ObjectKey") + (k.force_non_literal ? " force_non_literal" : ""), e->span);
        expr(k.wrapped, d + 1, "wrapped");
        break;
      }
      case ExprKind::For: {
        const auto& f = as<ForExpr>(*e);
        line(d, role,
             "For key_var=" + quote(f.key_var) + " val_var=" + quote(f.val_var) + (f.group ? " group" : "") +
                 " open=" + span(f.open_span) + " close=" + span(f.close_span),
             e->span);
        expr(f.collection, d + 1, "collection");
        expr(f.key, d + 1, "key");
        expr(f.value, d + 1, "value");
        expr(f.condition, d + 1, "condition");
        break;
      }
      case ExprKind::Index: {
        const auto& x = as<IndexExpr>(*e);
        line(d, role, "Index open=" + span(x.open_span) + " brackets=" + span(x.bracket_span), e->span);
        expr(x.collection, d + 1, "collection");
        expr(x.key, d + 1, "key");
        break;
      }
      case ExprKind::Splat: {
        const auto& s = as<SplatExpr>(*e);
        line(d, role, "Splat marker=" + span(s.marker_span), e->span);
        expr(s.source, d + 1, "source");
        expr(s.item, d + 1, "item");
        expr(s.each, d + 1, "each");
        break;
      }
      case ExprKind::AnonSymbol:
        line(d, role, "AnonSymbol #" + std::to_string(anon_id(e)), e->span);
        break;
      case ExprKind::Parens:
        line(d, role, "Parens", e->span);
        expr(as<ParensExpr>(*e).inner, d + 1, "inner");
        break;
      default:
        line(d, role, "?Expr kind=" + std::to_string(int(e->kind)), e->span);
        break;
    }
  }

  // Writes traversal [s], one step a line, at depth [d].
  void steps(List<Traverser> s, int d) {
    for (const Traverser& t : s) {
      switch (t.kind) {
        case StepKind::Root: line(d, nullptr, "Root " + quote(t.name()), t.span); break;
        case StepKind::Attr: line(d, nullptr, "Attr " + quote(t.name()), t.span); break;
        case StepKind::Index: line(d, nullptr, "IndexStep " + literal(t.key()), t.span); break;
      }
    }
  }

 private:
  // Formats literal [v] as its kind and value.
  std::string literal(const Literal& v) {
    switch (v.kind) {
      case LitKind::Null: return "null";
      case LitKind::Bool: return v.boolean ? "bool true" : "bool false";
      case LitKind::Number: return "number " + quote(v.text);
      case LitKind::String: return "string " + quote(v.text);
      case LitKind::Dynamic: return "dynamic";
      case LitKind::UnknownNumber: return "unknown-number " + quote(v.text);
    }
    return "?literal";
  }

  // Formats [s] as line:col-line:col.
  std::string span(Span s) const {
    Range r = src_.range(s);
    return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" + std::to_string(r.end.line) +
           ":" + std::to_string(r.end.column);
  }

  // Returns the number of anonymous symbol [e], numbering new ones in
  // order of first sight.
  int anon_id(const Expr* e) {
    auto [it, fresh] = anon_.try_emplace(e, int(anon_.size()) + 1);
    (void)fresh;
    return it->second;
  }

  // Writes the indentation of depth [d].
  void indent(int d) { out_.append(size_t(d) * 2, ' '); }

  // Writes one node line: [role], [text] and the range of [s].
  void line(int d, const char* role, const std::string& text, Span s) {
    indent(d);
    if (role != nullptr) {
      out_ += role;
      out_ += ": ";
    }
    out_ += text;
    out_ += " @";
    out_ += span(s);
    out_ += '\n';
  }

  // Writes a line for an absent child [role] at depth [d].
  void null(int d, const char* role) {
    indent(d);
    if (role != nullptr) {
      out_ += role;
      out_ += ": ";
    }
    out_ += "null\n";
  }

  const Source& src_;
  std::string out_;
  std::unordered_map<const Expr*, int> anon_;
};

}  // namespace

// Dumps [body] (see dump.h).
std::string dump_body(const Body& body, const Source& src) {
  Dumper d(src);
  d.body(body, 0);
  return d.take();
}

// Dumps [expr] (see dump.h).
std::string dump_expr(const Expr& expr, const Source& src) {
  Dumper d(src);
  d.expr(&expr, 0);
  return d.take();
}

// Dumps [steps] (see dump.h).
std::string dump_traversal(List<Traverser> steps, const Source& src) {
  Dumper d(src);
  d.steps(steps, 0);
  return d.take();
}

}  // namespace hclvm::syntax

namespace hclvm::ast {

const char* binary_op_symbol(BinaryOp op) {
  switch (op) {  // ORDER BinaryOp
    case BinaryOp::Or: return "||";
    case BinaryOp::And: return "&&";
    case BinaryOp::Equal: return "==";
    case BinaryOp::NotEqual: return "!=";
    case BinaryOp::Greater: return ">";
    case BinaryOp::GreaterOrEqual: return ">=";
    case BinaryOp::Less: return "<";
    case BinaryOp::LessOrEqual: return "<=";
    case BinaryOp::Add: return "+";
    case BinaryOp::Subtract: return "-";
    case BinaryOp::Multiply: return "*";
    case BinaryOp::Divide: return "/";
    case BinaryOp::Modulo: return "%";
  }
  return "?";
}

}  // namespace hclvm::ast

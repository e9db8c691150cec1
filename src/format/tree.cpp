// The lossless tree (include/hclvm/format.h): the parser's tree laid over
// the scanner's tokens. Every node of the parse covers a byte span; the
// tokens that start inside it are the node's run, and the runs of a node's
// children are cut out of its own. What no child takes (brackets,
// separators, comments, newlines) hangs on the node, so the tree always
// holds every token exactly once, whatever the parse made of the file.
//
// Body items and the items of brackets (object items, tuple elements, call
// arguments) take their decor much as hclwrite takes a body item's: the
// comment lines right above them (no blank line between; hclwrite leaves a
// `/* */` line out) and, after them, their comma, the comments on the rest
// of their line and its newline. Removing such a node removes its comments
// with it.
//
// A child whose span does not nest inside its parent's run, or overlaps the
// sibling before it (partial trees of files with errors can have such
// spans), gets no node: its tokens stay with the parent.
#include <hclvm/format.h>

#include "format/terraform.h"
#include "format/tree_impl.h"
#include "syntax/token.h"
#include "util/unicode.h"

#include <algorithm>

namespace hclvm::format {

using syntax::Tok;
using syntax::Token;

namespace {

constexpr std::string_view kKindNames[] = {
#define FORMAT_NODE(name, text) text,
#include <hclvm/format_nodes.def>
#undef FORMAT_NODE
};

// Returns the node kind of expression kind [k] (ORDER ExprKind).
NodeKind expr_node_kind(ast::ExprKind k) { return NodeKind(uint8_t(NodeKind::Literal) + uint8_t(k)); }

// Builds the nodes of one file into a node vector.
class Builder {
 public:
  Builder(std::span<const Token> toks, std::string_view text, std::vector<Node>& nodes)
      : toks_(toks), text_(text), nodes_(nodes) {}

  // Adds the body [b] over tokens [lo, hi) under [parent].
  NodeId body(const ast::Body* b, uint32_t lo, uint32_t hi, NodeId parent) {
    NodeId id = add(NodeKind::Body, lo, hi, parent, b);
    if (!b) return id;
    struct Item {
      uint32_t begin;
      const ast::Attribute* attr;
      const ast::Block* block;
    };
    std::vector<Item> items;
    for (const ast::Attribute* a : b->attributes)
      if (a) items.push_back({a->span.begin, a, nullptr});
    for (const ast::Block* k : b->blocks)
      if (k) items.push_back({k->span.begin, nullptr, k});
    std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.begin < y.begin; });
    uint32_t prev = lo;
    for (const Item& it : items) {
      ast::Span span = it.attr ? it.attr->span : it.block->span;
      uint32_t f = at(span.begin), e = std::min(at(span.end), hi);
      if (f < prev || f >= e) continue;
      f = lead_comments(f, prev);
      e = line_end(e, hi, false);
      if (it.attr)
        attribute(*it.attr, f, e, id);
      else
        block(*it.block, f, e, id);
      prev = e;
    }
    return id;
  }

 private:
  // Adds a node of kind [k] over tokens [f, e) with [syntax] as the last
  // child of [parent].
  NodeId add(NodeKind k, uint32_t f, uint32_t e, NodeId parent, const void* syntax) {
    NodeId id = NodeId(nodes_.size());
    Node n;
    n.kind = k;
    n.first_token = f;
    n.end_token = e;
    n.parent = parent;
    n.syntax = syntax;
    nodes_.push_back(n);
    last_child_.push_back(kNoNode);
    if (parent != kNoNode) {
      if (last_child_[parent] == kNoNode)
        nodes_[parent].first_child = id;
      else
        nodes_[last_child_[parent]].next_sibling = id;
      last_child_[parent] = id;
    }
    return id;
  }

  // Returns where the comment lines right before token [f] begin, not
  // before [lo]: `#` and `//` comments (which hold their newlines), and
  // `/* */` comments that stand alone on their lines.
  uint32_t lead_comments(uint32_t f, uint32_t lo) const {
    for (;;) {
      if (f > lo && toks_[f - 1].type == Tok::Comment) {
        --f;
      } else if (f >= lo + 2 && toks_[f - 1].type == Tok::Newline && toks_[f - 2].type == Tok::Comment &&
                 !line_comment(f - 2) && (f - 2 == lo || toks_[f - 3].type == Tok::Newline || line_comment(f - 3))) {
        f -= 2;
      } else {
        return f;
      }
    }
  }

  // Reports whether token [i] is a comment that holds its newline.
  bool line_comment(uint32_t i) const {
    const Token& t = toks_[i];
    return t.type == Tok::Comment && t.span.end > t.span.begin && text_[t.span.end - 1] == '\n';
  }

  // Returns the end of the decor after an item ending before token [e],
  // not beyond [hi]: with [separators], a `...` and a comma; then comments
  // to the end of the line and its newline.
  uint32_t line_end(uint32_t e, uint32_t hi, bool separators) const {
    if (separators) {
      if (e < hi && toks_[e].type == Tok::Ellipsis) ++e;
      if (e < hi && toks_[e].type == Tok::Comma) ++e;
    }
    while (e < hi) {
      Tok t = toks_[e].type;
      if (t == Tok::Comment) {
        if (line_comment(e++)) break;
        continue;
      }
      if (t == Tok::Newline) ++e;
      break;
    }
    return e;
  }

  // Returns the token run of span [s], or an empty run when it does not
  // fit in [lo, hi).
  std::pair<uint32_t, uint32_t> run(ast::Span s, uint32_t lo, uint32_t hi) const {
    uint32_t f = at(s.begin), e = at(s.end);
    if (f < lo || e > hi || f >= e) return {0, 0};
    return {f, e};
  }

  void attribute(const ast::Attribute& a, uint32_t f, uint32_t e, NodeId parent) {
    NodeId id = add(NodeKind::Attribute, f, e, parent, &a);
    uint32_t lo = std::max(f, at(a.equals_span.end));
    expr(a.expr, lo, e, id);
  }

  void block(const ast::Block& b, uint32_t f, uint32_t e, NodeId parent) {
    NodeId id = add(NodeKind::Block, f, e, parent, &b);
    uint32_t prev = f;
    for (uint32_t i = 0; i < b.labels.size && i < b.label_spans.size; ++i) {
      auto [lf, le] = run(b.label_spans[i], prev, e);
      if (lf == le) continue;
      add(NodeKind::Label, lf, le, id, &b.labels[i]);
      prev = le;
    }
    if (!b.body) return;
    uint32_t open = at(b.open_brace_span.begin);
    if (b.open_brace_span.end == b.open_brace_span.begin || open < prev || open >= e ||
        toks_[open].type != Tok::OBrace)
      return;
    uint32_t close = at(b.close_brace_span.begin);
    if (b.close_brace_span.end == b.close_brace_span.begin || close <= open || close >= e ||
        toks_[close].type != Tok::CBrace)
      close = e;
    body(b.body, open + 1, close, id);
  }

  // Adds expression [x] over its run inside [lo, hi) under [parent].
  NodeId expr(const ast::Expr* x, uint32_t lo, uint32_t hi, NodeId parent) {
    if (!x) return kNoNode;
    auto [f, e] = run(x->span, lo, hi);
    if (f == e) return kNoNode;
    NodeId id = add(expr_node_kind(x->kind), f, e, parent, x);
    switch (x->kind) {
      case ast::ExprKind::Object: object(ast::as<ast::ObjectExpr>(*x), id); break;
      case ast::ExprKind::Tuple: {
        const auto& t = ast::as<ast::TupleExpr>(*x);
        items(NodeKind::Element, t.items, after(t.open_span, f), closer(e), id);
        break;
      }
      case ast::ExprKind::FunctionCall: {
        const auto& c = ast::as<ast::FunctionCallExpr>(*x);
        items(NodeKind::Argument, c.args, after(c.open_paren_span, f), closer(e), id);
        break;
      }
      default: generic(*x, f, e, id); break;
    }
    return id;
  }

  // Returns the first token after the bracket at [open], not before [f].
  uint32_t after(ast::Span open, uint32_t f) const { return std::max(f, at(open.end)); }

  // Returns the index of the closing bracket of a run ending before [e].
  uint32_t closer(uint32_t e) const {
    Tok t = toks_[e - 1].type;
    return t == Tok::CBrace || t == Tok::CBrack || t == Tok::CParen ? e - 1 : e;
  }

  // Adds each child of [x] whose run nests in [f, e) after the one before.
  void generic(const ast::Expr& x, uint32_t f, uint32_t e, NodeId id) {
    std::vector<const ast::Expr*> kids;
    ast::for_each_child(x, [&](const ast::Expr& c) { kids.push_back(&c); });
    std::stable_sort(kids.begin(), kids.end(),
                     [](const ast::Expr* a, const ast::Expr* b) { return a->span.begin < b->span.begin; });
    uint32_t prev = f;
    for (const ast::Expr* c : kids) {
      auto [cf, ce] = run(c->span, prev, e);
      if (cf == ce) continue;
      expr(c, cf, ce, id);
      prev = ce;
    }
  }

  // Adds the wrappers of kind [k] around [list]'s expressions inside
  // tokens [lo, hi) (between the brackets) under [id].
  void items(NodeKind k, const ast::List<ast::Expr*>& list, uint32_t lo, uint32_t hi, NodeId id) {
    uint32_t prev = lo;
    for (const ast::Expr* c : list) {
      if (!c) continue;
      auto [cf, ce] = run(c->span, prev, hi);
      if (cf == ce) continue;
      uint32_t f = lead_comments(cf, prev), e = line_end(ce, hi, true);
      NodeId w = add(k, f, e, id, nullptr);
      expr(c, cf, ce, w);
      prev = e;
    }
  }

  void object(const ast::ObjectExpr& o, NodeId id) {
    const Node& n = nodes_[id];
    uint32_t prev = after(o.open_span, n.first_token), hi = closer(n.end_token);
    for (const ast::ObjectItem& it : o.items) {
      if (!it.key || !it.value) continue;
      auto [cf, ce] = run(ast::join(it.key->span, it.value->span), prev, hi);
      if (cf == ce) continue;
      uint32_t f = lead_comments(cf, prev), e = line_end(ce, hi, true);
      NodeId w = add(NodeKind::ObjectItem, f, e, id, &it);
      uint32_t kf = at(it.key->span.begin), ke = at(it.key->span.end);
      expr(it.key, cf, ce, w);
      expr(it.value, std::max(ke, kf), ce, w);
      prev = e;
    }
  }

  // token_at for [offset], searched from the last one found: the walk
  // asks for offsets nearly in order, so each search is a few steps.
  uint32_t at(uint32_t offset) const { return token_at(toks_, offset, at_); }

  std::span<const Token> toks_;
  mutable uint32_t at_ = 0;  // the last token at() found
  std::string_view text_;
  std::vector<Node>& nodes_;
  std::vector<NodeId> last_child_;
};

}  // namespace

std::string_view node_kind_name(NodeKind k) { return kKindNames[size_t(k)]; }

Tree::Tree(std::shared_ptr<const Source> src) : source_(std::move(src)), impl_(std::make_unique<Impl>()) {
  std::string_view text = source_->text();
  impl_->parse = parse_config(source_);
  if (text.size() < size_t(UINT32_MAX) - 1)
    impl_->toks = syntax::scan(text, syntax::ScanMode::Normal);
  else
    impl_->toks.push_back(Token{Tok::EOF_, {0, 0}});
  Builder b(impl_->toks, text, nodes_);
  b.body(impl_->parse.body, 0, uint32_t(impl_->toks.size()), kNoNode);
}

Tree::~Tree() = default;
Tree::Tree(Tree&&) noexcept = default;
Tree& Tree::operator=(Tree&&) noexcept = default;

std::string_view Tree::text() const { return source_->text(); }
const Diagnostics& Tree::diagnostics() const { return impl_->parse.diagnostics; }
const ast::Body* Tree::body() const { return impl_->parse.body; }
size_t Tree::token_count() const { return impl_->toks.size(); }

TokenView Tree::token(uint32_t i) const {
  const Token& t = impl_->toks[i];
  uint32_t prev = i ? impl_->toks[i - 1].span.end : 0;
  std::string_view text = source_->text();
  return TokenView{syntax::token_name(t.type), text.substr(t.span.begin, t.span.end - t.span.begin),
                   text.substr(prev, t.span.begin - prev)};
}

std::string_view Tree::bytes(NodeId id) const {
  const Node& n = nodes_[id];
  if (n.first_token >= n.end_token) return {};
  uint32_t b = impl_->toks[n.first_token].span.begin, e = impl_->toks[n.end_token - 1].span.end;
  return source_->text().substr(b, e - b);
}

void Tree::print(NodeId id, std::string& out) const {
  // An explicit stack: expressions nest as deep as the parser allows.
  struct Frame {
    NodeId node;
    uint32_t next;  // the next token to print
    NodeId child;   // the next child not yet printed
  };
  std::vector<Frame> stack{{id, nodes_[id].first_token, nodes_[id].first_child}};
  while (!stack.empty()) {
    Frame& fr = stack.back();
    const Node& n = nodes_[fr.node];
    if (fr.next >= n.end_token) {
      stack.pop_back();
      continue;
    }
    if (fr.child != kNoNode && nodes_[fr.child].first_token == fr.next) {
      NodeId c = fr.child;
      fr.next = nodes_[c].end_token;
      fr.child = nodes_[c].next_sibling;
      stack.push_back(Frame{c, nodes_[c].first_token, nodes_[c].first_child});
      continue;
    }
    TokenView t = token(fr.next++);
    out += t.space_before;
    out += t.text;
  }
}

std::string Tree::print() const {
  std::string out;
  out.reserve(text().size());
  print(root(), out);
  return out;
}

std::string Tree::dump() const {
  std::string out;
  std::vector<std::pair<NodeId, int>> todo{{root(), 0}};
  while (!todo.empty()) {
    auto [id, depth] = todo.back();
    todo.pop_back();
    const Node& n = nodes_[id];
    out.append(size_t(2 * depth), ' ');
    out += node_kind_name(n.kind);
    out += ' ' + std::to_string(n.first_token) + ".." + std::to_string(n.end_token) + ' ';
    out += uni::go_quote(bytes(id));
    out += '\n';
    std::vector<NodeId> kids = children(id);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.emplace_back(*it, depth + 1);
  }
  return out;
}

std::vector<NodeId> Tree::children(NodeId id) const {
  std::vector<NodeId> out;
  for (NodeId c = nodes_[id].first_child; c != kNoNode; c = nodes_[c].next_sibling) out.push_back(c);
  return out;
}

std::vector<NodeId> Tree::labels(NodeId id) const {
  std::vector<NodeId> out;
  if (nodes_[id].kind != NodeKind::Block) return out;
  for (NodeId c = nodes_[id].first_child; c != kNoNode; c = nodes_[c].next_sibling)
    if (nodes_[c].kind == NodeKind::Label) out.push_back(c);
  return out;
}

std::string Tree::label_value(NodeId label) const {
  if (nodes_[label].kind != NodeKind::Label) return {};
  return std::string(*static_cast<const std::string_view*>(nodes_[label].syntax));
}

NodeId Tree::value(NodeId id) const {
  const Node& n = nodes_[id];
  switch (n.kind) {
    case NodeKind::Attribute: {
      const auto* a = static_cast<const ast::Attribute*>(n.syntax);
      for (NodeId c = n.first_child; c != kNoNode; c = nodes_[c].next_sibling)
        if (nodes_[c].syntax == a->expr) return c;
      return kNoNode;
    }
    case NodeKind::ObjectItem: {
      const auto* it = static_cast<const ast::ObjectItem*>(n.syntax);
      for (NodeId c = n.first_child; c != kNoNode; c = nodes_[c].next_sibling)
        if (nodes_[c].syntax == it->value) return c;
      return kNoNode;
    }
    case NodeKind::Element:
    case NodeKind::Argument: return n.first_child;
    default: return kNoNode;
  }
}

NodeId Tree::key(NodeId id) const {
  const Node& n = nodes_[id];
  if (n.kind != NodeKind::ObjectItem) return kNoNode;
  const auto* it = static_cast<const ast::ObjectItem*>(n.syntax);
  for (NodeId c = n.first_child; c != kNoNode; c = nodes_[c].next_sibling)
    if (nodes_[c].syntax == it->key) return c;
  return kNoNode;
}

NodeId Tree::block_body(NodeId id) const {
  if (nodes_[id].kind != NodeKind::Block) return kNoNode;
  for (NodeId c = nodes_[id].first_child; c != kNoNode; c = nodes_[c].next_sibling)
    if (nodes_[c].kind == NodeKind::Body) return c;
  return kNoNode;
}

std::string_view Tree::name(NodeId id) const {
  const Node& n = nodes_[id];
  switch (n.kind) {
    case NodeKind::Attribute: return static_cast<const ast::Attribute*>(n.syntax)->name;
    case NodeKind::Block: return static_cast<const ast::Block*>(n.syntax)->type;
    case NodeKind::ObjectItem: {
      // A bare name, or a string without interpolations: its text; any
      // other key expression: its source.
      const auto* k = static_cast<const ast::ObjectKeyExpr*>(static_cast<const ast::ObjectItem*>(n.syntax)->key);
      const ast::Expr* w = k->wrapped;
      if (w->kind == ast::ExprKind::ScopeTraversal && !k->force_non_literal) {
        const auto& t = ast::as<ast::ScopeTraversalExpr>(*w);
        if (t.steps.size == 1) return t.steps[0].name();
      }
      if (w->kind == ast::ExprKind::Template) {
        const auto& t = ast::as<ast::TemplateExpr>(*w);
        if (t.parts.size == 1 && t.parts[0]->kind == ast::ExprKind::Literal)
          return ast::as<ast::LiteralExpr>(*t.parts[0]).value.text;
        if (t.parts.size == 0) return {};
      }
      return source_->text().substr(w->span.begin, w->span.end - w->span.begin);
    }
    default: return {};
  }
}

}  // namespace hclvm::format

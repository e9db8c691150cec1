// Editing through the lossless tree (Document in include/hclvm/format.h).
//
// Every edit is a splice: the tree says which bytes a change replaces and
// what surrounds them (indentation, commas, blank lines), the text gets the
// new bytes, and the tree is built again from the new text. So the tree is
// always the parse of the text, and nothing outside the replaced bytes can
// change. An edit that would leave a file that parsed with syntax errors is
// refused.
//
// What edits add is placed as a person would write it:
//  - an attribute after the body's last attribute (before its blocks),
//    indented like it, its `=` in the column of that attribute's when that
//    one is aligned; in a body without attributes, first, before the blocks,
//    with a blank line after it;
//  - a block at the end of its body, after a blank line;
//  - an object item after the last item, in the same style (`=` or `:`,
//    one a line or on one line with commas); a tuple element likewise;
//  - a one-line body or object (`b {}`, `{ a = 1 }`) is opened over several
//    lines when an attribute or a block goes into it.
// Removing an item takes its comment lines and its line with it, and one
// of the blank lines that would otherwise meet.
#include <hclvm/format.h>

#include "format/terraform.h"
#include "format/tree_impl.h"
#include "syntax/token.h"
#include "value/render.h"

#include <cctype>
#include <functional>

namespace hclvm::format {

using syntax::Tok;
using syntax::Token;

namespace {

// One step of a path: a name (an attribute, block type, label or object
// key) or a number in brackets.
struct Step {
  bool number = false;
  std::string name;
  size_t n = 0;
};

// Returns a diagnostic list holding one error.
Diagnostics error(std::string summary, std::string detail) {
  return {Diagnostic{Severity::Error, std::move(summary), std::move(detail), std::nullopt, std::nullopt}};
}

// Reports whether [s] is one identifier token of the native syntax.
bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  syntax::Tokens toks = syntax::scan(s, syntax::ScanMode::Normal);
  return toks.size() == 2 && toks[0].type == Tok::Ident && toks[0].span.begin == 0 && toks[0].span.end == s.size();
}

// Reads a quoted path segment starting at [i] of [p] (at its `"`) into
// [out]; advances [i] past it. Escapes: \" \\ \n \t \r.
bool read_quoted(std::string_view p, size_t& i, std::string& out) {
  for (++i; i < p.size(); ++i) {
    char c = p[i];
    if (c == '"') {
      ++i;
      return true;
    }
    if (c == '\\' && i + 1 < p.size()) {
      char e = p[++i];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
      continue;
    }
    out += c;
  }
  return false;
}

// Parses path [p] into [out]; returns what is wrong with it, or "".
std::string parse_path(std::string_view p, std::vector<Step>& out) {
  size_t i = 0;
  while (i < p.size()) {
    Step s;
    if (p[i] == '"') {
      if (!read_quoted(p, i, s.name)) return "unterminated quoted segment";
    } else {
      size_t j = i;
      while (j < p.size() && p[j] != '.' && p[j] != '[') ++j;
      if (j == i) return "empty segment at byte " + std::to_string(i);
      s.name = std::string(p.substr(i, j - i));
      i = j;
    }
    out.push_back(std::move(s));
    while (i < p.size() && p[i] == '[') {
      Step sel;
      ++i;
      if (i < p.size() && p[i] == '"') {
        if (!read_quoted(p, i, sel.name)) return "unterminated quoted selector";
      } else {
        size_t j = i;
        while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
        if (j == i || j - i > 9) return "a selector is [N] or [\"key\"]";
        sel.number = true;
        sel.n = std::stoul(std::string(p.substr(i, j - i)));
        i = j;
      }
      if (i >= p.size() || p[i] != ']') return "missing ] in selector";
      ++i;
      out.push_back(std::move(sel));
    }
    if (i < p.size()) {
      if (p[i] != '.') return "expected . at byte " + std::to_string(i);
      if (++i == p.size()) return "path ends with .";
    }
  }
  return {};
}

// Returns steps [0, n) of [steps] written as a path, for messages.
std::string path_text(const std::vector<Step>& steps, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    const Step& s = steps[i];
    if (s.number) {
      out += "[" + std::to_string(s.n) + "]";
    } else if (is_identifier(s.name)) {
      if (!out.empty()) out += '.';
      out += s.name;
    } else {
      if (!out.empty()) out += '.';
      out += quote_label(s.name);
    }
  }
  return out.empty() ? "the file" : out;
}

// Returns [expr] as it goes in at [indent]: on one line as it is; over
// several lines laid out as hclfmt lays them out (brackets indented), then
// with [indent] added at the start of each line but the first, except
// lines inside heredocs and blank lines.
std::string reindent(std::string_view given, std::string_view indent) {
  if (given.find('\n') == std::string_view::npos) return std::string(given);
  std::string laid_out = format_hcl(given);
  std::string_view expr = laid_out;
  if (indent.empty()) return laid_out;
  syntax::Tokens toks = syntax::scan(expr, syntax::ScanMode::Normal);
  std::string out;
  uint32_t copied = 0;
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    const Token& t = toks[i];
    bool line_end = t.type == Tok::Newline ||
                    (t.type == Tok::Comment && t.span.end > t.span.begin && expr[t.span.end - 1] == '\n');
    Tok next = toks[i + 1].type;
    if (!line_end || next == Tok::Newline || next == Tok::EOF_ || next == Tok::StringLit || next == Tok::CHeredoc)
      continue;
    out.append(expr.substr(copied, t.span.end - copied));
    out += indent;
    copied = t.span.end;
  }
  out.append(expr.substr(copied));
  return out;
}

// Positions and parts of one tree, for deciding where edits go.
class View {
 public:
  View(const Tree& t, const syntax::Tokens& toks) : t_(t), toks_(toks), text_(t.text()) {}

  const Tree& tree() const { return t_; }
  std::string_view text() const { return text_; }
  const Token& tok(uint32_t i) const { return toks_[i]; }

  // Returns where the run of [id] begins and ends (bytes).
  uint32_t begin(NodeId id) const { return toks_[t_[id].first_token].span.begin; }
  uint32_t end(NodeId id) const { return toks_[t_[id].end_token - 1].span.end; }

  // Returns the start of the line holding byte [off].
  uint32_t line_start(uint32_t off) const {
    size_t p = off == 0 ? std::string_view::npos : text_.rfind('\n', off - 1);
    return p == std::string_view::npos ? 0 : uint32_t(p + 1);
  }
  // Returns the blanks that begin the line holding byte [off].
  std::string_view indent_at(uint32_t off) const {
    uint32_t s = line_start(off), e = s;
    while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\t')) ++e;
    return text_.substr(s, e - s);
  }
  // Reports whether only blanks stand before byte [off] on its line.
  bool starts_line(uint32_t off) const {
    for (uint32_t i = line_start(off); i < off; ++i)
      if (text_[i] != ' ' && text_[i] != '\t') return false;
    return true;
  }
  // Reports whether the run of [id] ends with the end of a line.
  bool ends_line(NodeId id) const {
    const Token& t = toks_[t_[id].end_token - 1];
    return t.span.end > t.span.begin && text_[t.span.end - 1] == '\n';
  }
  // Reports whether bytes [b, e) hold no newline.
  bool one_line(uint32_t b, uint32_t e) const { return text_.substr(b, e - b).find('\n') == std::string_view::npos; }

  // Returns the first token of [id] after its lead comments.
  uint32_t core(NodeId id) const {
    const Node& n = t_[id];
    switch (n.kind) {
      case NodeKind::Attribute:
        return token_at(toks_, static_cast<const ast::Attribute*>(n.syntax)->span.begin);
      case NodeKind::Block: return token_at(toks_, static_cast<const ast::Block*>(n.syntax)->span.begin);
      default: return n.first_child != kNoNode ? t_[n.first_child].first_token : n.first_token;
    }
  }

  // Returns the children of [id] of kind [k].
  std::vector<NodeId> kids(NodeId id, NodeKind k) const {
    std::vector<NodeId> out;
    for (NodeId c : t_.children(id))
      if (t_[c].kind == k) out.push_back(c);
    return out;
  }
  // Returns the attributes and blocks of body [id], in order.
  std::vector<NodeId> items(NodeId body) const {
    std::vector<NodeId> out;
    for (NodeId c : t_.children(body))
      if (t_[c].kind == NodeKind::Attribute || t_[c].kind == NodeKind::Block) out.push_back(c);
    return out;
  }

  // Returns the node [steps] name from the file, or kNoNode with the
  // reason in [why]: of the ways tried, the one that went furthest.
  NodeId resolve(const std::vector<Step>& steps, size_t n, std::string& why) const {
    Failure f;
    NodeId id = in_body(t_.root(), steps, 0, n, f);
    why = f.why;
    return id;
  }

 private:
  // Why a resolution failed, and at which step.
  struct Failure {
    size_t step = 0;
    std::string why;
    // Records [msg] about step [i] unless a failure further on is known.
    NodeId at(size_t i, std::string msg) {
      if (why.empty() || i > step) step = i, why = std::move(msg);
      return kNoNode;
    }
  };

  // Resolves steps [i, n) from body [body].
  NodeId in_body(NodeId body, const std::vector<Step>& steps, size_t i, size_t n, Failure& f) const {
    if (i == n) return body;
    const Step& s = steps[i];
    if (s.number) return f.at(i, path_text(steps, i) + " is a body: [" + std::to_string(s.n) + "] follows a block type");
    for (NodeId a : kids(body, NodeKind::Attribute))
      if (t_.name(a) == s.name) return i + 1 == n ? a : in_value(a, steps, i + 1, n, f);
    // Blocks: `type[N]` picks the Nth of the type; its labels follow.
    size_t j = i + 1, want = SIZE_MAX, count = 0;
    if (j < n && steps[j].number) want = steps[j++].n;
    size_t labels_seen = SIZE_MAX;
    for (NodeId b : kids(body, NodeKind::Block)) {
      if (t_.name(b) != s.name) continue;
      if (labels_seen == SIZE_MAX) labels_seen = t_.labels(b).size();
      if (want != SIZE_MAX && count++ != want) continue;
      std::vector<NodeId> labels = t_.labels(b);
      bool match = j + labels.size() <= n;
      for (size_t k = 0; match && k < labels.size(); ++k)
        match = !steps[j + k].number && t_.label_value(labels[k]) == steps[j + k].name;
      if (!match) continue;
      size_t rest = j + labels.size();
      if (rest == n) return b;
      NodeId bb = t_.block_body(b);
      if (bb == kNoNode) continue;
      NodeId r = in_body(bb, steps, rest, n, f);
      if (r != kNoNode) return r;
    }
    if (labels_seen != SIZE_MAX)
      return f.at(i, "no block " + path_text(steps, std::min(n, j + labels_seen)) + " (blocks of type " +
                         quote_label(s.name) + " have " + std::to_string(labels_seen) + " labels)");
    return f.at(i, path_text(steps, i) + " has no attribute or block named " + quote_label(s.name));
  }

  // Resolves steps [i, n) inside the value of [holder] (an attribute,
  // object item or element).
  NodeId in_value(NodeId holder, const std::vector<Step>& steps, size_t i, size_t n, Failure& f) const {
    NodeId v = t_.value(holder);
    const Step& s = steps[i];
    if (v != kNoNode && t_[v].kind == NodeKind::Object && !s.number) {
      for (NodeId item : kids(v, NodeKind::ObjectItem))
        if (t_.name(item) == s.name) return i + 1 == n ? item : in_value(item, steps, i + 1, n, f);
      return f.at(i, path_text(steps, i) + " has no item " + quote_label(s.name));
    }
    if (v != kNoNode && t_[v].kind == NodeKind::Tuple && s.number) {
      std::vector<NodeId> els = kids(v, NodeKind::Element);
      if (s.n < els.size()) return i + 1 == n ? els[s.n] : in_value(els[s.n], steps, i + 1, n, f);
      return f.at(i, path_text(steps, i) + " has " + std::to_string(els.size()) + " elements");
    }
    std::string what = v == kNoNode ? "not an expression" : "a " + std::string(node_kind_name(t_[v].kind));
    return f.at(i, path_text(steps, i) + " is " + what + ", not " + (s.number ? "a tuple" : "an object"));
  }

  const Tree& t_;
  const syntax::Tokens& toks_;
  std::string_view text_;
};

// A change to make: bytes [begin, end) replaced with [with].
struct Splice {
  uint32_t begin, end;
  std::string with;
};

// Makes an item's text for an indentation: an attribute line's value, say.
using MakeText = std::function<std::string(std::string_view indent)>;

// Returns the splice that opens the one-line brackets [open, close] (token
// indices) over several lines: [inner] (the items already there, trimmed)
// and [added] each on its own line at [indent], the closer back at
// [outer].
Splice open_up(const View& v, uint32_t open, uint32_t close, std::string_view indent, std::string_view outer,
               const std::string& added) {
  uint32_t b = v.tok(open).span.end, e = v.tok(close).span.begin;
  std::string_view inner = v.text().substr(b, e - b);
  while (!inner.empty() && (inner.front() == ' ' || inner.front() == '\t')) inner.remove_prefix(1);
  while (!inner.empty() && (inner.back() == ' ' || inner.back() == '\t')) inner.remove_suffix(1);
  std::string with = "\n";
  if (!inner.empty()) with += std::string(indent) + std::string(inner) + "\n";
  with += added + std::string(outer);
  return Splice{b, e, with};
}

// Returns where an item goes into body [body] of [v] and its text, given
// the item's text for an indentation [make] (ending in a newline), and
// whether it goes after the last attribute ([attribute]) or at the end.
Splice into_body(const View& v, NodeId body, bool attribute, const MakeText& make) {
  const Tree& t = v.tree();
  std::vector<NodeId> items = v.items(body);
  std::vector<NodeId> attrs = v.kids(body, NodeKind::Attribute);
  NodeId owner = t[body].parent;
  std::string outer = owner == kNoNode ? "" : std::string(v.indent_at(v.tok(v.core(owner)).span.begin));
  NodeId anchor = attribute ? (attrs.empty() ? kNoNode : attrs.back()) : (items.empty() ? kNoNode : items.back());
  if (anchor != kNoNode) {
    std::string indent(v.indent_at(v.tok(v.core(anchor)).span.begin));
    std::string blank = attribute ? "" : "\n";
    if (v.ends_line(anchor)) return Splice{v.end(anchor), v.end(anchor), blank + make(indent)};
    uint32_t close = t[body].end_token;
    if (owner != kNoNode && v.tok(close).type == Tok::CBrace && v.one_line(v.begin(anchor), v.tok(close).span.end))
      return open_up(v, t[body].first_token - 1, close, outer + "  ", outer, blank + make(outer + "  "));
    std::string item = make(indent);
    item.pop_back();  // the line it joins has no newline of its own
    return Splice{v.end(anchor), v.end(anchor), "\n" + blank + item};
  }
  if (attribute && !items.empty()) {
    uint32_t at = v.line_start(v.begin(items.front()));
    std::string indent(v.indent_at(v.tok(v.core(items.front())).span.begin));
    return Splice{at, at, make(indent) + "\n"};
  }
  if (owner == kNoNode) {
    std::string_view text = v.text();
    uint32_t at = uint32_t(text.size());
    std::string lead = !text.empty() && text.back() != '\n' ? "\n" : "";
    return Splice{at, at, lead + make("")};
  }
  std::string indent = outer + "  ";
  uint32_t open = t[body].first_token - 1, close = t[body].end_token;
  if (v.tok(close).type != Tok::CBrace) {  // an unclosed block: at its end
    uint32_t at = v.end(owner);
    return Splice{at, at, "\n" + make(indent)};
  }
  if (v.one_line(v.tok(open).span.begin, v.tok(close).span.end)) return open_up(v, open, close, indent, outer, make(indent));
  uint32_t at = v.line_start(v.tok(close).span.begin);
  return Splice{at, at, make(indent)};
}

// Returns the spaces to put before `=` after [name] at [indent], so that
// it stands where [anchor]'s `=` stands (an attribute's or an object
// item's) when that one is aligned, that is, has more than one space
// before it.
std::string equals_gap(const View& v, NodeId anchor, std::string_view indent, std::string_view name) {
  const Tree& t = v.tree();
  if (anchor == kNoNode) return " ";
  uint32_t eq = 0, name_end = 0;
  if (t[anchor].kind == NodeKind::Attribute) {
    const auto* a = static_cast<const ast::Attribute*>(t[anchor].syntax);
    eq = a->equals_span.begin, name_end = a->name_span.end;
  } else if (t[anchor].kind == NodeKind::ObjectItem) {
    NodeId k = t.key(anchor);
    if (k == kNoNode || t[k].end_token >= t[anchor].end_token || v.tok(t[k].end_token).type != Tok::Equal) return " ";
    eq = v.tok(t[k].end_token).span.begin, name_end = v.end(k);
  } else {
    return " ";
  }
  if (eq - name_end <= 1 || v.line_start(eq) != v.line_start(name_end)) return " ";
  size_t col = eq - v.line_start(eq), want = indent.size() + name.size();
  return col > want ? std::string(col - want, ' ') : " ";
}

// Returns where an item goes into the object or tuple [coll] of [v]: the
// item's text for an indentation [make] (no newline), with a separating
// comma where the neighbours have them.
Splice into_brackets(const View& v, NodeId coll, NodeKind item_kind, const MakeText& make) {
  const Tree& t = v.tree();
  std::vector<NodeId> items = v.kids(coll, item_kind);
  uint32_t open = t[coll].first_token, close = t[coll].end_token - 1;
  bool multi = !v.one_line(v.tok(open).span.begin, v.tok(close).span.end);
  Tok sep = item_kind == NodeKind::ObjectItem ? Tok::Newline : Tok::Comma;
  if (items.empty()) {
    if (!multi) {
      std::string pad = item_kind == NodeKind::ObjectItem ? " " : "";
      return Splice{v.tok(open).span.end, v.tok(close).span.begin, pad + make("") + pad};
    }
    std::string indent = std::string(v.indent_at(v.tok(open).span.begin)) + "  ";
    uint32_t at = v.line_start(v.tok(close).span.begin);
    return Splice{at, at, indent + make(indent) + (sep == Tok::Comma ? ",\n" : "\n")};
  }
  NodeId last = items.back();
  bool comma = v.tok(t[last].end_token - 1).type == Tok::Comma ||
               (t[last].end_token >= 2 && v.tok(t[last].end_token - 2).type == Tok::Comma);
  if (multi && v.ends_line(last) && v.starts_line(v.begin(last))) {
    std::string indent(v.indent_at(v.tok(v.core(last)).span.begin));
    uint32_t at = v.end(last);
    if (comma || sep == Tok::Newline) return Splice{at, at, indent + make(indent) + (comma ? ",\n" : "\n")};
    // The last element has no comma: it gets one, the new one none.
    uint32_t after = t[t.value(last)].end_token;
    uint32_t cut = v.tok(after - 1).span.end;
    return Splice{cut, at, "," + std::string(v.text().substr(cut, at - cut)) + indent + make(indent) + "\n"};
  }
  uint32_t after_value = v.tok(t[t.value(last)].end_token - 1).span.end;
  if (comma) {
    uint32_t at = v.end(last);
    return Splice{at, at, " " + make("") + ","};
  }
  return Splice{after_value, after_value, ", " + make("")};
}

}  // namespace

Document::Document(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)), tree_(std::make_unique<Tree>(make_source(name_, text_))) {}

Diagnostics Document::splice(uint32_t begin, uint32_t end, std::string_view with) {
  std::string next = text_.substr(0, begin);
  next += with;
  next += std::string_view(text_).substr(end);
  auto tree = std::make_unique<Tree>(make_source(name_, next));
  if (has_errors(tree->diagnostics()) && !has_errors(tree_->diagnostics())) {
    Diagnostics d = error("Edit not made", "The file would not parse after it; it is left as it was.");
    for (const Diagnostic& x : tree->diagnostics()) d.push_back(x);
    return d;
  }
  text_ = std::move(next);
  tree_ = std::move(tree);
  return {};
}

NodeId Document::find(std::string_view path, Diagnostics* why) const {
  std::vector<Step> steps;
  std::string bad = parse_path(path, steps), reason;
  if (!bad.empty()) {
    if (why) *why = error("Invalid path", "In \"" + std::string(path) + "\": " + bad + ".");
    return kNoNode;
  }
  View v(*tree_, tree_->impl_->toks);
  NodeId id = v.resolve(steps, steps.size(), reason);
  if (id == kNoNode && why) *why = error("Nothing at path", reason + ".");
  return id;
}

Diagnostics Document::get(std::string_view path, std::string& out) const {
  Diagnostics why;
  NodeId id = find(path, &why);
  if (id == kNoNode) return why;
  const Tree& t = *tree_;
  switch (t[id].kind) {
    case NodeKind::Block: {
      ast::Span s = static_cast<const ast::Block*>(t[id].syntax)->span;
      out = std::string(t.text().substr(s.begin, s.end - s.begin));
      return {};
    }
    case NodeKind::Body: out = std::string(t.text()); return {};
    default: {
      NodeId val = t.value(id);
      if (val == kNoNode) return error("No value", "What the path names has no expression to show.");
      out = std::string(t.bytes(val));
      return {};
    }
  }
}

namespace {

// Returns [expr] without the blanks and newlines it ends with: the line
// it goes into has its own end (a heredoc's closing marker needs one).
std::string_view trimmed(std::string_view expr) {
  while (!expr.empty() && (expr.back() == '\n' || expr.back() == '\r' || expr.back() == ' ' || expr.back() == '\t'))
    expr.remove_suffix(1);
  return expr;
}

// Returns the diagnostics of [expr] (trimmed) when it is not one whole
// expression, as it is or (a heredoc) with the newline it lost.
Diagnostics check_expression(std::string_view expr) {
  ExprParse p = parse_expression(make_source("<value>", std::string(expr)));
  if (!p.has_errors() || !parse_expression(make_source("<value>", std::string(expr) + "\n")).has_errors()) return {};
  return p.diagnostics;
}

}  // namespace

// The work of set() and add(): [make] gives the value's text for an
// indentation; [add] refuses to replace.
static Diagnostics set_or_add(const Tree& t, const syntax::Tokens& toks, std::string_view path,
                              const MakeText& make, bool add,
                              const std::function<Diagnostics(uint32_t, uint32_t, std::string_view)>& splice) {
  std::vector<Step> steps;
  std::string bad = parse_path(path, steps), why;
  if (!bad.empty()) return error("Invalid path", "In \"" + std::string(path) + "\": " + bad + ".");
  if (steps.empty()) return error("Invalid path", "The path names the whole file, which has no value to set.");
  View v(t, toks);
  NodeId id = v.resolve(steps, steps.size(), why);
  if (id != kNoNode) {
    NodeKind k = t[id].kind;
    NodeId val = k == NodeKind::Body || k == NodeKind::Block ? kNoNode : t.value(id);
    if (add) {
      if (val != kNoNode && t[val].kind == NodeKind::Tuple) {
        Splice s = into_brackets(v, val, NodeKind::Element, make);
        return splice(s.begin, s.end, s.with);
      }
      return error("Already there", path_text(steps, steps.size()) + " exists; set replaces it.");
    }
    if (val == kNoNode)
      return error("Not a value", path_text(steps, steps.size()) + " is a " + std::string(node_kind_name(k)) +
                                      "; set changes attributes, object items and tuple elements.");
    uint32_t b = v.begin(val), e = v.end(val);
    return splice(b, e, make(v.indent_at(b)));
  }
  // Not there: add it to what the path before it names.
  std::string pwhy;
  NodeId parent = v.resolve(steps, steps.size() - 1, pwhy);
  if (parent == kNoNode) return error("Nothing at path", pwhy + ".");
  const Step& last = steps.back();
  NodeKind pk = t[parent].kind;
  if (pk == NodeKind::Body || pk == NodeKind::Block) {
    NodeId body = pk == NodeKind::Body ? parent : t.block_body(parent);
    if (body == kNoNode || last.number || !is_identifier(last.name))
      return error("Nothing at path", why + ".");
    std::vector<NodeId> attrs = v.kids(body, NodeKind::Attribute);
    NodeId anchor = attrs.empty() ? kNoNode : attrs.back();
    std::string name = last.name;
    Splice s = into_body(v, body, true, [&](std::string_view indent) {
      return std::string(indent) + name + equals_gap(v, anchor, indent, name) + "= " + make(indent) + "\n";
    });
    return splice(s.begin, s.end, s.with);
  }
  NodeId val = t.value(parent);
  if (val != kNoNode && t[val].kind == NodeKind::Object && !last.number) {
    std::vector<NodeId> items = v.kids(val, NodeKind::ObjectItem);
    std::string op = " = ";
    if (!items.empty()) {
      NodeId k = t.key(items.back()), vv = t.value(items.back());
      if (k != kNoNode && vv != kNoNode) {
        for (uint32_t i = t[k].end_token; i < t[vv].first_token; ++i)
          if (v.tok(i).type == Tok::Colon) op = " : ";
      }
    }
    std::string key = is_identifier(last.name) ? last.name : quote_label(last.name);
    NodeId anchor = items.empty() ? kNoNode : items.back();
    Splice s = into_brackets(v, val, NodeKind::ObjectItem, [&](std::string_view indent) {
      std::string gap = op == " = " && !indent.empty() ? equals_gap(v, anchor, indent, key) : " ";
      return key + gap + op.substr(1) + make(indent);
    });
    return splice(s.begin, s.end, s.with);
  }
  if (val != kNoNode && t[val].kind == NodeKind::Tuple && last.number &&
      last.n == v.kids(val, NodeKind::Element).size()) {
    Splice s = into_brackets(v, val, NodeKind::Element, make);
    return splice(s.begin, s.end, s.with);
  }
  return error("Nothing at path", why + ".");
}

Diagnostics Document::set(std::string_view path, std::string_view expr) {
  expr = trimmed(expr);
  if (Diagnostics d = check_expression(expr); !d.empty()) return d;
  return set_or_add(*tree_, tree_->impl_->toks, path,
                    [&](std::string_view indent) { return reindent(expr, indent); }, false,
                    [this](uint32_t b, uint32_t e, std::string_view w) { return splice(b, e, w); });
}

Diagnostics Document::set(std::string_view path, const Value& value) {
  if (!value.is_wholly_known() || value.contains_marked())
    return error("Value not writable", "An unknown or marked value has no HCL literal.");
  return set_or_add(*tree_, tree_->impl_->toks, path,
                    [&](std::string_view indent) { return render_hcl(value, int(indent.size())); }, false,
                    [this](uint32_t b, uint32_t e, std::string_view w) { return splice(b, e, w); });
}

Diagnostics Document::add(std::string_view path, std::string_view expr) {
  expr = trimmed(expr);
  if (Diagnostics d = check_expression(expr); !d.empty()) return d;
  return set_or_add(*tree_, tree_->impl_->toks, path,
                    [&](std::string_view indent) { return reindent(expr, indent); }, true,
                    [this](uint32_t b, uint32_t e, std::string_view w) { return splice(b, e, w); });
}

Diagnostics Document::add(std::string_view path, const Value& value) {
  if (!value.is_wholly_known() || value.contains_marked())
    return error("Value not writable", "An unknown or marked value has no HCL literal.");
  return set_or_add(*tree_, tree_->impl_->toks, path,
                    [&](std::string_view indent) { return render_hcl(value, int(indent.size())); }, true,
                    [this](uint32_t b, uint32_t e, std::string_view w) { return splice(b, e, w); });
}

Diagnostics Document::add_block(std::string_view path) {
  std::vector<Step> steps;
  std::string bad = parse_path(path, steps);
  if (!bad.empty()) return error("Invalid path", "In \"" + std::string(path) + "\": " + bad + ".");
  View v(*tree_, tree_->impl_->toks);
  const Tree& t = *tree_;
  // The longest prefix that names a body; the rest is the new block's type
  // and labels.
  for (size_t k = steps.size(); k-- > 0;) {
    std::string why;
    NodeId at = v.resolve(steps, k, why);
    if (at == kNoNode) continue;
    NodeId body = t[at].kind == NodeKind::Body ? at : t[at].kind == NodeKind::Block ? t.block_body(at) : kNoNode;
    if (body == kNoNode) continue;
    bool names = is_identifier(steps[k].name);
    for (size_t i = k; i < steps.size(); ++i) names &= !steps[i].number;
    if (!names)
      return error("Invalid block", "A block's type is an identifier and its labels are names: " +
                                        path_text(steps, steps.size()) + ".");
    std::string header = steps[k].name;
    for (size_t i = k + 1; i < steps.size(); ++i) header += " " + quote_label(steps[i].name);
    Splice s = into_body(v, body, false, [&](std::string_view indent) {
      return std::string(indent) + header + " {\n" + std::string(indent) + "}\n";
    });
    return splice(s.begin, s.end, s.with);
  }
  return error("Invalid block", "The path names no block type.");
}

Diagnostics Document::remove(std::string_view path) {
  Diagnostics why;
  NodeId id = find(path, &why);
  if (id == kNoNode) return why;
  const Tree& t = *tree_;
  View v(t, tree_->impl_->toks);
  NodeKind k = t[id].kind;
  if (k == NodeKind::Body) return error("Not removable", "The path names the whole file.");
  uint32_t b = v.begin(id), e = v.end(id);
  std::string_view text = v.text();
  if (v.starts_line(b) && v.ends_line(id)) {
    // The whole lines go. Of the blank lines that would then meet, or
    // stand between an opener or a closer and the items, one goes too.
    b = v.line_start(b);
    auto blank_line = [&](size_t at) {
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r')) ++at;
      return at < text.size() && text[at] == '\n' ? at + 1 : size_t(0);
    };
    size_t p = b;
    while (p > 0 && std::isspace(static_cast<unsigned char>(text[p - 1]))) --p;
    bool first = p == 0 || text[p - 1] == '{' || text[p - 1] == '[' || text[p - 1] == '(';
    bool blank_before = b > 0 && blank_line(v.line_start(b - 1)) != 0;
    size_t q = e;
    while (q < text.size() && std::isspace(static_cast<unsigned char>(text[q]))) ++q;
    bool last = q == text.size() || text[q] == '}' || text[q] == ']' || text[q] == ')';
    if (size_t after = blank_line(e); after != 0 && (blank_before || first))
      e = uint32_t(after);
    else if (blank_before && last)
      b = v.line_start(b - 1);
    return splice(b, e, "");
  }
  // Inside a line: the item and the blanks after it; or, for the last item
  // without a comma of its own, the comma before it and the item.
  if (k == NodeKind::ObjectItem || k == NodeKind::Element || k == NodeKind::Argument) {
    std::vector<NodeId> sibs = v.kids(t[id].parent, k);
    bool own_comma = v.tok(t[id].end_token - 1).type == Tok::Comma;
    uint32_t prev_last = sibs.size() > 1 ? t[sibs[sibs.size() - 2]].end_token - 1 : 0;
    if (!own_comma && sibs.size() > 1 && sibs.back() == id && v.tok(prev_last).type == Tok::Comma)
      return splice(v.tok(prev_last).span.begin, e, "");
  }
  while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
  return splice(b, e, "");
}

Diagnostics Document::rename(std::string_view path, const std::vector<std::string>& labels) {
  Diagnostics why;
  NodeId id = find(path, &why);
  if (id == kNoNode) return why;
  const Tree& t = *tree_;
  if (t[id].kind != NodeKind::Block) return error("Not a block", "rename changes the labels of a block.");
  std::vector<NodeId> have = t.labels(id);
  if (labels.empty() || labels.size() > have.size())
    return error("Wrong number of labels", "The block has " + std::to_string(have.size()) + " labels; rename replaces " +
                                               "one or more of the last ones.");
  View v(t, tree_->impl_->toks);
  std::string with;
  for (const std::string& l : labels) with += (with.empty() ? "" : " ") + quote_label(l);
  return splice(v.begin(have[have.size() - labels.size()]), v.end(have.back()), with);
}

}  // namespace hclvm::format

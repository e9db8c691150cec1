// expression_values (expr_values.h): the reference's listing of variable
// values under a diagnostic — which variables (every traversal of the
// expression outside its own for scopes), how a traversal is written
// (`a.b[0]`, `a["k"]`, `a[...]` for keys that are not primitive), how a
// value is described (strings quoted as Go does, numbers with ten
// significant digits, collections by their length, objects by their
// attributes), and what is left out: traversals that fail, unknown values
// and marked values (newest reference); each traversal once.
#include "vm/expr_values.h"

#include <hclvm/analysis.h>
#include <hclvm/syntax.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "util/unicode.h"
#include "value/number.h"
#include "vm/access.h"

namespace hclvm::vm {

namespace {

// [t] written as the reference's diagnostic renderer writes traversals.
std::string traversal_text(const Traversal& t) {
  std::string s;
  for (const TraversalStep& st : t.steps) {
    switch (st.kind) {
      case TraversalStep::Kind::Root: s += st.name; break;
      case TraversalStep::Kind::Attr: s += "." + st.name; break;
      case TraversalStep::Kind::Index:
        s += "[" + (st.key.type()->is_primitive() ? describe(st.key) : std::string("...")) + "]";
        break;
    }
  }
  return s;
}

}  // namespace

std::string describe(const Value& v) {
  if (v.is_null()) return "null";
  if (!v.is_known()) return "(not yet known)";
  const Type* t = v.type();
  switch (t->kind()) {
    case TypeKind::Bool: return v.as_bool() ? "true" : "false";
    case TypeKind::Number: return num::big_float_text(v.as_number(), 'g', 10);
    case TypeKind::String: return uni::go_quote(v.as_string());
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
    case TypeKind::Tuple: {
      size_t n = v.length();
      if (n == 0) return "empty " + t->friendly_name();
      if (n == 1) return t->friendly_name() + " with 1 element";
      return t->friendly_name() + " with " + std::to_string(n) + " elements";
    }
    case TypeKind::Object:
      if (t->size() == 0) return "object with no attributes";
      if (t->size() == 1) return "object with 1 attribute " + uni::go_quote(t->attr_name(0));
      return "object with " + std::to_string(t->size()) + " attributes";
    default: return t->friendly_name();
  }
}

namespace {

// Adds the statement about [t] to [out] unless one about the same
// traversal is there; [root] is what the traversal's root name holds.
void describe_traversal(const Traversal& t, const Value* root, std::set<std::string>& seen,
                        std::vector<std::string>& out) {
  if (root == nullptr) return;
  Value v = *root;
  AccessError err;
  for (size_t i = 1; i < t.steps.size() && !err; ++i) {
    const TraversalStep& st = t.steps[i];
    v = st.kind == TraversalStep::Kind::Attr ? hcl_get_attr(v, st.name, err)
                                             : hcl_index(v, st.key, err);
  }
  if (err) return;
  std::string name = traversal_text(t);
  if (seen.count(name) || !v.is_known()) return;
  if (v.is_null()) {
    out.push_back(name + " set to null");
  } else if (v.is_marked()) {
    return;  // how to show it is not clear (the reference skips it)
  } else {
    out.push_back(name + " as " + describe(v));
  }
  seen.insert(name);
}

}  // namespace

std::vector<std::string> expression_values(const Program& prog, uint32_t pc, ast::Span span,
                                           const EvalContext& ctx,
                                           std::span<const Value* const> local_refs) {
  std::vector<std::string> out;
  if (!prog.source || span.end > prog.source->text().size() || span.begin > span.end) return out;
  std::string text(prog.source->text().substr(span.begin, span.end - span.begin));
  std::shared_ptr<const ExprParse> p = parse_snippet(text);
  // A span that ends with a heredoc ends at its closing marker, which
  // parses only with the line break after it.
  if (!p) p = parse_snippet(text + "\n");
  if (!p) return out;
  std::span<const SiteLocal> scope = prog.site_scope(pc);
  std::set<std::string> seen;
  for (const ast::ScopeTraversalExpr* node : variable_nodes(*p->expr)) {
    Traversal t = make_traversal_names(node->steps);
    if (t.steps.empty() || t.steps[0].kind != TraversalStep::Kind::Root) continue;
    const Value* root = nullptr;
    for (const SiteLocal& l : scope) {
      if (prog.names[l.name] == t.steps[0].name && l.slot < local_refs.size()) {
        root = local_refs[l.slot];
        break;
      }
    }
    if (root == nullptr) root = ctx.lookup(t.steps[0].name);
    describe_traversal(t, root, seen, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::shared_ptr<const ExprParse> parse_snippet(const std::string& text) {
  constexpr size_t kKeep = 256;      // when full, the cache starts over
  constexpr size_t kLongest = 4096;  // longer snippets are parsed, not kept
  thread_local std::unordered_map<std::string, std::shared_ptr<const ExprParse>> cache;
  if (auto it = cache.find(text); it != cache.end()) return it->second;
  auto p = std::make_shared<ExprParse>(parse_expression(make_source("<expr>", text)));
  std::shared_ptr<const ExprParse> out;
  if (!p->has_errors() && p->expr != nullptr) out = std::move(p);
  if (text.size() > kLongest) return out;
  if (cache.size() >= kKeep) cache.clear();
  cache.emplace(text, out);
  return out;
}

std::vector<std::string> expression_values(std::span<const Traversal> vars,
                                           const EvalContext& ctx) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const Traversal& t : vars) {
    if (t.steps.empty() || t.steps[0].kind != TraversalStep::Kind::Root) continue;
    describe_traversal(t, ctx.lookup(t.steps[0].name), seen, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace hclvm::vm

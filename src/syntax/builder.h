// Builds syntax trees. The Bison grammar's actions and the recovering parser
// (recover.cpp) both construct nodes only through this class, so the two
// produce identical trees, and every reference rule about how nodes combine
// (traversal steps folding into one traversal, literal index keys, template
// assembly) lives here once.
//
// Nothing here reports an error for the fast path to act on directly: a
// construct that the reference rejects (a repeated attribute name, a bad
// escape, unbalanced template directives) sets failed(), and the caller then
// re-parses with the recovering parser, which reports the diagnostics in the
// reference's order.
#pragma once

#include <hclvm/arena.h>
#include <hclvm/ast.h>
#include <hclvm/syntax.h>

#include "syntax/token.h"

#include <span>
#include <string_view>
#include <vector>

namespace hclvm::syntax {

using namespace hclvm::ast;

// One element of a template before assembly: what the reference calls a
// template token. Literals are still raw (escapes and strip markers are
// applied during assembly).
struct TplPart {
  enum Kind : uint8_t { Lit, Interp, If, Else, EndIf, For, EndFor, Broken };
  Kind kind;
  bool quoted = false;      // Lit: a QuotedLit token (escapes allowed)
  bool open_strip = false;  // sequence opened with `${~` / `%{~`
  // Sequence closed with `~}` right where the reference expects the closer
  // (not when it had to skip ahead to it after an error).
  bool close_strip = false;
  // Broken: a `%{` sequence that failed to parse (bad keyword or `for`
  // header). It adds no part, but its open_strip still trims the literal
  // before it, and the literal after it is not trimmed, as in the reference.
  Span span;                // Lit: the token; others: `${`/`%{` through the next token after the content
  Expr* expr = nullptr;     // Interp: the expression; If: condition; For: collection
  Span key_var, val_var;    // For: the names' tokens (key_var empty when there is none)
};

// The result of assembling template parts, before the caller wraps it.
struct TplResult {
  List<Expr*> exprs;
  bool passthru = false;  // a lone interpolation: the caller builds a TemplateWrapExpr
  Span span;
};

// Reports whether the reference can read number literal [s]: its binary
// exponent must fit in 32 bits (big.Float's limit), or it is "Invalid
// number literal".
bool number_readable(std::string_view s);

class Builder {
 public:
  Builder(Arena& arena, const Source& src) : a_(arena), src_(src), text_(src.text()) {}

  Arena& arena() { return a_; }
  const Source& source() const { return src_; }
  std::string_view text(Span s) const { return text_.substr(s.begin, s.end - s.begin); }

  // Set when a construct was built that the reference reports as an error.
  bool failed() const { return failed_; }
  void fail() { failed_ = true; }
  // Whether an attribute was built whose expression is long enough that it
  // might nest past the limit (syntax/nesting.h: short ones cannot).
  bool long_attribute() const { return long_attribute_; }

  // Diagnostics that the builder itself found (bad escapes, unbalanced
  // template directives, legacy `a.0.1` indexes); only the recovering parser
  // reads them.
  Diagnostics& diags() { return diags_; }
  void error(std::string summary, std::string detail, Span subject);
  void error(std::string summary, std::string detail, Span subject, Span context);

  // Lists.
  template <class T> List<T> list(const std::vector<T>& v);

  // Expressions. Spans are byte ranges of the tokens named.
  Expr* number(Span tok);
  Expr* boolean(Span tok, bool b);
  Expr* null(Span tok);
  Expr* dynamic(Span span);               // the placeholder for an expression that failed to parse
  Expr* literal(Span span, Literal v);
  Expr* variable(Span name_tok);          // `true`/`false`/`null` become literals
  Expr* attr(Expr* from, Span dot, Span name_tok);
  Expr* legacy_index(Expr* from, Span dot, Span number_tok);  // `a.0`; `a.0.1` fails
  Expr* index(Expr* from, Span open, Expr* key, Span close);
  AnonSymbolExpr* anon(Span span);
  Traverser attr_step(Span dot, Span name_tok);
  // A legacy `.0` step inside an attribute-only splat; a chained `.0.1`
  // fails with the reference's message, whose subject is the splat's [star].
  Traverser index_step(Span dot, Span number_tok, Span star);
  // `.*` followed by [steps]: `from` is the splat source; [last] ends the splat.
  Expr* attr_splat(Expr* from, Span dot, Span star, const std::vector<Traverser>& steps, Span first, Span last);
  // `[*]` followed by traversals built on [item] into [each].
  Expr* full_splat(Expr* from, AnonSymbolExpr* item, Expr* each, Span open, Span close);
  // The Bison grammar builds postfix chains left to right: these open a
  // splat, and later attr()/index()/legacy_index() calls on a splat whose
  // step chain is still open descend into its `each` (full splats take every
  // following step; attribute-only splats take `.name` and `.0` steps), which
  // gives the same tree the reference builds recursively.
  Expr* splat_attr_open(Expr* from, Span dot, Span star);
  Expr* splat_full_open(Expr* from, Span open, Span close);
  // Brings the spans inside the last chain of open full splats up to date
  // (the steps above keep only its root's span current); the tree must not
  // be read before.
  void settle();
  Expr* call(Span name, std::string_view full_name, List<Expr*> args, bool expand_final, Span open, Span close);
  Expr* conditional(Expr* c, Expr* t, Expr* f, Span start);
  Expr* binary(BinaryOp op, Expr* lhs, Expr* rhs);
  Expr* unary(UnaryOp op, Span symbol, Expr* operand);
  Expr* parens(Span open, Expr* inner, Span close);
  Expr* tuple(Span open, List<Expr*> items, Span close);
  Expr* object_key(Expr* key, bool force_non_literal);
  Expr* object(Span open, List<ObjectItem> items, Span close);
  Expr* for_expr(Span open, std::string_view key_var, std::string_view val_var, Expr* coll, Expr* key,
                 Expr* value, bool group, Expr* cond, Span close);

  // Templates: assembles [parts] as the reference does (escapes, strip
  // markers, `<<-` indentation when [flush], directive nesting). [start] is
  // the first token after the opener, [end] the closing token.
  TplResult assemble_template(std::span<const TplPart> parts, Span start, Span end, bool flush);
  // A quoted or heredoc template expression from [open] to [close].
  Expr* template_expr(Span open, const TplResult& t, Span close);
  // A standalone template (ParseTemplate).
  Expr* template_root(const TplResult& t);

  // Structure.
  Attribute* attribute(Span name, Span equals, Expr* value, Span end);
  Block* block(Span type, List<std::string_view> labels, List<Span> label_spans, Span open, Body* body, Span close);
  // A body from [begin] to [end] (the reference's start and end tokens).
  // Repeated attribute names fail (first wins, as in the reference) but
  // are not reported here: the recovering parser reports them in order.
  Body* body(Span begin, List<Attribute*> attrs, List<Block*> blocks, Span end);
  // The body of a one-line block `b { a = 1 }`.
  Body* single_attr_body(Attribute* attr);

  // Decodes a quoted-string label token sequence body: [lit] spans are
  // QuotedLit tokens.
  std::string_view label_text(const std::vector<Span>& lits);

  // Decodes one literal token; escapes only when [quoted]. Bad escapes are
  // recorded as diagnostics and fail().
  std::string_view decode_literal(Span tok, bool quoted);

 private:
  // Fails when the reference cannot read number literal [num].
  void check_number(std::string_view num);
  // Postfix steps on open splats (builder.cpp).
  template <class F>
  Expr* apply_step(Expr* from, F&& make);
  Expr* apply_attr_step(Expr* from, const Traverser& step);

  Arena& a_;
  const Source& src_;
  std::string_view text_;
  bool failed_ = false;
  bool long_attribute_ = false;
  Diagnostics diags_;
  // The open full splats under chain_root_, outermost first (apply_step).
  Expr* chain_root_ = nullptr;
  std::vector<SplatExpr*> chain_;
};

template <class T>
List<T> Builder::list(const std::vector<T>& v) {
  List<T> out;
  if (v.empty()) return out;
  out.data = a_.array<T>(v.size());
  out.size = static_cast<uint32_t>(v.size());
  for (size_t i = 0; i < v.size(); ++i) out.data[i] = v[i];
  return out;
}

}  // namespace hclvm::syntax

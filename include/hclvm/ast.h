// The syntax tree of the native syntax, as the parser builds it. The shape
// follows the reference's hclsyntax nodes one for one (so partial trees after
// errors, and the ranges on every node, are the reference's), but nodes are
// plain structs in an Arena: spans are byte offsets into the source, names
// and decoded strings are views into the source or the arena.
//
// Strip markers and `<<-` indentation are already applied to template
// literals; `%{if}` is a ConditionalExpr and `%{for}` a TemplateJoinExpr
// around a ForExpr, as in the reference.
#pragma once

#include <cstdint>
#include <string_view>

namespace hclvm::ast {

// [begin, end) byte offsets into the file.
struct Span {
  uint32_t begin = 0, end = 0;
  friend bool operator==(const Span&, const Span&) = default;
};

// Returns the smallest span covering [a] and [b].
inline Span join(Span a, Span b) {
  return {a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
}

// A read-only array in the arena.
template <class T>
struct List {
  T* data = nullptr;
  uint32_t size = 0;
  uint32_t cap = 0;  // room in data, when the builder knows it (0: exactly size)
  T* begin() const { return data; }
  T* end() const { return data + size; }
  T& operator[](uint32_t i) const { return data[i]; }
  bool empty() const { return size == 0; }
};

// A constant known at parse time. Numbers keep their source text (the value
// layer parses them); strings are decoded (escapes resolved). Dynamic marks
// the placeholder the reference puts where an expression failed to parse;
// UnknownNumber a number literal whose value could not be read.
enum class LitKind : uint8_t { Null, Bool, Number, String, Dynamic, UnknownNumber };

struct Literal {
  LitKind kind = LitKind::Null;
  bool boolean = false;
  std::string_view text;  // Number: source text; String: decoded UTF-8
};

enum class ExprKind : uint8_t {
  Literal,
  Template,
  TemplateWrap,
  TemplateJoin,
  ScopeTraversal,
  RelativeTraversal,
  FunctionCall,
  Conditional,
  Binary,
  Unary,
  Tuple,
  Object,
  ObjectKey,
  For,
  Index,
  Splat,
  AnonSymbol,
  Parens,
};

struct Expr {
  ExprKind kind;
  Span span;
};

struct LiteralExpr : Expr {
  Literal value;
};

struct TemplateExpr : Expr {
  List<Expr*> parts;
};

struct TemplateWrapExpr : Expr {
  Expr* wrapped;
};

// `%{for}` in a template: joins the strings of the tuple the ForExpr builds.
struct TemplateJoinExpr : Expr {
  Expr* tuple;
};

enum class StepKind : uint8_t { Root, Attr, Index };

// One step of a traversal: the root name, an attribute name, or an index
// with a constant key. 32 bytes: the name and the key's text share [text].
struct Traverser {
  StepKind kind = StepKind::Root;
  LitKind key_kind = LitKind::Null;  // Index
  bool key_bool = false;             // Index with a Bool key
  Span span;
  std::string_view text;  // Root, Attr: the name; Index: the key's text

  static Traverser root(std::string_view name, Span s) { return {StepKind::Root, LitKind::Null, false, s, name}; }
  static Traverser attr(std::string_view name, Span s) { return {StepKind::Attr, LitKind::Null, false, s, name}; }
  static Traverser index(Literal key, Span s) { return {StepKind::Index, key.kind, key.boolean, s, key.text}; }

  std::string_view name() const { return text; }
  Literal key() const { return Literal{key_kind, key_bool, text}; }
  void set_key(Literal k) {
    key_kind = k.kind;
    key_bool = k.boolean;
    text = k.text;
  }
};

struct ScopeTraversalExpr : Expr {
  List<Traverser> steps;  // steps[0] is the Root
};

struct RelativeTraversalExpr : Expr {
  Expr* source;
  List<Traverser> steps;
};

struct FunctionCallExpr : Expr {
  std::string_view name;  // namespaced names keep their "::"
  List<Expr*> args;
  bool expand_final;
  Span name_span, open_paren_span, close_paren_span;
};

struct ConditionalExpr : Expr {
  Expr* condition;
  Expr* true_result;
  Expr* false_result;
};

// ORDER BinaryOp: grouped by precedence level, loosest first.
enum class BinaryOp : uint8_t { Or, And, Equal, NotEqual, Greater, GreaterOrEqual, Less, LessOrEqual,
                                Add, Subtract, Multiply, Divide, Modulo };
// The source symbol of [op] ("||", "==", "+", ...).
const char* binary_op_symbol(BinaryOp op);

struct BinaryExpr : Expr {
  BinaryOp op;
  Expr* lhs;
  Expr* rhs;
};

enum class UnaryOp : uint8_t { Negate, Not };

struct UnaryExpr : Expr {
  UnaryOp op;
  Expr* operand;
  Span symbol_span;
};

struct TupleExpr : Expr {
  List<Expr*> items;
  Span open_span;
};

struct ObjectItem {
  Expr* key;  // an ObjectKeyExpr
  Expr* value;
};

struct ObjectExpr : Expr {
  List<ObjectItem> items;
  Span open_span;
};

// An object key: a lone identifier means its own name, unless the key was
// parenthesized (force_non_literal).
struct ObjectKeyExpr : Expr {
  Expr* wrapped;
  bool force_non_literal;
};

struct ForExpr : Expr {
  std::string_view key_var;  // empty when absent
  std::string_view val_var;
  Expr* collection;
  Expr* key;  // object for only
  Expr* value;
  Expr* condition;  // may be null
  bool group;
  Span open_span, close_span;
};

struct IndexExpr : Expr {
  Expr* collection;
  Expr* key;
  Span open_span, bracket_span;
};

struct AnonSymbolExpr : Expr {};

struct SplatExpr : Expr {
  Expr* source;
  Expr* each;
  AnonSymbolExpr* item;
  Span marker_span;
};

struct ParensExpr : Expr {
  Expr* inner;
};

struct Body;

struct Attribute {
  std::string_view name;
  Expr* expr;
  Span span, name_span, equals_span;
};

struct Block {
  std::string_view type;
  List<std::string_view> labels;
  List<Span> label_spans;
  Body* body;
  Span span;
  Span type_span, open_brace_span, close_brace_span;
};

struct Body {
  List<Attribute*> attributes;  // source order, names unique
  List<Block*> blocks;          // source order
  Span span, end_span;
};

// Downcasts [e] to the node type for its kind (unchecked).
template <class T>
const T& as(const Expr& e) { return static_cast<const T&>(e); }

// Calls [fn] with each direct subexpression of [e].
template <class Fn>
void for_each_child(const Expr& e, Fn&& fn) {
  auto each = [&](const Expr* c) {
    if (c) fn(*c);
  };
  switch (e.kind) {
    case ExprKind::Literal:
    case ExprKind::ScopeTraversal:
    case ExprKind::AnonSymbol: break;
    case ExprKind::Template:
      for (const Expr* p : as<TemplateExpr>(e).parts) each(p);
      break;
    case ExprKind::TemplateWrap: each(as<TemplateWrapExpr>(e).wrapped); break;
    case ExprKind::TemplateJoin: each(as<TemplateJoinExpr>(e).tuple); break;
    case ExprKind::RelativeTraversal: each(as<RelativeTraversalExpr>(e).source); break;
    case ExprKind::FunctionCall:
      for (const Expr* a : as<FunctionCallExpr>(e).args) each(a);
      break;
    case ExprKind::Conditional: {
      const auto& c = as<ConditionalExpr>(e);
      each(c.condition), each(c.true_result), each(c.false_result);
      break;
    }
    case ExprKind::Binary: each(as<BinaryExpr>(e).lhs), each(as<BinaryExpr>(e).rhs); break;
    case ExprKind::Unary: each(as<UnaryExpr>(e).operand); break;
    case ExprKind::Tuple:
      for (const Expr* i : as<TupleExpr>(e).items) each(i);
      break;
    case ExprKind::Object:
      for (const ObjectItem& i : as<ObjectExpr>(e).items) each(i.key), each(i.value);
      break;
    case ExprKind::ObjectKey: each(as<ObjectKeyExpr>(e).wrapped); break;
    case ExprKind::For: {
      const auto& x = as<ForExpr>(e);
      each(x.collection), each(x.key), each(x.value), each(x.condition);
      break;
    }
    case ExprKind::Index: each(as<IndexExpr>(e).collection), each(as<IndexExpr>(e).key); break;
    case ExprKind::Splat: each(as<SplatExpr>(e).source), each(as<SplatExpr>(e).each); break;
    case ExprKind::Parens: each(as<ParensExpr>(e).inner); break;
  }
}

}  // namespace hclvm::ast

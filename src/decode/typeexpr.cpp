// Type expressions and defaults (see typeexpr.h), following the reference's
// ext/typeexpr (get_type.go, public.go, defaults.go, type_type.go).
//
// The reference reads the syntax tree through hcl's static helpers, and
// their rules decide which expressions count: ExprAsKeyword (a traversal
// of one name, or the literals null, true and false, which traversal
// syntax would read as names), ExprCall, ExprMap and ExprList (a function
// call, an object or a tuple constructor, looking through object-key
// wrappers but not through parentheses).
#include <hclvm/typeexpr.h>

#include <hclvm/body.h>
#include <hclvm/eval.h>

#include "syntax/token.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "value/refine.h"

#include <algorithm>
#include <optional>

namespace hclvm {

namespace {

using namespace hclvm::ast;

constexpr const char* kInvalidType = "Invalid type specification";

// Reading, applying defaults and writing types recurse once per level of
// nesting, as the reference does on Go's growable stacks, where nesting has
// no limit. Here they run within a stack budget (util/stack.h): input that
// nests deeper than the caller's stack affords is read again on a big
// stack, and only nesting beyond even that is reported.

// The source range of [e] (an object key's is its wrapped expression's).
Span span_of(const Expr& e) {
  if (e.kind == ExprKind::ObjectKey) return span_of(*as<ObjectKeyExpr>(e).wrapped);
  return e.span;
}

// hcl.ExprAsKeyword: the name [e] would be as a traversal of one step, or "".
std::string_view keyword(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Literal: {
      const Literal& l = as<LiteralExpr>(e).value;
      if (l.kind == LitKind::Null) return "null";
      if (l.kind == LitKind::Bool) return l.boolean ? "true" : "false";
      return "";
    }
    case ExprKind::ScopeTraversal: {
      const auto& t = as<ScopeTraversalExpr>(e);
      return t.steps.size == 1 ? t.steps[0].name() : std::string_view();
    }
    case ExprKind::ObjectKey: {
      const auto& k = as<ObjectKeyExpr>(e);
      return k.force_non_literal ? std::string_view() : keyword(*k.wrapped);
    }
    default: return "";
  }
}

// Looks through object-key wrappers, as hcl.UnwrapExpressionUntil does.
const Expr& unwrap(const Expr& e) {
  if (e.kind == ExprKind::ObjectKey) return unwrap(*as<ObjectKeyExpr>(e).wrapped);
  return e;
}

// A function call read statically (hcl.StaticCall).
struct StaticCall {
  std::string_view name;
  Span name_span;
  const List<Expr*>* args;
  Span args_span;
};

// hcl.ExprCall.
std::optional<StaticCall> expr_call(const Expr& e) {
  const Expr& u = unwrap(e);
  if (u.kind != ExprKind::FunctionCall) return std::nullopt;
  const auto& c = as<FunctionCallExpr>(u);
  return StaticCall{c.name, c.name_span, &c.args, join(c.open_paren_span, c.close_paren_span)};
}

// hcl.ExprMap.
const ObjectExpr* expr_map(const Expr& e) {
  const Expr& u = unwrap(e);
  return u.kind == ExprKind::Object ? &as<ObjectExpr>(u) : nullptr;
}

// hcl.ExprList.
const TupleExpr* expr_list(const Expr& e) {
  const Expr& u = unwrap(e);
  return u.kind == ExprKind::Tuple ? &as<TupleExpr>(u) : nullptr;
}

// Appends the error [summary] / [detail] about [subject] of [src] (within
// [context], if any) to [diags].
void add_error(Diagnostics& diags, const Source& src, std::string summary, std::string detail,
               Span subject, std::optional<Span> context) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = src.range(subject);
  if (context) d.context = src.range(*context);
  diags.push_back(std::move(d));
}

// --- default values -----------------------------------------------------------

// Evaluates the default value [e] of [src] as the reference does: the
// expression's value with no evaluation context (so no variables and no
// function calls), compiled and run like any other expression.
Value eval_default(const Expr& e, const Source& src, Diagnostics& diags) {
  // A program keeps its source alive for diagnostics; the copy has the same
  // bytes and start, so its ranges are the original's.
  CompileResult c =
      compile_expression(e, make_source(src.name(), std::string(src.text()), src.start()));
  diags.insert(diags.end(), c.diagnostics.begin(), c.diagnostics.end());
  if (has_errors(c.diagnostics)) return Value::dynamic();
  Vm vm;
  EvalResult r = vm.run(*c.program, nullptr);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  return r.value;
}

// --- getType ----------------------------------------------------------------

using DefaultsPtr = std::shared_ptr<TypeDefaults>;

// The reference's getType, for one parse.
class Reader {
 public:
  Reader(const Source& src, TypeExprMode mode, const util::StackBudget& budget)
      : src_(src),
        constraint_(mode != TypeExprMode::Exact),
        with_defaults_(mode == TypeExprMode::ConstraintWithDefaults),
        budget_(budget) {}

  Diagnostics diags;

  // Returns the type [expr] describes and sets [defaults] (getType).
  const Type* get(const Expr& expr, DefaultsPtr& defaults) {
    defaults = nullptr;
    if (budget_.exhausted()) {
      diag("Nesting too deep", "Type constructors are nested too deeply here to be read.",
           span_of(expr), std::nullopt);
      return Type::dynamic();
    }
    return get_nested(expr, defaults);
  }

 private:
  // get() one level down.
  const Type* get_nested(const Expr& expr, DefaultsPtr& defaults) {
    std::string_view kw = keyword(expr);
    if (kw == "bool") return Type::boolean();
    if (kw == "string") return Type::string();
    if (kw == "number") return Type::number();
    if (kw == "any") {
      if (!constraint_)
        invalid("The keyword " + uni::go_quote(kw) +
                    " cannot be used in this type specification: an exact type is required.",
                span_of(expr));
      return Type::dynamic();
    }
    if (kw == "list" || kw == "map" || kw == "set")
      return invalid(collection_arity(kw), span_of(expr));
    if (kw == "object") return invalid(object_arity(), span_of(expr));
    if (kw == "tuple") return invalid(tuple_arity(), span_of(expr));
    if (!kw.empty())
      return invalid("The keyword " + uni::go_quote(kw) + " is not a valid type specification.",
                     span_of(expr));

    std::optional<StaticCall> call = expr_call(expr);
    if (!call)
      return invalid(
          "A type specification is either a primitive type keyword (bool, number, string) or a "
          "complex type constructor call, like list(string).",
          span_of(expr));
    std::string_view name = call->name;
    if (name == "bool" || name == "string" || name == "number")
      return invalid(
          "Primitive type keyword " + uni::go_quote(name) + " does not expect arguments.",
          call->args_span);
    if (name == "any")
      return invalid(
          "Type constraint keyword " + uni::go_quote(name) + " does not expect arguments.",
          call->args_span);

    const List<Expr*>& args = *call->args;
    if (args.size != 1) {
      Span context = call->args_span;
      Span subject = call->args_span;
      // Too many arguments (rather than too few): the extra ones are the subject.
      if (args.size > 1) subject = join(span_of(*args[1]), span_of(*args[args.size - 1]));
      if (name == "list" || name == "set" || name == "map")
        return invalid(collection_arity(name), subject, context);
      if (name == "object") return invalid(object_arity(), subject, context);
      if (name == "tuple") return invalid(tuple_arity(), subject, context);
    }

    if (name == "list" || name == "set" || name == "map") {
      DefaultsPtr elem_defaults;
      const Type* ety = get(*args[0], elem_defaults);
      const Type* ty = name == "list"  ? Type::list(ety)
                       : name == "set" ? Type::set(ety)
                                       : Type::map(ety);
      if (elem_defaults) {
        defaults = std::make_shared<TypeDefaults>();
        defaults->type = ty;
        defaults->children[""] = std::move(elem_defaults);
      }
      return ty;
    }
    if (name == "object") return object(expr, *args[0], defaults);
    if (name == "tuple") return tuple(expr, *args[0], defaults);
    if (name == "optional")
      return invalid("Keyword " + uni::go_quote(name) +
                         " is valid only as a modifier for object type attributes.",
                     call->name_span);
    return invalid("Keyword " + uni::go_quote(name) + " is not a valid type constructor.",
                   span_of(expr));
  }

  // The message for a collection constructor [kw] without one argument.
  static std::string collection_arity(std::string_view kw) {
    return "The " + std::string(kw) +
           " type constructor requires one argument specifying the element type.";
  }
  // The message for object() without one argument.
  static std::string object_arity() {
    return "The object type constructor requires one argument specifying the attribute types and "
           "values as a map.";
  }
  // The message for tuple() without one argument.
  static std::string tuple_arity() {
    return "The tuple type constructor requires one argument specifying the element types as a "
           "list.";
  }

  // Reports an error about [subject], within [context].
  void diag(std::string summary, std::string detail, Span subject, std::optional<Span> context) {
    add_error(diags, src_, std::move(summary), std::move(detail), subject, context);
  }

  // Reports an invalid type specification; returns the dynamic pseudo-type.
  const Type* invalid(std::string detail, Span subject,
                      std::optional<Span> context = std::nullopt) {
    diag(kInvalidType, std::move(detail), subject, context);
    return Type::dynamic();
  }

  // object({...}): [arg] is the call's argument, [expr] the call.
  const Type* object(const Expr& expr, const Expr& arg, DefaultsPtr& defaults) {
    const ObjectExpr* obj = expr_map(arg);
    if (!obj)
      return invalid(
          "Object type constructor requires a map whose keys are attribute names and whose "
          "values are the corresponding attribute types.",
          span_of(arg), span_of(expr));

    std::vector<std::pair<std::string, const Type*>> atys;  // source order
    std::map<std::string, Value> default_values;
    std::map<std::string, std::shared_ptr<const TypeDefaults>> children;
    std::vector<std::string> optional;
    for (const ObjectItem& item : obj->items) {
      std::string name(keyword(*item.key));
      if (name.empty()) {
        invalid("Object constructor map keys must be attribute names.", span_of(*item.key),
                span_of(expr));
        continue;
      }
      if (std::any_of(atys.begin(), atys.end(), [&](const auto& a) { return a.first == name; })) {
        invalid("Object constructor map keys must be unique.", span_of(*item.key), span_of(expr));
        continue;
      }
      const Expr* aty_expr = item.value;
      const Expr* default_expr = nullptr;
      if (std::optional<StaticCall> call = expr_call(*aty_expr); call && call->name == "optional") {
        const List<Expr*>& args = *call->args;
        Span context = span_of(*aty_expr);
        if (args.size < 1) {
          invalid("Optional attribute modifier requires the attribute type as its argument.",
                  call->args_span, context);
          continue;
        }
        if (!constraint_) {
          invalid("Optional attribute modifier is only for type constraints, not for exact types.",
                  call->name_span, context);
        } else if (with_defaults_) {
          if (args.size == 2) {
            default_expr = args[1];
            Diagnostics default_diags;
            Value v = eval_default(*default_expr, src_, default_diags);
            bool failed = has_errors(default_diags);
            diags.insert(diags.end(), default_diags.begin(), default_diags.end());
            if (!failed) {
              optional.push_back(name);
              default_values[name] = std::move(v);
            }
          } else if (args.size == 1) {
            optional.push_back(name);
          } else {
            invalid(
                "Optional attribute modifier expects at most two arguments: the attribute "
                "type, and a default value.",
                call->args_span, context);
          }
        } else if (args.size == 1) {
          optional.push_back(name);
        } else {
          invalid("Optional attribute modifier expects only one argument: the attribute type.",
                  call->args_span, context);
        }
        aty_expr = args[0];
      }

      DefaultsPtr attr_defaults;
      const Type* aty = get(*aty_expr, attr_defaults);

      // A default must convert to the attribute's type; it is kept converted.
      if (auto it = default_values.find(name); it != default_values.end()) {
        ConvertResult c = convert(it->second, aty);
        if (!c.ok()) {
          diag("Invalid default value for optional attribute",
               "This default value is not compatible with the attribute's type constraint: " +
                   c.error().message + ".",
               span_of(*default_expr), std::nullopt);
          default_values.erase(it);
        } else {
          it->second = c.take();
        }
      }

      atys.emplace_back(name, aty);
      if (attr_defaults) children[name] = std::move(attr_defaults);
    }

    std::vector<TypeAttr> attrs;
    attrs.reserve(atys.size());
    for (const auto& [name, ty] : atys) {
      bool opt = std::find(optional.begin(), optional.end(), name) != optional.end();
      attrs.push_back(TypeAttr{name, ty, opt});
    }
    const Type* ty = Type::object(attrs);
    if (!default_values.empty() || !children.empty()) {
      defaults = std::make_shared<TypeDefaults>();
      defaults->type = ty;
      defaults->values = std::move(default_values);
      defaults->children = std::move(children);
    }
    return ty;
  }

  // tuple([...]): [arg] is the call's argument, [expr] the call.
  const Type* tuple(const Expr& expr, const Expr& arg, DefaultsPtr& defaults) {
    const TupleExpr* list = expr_list(arg);
    if (!list)
      return invalid("Tuple type constructor requires a list of element types.", span_of(arg),
                     span_of(expr));
    std::vector<const Type*> etys;
    std::map<std::string, std::shared_ptr<const TypeDefaults>> children;
    for (uint32_t i = 0; i < list->items.size; ++i) {
      DefaultsPtr elem_defaults;
      etys.push_back(get(*list->items[i], elem_defaults));
      if (elem_defaults) children[std::to_string(i)] = std::move(elem_defaults);
    }
    const Type* ty = Type::tuple(etys);
    if (!children.empty()) {
      defaults = std::make_shared<TypeDefaults>();
      defaults->type = ty;
      defaults->children = std::move(children);
    }
    return ty;
  }

  const Source& src_;
  bool constraint_;
  bool with_defaults_;
  const util::StackBudget& budget_;
};

// --- applying defaults ------------------------------------------------------

// Converts [values] to the type they unify to (unsafely); empty when they
// do not unify or a conversion fails.
std::vector<Value> unify_values(std::vector<Value> values) {
  std::vector<const Type*> types;
  types.reserve(values.size());
  for (const Value& v : values) types.push_back(v.type());
  Unified u = unify_unsafe(types);
  if (!u.type) return {};
  for (size_t i = 0; i < values.size(); ++i) {
    if (!u.conversions[i]) continue;
    ConvertResult c = (*u.conversions[i])(values[i]);
    if (!c.ok()) return {};
    values[i] = c.take();
  }
  return values;
}

// The element type cty's ListVal, SetVal and MapVal infer for [values]:
// the first that is not the dynamic pseudo-type.
const Type* element_type(const std::vector<Value>& values) {
  for (const Value& v : values)
    if (!v.type()->is_dynamic()) return v.type();
  return Type::dynamic();
}

// The child defaults for element [index] or attribute/key [name] of a
// value being given defaults of type [d.type] (typeexpr's getChild).
const TypeDefaults* child_for_index(const TypeDefaults& d, size_t index) {
  auto it = d.children.find(d.type->is_tuple() ? std::to_string(index) : std::string());
  return it == d.children.end() ? nullptr : it->second.get();
}

const TypeDefaults* child_for_key(const TypeDefaults& d, const std::string& key) {
  auto it = d.children.find(d.type->is_object() ? key : std::string());
  return it == d.children.end() ? nullptr : it->second.get();
}

// TypeDefaults::apply of [d] to [input] within the stack [budget]; nesting
// beyond it is left as it is.
Value apply_defaults(const TypeDefaults& d, const Value& input, const util::StackBudget& budget) {
  const auto& values = d.values;
  const auto& children = d.children;
  // Null and unknown values get no defaults; only their missing or null
  // attributes do.
  if (!input.is_known() || input.is_null()) return input;
  if (values.empty() && children.empty()) return input;
  if (budget.exhausted()) return input;

  auto [v, marks] = input.unmark_with_marks();
  const Type* ty = v.type();
  Value result;
  if (ty->is_set() || ty->is_list() || ty->is_tuple()) {
    std::vector<Value> elems;
    elems.reserve(v.length());
    for (size_t i = 0; i < v.length(); ++i) {
      const TypeDefaults* child = child_for_index(d, i);
      elems.push_back(child ? apply_defaults(*child, v.element(i), budget) : v.element(i));
    }
    if ((ty->is_set() || ty->is_list()) && elems.empty()) {
      result = ty->is_set() ? Value::set(ty->element(), {}) : Value::list(ty->element(), {});
    } else if (std::vector<Value> conv;
               (ty->is_set() || ty->is_list()) && !(conv = unify_values(elems)).empty()) {
      const Type* ety = element_type(conv);
      result = ty->is_set() ? Value::set(ety, std::move(conv)) : Value::list(ety, std::move(conv));
    } else {
      result = Value::tuple(std::move(elems));
    }
  } else if (ty->is_object() || ty->is_map()) {
    std::map<std::string, Value> attrs;  // sorted by key, as the reference unifies them
    for (size_t i = 0; i < v.length(); ++i) {
      std::string key(ty->is_map() ? v.map_key(i) : ty->attr_name(i));
      const Value& el = ty->is_map() ? v.map_value(i) : v.attr(i);
      const TypeDefaults* child = child_for_key(d, key);
      attrs[key] = child ? apply_defaults(*child, el, budget) : el;
    }
    for (const auto& [key, dflt] : values) {
      auto it = attrs.find(key);
      if (it == attrs.end() || it->second.is_null()) {
        auto child = children.find(key);
        attrs[key] = child != children.end() ? apply_defaults(*child->second, dflt, budget) : dflt;
        it = attrs.find(key);
      }
      // With a default that is never null, the attribute cannot be null.
      if (value_range(dflt).definitely_not_null() && !it->second.type()->is_dynamic())
        it->second = refine_not_null(it->second);
    }
    std::vector<Value> conv;
    if (ty->is_map() && attrs.empty()) {
      result = Value::map(ty->element(), {});
    } else {
      if (ty->is_map()) {
        std::vector<Value> vals;
        for (auto& [k, val] : attrs) vals.push_back(val);
        conv = unify_values(std::move(vals));
      }
      if (!conv.empty()) {
        const Type* ety = element_type(conv);
        std::vector<std::pair<std::string, Value>> entries;
        size_t i = 0;
        for (auto& [k, val] : attrs) entries.emplace_back(k, std::move(conv[i++]));
        result = Value::map(ety, std::move(entries));
      } else {
        std::vector<std::pair<std::string, Value>> entries(std::make_move_iterator(attrs.begin()),
                                                           std::make_move_iterator(attrs.end()));
        result = Value::object(std::move(entries));
      }
    }
  } else {
    result = v;
  }
  return result.mark(marks);
}

}  // namespace

Value TypeDefaults::apply(const Value& input) const {
  return util::run_deep(
      [&](const util::StackBudget& budget) { return apply_defaults(*this, input, budget); });
}

TypeExprResult parse_type_expr(const ast::Expr& expr, const Source& src, TypeExprMode mode) {
  return util::run_deep([&](const util::StackBudget& budget) {
    Reader r(src, mode, budget);
    TypeExprResult out;
    DefaultsPtr defaults;
    out.type = r.get(expr, defaults);
    out.defaults = std::move(defaults);
    out.diagnostics = std::move(r.diags);
    return out;
  });
}

TypeExprResult parse_type_expr(const Expression& e, TypeExprMode mode) {
  if (const Expr* n = e.native_expr()) return parse_type_expr(*n, e.source(), mode);
  const json::Node* j = e.json_node();
  if (j != nullptr && j->kind == json::NodeKind::String) {
    Pos at = j->start;
    ++at.column, ++at.byte;
    ExprParse p = parse_expression(make_source(
        e.source().name(), std::string(json::as<json::StringNode>(*j).value), at));
    // A string that is no expression is no keyword or call either: the
    // reference's ExprCall drops the parse's errors.
    if (!p.has_errors() && p.expr) {
      TypeExprResult r = parse_type_expr(*p.expr, *p.source, mode);
      // The reference reads the keyword or call of the string through the
      // JSON expression, whose range is the whole string token: what it
      // reports about the expression as a whole points there.
      Range inner = p.source->range(p.expr->span);
      for (Diagnostic& d : r.diagnostics)
        if (d.subject && *d.subject == inner) d.subject = e.range();
      return r;
    }
  }
  TypeExprResult out;
  out.type = Type::dynamic();
  Diagnostic d;
  d.summary = "Invalid type specification";
  d.detail =
      "A type specification is either a primitive type keyword (bool, number, string) or a "
      "complex type constructor call, like list(string).";
  d.subject = e.range();
  out.diagnostics.push_back(std::move(d));
  return out;
}

namespace {

// Appends type_string([t]) to [out] within the stack [budget]; nesting
// beyond it is written as "any". (Appending keeps a deep type's text from
// being copied once per level.)
void write_type_string(const Type* t, std::string& out, const util::StackBudget& budget) {
  if (budget.exhausted()) {
    out += "any";
    return;
  }
  switch (t->kind()) {
    case TypeKind::String: out += "string"; return;
    case TypeKind::Bool: out += "bool"; return;
    case TypeKind::Number: out += "number"; return;
    case TypeKind::Dynamic: out += "any"; return;
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
      out += t->is_list() ? "list(" : t->is_set() ? "set(" : "map(";
      write_type_string(t->element(), out, budget);
      out += ')';
      return;
    case TypeKind::Object:
      out += "object({";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        std::string_view name = t->attr_name(i);
        // Go's %q quoting: not HCL syntax, but the reference's choice for
        // names that no type expression could have written.
        out += valid_identifier(name) ? std::string(name) : uni::go_quote(name);
        out += '=';
        write_type_string(t->attr_type(i), out, budget);
      }
      out += "})";
      return;
    case TypeKind::Tuple:
      out += "tuple([";
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) out += ',';
        write_type_string(t->tuple_element(i), out, budget);
      }
      out += "])";
      return;
    case TypeKind::Capsule:
      // The reference panics: capsule types have no type expression.
      out += "<" + std::string(t->capsule_name()) + ">";
      return;
  }
}

}  // namespace

std::string type_string(const Type* t) {
  return util::run_deep([&](const util::StackBudget& budget) {
    std::string out;
    write_type_string(t, out, budget);
    return out;
  });
}

namespace {

bool type_constraint_equals(const void* a, const void* b) { return a == b; }
const CapsuleOps kTypeConstraintOps{&type_constraint_equals, nullptr};

}  // namespace

const Type* type_constraint_type() {
  static const Type* t = Type::capsule("type constraint", &kTypeConstraintOps);
  return t;
}

Value type_constraint_val(const Type* t) {
  // Types are interned and immortal: the payload is the type itself.
  return Value::capsule(type_constraint_type(), const_cast<Type*>(t));
}

const Type* type_constraint_from_val(const Value& v) {
  return static_cast<const Type*>(v.unmark().capsule_payload());
}

}  // namespace hclvm

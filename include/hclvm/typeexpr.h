// Type expressions (the reference's ext/typeexpr): the static syntax that
// configuration languages use to write types, as in
//
//   variable "ports" {
//     type = list(object({ port = number, protocol = optional(string, "tcp") }))
//   }
//
// An expression is read without being evaluated: the primitive keywords
// bool, number, string (and `any` in a type constraint), the constructors
// list(T), set(T), map(T), object({ name = T, ... }) and tuple([T, ...]),
// and, inside object types of constraints, optional(T) and — where defaults
// are allowed — optional(T, default). Every mistake is reported with the
// reference's diagnostic (summary, detail, subject and context ranges).
//
// Defaults (typeexpr.Defaults) hold the default values of optional
// attributes at every level of a type, and apply() inserts them into a
// value before it is converted to the type.
//
// Default values are constant expressions: evaluated as the reference does,
// with no evaluation context, so variables and function calls are errors.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/diagnostic.h>
#include <hclvm/syntax.h>
#include <hclvm/type.h>
#include <hclvm/value.h>

#include <map>
#include <memory>
#include <string>

namespace hclvm {

class Expression;

// The default values for optional object attributes at one level of a type,
// and the defaults of the levels below it.
struct TypeDefaults {
  // The type this level describes; it decides how children are keyed.
  const Type* type = nullptr;
  // Default values of this object type's optional attributes, by name.
  std::map<std::string, Value> values;
  // Defaults of nested types: by attribute name for an object, by index
  // ("0", "1", ...) for a tuple, under "" for the element of a collection.
  std::map<std::string, std::shared_ptr<const TypeDefaults>> children;

  // Returns [v] with the defaults inserted wherever an optional attribute
  // is missing or null, at any depth (typeexpr Defaults.Apply). Null and
  // unknown values are left alone; values that do not have the expected
  // shape are passed through for conversion to report. The result may
  // still need converting to the type.
  Value apply(const Value& v) const;
};

// What reading a type expression gives: the type (the dynamic pseudo-type
// where the expression is not valid), the defaults (null when there are
// none, or when defaults are not allowed) and the diagnostics.
struct TypeExprResult {
  const Type* type = nullptr;
  std::shared_ptr<const TypeDefaults> defaults;
  Diagnostics diagnostics;
};

enum class TypeExprMode : uint8_t {
  Exact,                   // typeexpr.Type: no `any`, no optional()
  Constraint,              // typeexpr.TypeConstraint: `any` and optional(T)
  ConstraintWithDefaults,  // typeexpr.TypeConstraintWithDefaults: also optional(T, default)
};

// Reads [expr], parsed from [src], as a type expression in [mode].
TypeExprResult parse_type_expr(const ast::Expr& expr, const Source& src, TypeExprMode mode);

// Reads the expression [e] of a body (hclvm/body.h) as a type expression in
// [mode]. In the JSON syntax a type expression is a string holding the
// native syntax ("list(string)"), as the reference reads it there.
TypeExprResult parse_type_expr(const Expression& e, TypeExprMode mode);

// typeexpr.Type, TypeConstraint and TypeConstraintWithDefaults.
inline TypeExprResult type_expr(const ast::Expr& expr, const Source& src) {
  return parse_type_expr(expr, src, TypeExprMode::Exact);
}
inline TypeExprResult type_constraint(const ast::Expr& expr, const Source& src) {
  return parse_type_expr(expr, src, TypeExprMode::Constraint);
}
inline TypeExprResult type_constraint_with_defaults(const ast::Expr& expr, const Source& src) {
  return parse_type_expr(expr, src, TypeExprMode::ConstraintWithDefaults);
}

// Returns [t] as it is written in a type expression (typeexpr.TypeString):
// "list(string)", "object({a=number,b=bool})", `object({"not an id"=string})`,
// "tuple([bool,any])". Like the newest reference, optional attributes are
// written as plain attributes. Capsule types have no type expression: they
// are written as their name in angle brackets.
std::string type_string(const Type* t);

// valid_identifier (hclsyntax.ValidIdentifier) is in <hclvm/syntax.h>.

// The capsule type whose values carry a type constraint (typeexpr's
// TypeConstraintType), for functions such as `convert` that take a type.
const Type* type_constraint_type();
// Returns a value of type_constraint_type() carrying [t].
Value type_constraint_val(const Type* t);
// Returns the type carried by [v], a value of type_constraint_type().
const Type* type_constraint_from_val(const Value& v);

}  // namespace hclvm

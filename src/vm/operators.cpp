// The operator functions (see operators.h), written out for each parameter
// specification of the newest go-cty stdlib: the arithmetic functions and
// Not, And, Or, Negate take neither nulls nor unknowns; the comparisons take
// unknowns; Equal and NotEqual take anything.
#include "vm/operators.h"

#include "value/ops.h"
#include "value/refine.h"

namespace hclvm::vm {

const Type* operand_type(Operator op) {
  switch (op) {
    case Operator::Eq:
    case Operator::Ne: return Type::dynamic();
    case Operator::And:
    case Operator::Or:
    case Operator::Not: return Type::boolean();
    default: return Type::number();
  }
}

const Type* result_type(Operator op) {
  switch (op) {
    case Operator::Add:
    case Operator::Sub:
    case Operator::Mul:
    case Operator::Div:
    case Operator::Mod:
    case Operator::Neg: return Type::number();
    default: return Type::boolean();
  }
}

namespace {

// cty's refineNonNull as RefineResult applies it: only unknowns change.
Value not_null(Value v) {
  if (v.is_known()) return v;
  return refine_not_null(v);
}

// Returns the value of [r], or DynamicVal with [error] set.
Value take(ops::Result r, std::string& error) {
  if (!r.ok()) {
    error = std::move(r.error);
    return Value::dynamic();
  }
  return not_null(std::move(r.value));
}

}  // namespace

Value call_operator(Operator op, const Value& a, const Value& b, std::string& error) {
  bool unary = op == Operator::Neg || op == Operator::Not;
  if (op == Operator::Eq) return not_null(ops::equals(a, b));
  if (op == Operator::Ne) return not_null(ops::not_equals(a, b));
  // Function.Call checks every argument for null before anything else.
  if (a.is_null() || (!unary && b.is_null())) {
    error = "argument must not be null";
    return Value::dynamic();
  }
  bool takes_unknown =
      op == Operator::Lt || op == Operator::Le || op == Operator::Gt || op == Operator::Ge;
  if (!takes_unknown && (!a.is_known() || (!unary && !b.is_known())))
    return refine_not_null(Value::unknown(result_type(op)));
  switch (op) {
    case Operator::Add: return take(ops::add(a, b), error);
    case Operator::Sub: return take(ops::subtract(a, b), error);
    case Operator::Mul: return take(ops::multiply(a, b), error);
    case Operator::Div: return take(ops::divide(a, b), error);
    case Operator::Mod: return take(ops::modulo(a, b), error);
    case Operator::Lt: return take(ops::less_than(a, b), error);
    case Operator::Le: return take(ops::less_than_or_equal(a, b), error);
    case Operator::Gt: return take(ops::greater_than(a, b), error);
    case Operator::Ge: return take(ops::greater_than_or_equal(a, b), error);
    case Operator::And: return take(ops::logical_and(a, b), error);
    case Operator::Or: return take(ops::logical_or(a, b), error);
    case Operator::Neg: return take(ops::negate(a), error);
    case Operator::Not: return take(ops::logical_not(a), error);
    case Operator::Eq:
    case Operator::Ne: break;
  }
  return Value::dynamic();
}

}  // namespace hclvm::vm

// The functions behind HCL's operators. The reference evaluates `a + b`,
// `a < b`, `!a`... by calling go-cty stdlib functions (AddFunc,
// LessThanFunc, NotFunc...) after converting the operands to the
// parameter type, so the results follow cty's calling convention: a null
// operand is an error ("argument must not be null"), an unknown operand
// where the parameter does not accept unknowns gives an unknown result
// refined only as not null (and without marks), and the result is refined
// as not null. The operands given here are already converted and stripped
// of their top-level marks by the evaluator, as hclsyntax does.
#pragma once

#include <hclvm/value.h>

#include <cstdint>
#include <string>

namespace hclvm::vm {

enum class Operator : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Neg,
  Not
};

// The parameter type of [op]'s operands: number, bool, or dynamic for == and !=.
const Type* operand_type(Operator op);
// The result type of [op].
const Type* result_type(Operator op);

// Returns [op] applied to [a] and [b] ([b] ignored for Neg and Not); on
// failure returns DynamicVal and sets [error] to the function's message.
Value call_operator(Operator op, const Value& a, const Value& b, std::string& error);

}  // namespace hclvm::vm

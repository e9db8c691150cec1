// One native expression written as the JSON syntax writes it (inside the
// convert layer: the spec-shaped conversion writes what it cannot
// evaluate this way).
#pragma once

#include <hclvm/ast.h>
#include <hclvm/syntax.h>

#include "convert/json_writer.h"

namespace hclvm::convert {

// Returns [e] (of [src]) as the JSON syntax writes an attribute's value:
// literals as JSON values, templates as templates, tuples and objects as
// arrays and objects, anything else as "${SOURCE}". Recursive: callers run
// it within a stack budget.
JValue native_expr_as_json(const ast::Expr& e, const Source& src);

}  // namespace hclvm::convert

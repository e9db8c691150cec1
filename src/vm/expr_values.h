// The values of the variables an expression at fault reads, as the
// reference's text renderer lists them under a diagnostic ("with x as 3,").
// Computed only when a diagnostic is reported: the expression's text is
// parsed again from the program's source (a program keeps no syntax tree),
// its variables found as hclsyntax.Variables finds them, and each is
// resolved against the for variables in scope at the failing instruction
// and the context.
#pragma once

#include <hclvm/analysis.h>
#include <hclvm/ast.h>
#include <hclvm/eval.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "vm/program.h"

namespace hclvm::vm {

// The sorted statements (`x as "foo"`, `n set to null`) about the
// variables of the expression at [span] of [prog], reported by the
// instruction at [pc]: for variables read through [local_refs] (by slot),
// others from [ctx]. Empty when the program has no source.
std::vector<std::string> expression_values(const Program& prog, uint32_t pc, ast::Span span,
                                           const EvalContext& ctx,
                                           std::span<const Value* const> local_refs);

// The same statements for the variables [vars] (an expression's
// Variables()) read from [ctx]: for diagnostics about an expression's value
// that the evaluator did not report (hcldec's conversions).
std::vector<std::string> expression_values(std::span<const Traversal> vars,
                                           const EvalContext& ctx);

// The expression [text] (a snippet of a source, named "<expr>") parsed,
// or null when it does not parse. Diagnostics parse the same snippets
// again each time an evaluation reports them, so each thread keeps the
// last few hundred parses.
std::shared_ptr<const ExprParse> parse_snippet(const std::string& text);

// The reference's short description of [v] (tfdiags.CompactValueStr):
// scalars as their text, collections and objects by their size ("list of
// string with 3 elements"), "(not yet known)" when unknown.
std::string describe(const Value& v);

}  // namespace hclvm::vm

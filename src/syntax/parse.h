// The parse driver: scans, runs the fast Bison parser, and falls back to the
// recovering parser when the input has any error. Tests can force the
// recovering parser to check that both paths build the same tree.
#pragma once

#include <hclvm/syntax.h>

#include "syntax/token.h"

namespace hclvm::syntax {

// Auto: the fast path, falling back to the recovering parser on any error.
// Recover: the recovering parser only. Fast: the Bison parser only; the
// result has no tree and no diagnostics when it rejects the input.
enum class Path { Auto, Recover, Fast };

FileParse parse_config_via(std::shared_ptr<const Source> src, Path path);
// parse_config that also hands over the tokens it scanned (to [tokens]):
// for the formatter, which lays out the same tokens.
FileParse parse_config_tokens(std::shared_ptr<const Source> src, Tokens& tokens);
ExprParse parse_expression_via(std::shared_ptr<const Source> src, Path path);
ExprParse parse_template_via(std::shared_ptr<const Source> src, Path path);

}  // namespace hclvm::syntax

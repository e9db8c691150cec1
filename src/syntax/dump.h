// A readable, deterministic text form of syntax trees, for `hclvm ast` and
// golden tests: one node per line, indented by depth, with its kind, every
// field and its range (line:col-line:col). Two trees print the same text
// only if they are the same tree, so the fast and the recovering parser can
// be compared by their dumps.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/syntax.h>

#include <string>

namespace hclvm::syntax {

// Returns the dump of [body], ranges resolved through [src].
std::string dump_body(const ast::Body& body, const Source& src);
// Returns the dump of [expr], ranges resolved through [src].
std::string dump_expr(const ast::Expr& expr, const Source& src);
// Returns the dump of traversal [steps], ranges resolved through [src].
std::string dump_traversal(ast::List<ast::Traverser> steps, const Source& src);

}  // namespace hclvm::syntax

// The recovering parser: follows the reference parser's decisions token for
// token, so that a file with errors gets exactly the reference's diagnostics
// (same summaries, details, ranges, order, and the same suppression of
// follow-on errors after recovery) and the same partial tree. It runs only
// when the fast Bison parser could not build a clean tree.
#pragma once

#include "syntax/builder.h"
#include "syntax/token.h"

namespace hclvm::syntax {

// Each parses [tokens] (from scan()) with [b], appending to [diags].
Body* recover_config(Builder& b, const Tokens& tokens, Diagnostics& diags);
Expr* recover_expression(Builder& b, const Tokens& tokens, Diagnostics& diags);
Expr* recover_template(Builder& b, const Tokens& tokens, Diagnostics& diags);
List<Traverser> recover_traversal_abs(Builder& b, const Tokens& tokens, Diagnostics& diags);
List<Traverser> recover_traversal_rel(Builder& b, const Tokens& tokens, Diagnostics& diags);

}  // namespace hclvm::syntax

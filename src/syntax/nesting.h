// The nesting limit of parsed trees (kMaxNesting in hclvm/syntax.h).
#pragma once

#include <hclvm/diagnostic.h>

#include "syntax/builder.h"

namespace hclvm::syntax {

// How many levels a tree may nest beyond the number of bytes it spans: no
// construct nests deeper than one level a byte, a template around its
// literal aside. limit_nesting counts on it to let short expressions
// through unwalked; Nesting.LevelsPerByte and the parse fuzzer check it.
inline constexpr uint32_t kNestingSlack = 4;

// Whether an expression spanning [s] is too short to nest past the limit
// (with room to spare: a quarter of it).
inline bool short_enough(ast::Span s) { return s.end - s.begin + kNestingSlack <= kMaxNesting / 4; }

// How deep the tree under [root] nests, [root] being level 1.
uint32_t depth(const Expr& root);

// A block nests one level deeper for at least three bytes of its own (its
// type, `{` and `}`), so a file shorter than this cannot nest blocks past
// the limit.
inline constexpr uint32_t kBlockNestingBytes = 3 * kMaxNesting;

// Cuts what nests deeper than kMaxNesting out of the tree under [body]:
// an attribute whose expression does becomes a placeholder (as an
// expression that failed to parse), a block that does loses its body; each
// cut is reported once in [diags].
// With [exprs] false, only blocks are checked (the parser saw no
// attribute long enough to nest too deep: Builder::long_attribute).
void limit_nesting(Builder& b, Body* body, Diagnostics& diags, bool exprs = true);
// The same for an expression; returns [root] or its placeholder.
Expr* limit_nesting(Builder& b, Expr* root, Diagnostics& diags);

}  // namespace hclvm::syntax

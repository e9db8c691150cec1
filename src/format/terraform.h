// What `terraform fmt` changes beyond hclwrite's layout: it reads the file
// into hclwrite's tree and, before laying it out, rewrites three things
// (Terraform's internal/command/fmt.go):
//
//  - Block labels are made again from their values, always quoted. A label
//    whose quoted text the scanner split into several literal tokens (one
//    with `$` or `%` in it, but for a few exact texts) has no value there
//    and is dropped: a Terraform bug, reproduced. Tokens between the type
//    and the last label (inline comments) go with the old labels.
//  - An attribute whose whole value is one interpolation, "${ x }", becomes
//    its inside, in parentheses when it still spans lines.
//  - `type` in a top-level `variable` block: list, map and set become
//    list(any) and so on; the quoted "string", "list" and "map" of old
//    configurations become string, list(string) and map(string).
//
// The rewrites work on tokens, located by the spans of the parsed tree,
// and their result is laid out like any token sequence.
#pragma once

#include <hclvm/ast.h>

#include "format/layout.h"
#include "syntax/token.h"

#include <string>
#include <vector>

namespace hclvm::format {

// Returns the index of the first of [toks] that starts at or after byte
// [offset] (the reference's partitionTokens).
uint32_t token_at(std::span<const syntax::Token> toks, uint32_t offset);
// The same, searched outwards from [hint] (then set to the answer): a few
// steps when the offsets asked for come in order.
uint32_t token_at(std::span<const syntax::Token> toks, uint32_t offset, uint32_t& hint);

// Rewrites [toks] (of [src], whose parse without errors is [body]) as
// terraform fmt does into [out], made-up token bytes going to [extra]
// (TokenText{src, extra} reads them); [out_spaces] gets one entry a token,
// the last (EOF's) the spaces it had: the only ones the layout keeps.
// Returns false when nothing is rewritten: [out] is left empty (the
// tokens are [toks] as they are) and [out_spaces] has one entry each.
bool terraform_rewrite(std::string_view src, std::span<const syntax::Token> toks,
                       const ast::Body& body, syntax::Tokens& out, Spaces& out_spaces,
                       std::string& extra);

// Returns [label] as terraform fmt writes a label: quoted, with `\n \r \t
// \" \\` escaped, `${` and `%{` doubled, and characters Go does not call
// printable as \uxxxx or \Uxxxxxxxx.
std::string quote_label(std::string_view label);

}  // namespace hclvm::format

// The reference formatter's layout rules (hclwrite's format.go) over a flat
// token sequence: indentation, spacing inside lines, and the vertical
// alignment of `=` and trailing comments. Like the reference, the layout
// never changes a token, only the run of spaces in front of each one, and
// needs no parse: broken input is laid out by the same rules.
//
// Tokens are the scanner's (syntax::Token). Their bytes come from a
// TokenText: the source, and after it an extra buffer for the tokens a
// rewrite made up (Terraform's labels and parentheses), so that a rewritten
// sequence needs no copy of the source.
#pragma once

#include "syntax/token.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::format {

// The spaces before each token (the layout's output), one a token: for a
// big file as large as its tokens, so from the same page allocator.
using Spaces = std::vector<uint32_t, syntax::PageAllocator<uint32_t>>;

// Where token bytes live: offsets below src.size() are in [src], the rest
// in [extra] (offset src.size() is extra's first byte).
struct TokenText {
  std::string_view src;
  std::string_view extra;

  // Returns the bytes of [span].
  std::string_view operator()(ast::Span span) const {
    if (span.begin < src.size()) return src.substr(span.begin, span.end - span.begin);
    return extra.substr(span.begin - src.size(), span.end - span.begin);
  }
};

// Returns the spaces before each token of [toks] (scanned from [src]) as
// the reference counts them: the bytes skipped since the previous token
// (a tab is one; a leading BOM three).
std::vector<uint32_t> spaces_before(std::span<const syntax::Token> toks);

// Lays out [toks] (ending with EOF_) whose bytes [text] holds: sets
// [spaces] (one per token) for every token but the last, whose spaces are
// kept as given (the reference never moves the end of the file).
void layout(std::span<const syntax::Token> toks, const TokenText& text, std::span<uint32_t> spaces);

// Appends each token of [toks] to [out], after its [spaces].
void write_tokens(std::span<const syntax::Token> toks, const TokenText& text,
                  std::span<const uint32_t> spaces, std::string& out);

// Returns how many columns [s] takes for alignment: its grapheme clusters
// (Unicode 15.0, as go-textseg counts them; CR LF is one).
size_t columns(std::string_view s);

}  // namespace hclvm::format

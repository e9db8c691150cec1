// Tokens of the native syntax. The set and the meaning of each kind are the
// reference scanner's, so that the recovering parser can follow the
// reference's decisions token for token. A token is 12 bytes: kind and a
// byte span; its text is the source slice.
#pragma once

#include <hclvm/arena.h>
#include <hclvm/ast.h>
#include <hclvm/diagnostic.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace hclvm::syntax {

// ORDER TOK: token_name() in token.cpp follows this list.
enum class Tok : uint8_t {
  OBrace, CBrace, OBrack, CBrack, OParen, CParen,
  OQuote, CQuote,          // " that opens / closes a quoted template
  OHeredoc, CHeredoc,      // <<EOT or <<-EOT (with its newline) / the closing marker line
  Star, Slash, Plus, Minus, Percent,
  Equal, EqualOp, NotEqual, LessThan, LessThanEq, GreaterThan, GreaterThanEq,
  And, Or, Bang,
  Dot, Comma, DoubleColon,
  Ellipsis, FatArrow,
  Question, Colon,
  TemplateInterp,          // ${ or ${~
  TemplateControl,         // %{ or %{~
  TemplateSeqEnd,          // } or ~} that closes a template sequence
  QuotedLit,               // literal text in a quoted template (may hold escapes)
  StringLit,               // literal text in a heredoc or bare template (no escapes)
  NumberLit,
  Ident,
  Comment,                 // includes its newline for line comments
  Newline,
  EOF_,
  // Characters the language does not use; reported by check_invalid_tokens.
  BitwiseAnd, BitwiseOr, BitwiseNot, BitwiseXor, StarStar,
  Apostrophe, Backtick, Semicolon, Tabs, Invalid, BadUTF8, QuotedNewline,
  Nil,
  Count_
};

struct Token {
  Tok type;
  ast::Span span;
};

// Token arrays of big files are large and touched once: they come from
// the page allocator (huge pages where possible).
template <class T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(detail::alloc_pages(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { detail::free_pages(p, n * sizeof(T)); }
  friend bool operator==(const PageAllocator&, const PageAllocator&) { return true; }
};

using Tokens = std::vector<Token, PageAllocator<Token>>;

enum class ScanMode : uint8_t { Normal, Template, IdentOnly };

// Returns the tokens of [src] (all of them: comments and newlines included),
// ending with one EOF_ token. A leading UTF-8 BOM is skipped.
Tokens scan(std::string_view src, ScanMode mode);

// Returns a short name for [t] (for dumps and tests).
std::string_view token_name(Tok t);

// The rules both parsers share (the Bison token feed in parse.cpp and the
// recovering parser in recover.cpp decide the same things their own ways):
//
// Whether newlines are tokens inside the bracket [opener] (the reference's
// stack of "include newlines" flags): inside an object constructor or a
// block's body they are; inside parentheses, brackets, template sequences
// and `for` expressions ([is_for]: a `for` begins after the bracket) not.
constexpr bool newlines_count_inside(Tok opener, bool is_for) { return opener == Tok::OBrace && !is_for; }

// Returns the index of the `for` keyword when a `for` expression begins
// after the bracket at [open] of [tokens] (of source [text]): the next token
// but newlines and comments is the identifier `for`. Returns 0 otherwise.
size_t for_keyword_after(const Tokens& tokens, size_t open, std::string_view text);

}  // namespace hclvm::syntax

namespace hclvm { class Source; }

namespace hclvm::syntax {

// Appends the reference's diagnostics for characters the language does not
// use (bitwise operators, `**`, backticks, quotes, semicolons, bad UTF-8,
// newlines inside quoted strings, ...) found in [tokens] of [src].
void check_invalid_tokens(const Tokens& tokens, const Source& src, Diagnostics& diags);

// Returns where [tokens] of [text] start next to a non-ASCII byte, in
// order. The reference counts columns token by token (grapheme clusters
// within a token, one per byte of the spaces between), so a cluster never
// spans two tokens; Source breaks clusters at these offsets to count alike.
std::vector<uint32_t> token_boundaries(const Tokens& tokens, std::string_view text);

// Returns the range of token [i] of [tokens], scanned from [src].
Range token_range(const Tokens& tokens, size_t i, const Source& src);

}  // namespace hclvm::syntax

// The JSON syntax's token scanner (the reference's json/scanner.go), shared
// by the parser (src/json/parse.cpp) and its re2c definition
// (src/json/scanner.re). The scanner is lax on purpose, as the reference's
// is: it takes any run of number characters as a number, any run of letters
// as a keyword and anything up to an unescaped quote or a control character
// as a string, so that the parser can say what is wrong with the token. It
// stops at the first character that starts no token.
//
// Tokens come in batches: the parser reads them from a small buffer that
// the generated code refills, so that the per-token cost is an index, not a
// call into another translation unit. Positions are the reference's (a tab
// is two columns, a carriage return none, a grapheme cluster inside a string
// one), kept lazily: a column is the byte offset plus a correction that only
// newlines, tabs, carriage returns and non-ASCII string characters change.
#pragma once

#include <hclvm/diagnostic.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hclvm::json_scan {

enum class Tok : uint8_t {
  BraceO, BraceC, BrackO, BrackC, Comma, Colon, Equals, Keyword, String, Number, Eof, Invalid
};

// One token: its bytes [begin, end) in the text, its line (a token never
// spans two) and its first and one-past-last columns.
struct Token {
  uint32_t begin = 0, end = 0;
  uint32_t line = 1;
  uint32_t col_begin = 1, col_end = 1;
  Tok type = Tok::Eof;
  // For a string: closed by its quote with only printable ASCII other than
  // a backslash inside, so valid and its own value between the quotes.
  bool simple = false;
};

// Returns the byte length of the grapheme cluster that starts at byte [i]
// of [s], as go-textseg's ScanGraphemeClusters finds it in the rest of the
// input (a cluster may run on past a closing quote, as in the reference).
size_t cluster_len(std::string_view s, size_t i);

// Produces the tokens of a JSON text (json/scanner.go's scan, lazily).
// After a character that starts no token comes the end.
class Scanner {
 public:
  // Scans [text], whose first byte is at [start]. The byte just past the
  // text must be readable and NUL (a std::string's terminator, as every
  // Source's text has): the generated code reads it as the end's sentinel.
  Scanner(std::string_view text, Pos start)
      : text_(text), line_(start.line), colofs_(start.column), byte0_(start.byte) {}

  // Returns the next token without moving past it; the reference is valid
  // until the next call to peek or read.
  const Token& peek() {
    if (idx_ == count_) fill();
    return buf_[idx_];
  }

  // Returns the next token and moves past it (but never past the end).
  Token read() {
    Token t = peek();
    if (t.type != Tok::Eof) ++idx_;
    return t;
  }

  // Returns where [t] starts and ends.
  Pos start(const Token& t) const { return Pos{t.line, t.col_begin, byte0_ + t.begin}; }
  Pos stop(const Token& t) const { return Pos{t.line, t.col_end, byte0_ + t.end}; }

 private:
  static constexpr size_t kBatch = 256;

  // Scans the next batch of tokens into buf_ (at least one; it ends with
  // the end's token once the end is reached). Generated from scanner.re.
  void fill();

  std::string_view text_;
  size_t pos_ = 0;       // where the next token's scan starts
  uint32_t line_;        // the line at pos_
  uint32_t colofs_;      // column at pos_ minus pos_ (mod 2^32)
  uint32_t byte0_;       // the byte position of the text's first byte
  bool stopped_ = false; // an invalid character was the last token
  uint32_t idx_ = 0, count_ = 0;
  Token buf_[kBatch];
};

}  // namespace hclvm::json_scan

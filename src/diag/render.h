// Rendering diagnostics for people and for programs. The text form is the
// reference's diagnostic text writer: severity and summary, then "on FILE
// line N, in BLOCK:" with the source lines around the subject (the subject
// itself underlined in bold when colour is on), then the values of the
// failing expression's variables ("with x as 3,"), then the detail
// word-wrapped to the terminal width. The JSON form is the document `hcldec --diags=json`
// prints. Both are byte for byte the reference's, quirks included (blank
// lines inside a snippet are skipped; JSON escapes <, > and & as \u00XX),
// because tools and tests compare them with the reference's output.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/json_syntax.h>
#include <hclvm/diagnostic.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace hclvm::diag {

// What the text renderer may know about one source file: its bytes, for the
// snippet, and optionally a function giving the "in resource "a" "b""
// context of a byte offset (the reference asks the file's syntax for it).
struct SnippetFile {
  std::string_view bytes;
  std::function<std::string(uint32_t byte)> context;
};

// Files by the name used in diagnostic ranges. A subject whose file is not
// here renders as "(source code not available)", as in the reference.
using SnippetFiles = std::map<std::string, SnippetFile, std::less<>>;

struct TextStyle {
  unsigned width = 0;  // wrap the detail at this many characters; 0: never
  bool color = false;  // VT100 colours for severity and subject
};

// Receives rendered text, piece by piece, in order.
using TextSink = std::function<void(std::string_view)>;

// Writes the text form of every diagnostic in [diags], in order, to [sink].
// The text is handed over as it is made, in pieces of about kTextPiece
// bytes (a diagnostic's snippet line may make one longer), so that memory
// stays within one piece however much text there is: the text of many
// diagnostics on one long line grows with the square of the line, since
// each diagnostic shows the whole line, as the reference's does.
void write_text(const Diagnostics& diags, const SnippetFiles& files, const TextStyle& style,
                const TextSink& sink);

// The size of the pieces write_text hands over.
constexpr size_t kTextPiece = size_t(64) << 10;

// Returns the text form of every diagnostic in [diags], in order: the
// whole of what write_text writes, for callers that know it is small.
std::string render_text(const Diagnostics& diags, const SnippetFiles& files,
                        const TextStyle& style);

// Returns the JSON document `hcldec --diags=json` prints for [diags],
// newline included. hcldec prints nothing at all when there are no
// diagnostics; this returns the document with an empty list, and callers
// that imitate hcldec skip it.
std::string render_json(const Diagnostics& diags);

// Returns the block context of byte offset [byte] in a native syntax file
// whose root body is [root]: the header of the top-level block containing
// it (`resource "a" "b"`), or "" outside any block.
std::string native_context(const ast::Body& root, uint32_t byte);

// Returns the context of byte offset [byte] in a JSON-syntax file whose root
// value is [root], as the reference's JSON navigation names it: the path of
// the objects and arrays holding it, like `service.web` or `rule[2]`, or ""
// outside any nested object or array.
std::string json_context(const json::Node& root, uint32_t byte);

// Returns [s] as a JSON string literal the way Go's encoding/json writes it
// (HTML-safe escapes, U+2028/2029 escaped, invalid UTF-8 as \ufffd).
std::string json_string(std::string_view s);

// Returns [s] word-wrapped at [width] characters the way the reference's
// wrapping library does: breaks only at white space, never splits a word.
std::string wrap_words(std::string_view s, unsigned width);

}  // namespace hclvm::diag

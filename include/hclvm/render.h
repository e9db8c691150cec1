// Diagnostics for people and for programs, as the reference prints them:
// the text form (summary, "on FILE line N, in BLOCK:", the source snippet
// with the subject underlined, the values of the failing expression's
// variables, the detail word-wrapped) and the JSON document of
// `hcldec --diags=json`.
//
//   hclvm::EvalResult r = vm.run(*program, ctx);
//   std::cerr << hclvm::diagnostics_text(r.diagnostics, source.get(), {.width = 80});
#pragma once

#include <hclvm/diagnostic.h>
#include <hclvm/syntax.h>

#include <functional>
#include <string>
#include <string_view>

namespace hclvm {

struct TextOptions {
  unsigned width = 0;  // wrap details at this many columns; 0: never
  bool color = false;  // VT100 colours for the severity and the subject
};

// [diags] as text, with snippets from [source] (null: none; diagnostics
// about another file say "(source code not available)", as the
// reference's do).
std::string diagnostics_text(const Diagnostics& diags, const Source* source,
                             const TextOptions& options = {});
// The same with [context] giving the block a byte offset of [source] is in,
// which the snippets name (`in resource "a" "b":`); a compiled file has
// one (the overloads for CompiledFile are in hclvm/cache.h).
std::string diagnostics_text(const Diagnostics& diags, const Source* source,
                             const std::function<std::string(uint32_t)>& context,
                             const TextOptions& options = {});
// The same text, handed to [out] piece by piece as it is made instead of
// returned whole. The text can be far larger than the source: each
// diagnostic shows the source lines it is about, so many diagnostics on one
// long line (a hostile file) make text that grows with the square of the
// line's length. These keep memory within a piece of about 64 KiB (or one
// snippet line, when longer), whatever the total.
void write_diagnostics_text(const Diagnostics& diags, const Source* source,
                            const TextOptions& options,
                            const std::function<void(std::string_view)>& out);
void write_diagnostics_text(const Diagnostics& diags, const Source* source,
                            const std::function<std::string(uint32_t)>& context,
                            const TextOptions& options,
                            const std::function<void(std::string_view)>& out);
// [diags] as the JSON document `hcldec --diags=json` prints.
std::string diagnostics_json(const Diagnostics& diags);

}  // namespace hclvm

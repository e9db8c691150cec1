// The formatters (include/hclvm/format.h): hclfmt's is the layout of the
// scanner's tokens; terraform fmt's is the layout of the tokens after
// Terraform's rewrites, which need the parsed tree. Both read the file
// with the same scanner the parsers use.
#include <hclvm/format.h>

#include "format/layout.h"
#include "format/terraform.h"
#include "syntax/parse.h"
#include "syntax/token.h"

namespace hclvm::format {

namespace {

// Reports whether [s] ends with [suffix].
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The largest input whose offsets the scanner's 32-bit spans can hold.
constexpr size_t kMaxInput = size_t(UINT32_MAX) - 1;

// Returns [src] laid out after Terraform's rewrites; [body] is its parse,
// [toks] its tokens.
std::string format_terraform(std::string_view src, const ast::Body& body,
                             const syntax::Tokens& toks) {
  syntax::Tokens out;
  Spaces spaces;  // both as large as the file's tokens: from the page allocator
  std::string extra;
  std::span<const syntax::Token> laid(toks);
  if (terraform_rewrite(src, toks, body, out, spaces, extra)) laid = out;
  TokenText text{src, extra};
  layout(laid, text, spaces);
  std::string result;
  result.reserve(src.size() + src.size() / 8 + 16);
  write_tokens(laid, text, spaces, result);
  return result;
}

// Returns [src], whose tokens are [toks], in hclfmt's layout.
std::string layout_hcl(std::string_view src, const syntax::Tokens& toks) {
  // The layout sets every token's spaces but the last's: EOF keeps the
  // blanks before it. The table is per thread and reused.
  thread_local std::vector<uint32_t> spaces;
  spaces.resize(toks.size());
  spaces.back() = toks.back().span.begin - (toks.size() > 1 ? toks[toks.size() - 2].span.end : 0);
  TokenText text{src, {}};
  layout(toks, text, spaces);
  std::string out;
  out.reserve(src.size() + src.size() / 8 + 16);
  write_tokens(toks, text, spaces, out);
  if (spaces.capacity() > (size_t(1) << 22)) std::vector<uint32_t>().swap(spaces);
  return out;
}

}  // namespace

Style style_for_path(std::string_view path) {
  for (std::string_view ext : {".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"})
    if (ends_with(path, ext)) return Style::Terraform;
  return Style::Hcl;
}

std::string format_hcl(std::string_view src) {
  if (src.size() > kMaxInput) return std::string(src);
  syntax::Tokens toks = syntax::scan(src, syntax::ScanMode::Normal);
  return layout_hcl(src, toks);
}

Result format_file(std::shared_ptr<const Source> src, Style style) {
  Result r;
  r.source = src;
  // The parse's own tokens are laid out: the file is scanned once.
  syntax::Tokens toks;
  FileParse p = syntax::parse_config_tokens(src, toks);
  r.diagnostics = std::move(p.diagnostics);
  std::string_view text = src->text();
  if (r.has_errors() || !p.body) {
    r.text = std::string(text);
    return r;
  }
  r.text =
      style == Style::Terraform ? format_terraform(text, *p.body, toks) : layout_hcl(text, toks);
  r.changed = r.text != text;
  return r;
}

}  // namespace hclvm::format

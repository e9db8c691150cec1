// The public face of the diagnostic renderers (hclvm/render.h).
#include "diag/render.h"
#include "hclvm/render.h"

namespace hclvm {

namespace {

// Writes the text of [diags] to [out], with snippets from [source] and the
// block [context] of a byte offset, styled by [options].
void write(const Diagnostics& diags, const Source* source,
           std::function<std::string(uint32_t)> context, const TextOptions& options,
           const diag::TextSink& out) {
  diag::SnippetFiles files;
  if (source != nullptr) files.emplace(source->name(), diag::SnippetFile{source->text(), context});
  diag::TextStyle style;
  style.width = options.width;
  style.color = options.color;
  diag::write_text(diags, files, style, out);
}

}  // namespace

std::string diagnostics_text(const Diagnostics& diags, const Source* source,
                             const TextOptions& options) {
  std::string text;
  write(diags, source, nullptr, options, [&text](std::string_view s) { text.append(s); });
  return text;
}

std::string diagnostics_text(const Diagnostics& diags, const Source* source,
                             const std::function<std::string(uint32_t)>& context,
                             const TextOptions& options) {
  std::string text;
  write(diags, source, context, options, [&text](std::string_view s) { text.append(s); });
  return text;
}

void write_diagnostics_text(const Diagnostics& diags, const Source* source,
                            const TextOptions& options,
                            const std::function<void(std::string_view)>& out) {
  write(diags, source, nullptr, options, out);
}

void write_diagnostics_text(const Diagnostics& diags, const Source* source,
                            const std::function<std::string(uint32_t)>& context,
                            const TextOptions& options,
                            const std::function<void(std::string_view)>& out) {
  write(diags, source, context, options, out);
}

std::string diagnostics_json(const Diagnostics& diags) { return diag::render_json(diags); }

}  // namespace hclvm

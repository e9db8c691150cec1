// The public face of the diagnostic renderers (hclvm/render.h).
#include "diag/render.h"
#include "hclvm/render.h"

namespace hclvm {

namespace {

std::string text(const Diagnostics& diags, const Source* source,
                 std::function<std::string(uint32_t)> context, const TextOptions& options) {
  diag::SnippetFiles files;
  if (source != nullptr) files.emplace(source->name(), diag::SnippetFile{source->text(), context});
  diag::TextStyle style;
  style.width = options.width;
  style.color = options.color;
  return diag::render_text(diags, files, style);
}

}  // namespace

std::string diagnostics_text(const Diagnostics& diags, const Source* source,
                             const TextOptions& options) {
  return text(diags, source, nullptr, options);
}

std::string diagnostics_text(const Diagnostics& diags, const CompiledFile& file,
                             const TextOptions& options) {
  return text(
      diags, file.source.get(), [&file](uint32_t byte) { return file.context(byte); }, options);
}

std::string diagnostics_json(const Diagnostics& diags) { return diag::render_json(diags); }

}  // namespace hclvm

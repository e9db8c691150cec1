// Source files and the mapping from byte offsets to reference positions.
// Lines are counted at every "\n"; columns count grapheme clusters from the
// start of the line, as the reference's scanner does. A leading UTF-8 BOM
// keeps its three bytes in offsets but takes no column.
#include <hclvm/syntax.h>

#include <utf8proc.h>

#include <algorithm>
#include <cstring>

namespace hclvm {

Source::Source(std::string name, std::string bytes) : name_(std::move(name)), bytes_(std::move(bytes)) {
  if (bytes_.size() >= 3 && bytes_.compare(0, 3, "\xEF\xBB\xBF") == 0) bom_ = 3;
  line_starts_.push_back(0);
  const char* base = bytes_.data();
  const char* end = base + bytes_.size();
  for (const char* p = base; (p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)))) != nullptr; ++p)
    line_starts_.push_back(uint32_t(p - base + 1));
}

// Counts grapheme clusters in [s], which starts at byte [base] of the file;
// each invalid byte counts as one, and clusters also break at [breaks].
static uint32_t count_clusters(std::string_view s, uint32_t base, const std::vector<uint32_t>& breaks) {
  auto next_break = std::lower_bound(breaks.begin(), breaks.end(), base + 1);
  uint32_t n = 0;
  int32_t prev = -1;
  int32_t state = 0;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  utf8proc_ssize_t left = utf8proc_ssize_t(s.size());
  while (left > 0) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t len = utf8proc_iterate(p, left, &cp);
    if (len <= 0) {  // invalid byte: a cluster of its own
      ++n;
      prev = -1;
      state = 0;
      p += 1;
      left -= 1;
      continue;
    }
    uint32_t at = base + uint32_t(p - reinterpret_cast<const utf8proc_uint8_t*>(s.data()));
    bool forced = next_break != breaks.end() && *next_break == at;
    if (forced) ++next_break;
    if (prev < 0 || forced || utf8proc_grapheme_break_stateful(prev, cp, &state)) ++n;
    if (forced) state = 0;
    prev = cp;
    p += len;
    left -= len;
  }
  return n;
}

static const std::vector<uint32_t> kNoBreaks;

Pos Source::pos(uint32_t byte) const {
  if (byte > bytes_.size()) byte = uint32_t(bytes_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte);
  uint32_t line = uint32_t(it - line_starts_.begin());
  uint32_t start = std::max(line_starts_[line - 1], line == 1 ? bom_ : 0u);
  uint32_t col = 1;
  if (byte > start) col += count_clusters(std::string_view(bytes_).substr(start, byte - start), start,
                                             has_breaks_.load(std::memory_order_acquire) ? breaks_ : kNoBreaks);
  return Pos{line, col, byte};
}

void Source::set_cluster_breaks(std::vector<uint32_t> breaks) const {
  std::call_once(breaks_once_, [&] {
    breaks_ = std::move(breaks);
    has_breaks_.store(true, std::memory_order_release);
  });
}

Range Source::range(ast::Span span) const {
  return Range{name_, pos(span.begin), pos(span.end)};
}

std::shared_ptr<const Source> make_source(std::string name, std::string bytes) {
  return std::make_shared<const Source>(std::move(name), std::move(bytes));
}

}  // namespace hclvm

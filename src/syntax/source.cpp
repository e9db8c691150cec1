// Source files and the mapping from byte offsets to reference positions.
// Lines are counted at every "\n"; columns count grapheme clusters from the
// start of the line the way the reference's scanner does: characters as
// go-textseg reads them, and clusters never spanning two tokens (the index
// records where tokens start next to non-ASCII bytes). A leading UTF-8 BOM
// keeps its three bytes in offsets but takes no column.
#include <hclvm/syntax.h>

#include <utf8proc.h>

#include "syntax/token.h"
#include "util/unicode.h"

#include <algorithm>
#include <cstring>

namespace hclvm {

namespace {

// Where a walk along a line stopped: continuing from here gives the same
// count as starting over from the line's start.
struct Walk {
  uint64_t source = 0;  // the Source's id, 0 for none
  uint32_t line_start = 0, at = 0, col = 1;
  int32_t prev = -1, state = 0;
  size_t next_break = 0;  // index of the first cluster break at or after `at`
};

// Walks along the line most recently asked about on this thread, saved
// every 256 bytes: a query walks at most that far from a saved one, so many
// errors on one long line (in any order) cost one pass over it.
struct LineWalks {
  std::vector<Walk> saved;  // sorted by `at`; saved[0] is the line start
};
thread_local LineWalks line_walks;
constexpr uint32_t kWalkStride = 256;

std::atomic<uint64_t> next_source_id{1};

// Advances [w] to byte [to] of [text] (no newline in between; a character
// that straddles [to] is taken whole), counting clusters as go-textseg does
// and also breaking them at [breaks].
void walk_to(Walk& w, std::string_view text, uint32_t to, const std::vector<uint32_t>& breaks) {
  const auto* base = reinterpret_cast<const unsigned char*>(text.data());
  while (w.at < to) {
    int32_t cp;
    size_t len = uni::textseg_char(base + w.at, base + text.size(), cp);
    bool forced = w.next_break < breaks.size() && breaks[w.next_break] == w.at;
    if (forced) ++w.next_break;
    if (len == 0) {  // a stray byte: a cluster nothing joins
      ++w.col;
      w.prev = -1;
      w.state = 0;
      ++w.at;
      continue;
    }
    if (forced) w.state = 0;
    if (cp < 0x80 && w.prev >= 0 && w.prev < 0x80 && !(w.prev == '\r' && cp == '\n')) {
      ++w.col;  // between two ASCII characters there is always a break, but in CR LF
      w.state = 0;
    } else if (w.prev < 0 || forced || utf8proc_grapheme_break_stateful(w.prev, cp, &w.state)) {
      ++w.col;
    }
    w.prev = cp;
    w.at += uint32_t(len);
  }
}

}  // namespace

struct Source::Index {
  std::vector<uint32_t> line_starts;
  // Per line, how many of its first bytes are ASCII other than CR: there
  // every byte is a cluster of its own, so a column is an offset + 1.
  // Empty when the whole text is such (plain): most files.
  std::vector<uint32_t> ascii_prefix;
  bool plain = false;
  std::vector<uint32_t> breaks;  // token starts next to a non-ASCII byte
};

Source::Source(std::string name, std::string bytes)
    : name_(std::move(name)), bytes_(std::move(bytes)), id_(next_source_id.fetch_add(1)) {
  if (bytes_.size() >= 3 && bytes_.compare(0, 3, "\xEF\xBB\xBF") == 0) bom_ = 3;
}

Source::Source(std::string name, std::string bytes, Pos start)
    : Source(std::move(name), std::move(bytes)) {
  start_ = start;
}

Source::~Source() { delete index_.load(std::memory_order_acquire); }

const Source::Index& Source::index() const {
  if (const Index* ix = index_.load(std::memory_order_acquire)) return *ix;
  std::lock_guard<std::mutex> lock(index_mu_);
  if (const Index* ix = index_.load(std::memory_order_acquire)) return *ix;
  auto* ix = new Index;
  ix->line_starts.push_back(0);
  const char* base = bytes_.data();
  const char* end = base + bytes_.size();
  for (const char* p = base; (p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)))) != nullptr; ++p)
    ix->line_starts.push_back(uint32_t(p - base + 1));
  // ASCII without CR: eight bytes at a time, no table per line.
  ix->plain = uni::all_ascii(bytes_) && std::memchr(base, '\r', bytes_.size()) == nullptr;
  bool ascii = true;
  if (!ix->plain) ix->ascii_prefix.reserve(ix->line_starts.size());
  for (size_t i = 0; !ix->plain && i < ix->line_starts.size(); ++i) {
    const char* p = base + ix->line_starts[i];
    const char* q = p;
    while (q < end && *q != '\n' && *q != '\r' && static_cast<unsigned char>(*q) < 0x80) ++q;
    ix->ascii_prefix.push_back(uint32_t(q - p));
    if (q < end && static_cast<unsigned char>(*q) >= 0x80) ascii = false;
    // The rest of the line (after a CR or a non-ASCII byte) for the check.
    while (ascii && q < end && *q != '\n') ascii = static_cast<unsigned char>(*q++) < 0x80;
  }
  // Scanning again costs far less than keeping every parse's tokens, and
  // only files with diagnostics get here; text that is all ASCII has no
  // token next to a non-ASCII byte.
  if (!ascii) {
    syntax::Tokens toks =
        syntax::scan(bytes_, template_ ? syntax::ScanMode::Template : syntax::ScanMode::Normal);
    ix->breaks = syntax::token_boundaries(toks, bytes_);
  }
  index_.store(ix, std::memory_order_release);
  return *ix;
}

Pos Source::pos(uint32_t byte) const {
  if (byte > bytes_.size()) byte = uint32_t(bytes_.size());
  const Index& ix = index();
  auto it = std::upper_bound(ix.line_starts.begin(), ix.line_starts.end(), byte);
  uint32_t line = uint32_t(it - ix.line_starts.begin());
  uint32_t start = std::max(ix.line_starts[line - 1], line == 1 ? bom_ : 0u);
  if (byte <= start) return shifted(Pos{line, 1, byte});
  if (ix.plain || byte - ix.line_starts[line - 1] <= ix.ascii_prefix[line - 1])  // no BOM there: not ASCII
    return shifted(Pos{line, byte - start + 1, byte});
  const std::vector<uint32_t>& breaks = ix.breaks;
  std::vector<Walk>& saved = line_walks.saved;
  if (saved.empty() || saved[0].source != id_ || saved[0].line_start != start) {
    size_t first = size_t(std::lower_bound(breaks.begin(), breaks.end(), start) - breaks.begin());
    saved.assign(1, Walk{id_, start, start, 1, -1, 0, first});
  }
  auto from = std::upper_bound(saved.begin(), saved.end(), byte, [](uint32_t b, const Walk& w) { return b < w.at; });
  Walk w = *(from - 1);
  if (from == saved.end()) {  // beyond the saved walks: extend them
    while (byte - w.at > kWalkStride) {
      walk_to(w, bytes_, w.at + kWalkStride, breaks);
      saved.push_back(w);
    }
  }
  walk_to(w, bytes_, byte, breaks);
  return shifted(Pos{line, w.col, byte});
}

Pos Source::shifted(Pos p) const {
  if (start_ == Pos{}) return p;
  // The first line continues the start's line; later ones begin at column 1.
  if (p.line == 1) p.column += start_.column - 1;
  p.line += start_.line - 1;
  p.byte += start_.byte;
  return p;
}

Range Source::range(ast::Span span) const {
  return Range{name_, pos(span.begin), pos(span.end)};
}

std::shared_ptr<const Source> make_source(std::string name, std::string bytes) {
  return std::make_shared<const Source>(std::move(name), std::move(bytes));
}

std::shared_ptr<const Source> make_source(std::string name, std::string bytes, Pos start) {
  return std::make_shared<const Source>(std::move(name), std::move(bytes), start);
}

}  // namespace hclvm

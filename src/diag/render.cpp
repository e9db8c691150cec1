// Text and JSON rendering of diagnostics, and the reference's compact range
// format. Each piece imitates one part of the Go reference byte for byte:
// the text writer (hcl's diagnostic_text.go), its line scanner (bufio's
// ScanLines over grapheme clusters), its word wrapper (go-wordwrap), Go's
// %q quoting for block labels and encoding/json's string escaping for the
// JSON form. Where those differ from what one might write from scratch the
// reference's behaviour is kept on purpose and explained where it happens.
#include "diag/render.h"

#include "util/unicode.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

namespace hclvm {

std::string range_string(const Range& r) {
  std::string out = r.filename;
  char buf[64];
  if (r.start.line == r.end.line)
    std::snprintf(buf, sizeof buf, ":%u,%u-%u", r.start.line, r.start.column, r.end.column);
  else
    std::snprintf(buf, sizeof buf, ":%u,%u-%u,%u", r.start.line, r.start.column, r.end.line,
                  r.end.column);
  return out + buf;
}

std::string diagnostics_error(const Diagnostics& diags) {
  if (diags.empty()) return "no diagnostics";
  const Diagnostic& d = diags.front();
  std::string s =
      (d.subject ? range_string(*d.subject) : "<nil>") + ": " + d.summary + "; " + d.detail;
  if (diags.size() > 1) s += ", and " + std::to_string(diags.size() - 1) + " other diagnostic(s)";
  return s;
}

}  // namespace hclvm

namespace hclvm::diag {
namespace {

// One line of a file as the reference's snippet scanner sees it.
struct Line {
  uint32_t number;
  uint32_t begin, end;  // the line's bytes, without its \n or \r\n
};

// The lines of [src] as the reference's scanner numbers them: built once per
// file, so that rendering many diagnostics of one big file costs a search
// per diagnostic, not a scan of the whole file.
std::vector<Line> index_lines(std::string_view src) {
  std::vector<Line> lines;
  auto size = static_cast<uint32_t>(src.size());
  uint32_t pos = 0, number = 1;
  while (pos < size) {
    // bufio.ScanLines: a line ends at \n; one \r before it (or before the
    // end of the file) is dropped.
    size_t nl = src.find('\n', pos);
    uint32_t next = nl == std::string_view::npos ? size : static_cast<uint32_t>(nl) + 1;
    uint32_t end = nl == std::string_view::npos ? size : static_cast<uint32_t>(nl);
    if (end > pos && src[end - 1] == '\r') --end;
    lines.push_back(Line{number, pos, end});
    // The scanner counts a line for every grapheme cluster that starts with
    // \r or \n: \r\n is one cluster, but a lone \r inside the line counts
    // too, so line numbers follow the reference even in odd files.
    for (uint32_t i = pos; i < next; ++i) {
      if (src[i] == '\r') {
        ++number;
        if (i + 1 < next && src[i + 1] == '\n') ++i;
      } else if (src[i] == '\n') {
        ++number;
      }
    }
    pos = next;
  }
  return lines;
}

// Reports whether [b] lies in [begin, end).
bool contains(uint32_t begin, uint32_t end, uint32_t b) { return b >= begin && b < end; }

// Reports whether byte ranges [a0,a1) and [b0,b1) overlap by the
// reference's Range.Overlaps. It is looser than real intersection: a range
// that ends exactly where a line starts still "overlaps" it, which is why a
// subject ending at the start of the next line shows that line too.
bool overlaps(uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
  if (a0 == a1 || b0 == b1) return false;
  return contains(a0, a1, b0) || contains(a0, a1, b1) || contains(b0, b1, a0) ||
         contains(b0, b1, a1);
}

// Writes the "  on FILE line N, in CTX:" header and the snippet of [d].
void write_snippet(std::string& out, const Diagnostic& d, const SnippetFile& file,
                   const std::vector<Line>& lines, const char* highlight, const char* reset) {
  const Range& subject = *d.subject;
  uint32_t snip0 = subject.start.byte, snip1 = subject.end.byte;
  uint32_t hl0 = snip0, hl1 = snip1;
  if (d.context) {
    // The reference's RangeOver: an empty range on either side is ignored.
    const Range& c = *d.context;
    if (snip0 == snip1) {
      snip0 = c.start.byte;
      snip1 = c.end.byte;
    } else if (c.start.byte != c.end.byte) {
      if (c.start.byte <= snip0) snip0 = c.start.byte;
      if (c.end.byte >= snip1) snip1 = c.end.byte;
    }
  }
  // An empty range cannot be shown, so it grows to one byte, which may lie
  // past the end of the line or of the file; the bounds checks cope.
  if (snip0 == snip1) ++snip1;
  if (hl0 == hl1) ++hl1;
  // A range the evaluator never makes (end before start, as a damaged
  // compiled file could hold) shows its start only.
  if (snip1 < snip0) snip1 = snip0 + 1;
  if (hl1 < hl0) hl1 = hl0 + 1;

  std::string ctx = file.context ? file.context(subject.start.byte) : std::string();
  out += "  on ";
  out += subject.filename;
  out += " line ";
  out += std::to_string(subject.start.line);
  if (!ctx.empty()) {
    out += ", in ";
    out += ctx;
  }
  out += ":\n";

  std::string_view src = file.bytes;
  // Lines ending before the snippet begins cannot overlap it, nor can lines
  // beginning after it ends.
  auto first = std::partition_point(lines.begin(), lines.end(),
                                    [snip0](const Line& l) { return l.end < snip0; });
  for (auto it = first; it != lines.end() && it->begin <= snip1; ++it) {
    const Line& line = *it;
    // Empty lines never overlap anything, so a blank line in the middle of
    // a multi-line snippet is left out, as the reference does.
    if (!overlaps(line.begin, line.end, snip0, snip1)) continue;
    char num[16];
    std::snprintf(num, sizeof num, "%4u: ", line.number);
    out += num;
    uint32_t o0 = std::min(line.begin > hl0 ? line.begin : hl0, line.end);
    uint32_t o1 = std::max(line.end < hl1 ? line.end : hl1, o0);
    if (!overlaps(line.begin, line.end, hl0, hl1) || o0 == o1) {
      out.append(src.substr(line.begin, line.end - line.begin));
    } else {
      out.append(src.substr(line.begin, o0 - line.begin));
      out += highlight;
      out.append(src.substr(o0, o1 - o0));
      out += reset;
      out.append(src.substr(o1, line.end - o1));
    }
    out += '\n';
  }
  out += '\n';
}

// The line index of each file a rendering has needed so far.
using LineIndexes = std::map<const SnippetFile*, std::vector<Line>>;

// Appends the text form of [d] to [out], taking snippets from [files].
void append_text(std::string& out, const Diagnostic& d, const SnippetFiles& files,
                 LineIndexes& indexes, const TextStyle& style) {
  const char* color = "";
  const char* highlight = "";
  const char* reset = "";
  if (style.color) {
    color = d.severity == Severity::Error ? "\x1b[31m" : "\x1b[33m";
    highlight = "\x1b[1;4m";
    reset = "\x1b[0m";
  }
  out += color;
  out += d.severity == Severity::Error ? "Error" : "Warning";
  out += reset;
  out += ": ";
  out += d.summary;
  out += "\n\n";

  if (d.subject) {
    auto it = files.find(d.subject->filename);
    if (it == files.end()) {
      out += "  on " + d.subject->filename + " line " + std::to_string(d.subject->start.line) +
             ":\n  (source code not available)\n\n";
    } else {
      const SnippetFile& file = it->second;
      auto [at, fresh] = indexes.try_emplace(&file);
      if (fresh) at->second = index_lines(file.bytes);
      write_snippet(out, d, file, at->second, highlight, reset);
    }
    for (size_t i = 0; i < d.expression_values.size(); ++i) {
      out += i == 0 ? "with " : "     ";
      out += d.expression_values[i];
      out += i + 1 == d.expression_values.size() ? ".\n\n" : ",\n";
    }
  }

  if (!d.detail.empty()) {
    out += style.width ? wrap_words(d.detail, style.width) : d.detail;
    out += "\n\n";
  }
}

}  // namespace

void write_text(const Diagnostics& diags, const SnippetFiles& files, const TextStyle& style,
                const TextSink& sink) {
  std::string piece;
  LineIndexes indexes;
  for (const auto& d : diags) {
    append_text(piece, d, files, indexes, style);
    if (piece.size() >= kTextPiece) {
      sink(piece);
      piece.clear();
    }
  }
  if (!piece.empty()) sink(piece);
}

std::string render_text(const Diagnostics& diags, const SnippetFiles& files,
                        const TextStyle& style) {
  std::string out;
  write_text(diags, files, style, [&out](std::string_view s) { out.append(s); });
  return out;
}

namespace {

// Appends a Pos object at indentation [ind] as json.MarshalIndent does.
void json_pos(std::string& out, const Pos& p, const std::string& ind) {
  out += "{\n";
  out += ind + "  \"line\": " + std::to_string(p.line) + ",\n";
  out += ind + "  \"column\": " + std::to_string(p.column) + ",\n";
  out += ind + "  \"byte\": " + std::to_string(p.byte) + "\n";
  out += ind + "}";
}

}  // namespace

std::string render_json(const Diagnostics& diags) {
  // Field order and omissions follow hcldec's DiagnosticJSON: detail and
  // subject are omitempty, and the context range is not part of the shape.
  std::string out = "{\n  \"diagnostics\": [";
  if (diags.empty()) return out + "]\n}\n";
  for (size_t i = 0; i < diags.size(); ++i) {
    const Diagnostic& d = diags[i];
    out += i == 0 ? "\n" : ",\n";
    out += "    {\n";
    out += "      \"severity\": ";
    out += d.severity == Severity::Error ? "\"error\"" : "\"warning\"";
    out += ",\n      \"summary\": " + json_string(d.summary);
    if (!d.detail.empty()) out += ",\n      \"detail\": " + json_string(d.detail);
    if (d.subject) {
      const Range& r = *d.subject;
      out += ",\n      \"subject\": {\n";
      out += "        \"filename\": " + json_string(r.filename) + ",\n";
      out += "        \"start\": ";
      json_pos(out, r.start, "        ");
      out += ",\n        \"end\": ";
      json_pos(out, r.end, "        ");
      out += "\n      }";
    }
    out += "\n    }";
  }
  out += "\n  ]\n}\n";
  return out;
}

std::string native_context(const ast::Body& root, uint32_t byte) {
  // Like the reference's navigation, only top-level blocks count, and the
  // first one whose range (type keyword to closing brace) holds the offset.
  // Top-level blocks follow one another in the file, so the only candidate
  // is the first that ends after the offset.
  const ast::Block* const* b = std::partition_point(
      root.blocks.begin(), root.blocks.end(),
      [byte](const ast::Block* x) { return x->span.end <= byte; });
  if (b == root.blocks.end() || !contains((*b)->span.begin, (*b)->span.end, byte)) return "";
  std::string out((*b)->type);
  for (std::string_view label : (*b)->labels) {
    out += ' ';
    out += uni::go_quote(label);
  }
  return out;
}

std::string json_context(const json::Node& root, uint32_t byte) {
  // Down from the root, into the first object or array member holding the
  // offset; scalars end the path. Members follow one another in the file,
  // so the only candidate at each level is the first ending after the
  // offset.
  auto holds = [byte](const json::Node* n) {
    return (n->kind == json::NodeKind::Object || n->kind == json::NodeKind::Array) &&
           n->start.byte <= byte && byte < n->end.byte;
  };
  std::string out;
  const json::Node* n = &root;
  for (;;) {
    const json::Node* next = nullptr;
    if (n->kind == json::NodeKind::Object) {
      const auto& props = json::as<json::ObjectNode>(*n).properties;
      const json::Property* p =
          std::partition_point(props.begin(), props.end(), [byte](const json::Property& x) {
            return x.value->end.byte <= byte;
          });
      if (p != props.end() && holds(p->value)) {
        out += '.';
        out += p->name->value;
        next = p->value;
      }
    } else if (n->kind == json::NodeKind::Array) {
      const auto& items = json::as<json::ArrayNode>(*n).items;
      json::Node* const* it = std::partition_point(
          items.begin(), items.end(), [byte](const json::Node* x) { return x->end.byte <= byte; });
      if (it != items.end() && holds(*it)) {
        out += "[" + std::to_string(it - items.begin()) + "]";
        next = *it;
      }
    }
    if (next == nullptr) break;
    n = next;
  }
  if (!out.empty() && out[0] == '.') out.erase(0, 1);
  return out;
}

std::string json_string(std::string_view s) {
  // hcldec was built with a Go older than 1.22: \b and \f as u-escapes.
  std::string out;
  uni::append_json_quoted(out, s, uni::JsonQuoting{.short_bf = false});
  return out;
}

std::string wrap_words(std::string_view s, unsigned width) {
  // Words and the spaces before them are buffered; a word is written once
  // the next space or newline shows where it ends. Lengths count code
  // points. When a word would cross the limit (and is shorter than the
  // limit) the pending spaces are replaced by a newline. A no-break space
  // is part of a word.
  std::string out, word, space;
  unsigned current = 0, word_len = 0, space_len = 0;
  auto flush = [&] {
    out += space;
    out += word;
    space.clear();
    word.clear();
    space_len = word_len = 0;
  };
  for (size_t i = 0; i < s.size();) {
    // An invalid byte is a U+FFFD of one byte, as Go decodes it.
    uni::Rune r = uni::decode(s, i);
    char32_t c = r.cp;
    i += r.len;
    if (c == '\n') {
      if (word.empty()) {
        // Trailing spaces that would overflow the line are dropped.
        if (current + space_len <= width) out += space;
        space.clear();
        space_len = 0;
      } else {
        flush();
      }
      out += '\n';
      current = 0;
    } else if (uni::is_space(c) && c != 0xA0) {
      if (space.empty() || !word.empty()) {
        current += space_len + word_len;
        flush();
      }
      uni::append_utf8(space, c);
      ++space_len;
    } else {
      uni::append_utf8(word, c);
      ++word_len;
      if (current + word_len + space_len > width && word_len < width) {
        out += '\n';
        current = 0;
        space.clear();
        space_len = 0;
      }
    }
  }
  if (word.empty()) {
    if (current + space_len <= width) out += space;
  } else {
    flush();
  }
  return out;
}

}  // namespace hclvm::diag

// Decoding of string literal tokens: the reference's ParseStringLiteralToken
// over its scanStringLit slicer. A token is first cut into slices (plain
// text, one escape, one `$`/`%` run, one newline), exactly where the
// reference's Ragel machine cuts it, and each slice is then decoded. The
// cuts matter beyond the decoded text: `$$${` keeps all its dollars because
// the machine takes `$$` greedily, and the line:column of a bad escape is
// counted slice by slice in grapheme clusters.
#include "syntax/builder.h"
#include "util/unicode.h"

#include <string>
#include <vector>

namespace hclvm::syntax {

namespace {

// Returns the length of the sequence the reference's AnyUTF8 pattern
// accepts at byte [i] of [s] (a lead byte and the right number of
// continuation bytes, without Go's overlong or surrogate checks), or 0 when
// the lead byte cannot start one. [*bad] is set to the offset of the first
// byte that breaks a started sequence (s.size() when input runs out).
size_t any_utf8_len(std::string_view s, size_t i, size_t* bad) {
  auto b = static_cast<unsigned char>(s[i]);
  size_t need;
  if (b < 0x80) return 1;
  if (b >= 0xC0 && b <= 0xDF) need = 1;
  else if (b >= 0xE0 && b <= 0xEF) need = 2;
  else if (b >= 0xF0 && b <= 0xF7) need = 3;
  else return 0;
  for (size_t k = 1; k <= need; ++k) {
    if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
      *bad = i + k < s.size() ? i + k : s.size();
      return 0;
    }
  }
  return need + 1;
}

// Reports whether [c] is a hexadecimal digit.
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Cuts [s] into the reference's slices; escapes are recognised only when
// [quoted]. A `\` followed by a broken multi-byte sequence makes the
// reference's machine stop: it then emits the text from the end of the last
// complete escape up to the broken byte (repeating any plain text already
// emitted) and everything after it, and so do we.
std::vector<std::string_view> slice_literal(std::string_view s, bool quoted) {
  std::vector<std::string_view> out;
  size_t te = 0;  // end of the last escape or newline slice
  size_t i = 0;
  auto token = [&](size_t begin, size_t end) {
    if (te < begin) out.push_back(s.substr(te, begin - te));
    out.push_back(s.substr(begin, end - begin));
    te = end;
  };
  while (i < s.size()) {
    char c = s[i];
    size_t j = i + 1;
    if (quoted && c == '\\') {
      if (j < s.size() && (s[j] == 'u' || s[j] == 'U')) {
        size_t max = s[j] == 'u' ? 4 : 8;
        ++j;
        for (size_t k = 0; k < max && j < s.size() && is_hex(s[j]); ++k) ++j;
      } else if (j < s.size()) {
        size_t bad = 0;
        size_t n = any_utf8_len(s, j, &bad);
        if (n == 0 && bad != 0) {
          // The machine is stuck inside the sequence after the backslash.
          if (te < i) out.push_back(s.substr(te, i - te));
          if (te < bad) out.push_back(s.substr(te, bad - te));
          if (bad < s.size()) out.push_back(s.substr(bad));
          return out;
        }
        j += n;
      }
      token(i, j);
    } else if (c == '$' || c == '%') {
      if (j < s.size() && s[j] == c) {
        ++j;
        if (j < s.size() && s[j] == '{') ++j;
      }
      token(i, j);
    } else if (c == '\r') {
      if (j < s.size() && s[j] == '\n') ++j;
      token(i, j);
    } else if (c == '\n') {
      token(i, j);
    } else {
      i = j;
      continue;
    }
    i = j;
  }
  if (te < s.size()) out.push_back(s.substr(te));
  return out;
}

// Formats [n] as Go's "%04x" does.
std::string hex4(uint64_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[n & 15]);
    n >>= 4;
  } while (n != 0);
  while (out.size() < 4) out.insert(out.begin(), '0');
  return out;
}

// Moves [p] over [slice] as the reference moves a diagnostic range: one
// column per grapheme cluster, a new line at each cluster that starts with
// a carriage return or a line feed.
void advance(Pos& p, std::string_view slice) {
  for (size_t i = 0; i < slice.size();) {
    size_t n = uni::grapheme_len(slice, i);
    if (slice[i] == '\r' || slice[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
    p.byte += uint32_t(n);
    i += n;
  }
}

}  // namespace

// Decodes token [tok] (see builder.h): escapes only when [quoted].
std::string_view Builder::decode_literal(Span tok, bool quoted) {
  std::string_view raw = text(tok);
  // Most literals have nothing to decode: hand out the source bytes.
  bool plain = (!quoted || raw.find('\\') == std::string_view::npos) &&
               raw.find("$${") == std::string_view::npos && raw.find("%%{") == std::string_view::npos;
  if (plain) return raw;

  std::string out;
  out.reserve(raw.size());
  // Positions are only needed for a bad escape; they are walked slice by
  // slice as the reference does, from the token's start, once one occurs.
  std::vector<std::string_view> slices = slice_literal(raw, quoted);
  bool tracking = false;
  Pos start{}, end{};
  auto bad_escape = [&](std::string detail, std::string_view slice) {
    if (!tracking) {
      tracking = true;
      end = src_.pos(tok.begin);
      for (std::string_view before : slices) {
        if (before.data() == slice.data()) break;
        if (!before.empty()) advance(end, before);
      }
      start = end;
      advance(end, slice);
    }
    fail();
    diags_.push_back(Diagnostic{Severity::Error, "Invalid escape sequence", std::move(detail),
                                Range{src_.name(), start, end}, std::nullopt});
  };

  for (std::string_view slice : slices) {
    if (slice.empty()) continue;
    if (tracking) {
      start = end;
      advance(end, slice);
    }

    if (slice[0] == '\\' && quoted) {
      if (slice.size() < 2) {
        bad_escape("Backslash must be followed by an escape sequence selector character.", slice);
        out += slice;
        continue;
      }
      switch (slice[1]) {
        case 'n': out += '\n'; continue;
        case 'r': out += '\r'; continue;
        case 't': out += '\t'; continue;
        case '"': out += '"'; continue;
        case '\\': out += '\\'; continue;
        case 'u':
        case 'U': {
          bool is_short = slice[1] == 'u';
          if (slice.size() != (is_short ? 6u : 10u)) {
            bad_escape(is_short ? "The \\u escape sequence must be followed by four hexadecimal digits."
                                : "The \\U escape sequence must be followed by eight hexadecimal digits.",
                       slice);
            out += slice;
            continue;
          }
          uint64_t num = std::stoull(std::string(slice.substr(2)), nullptr, 16);
          // Go converts to a 32-bit rune first, so anything past U+10FFFF
          // and the surrogates fail to encode.
          if (num > 0x10FFFF || (num >= 0xD800 && num <= 0xDFFF)) {
            bad_escape("Cannot encode character U+" + hex4(num) + " in UTF-8.", slice);
            out += slice;
            continue;
          }
          uni::append_utf8(out, char32_t(num));
          continue;
        }
        default:
          bad_escape("The symbol " + uni::go_quote(slice.substr(1)) + " is not a valid escape sequence selector.",
                     slice);
          out += slice.substr(1);
          continue;
      }
    }
    if ((slice[0] == '$' || slice[0] == '%') && slice.size() == 3 && slice[1] == slice[0] && slice[2] == '{') {
      out += slice[0];
      out += '{';
      continue;
    }
    out += slice;
  }
  return a_.copy(out);
}

// Joins the decoded QuotedLit tokens [lits] of one block label.
std::string_view Builder::label_text(const std::vector<Span>& lits) {
  if (lits.empty()) return {};
  if (lits.size() == 1) return decode_literal(lits[0], true);
  std::string out;
  for (Span s : lits) out += decode_literal(s, true);
  return a_.copy(out);
}

}  // namespace hclvm::syntax

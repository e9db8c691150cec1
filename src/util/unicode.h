// Small Unicode helpers that reproduce Go library behaviour the reference
// depends on: utf8.DecodeRune (strict: one byte per error) and
// utf8.EncodeRune, unicode.IsSpace (what strip markers and `<<-` heredocs
// trim), textseg's grapheme cluster scanning (what columns and `<<-`
// indentation count), strconv.Quote (the `%q` in diagnostic details) and
// encoding/json's string escaping. Header-only so that every syntax file
// can use them without another library target. Shared by the syntax,
// diagnostic and value layers.
#pragma once

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::uni {

// One decoded code point: [len] bytes long; [ok] is false for an invalid
// byte, which Go decodes as U+FFFD of width 1.
struct Rune {
  char32_t cp;
  uint32_t len;
  bool ok;
};

// Decodes the code point at byte [i] of [s] as Go's utf8.DecodeRune does.
inline Rune decode(std::string_view s, size_t i) {
  utf8proc_int32_t cp = 0;
  auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                            utf8proc_ssize_t(s.size() - i), &cp);
  if (n <= 0) return {0xFFFD, 1, false};
  return {char32_t(cp), uint32_t(n), true};
}

// Reports whether [s] is all ASCII (every byte below 0x80), eight bytes
// at a time.
inline bool all_ascii(std::string_view s) {
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (w & 0x8080808080808080ULL) return false;
  }
  for (; i < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) return false;
  return true;
}

// Reports whether [s] is entirely valid UTF-8, as Go's utf8.ValidString
// decides (no surrogates, no overlong forms, nothing past U+10FFFF).
inline bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    // Eight ASCII bytes at a time.
    if (i + 8 <= s.size()) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    Rune r = decode(s, i);
    if (!r.ok) return false;
    i += r.len;
  }
  return true;
}

// Appends code point [r] to [out] in UTF-8 (utf8.EncodeRune for a valid
// code point; the caller checks validity where input may be invalid).
inline void append_utf8(std::string& out, char32_t r) {
  if (r < 0x80) {
    out += char(r);
  } else if (r < 0x800) {
    out += char(0xC0 | (r >> 6));
    out += char(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += char(0xE0 | (r >> 12));
    out += char(0x80 | ((r >> 6) & 0x3F));
    out += char(0x80 | (r & 0x3F));
  } else {
    out += char(0xF0 | (r >> 18));
    out += char(0x80 | ((r >> 12) & 0x3F));
    out += char(0x80 | ((r >> 6) & 0x3F));
    out += char(0x80 | (r & 0x3F));
  }
}

// Appends the low [digits] hex digits of [v] to [out], in lower case or,
// with [upper], in upper case.
inline void append_hex(std::string& out, uint32_t v, int digits, bool upper = false) {
  const char* hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += hex[(v >> shift) & 15];
}

// Reports whether [r] is white space by Go's unicode.IsSpace: the Latin-1
// spaces plus the Unicode White_Space property (U+180E is not one).
inline bool is_space(char32_t r) {
  switch (r) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return r >= 0x2000 && r <= 0x200A;
  }
}

// Returns [s] without its leading white space (strings.TrimLeftFunc with
// unicode.IsSpace: an invalid byte is not a space and stops the trim).
inline std::string_view trim_left_space(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    Rune r = decode(s, i);
    if (!r.ok || !is_space(r.cp)) break;
    i += r.len;
  }
  return s.substr(i);
}

// Returns [s] without its trailing white space (strings.TrimRightFunc with
// unicode.IsSpace), decoding backwards as Go's utf8.DecodeLastRune does.
inline std::string_view trim_right_space(std::string_view s) {
  size_t end = s.size();
  while (end > 0) {
    // Find the start of the last rune: back up over at most three
    // continuation bytes, and accept it only if it decodes to exactly the
    // bytes up to [end]; otherwise the last byte alone is an error rune.
    size_t start = end - 1;
    size_t lim = end >= 4 ? end - 4 : 0;
    while (start > lim && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    Rune r = decode(s.substr(0, end), start);
    if (!r.ok || start + r.len != end) break;  // an error rune is never a space
    if (!is_space(r.cp)) break;
    end = start;
  }
  return s.substr(0, end);
}

// Returns the byte length of the grapheme cluster that starts at byte [i]
// of [s] (0 at the end). An invalid byte is a cluster of its own, as in the
// reference's segmenter.
inline size_t grapheme_len(std::string_view s, size_t i) {
  if (i >= s.size()) return 0;
  Rune first = decode(s, i);
  if (!first.ok) return 1;
  utf8proc_int32_t state = 0;
  char32_t prev = first.cp;
  size_t j = i + first.len;
  while (j < s.size()) {
    Rune r = decode(s, j);
    if (!r.ok ||
        utf8proc_grapheme_break_stateful(utf8proc_int32_t(prev), utf8proc_int32_t(r.cp), &state))
      break;
    prev = r.cp;
    j += r.len;
  }
  return j - i;
}

// Counts the grapheme clusters of [s] (textseg.TokenCount).
inline size_t count_graphemes(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += grapheme_len(s, i)) ++n;
  return n;
}

// Returns [s] in Unicode normalization form C, as Go's norm.NFC.String
// does: runs of valid UTF-8 are normalized, invalid bytes are kept as they
// are and break the runs. ASCII characters are stable boundaries of the
// normalization (they neither combine with what precedes them nor
// reorder), so only each stretch of non-ASCII characters goes through
// utf8proc, together with the ASCII character before it (which a
// combining mark may compose with); the rest is copied.
inline std::string nfc(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0, copied = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t start = i > copied ? i - 1 : i;
    out.append(s.substr(copied, start - copied));
    size_t end = i;
    while (end < s.size() && static_cast<unsigned char>(s[end]) >= 0x80) {
      Rune r = decode(s, end);
      if (!r.ok) break;
      end += r.len;
    }
    if (end > start) {
      utf8proc_uint8_t* mapped = nullptr;
      utf8proc_ssize_t n =
          utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + start),
                       utf8proc_ssize_t(end - start), &mapped,
                       utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
      if (n >= 0)
        out.append(reinterpret_cast<const char*>(mapped), size_t(n));
      else
        out.append(s.substr(start, end - start));
      std::free(mapped);
    }
    // An invalid byte stays as it is.
    if (end < s.size() && static_cast<unsigned char>(s[end]) >= 0x80) out.push_back(s[end++]);
    copied = i = end;
  }
  out.append(s.substr(copied));
  return out;
}

// Returns the Levenshtein distance between [a] and [b] with unit costs,
// counted in code points as Go's []rune sees them (an invalid byte is one
// U+FFFD): what github.com/agext/levenshtein computes for the reference's
// did-you-mean suggestions. A row of the table for a short name is on the
// stack; longer ones and the decoded runes of non-ASCII text use vectors
// per thread that keep their memory: did-you-mean runs over every name in
// scope, inside try() often enough to matter.
// levenshtein_below(a, b, limit) is the distance when it is below [limit],
// else [limit]: did-you-mean accepts only names closer than 3. Only the
// band of cells within limit - 1 of the diagonal is computed (a cell
// further out is at least its distance from the diagonal), values are
// capped at [limit], and a row whose every cell has reached it ends the
// walk (a row's minimum never decreases): a name is dismissed after a few
// cells a row, not a whole table.
// Text that is all ASCII is compared byte by byte, without decoding.
namespace detail {
template <class S>
size_t levenshtein_runes(const S& x, const S& y, size_t limit) {
  size_t nx = x.size(), ny = y.size();
  if ((nx > ny ? nx - ny : ny - nx) >= limit) return limit;
  size_t reach = limit - 1;  // how far from the diagonal a cell can be below the limit
  // One row of the table: on the stack for names, per thread beyond.
  constexpr size_t kShort = 64;
  size_t short_row[kShort];
  thread_local std::vector<size_t> long_row;
  size_t* row = short_row;
  if (ny >= kShort) {
    long_row.resize(ny + 1);
    row = long_row.data();
  }
  for (size_t j = 0; j <= ny; ++j) row[j] = std::min(j, limit);
  for (size_t i = 1; i <= nx; ++i) {
    size_t lo = i > reach ? i - reach : 1;
    size_t hi = reach >= ny || i + reach >= ny ? ny : i + reach;
    // row[lo - 1] still holds the previous row's cell: the diagonal of
    // the first cell. Its left neighbour is column 0 or outside the band.
    size_t diag = row[lo - 1];
    size_t left = lo == 1 ? std::min(i, limit) : limit;
    row[lo - 1] = left;
    size_t least = left;  // column 0 is in the row too (the whole row when y is empty)
    for (size_t j = lo; j <= hi; ++j) {
      // row[j] for j == hi may never have been written in the band of a
      // row before: it holds its first-row value, which is the limit then.
      size_t up = row[j];
      size_t cost = x[i - 1] == y[j - 1] ? 0 : 1;
      left = std::min({up + 1, left + 1, diag + cost, limit});
      row[j] = left;
      least = std::min(least, left);
      diag = up;
    }
    if (least >= limit) return limit;
  }
  return std::min(row[ny], limit);
}

// The set of bytes in [s] folded into 64 bits (byte & 63), with [ascii]
// cleared when a byte is not ASCII.
inline uint64_t byte_set(std::string_view s, bool& ascii) {
  uint64_t set = 0;
  unsigned char high = 0;
  for (char c : s) {
    auto b = static_cast<unsigned char>(c);
    high |= b;
    set |= uint64_t{1} << (b & 63);
  }
  ascii = high < 0x80;
  return set;
}

// Reports whether [set] has at least [limit] members.
inline bool at_least(uint64_t set, size_t limit) {
  size_t k = 0;
  for (; set != 0 && k < limit; ++k) set &= set - 1;
  return k >= limit;
}

// The distance of ASCII [a] (whose byte set is [in_a]) and [b] when it is
// below [limit], else [limit]; nullopt when [b] is not ASCII.
inline std::optional<size_t> ascii_distance_below(std::string_view a, uint64_t in_a,
                                                  std::string_view b, size_t limit) {
  // b has at most as many code points as bytes.
  if (b.size() <= a.size() && a.size() - b.size() >= limit) return limit;
  if (b.size() >= a.size() && b.size() - a.size() >= limit && uni::all_ascii(b)) return limit;
  bool ascii_b = false;
  uint64_t in_b = byte_set(b, ascii_b);
  if (!ascii_b) return std::nullopt;
  // Each byte of one that is nowhere in the other takes an edit: as many
  // of those as the limit (counting each folded byte once) is enough.
  if (at_least(in_b & ~in_a, limit) || at_least(in_a & ~in_b, limit)) return limit;
  return levenshtein_runes(a, b, limit);
}
// [s]'s code points into [out] as Go's []rune reads them (an invalid
// byte is one U+FFFD).
inline void decode_runes(std::string_view s, std::vector<char32_t>& out) {
  out.clear();
  for (size_t i = 0; i < s.size();) {
    Rune r = decode(s, i);
    out.push_back(r.ok ? r.cp : 0xFFFD);
    i += r.ok ? r.len : 1;
  }
}
}  // namespace detail

// [given] compared with many names (did-you-mean): what is known of it is
// worked out once.
class NearName {
 public:
  explicit NearName(std::string_view given);
  // levenshtein_below(given, name, limit).
  size_t below(std::string_view name, size_t limit) const;

 private:
  std::string_view given_;
  uint64_t set_ = 0;
  bool ascii_ = false;
  std::vector<char32_t> runes_;  // given's code points, when it is not ASCII
};

inline size_t levenshtein_below(std::string_view a, std::string_view b, size_t limit) {
  bool ascii_a = false;
  uint64_t in_a = detail::byte_set(a, ascii_a);
  if (ascii_a) {
    if (std::optional<size_t> d = detail::ascii_distance_below(a, in_a, b, limit)) return *d;
  }
  thread_local std::vector<char32_t> x, y;
  detail::decode_runes(a, x);
  detail::decode_runes(b, y);
  return detail::levenshtein_runes(x, y, limit);
}

inline NearName::NearName(std::string_view given) : given_(given) {
  set_ = detail::byte_set(given, ascii_);
  if (!ascii_) detail::decode_runes(given, runes_);
}

inline size_t NearName::below(std::string_view name, size_t limit) const {
  if (ascii_) {
    if (std::optional<size_t> d = detail::ascii_distance_below(given_, set_, name, limit)) return *d;
    return levenshtein_below(given_, name, limit);
  }
  // [name] has at most as many code points as bytes.
  if (runes_.size() > name.size() && runes_.size() - name.size() >= limit) return limit;
  thread_local std::vector<char32_t> y;
  detail::decode_runes(name, y);
  return detail::levenshtein_runes(runes_, y, limit);
}

inline size_t levenshtein(std::string_view a, std::string_view b) {
  return levenshtein_below(a, b, SIZE_MAX);
}

// Reports whether [r] is printable by Go's strconv.IsPrint: letters, marks,
// numbers, punctuation, symbols and the ASCII space.
inline bool is_print(char32_t r) {
  if (r == ' ') return true;
  switch (utf8proc_category(utf8proc_int32_t(r))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE: case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
    case UTF8PROC_CATEGORY_SM: case UTF8PROC_CATEGORY_SC: case UTF8PROC_CATEGORY_SK:
    case UTF8PROC_CATEGORY_SO:
      return true;
    default:
      return false;
  }
}

// Appends code point [c] as Go's strconv quoting writes it inside a literal
// delimited by [quote] ('"' for strings, '\'' for runes): the delimiter and
// backslash escaped, printable characters as UTF-8, the rest as \a..\v,
// \xNN, \uNNNN or \UNNNNNNNN.
inline void append_go_escaped(std::string& out, char32_t c, char quote) {
  if (c == char32_t(quote) || c == '\\') {
    out += '\\';
    out += char(c);
    return;
  }
  if (is_print(c)) {
    append_utf8(out, c);
    return;
  }
  switch (c) {
    case '\a': out += "\\a"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\v': out += "\\v"; break;
    default:
      if (c < ' ' || c == 0x7F) {
        out += "\\x";
        append_hex(out, c, 2);
      } else if (c < 0x10000) {
        out += "\\u";
        append_hex(out, c, 4);
      } else {
        out += "\\U";
        append_hex(out, c, 8);
      }
  }
}

// Decodes the quoted string literal [q] (quotes included) as written by
// Go's strconv.Quote or by a JSON encoder: \a \b \f \n \r \t \v, \xHH,
// \uXXXX (a JSON surrogate pair makes one character), \UXXXXXXXX, and
// \\ \" \' \/ for themselves. [q] must be well formed.
inline std::string unquote(std::string_view q) {
  std::string out;
  auto hex = [&](size_t at, size_t n) {
    uint32_t v = 0;
    for (size_t k = 0; k < n && at + k < q.size(); ++k) {
      char c = q[at + k];
      v = v * 16 + uint32_t(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
  };
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    if (q[i] != '\\') {
      out += q[i];
      continue;
    }
    char e = q[++i];
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x':
        out += char(hex(i + 1, 2));
        i += 2;
        break;
      case 'u': {
        char32_t cp = hex(i + 1, 4);
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && q.substr(i + 1, 2) == "\\u") {
          char32_t lo = hex(i + 3, 4);
          if (lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        append_utf8(out, cp);
        break;
      }
      case 'U':
        append_utf8(out, hex(i + 1, 8));
        i += 8;
        break;
      default:
        out += e;  // \\ \" \' \/
    }
  }
  return out;
}

// Returns [s] in double quotes, escaped as Go's strconv.Quote does (the
// `%q` verb applied to a string or byte slice).
inline std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    Rune r = decode(s, i);
    if (!r.ok) {
      out += "\\x";
      append_hex(out, static_cast<unsigned char>(s[i]), 2);
      i += 1;
      continue;
    }
    append_go_escaped(out, r.cp, '"');
    i += r.len;
  }
  out += '"';
  return out;
}

// Which escapes append_json_quoted() writes. The defaults are Go's
// encoding/json (json.Marshal, Go 1.22 and later); the others describe
// older Go and the text forms that borrow JSON's escapes.
struct JsonQuoting {
  bool html = true;               // <, > and & as six-character u-escapes
  bool line_separators = true;    // U+2028 and U+2029 as u-escapes
  bool short_bf = true;           // backspace and form feed as b and f escapes
                                  // (before Go 1.22: as u-escapes)
  bool escape_del = false;        // DEL as a u-escape
  bool bad_bytes_as_hex = false;  // a byte that is not UTF-8 as x and two hex
                                  // digits (not JSON), else as U+FFFD's u-escape
};

// Appends [s] to [out] as a JSON string literal, escaped as [q] says.
inline void append_json_quoted(std::string& out, std::string_view s, const JsonQuoting& q = {}) {
  // What each byte is: 1 stands for itself; 2 itself unless q.html; 3
  // itself unless q.escape_del; 0 anything else (escaped, or not ASCII).
  static constexpr auto kClass = [] {
    std::array<uint8_t, 256> t{};
    for (int b = 0x20; b < 0x80; ++b) t[size_t(b)] = 1;
    t['"'] = t['\\'] = 0;
    t['<'] = t['>'] = t['&'] = 2;
    t[0x7F] = 3;
    return t;
  }();
  const uint8_t html = q.html ? 0xFF : 2, del = q.escape_del ? 0xFF : 3;
  // Whether ASCII byte [b] stands for itself.
  auto plain = [&](unsigned char b) {
    uint8_t c = kClass[b];
    return c == 1 || c == html || c == del;
  };
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    size_t start = i;
    // Eight bytes at a time while none needs a look: no control character,
    // quote, backslash, <, >, &, DEL or byte past ASCII (SWAR tests).
    constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
    auto has_byte = [&](uint64_t w, unsigned char b) {
      uint64_t x = w ^ (kOnes * b);
      return ((x - kOnes) & ~x & kHigh) != 0;
    };
    while (i + 8 <= s.size()) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      bool special = ((w - kOnes * 0x20) & ~w & kHigh) != 0 || (w & kHigh) != 0 || has_byte(w, '"') ||
                     has_byte(w, '\\') || has_byte(w, '<') || has_byte(w, '>') || has_byte(w, '&') ||
                     has_byte(w, 0x7F);
      if (special) break;
      i += 8;
    }
    while (i < s.size() && plain(static_cast<unsigned char>(s[i]))) ++i;
    out.append(s.data() + start, i - start);
    if (i == s.size()) break;
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      switch (b) {
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b':
        case '\f':
          if (q.short_bf) {
            out += b == '\b' ? "\\b" : "\\f";
            break;
          }
          [[fallthrough]];
        default:
          out += "\\u00";
          append_hex(out, b, 2);
      }
      ++i;
      continue;
    }
    Rune r = decode(s, i);
    if (!r.ok) {
      if (q.bad_bytes_as_hex) {
        out += "\\x";
        append_hex(out, b, 2);
      } else {
        out += "\\ufffd";
      }
    } else if (q.line_separators && (r.cp == 0x2028 || r.cp == 0x2029)) {
      out += "\\u";
      append_hex(out, r.cp, 4);
    } else {
      out.append(s.data() + i, r.len);
    }
    i += r.len;
  }
  out += '"';
}

// Returns the number of bytes of the character at [p] (before [end]) as
// go-textseg's grapheme segmenter reads characters, and
// sets [cp] to it (U+E000, a code point without grapheme properties, for a
// well-formed but invalid sequence), or returns 0 for a stray byte.
inline size_t textseg_char(const unsigned char* p, const unsigned char* end, int32_t& cp) {
  unsigned char c = *p;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  size_t n = c >= 0xC0 && c <= 0xDF   ? 2
             : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF7 ? 4
                                      : 0;
  if (n == 0 || size_t(end - p) < n) return 0;
  int32_t v = c & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (p[i] & 0x3F);
  }
  static constexpr int32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  bool valid = v >= kMin[n] && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF);
  cp = valid ? v : 0xE000;
  return n;
}

}  // namespace hclvm::uni

// Go's encoding/json (see go_json.h): the messages of its scanner and its
// string unquoting.
#include "value/go_json.h"

#include "util/unicode.h"

namespace hclvm::gojson {

namespace {

// Returns the four hex digits after "\u" at [s], or -1 (decode.go getu4).
int32_t getu4(std::string_view s) {
  if (s.size() < 6 || s[0] != '\\' || s[1] != 'u') return -1;
  int32_t r = 0;
  for (size_t i = 2; i < 6; ++i) {
    char c = s[i];
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      return -1;
    r = r * 16 + v;
  }
  return r;
}

}  // namespace

// Returns byte [c] as Go's json package quotes it in messages ('x', '\n').
std::string quote_char(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  // Go converts the byte to the rune of the same number, then quotes that.
  std::string rune;
  uni::append_utf8(rune, c);
  std::string q = uni::go_quote(rune);
  return "'" + q.substr(1, q.size() - 2) + "'";
}

std::string too_deep_message(char c) {
  return "invalid character " + quote_char(static_cast<unsigned char>(c)) + " exceeded max depth";
}

// Returns the text of the scanned string literal [lit] (quotes included),
// as Go's unquoteBytes decodes it: escapes resolved, surrogate pairs joined,
// lone surrogates and invalid UTF-8 bytes replaced by U+FFFD.
std::string unquote(std::string_view lit) {
  std::string_view s = lit.substr(1, lit.size() - 2);
  std::string out;
  out.reserve(s.size());
  size_t r = 0;
  while (r < s.size()) {
    auto c = static_cast<unsigned char>(s[r]);
    if (c == '\\') {
      char e = s[r + 1];
      if (e == 'u') {
        int32_t rr = getu4(s.substr(r));
        r += 6;
        if (rr >= 0xD800 && rr < 0xE000) {
          int32_t rr1 = getu4(s.substr(r));
          if (rr < 0xDC00 && rr1 >= 0xDC00 && rr1 < 0xE000) {
            r += 6;
            uni::append_utf8(out, char32_t(0x10000 + ((rr - 0xD800) << 10) + (rr1 - 0xDC00)));
            continue;
          }
          rr = 0xFFFD;
        }
        uni::append_utf8(out, char32_t(rr));
        continue;
      }
      switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        default: out += e; break;  // " \ / (the scanner allows no others)
      }
      r += 2;
      continue;
    }
    if (c < 0x80) {
      out += char(c);
      ++r;
      continue;
    }
    uni::Rune rr = uni::decode(s, r);
    if (rr.ok)
      out.append(s.data() + r, rr.len);
    else
      uni::append_utf8(out, 0xFFFD);
    r += rr.len;
  }
  return out;
}

}  // namespace hclvm::gojson

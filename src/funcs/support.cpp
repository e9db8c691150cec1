// Helpers shared by the function categories: parameter declarations,
// registration, and the Go conversions whose messages the functions'
// errors repeat (gocty's number to int, strconv's quoting).
#include <memory>

#include "funcs/funcs.h"
#include "util/unicode.h"

namespace hclvm::funcs {

Param param(std::string name, const Type* t, unsigned flags) {
  Param p;
  p.name = std::move(name);
  p.type = t;
  p.allow_null = flags & kNull;
  p.allow_unknown = flags & kUnknown;
  p.allow_dynamic_type = flags & kDynamic;
  p.allow_marked = flags & kMarked;
  return p;
}

void add(FunctionTable& t, std::string name, Function f) {
  t.add(std::move(name), std::make_shared<const Function>(std::move(f)));
}

bool to_int(const Value& v, int64_t& out, std::string& err) {
  Number n = v.as_number();
  std::optional<int64_t> i = n.to_int64();
  if (!i) {
    err = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";
    return false;
  }
  out = *i;
  return true;
}

std::string quote_rune(char32_t r) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "'";
  if (r == '\'' || r == '\\') {
    out += '\\';
    out += char(r);
  } else if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) {
    out += "\xEF\xBF\xBD";  // Go quotes an invalid rune as U+FFFD, which is printable
  } else if (uni::is_print(r)) {
    utf8proc_uint8_t buf[4];
    auto n = utf8proc_encode_char(utf8proc_int32_t(r), buf);
    out.append(reinterpret_cast<const char*>(buf), size_t(n));
  } else {
    switch (r) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default:
        if (r < ' ' || r == 0x7F) {
          out += "\\x";
          out += hex[(r >> 4) & 15];
          out += hex[r & 15];
        } else {
          int digits = r < 0x10000 ? 4 : 8;
          out += r < 0x10000 ? "\\u" : "\\U";
          for (int k = digits - 1; k >= 0; --k) out += hex[(r >> (4 * k)) & 15];
        }
    }
  }
  out += '\'';
  return out;
}

std::string quote(std::string_view s) { return uni::go_quote(s); }

Value strlen_value(std::string_view s) { return Value::integer(int64_t(uni::count_graphemes(s))); }

}  // namespace hclvm::funcs

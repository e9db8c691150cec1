// Helpers shared by the function categories: parameter declarations,
// registration, and the Go conversions whose messages the functions'
// errors repeat (gocty's number to int, strconv's quoting).
#include <memory>

#include "funcs/funcs.h"
#include "util/unicode.h"
#include "value/convert.h"

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
  std::string out = "'";
  // Go quotes an invalid rune as U+FFFD, which is printable.
  if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = 0xFFFD;
  uni::append_go_escaped(out, r, '\'');
  out += '\'';
  return out;
}

std::string quote(std::string_view s) { return uni::go_quote(s); }

TypeResult unified_args_type(std::span<const Value> args) {
  std::vector<const Type*> tys;
  for (const Value& a : args) tys.push_back(a.type());
  Unified u = unify_unsafe(tys);
  if (!u.type) return type_error("all arguments must have the same type");
  return type_ok(u.type);
}

Value strlen_value(const Value& s) { return Value::integer(int64_t(s.string_length())); }

}  // namespace hclvm::funcs

// Writing the converters' JSON documents (json_writer.h).
#include "convert/json_writer.h"

#include "util/stack.h"
#include "util/unicode.h"

namespace hclvm::convert {

namespace {

// Appends a newline and the indentation of level [depth] to [out].
void newline(std::string& out, unsigned depth) {
  out += '\n';
  out.append(size_t(depth) * 2, ' ');
}

// Appends string [s] quoted: only what JSON requires is escaped, so that
// text such as "a < b && c" stays readable.
void quote(std::string& out, const std::string& s) {
  uni::JsonQuoting q;
  q.html = false;
  uni::append_json_quoted(out, s, q);
}

}  // namespace

void write_json(const JValue& v, std::string& out, unsigned depth) {
  util::enter_level();
  switch (v.kind) {
    case JValue::Kind::Raw: out += v.text; return;
    case JValue::Kind::String: quote(out, v.text); return;
    case JValue::Kind::Object:
      if (v.props.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      for (size_t i = 0; i < v.props.size(); ++i) {
        if (i) out += ',';
        newline(out, depth + 1);
        quote(out, v.props[i].first);
        out += ": ";
        write_json(v.props[i].second, out, depth + 1);
      }
      newline(out, depth);
      out += '}';
      return;
    case JValue::Kind::Array:
      if (v.items.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        newline(out, depth + 1);
        write_json(v.items[i], out, depth + 1);
      }
      newline(out, depth);
      out += ']';
      return;
  }
}

}  // namespace hclvm::convert

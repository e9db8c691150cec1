// Writing the converters' JSON documents (json_writer.h).
#include "convert/json_writer.h"

#include "util/stack.h"

#include <algorithm>

namespace hclvm::convert {

namespace {

// Appends a newline and the indentation of level [depth] to [out]: two
// spaces a level, up to kMaxIndentLevel levels (deeper levels indent no
// further, so the document stays linear in the size of the tree).
void newline(std::string& out, unsigned depth) {
  out += '\n';
  out.append(size_t(std::min(depth, kMaxIndentLevel)) * 2, ' ');
}

// Reports whether [v] is an object of numbers, booleans and nulls only.
bool leaf_object(const JValue& v) {
  if (v.kind != JValue::Kind::Object || v.props.empty()) return false;
  for (const auto& p : v.props)
    if (p.second.kind != JValue::Kind::Raw) return false;
  return true;
}

}  // namespace

void write_json(const JValue& v, std::string& out, const uni::JsonQuoting& q, unsigned depth, bool inline_leaves) {
  util::enter_level();
  switch (v.kind) {
    case JValue::Kind::Raw: out += v.text; return;
    case JValue::Kind::String: uni::append_json_quoted(out, v.text, q); return;
    case JValue::Kind::Object:
      if (v.props.empty()) {
        out += "{}";
        return;
      }
      if (inline_leaves && leaf_object(v)) {
        out += '{';
        for (size_t i = 0; i < v.props.size(); ++i) {
          if (i) out += ", ";
          uni::append_json_quoted(out, v.props[i].first, q);
          out += ": ";
          out += v.props[i].second.text;
        }
        out += '}';
        return;
      }
      out += '{';
      for (size_t i = 0; i < v.props.size(); ++i) {
        if (i) out += ',';
        newline(out, depth + 1);
        uni::append_json_quoted(out, v.props[i].first, q);
        out += ": ";
        write_json(v.props[i].second, out, q, depth + 1, inline_leaves);
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
        write_json(v.items[i], out, q, depth + 1, inline_leaves);
      }
      newline(out, depth);
      out += ']';
      return;
  }
}

}  // namespace hclvm::convert

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

JValue json_tree(const json::Node& n, bool last_wins) {
  util::enter_level();
  switch (n.kind) {
    case json::NodeKind::Object: {
      JValue v = JValue::object();
      for (const json::Property& p : json::as<json::ObjectNode>(n).properties) {
        std::string name(p.name->value);
        JValue value = json_tree(*p.value, last_wins);
        JProp* seen = nullptr;
        if (last_wins)
          for (JProp& q : v.props)
            if (q.first == name) seen = &q;
        if (seen != nullptr) seen->second = std::move(value);
        else v.props.emplace_back(std::move(name), std::move(value));
      }
      return v;
    }
    case json::NodeKind::Array: {
      JValue v = JValue::array();
      for (const json::Node* i : json::as<json::ArrayNode>(n).items) v.items.push_back(json_tree(*i, last_wins));
      return v;
    }
    case json::NodeKind::String: return JValue::string(std::string(json::as<json::StringNode>(n).value));
    case json::NodeKind::Number: return JValue::raw(std::string(json::as<json::NumberNode>(n).text));
    case json::NodeKind::Bool: return JValue::raw(json::as<json::BoolNode>(n).value ? "true" : "false");
    default: return JValue::raw("null");
  }
}

}  // namespace hclvm::convert

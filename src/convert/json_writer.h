// A small JSON document model for the converters: values are built as a
// tree (objects keep their properties in order, repeated names allowed)
// and written with two-space indentation.
#pragma once

#include "util/unicode.h"

#include <hclvm/json_syntax.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hclvm::convert {

struct JProp;

struct JValue {
  enum class Kind : uint8_t { Raw, String, Object, Array };
  Kind kind = Kind::Raw;
  std::string text;          // Raw: JSON text (number, true, false, null); String: the value
  std::vector<JProp> props;  // Object, in order (repeated names allowed)
  std::vector<JValue> items; // Array

  static JValue raw(std::string t);
  static JValue string(std::string s);
  static JValue object();
  static JValue array();
};

// One property of an object.
struct JProp {
  std::string first;
  JValue second;
  JProp(std::string name, JValue value) : first(std::move(name)), second(std::move(value)) {}
};

inline JValue JValue::raw(std::string t) {
  JValue v;
  v.text = std::move(t);
  return v;
}
inline JValue JValue::string(std::string s) {
  JValue v;
  v.kind = Kind::String;
  v.text = std::move(s);
  return v;
}
inline JValue JValue::object() {
  JValue v;
  v.kind = Kind::Object;
  return v;
}
inline JValue JValue::array() {
  JValue v;
  v.kind = Kind::Array;
  return v;
}

// The deepest level that gets its own indentation: a value nested deeper
// is indented as one at this level, so that a document nested thousands of
// levels deep (which the parsers accept up to their nesting limit) is not
// quadratic in size.
inline constexpr unsigned kMaxIndentLevel = 32;

// Appends [v] to [out] as indented JSON (two spaces a level, up to
// kMaxIndentLevel levels), starting at
// indentation [depth], strings escaped as [q] says; with [inline_leaves],
// an object whose values are all numbers, booleans or null is written on
// one line (`{"line": 1, "column": 1, "byte": 0}`). Recursive: callers run
// it within a stack budget.
void write_json(const JValue& v, std::string& out, const uni::JsonQuoting& q, unsigned depth = 0,
                bool inline_leaves = false);

// Returns JSON value [n] as a document node (numbers as written). With
// [last_wins], a property repeated in an object keeps its first place and
// takes its last value, as JavaScript's JSON.parse does; otherwise
// repeated properties are kept. Recursive: callers run it within a stack
// budget.
JValue json_tree(const json::Node& n, bool last_wins = false);

}  // namespace hclvm::convert

// A small JSON document model for the converters: values are built as a
// tree (objects keep their properties in order, repeated names allowed)
// and written with two-space indentation.
#pragma once

#include "util/unicode.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hclvm::convert {

struct JValue {
  enum class Kind : uint8_t { Raw, String, Object, Array };
  Kind kind = Kind::Raw;
  std::string text;  // Raw: JSON text (number, true, false, null); String: the value
  std::vector<std::pair<std::string, JValue>> props;  // Object
  std::vector<JValue> items;                          // Array

  static JValue raw(std::string t) { return {Kind::Raw, std::move(t), {}, {}}; }
  static JValue string(std::string s) { return {Kind::String, std::move(s), {}, {}}; }
  static JValue object() { return {Kind::Object, {}, {}, {}}; }
  static JValue array() { return {Kind::Array, {}, {}, {}}; }
};

// Appends [v] to [out] as indented JSON (two spaces a level), starting at
// indentation [depth], strings escaped as [q] says; with [inline_leaves],
// an object whose values are all numbers, booleans or null is written on
// one line (`{"line": 1, "column": 1, "byte": 0}`). Recursive: callers run
// it within a stack budget.
void write_json(const JValue& v, std::string& out, const uni::JsonQuoting& q, unsigned depth = 0,
                bool inline_leaves = false);

}  // namespace hclvm::convert

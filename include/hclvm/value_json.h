// Values to and from JSON, for hosts: variables from a request body,
// results as a response. The encodings are go-cty's: jsonencode's and
// jsondecode's for values of their own types, cty's json.Marshal and
// json.Unmarshal for values of a given type.
//
//   hclvm::JsonValue in = hclvm::value_from_json(body);
//   hclvm::JsonText out = hclvm::value_to_json(result.value);
//
// set_variables_from_json, which fills an EvalContext, is in <hclvm/eval.h>.
#pragma once

#include <hclvm/limits.h>
#include <hclvm/type.h>
#include <hclvm/value.h>

#include <optional>
#include <string>
#include <string_view>

namespace hclvm {

// A value read from JSON, or why it could not be.
struct JsonValue {
  Value value;
  std::string error;  // empty on success: the reference's message otherwise
  bool ok() const { return error.empty(); }
};

// JSON text written from a value, or why it could not be.
struct JsonText {
  std::string json;
  std::string error;  // e.g. "value is not known"
  // Writing under limits (below): the limit the text would have passed.
  std::optional<Limit> limit = std::nullopt;
  bool ok() const { return error.empty(); }
};

// Reads [json] as jsondecode does: the type comes from the document
// (objects are objects, arrays tuples, null a null of the dynamic type).
JsonValue value_from_json(std::string_view json);
// Reads [json] as a value of type [t] (cty json.Unmarshal); with [t] the
// dynamic pseudo-type, [json] is the {"value":…,"type":…} wrapper.
JsonValue value_from_json(std::string_view json, const Type* t);

// Writes [v] as jsonencode does. Unknown and marked values cannot be
// written.
JsonText value_to_json(const Value& v);
// Writes [v] as a value of type [t] (cty json.Marshal); with [t] the
// dynamic pseudo-type, as {"value":…,"type":…}.
JsonText value_to_json(const Value& v, const Type* t);
// The same within [limits]: the text counts against max_memory (it is not
// a string value, so max_string_bytes does not bound it), the writing
// against timeout and cancel. A value small in memory may be enormous as
// text: one that holds a part many times over writes it out every time,
// and a number such as 1e100000000 has a hundred million digits. A host
// writing results that untrusted input shapes writes them this way; on a
// limit, `limit` says which and `error` why ("the JSON text would take
// more than N bytes").
JsonText value_to_json(const Value& v, const Limits& limits);
JsonText value_to_json(const Value& v, const Type* t, const Limits& limits);
// Writes [t] as cty writes types: "string", ["list","number"], ...
JsonText type_as_json(const Type* t);

}  // namespace hclvm

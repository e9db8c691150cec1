// The JSON forms of values and types, byte for byte as go-cty's cty/json
// package writes and reads them (Marshal, Unmarshal, ImpliedType,
// MarshalType, UnmarshalType, SimpleJSONValue).
//
// Writing a value against a type: objects with their attributes in sorted
// order, numbers at full precision (Number::text()), strings escaped as Go's
// encoding/json escapes them (`<`, `>`, `&`, U+2028 and U+2029 as \u003c...,
// invalid UTF-8 as \ufffd, and \b and \f as Go 1.22 and later write them,
// where older Go wrote \u0008 and \u000c). Where the type is the dynamic
// pseudo-type the value is wrapped as {"value":…,"type":…} so that a reader
// can recover its type: to_json(v, Type::dynamic()) is that wrapper, the
// form the reference's tools print values in.
//
// Reading follows the reference step for step over a reimplementation of
// Go's json.Decoder token stream, so that malformed input fails with Go's
// own messages ("invalid character '}' after array element", "unexpected
// EOF", "EOF") wrapped in cty's ("failed to read list value: ..."), and
// quirks such as ImpliedType accepting a stray trailing `]` are kept.
//
// Errors carry cty's message, the path to the part of the value it is about
// (cty.PathError) and, for syntax errors, the byte offset in the input.
//
// Nesting is limited as in the reference and no further: each nested value
// is read by a scanner of its own, which allows 10000 levels, so a document
// of 10001 levels reads and one of 10002 fails ("failed to read tuple
// value: invalid character '[' exceeded max depth"); implied_type and the
// writers have no limit of nesting. Deep input is handled on a big stack
// (util/stack.h); only nesting beyond even that (millions of levels, where
// the reference's goroutine stack overflows) is refused with Go's message.
// The writers count their text against the evaluation budget as it grows
// (util/meter.h): a value that repeats a shared part writes it every time.
#pragma once

#include <hclvm/type.h>
#include <hclvm/value.h>

#include "value/convert.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm {

// Why a value or a type could not be written or read.
struct JsonError {
  std::string message;  // the reference's text, e.g. "value is not known"
  Path path;            // (convert.h) empty: the value as a whole;
                        // set elements and unread map keys are unknown keys
  int64_t offset = -1;  // syntax errors: byte offset in the input
};

// A result or the error that prevented it.
template <class T>
struct JsonResult {
  T value{};
  std::optional<JsonError> error;
  bool ok() const { return !error.has_value(); }
};

// Returns [v] as JSON that reads back as type [t] (cty json.Marshal). A value
// not of type [t] is converted to it first, as the reference does. Unknown
// values ("value is not known"), marked values, infinities and capsules
// cannot be written.
JsonResult<std::string> to_json(const Value& v, const Type* t);
// to_json() appended to [out]; on failure [out] holds part of the text.
std::optional<JsonError> append_json(std::string& out, const Value& v, const Type* t);

// Reads [json] as a value of type [t] (cty json.Unmarshal). With [t] the
// dynamic pseudo-type, [json] must be the {"value":…,"type":…} wrapper.
JsonResult<Value> from_json(std::string_view json, const Type* t);

// Returns the type [json]'s structure implies (cty json.ImpliedType):
// strings, numbers and bools their primitive types, arrays tuples, objects
// object types and null the dynamic pseudo-type.
JsonResult<const Type*> implied_type(std::string_view json);

// Returns [v] as JSON of its own type (cty SimpleJSONValue.MarshalJSON,
// stdlib jsonencode's encoding).
JsonResult<std::string> to_json_simple(const Value& v);
// Reads [json] as a value of the type its structure implies (cty
// SimpleJSONValue.UnmarshalJSON, stdlib jsondecode's decoding).
JsonResult<Value> from_json_simple(std::string_view json);
// The one-pass reader from_json_simple tries first, alone: reads a
// well-formed [json] into [out] as from_json_simple would, or returns
// false, without a reason, when it leaves the document to the full reader
// (which then finds the error, if there is one).
bool from_json_simple_fast(std::string_view json, Value& out);
// from_json and from_json_simple without the one-pass reader, which they
// try first (tests compare the two).
JsonResult<Value> from_json_full(std::string_view json, const Type* t);
JsonResult<Value> from_json_simple_full(std::string_view json);

// Returns [v] and its type as {"value":…,"type":…}, the form the
// reference's tools (and the oracle's `eval`) print values in. It equals
// to_json(v, Type::dynamic()) except for values of the dynamic pseudo-type
// itself (a null), which that writes as a bare `null`.
JsonResult<std::string> to_json_typed(const Value& v);

// Returns [t] as JSON (cty Type.MarshalJSON): "string", ["list","number"],
// ["object",{"a":"bool"}], ["object",{...},["optional names"]],
// ["tuple",[...]], "dynamic". Capsule types cannot be written.
JsonResult<std::string> type_to_json(const Type* t);
// Reads a type written by type_to_json (cty Type.UnmarshalJSON).
JsonResult<const Type*> type_from_json(std::string_view json);

// Returns [s] as a JSON string literal, escaped as Go's encoding/json does
// with HTML escaping on (json.Marshal of a Go string).
std::string json_quote(std::string_view s);

}  // namespace hclvm

// Conversion and unification of values, as go-cty's convert package does
// them. A conversion from one type to another is planned once from the two
// types (which conversions exist, safe or unsafe, and what each element or
// attribute needs) and then applied to values; plans are cached per type
// pair for the life of the process, like the types themselves. Unification
// finds the one type a list of types can all convert to (the result type of
// a conditional, of tolist over a tuple). Failures carry cty's messages and
// the path of attribute and index steps where they happened.
//
// "Safe" conversions never fail on a known value (number to string, tuple to
// list when the element types convert safely); "unsafe" ones may (string to
// number, list to set, map to object, anything from the dynamic type). The
// conversion helpers Convert, tolist() and function arguments all use the
// unsafe set.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hclvm/value.h"

namespace hclvm {

// One step of a path into a nested value (cty's PathStep): an attribute of
// an object, or an index (a number into a list, tuple or set, a string key
// into a map).
struct PathStep {
  enum class Kind : uint8_t { Attr, Index };
  Kind kind = Kind::Attr;
  std::string name;  // Attr
  Value key;         // Index

  static PathStep attr(std::string_view name) { return {Kind::Attr, std::string(name), Value()}; }
  static PathStep index(Value key) { return {Kind::Index, std::string(), std::move(key)}; }
};
using Path = std::vector<PathStep>;

// Why a conversion failed (cty's PathError): the message, and the steps
// from the converted value to the part that failed (empty: the value).
struct ConvertError {
  std::string message;
  Path path;
};

// The outcome of a conversion: a value, or an error. Success carries no
// allocation of its own.
class ConvertResult {
 public:
  ConvertResult(Value v) : value_(std::move(v)) {}  // NOLINT: implicit on purpose
  ConvertResult(ConvertError e) : error_(std::make_unique<ConvertError>(std::move(e))) {}  // NOLINT

  bool ok() const { return !error_; }
  // The converted value (the null dynamic value when the conversion failed).
  const Value& value() const& { return value_; }
  Value take() { return std::move(value_); }
  const ConvertError& error() const { return *error_; }

 private:
  Value value_;
  std::unique_ptr<ConvertError> error_;
};

// A planned conversion from one type to another (cty's Conversion). Plans
// are immutable and shared between threads.
class Conversion {
 public:
  virtual ~Conversion() = default;

  // Returns [in] converted. [in] must be of the source type the plan was
  // made for, or be null, unknown or of the dynamic type.
  ConvertResult operator()(const Value& in) const;

  // Converts [in] into [out]; on failure fills [err] with a path that
  // starts with [path] and returns false. [path] is as given on return.
  virtual bool apply(const Value& in, Path& path, Value& out, ConvertError& err) const = 0;
};
using ConversionRef = std::shared_ptr<const Conversion>;

// The safe conversion from [in] to [out], or null when there is none. As in
// cty, a primitive type (and a map of one) has no conversion to itself:
// callers check type identity first, as convert() does.
ConversionRef get_conversion(const Type* in, const Type* out);
// The safe or unsafe conversion from [in] to [out], or null.
ConversionRef get_conversion_unsafe(const Type* in, const Type* out);
// Whether convert() could turn a value of type [in] into [out] (identity
// included); with [unsafe] false, only through safe conversions.
bool can_convert(const Type* in, const Type* out, bool unsafe = true);

// Returns [in] converted to [want] (cty's convert.Convert): the value itself
// when it already has that type or [want] is dynamic (no allocation), else
// the result of the unsafe conversion, or an error whose message is
// mismatch_message() when there is no conversion at all.
ConvertResult convert(const Value& in, const Type* want);

// cty's MismatchMessage: why a value of type [got] does not conform to
// [want], phrased for a user ("attribute \"a\" is required", "string
// required, but have tuple", ...). Only meaningful when the conversion is
// not possible.
std::string mismatch_message(const Type* got, const Type* want);

// The result of unifying types: the common type (null: there is none) and,
// per input, the conversion to it (null when the input needs none).
struct Unified {
  const Type* type = nullptr;
  std::vector<ConversionRef> conversions;
};

// cty's Unify: the most general type all of [types] convert to safely.
Unified unify(std::span<const Type* const> types);
// cty's UnifyUnsafe: as unify(), also through unsafe conversions (what HCL
// uses for conditionals and collection constructors).
Unified unify_unsafe(std::span<const Type* const> types);

// Unification's preference order of two types, exposed for tests: -1 when
// [a] is preferred (more general), +1 when [b] is, 0 when neither.
int compare_types(const Type* a, const Type* b);
// Indices of [types], most preferred first (cty's sortTypes), for tests.
std::vector<size_t> sort_types(std::span<const Type* const> types);

}  // namespace hclvm

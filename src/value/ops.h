// Operations on values with go-cty's semantics (the methods of cty.Value in
// value_ops.go, newest release): equality, ordering, arithmetic, logic,
// length, indexing and attribute access, plus the membership rules of sets.
//
// Every operation follows cty's rules for the special values:
//  - Marks: operands are unmarked first and the result carries the union of
//    their top-level marks (equals uses all marks at any depth, except that
//    comparing a null with a non-null keeps only the top-level ones).
//  - Unknowns and the dynamic value: the result is unknown, refined where cty
//    refines it (never null; the bounds of a sum, difference or product; the
//    range of a length), and sometimes known despite the unknown operand
//    (`false && x`, `x == y` decided by x's refined range, `x < y` decided by
//    bounds, a product whose bounds meet).
//  - Nulls: equals and has_index accept them; the other operations report an
//    error where cty would panic.
//
// What cty reports by panicking (operands of the wrong type, null operands,
// an index out of range) and what the reference's function layer reports as
// an error (the NaN cases of big.Float: "can't compute sum of opposing
// infinities", ...) come back as a Result whose error is set. The messages of
// the arithmetic errors are those of cty's stdlib functions; the others are
// short descriptions meant for the evaluator, which usually checks types and
// nulls before calling and words its own diagnostics.
//
// cty's Multiply returns zero for `cty.Zero * unknown` by comparing with its
// Zero singleton by identity, which no value made by an evaluator is; that
// shortcut is not reproduced: a zero operand behaves like NumberIntVal(0).
//
// Note for the evaluator: the reference evaluates HCL's arithmetic operators
// through cty's stdlib functions, whose parameters do not accept unknowns, so
// `unknown + 1` there is an unknown number refined only as not null; add()
// here is Value.Add, which also refines the bounds. Comparisons and `==`
// accept unknowns in the reference's functions and match these exactly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "hclvm/value.h"

namespace hclvm::ops {

// The outcome of an operation that can fail: [value] when [error] is empty,
// otherwise [value] is the null dynamic value and [error] says why.
struct Result {
  Value value;
  std::string error;

  bool ok() const { return error.empty(); }
  static Result of(Value v) { return {std::move(v), {}}; }
  static Result fail(std::string message) { return {Value(), std::move(message)}; }
};

// --- equality ---------------------------------------------------------------

// cty's Equals: a bool, an unknown bool refined not null, or (never) null.
// Nulls of any types are equal; values of different types are not; deep for
// collections and structures. Where cty's answer depends on Go's random map
// order (an object or map with one unknown and one unequal member) this
// returns false, one of the answers the reference can give.
Value equals(const Value& a, const Value& b);
// cty's NotEqual: not(equals(a, b)).
Value not_equals(const Value& a, const Value& b);
// cty's RawEquals: same type, same marks, same value, with unknowns equal
// when their refinements are; sets compared element by element in order.
bool raw_equal(const Value& a, const Value& b);
// Whether [a] and [b] are the same value in every respect anything can
// observe: raw_equal, but numbers compared exactly (value, precision, the
// sign of zero, cty's own infinities) rather than by their text, and sets
// and maps member by member in their order. Counts no steps: for a host
// deciding whether a result can be reused, not for the language.
bool identical(const Value& a, const Value& b);
// cty's number equality (rawNumberEqual, go-cty 1.14.3+): integers compare
// exactly, other numbers by their shortest decimal text, -0 equal to 0.
bool number_equal(const Number& a, const Number& b);

// --- ordering (numbers; the result is a bool value) -------------------------

Result less_than(const Value& a, const Value& b);
Result less_than_or_equal(const Value& a, const Value& b);
Result greater_than(const Value& a, const Value& b);
Result greater_than_or_equal(const Value& a, const Value& b);

// --- arithmetic (numbers) ---------------------------------------------------

Result add(const Value& a, const Value& b);
Result subtract(const Value& a, const Value& b);
Result multiply(const Value& a, const Value& b);
// Division by zero gives an infinity, as in cty.
Result divide(const Value& a, const Value& b);
Result modulo(const Value& a, const Value& b);
Result negate(const Value& a);
Result absolute(const Value& a);

// --- logic (bools) ----------------------------------------------------------

Result logical_and(const Value& a, const Value& b);
Result logical_or(const Value& a, const Value& b);
Result logical_not(const Value& a);

// --- collections and structures -----------------------------------------------

// cty's Length of a list, set, map, tuple or object, as a number: exact for
// tuples even when unknown; for an unknown collection an unknown number
// within the collection's length bounds; for a set with unknown elements an
// unknown between 1 and the number of stored elements (they may coalesce).
Result length(const Value& v);
// cty's LengthInt: the stored element count (a set's unknown elements count
// as distinct); the value must be known and not null unless it is a tuple or
// an object.
Result length_int(const Value& v);
// cty's HasIndex for a list, map or tuple: a bool, or an unknown bool.
Result has_index(const Value& collection, const Value& key);
// cty's Index for a list, map or tuple. A missing map key gives the null of
// the element type, as in cty (callers check has_index first).
Result index(const Value& collection, const Value& key);
// cty's GetAttr: the attribute [name] of an object (DynamicVal for the
// dynamic value, an unknown of the attribute's type for an unknown object).
Result get_attr(const Value& object, std::string_view name);
// cty's HasElement: whether a set contains [elem] (unknown when undecidable).
Result has_element(const Value& set, const Value& elem);

// --- set membership (cty's setRules) ------------------------------------------

// The bytes cty hashes to place [v] in a set's bucket (makeSetHashBytes):
// '?' unknown, '~' null, big.Float String() for numbers, %q for strings...
std::string set_hash_bytes(const Value& v);
// The bucket of [v]: the CRC-32 (IEEE) of its hash bytes.
uint32_t set_hash(const Value& v);
// The CRC-32 (IEEE) of [bytes] (Go's crc32.ChecksumIEEE).
uint32_t crc32_ieee(std::string_view bytes);
// Whether the known set [set] stores an element equivalent to [elem] (equal
// by equals() with a known true result; unknowns never are).
bool set_stores(const Value& set, const Value& elem);

// --- helpers shared with refine.cpp and set.cpp ---------------------------------

// cty's HasWhollyKnownType: no unknown of the dynamic type anywhere inside.
bool has_wholly_known_type(const Value& v);
// cty's TestConformance, as a bool: whether [given] conforms to [want]
// (dynamic in [want] matches anything).
bool type_conforms(const Type* given, const Type* want);

}  // namespace hclvm::ops

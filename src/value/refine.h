// Refinements of unknown values, as go-cty defines them (1.13+,
// unknown_refinement.go and value_range.go): a builder that narrows what an
// unknown value may turn out to be (not null, a string prefix, number
// bounds, collection length bounds), and ValueRange, the queries other
// operations ask of any value, known or not.
//
// The builder keeps cty's normalizations: a prefix is NFC-normalized and, by
// string_prefix, cut back to a safe boundary (cty's SafeKnownPrefix: a
// trailing character that a later combining mark or grapheme extender could
// change is dropped); a refinement that leaves a single possible value gives
// that known value (null; a number whose inclusive bounds are equal; an
// empty collection; a list of known length, as a list of unknowns; a set of
// length 1, as a set of one unknown); infinite bounds are no bounds; a new
// bound looser than the current one is ignored. Bounds do not imply not
// null: a nullable unknown with equal bounds stays unknown. Refining the
// dynamic value does nothing, as in cty 1.14.1+.
//
// The safe prefix uses utf8proc's tables, so it follows the Unicode version
// of the installed utf8proc rather than Go's; and where go-textseg would ask
// for more input before ending a cluster (advance 0 without EOF), the last
// cluster is simply treated as complete.
//
// Where cty panics (a refinement inconsistent with the value or with earlier
// refinements, or one that does not apply to the value's type) the builder
// records the message, ignores the rest of the chain and new_value() returns
// the original value; callers that build refinements from their own logic
// check error() in tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "hclvm/value.h"

namespace hclvm {

// What is known of a value's range (cty.ValueRange). For a known value the
// range is that value (its string as prefix, the number as both bounds, its
// length as both length bounds); for a null, only that it is null.
class ValueRange {
 public:
  // What cty's refinement object for the value is: none at all (DynamicVal),
  // just nullability, or the kind that goes with the type.
  enum class Kind : uint8_t { None, Nullable, String, Number, Collection };
  // cty's tristate: the value is null, is not null, or either.
  enum class Null : uint8_t { Unknown, Yes, No };

  const Type* type_constraint() const { return type_; }
  Kind kind() const { return kind_; }
  bool could_be_null() const { return null_ != Null::No; }
  bool definitely_not_null() const { return null_ == Null::No; }
  bool definitely_null() const { return null_ == Null::Yes; }

  // The lower bound of a number and whether it is inclusive: -Inf when
  // unbounded, an unknown number when the type is not known yet. Requires
  // the number or dynamic type.
  std::pair<Value, bool> number_lower_bound() const;
  std::pair<Value, bool> number_upper_bound() const;
  // A prefix every possible string has ("" when none). Requires the string
  // or dynamic type.
  std::string_view string_prefix() const;
  // Bounds of a collection's length; the upper is UINT64_MAX when unbounded.
  // Require a collection or dynamic type.
  uint64_t length_lower_bound() const;
  uint64_t length_upper_bound() const;

  // Whether [v] is in the range: true, false, or an unknown bool (refined
  // not null) when it cannot tell; cty decides mostly the false cases.
  Value includes(const Value& v) const;

 private:
  friend ValueRange value_range(const Value& v);
  friend class RefinementBuilder;
  const Type* type_ = Type::dynamic();
  Kind kind_ = Kind::None;
  Null null_ = Null::Unknown;
  Refinement r_;
};

// cty's Value.Range of [v], read through its marks (cty requires unmarked).
ValueRange value_range(const Value& v);

// cty's RefinementBuilder, started by refine([v]).
class RefinementBuilder {
 public:
  explicit RefinementBuilder(const Value& v);

  RefinementBuilder& not_null();
  RefinementBuilder& null();
  // Inclusive bounds; an unknown bound leaves that side as it is.
  RefinementBuilder& number_range_inclusive(const Value& min, const Value& max);
  RefinementBuilder& number_lower_bound(const Value& min, bool inclusive);
  RefinementBuilder& number_upper_bound(const Value& max, bool inclusive);
  RefinementBuilder& collection_length_lower_bound(uint64_t min);
  RefinementBuilder& collection_length_upper_bound(uint64_t max);
  RefinementBuilder& collection_length(uint64_t n);
  // cty's StringPrefix: normalized and cut back to a safe known prefix.
  RefinementBuilder& string_prefix(std::string_view prefix);
  // cty's StringPrefixFull: normalized, never cut.
  RefinementBuilder& string_prefix_full(std::string_view prefix);

  // The refined value, with the original value's marks.
  Value new_value() const;

  // The first inconsistency met (cty would have panicked), or "".
  const std::string& error() const { return error_; }

 private:
  bool refinable();
  void fail(std::string message);
  bool check_number_bounds();

  Value orig_;   // unmarked
  Marks marks_;
  ValueRange wip_;
  bool ignore_ = false;  // refining DynamicVal: everything is dropped
  std::string error_;
};

inline RefinementBuilder refine(const Value& v) { return RefinementBuilder(v); }
// cty's RefineNotNull: refine(v).not_null().new_value().
Value refine_not_null(const Value& v);
// An unknown bool refined as not null: cty's usual answer when an
// operation cannot tell yet.
Value unknown_bool_not_null();

// cty's ctystrings.SafeKnownPrefix: [prefix] in NFC without a trailing part
// that a following character could combine with.
std::string safe_known_prefix(std::string_view prefix);

}  // namespace hclvm

// Refinements of unknown values as go-cty defines them: the builder
// (unknown_refinement.go), the range queries (value_range.go) and the safe
// string prefix (ctystrings/prefix.go), including the Unicode normalization
// details the prefix rule needs. See refine.h.
#include "value/refine.h"

#include <utf8proc.h>

#include "util/unicode.h"
#include "value/ops.h"

namespace hclvm {

namespace {

// The known bool [b].
Value known_bool(bool b) { return Value::boolean(b); }

// Whether the bool value [v] is known and true (errors count as unknown).
bool is_true(const ops::Result& r) { return r.ok() && r.value.is_plain() && r.value.as_bool(); }
bool is_false(const ops::Result& r) { return r.ok() && r.value.is_plain() && !r.value.as_bool(); }

// The kind of refinement cty keeps for values of type [t].
ValueRange::Kind kind_for(const Type* t) {
  if (t == Type::string()) return ValueRange::Kind::String;
  if (t == Type::number()) return ValueRange::Kind::Number;
  if (t->is_collection()) return ValueRange::Kind::Collection;
  if (t->is_dynamic()) return ValueRange::Kind::None;
  return ValueRange::Kind::Nullable;
}

// -Inf ([negative]) or +Inf as a value.
Value infinity(bool negative) { return Value::number(Number::infinity(negative)); }

// A short rendering of a number value for messages.
std::string show(const Value& v) {
  if (!v.is_known()) return "unknown";
  if (v.is_null()) return "null";
  return v.as_number().text();
}

// --- Unicode normalization properties (Go's norm package, form NFC) -------------

struct NormProps {
  bool inert;           // nothing before or after can combine with it
  uint8_t lead, trail;  // non-starters at the start and end of its decomposition
};

// Hangul jamo and syllables compose algorithmically, outside utf8proc's
// composition table: leading consonants, vowels, trailing consonants.
bool is_hangul_l(char32_t c) { return c >= 0x1100 && c <= 0x1112; }
bool is_hangul_v(char32_t c) { return c >= 0x1161 && c <= 0x1175; }
bool is_hangul_t(char32_t c) { return c >= 0x11A8 && c <= 0x11C2; }
bool is_hangul_syllable(char32_t c) { return c >= 0xAC00 && c <= 0xD7A3; }

// A code point counts as a non-starter for segmenting when it has a
// combining class or combines with what precedes it.
bool non_starter(char32_t c) {
  const utf8proc_property_t* p = utf8proc_get_property(utf8proc_int32_t(c));
  bool backward = (p->comb_index != UINT16_MAX && p->comb_index >= 0x8000) || is_hangul_v(c) ||
                  is_hangul_t(c);
  return p->combining_class != 0 || backward;
}

// The normalization properties Go's NFC tables give [c].
NormProps norm_props(char32_t c) {
  const utf8proc_property_t* p = utf8proc_get_property(utf8proc_int32_t(c));
  bool canonical = (p->decomp_seqindex != UINT16_MAX && p->decomp_type == 0) || is_hangul_syllable(c);
  bool forward = (p->comb_index < 0x8000) || is_hangul_l(c) ||
                 (is_hangul_syllable(c) && (c - 0xAC00) % 28 == 0);
  bool backward = (p->comb_index != UINT16_MAX && p->comb_index >= 0x8000) || is_hangul_v(c) ||
                  is_hangul_t(c);
  NormProps r{};
  r.inert = p->combining_class == 0 && !canonical && !forward && !backward;
  if (canonical && !is_hangul_syllable(c)) {
    utf8proc_int32_t buf[32];
    int last = 0;
    utf8proc_ssize_t n = utf8proc_decompose_char(utf8proc_int32_t(c), buf, 32, UTF8PROC_DECOMPOSE, &last);
    if (n > 0 && n <= 32) {
      auto count = utf8proc_ssize_t(n);
      while (r.lead < count && non_starter(char32_t(buf[r.lead]))) ++r.lead;
      while (r.trail < count && non_starter(char32_t(buf[count - 1 - r.trail]))) ++r.trail;
    }
  } else if (!canonical) {
    r.lead = r.trail = (p->combining_class != 0 || backward) ? 1 : 0;
  }
  return r;
}

// The start of the rune that ends at [end] of [s], or -1 (Go's
// lastRuneStart: back over continuation bytes).
ptrdiff_t last_rune_start(std::string_view s, size_t end) {
  ptrdiff_t p = ptrdiff_t(end) - 1;
  while (p >= 0 && (static_cast<unsigned char>(s[size_t(p)]) & 0xC0) == 0x80) --p;
  return p;
}

// norm.NFC.LastBoundary: the position of the last normalization boundary of
// [s], after which appended text cannot change what comes before; -1: none.
ptrdiff_t nfc_last_boundary(std::string_view s) {
  ptrdiff_t p = last_rune_start(s, s.size());
  if (p < 0) return -1;
  uni::Rune r = uni::decode(s, size_t(p));
  if (!r.ok || size_t(p) + r.len != s.size()) return ptrdiff_t(s.size());  // illegal UTF-8
  NormProps info = norm_props(r.cp);
  if (info.inert) return ptrdiff_t(s.size());
  // Walk back to the last starter, giving up past 30 non-starters (Go's
  // stream-safe limit).
  unsigned nonstarters = info.trail;
  ptrdiff_t i = p;
  if (info.lead == 0) return i;
  while (true) {
    ptrdiff_t q = last_rune_start(s, size_t(i));
    if (q < 0) return -1;
    uni::Rune rr = uni::decode(s, size_t(q));
    if (!rr.ok || q + ptrdiff_t(rr.len) != i) return i;
    NormProps pi = norm_props(rr.cp);
    nonstarters += pi.trail;
    if (nonstarters > 30) return i;
    i = q;
    if (pi.lead == 0) return i;
  }
}

// Delimiters that can end a grapheme cluster whatever follows them
// (cty's sequenceMustEndGraphemeCluster).
bool must_end_cluster(std::string_view s) {
  uni::Rune r = uni::decode(s, 0);
  if (!r.ok || r.len != s.size()) return false;
  switch (r.cp) {
    case '-': case '_': case ':': case ';': case '/': case '\\': case ',': case '.': case '(':
    case ')': case '{': case '}': case '[': case ']': case '|': case '?': case '!': case '~':
    case ' ': case '\t': case '@': case '#': case '$': case '%': case '^': case '&': case '*':
    case '+': case '"': case '\'':
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string safe_known_prefix(std::string_view prefix) {
  std::string s = uni::nfc(prefix);
  ptrdiff_t lb = nfc_last_boundary(s);
  if (lb != -1 && size_t(lb) != s.size()) return s.substr(0, size_t(lb));
  // The last grapheme cluster could still be extended by what follows,
  // unless it is one of the delimiters known to end a cluster.
  size_t prev = 0, cur = 0;
  while (cur < s.size()) {
    prev = cur;
    cur += uni::grapheme_len(s, cur);
  }
  if (cur > prev && must_end_cluster(std::string_view(s).substr(prev, cur - prev))) prev = cur;
  return s.substr(0, prev);
}

// --- ValueRange -------------------------------------------------------------------

ValueRange value_range(const Value& v0) {
  const Value v = v0.unmark();
  ValueRange r;
  r.type_ = v.type();
  if (!v.is_known()) {
    if (v.rep() == Value::Rep::Unknown) {
      r.kind_ = kind_for(r.type_);
      if (r.kind_ == ValueRange::Kind::None) r.kind_ = ValueRange::Kind::Nullable;
      r.r_ = v.refinement();
      r.null_ = r.r_.not_null ? ValueRange::Null::No : ValueRange::Null::Unknown;
    } else {
      // cty synthesizes an unconstrained nullable refinement here.
      r.kind_ = ValueRange::Kind::Nullable;
    }
    return r;
  }
  if (v.is_null()) {
    r.kind_ = ValueRange::Kind::Nullable;
    r.null_ = ValueRange::Null::Yes;
    return r;
  }
  r.null_ = ValueRange::Null::No;
  r.kind_ = kind_for(r.type_);
  switch (r.kind_) {
    case ValueRange::Kind::String: r.r_.prefix = std::string(v.as_string()); break;
    case ValueRange::Kind::Number:
      r.r_.lower = r.r_.upper = v.as_number();
      r.r_.has_lower = r.r_.has_upper = true;
      r.r_.lower_inclusive = r.r_.upper_inclusive = true;
      break;
    case ValueRange::Kind::Collection: {
      ops::Result len = ops::length(v);
      if (len.ok() && len.value.is_known()) {
        auto n = uint64_t(*len.value.as_number().to_int64());
        r.r_.min_length = r.r_.max_length = n;
      }
      break;
    }
    default: r.kind_ = ValueRange::Kind::Nullable; break;
  }
  return r;
}

// Bounds, prefix and lengths read the refinement when its kind matches.
std::pair<Value, bool> ValueRange::number_lower_bound() const {
  if (type_->is_dynamic()) return {Value::unknown(Type::number()), false};
  if (kind_ == Kind::Number && r_.has_lower) return {Value::number(r_.lower), r_.lower_inclusive};
  return {infinity(true), false};
}

std::pair<Value, bool> ValueRange::number_upper_bound() const {
  if (type_->is_dynamic()) return {Value::unknown(Type::number()), false};
  if (kind_ == Kind::Number && r_.has_upper) return {Value::number(r_.upper), r_.upper_inclusive};
  return {infinity(false), false};
}

std::string_view ValueRange::string_prefix() const {
  if (kind_ == Kind::String) return r_.prefix;
  return {};
}

uint64_t ValueRange::length_lower_bound() const {
  return kind_ == Kind::Collection ? r_.min_length : 0;
}

uint64_t ValueRange::length_upper_bound() const {
  return kind_ == Kind::Collection ? r_.max_length : UINT64_MAX;
}

Value ValueRange::includes(const Value& v0) const {
  const Value v = v0.unmark();
  if (null_ == Null::Yes) return known_bool(v.is_null());
  if (null_ == Null::No && v.is_null()) return known_bool(false);
  if (v.is_null()) return known_bool(true);
  if (!ops::type_conforms(v.type(), type_)) return known_bool(false);
  if (v.type()->is_dynamic()) return unknown_bool_not_null();
  switch (kind_) {
    case Kind::String:
      if (v.is_known() && v.as_string().substr(0, r_.prefix.size()) != r_.prefix)
        return known_bool(false);
      break;
    case Kind::Collection: {
      ops::Result len = ops::length(v);
      if (!len.ok()) break;
      Value lo = Value::integer(int64_t(length_lower_bound()));
      uint64_t hi_n = length_upper_bound();
      Value hi = Value::integer(hi_n >= uint64_t(INT64_MAX) ? INT64_MAX : int64_t(hi_n));
      if (is_false(ops::greater_than_or_equal(len.value, lo))) return known_bool(false);
      if (is_false(ops::less_than_or_equal(len.value, hi))) return known_bool(false);
      break;
    }
    case Kind::Number: {
      auto [lo, lo_inc] = number_lower_bound();
      auto [hi, hi_inc] = number_upper_bound();
      ops::Result lo_ok = lo_inc ? ops::greater_than_or_equal(v, lo) : ops::greater_than(v, lo);
      ops::Result hi_ok = hi_inc ? ops::less_than_or_equal(v, hi) : ops::less_than(v, hi);
      if (is_false(lo_ok) || is_false(hi_ok)) return known_bool(false);
      break;
    }
    default: break;
  }
  return unknown_bool_not_null();
}

// --- RefinementBuilder -----------------------------------------------------------------

RefinementBuilder::RefinementBuilder(const Value& v) {
  auto [u, m] = v.unmark_with_marks();
  orig_ = std::move(u);
  marks_ = std::move(m);
  const Type* t = orig_.type();
  wip_.type_ = t;
  if (orig_.rep() == Value::Rep::Unknown) {
    // Refining again starts from the refinements the value already has.
    wip_.kind_ = kind_for(t);
    wip_.r_ = orig_.refinement();
    wip_.null_ = wip_.r_.not_null ? ValueRange::Null::No : ValueRange::Null::Unknown;
    return;
  }
  if (t->is_dynamic() && !orig_.is_known()) {
    // DynamicVal stays unrefined: every refinement is silently dropped.
    ignore_ = true;
    return;
  }
  if (t->is_dynamic()) {
    wip_.kind_ = ValueRange::Kind::Nullable;
    wip_.null_ = ValueRange::Null::Yes;
    return;
  }
  wip_.kind_ = kind_for(t);
}

// Records [message] unless an earlier inconsistency was recorded.
void RefinementBuilder::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

// Whether the next refinement applies: no earlier error, not DynamicVal,
// and a type that takes refinements.
bool RefinementBuilder::refinable() {
  if (!error_.empty() || ignore_) return false;
  if (wip_.kind_ == ValueRange::Kind::None) {
    fail("cannot refine a " + orig_.type()->go_string() + " value");
    return false;
  }
  return true;
}

RefinementBuilder& RefinementBuilder::not_null() {
  if (!refinable()) return *this;
  if ((orig_.is_known() && orig_.is_null()) || wip_.null_ == ValueRange::Null::Yes) {
    fail("refining null value as non-null");
    return *this;
  }
  wip_.null_ = ValueRange::Null::No;
  return *this;
}

RefinementBuilder& RefinementBuilder::null() {
  if (!refinable()) return *this;
  if ((orig_.is_known() && !orig_.is_null()) || wip_.null_ == ValueRange::Null::No) {
    fail("refining non-null value as null");
    return *this;
  }
  wip_.null_ = ValueRange::Null::Yes;
  return *this;
}

RefinementBuilder& RefinementBuilder::number_range_inclusive(const Value& min, const Value& max) {
  return number_lower_bound(min, true).number_upper_bound(max, true);
}

// Records an error when the number bounds leave no value (cty's
// assertConsistentBounds).
bool RefinementBuilder::check_number_bounds() {
  Refinement& r = wip_.r_;
  if (!r.has_lower || !r.has_upper) return true;
  // As in cty 1.19: equal bounds pass unless exactly one is exclusive.
  int c = Number::cmp(r.lower, r.upper);
  bool ok = r.lower_inclusive != r.upper_inclusive ? c < 0 : c <= 0;
  if (!ok)
    fail("number lower bound " + r.lower.text() + " is greater than upper bound " + r.upper.text());
  return ok;
}

RefinementBuilder& RefinementBuilder::number_lower_bound(const Value& min0, bool inclusive) {
  if (!refinable()) return *this;
  if (wip_.kind_ != ValueRange::Kind::Number) {
    fail("cannot refine numeric bounds for a " + orig_.type()->go_string() + " value");
    return *this;
  }
  const Value min = min0.unmark();
  if (!min.is_known()) return *this;
  if (min.is_null()) {
    fail("number range lower bound must not be null");
    return *this;
  }
  ops::Result beyond = inclusive ? ops::greater_than(min, orig_) : ops::greater_than_or_equal(min, orig_);
  if (is_true(beyond)) {
    fail("refining " + show(orig_) + " to be " + (inclusive ? ">= " : "> ") + show(min));
    return *this;
  }
  Refinement& r = wip_.r_;
  if (r.has_lower) {
    Value cur = Value::number(r.lower);
    ops::Result tighter = inclusive && !r.lower_inclusive ? ops::greater_than(min, cur)
                                                          : ops::greater_than_or_equal(min, cur);
    if (is_false(tighter)) return *this;  // the current bound is tighter
  }
  // cty drops its NegativeInfinity constant here; any -Inf is no bound.
  Number n = min.as_number();
  if (!(n.is_inf() && n.sign() < 0)) {
    r.lower = std::move(n);
    r.has_lower = true;
    r.lower_inclusive = inclusive;
  }
  check_number_bounds();
  return *this;
}

RefinementBuilder& RefinementBuilder::number_upper_bound(const Value& max0, bool inclusive) {
  if (!refinable()) return *this;
  if (wip_.kind_ != ValueRange::Kind::Number) {
    fail("cannot refine numeric bounds for a " + orig_.type()->go_string() + " value");
    return *this;
  }
  const Value max = max0.unmark();
  if (!max.is_known()) return *this;
  if (max.is_null()) {
    fail("number range upper bound must not be null");
    return *this;
  }
  ops::Result beyond = inclusive ? ops::less_than(max, orig_) : ops::less_than_or_equal(max, orig_);
  if (is_true(beyond)) {
    fail("refining " + show(orig_) + " to be " + (inclusive ? "<= " : "< ") + show(max));
    return *this;
  }
  Refinement& r = wip_.r_;
  if (r.has_upper) {
    Value cur = Value::number(r.upper);
    ops::Result tighter = inclusive && !r.upper_inclusive ? ops::less_than(max, cur)
                                                          : ops::less_than_or_equal(max, cur);
    if (is_false(tighter)) return *this;
  }
  Number n = max.as_number();
  if (!(n.is_inf() && n.sign() > 0)) {
    r.upper = std::move(n);
    r.has_upper = true;
    r.upper_inclusive = inclusive;
  }
  check_number_bounds();
  return *this;
}

RefinementBuilder& RefinementBuilder::collection_length_lower_bound(uint64_t min) {
  if (!refinable()) return *this;
  if (wip_.kind_ != ValueRange::Kind::Collection) {
    fail("cannot refine collection length bounds for a " + orig_.type()->go_string() + " value");
    return *this;
  }
  if (min >= uint64_t(INT64_MAX)) min = uint64_t(INT64_MAX);
  if (orig_.is_known()) {
    ops::Result len = ops::length(orig_);
    if (len.ok() && is_true(ops::greater_than(Value::integer(int64_t(min)), len.value))) {
      fail("refining collection of length " + show(len.value) + " with lower bound " +
           std::to_string(min));
      return *this;
    }
  }
  Refinement& r = wip_.r_;
  if (r.min_length > min) return *this;
  r.min_length = min;
  if (r.max_length < r.min_length)
    fail("collection length upper bound " + std::to_string(r.max_length) +
         " is less than lower bound " + std::to_string(r.min_length));
  return *this;
}

RefinementBuilder& RefinementBuilder::collection_length_upper_bound(uint64_t max) {
  if (!refinable()) return *this;
  if (wip_.kind_ != ValueRange::Kind::Collection) {
    fail("cannot refine collection length bounds for a " + orig_.type()->go_string() + " value");
    return *this;
  }
  // cty's unbounded is math.MaxInt; here UINT64_MAX.
  if (max >= uint64_t(INT64_MAX)) max = UINT64_MAX;
  if (orig_.is_known() && max != UINT64_MAX) {
    ops::Result len = ops::length(orig_);
    if (len.ok() && is_true(ops::less_than(Value::integer(int64_t(max)), len.value))) {
      fail("refining collection of length " + show(len.value) + " with upper bound " +
           std::to_string(max));
      return *this;
    }
  }
  Refinement& r = wip_.r_;
  if (r.max_length < max) return *this;
  r.max_length = max;
  if (r.max_length < r.min_length)
    fail("collection length upper bound " + std::to_string(r.max_length) +
         " is less than lower bound " + std::to_string(r.min_length));
  return *this;
}

RefinementBuilder& RefinementBuilder::collection_length(uint64_t n) {
  return collection_length_lower_bound(n).collection_length_upper_bound(n);
}

RefinementBuilder& RefinementBuilder::string_prefix(std::string_view prefix) {
  return string_prefix_full(safe_known_prefix(prefix));
}

RefinementBuilder& RefinementBuilder::string_prefix_full(std::string_view prefix0) {
  if (!refinable()) return *this;
  if (wip_.kind_ != ValueRange::Kind::String) {
    fail("cannot refine string prefix for a " + orig_.type()->go_string() + " value");
    return *this;
  }
  std::string prefix = uni::nfc(prefix0);
  // Only the overlapping parts are compared, byte for byte.
  auto agree = [&prefix](std::string_view have) {
    size_t n = std::min(have.size(), prefix.size());
    return have.substr(0, n) == std::string_view(prefix).substr(0, n);
  };
  if (orig_.is_known() && !orig_.is_null() && !agree(orig_.as_string())) {
    fail("refined prefix is inconsistent with known value");
    return *this;
  }
  Refinement& r = wip_.r_;
  if (!agree(r.prefix)) {
    fail("refined prefix is inconsistent with previous refined prefix");
    return *this;
  }
  if (prefix.size() > r.prefix.size()) r.prefix = std::move(prefix);
  return *this;
}

Value RefinementBuilder::new_value() const {
  if (!error_.empty() || ignore_ || orig_.is_known()) return orig_.mark(marks_);
  const Type* t = orig_.type();
  const Refinement& r = wip_.r_;
  // Refinements that leave a single possible value give that value.
  if (wip_.null_ == ValueRange::Null::Yes) return Value::null(t).mark(marks_);
  if (wip_.null_ == ValueRange::Null::No) {
    if (wip_.kind_ == ValueRange::Kind::Number && r.has_lower && r.has_upper &&
        r.lower_inclusive && r.upper_inclusive && ops::number_equal(r.lower, r.upper))
      return Value::number(r.lower).mark(marks_);
    if (wip_.kind_ == ValueRange::Kind::Collection && r.min_length == r.max_length) {
      uint64_t n = r.min_length;
      const Type* et = t->element();
      if (n == 0) {
        if (t->is_list()) return Value::list(et, {}).mark(marks_);
        if (t->is_set()) return Value::set(et, {}).mark(marks_);
        if (t->is_map()) return Value::map(et, {}).mark(marks_);
      } else if (t->is_list()) {
        std::vector<Value> elems(size_t(n), Value::unknown(et));
        return Value::list(et, std::move(elems)).mark(marks_);
      } else if (t->is_set() && n == 1) {
        return Value::set(et, {Value::unknown(et)}).mark(marks_);
      }
    }
  }
  Refinement out;
  out.not_null = wip_.null_ == ValueRange::Null::No;
  if (wip_.kind_ == ValueRange::Kind::String) out.prefix = r.prefix;
  if (wip_.kind_ == ValueRange::Kind::Number) {
    out.lower = r.lower;
    out.upper = r.upper;
    out.has_lower = r.has_lower;
    out.has_upper = r.has_upper;
    out.lower_inclusive = r.has_lower && r.lower_inclusive;
    out.upper_inclusive = r.has_upper && r.upper_inclusive;
  }
  if (wip_.kind_ == ValueRange::Kind::Collection) {
    out.min_length = r.min_length;
    out.max_length = r.max_length;
  }
  return Value::unknown(t, std::move(out)).mark(marks_);
}

Value unknown_bool_not_null() {
  Refinement r;
  r.not_null = true;
  return Value::unknown(Type::boolean(), r);
}

Value refine_not_null(const Value& v) {
  // The usual case, an operator's or a function's unknown result: a plain
  // unknown of a primitive type, whose refined form is always the same.
  if (v.rep() == Value::Rep::TypeOnly && !v.is_known()) {
    auto make = [](const Type* t) { return refine(Value::unknown(t)).not_null().new_value(); };
    static const Value number = make(Type::number()), string = make(Type::string()),
                       boolean = make(Type::boolean());
    const Type* t = v.type();
    if (t == Type::number()) return number;
    if (t == Type::string()) return string;
    if (t == Type::boolean()) return boolean;
  }
  return refine(v).not_null().new_value();
}

}  // namespace hclvm

// Operations on values with go-cty's semantics (value_ops.go of the newest
// release): equality, ordering, arithmetic, logic, length, indexing,
// attribute access, and the hashing and membership rules of sets
// (set_internals.go). See ops.h for the contract; the comments here explain
// where the code follows a cty detail that is easy to get wrong.
#include "value/ops.h"

#include <algorithm>
#include <array>
#include <map>
#include <cstring>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "util/budget.h"
#include "util/meter.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/number.h"
#include "value/refine.h"
#include "value/walk.h"

namespace hclvm::ops {

namespace {

// The known bool [b].
Value bool_value(bool b) { return Value::boolean(b); }

// An unknown bool that is not null: cty's usual "can't tell yet" answer.
Value unknown_bool() { return unknown_bool_not_null(); }

// Whether [v] is the known, unmarked bool [b] (Go's `v == cty.True`).
bool is_bool_literal(const Value& v, bool b) {
  return v.is_plain() && v.type() == Type::boolean() && v.as_bool() == b;
}

// Whether [v] is a known number equal to -Inf or +Inf ([sign] -1 or +1).
bool is_infinity(const Value& v, int sign) {
  if (!v.is_plain() || v.type() != Type::number()) return false;
  Number n = v.as_number();
  return n.is_inf() && n.sign() == sign;
}

// The union of [a]'s and [b]'s marks.
Marks union_marks(const Marks& a, const Marks& b) {
  Marks m = a;
  m.add(b);
  return m;
}

// The error for a null operand (cty would dereference nil; its function
// layer words it so).
std::string null_argument() { return "argument must not be null"; }

// cty's typeCheck followed by forceShortCircuitType: whether all of [vals]
// are of [required] (or dynamic). Sets [short_circuit] to an unknown of
// [ret] when one is of the dynamic type or unknown, [error] when one is of
// another type.
bool type_check(const Type* required, const Type* ret, std::span<const Value> vals,
                Value& short_circuit, std::string& error) {
  bool dynamic = false, unknown = false;
  for (size_t i = 0; i < vals.size(); ++i) {
    const Type* t = vals[i].type();
    if (t == Type::dynamic()) {
      dynamic = true;
    } else if (t != required) {
      error = "type mismatch: want " + required->friendly_name() + " but value " +
              std::to_string(i) + " is " + t->friendly_name();
      return false;
    } else if (!vals[i].is_known()) {
      unknown = true;
    }
  }
  if (dynamic || unknown) {
    short_circuit = Value::unknown(ret);
    return true;
  }
  return false;
}

// The shape cty's number and bool operations share, on operands [args0]
// of type [in]: their marks set aside; the short cut for unknown and
// dynamic operands, whose result [on_unknown] makes from the operands and
// an unknown of type [out]; errors for other types and for null; else the
// Result of [op] on the operands. The result carries every operand's marks.
template <class OnUnknown, class Op, class... Args>
Result operation(const Type* in, const Type* out, OnUnknown on_unknown, Op op,
                 const Args&... args0) {
  // Known, non-null, unmarked operands of type [in] (the usual case):
  // nothing to set aside, check or short-cut.
  if ((... && (args0.is_plain() && args0.type() == in))) return op(args0...);
  Marks marks;
  auto unmark = [&marks](const Value& v) {
    auto [u, m] = v.unmark_with_marks();
    marks.add(m);
    return u;
  };
  const std::array<Value, sizeof...(Args)> args{unmark(args0)...};
  // Calls [f] with the unmarked operands and then [extra].
  auto call = [&args](auto& f, const auto&... extra) {
    return std::apply([&](const auto&... v) { return f(v..., extra...); }, args);
  };
  Value sc;
  std::string error;
  if (type_check(in, out, args, sc, error)) return Result::of(call(on_unknown, sc).mark(marks));
  if (!error.empty()) return Result::fail(std::move(error));
  for (const Value& a : args)
    if (a.is_null()) return Result::fail(null_argument());
  Result r = call(op);
  if (r.ok()) r.value = r.value.mark(marks);
  return r;
}

// --- numbers -------------------------------------------------------------------

enum class ArithOp : char { Add = '+', Sub = '-', Mul = '*', Div = '/', Mod = '%' };

// [a] op [b] for known numbers into [out], with big.Float's (and cty's)
// precision rules; false with the reference's message in [error] when
// big.Float has no result. The only place that calls Number's arithmetic.
bool arith(ArithOp op, const Number& a, const Number& b, Number& out, std::string& error) {
  NumError err = NumError::None;
  switch (op) {
    case ArithOp::Add: out = Number::add(a, b, err); break;
    case ArithOp::Sub: out = Number::sub(a, b, err); break;
    case ArithOp::Mul: out = Number::mul(a, b, err); break;
    case ArithOp::Div: out = Number::quo(a, b, err); break;
    case ArithOp::Mod: out = Number::mod(a, b, err); break;
  }
  if (err == NumError::None) return true;
  error = Number::error_message(err, char(op));
  return false;
}

// cty.Zero: big.NewFloat(0), at a double's precision.
Number cty_zero() { return Number::from_double(0); }

// One corner of cty's interval arithmetic: [a] op [b] for bound values, or
// an unknown number when a bound is unknown or the operation has no result
// (cty catches the panic and uses an unconstrained number).
Value bound_op(ArithOp op, const Value& a, const Value& b) {
  if (!a.is_known() || !b.is_known()) return Value::unknown(Type::number());
  Number r;
  std::string error;
  if (!arith(op, a.as_number(), b.as_number(), r, error)) return Value::unknown(Type::number());
  return Value::number(std::move(r));
}

// cty's mostNumberValue: the least ([want_less]) or greatest of [vs] by
// the ordering operations, or an unknown number when an order is unknown.
Value most_number(bool want_less, const std::array<Value, 4>& vs) {
  Value r = vs[0];
  for (size_t i = 1; i < vs.size(); ++i) {
    Result more = want_less ? less_than(vs[i], r) : greater_than(vs[i], r);
    if (!more.ok() || !more.value.is_known()) return Value::unknown(Type::number());
    if (more.value.as_bool()) r = vs[i];
  }
  return r;
}

// The unknown result of [a] op [b] when an operand is unknown: cty refines
// it with the interval arithmetic of the operands' bounds
// (numericRangeArithmetic), then as not null.
Value refined_arith(ArithOp op, const Value& a, const Value& b) {
  ValueRange ra = value_range(a), rb = value_range(b);
  Value a_min = ra.number_lower_bound().first, a_max = ra.number_upper_bound().first;
  Value b_min = rb.number_lower_bound().first, b_max = rb.number_upper_bound().first;
  std::array<Value, 4> corners = {bound_op(op, a_min, b_min), bound_op(op, a_min, b_max),
                                  bound_op(op, a_max, b_min), bound_op(op, a_max, b_max)};
  Value lo = most_number(true, corners), hi = most_number(false, corners);
  RefinementBuilder b0(Value::unknown(Type::number()));
  if (lo.is_known() && !is_infinity(lo, -1)) b0.number_lower_bound(lo, true);
  if (hi.is_known() && !is_infinity(hi, +1)) b0.number_upper_bound(hi, true);
  return refine_not_null(b0.new_value());
}

// The shared shape of the binary arithmetic operations.
Result arithmetic(ArithOp op, const Value& a0, const Value& b0) {
  // The common case first: two known, unmarked numbers.
  auto is_num = [](const Value& v) {
    return v.is_plain() && (v.rep() == Value::Rep::SmallNum || v.rep() == Value::Rep::BigNum);
  };
  if (is_num(a0) && is_num(b0)) {
    Number r;
    std::string error;
    if (!arith(op, a0.as_number(), b0.as_number(), r, error)) return Result::fail(std::move(error));
    return Result::of(Value::number(std::move(r)));
  }
  auto on_unknown = [op](const Value& a, const Value& b, const Value& sc) {
    switch (op) {
      case ArithOp::Add:
      case ArithOp::Sub:
      case ArithOp::Mul: return refined_arith(op, a, b);
      default: return refine_not_null(sc);
    }
  };
  auto known = [op](const Value& a, const Value& b) {
    Number r;
    std::string error;
    if (!arith(op, a.as_number(), b.as_number(), r, error)) return Result::fail(std::move(error));
    return Result::of(Value::number(std::move(r)));
  };
  return operation(Type::number(), Type::number(), on_unknown, known, a0, b0);
}

// The shared shape of less_than and greater_than.
Result order(bool less, const Value& a0, const Value& b0) {
  auto on_unknown = [less](const Value& a, const Value& b, const Value&) {
    // The bounds of unknown operands may decide it. As in cty, every bound
    // is treated as exclusive, which is conservative. An unknown without
    // refinements has no bound, and each test below needs one of its.
    auto unbounded = [](const Value& v) {
      return !v.is_known() && v.rep() == Value::Rep::TypeOnly;
    };
    if (unbounded(a) || unbounded(b)) return unknown_bool();
    ValueRange ra = value_range(a), rb = value_range(b);
    if (ra.type_constraint() == Type::number() && rb.type_constraint() == Type::number()) {
      auto decided = [](const Value& x, const Value& y, bool lt) {
        if (!x.is_known() || !y.is_known()) return false;
        int c = Number::cmp(x.as_number(), y.as_number());
        return lt ? c < 0 : c > 0;
      };
      Value a_min = ra.number_lower_bound().first, a_max = ra.number_upper_bound().first;
      Value b_min = rb.number_lower_bound().first, b_max = rb.number_upper_bound().first;
      if (less) {
        if (decided(a_max, b_min, true)) return bool_value(true);
        if (decided(a_min, b_max, false)) return bool_value(false);
      } else {
        if (decided(a_min, b_max, false)) return bool_value(true);
        if (decided(a_max, b_min, true)) return bool_value(false);
      }
    }
    return unknown_bool();
  };
  auto known = [less](const Value& a, const Value& b) {
    int c = Number::cmp(a.as_number(), b.as_number());
    return Result::of(bool_value(less ? c < 0 : c > 0));
  };
  return operation(Type::number(), Type::boolean(), on_unknown, known, a0, b0);
}

// --- set hashing ----------------------------------------------------------------

}  // namespace

uint32_t crc32_ieee(std::string_view bytes) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (char ch : bytes) c = table[(c ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

namespace {

// Appends cty's hash bytes of values (appendSetHashBytes) to a string.
// Text as long as the value's every path, so it is metered as it grows
// (util/meter.h), and held to the string size limit like the string it is
// in cty: the hash bytes of a value that repeats a shared part
// many times would otherwise grow without bound. Recursion is checked
// against the stack budget of the innermost run_deep (util/stack.h).
class Hasher {
 public:
  explicit Hasher(std::string& out) : out_(out), meter_(out, util::TextMeter::Use::StringValue) {}

  // Appends the hash bytes of [v].
  void append(const Value& v0) {
    const Value& v = detail::unmarked_ref(v0);
    if (!v.is_known()) {
      out_ += '?';
      return;
    }
    if (v.is_null()) {
      out_ += '~';
      return;
    }
    const Type* t = v.type();
    switch (t->kind()) {
      case TypeKind::Number:  // big.Float's String()
        out_ += num::big_float_text(v.as_number(), 'g', 10);
        break;
      case TypeKind::Bool: out_ += v.as_bool() ? 'T' : 'F'; break;
      case TypeKind::String: out_ += uni::go_quote(v.as_string()); break;
      case TypeKind::Map:
        util::enter_level();
        out_ += '{';
        for (size_t i = 0; i < v.length(); ++i) {
          out_ += uni::go_quote(v.map_key(i));
          out_ += ':';
          append(v.map_value(i));
          out_ += ';';
        }
        out_ += '}';
        break;
      case TypeKind::List:
      case TypeKind::Set:
      case TypeKind::Object:
      case TypeKind::Tuple: {
        util::enter_level();
        // Object attributes are stored sorted by name, as cty sorts them here.
        bool structural = t->is_structural();
        out_ += structural ? '<' : '[';
        for (const Value& e : v.elements()) {
          append(e);
          out_ += ';';
        }
        out_ += structural ? '>' : ']';
        break;
      }
      case TypeKind::Capsule: out_ += "\xC2\xAB?\xC2\xBB"; break;  // «?»: no hash key
      case TypeKind::Dynamic: break;
    }
    meter_.check();
  }

 private:
  std::string& out_;
  util::TextMeter meter_;
};

// The hash bytes of [v] into [out], within a stack budget of their own
// when [v] nests.
void hash_bytes(const Value& v, std::string& out) {
  if (!detail::is_container(detail::unmarked_ref(v))) {
    Hasher(out).append(v);
    return;
  }
  // A try that runs out of stack starts over: without what it wrote.
  size_t start = out.size();
  util::run_deep([&](const util::StackBudget&) {
    out.resize(start);
    Hasher(out).append(v);
    return true;
  });
}

// --- equality --------------------------------------------------------------------

// Whether [v] is known not null or refined as not null (cty's definitelyNotNull).
bool definitely_not_null(const Value& v) {
  if (v.is_known()) return !v.is_null();
  return value_range(v).definitely_not_null();
}

// Whether [v] is the known bool false.
bool known_false(const Value& v) { return v.is_plain() && !v.as_bool(); }

// Whether two unknowns' refinements are the same (cty's rawEqual).
bool refinement_raw_equal(const Refinement& x, const Refinement& y) {
  if (x.not_null != y.not_null || x.prefix != y.prefix) return false;
  if (x.has_lower != y.has_lower || x.has_upper != y.has_upper) return false;
  if (x.has_lower && (x.lower_inclusive != y.lower_inclusive || !number_equal(x.lower, y.lower)))
    return false;
  if (x.has_upper && (x.upper_inclusive != y.upper_inclusive || !number_equal(x.upper, y.upper)))
    return false;
  return x.min_length == y.min_length && x.max_length == y.max_length;
}

// cty's Equals and RawEquals over nested values, in time linear in what
// the values hold:
//  - cty checks HasWhollyKnownType at every level of Equals, a walk of the
//    whole rest of the value each time (quadratic in the nesting); if both
//    values pass at the top, every part of them passes too, so it is
//    checked once;
//  - the answer for a pair of shared containers is remembered, so values
//    that repeat a shared part compare it once (value/walk.h), and each
//    pair of containers compared counts its elements as steps of the
//    evaluation, so that no comparison escapes the step limit;
//  - recursion is checked against the innermost run_deep's stack budget.
class Comparer {
 public:
  enum Answer : uint8_t { kFalse, kTrue, kUnknown };

  // cty's Equals of [a] and [b], which carry no marks at any depth;
  // [types_known]: both are known to have wholly known types.
  Answer equal(const Value& a, const Value& b, bool types_known) {
    // Comparisons with null are decided by what is known of the other side.
    if (a.is_null() && definitely_not_null(b)) return kFalse;
    if (b.is_null() && definitely_not_null(a)) return kFalse;
    // A known value outside the range of an unknown one is not equal to it.
    if (a.is_known() && !b.is_known()) {
      if (known_false(value_range(b).includes(a))) return kFalse;
    } else if (b.is_known() && !a.is_known()) {
      if (known_false(value_range(a).includes(b))) return kFalse;
    }
    // Unknowns before nulls: an unknown not refined as not null may be null,
    // and nulls of all types are equal.
    if (!a.is_known() && !b.is_known()) return kUnknown;
    if (a.is_known() != b.is_known()) {
      const Value& k = a.is_known() ? a : b;
      const Value& u = a.is_known() ? b : a;
      if (k.is_null() || u.type()->has_dynamic_types()) return kUnknown;
      if (k.type() != u.type()) return kFalse;
      return kUnknown;
    }
    if (a.is_null() && b.is_null()) return kTrue;
    if (a.is_null() || b.is_null()) return kFalse;

    // Nested values of the dynamic type make it unknown, unless the types
    // can never conform whatever they turn out to be.
    if (!types_known) {
      if (!has_wholly_known_type(a) || !has_wholly_known_type(b)) {
        if (!type_conforms(a.type(), b.type()) && !type_conforms(b.type(), a.type()))
          return kFalse;
        return kUnknown;
      }
    }
    const Type* t = a.type();
    if (t != b.type()) return kFalse;

    switch (t->kind()) {
      case TypeKind::Number: return answer(number_equal(a.as_number(), b.as_number()));
      case TypeKind::Bool: return answer(a.as_bool() == b.as_bool());
      case TypeKind::String: return answer(a.as_string() == b.as_string());
      case TypeKind::Tuple:
      case TypeKind::List:
      case TypeKind::Map:
      case TypeKind::Object:
      case TypeKind::Set: {
        Answer* memo = remembered(a, b);
        if (memo && *memo != kPending) return *memo;
        Answer r = members(a, b, t);
        if (memo) *memo = r;
        return r;
      }
      case TypeKind::Capsule: {
        const CapsuleOps* cops = t->capsule_ops();
        if (cops && cops->equals) return answer(cops->equals(a.capsule_payload(), b.capsule_payload()));
        return answer(a.capsule_payload() == b.capsule_payload());
      }
      case TypeKind::Dynamic: break;
    }
    return kUnknown;
  }

  // cty's RawEquals of [a] and [b].
  bool raw(const Value& a, const Value& b) {
    if (a.type() != b.type()) return false;
    if (!(a.marks() == b.marks())) return false;
    const Value& ua = detail::unmarked_ref(a);
    const Value& ub = detail::unmarked_ref(b);
    if (!ua.is_known() && !ub.is_known())
      return refinement_raw_equal(ua.refinement(), ub.refinement());
    if (ua.is_known() != ub.is_known()) return false;
    if (ua.is_null() && ub.is_null()) return true;
    if (ua.is_null() || ub.is_null()) return false;
    const Type* t = ua.type();
    switch (t->kind()) {
      case TypeKind::Number: return number_equal(ua.as_number(), ub.as_number());
      case TypeKind::Bool: return ua.as_bool() == ub.as_bool();
      case TypeKind::String: return ua.as_string() == ub.as_string();
      case TypeKind::List:
      case TypeKind::Set:
      case TypeKind::Tuple:
      case TypeKind::Object:
      case TypeKind::Map: {
        Answer* memo = remembered(ua, ub);
        if (memo && *memo != kPending) return *memo == kTrue;
        bool r = raw_members(ua, ub, t);
        if (memo) *memo = answer(r);
        return r;
      }
      case TypeKind::Capsule: {
        const CapsuleOps* cops = t->capsule_ops();
        if (cops && cops->equals) return cops->equals(ua.capsule_payload(), ub.capsule_payload());
        return ua.capsule_payload() == ub.capsule_payload();
      }
      case TypeKind::Dynamic: return true;
    }
    return false;
  }

 private:
  static constexpr Answer kPending = Answer(3);
  static constexpr size_t kMemoAfter = 256;

  static Answer answer(bool b) { return b ? kTrue : kFalse; }

  // Enters a pair of containers of [n] elements: counts the elements as
  // steps and checks the stack.
  void enter(size_t n) {
    util::enter_level();
    util::charge_steps(n);
  }

  // The remembered answer for the containers [a] and [b], or a new
  // pending slot for it; null when the pair is not remembered (small
  // comparisons, objects held once).
  Answer* remembered(const Value& a, const Value& b) {
    if (compared_ < kMemoAfter) {
      ++compared_;
      return nullptr;
    }
    if (!detail::is_shared(a.obj()) && !detail::is_shared(b.obj())) return nullptr;
    return &memo_.try_emplace(Pair{a.obj(), b.obj()}, kPending).first->second;
  }

  // equal() of the elements or attributes of the containers [a] and [b]
  // of type [t].
  Answer members(const Value& a, const Value& b, const Type* t) {
    enter(a.length());
    switch (t->kind()) {
      case TypeKind::Tuple:
      case TypeKind::List: {
        // In order: the first unknown or unequal element decides.
        if (a.length() != b.length()) return kFalse;
        for (size_t i = 0; i < a.length(); ++i) {
          Answer eq = equal(a.element(i), b.element(i), true);
          if (eq != kTrue) return eq;
        }
        return kTrue;
      }
      case TypeKind::Object: {
        // cty visits attributes in Go's random map order and stops at the
        // first unknown or unequal one; an unequal attribute decides here.
        bool unknown = false;
        for (size_t i = 0; i < t->size(); ++i) {
          Answer eq = equal(a.attr(i), b.attr(i), true);
          if (eq == kUnknown) unknown = true;
          else if (eq == kFalse) return kFalse;
        }
        return unknown ? kUnknown : kTrue;
      }
      case TypeKind::Map: {
        if (a.length() != b.length()) return kFalse;
        bool unknown = false;
        for (size_t i = 0; i < a.length(); ++i) {
          const Value* other = b.map_find(a.map_key(i));
          if (!other) return kFalse;
          Answer eq = equal(a.map_value(i), *other, true);
          if (eq == kUnknown) unknown = true;
          else if (eq == kFalse) return kFalse;
        }
        return unknown ? kUnknown : kTrue;
      }
      default: {  // set
        // Any unknown element makes it unknown, even after a mismatch.
        bool equal = true;
        std::vector<uint32_t> ha = element_hashes(a), hb = element_hashes(b);
        for (const Value& e : a.elements()) {
          if (!e.is_known()) return kUnknown;
          if (!stores(b, hb, e)) equal = false;
        }
        for (const Value& e : b.elements()) {
          if (!e.is_known()) return kUnknown;
          if (!stores(a, ha, e)) equal = false;
        }
        return answer(equal);
      }
    }
  }

  // raw() of the elements or attributes of the containers [a] and [b] of
  // type [t]; sets are stored in cty's order, so equal sets line up.
  bool raw_members(const Value& a, const Value& b, const Type* t) {
    if (a.length() != b.length()) return false;
    enter(a.length());
    if (t->is_map()) {
      for (size_t i = 0; i < a.length(); ++i)
        if (a.map_key(i) != b.map_key(i) || !raw(a.map_value(i), b.map_value(i))) return false;
      return true;
    }
    std::span<const Value> xs = a.elements(), ys = b.elements();
    for (size_t i = 0; i < xs.size(); ++i)
      if (!raw(xs[i], ys[i])) return false;
    return true;
  }

  // The buckets of the elements of the known set [set], in order.
  static std::vector<uint32_t> element_hashes(const Value& set) {
    std::vector<uint32_t> hs;
    hs.reserve(set.length());
    for (const Value& e : set.elements()) hs.push_back(element_hash(e));
    return hs;
  }

  // set_hash() of [e], within the stack budget already in force.
  static uint32_t element_hash(const Value& e) {
    std::string bytes;
    Hasher(bytes).append(e);
    return crc32_ieee(bytes);
  }

  // Whether some element of the known set [set], whose hashes are
  // [hashes], is equivalent to [elem] (equal, with a known true result).
  bool stores(const Value& set, const std::vector<uint32_t>& hashes, const Value& elem) {
    uint32_t h = element_hash(elem);
    std::span<const Value> es = set.elements();
    for (size_t i = 0; i < es.size(); ++i)
      if (hashes[i] == h && equal(es[i], elem, true) == kTrue) return true;
    return false;
  }

  struct Pair {
    const detail::Obj* a;
    const detail::Obj* b;
    bool operator==(const Pair&) const = default;
  };
  struct PairHash {
    size_t operator()(const Pair& p) const {
      return std::hash<const void*>()(p.a) * 31 + std::hash<const void*>()(p.b);
    }
  };

  size_t compared_ = 0;
  std::unordered_map<Pair, Answer, PairHash> memo_;
};

// A Comparer's answer as cty's value.
Value answer_value(Comparer::Answer a) {
  return a == Comparer::kUnknown ? unknown_bool() : bool_value(a == Comparer::kTrue);
}

// cty's Equals for values without marks at any depth; values that nest
// are compared within a stack budget of their own.
Value equals_plain(const Value& a, const Value& b) {
  if (!detail::is_container(a) || !detail::is_container(b))
    return answer_value(Comparer().equal(a, b, false));
  return util::run_deep(
      [&](const util::StackBudget&) { return answer_value(Comparer().equal(a, b, false)); });
}

// --- logic ---------------------------------------------------------------------------

// The shared shape of logical_and ([is_and]) and logical_or.
Result logic(bool is_and, const Value& a0, const Value& b0) {
  auto on_unknown = [is_and](const Value& a, const Value& b, const Value&) {
    // A known false (for and) or true (for or) decides whatever the other is.
    bool decisive = !is_and;
    if (is_bool_literal(a, decisive) || is_bool_literal(b, decisive)) return bool_value(decisive);
    return unknown_bool();
  };
  auto known = [is_and](const Value& a, const Value& b) {
    return Result::of(bool_value(is_and ? a.as_bool() && b.as_bool() : a.as_bool() || b.as_bool()));
  };
  return operation(Type::boolean(), Type::boolean(), on_unknown, known, a0, b0);
}

// The index [key] as a non-negative int64, if it is one.
bool exact_index(const Value& key, int64_t& out) {
  std::optional<int64_t> i = key.as_number().to_int64();
  if (!i || *i < 0) return false;
  out = *i;
  return true;
}

// cty's NumberIntVal([i]).
Value number_int(int64_t i) { return Value::integer(i); }

// A length bound as cty converts it to a number (math.MaxInt when unbounded).
Value length_bound(uint64_t n) {
  return Value::integer(n >= uint64_t(INT64_MAX) ? INT64_MAX : int64_t(n));
}

}  // namespace

// --- public: equality --------------------------------------------------------------------

bool number_equal(const Number& a, const Number& b) {
  if (a.sign() != b.sign()) return false;
  // Integers compare exactly; only one an integer: not equal.
  bool ai = a.is_integer(), bi = b.is_integer();
  if (ai != bi) return false;
  if (ai) return Number::cmp(a, b) == 0;
  return num::same_text(a, b);
}

Value equals(const Value& a, const Value& b) {
  if (a.contains_marked() || b.contains_marked()) {
    auto [ua, ma] = a.unmark_deep();
    auto [ub, mb] = b.unmark_deep();
    // Comparing with null keeps only the top-level marks (go-cty 1.18).
    if (a.is_null() != b.is_null()) {
      ma = a.marks();
      mb = b.marks();
    }
    return equals_plain(ua, ub).mark(union_marks(ma, mb));
  }
  return equals_plain(a, b);
}

Value not_equals(const Value& a, const Value& b) {
  Result r = logical_not(equals(a, b));
  return r.value;
}

bool raw_equal(const Value& a, const Value& b) {
  if (!detail::is_container(detail::unmarked_ref(a)) ||
      !detail::is_container(detail::unmarked_ref(b)))
    return Comparer().raw(a, b);
  return util::run_deep([&](const util::StackBudget&) { return Comparer().raw(a, b); });
}

namespace {

bool identical_number(const Number& a, const Number& b) {
  return a.precision() == b.precision() && Number::cmp(a, b) == 0 &&
         a.is_negative_zero() == b.is_negative_zero() &&
         num::is_canonical_infinity(a) == num::is_canonical_infinity(b);
}

bool identical_refinement(const Refinement& x, const Refinement& y) {
  if (x.not_null != y.not_null || x.prefix != y.prefix) return false;
  if (x.has_lower != y.has_lower || x.has_upper != y.has_upper) return false;
  if (x.has_lower &&
      (x.lower_inclusive != y.lower_inclusive || !identical_number(x.lower, y.lower)))
    return false;
  if (x.has_upper &&
      (x.upper_inclusive != y.upper_inclusive || !identical_number(x.upper, y.upper)))
    return false;
  return x.min_length == y.min_length && x.max_length == y.max_length;
}

bool identical_at(const Value& a, const Value& b) {
  // The same handle (the same heap object, or the same inline payload).
  if (a.rep() == b.rep() && a.flags() == b.flags() && a.aux() == b.aux() && a.obj() == b.obj())
    return true;
  if (a.type() != b.type() || !(a.marks() == b.marks())) return false;
  const Value& ua = detail::unmarked_ref(a);
  const Value& ub = detail::unmarked_ref(b);
  if (ua.is_known() != ub.is_known()) return false;
  if (!ua.is_known()) return identical_refinement(ua.refinement(), ub.refinement());
  if (ua.is_null() || ub.is_null()) return ua.is_null() == ub.is_null();
  const Type* t = ua.type();
  switch (t->kind()) {
    case TypeKind::Number:
      return identical_number(ua.as_number(), ub.as_number());
    case TypeKind::Bool:
      return ua.as_bool() == ub.as_bool();
    case TypeKind::String:
      return ua.as_string() == ub.as_string();
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple: {
      if (ua.length() != ub.length()) return false;
      util::enter_level();
      for (size_t i = 0; i < ua.length(); ++i)
        if (!identical_at(ua.element(i), ub.element(i))) return false;
      return true;
    }
    case TypeKind::Map: {
      if (ua.length() != ub.length()) return false;
      util::enter_level();
      for (size_t i = 0; i < ua.length(); ++i)
        if (ua.map_key(i) != ub.map_key(i) || !identical_at(ua.map_value(i), ub.map_value(i)))
          return false;
      return true;
    }
    case TypeKind::Object: {
      util::enter_level();
      for (size_t i = 0; i < t->size(); ++i)
        if (!identical_at(ua.attr(i), ub.attr(i))) return false;
      return true;
    }
    case TypeKind::Capsule:
      return ua.capsule_payload() == ub.capsule_payload();
    case TypeKind::Dynamic:
      return true;
  }
  return false;
}

}  // namespace

bool identical(const Value& a, const Value& b) {
  if (!detail::is_container(detail::unmarked_ref(a)) ||
      !detail::is_container(detail::unmarked_ref(b)))
    return identical_at(a, b);
  return util::run_deep([&](const util::StackBudget&) { return identical_at(a, b); });
}

// --- public: ordering ----------------------------------------------------------------------

Result less_than(const Value& a, const Value& b) { return order(true, a, b); }
Result greater_than(const Value& a, const Value& b) { return order(false, a, b); }

Result less_than_or_equal(const Value& a, const Value& b) {
  Result lt = less_than(a, b);
  if (!lt.ok()) return lt;
  return logical_or(lt.value, equals(a, b));
}

Result greater_than_or_equal(const Value& a, const Value& b) {
  Result gt = greater_than(a, b);
  if (!gt.ok()) return gt;
  return logical_or(gt.value, equals(a, b));
}

// --- public: arithmetic ----------------------------------------------------------------------

Result add(const Value& a, const Value& b) { return arithmetic(ArithOp::Add, a, b); }
Result subtract(const Value& a, const Value& b) { return arithmetic(ArithOp::Sub, a, b); }
Result multiply(const Value& a, const Value& b) { return arithmetic(ArithOp::Mul, a, b); }
Result divide(const Value& a, const Value& b) { return arithmetic(ArithOp::Div, a, b); }
Result modulo(const Value& a, const Value& b) { return arithmetic(ArithOp::Mod, a, b); }

Result negate(const Value& a0) {
  auto on_unknown = [](const Value&, const Value& sc) { return refine_not_null(sc); };
  auto known = [](const Value& a) { return Result::of(Value::number(a.as_number().neg())); };
  return operation(Type::number(), Type::number(), on_unknown, known, a0);
}

Result absolute(const Value& a0) {
  auto on_unknown = [](const Value&, const Value& sc) {
    return refine(sc)
        .not_null()
        .number_range_inclusive(Value::number(cty_zero()), Value::unknown(Type::number()))
        .new_value();
  };
  auto known = [](const Value& a) { return Result::of(Value::number(a.as_number().abs())); };
  return operation(Type::number(), Type::number(), on_unknown, known, a0);
}

// --- public: logic ----------------------------------------------------------------------------

Result logical_and(const Value& a, const Value& b) { return logic(true, a, b); }
Result logical_or(const Value& a, const Value& b) { return logic(false, a, b); }

Result logical_not(const Value& a0) {
  auto on_unknown = [](const Value&, const Value& sc) { return refine_not_null(sc); };
  auto known = [](const Value& a) { return Result::of(bool_value(!a.as_bool())); };
  return operation(Type::boolean(), Type::boolean(), on_unknown, known, a0);
}

// --- public: collections and structures --------------------------------------------------------

Result length(const Value& v0) {
  auto [v, marks] = v0.unmark_with_marks();
  const Type* t = v.type();
  if (t->is_tuple()) return Result::of(number_int(int64_t(t->size())).mark(marks));
  if (!v.is_known()) {
    if (!t->is_collection() && !t->is_dynamic())
      return Result::fail("value is not a collection");
    ValueRange r = value_range(v);
    Value n = refine(Value::unknown(Type::number()))
                  .not_null()
                  .number_range_inclusive(length_bound(r.length_lower_bound()),
                                          length_bound(r.length_upper_bound()))
                  .new_value();
    return Result::of(n.mark(marks));
  }
  if (t->is_set() && !v.is_null()) {
    // Unknown elements may coalesce with others once known, so only a
    // wholly known set, or one with a single element, has a known length.
    size_t stored = v.length();
    if (stored == 1 || v.is_wholly_known()) return Result::of(number_int(int64_t(stored)).mark(marks));
    Value n = refine(Value::unknown(Type::number()))
                  .not_null()
                  .number_range_inclusive(number_int(1), number_int(int64_t(stored)))
                  .new_value();
    return Result::of(n.mark(marks));
  }
  Result n = length_int(v);
  if (!n.ok()) return n;
  return Result::of(n.value.mark(marks));
}

Result length_int(const Value& v0) {
  const Value v = v0.unmark();
  const Type* t = v.type();
  if (t->is_tuple() || t->is_object()) return Result::of(number_int(int64_t(t->size())));
  if (!v.is_known()) return Result::fail("value is not known");
  if (v.is_null()) return Result::fail("value is null");
  if (!t->is_collection()) return Result::fail("value is not a collection");
  return Result::of(number_int(int64_t(v.length())));
}

namespace {

// A collection and a key without their marks, and the marks of both, which
// results get back (the start of has_index and index).
struct Keyed {
  Value c, k;
  Marks marks;

  Keyed(const Value& c0, const Value& k0) {
    auto [cu, cm] = c0.unmark_with_marks();
    auto [ku, km] = k0.unmark_with_marks();
    c = std::move(cu);
    k = std::move(ku);
    marks = union_marks(cm, km);
  }
  Result done(Value v) const { return Result::of(v.mark(marks)); }
};

}  // namespace

Result has_index(const Value& c0, const Value& k0) {
  Keyed ck(c0, k0);
  const Value &c = ck.c, &k = ck.k;
  auto done = [&ck](Value v) { return ck.done(std::move(v)); };
  const Type* t = c.type();
  const Type* kt = k.type();
  if (t->is_dynamic()) return done(unknown_bool());
  if (t->is_list() || t->is_tuple()) {
    if (kt->is_dynamic()) return done(unknown_bool());
    if (kt != Type::number()) return done(bool_value(false));
    if (!k.is_known()) return done(unknown_bool());
    if (t->is_list() && !c.is_known()) return done(unknown_bool());
    if (k.is_null()) return Result::fail("index must not be null");
    int64_t i = 0;
    if (!exact_index(k, i)) return done(bool_value(false));
    if (t->is_tuple()) return done(bool_value(uint64_t(i) < t->size()));
    if (c.is_null()) return Result::fail("value is null");
    return done(bool_value(uint64_t(i) < c.length()));
  }
  if (t->is_map()) {
    if (kt->is_dynamic()) return done(unknown_bool());
    if (kt != Type::string()) return done(bool_value(false));
    if (!k.is_known() || !c.is_known()) return done(unknown_bool());
    if (k.is_null()) return Result::fail("index must not be null");
    if (c.is_null()) return Result::fail("value is null");
    return done(bool_value(c.map_find(k.as_string()) != nullptr));
  }
  return Result::fail("not a list, map, or tuple type");
}

Result index(const Value& c0, const Value& k0) {
  Keyed ck(c0, k0);
  const Value &c = ck.c, &k = ck.k;
  auto done = [&ck](Value v) { return ck.done(std::move(v)); };
  const Type* t = c.type();
  const Type* kt = k.type();
  if (t->is_dynamic()) return done(Value::dynamic());
  if (t->is_list()) {
    const Type* et = t->element();
    if (kt->is_dynamic()) return done(Value::unknown(et));
    if (kt != Type::number()) return Result::fail("element key for list must be number");
    if (!k.is_known() || !c.is_known()) return done(Value::unknown(et));
    int64_t i = 0;
    if (k.is_null() || !exact_index(k, i))
      return Result::fail("element key for list must be non-negative integer");
    if (c.is_null()) return Result::fail("value is null");
    if (uint64_t(i) >= c.length()) return Result::fail("index out of range");
    return done(c.element(size_t(i)));
  }
  if (t->is_map()) {
    const Type* et = t->element();
    if (kt->is_dynamic()) return done(Value::unknown(et));
    if (kt != Type::string()) return Result::fail("element key for map must be string");
    if (!k.is_known() || !c.is_known()) return done(Value::unknown(et));
    if (k.is_null()) return Result::fail("element key for map must not be null");
    if (c.is_null()) return Result::fail("value is null");
    const Value* e = c.map_find(k.as_string());
    return done(e ? *e : Value::null(et));
  }
  if (t->is_tuple()) {
    if (kt->is_dynamic()) return done(Value::dynamic());
    if (kt != Type::number()) return Result::fail("element key for tuple must be number");
    if (!k.is_known()) return done(Value::dynamic());
    int64_t i = 0;
    if (k.is_null() || !exact_index(k, i))
      return Result::fail("element key for list must be non-negative integer");
    if (uint64_t(i) >= t->size()) return Result::fail("index out of range");
    if (!c.is_known()) return done(Value::unknown(t->tuple_element(size_t(i))));
    if (c.is_null()) return Result::fail("value is null");
    return done(c.element(size_t(i)));
  }
  return Result::fail("not a list, map, or tuple type");
}

Result get_attr(const Value& o0, std::string_view name) {
  auto [o, marks] = o0.unmark_with_marks();
  const Type* t = o.type();
  if (t->is_dynamic()) return Result::of(Value::dynamic().mark(marks));
  if (!t->is_object()) return Result::fail("value is not an object");
  std::string normalized;
  for (char ch : name)
    if (static_cast<unsigned char>(ch) >= 0x80) {
      normalized = uni::nfc(name);
      name = normalized;
      break;
    }
  std::optional<size_t> i = t->find_attr(name);
  if (!i) return Result::fail("value has no attribute of that name");
  if (!o.is_known()) return Result::of(Value::unknown(t->attr_type(*i)).mark(marks));
  if (o.is_null()) return Result::fail("value is null");
  return Result::of(o.attr(*i).mark(marks));
}

Result has_element(const Value& s0, const Value& e0) {
  auto [s, sm] = s0.unmark_with_marks();
  auto [e, em] = e0.unmark_with_marks();
  Marks marks = union_marks(sm, em);
  auto done = [&marks](Value v) { return Result::of(v.mark(marks)); };
  const Type* t = s.type();
  if (s.is_null()) return Result::fail("cannot HasElement on null value");
  if (!s.is_known()) return done(unknown_bool());
  if (!e.type()->is_dynamic() && t->is_set() && !t->element()->is_dynamic() &&
      e.type() != t->element())
    return done(bool_value(false));
  if (!t->is_set()) return Result::fail("not a set type");
  if (!e.is_known()) return done(unknown_bool());
  // With unknown elements in the set, not finding it proves nothing.
  Value no_match = s.is_wholly_known() ? bool_value(false) : unknown_bool();
  if (t->element() != e.type()) return done(bool_value(false));
  if (!set_stores(s, e)) return done(no_match);
  return done(bool_value(true));
}

// --- public: sets ---------------------------------------------------------------------------

std::string set_hash_bytes(const Value& v) {
  std::string out;
  hash_bytes(v, out);
  return out;
}

uint32_t set_hash(const Value& v) { return crc32_ieee(set_hash_bytes(v)); }

bool set_stores(const Value& set, const Value& elem) {
  if (!set.is_known() || set.is_null()) return false;
  const Value s = set.unmark();
  uint32_t h = set_hash(elem);
  for (const Value& e : s.elements()) {
    if (set_hash(e) != h) continue;
    Value eq = equals(e, elem);
    if (eq.is_plain() && eq.as_bool()) return true;
  }
  return false;
}

// --- public: helpers --------------------------------------------------------------------------

bool has_wholly_known_type(const Value& v0) {
  const Value& v = detail::unmarked_ref(v0);
  if (v.is_null()) return true;
  const Type* t = v.type();
  if (!v.is_known()) return !t->has_dynamic_types();
  // Only an unknown whose type holds the dynamic type can fail, and a known
  // value's type holds the types of all its parts.
  if (!t->has_dynamic_types() || !detail::is_container(v)) return true;
  detail::WalkStack todo;
  detail::SeenSet seen;
  todo.push(&v);
  while (!todo.empty()) {
    const Value* c = todo.pop();
    if (seen.entered_before(c->obj())) continue;
    for (const Value& e0 : c->elements()) {
      const Value& e = detail::unmarked_ref(e0);
      if (e.is_null() || !e.type()->has_dynamic_types()) continue;
      if (!e.is_known()) return false;
      if (detail::is_container(e)) todo.push(&e);
    }
  }
  return true;
}

namespace {

// cty's TestConformance as a bool, over types that may share parts and nest
// deeply: the answer for a pair is remembered once many pairs were asked
// (types live forever, so their addresses are stable keys).
class Conformance {
 public:
  bool conforms(const Type* given, const Type* want) {
    if (want->is_dynamic() || given == want) return true;
    bool structural = (given->is_object() && want->is_object()) ||
                      (given->is_tuple() && want->is_tuple());
    bool collection = given->is_collection() && given->kind() == want->kind();
    if (!structural && !collection) return false;
    if (asked_ < kMemoAfter) {
      ++asked_;
      return parts(given, want);
    }
    auto key = std::make_pair(given, want);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool r = parts(given, want);
    memo_.emplace(key, r);
    return r;
  }

 private:
  static constexpr size_t kMemoAfter = 256;

  bool parts(const Type* given, const Type* want) {
    util::enter_level();
    if (given->is_collection()) return conforms(given->element(), want->element());
    if (given->size() != want->size()) return false;
    for (size_t i = 0; i < want->size(); ++i) {
      if (given->is_object() && given->attr_name(i) != want->attr_name(i)) return false;
      if (!conforms(given->is_object() ? given->attr_type(i) : given->tuple_element(i),
                    want->is_object() ? want->attr_type(i) : want->tuple_element(i)))
        return false;
    }
    return true;
  }

  size_t asked_ = 0;
  std::map<std::pair<const Type*, const Type*>, bool> memo_;
};

}  // namespace

bool type_conforms(const Type* given, const Type* want) {
  if (want->is_dynamic() || given == want) return true;
  return util::run_deep([&](const util::StackBudget&) { return Conformance().conforms(given, want); });
}

}  // namespace hclvm::ops

// The interpreter: runs a Program against an EvalContext and returns the
// value with the diagnostics, exactly as the reference's Expression.Value
// would for the expression it was compiled from.
//
// Machine. A value stack (sized by the program's max_stack), local slots
// (for variables and splat items, reset to DynamicVal at each run), a stack
// of diagnostic marks, and one frame stack per construct that keeps state
// across several instructions (templates, objects, conditionals, for,
// splat, calls; see opcodes.def). All of it lives in Vm::State and is kept
// from run to run, so once a VM has warmed up, evaluating an expression
// whose values need no heap (numbers, bools, references to existing
// values) allocates nothing: diagnostics are built only when reported, and
// source ranges computed only when the result is returned.
//
// Errors in subexpressions. The reference often checks whether the
// diagnostics of its operands hold errors (`if diags.HasErrors()`) and then
// returns an unknown value (cty.DynamicVal or an unknown of the result type)
// without doing its own work, and it orders its own diagnostics relative to
// those of its operands (a binary operator puts "Invalid operand" first; a
// conditional reports the condition's diagnostics and then only the chosen
// branch's). The VM reproduces this with diagnostic-count marks: DMARK
// pushes the number of diagnostics reported so far, and the instruction
// that consumes the operands pops it, so that diagnostics [mark, end) are
// exactly those of its operands. It can then test them for errors, insert
// its own diagnostics before them, or drop the ones of a branch or a try()
// argument that the reference discards. The compiler emits marks only
// where an operand can report anything at all (a flag operand says so), so
// `x * 2` over a local or a constant pays nothing for the rule. Because the
// VM never reports a diagnostic that the reference would drop, and never
// drops one it would keep, the output is the reference's, in its order.
//
// Dispatch is a switch over the opcode with one VM_CASE per handler; each
// handler ends with VM_NEXT. Handlers longer than a few lines are methods
// of State, named after the opcode.
#include <hclvm/eval.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <span>
#include <unordered_map>

#include "util/budget.h"
#include "util/message.h"
#include "util/unicode.h"
#include "value/convert.h"
#include "value/ops.h"
#include "value/refine.h"
#include "vm/access.h"
#include "vm/expr_values.h"
#include "vm/opcodes.h"
#include "vm/operators.h"
#include "vm/program.h"

namespace hclvm {

using namespace vm;

namespace {

// A diagnostic as the VM collects it: spans instead of ranges, converted
// once the run is over (or when try() needs the text of a range).
struct PendingDiag {
  util::Message summary;
  util::Message detail;
  ast::Span subject, context, expr;
  bool has_subject = false, has_context = false, has_expr = false;
  std::vector<std::string> values;  // Diagnostic::expression_values
};

// The type-pointer part of an inline cache word (Program::caches).
constexpr uint64_t kCacheTypeMask = (uint64_t(1) << 48) - 1;
// The index part of an inline cache word whose type has no such attribute.
constexpr uint64_t kCacheAbsent = 0xFFFF;

// A stack of frames that never gives memory back: popping keeps the frame
// (and the capacity of its vectors) for the next push.
template <class T>
class FrameStack {
 public:
  T& push() {
    if (depth_ == frames_.size()) frames_.emplace_back();
    return frames_[depth_++];
  }
  T& top() { return frames_[depth_ - 1]; }
  void pop() { --depth_; }
  void clear() { depth_ = 0; }
  // Clears and frees the frames (and the values they hold).
  void reset() {
    frames_.clear();
    depth_ = 0;
  }
  size_t depth() const { return depth_; }

 private:
  std::vector<T> frames_;
  size_t depth_ = 0;
};

struct TemplateFrame {
  uint32_t mark = 0;     // diagnostics before the template
  size_t buf_start = 0;  // where this template's text starts in the buffer
  bool known = true;
  Marks marks;
};

struct ObjectFrame {
  size_t start = 0;  // first entry of this object in the entry buffer
  bool known = true;
  Marks marks;
};

struct CondFrame {
  // Single: one branch runs (the condition was a known bool). Both: the
  // condition is unknown and the result type is static. General: both
  // branches run and the result type comes from unifying their types.
  enum Mode : uint8_t { Single, Both, General } mode = Single;
  Value cond, true_val;
  Marks marks;                      // Single: the condition's marks, for the result
  uint32_t m0 = 0, m1 = 0, m2 = 0;  // before condition, true branch, false branch
  const Type* type = nullptr;       // Both: the static result type
};

struct ForFrame {
  enum Phase : uint8_t { Pre, PreCond, Loop } phase = Loop;
  uint32_t desc = 0;
  Value coll;
  Marks marks;
  size_t index = 0, count = 0;
  bool known = true;
  bool aborted = false;       // the early condition check failed: plain DynamicVal
  bool coll_unknown = false;  // only the early check runs, then DynamicVal
  Marks cond_marks;           // of the early check's condition
  uint32_t mark = 0;          // diagnostics before the early condition check
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> entries;
  // Groups in use: the first ngroups (the rest keep their memory for the
  // next grouping: names and rows are reused).
  std::vector<std::pair<std::string, std::vector<Value>>> groups;
  size_t ngroups = 0;
  std::unordered_map<std::string, size_t> keys;  // into entries or groups
};

struct SplatFrame {
  // Why the item expression runs over element types (cty's resultTy()).
  enum Reason : uint8_t { UnknownSource, NotKnown, Empty };
  uint32_t desc = 0;
  Value src;        // unmarked, upgraded to a tuple where the reference does
  Marks marks;      // of the source after upgrading
  Marks src_marks;  // of the source as given
  size_t index = 0, count = 0;
  bool known = true;
  bool upgraded_unknown = false;
  bool types_mode = false;
  Reason reason = UnknownSource;
  uint32_t item_mark = 0, type_mark = 0;
  std::vector<Value> vals;
  std::vector<const Type*> types;
};

struct CallFrame {
  const Function* fn = nullptr;
  uint32_t name = 0;
  uint32_t base = 0;      // stack depth before the arguments
  uint32_t mark = 0;      // diagnostics before the call
  uint32_t arg_mark = 0;  // diagnostics before the current argument
  uint16_t nargs = 0;     // arguments written, the expanded one included
  bool expand = false;
  // The expanded argument's elements: for try() and can() here; for other
  // functions num_expanded of them on the value stack, below the arguments
  // written (CALL_END puts them after those and converts them).
  std::vector<Value> expanded;
  uint32_t num_expanded = 0;
  std::vector<PendingDiag> try_diags;
  // A function taking its first argument as an expression (Function::
  // expression_arg): that argument's failure, its syntax refused or its
  // evaluation's errors, reported as the function's error when the call
  // is made.
  bool expr_arg = false;
  std::optional<std::string> expr_arg_error;
};

// Returns a name within distance 2 of [given], or "" (the reference's
// nameSuggestion). The reference tries the names of the innermost context
// first, each context's in Go's random map order; this takes the first
// [levels] entry with a close name, and there the closest (then the first
// in order) of its names: one of the reference's answers.
std::string_view closest(std::string_view given,
                         std::span<const std::vector<std::string_view>> levels) {
  uni::NearName near(given);
  for (const auto& level : levels) {
    std::string_view best;
    size_t best_d = 3;
    for (std::string_view c : level) {
      size_t d = near.below(c, best_d);
      if (d < best_d) best = c, best_d = d;
    }
    if (best_d < 3) return best;
  }
  return {};
}

// " Did you mean %q?" for the closest of [levels] to [given], or "".
std::string suggestion(std::string_view given,
                       std::span<const std::vector<std::string_view>> levels) {
  std::string_view c = closest(given, levels);
  return c.empty() ? std::string() : " Did you mean " + uni::go_quote(c) + "?";
}

// The reference's describeConditionalTypeMismatch for [t] and [f].
std::string describe_mismatch(const Type* t, const Type* f) {
  if (t->is_object() && f->is_object()) {
    for (size_t i = 0; i < t->size(); ++i) {
      std::string_view name = t->attr_name(i);
      std::optional<size_t> j = f->find_attr(name);
      if (!j) {
        return "The 'true' value includes object attribute " + uni::go_quote(name) +
               ", which is absent in the 'false' value";
      }
      if (t->attr_type(i) != f->attr_type(*j)) {
        return "Type mismatch for object attribute " + uni::go_quote(name) + ": " +
               describe_mismatch(t->attr_type(i), f->attr_type(*j));
      }
    }
    for (size_t i = 0; i < f->size(); ++i) {
      if (!t->find_attr(f->attr_name(i))) {
        return "The 'false' value includes object attribute " + uni::go_quote(f->attr_name(i)) +
               ", which is absent in the 'true' value";
      }
    }
  } else if (t->is_tuple() && f->is_tuple()) {
    if (t->size() != f->size()) {
      return "The 'true' tuple has length " + std::to_string(t->size()) +
             ", but the 'false' tuple has length " + std::to_string(f->size());
    }
    for (size_t i = 0; i < t->size(); ++i) {
      if (t->tuple_element(i) != f->tuple_element(i)) {
        return "Type mismatch for tuple element " + std::to_string(i) + ": " +
               describe_mismatch(t->tuple_element(i), f->tuple_element(i));
      }
    }
  } else if (t->is_collection() && f->is_collection() && t->kind() == f->kind()) {
    const Type* te = t->element();
    const Type* fe = f->element();
    if ((te->is_object() && fe->is_object()) || (te->is_tuple() && fe->is_tuple())) {
      const char* noun = t->is_list() ? "list" : t->is_set() ? "set" : "map";
      return std::string("Mismatched ") + noun + " element types: " + describe_mismatch(te, fe);
    }
  }
  std::string tn = t->friendly_name(), fn = f->friendly_name();
  if (tn == fn) {
    return "At least one deeply-nested attribute or element is not compatible across both the "
           "'true' and "
           "the 'false' value";
  }
  return "The 'true' value is " + tn + ", but the 'false' value is " + fn;
}

// Reports whether [t] can be iterated by a for expression (cty CanIterateElements).
bool iterable(const Type* t) { return t->is_collection() || t->is_structural(); }

// cty's Value.True() on a bool: a null counts as false (and, here, an unknown).
bool is_true(const Value& v) { return v.is_known() && !v.is_null() && v.as_bool(); }

// The numeric operator of opcode [op].
Operator operator_of(Op op) {
  switch (op) {
    case Op::ADD: return Operator::Add;
    case Op::SUB: return Operator::Sub;
    case Op::MUL: return Operator::Mul;
    case Op::DIV: return Operator::Div;
    case Op::MOD: return Operator::Mod;
    case Op::EQ: return Operator::Eq;
    case Op::NE: return Operator::Ne;
    case Op::LT: return Operator::Lt;
    case Op::LE: return Operator::Le;
    case Op::GT: return Operator::Gt;
    case Op::GE: return Operator::Ge;
    case Op::AND: return Operator::And;
    case Op::OR: return Operator::Or;
    case Op::NEG: return Operator::Neg;
    default: return Operator::Not;
  }
}

// [a] op [b] for two small integers, stored into [a] (which holds no
// reference, so it is simply overwritten); false when the operation is an
// error (the general path then reports it).
inline bool small_binary(Op op, Value& a, const Value& b) {
  int64_t x = a.small_int(), y = b.small_int();
  switch (op) {
    case Op::EQ: a = Value::boolean(x == y); return true;
    case Op::NE: a = Value::boolean(x != y); return true;
    case Op::LT: a = Value::boolean(x < y); return true;
    case Op::LE: a = Value::boolean(x <= y); return true;
    case Op::GT: a = Value::boolean(x > y); return true;
    case Op::GE: a = Value::boolean(x >= y); return true;
    case Op::ADD:
    case Op::SUB:
    case Op::MUL:
    case Op::MOD: {
      NumError err = NumError::None;
      Number nx = a.as_number(), ny = b.as_number();
      Number r = op == Op::ADD   ? Number::add(nx, ny, err)
                 : op == Op::SUB ? Number::sub(nx, ny, err)
                 : op == Op::MUL ? Number::mul(nx, ny, err)
                                 : Number::mod(nx, ny, err);
      if (err != NumError::None) return false;  // the general path reports it
      a = Value::number(std::move(r));
      return true;
    }
    default: return false;
  }
}

// Computes a logic or equality operator on two plain bools in place, in
// [a]; false (nothing changed) for anything else.
inline bool bool_binary(Op op, Value& a, const Value& b) {
  if (a.rep() != Value::Rep::Bool || b.rep() != Value::Rep::Bool) return false;
  bool x = a.as_bool(), y = b.as_bool();
  switch (op) {
    case Op::AND: a = Value::boolean(x && y); return true;
    case Op::OR: a = Value::boolean(x || y); return true;
    case Op::EQ: a = Value::boolean(x == y); return true;
    case Op::NE: a = Value::boolean(x != y); return true;
    default: return false;
  }
}

// Computes a binary operator on two plain operands of its parameter type
// without any of the checks the general path makes; false when the
// operator needs the general path (a failing or non-plain result).
bool fast_binary(Op op, const Value& a, const Value& b, Value& out) {
  // Two known numbers: Number's arithmetic and ordering directly (what the
  // operations below end with), without their general machinery.
  auto is_num = [](const Value& v) {
    return v.rep() == Value::Rep::SmallNum || v.rep() == Value::Rep::BigNum;
  };
  if (is_num(a) && is_num(b)) {
    if (a.rep() == Value::Rep::SmallNum && b.rep() == Value::Rep::SmallNum) {
      int64_t x = a.small_int(), y = b.small_int();
      switch (op) {
        case Op::EQ: out = Value::boolean(x == y); return true;
        case Op::NE: out = Value::boolean(x != y); return true;
        case Op::LT: out = Value::boolean(x < y); return true;
        case Op::LE: out = Value::boolean(x <= y); return true;
        case Op::GT: out = Value::boolean(x > y); return true;
        case Op::GE: out = Value::boolean(x >= y); return true;
        default: break;
      }
    }
    Number x = a.as_number(), y = b.as_number();
    NumError err = NumError::None;
    Number r;
    switch (op) {
      case Op::ADD: r = Number::add(x, y, err); break;
      case Op::SUB: r = Number::sub(x, y, err); break;
      case Op::MUL: r = Number::mul(x, y, err); break;
      case Op::DIV: r = Number::quo(x, y, err); break;
      case Op::MOD: r = Number::mod(x, y, err); break;
      case Op::LT: out = Value::boolean(Number::cmp(x, y) < 0); return true;
      // cty: less than, or equal by its number equality.
      case Op::LE:
        out = Value::boolean(Number::cmp(x, y) < 0 || ops::number_equal(x, y));
        return true;
      case Op::GT: out = Value::boolean(Number::cmp(x, y) > 0); return true;
      case Op::GE:
        out = Value::boolean(Number::cmp(x, y) > 0 || ops::number_equal(x, y));
        return true;
      case Op::EQ: out = Value::boolean(ops::number_equal(x, y)); return true;
      case Op::NE: out = Value::boolean(!ops::number_equal(x, y)); return true;
      default: return false;
    }
    if (err != NumError::None) return false;  // the general path reports it
    out = Value::number(std::move(r));
    return true;
  }
  if ((op == Op::EQ || op == Op::NE) && a.rep() == Value::Rep::String &&
      b.rep() == Value::Rep::String) {
    out = Value::boolean((a.as_string() == b.as_string()) == (op == Op::EQ));
    return true;
  }
  ops::Result r;
  switch (op) {
    case Op::ADD: r = ops::add(a, b); break;
    case Op::SUB: r = ops::subtract(a, b); break;
    case Op::MUL: r = ops::multiply(a, b); break;
    case Op::DIV: r = ops::divide(a, b); break;
    case Op::MOD: r = ops::modulo(a, b); break;
    case Op::LT: r = ops::less_than(a, b); break;
    case Op::LE: r = ops::less_than_or_equal(a, b); break;
    case Op::GT: r = ops::greater_than(a, b); break;
    case Op::GE: r = ops::greater_than_or_equal(a, b); break;
    case Op::EQ: out = ops::equals(a, b); return true;
    case Op::NE: out = ops::not_equals(a, b); return true;
    case Op::AND: out = Value::boolean(a.as_bool() && b.as_bool()); return true;
    case Op::OR: out = Value::boolean(a.as_bool() || b.as_bool()); return true;
    default: return false;
  }
  if (!r.ok()) return false;
  out = std::move(r.value);
  return true;
}

// Reports whether binary opcode [op] may take [a] and [b] straight to
// fast_binary: both of the operator's parameter type (numbers; bools for
// && and ||; numbers, strings or bools for == and !=), which their
// representations say (a marked, null or unknown value has none of these).
inline bool plain_operands(Op op, const Value& a, const Value& b) {
  auto num = [](const Value& v) {
    return v.rep() == Value::Rep::SmallNum || v.rep() == Value::Rep::BigNum;
  };
  switch (op) {
    case Op::AND:
    case Op::OR: return a.rep() == Value::Rep::Bool && b.rep() == Value::Rep::Bool;
    case Op::EQ:
    case Op::NE:
      return (num(a) && num(b)) ||
             (a.rep() == b.rep() && (a.rep() == Value::Rep::String || a.rep() == Value::Rep::Bool));
    default: return num(a) && num(b);
  }
}

}  // namespace

struct Vm::State {
  const Program* prog = nullptr;
  const vm::Hot* hot = nullptr;  // prog->hot()
  const EvalContext* ctx = nullptr;
  const FunctionTable* fns = nullptr;

  std::vector<Value> stack;
  Value* sp = nullptr;
  // Local slots (for variables, splat items). A slot reads through
  // local_refs: either its own value in [locals] or, to spare reference
  // counting, an element of the collection a for or splat frame holds.
  std::vector<Value> locals;
  std::vector<const Value*> local_refs;
  std::vector<uint32_t> mark_stack;
  std::vector<PendingDiag> diags;
  // What names resolved to in the context chain [chain] (each context
  // with its stamp), per symbol; an entry counts only when its generation
  // is [chain_gen], which moves on whenever the chain differs from the
  // last run's. So look-ups carry over from run to run and from program
  // to program while the context stays the same. Functions found count
  // while the function table is the same ([fns_gen], from its serial):
  // a new child context of the same parents keeps them.
  struct SymbolSlot {
    uint64_t var_gen = 0;
    const Value* var = nullptr;
    uint64_t fn_gen = 0;
    const Function* fn = nullptr;
  };
  std::vector<SymbolSlot> symbols;
  uint32_t try_depth = 0;  // try() and can() calls being evaluated
  // Set while the innermost try() or can() call reports an error of its
  // own (not one of its arguments').
  bool reporting_try_call = false;
  std::vector<const Type*> type_scratch;
  std::array<const Type*, 64> tuple_memo{};  // memo_tuple_type
  std::vector<Value> attr_scratch;
  std::vector<std::pair<const EvalContext*, uint64_t>> chain;
  uint64_t chain_gen = 0;
  uint64_t fns_serial = 0;  // FunctionTable::serial() of [fns]
  uint64_t fns_gen = 0;

  std::string text;  // template text under construction
  Limits limits;
  // The budget of the run: its own, or that of the run it is nested in.
  util::Budget* budget = nullptr;
  util::Budget own_budget{limits};  // restarted by each run
  EvalStats stats;
  // The last loop step or call: where a limit was most likely hit.
  static constexpr uint32_t kNoPc = UINT32_MAX;
  uint32_t at_pc = kNoPc;
  std::vector<std::pair<std::string, Value>> obj_entries;
  FrameStack<TemplateFrame> tpls;
  FrameStack<ObjectFrame> objs;
  FrameStack<CondFrame> conds;
  FrameStack<ForFrame> fors;
  FrameStack<SplatFrame> splats;
  FrameStack<CallFrame> calls;

  // --- stack and marks --------------------------------------------------------

  // Sets local [slot] to its own value [v].
  void set_local(uint32_t slot, Value v) {
    locals[slot] = std::move(v);
    local_refs[slot] = &locals[slot];
  }
  // Makes local [slot] read [v], which a frame keeps alive meanwhile.
  void bind_local(uint32_t slot, const Value& v) { local_refs[slot] = &v; }

  // Pushes [v]; the compiler's max_stack guarantees the room.
  [[gnu::always_inline]] void push(Value v) { *sp++ = std::move(v); }
  // Pops the top value (leaving an empty value behind).
  [[gnu::always_inline]] Value pop() { return std::move(*--sp); }
  // The number of values on the stack.
  uint32_t depth() const { return uint32_t(sp - stack.data()); }
  // Pops the innermost diagnostic mark.
  uint32_t pop_mark() {
    // The compiler pairs every pop with a DMARK; a program read from disk
    // is checked for much but not for this, so an unpaired pop is harmless.
    if (mark_stack.empty()) [[unlikely]]
      return ndiags();
    uint32_t m = mark_stack.back();
    mark_stack.pop_back();
    return m;
  }
  // The number of diagnostics reported so far.
  // (Tested for empty first: the size is a division, and runs mostly have
  // none.)
  uint32_t ndiags() const { return diags.empty() ? 0 : uint32_t(diags.size()); }
  // Reports whether a diagnostic from [m] on is an error. The evaluator
  // reports errors only, so any diagnostic is one.
  bool errors_since(uint32_t m) const { return !diags.empty() && diags.size() > m; }

  // --- diagnostics --------------------------------------------------------------

  // The span [i] of the instruction at [pc], if it has one.
  std::optional<ast::Span> span(uint32_t pc, size_t i) const {
    std::span<const ast::Span> s = prog->site(pc);
    if (i < s.size()) return s[i];
    return std::nullopt;
  }

  // Builds a diagnostic for the instruction at [pc] with spans [subject] and
  // [context] of its site (-1: none); the variables of the expression at
  // span [expr] (the one the reference names as at fault; -1: none) are
  // listed with their values.
  PendingDiag make(uint32_t pc, util::Message&& summary, util::Message&& detail, int subject,
                   int context = -1, int expr = -1) const {
    PendingDiag d;
    describe(d, pc, std::move(summary), std::move(detail), subject, context, expr);
    return d;
  }

  // Fills [d] as make() does.
  void describe(PendingDiag& d, uint32_t pc, util::Message&& summary, util::Message&& detail,
                int subject, int context, int expr) const {
    d.summary = std::move(summary);
    d.detail = std::move(detail);
    if (subject >= 0) {
      if (auto s = span(pc, size_t(subject))) d.subject = *s, d.has_subject = true;
    }
    if (context >= 0) {
      if (auto s = span(pc, size_t(context))) d.context = *s, d.has_context = true;
    }
    // Inside the arguments of try() and can() diagnostics are dropped, or
    // folded into try's own error without values: nothing to list. The
    // errors of a try() or can() call itself (its argument count, its
    // failure) are not inside it.
    uint32_t enclosing = try_depth - (reporting_try_call ? 1 : 0);
    if (expr >= 0 && d.has_subject && enclosing == 0) {
      if (auto s = span(pc, size_t(expr))) {
        d.values = expression_values(*prog, pc, *s, *ctx, local_refs);
        d.expr = *s, d.has_expr = true;
      }
    }
  }

  // The span of the whole argument [i] of the call in [f] (after the
  // call's fixed spans, the arguments' start ranges and the expanded one).
  static int arg_span(const CallFrame& f, size_t i) {
    return int(4 + f.nargs + (f.expand ? 1 : 0) + i);
  }

  // Reports a diagnostic (see make()). The text's Messages are made in
  // the out-of-line reporters, not in the handlers' frames: the
  // interpreter's frame, which nested runs stack up, stays small.
  template <size_t N, size_t M>
  [[gnu::always_inline]] void report(uint32_t pc, const char (&summary)[N],
                                     const char (&detail)[M], int subject, int context = -1,
                                     int expr = -1) {
    report_literals(pc, std::string_view(summary, N - 1), std::string_view(detail, M - 1),
                    subject, context, expr);
  }
  template <size_t N>
  [[gnu::always_inline]] void report(uint32_t pc, const char (&summary)[N], std::string&& detail,
                                     int subject, int context = -1, int expr = -1) {
    report_text(pc, std::string_view(summary, N - 1), std::move(detail), subject, context, expr);
  }
  // Making a diagnostic can take long (its text quotes values: a duplicate
  // key of a for expression, each value it names) and a run of few steps
  // can make many, so the text each one made counts towards the next check
  // of the deadline, as the bytes of values made do.
  [[gnu::noinline]] void report(uint32_t pc, util::Message&& summary, util::Message&& detail,
                                int subject, int context = -1, int expr = -1) {
    PendingDiag& d = diags.emplace_back();
    describe(d, pc, std::move(summary), std::move(detail), subject, context, expr);
    if (budget != nullptr) {
      // The detail quotes values; the expression's text was parsed again
      // for the values it names.
      size_t made = d.detail.view().size();
      if (d.has_expr) {
        made += d.expr.end - d.expr.begin;
        for (const std::string& v : d.values) made += v.size();
      }
      budget->count_text(made);
    }
  }
  [[gnu::noinline]] void report_literals(uint32_t pc, std::string_view summary,
                                         std::string_view detail, int subject, int context,
                                         int expr) {
    report(pc, util::Message::literal(summary), util::Message::literal(detail), subject, context,
           expr);
  }
  [[gnu::noinline]] void report_text(uint32_t pc, std::string_view summary, std::string&& detail,
                                     int subject, int context, int expr) {
    report(pc, util::Message::literal(summary), util::Message(std::move(detail)), subject,
           context, expr);
  }

  // Pops the innermost call frame.
  void pop_call() {
    if (calls.top().fn->special != Function::Special::None) --try_depth;
    calls.pop();
  }

  // Drops the diagnostics from [m] on.
  void truncate(uint32_t m) { diags.resize(m); }

  // Drops the diagnostics in [from, to).
  void erase(uint32_t from, uint32_t to) { diags.erase(diags.begin() + from, diags.begin() + to); }

  // The range of [s] in the program's source (a program compiled without
  // one reports its diagnostics without ranges).
  Range range(ast::Span s) const { return prog->source ? prog->source->range(s) : Range{}; }

  // --- set-up -----------------------------------------------------------------

  // Attribute [name]() of the known, unmarked object [v] through the
  // program's inline cache slot [slot], or null when [v] has no such
  // attribute. The name is only read when the cache misses: a hit touches
  // neither the program's name table nor the string.
  template <class Name>
  const Value* cached_attr(const Value& v, uint32_t slot, Name&& name) {
    uint64_t word = hot->caches()[slot].load(std::memory_order_relaxed);
    if ((word & kCacheTypeMask) == reinterpret_cast<uintptr_t>(v.type())) {
      uint64_t index = word >> 48;
      return index == kCacheAbsent ? nullptr : &v.attr(index);
    }
    return attr_cache_miss(v, slot, word, name());
  }
  // cached_attr's miss ([word]: the slot as it was read): finds the
  // attribute and remembers it (or its absence) in the slot when the pair
  // fits in the word. Objects of different types often have the same
  // attribute names (a list of objects whose lists have different lengths,
  // whose attributes are null in some), so the attribute is first looked
  // for where the cached type has it; the slot keeps that type.
  [[gnu::noinline]] const Value* attr_cache_miss(const Value& v, uint32_t slot, uint64_t word,
                                                 std::string_view name) {
    const Type* t = v.type();
    uint64_t cached = word >> 48;
    if ((word & kCacheTypeMask) != 0 && cached != kCacheAbsent && cached < t->size() &&
        t->attr_name(cached) == name)
      return &v.attr(cached);
    std::optional<size_t> ai = t->find_attr(name);
    uintptr_t tp = reinterpret_cast<uintptr_t>(t);
    if ((tp & ~kCacheTypeMask) == 0 && (!ai || *ai < kCacheAbsent))
      hot->caches()[slot].store(tp | (uint64_t(ai ? *ai : kCacheAbsent) << 48),
                                std::memory_order_relaxed);
    return ai ? &v.attr(*ai) : nullptr;
  }

  // The type cached in inline cache slot [slot] (0: none). Unlike
  // cached_attr, which only compares the cached pointer with a type it
  // already holds, callers read the cached type itself, which another
  // thread may have just interned: acquire pairs with cache_type's release
  // so that its fields are seen written.
  const Type* cached_type(uint32_t slot) const {
    return reinterpret_cast<const Type*>(hot->caches()[slot].load(std::memory_order_acquire));
  }
  void cache_type(uint32_t slot, const Type* t) {
    hot->caches()[slot].store(reinterpret_cast<uintptr_t>(t), std::memory_order_release);
  }

  // The tuple type of [elems], through inline cache slot [slot].
  const Type* tuple_type(std::span<const Value> elems, uint32_t slot) {
    const Type* t = cached_type(slot);
    if (t != nullptr && t->size() == elems.size()) {
      size_t i = 0;
      while (i < elems.size() && t->tuple_element(i) == elems[i].type()) ++i;
      if (i == elems.size()) return t;
    }
    type_scratch.clear();
    for (const Value& e : elems) type_scratch.push_back(e.type());
    t = Type::tuple(type_scratch);
    cache_type(slot, t);
    return t;
  }

  // The tuple type of [elems] for results made run after run without an
  // inline cache of their own (splats, `for` expressions): remembered in a
  // small table by length and first element type, and compared in full
  // before it is used, which costs less than interning the type again.
  const Type* memo_tuple_type(std::span<const Value> elems) {
    size_t n = elems.size();
    uintptr_t first = n ? reinterpret_cast<uintptr_t>(elems[0].type()) : 0;
    const Type*& m = tuple_memo[(n * 0x9E3779B1u ^ (first >> 4)) % tuple_memo.size()];
    if (m != nullptr && m->size() == n) {
      size_t i = 0;
      while (i < n && m->tuple_element(i) == elems[i].type()) ++i;
      if (i == n) return m;
    }
    type_scratch.clear();
    for (const Value& e : elems) type_scratch.push_back(e.type());
    m = Type::tuple(type_scratch);
    return m;
  }

  // OBJ_STATIC: the object [d] from [items] (in source order; the values
  // are moved out and the slots left empty). With every attribute written
  // once, straight from the stack into the object.
  Value static_object(const ObjectDesc& d, std::span<Value> items) {
    std::span<const uint32_t> slots(hot->object_slots() + d.first_slot, d.num_items);
    const Type* t = cached_type(d.cache);
    if (d.num_items == d.num_attrs && t != nullptr && t->size() == d.num_attrs) {
      bool hit = true;
      for (uint32_t i = 0; hit && i < d.num_items; ++i)
        hit = t->attr_type(slots[i]) == items[i].type();
      if (hit) return Value::object_from(t, items, slots);
    }
    attr_scratch.resize(d.num_attrs);
    for (uint32_t i = 0; i < d.num_items; ++i) attr_scratch[slots[i]] = std::move(items[i]);
    for (Value& v : items) v = Value();
    bool hit = t != nullptr && t->size() == d.num_attrs;
    for (uint32_t i = 0; hit && i < d.num_attrs; ++i)
      hit = t->attr_type(i) == attr_scratch[i].type();
    if (!hit) {
      std::vector<TypeAttr> attrs;
      attrs.reserve(d.num_attrs);
      for (uint32_t i = 0; i < d.num_attrs; ++i)
        attrs.push_back(
            {prog->names[hot->object_names()[d.first_name + i]], attr_scratch[i].type()});
      t = Type::object(attrs);
      cache_type(d.cache, t);
    }
    return Value::object_from(t, attr_scratch);
  }

  // Reports whether [chain] is [c]'s chain of contexts as it is now.
  bool chain_valid(const EvalContext& c) const {
    size_t i = 0;
    for (const EvalContext* e = &c; e != nullptr; e = e->parent(), ++i) {
      if (i == chain.size() || chain[i].first != e || chain[i].second != e->stamp()) return false;
    }
    return i == chain.size();
  }

  void begin(const Program& p, const EvalContext& c) {
    prog = &p;
    hot = &p.hot();
    ctx = &c;
    if (stack.size() < size_t(hot->max_stack) + 1) stack.resize(size_t(hot->max_stack) + 1);
    sp = stack.data();
    if (locals.size() != hot->num_locals) {
      locals.assign(hot->num_locals, Value::dynamic());
      local_refs.resize(hot->num_locals);
    }
    // Locals hold DynamicVal between runs (end() leaves them so).
    for (size_t i = 0; i < locals.size(); ++i) local_refs[i] = &locals[i];
    mark_stack.clear();
    diags.clear();
    if (!chain_valid(c)) {  // the function table too is the chain's
      ++chain_gen;
      chain.clear();
      for (const EvalContext* e = &c; e != nullptr; e = e->parent())
        chain.emplace_back(e, e->stamp());
      fns = c.functions();
    }
    // The functions found stay while the table is the same one unchanged.
    if (uint64_t serial = fns != nullptr ? fns->serial() : 0; serial != fns_serial) {
      ++fns_gen;
      fns_serial = serial;
    }
    if (symbols.size() <= hot->max_symbol) symbols.resize(size_t(hot->max_symbol) + 1);
    text.clear();
    obj_entries.clear();
    tpls.clear(), objs.clear(), conds.clear(), fors.clear(), splats.clear(), calls.clear();
    try_depth = 0;
    at_pc = kNoPc;
  }

  // The value of program [p] in [c] when a run needs no interpreter
  // (Hot::shortcut [sc]): its constant, or the value a lone traversal
  // finds in place at every step (it neither allocates nor counts steps).
  // Else null, and the run takes the long way, which also reports what
  // went wrong.
  const Value* shortcut(const Program& p, const EvalContext& c, uint32_t sc) {
    const vm::Hot& h = p.hot();
    if ((sc & vm::Hot::kLoneTraversal) == 0) return &h.constants()[sc];
    if (symbols.size() <= h.max_symbol || !chain_valid(c)) return nullptr;
    prog = &p;
    hot = &h;
    ctx = &c;
    const TraversalDesc& d = h.traversals()[sc & ~vm::Hot::kLoneTraversal];
    const Value* cur = root_variable(d.root_index);
    const StepDesc* steps = h.steps() + d.first_step;
    for (uint32_t i = 0; cur != nullptr && i < d.num_steps; ++i) cur = step_in_place(steps[i], *cur);
    return cur;
  }

  // Runs [p] in [c] on [b]. A limit ends it: what it held is released and
  // the LimitExceeded goes on to the run that owns the budget.
  EvalResult run_on(const Program& p, const EvalContext& c, util::Budget& b) {
    budget = &b;
    begin(p, c);
    EvalResult r;
    try {
      r.value = exec();
    } catch (const util::LimitExceeded&) {
      abandon();
      throw;
    }
    if (!diags.empty()) r.diagnostics = finish_diags();
    end();
    return r;
  }

  // Releases everything a run that stopped midway holds.
  void abandon() {
    end();
    text = std::string();
    diags.clear();
    mark_stack.clear();
    tpls.reset(), objs.reset(), conds.reset(), fors.reset(), splats.reset(), calls.reset();
  }

  // The diagnostic of a run that hit limit [l].
  // The result of a run of [p] that hit limit [l]: the dynamic value and
  // the limit's diagnostic, recorded in the stats.
  EvalResult limit_result(const Program& p, Limit l) {
    stats.limit_hit = true;
    stats.limit = l;
    prog = &p;
    EvalResult r;
    r.value = Value::dynamic();
    r.diagnostics.push_back(limit_diagnostic(l));
    return r;
  }

  Diagnostic limit_diagnostic(Limit l) const {
    Diagnostic d;
    d.severity = Severity::Error;
    d.summary = std::string(limit_summary(l));
    d.detail = hclvm::limit_detail(l, limits);
    std::span<const ast::Span> at =
        at_pc == kNoPc ? std::span<const ast::Span>() : prog->site(at_pc);
    if (at.empty()) at = prog->spans;
    if (!at.empty() && prog->source) {
      ast::Span all = at.front();
      for (const ast::Span& x : at) {
        all.begin = std::min(all.begin, x.begin);
        all.end = std::max(all.end, x.end);
      }
      d.subject = range(all);
    }
    return d;
  }

  // Clears what a run left behind that holds references to values.
  void end() {
    while (sp > stack.data()) *--sp = Value();
    for (Value& l : locals) l = Value::dynamic();
    obj_entries.clear();
  }

  // Converts the collected diagnostics to the public form.
  Diagnostics finish_diags(size_t from = 0) const {
    Diagnostics out;
    out.reserve(diags.size() - from);
    for (size_t i = from; i < diags.size(); ++i) {
      const PendingDiag& d = diags[i];
      Diagnostic x;
      x.severity = Severity::Error;
      x.summary = d.summary.str();
      x.detail = d.detail.str();
      if (d.has_subject && prog->source) x.subject = range(d.subject);
      if (d.has_context && prog->source) x.context = range(d.context);
      x.expression_values = d.values;
      if (d.has_expr && prog->source) x.expression = range(d.expr);
      out.push_back(std::move(x));
    }
    return out;
  }

  Value exec();

  // Takes off the mark entries of binary opcode [op]'s operands when it
  // has them ([flags]): the logic operators have two.
  void pop_operand_marks(Op op, uint8_t flags) {
    if (flags & kFlagMarks) {
      pop_mark();
      if (op == Op::AND || op == Op::OR) pop_mark();
    }
  }

  // A binary opcode [op] (with [flags]) on the two operands on top of the
  // stack, in place, through fast_binary when they are plain; false
  // (nothing changed) when that needs the general path. Out of exec, whose
  // computed gotos may not leave the scope of a value with a destructor,
  // and not inlined there: exec's code for two small integers stays short.
  [[gnu::noinline]] bool binary_in_place(Op op, uint8_t flags) {
    if (!plain_operands(op, sp[-2], sp[-1])) return false;
    Value out;
    if (!fast_binary(op, sp[-2], sp[-1], out)) return false;
    pop_operand_marks(op, flags);
    sp[-2] = std::move(out);
    sp[-1] = Value();
    --sp;
    return true;
  }

  // --- handlers ---------------------------------------------------------------

  // The variable [name] of the context, looked up once per context chain.
  const Value* root_variable(uint32_t name) {
    SymbolSlot& s = symbols[hot->symbols()[name]];
    return s.var_gen == chain_gen ? s.var : lookup_variable(s, name);
  }
  [[gnu::noinline]] const Value* lookup_variable(SymbolSlot& s, uint32_t name);
  void unknown_variable(uint32_t pc, const TraversalDesc& d);
  Value traverse_steps(const TraversalDesc& d, const Value* cur, uint32_t pc, size_t first_span,
                       int expr = -1);
  // Step [st] from [v] when its value is found in place, else null: an
  // attribute of an object here, the rest out of line.
  const Value* step_in_place(const StepDesc& st, const Value& v) {
    if (st.kind == StepDesc::Attr && v.rep() == Value::Rep::Object)
      return cached_attr(v, st.cache, [&] { return std::string_view(prog->names[st.operand]); });
    return step_slow(st, v);
  }
  [[gnu::noinline]] const Value* step_slow(const StepDesc& st, const Value& v);
  Value traverse_rest(const TraversalDesc& d, uint32_t i, const Value* cur, uint32_t pc,
                      size_t first_span, int expr);
  void op_index(uint32_t pc);
  void op_tpl_part(uint32_t pc);
  void op_tpl_end();
  void op_tpl_join(uint32_t pc);
  void op_binary(Op op, uint8_t flags, uint32_t pc);
  void op_unary(Op op, uint8_t flags, uint32_t pc);
  bool op_cond_test(uint32_t type_index, uint32_t pc, const uint8_t*& ip, int32_t to_false,
                    int32_t to_end);
  Value cond_unknown(const CondFrame& f, const Value& fv, const Type* result_type);
  Value cond_general(CondFrame& f, Value fv, uint32_t pc);
  void op_obj_item(uint8_t flags, uint32_t pc);
  void op_obj_end();
  bool op_for_begin(uint32_t desc, uint32_t pc);
  bool op_for_next();
  bool op_for_cond(uint32_t pc);
  bool op_for_key(uint32_t pc);
  void op_for_item_kv(uint32_t pc);
  void op_for_end();
  void bind_for(ForFrame& f);
  static constexpr size_t kNoKey = SIZE_MAX, kLinearKeys = 16;
  size_t find_for_key(ForFrame& f, const ForDesc& d, std::string_view key);
  void note_for_key(ForFrame& f, std::string_view key, size_t i);
  bool op_splat_begin(uint32_t desc, uint32_t pc);
  bool op_splat_next();
  bool splat_in_place(SplatFrame& f, uint16_t slot, const uint8_t* body);
  void op_splat_item();
  bool op_splat_end(uint32_t pc);
  Value splat_list(uint32_t pc);
  bool op_call_begin(uint32_t name, uint16_t nargs, uint8_t flags, uint32_t pc);
  void expression_arg_done(CallFrame& f);
  bool check_arg_count(CallFrame& f, size_t n, uint32_t pc);
  bool op_call_expand(uint32_t pc);
  bool op_call_arg(uint16_t index, uint32_t pc);
  void op_call_end(uint16_t nplain, uint32_t pc);
  // Converts argument [v] of a call to the type of its parameter [p] (see
  // convert_arg_to); inline for an argument already of that type.
  void convert_arg(Value& v, const Param& p, int subject, int expr, uint32_t pc) {
    if (p.type != v.type() && !p.type->is_dynamic()) convert_arg_to(v, p, subject, expr, pc);
  }
  void convert_arg_to(Value& v, const Param& p, int subject, int expr, uint32_t pc);
  void finish_call(Value result);
  Value try_failure(CallFrame& f, uint32_t pc);
};

// --- traversals -----------------------------------------------------------------

// Looks the variable [name] up in the context chain for its symbol [s].
const Value* Vm::State::lookup_variable(SymbolSlot& s, uint32_t name) {
  s.var = ctx->lookup(prog->names[name]);
  s.var_gen = chain_gen;
  return s.var;
}

// Reports "Unknown variable" for the root of traversal [d] at [pc].
void Vm::State::unknown_variable(uint32_t pc, const TraversalDesc& d) {
  const std::string& name = prog->names[d.root_index];
  // Outside every for expression, with no context that has variables.
  bool any = d.num_scope_names != 0;
  for (const EvalContext* c = ctx; c != nullptr && !any; c = c->parent())
    any = c->variables_allowed();
  if (!any) {
    report(pc, "Variables not allowed", "Variables may not be used here.", 0);
    return;
  }
  // For variables first, one level per for expression (kNone separates
  // them), then each context from the innermost.
  std::vector<std::vector<std::string_view>> levels(1);
  for (uint32_t i = 0; i < d.num_scope_names; ++i) {
    uint32_t n = prog->scope_names[d.first_scope_name + i];
    if (n == kNone)
      levels.emplace_back();
    else
      levels.back().push_back(prog->names[n]);
  }
  for (const EvalContext* c = ctx; c != nullptr; c = c->parent()) {
    levels.emplace_back();
    if (!c->variables_allowed()) continue;
    for (const auto& kv : c->variables()) levels.back().push_back(kv.first);
  }
  report(pc, "Unknown variable",
         "There is no variable named " + uni::go_quote(name) + "." + suggestion(name, levels), 0);
}

// step_in_place for all but an attribute of an object: an index step
// found in place (a string key of an object through its inline cache, an
// element of a list or tuple, a map key), borrowed; else null.
const Value* Vm::State::step_slow(const StepDesc& st, const Value& v) {
  if (st.kind == StepDesc::Attr) return nullptr;  // not an object (step_in_place took those)
  const Value& key = hot->constants()[st.operand];
  if (v.rep() == Value::Rep::Object && key.rep() == Value::Rep::String)
    return cached_attr(v, st.cache, [&] { return key.as_string(); });
  if (v.rep() == Value::Rep::Seq && key.is_small_int() && !v.type()->is_set()) {
    int64_t k = key.small_int();
    return k >= 0 && uint64_t(k) < v.length() ? &v.element(size_t(k)) : nullptr;
  }
  if (v.rep() == Value::Rep::Map && key.rep() == Value::Rep::String)
    return v.map_find(key.as_string());
  return nullptr;
}

// Applies the steps of [d] to [*cur]; the span of step i is site span
// [first_span + i], and a failure lists the variables of the expression at
// span [expr] (-1: none). Returns DynamicVal after reporting a failed step.
Value Vm::State::traverse_steps(const TraversalDesc& d, const Value* cur, uint32_t pc,
                                size_t first_span, int expr) {
  // The fast loop borrows each step's value while it is found in place.
  const StepDesc* steps = hot->steps() + d.first_step;
  for (uint32_t i = 0; i < d.num_steps; ++i) {
    const Value* next = step_in_place(steps[i], *cur);
    if (next == nullptr) return traverse_rest(d, i, cur, pc, first_span, expr);
    cur = next;
  }
  return *cur;
}

// The steps of [d] from [i] on, from [cur], where step [i] is not found in
// place: through the general access operations, the first failing step
// reported.
Value Vm::State::traverse_rest(const TraversalDesc& d, uint32_t i, const Value* cur, uint32_t pc,
                               size_t first_span, int expr) {
  Value owned;
  for (bool first = true; i < d.num_steps; ++i, first = false) {
    const StepDesc& st = hot->steps()[d.first_step + i];
    const Value& v = *cur;
    if (!first) {
      if (const Value* next = step_in_place(st, v)) {
        cur = next;
        continue;
      }
    }
    AccessError err;
    Value r;
    if (st.kind == StepDesc::Attr) {
      r = hcl_get_attr(v, prog->names[st.operand], err);
    } else {
      const Value& key = hot->constants()[st.operand];
      if (v.rep() == Value::Rep::Object && key.rep() == Value::Rep::String)
        missing_object_key(err);  // what hcl_index says, without its own search
      else
        r = hcl_index(v, key, err);
    }
    if (err) {
      report(pc, util::Message::literal(err.summary), std::move(err.detail), int(first_span + i),
             -1, expr);
      return Value::dynamic();
    }
    owned = std::move(r);
    cur = &owned;
  }
  return *cur;
}

// INDEX: c k -> c[k]; spans: the brackets, the whole index expression.
void Vm::State::op_index(uint32_t pc) {
  Value key = pop();
  Value coll = pop();
  if (coll.rep() == Value::Rep::Seq && key.is_small_int() && !coll.type()->is_set()) {
    int64_t k = key.small_int();
    if (k >= 0 && uint64_t(k) < coll.length()) {
      push(coll.element(size_t(k)));
      return;
    }
  }
  AccessError err;
  Value r = hcl_index(coll, key, err);
  if (err) report(pc, util::Message::literal(err.summary), std::move(err.detail), 0, -1, 1);
  push(std::move(r));
}

// --- templates --------------------------------------------------------------------

// TPL_PART: v -> ; spans: the part, the template.
void Vm::State::op_tpl_part(uint32_t pc) {
  Value v = pop();
  TemplateFrame& f = tpls.top();
  if (v.rep() == Value::Rep::String) {
    if (f.known && !errors_since(f.mark)) {
      text += v.as_string();
      budget->check_string(text.size() - f.buf_start);
    }
    return;
  }
  if (v.rep() == Value::Rep::SmallNum) {  // an integer's text, without a string value
    if (f.known && !errors_since(f.mark)) {
      char buf[24];
      text.append(buf, std::to_chars(buf, buf + sizeof buf, v.small_int()).ptr);
    }
    return;
  }
  if (v.is_null()) {
    report(pc, "Invalid template interpolation value",
           "The expression result is null. Cannot include a null value in a string template.", 0,
           1, 0);
    return;
  }
  auto [u, m] = v.unmark_with_marks();
  f.marks.add(m);
  if (!u.is_known()) {
    f.known = false;
    return;
  }
  ConvertResult s = convert(u, Type::string());
  if (!s.ok()) {
    report(pc, "Invalid template interpolation value",
           "Cannot include the given value in a string template: " + s.error().message + ".", 0,
           1, 0);
    return;
  }
  if (f.known && !errors_since(f.mark)) {
    text += s.value().as_string();
    budget->check_string(text.size() - f.buf_start);
  }
}

// TPL_END: -> string.
void Vm::State::op_tpl_end() {
  TemplateFrame& f = tpls.top();
  Value ret;
  if (!f.known) {
    ret = Value::unknown(Type::string());
    if (!errors_since(f.mark) && text.size() > f.buf_start) {
      std::string_view prefix(text.data() + f.buf_start, text.size() - f.buf_start);
      // The reference keeps at most 128 bytes. Where that cuts a character
      // in two it keeps the stray bytes before the last one (Go's grapheme
      // scanner splits invalid UTF-8 byte by byte); this cuts before the
      // character instead, so a prefix is always valid UTF-8.
      if (prefix.size() > 128) {
        size_t n = 128;
        while (n > 0 && (static_cast<unsigned char>(prefix[n]) & 0xC0) == 0x80) --n;
        prefix = prefix.substr(0, n);
      }
      ret = refine(ret).string_prefix(prefix).new_value();
    }
    ret = refine_not_null(ret);
  } else {
    ret = Value::string(std::string_view(text.data() + f.buf_start, text.size() - f.buf_start));
  }
  ret = ret.mark(f.marks);
  text.resize(f.buf_start);
  tpls.pop();
  push(std::move(ret));
}

// TPL_JOIN: tuple -> string; span 0: the for expression.
void Vm::State::op_tpl_join(uint32_t pc) {
  Value t = pop();
  if (t.is_null() || t.type()->is_dynamic() || !t.type()->is_tuple() || !t.is_known()) {
    push(Value::unknown(Type::string()));
    return;
  }
  auto [tuple, marks] = t.unmark_with_marks();
  Marks all = marks;
  // The text goes after any template under construction, in the buffer
  // whose capacity the runs keep.
  const size_t start = text.size();
  auto done = [&](Value v) {
    text.resize(start);
    push(std::move(v));
  };
  for (const Value& e : tuple.elements()) {
    if (e.is_null()) {
      report(pc, "Invalid template interpolation value",
             "An iteration result is null. Cannot include a null value in a string template.", 0,
             -1, 0);
      continue;
    }
    if (e.type()->is_dynamic()) {
      done(Value::unknown(Type::string()).mark(marks));
      return;
    }
    ConvertResult s = convert(e, Type::string());
    if (!s.ok()) {
      report(pc, "Invalid template interpolation value",
             "Cannot include one of the interpolation results into the string template: " +
                 s.error().message + ".",
             0, -1, 0);
      continue;
    }
    if (!e.is_known()) {
      done(Value::unknown(Type::string()).mark(marks));
      return;
    }
    auto [sv, sm] = s.value().unmark_with_marks();
    all.add(sm);
    text += sv.as_string();
    budget->check_string(text.size() - start);
  }
  done(Value::string(std::string_view(text).substr(start)).mark(all));
}

// --- operators --------------------------------------------------------------------

// A binary operator (hclsyntax BinaryOpExpr.Value); spans: lhs, rhs, the
// whole expression. With the marks flag, one mark (two for && and ||)
// precedes the operands.
void Vm::State::op_binary(Op op, uint8_t flags, uint32_t pc) {
  bool logic = op == Op::AND || op == Op::OR;
  uint32_t m_l = 0, m_r = 0;
  if (flags & kFlagMarks) {
    m_r = pop_mark();
    m_l = logic ? pop_mark() : m_r;
  } else {
    m_l = m_r = ndiags();
  }
  Value b = pop();
  Value a = pop();
  Operator oper = operator_of(op);
  const Type* pt = operand_type(oper);
  const Type* rt = result_type(oper);

  // The common case: plain operands of the right type, operands without errors.
  if (a.is_plain() && b.is_plain() && (pt->is_dynamic() || (a.type() == pt && b.type() == pt)) &&
      !errors_since(m_l)) {
    Value out;
    if (fast_binary(op, a, b, out)) {
      push(std::move(out));
      return;
    }
  }

  ConvertResult ca = convert(a, pt);
  ConvertResult cb = convert(b, pt);
  if (!ca.ok() || !cb.ok()) {
    std::vector<PendingDiag> conv;
    if (!ca.ok()) {
      conv.push_back(make(pc, "Invalid operand",
                          "Unsuitable value for left operand: " + ca.error().message + ".", 0, 2,
                          0));
    }
    if (!cb.ok()) {
      conv.push_back(make(pc, "Invalid operand",
                          "Unsuitable value for right operand: " + cb.error().message + ".", 1, 2,
                          1));
    }
    diags.insert(diags.begin() + m_l, std::make_move_iterator(conv.begin()),
                 std::make_move_iterator(conv.end()));
    push(Value::unknown(rt));
    return;
  }
  auto [lhs, lm] = ca.value().unmark_with_marks();
  auto [rhs, rm] = cb.value().unmark_with_marks();
  Marks both = lm;
  both.add(rm);

  if (logic) {
    // The reference's ShortCircuit: a controlling operand decides the
    // result, and only that operand's diagnostics are kept.
    bool lk = lhs.is_known(), rk = rhs.is_known();
    bool is_and = op == Op::AND;
    int side = 0;  // 1: lhs decides, 2: rhs decides
    Value forced;
    if (!lk && !rk) {
      if (m_r == m_l) {  // no errors among the left operand's diagnostics
        side = 1;
        forced = refine_not_null(Value::unknown(Type::boolean()));
      }
    } else if (lk && (is_and ? !is_true(lhs) : is_true(lhs))) {
      side = 1;
      forced = Value::boolean(!is_and);
    } else if (rk && (is_and ? !is_true(rhs) : is_true(rhs))) {
      side = 2;
      forced = Value::boolean(!is_and);
    } else if (!lk && (is_and ? is_true(rhs) : !is_true(rhs))) {
      side = 1;
      forced = refine_not_null(Value::unknown(Type::boolean()));
    } else if (!rk && (is_and ? is_true(lhs) : !is_true(lhs))) {
      side = 2;
      forced = refine_not_null(Value::unknown(Type::boolean()));
    }
    if (side == 1) {
      truncate(m_r);
      push(forced.mark(both));
      return;
    }
    if (side == 2) {
      erase(m_l, m_r);
      push(forced.mark(both));
      return;
    }
  }

  if (errors_since(m_l)) {
    push(Value::unknown(rt).mark(both));
    return;
  }
  std::string error;
  Value r = call_operator(oper, lhs, rhs, error);
  if (!error.empty()) {
    report(pc, "Operation failed", "Error during operation: " + error + ".", 2, -1, 2);
    push(Value::unknown(rt));
    return;
  }
  push(r.mark(both));
}

// A unary operator (hclsyntax UnaryOpExpr.Value); spans: operand, whole.
void Vm::State::op_unary(Op op, uint8_t flags, uint32_t pc) {
  uint32_t m = (flags & kFlagMarks) ? pop_mark() : ndiags();
  Value a = pop();
  Operator oper = operator_of(op);
  const Type* pt = operand_type(oper);
  if (a.is_plain() && a.type() == pt && !errors_since(m)) {
    if (op == Op::NOT) {
      push(Value::boolean(!a.as_bool()));
      return;
    }
    ops::Result r = ops::negate(a);
    if (r.ok()) {
      push(std::move(r.value));
      return;
    }
  }
  ConvertResult ca = convert(a, pt);
  if (!ca.ok()) {
    report(pc, "Invalid operand", "Unsuitable value for unary operand: " + ca.error().message + ".",
           0, 1, 0);
  }
  if (errors_since(m)) {
    push(Value::unknown(pt));
    return;
  }
  std::string error;
  Value r = call_operator(oper, ca.value(), Value(), error);
  if (!error.empty()) {
    report(pc, "Operation failed", "Error during operation: " + error + ".", 1, -1, 1);
    push(Value::unknown(pt));
    return;
  }
  push(std::move(r));
}

// --- conditionals -------------------------------------------------------------------
// Spans of COND_TEST and COND_END: condition, whole, true result, false
// result, and the range between the two results. The result carries the
// top-level marks of the condition and of both results, as the reference's
// (hcl 2.23+) does; so only where both results are constants (no marks)
// may the compiler ask for one branch to be skipped (static mode).

// COND_TEST: c -> ; returns whether it jumped (ip updated).
bool Vm::State::op_cond_test(uint32_t type_index, uint32_t pc, const uint8_t*& ip, int32_t to_false,
                             int32_t to_end) {
  Value c = pop();
  CondFrame& f = conds.push();
  f.true_val = Value();
  f.marks = Marks();
  if (type_index == kNone) {
    f.mode = CondFrame::General;
    f.m0 = pop_mark();
    f.m1 = ndiags();
    f.cond = std::move(c);
    return false;
  }
  const Type* t = hot->types()[type_index];
  f.type = t;
  if (c.is_null()) {
    conds.pop();
    report(pc, "Null condition",
           "The condition value is null. Conditions must either be true or false.", 0, 1, 0);
    push(Value::unknown(t));
    ip += to_end;
    return true;
  }
  if (!c.is_known()) {
    f.mode = CondFrame::Both;
    f.m1 = ndiags();
    f.cond = std::move(c);
    return false;
  }
  bool truth;
  if (c.rep() == Value::Rep::Bool) {
    truth = c.as_bool();
  } else {
    f.marks = c.marks();
    ConvertResult cb = convert(c.unmark(), Type::boolean());
    if (!cb.ok()) {
      conds.pop();
      report(pc, "Incorrect condition type", "The condition expression must be of type bool.", 0,
             1, 0);
      push(Value::unknown(t));
      ip += to_end;
      return true;
    }
    truth = cb.value().as_bool();
  }
  f.mode = CondFrame::Single;
  if (!truth) {
    ip += to_false;
    return true;
  }
  return false;
}

// The result of a conditional whose condition is unknown: an unknown of
// [result_type] refined from what both results allow (hcl 2.23+), with the
// marks of all three values.
Value Vm::State::cond_unknown(const CondFrame& f, const Value& fv, const Type* result_type) {
  auto [t, tm] = f.true_val.unmark_with_marks();
  auto [fl, fm] = fv.unmark_with_marks();
  Marks all = f.cond.marks();
  all.add(tm);
  all.add(fm);
  if (t.is_null() && fl.is_null()) return Value::null(result_type).mark(all);
  ValueRange tr = value_range(t), fr = value_range(fl);
  bool not_null = tr.definitely_not_null() && fr.definitely_not_null();
  auto is = [](const ops::Result& r) { return r.ok() && r.value.is_known() && is_true(r.value); };
  if (t.type() == Type::number() && fl.type() == Type::number()) {
    RefinementBuilder b = refine(Value::unknown(Type::number()));
    if (not_null) b.not_null();
    auto [flo, flo_inc] = fr.number_lower_bound();
    auto [fhi, fhi_inc] = fr.number_upper_bound();
    auto [tlo, tlo_inc] = tr.number_lower_bound();
    auto [thi, thi_inc] = tr.number_upper_bound();
    if (flo.is_known() && tlo.is_known()) {
      Value lo = flo;
      bool inc = flo_inc;
      if (is(ops::less_than(tlo, flo)))
        lo = tlo, inc = tlo_inc;
      else if (is_true(ops::equals(tlo, flo)))
        inc = tlo_inc || flo_inc;
      b.number_lower_bound(lo, inc);
    }
    if (fhi.is_known() && thi.is_known()) {
      Value hi = fhi;
      bool inc = fhi_inc;
      if (is(ops::greater_than(thi, fhi)))
        hi = thi, inc = thi_inc;
      else if (is_true(ops::equals(thi, fhi)))
        inc = thi_inc || fhi_inc;
      b.number_upper_bound(hi, inc);
    }
    return b.new_value().mark(all);
  }
  if (t.type()->is_collection() && fl.type()->is_collection() && t.type() == fl.type()) {
    RefinementBuilder b = refine(Value::unknown(result_type));
    if (not_null) b.not_null();
    b.collection_length_lower_bound(std::min(tr.length_lower_bound(), fr.length_lower_bound()))
        .collection_length_upper_bound(std::max(tr.length_upper_bound(), fr.length_upper_bound()));
    return b.new_value().mark(all);
  }
  Value ret = Value::unknown(result_type);
  if (not_null) ret = refine_not_null(ret);
  return ret.mark(all);
}

// The result of a conditional in General mode (both results evaluated,
// types unified), with the diagnostics the reference keeps.
Value Vm::State::cond_general(CondFrame& f, Value fv, uint32_t pc) {
  Value& tv = f.true_val;
  auto dyn_null = [](const Value& v) {
    return !v.is_marked() && v.is_null() && v.type()->is_dynamic();
  };
  const Type* rt = Type::dynamic();
  ConversionRef conv_t, conv_f;
  if (dyn_null(tv)) {
    rt = fv.type();
    conv_t = get_conversion_unsafe(Type::dynamic(), rt);
  } else if (dyn_null(fv)) {
    rt = tv.type();
    conv_f = get_conversion_unsafe(Type::dynamic(), rt);
  } else if (tv.type()->is_dynamic() || fv.type()->is_dynamic()) {
    rt = Type::dynamic();
  } else if (tv.type() == fv.type()) {
    rt = tv.type();  // unification of equal types, without its allocations
  } else {
    const Type* both[2] = {tv.type(), fv.type()};
    Unified u = unify_unsafe(both);
    rt = u.type;
    if (rt) {
      conv_t = u.conversions[0];
      conv_f = u.conversions[1];
    }
  }
  if (!rt) {
    truncate(f.m0);
    report(pc, "Inconsistent conditional result types",
           "The true and false result expressions must have consistent types. " +
               describe_mismatch(tv.type(), fv.type()) + ".",
           4, 1, 1);
    return Value::dynamic();
  }
  const Value& c = f.cond;
  if (c.is_null()) {
    truncate(f.m1);
    report(pc, "Null condition",
           "The condition value is null. Conditions must either be true or false.", 0, 1, 0);
    return Value::unknown(rt);
  }
  if (!c.is_known()) {
    truncate(f.m1);
    return cond_unknown(f, fv, rt);
  }
  auto [cu, cm] = c.unmark_with_marks();
  ConvertResult cb = convert(cu, Type::boolean());
  if (!cb.ok()) {
    truncate(f.m1);
    report(pc, "Incorrect condition type", "The condition expression must be of type bool.", 0, 1,
           0);
    return Value::unknown(rt);
  }
  auto [t, tm] = tv.unmark_with_marks();
  auto [fl, fm] = fv.unmark_with_marks();
  Marks all = cm;
  all.add(tm);
  all.add(fm);
  bool truth = cb.value().as_bool();
  if (truth)
    truncate(f.m2);
  else
    erase(f.m1, f.m2);
  Value& result = truth ? t : fl;
  if (const ConversionRef& conv = truth ? conv_t : conv_f) {
    ConvertResult r = (*conv)(result);
    if (!r.ok()) {
      report(pc, "Inconsistent conditional result types",
             std::string("The ") + (truth ? "true" : "false") +
                 " result value has the wrong type: " + r.error().message + ".",
             truth ? 2 : 3, 1, truth ? 2 : 3);
      return Value::unknown(rt).mark(all);
    }
    result = r.take();
  }
  return result.mark(all);
}

// --- objects ------------------------------------------------------------------------

// OBJ_ITEM: k v -> ; spans: key, value.
void Vm::State::op_obj_item(uint8_t flags, uint32_t pc) {
  Value v = pop();
  Value k = pop();
  ObjectFrame& f = objs.top();
  if (flags & kFlagMarks) {
    uint32_t m_v = pop_mark();
    uint32_t m_k = pop_mark();
    if (m_v > m_k) {  // the key reported errors
      f.known = false;
      return;
    }
  }
  if (k.rep() == Value::Rep::String) {
    obj_entries.emplace_back(std::string(k.as_string()), std::move(v));
    return;
  }
  if (k.is_null()) {
    report(pc, "Null value as key", "Can't use a null value as a key.", 1, -1, 0);
    f.known = false;
    return;
  }
  auto [ku, km] = k.unmark_with_marks();
  f.marks.add(km);
  ConvertResult ks = convert(ku, Type::string());
  if (!ks.ok()) {
    report(pc, "Incorrect key type", "Can't use this value as a key: " + ks.error().message + ".",
           0, -1, 0);
    f.known = false;
    return;
  }
  if (!ks.value().is_known()) {
    f.known = false;
    return;
  }
  obj_entries.emplace_back(std::string(ks.value().unmark().as_string()), std::move(v));
}

// OBJ_END: -> object; a later item wins over an earlier one with the same key.
void Vm::State::op_obj_end() {
  ObjectFrame& f = objs.top();
  Value result;
  if (!f.known) {
    result = Value::dynamic();
  } else {
    std::vector<std::pair<std::string, Value>> items(
        std::make_move_iterator(obj_entries.begin() + ptrdiff_t(f.start)),
        std::make_move_iterator(obj_entries.end()));
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i)
      if (i + 1 == items.size() || items[i + 1].first != items[i].first)
        attrs.push_back(std::move(items[i]));
    result = Value::object(std::move(attrs)).mark(f.marks);
  }
  obj_entries.resize(f.start);
  objs.pop();
  push(std::move(result));
}

// --- for expressions ------------------------------------------------------------------
// Spans of the for instructions: FOR_BEGIN: collection, whole;
// FOR_COND: condition, whole; FOR_KEY and FOR_ITEM_KV: key, whole.

// FOR_BEGIN: coll -> ; returns false (with the result pushed) when the
// expression is decided without iterating.
bool Vm::State::op_for_begin(uint32_t desc, uint32_t pc) {
  Value c = pop();
  if (c.is_null()) {
    report(pc, "Iteration over null value",
           "A null value cannot be used as the collection in a 'for' expression.", 0, 1, 0);
    push(Value::dynamic());
    return false;
  }
  if (c.type()->is_dynamic()) {
    push(Value::dynamic());
    return false;
  }
  auto [coll, cm] = c.unmark_with_marks();
  if (!iterable(coll.type())) {
    report(pc, "Iteration over non-iterable value",
           "A value of type " + coll.type()->friendly_name() +
               " cannot be used as the collection in a 'for' expression.",
           0, 1, 0);
    push(Value::dynamic());
    return false;
  }
  const ForDesc& d = hot->fors()[desc];
  if (!coll.is_known() && !d.has_cond) {
    push(Value::dynamic().mark(cm));
    return false;
  }
  // With an `if`, its early check comes before the test for an unknown
  // collection (hcl 2.23+), which then gives DynamicVal after it.
  ForFrame& f = fors.push();
  f.desc = desc;
  f.coll_unknown = !coll.is_known();
  f.count = f.coll_unknown ? 0 : coll.length();
  f.coll = std::move(coll);
  f.marks = std::move(cm);
  f.cond_marks = Marks();
  f.index = 0;
  f.known = !f.coll_unknown;
  f.aborted = false;
  f.items.clear();
  f.entries.clear();
  f.ngroups = 0;
  f.keys.clear();
  if (d.has_cond) {
    f.phase = ForFrame::Pre;
    if (d.key_slot != kNoSlot) set_local(d.key_slot, Value::dynamic());
    set_local(d.val_slot, Value::dynamic());
  } else {
    f.phase = ForFrame::Loop;
  }
  return true;
}

// Binds the variables of element f.index of the collection.
void Vm::State::bind_for(ForFrame& f) {
  const ForDesc& d = hot->fors()[f.desc];
  const Value& c = f.coll;
  size_t i = f.index;
  switch (c.rep()) {
    case Value::Rep::Seq: {
      const Value& e = c.element(i);
      if (d.key_slot != kNoSlot) {
        if (c.type()->is_set())
          bind_local(d.key_slot, e);
        else
          set_local(d.key_slot, Value::integer(int64_t(i)));
      }
      bind_local(d.val_slot, e);
      break;
    }
    case Value::Rep::Map: {
      const auto* m = static_cast<const hclvm::detail::MapObj*>(c.obj());
      if (d.key_slot != kNoSlot) bind_local(d.key_slot, m->keys[i]);
      bind_local(d.val_slot, m->vals[i]);
      break;
    }
    case Value::Rep::Object:
      if (d.key_slot != kNoSlot) set_local(d.key_slot, Value::string(c.type()->attr_name(i)));
      bind_local(d.val_slot, c.attr(i));
      break;
    default: break;
  }
}

// FOR_NEXT: returns true when the iteration is over.
bool Vm::State::op_for_next() {
  ForFrame& f = fors.top();
  if (f.phase == ForFrame::Pre) {
    f.phase = ForFrame::PreCond;
    f.mark = ndiags();
    return false;
  }
  if (f.index >= f.count) return true;
  bind_for(f);
  ++f.index;
  return false;
}

// FOR_COND: c -> ; returns true when the element is skipped.
bool Vm::State::op_for_cond(uint32_t pc) {
  Value inc = pop();
  ForFrame& f = fors.top();
  const ForDesc& d = hot->fors()[f.desc];
  if (f.phase == ForFrame::PreCond) {
    // The early check with the variables unknown: any problem ends the loop.
    bool abort = false;
    if (inc.is_null()) {
      report(pc, "Condition is null", "The value of the 'if' clause must not be null.", 0, 1, 0);
      abort = true;
    } else if (ConvertResult cb = convert(inc, Type::boolean()); !cb.ok()) {
      report(pc, "Invalid 'for' condition",
             "The 'if' clause value is invalid: " + cb.error().message + ".", 0, 1, 0);
      abort = true;
    } else if (errors_since(f.mark)) {
      abort = true;
    } else {
      f.cond_marks = inc.marks();
    }
    f.phase = ForFrame::Loop;
    if (abort) {
      f.aborted = true;
      f.known = false;
      f.index = f.count;
    }
    return true;
  }
  if (inc.rep() == Value::Rep::Bool) return !inc.as_bool();
  if (inc.is_null()) {
    if (f.known)
      report(pc, "Invalid 'for' condition", "The value of the 'if' clause must not be null.", 0, 1,
             0);
    f.known = false;
    return true;
  }
  f.marks.add(inc.marks());
  if (!d.object && !inc.is_known()) {
    f.known = false;
    return true;
  }
  ConvertResult cb = convert(inc, Type::boolean());
  if (!cb.ok()) {
    if (f.known)
      report(pc, "Invalid 'for' condition",
             "The 'if' clause value is invalid: " + cb.error().message + ".", 0, 1, 0);
    f.known = false;
    return true;
  }
  if (!cb.value().is_known()) {
    f.known = false;
    return true;
  }
  return !is_true(cb.value().unmark());
}

// FOR_KEY: k -> key; returns true (nothing pushed) when the element is skipped.
bool Vm::State::op_for_key(uint32_t pc) {
  if (sp[-1].rep() == Value::Rep::String) return false;  // a plain string key stays
  Value k = pop();
  ForFrame& f = fors.top();
  if (k.is_null()) {
    if (f.known)
      report(pc, "Invalid object key",
             "Key expression in 'for' expression must not produce a null value.", 0, 1, 0);
    f.known = false;
    return true;
  }
  f.marks.add(k.marks());
  if (!k.is_known()) {
    f.known = false;
    return true;
  }
  ConvertResult ks = convert(k, Type::string());
  if (!ks.ok()) {
    if (f.known) {
      report(pc, "Invalid object key",
             "The key expression produced an invalid result: " + ks.error().message + ".", 0, 1, 0);
    }
    f.known = false;
    return true;
  }
  push(ks.value().unmark());
  return false;
}

// FOR_ITEM_KV: key v -> .
void Vm::State::op_for_item_kv(uint32_t pc) {
  Value v = pop();
  Value k = pop();
  ForFrame& f = fors.top();
  const ForDesc& d = hot->fors()[f.desc];
  std::string_view key = k.as_string();
  size_t at = find_for_key(f, d, key);
  if (d.group) {
    if (at == kNoKey) {
      note_for_key(f, key, f.ngroups);
      if (f.ngroups == f.groups.size()) f.groups.emplace_back();
      auto& [name, row] = f.groups[f.ngroups++];
      name.assign(key);
      row.clear();
      row.push_back(std::move(v));
    } else {
      f.groups[at].second.push_back(std::move(v));
    }
    return;
  }
  if (at != kNoKey) {
    report(pc, "Duplicate object key",
           "Two different items produced the key " + uni::go_quote(key) +
               " in this 'for' expression. If duplicates are expected, use the ellipsis (...) "
               "after the value "
               "expression to enable grouping by key.",
           0, 1, 0);
    return;
  }
  note_for_key(f, key, f.entries.size());
  f.entries.emplace_back(std::string(key), std::move(v));
}

// Where the key [key] of an object `for` went so far (an entry or a group),
// or kNoKey. Up to kLinearKeys keys are compared in place (most groupings
// have few); past that, a hash table is built once and kept up to date.
size_t Vm::State::find_for_key(ForFrame& f, const ForDesc& d, std::string_view key) {
  size_t n = d.group ? f.ngroups : f.entries.size();
  auto name = [&](size_t i) -> const std::string& {
    return d.group ? f.groups[i].first : f.entries[i].first;
  };
  if (n <= kLinearKeys) {
    for (size_t i = 0; i < n; ++i)
      if (name(i) == key) return i;
    return kNoKey;
  }
  if (f.keys.empty())
    for (size_t i = 0; i < n; ++i) f.keys.emplace(name(i), i);
  auto it = f.keys.find(std::string(key));
  return it == f.keys.end() ? kNoKey : it->second;
}

// Records that key [key] is entry or group [i] (in the hash table, once
// there is one).
void Vm::State::note_for_key(ForFrame& f, std::string_view key, size_t i) {
  if (!f.keys.empty()) f.keys.emplace(std::string(key), i);
}

// FOR_END: -> result.
void Vm::State::op_for_end() {
  ForFrame& f = fors.top();
  const ForDesc& d = hot->fors()[f.desc];
  Value result;
  if (f.aborted) {
    result = Value::dynamic();
  } else if (f.coll_unknown) {
    result = Value::dynamic().mark(f.marks).mark(f.cond_marks);
  } else if (!f.known) {
    result = Value::dynamic().mark(f.marks);
  } else if (!d.object) {
    result = Value::tuple_from(memo_tuple_type(f.items), f.items).mark(f.marks);
  } else if (d.group) {
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.reserve(f.ngroups);
    for (size_t i = 0; i < f.ngroups; ++i) {
      auto& [name, row] = f.groups[i];
      attrs.emplace_back(name, Value::tuple_from(memo_tuple_type(row), row));
      row.clear();
    }
    result = Value::object(std::move(attrs)).mark(f.marks);
  } else {
    result = Value::object(std::move(f.entries)).mark(f.marks);
  }
  f.coll = Value();
  f.items.clear();
  f.entries.clear();
  f.ngroups = 0;
  f.keys.clear();
  fors.pop();
  push(std::move(result));
}

// --- splat expressions ----------------------------------------------------------------
// Spans of SPLAT_BEGIN: source, from the source to the splat marker; of
// SPLAT_END: the item expression, the whole splat.

// SPLAT_BEGIN: src -> ; returns false (with the result pushed) when the
// result is decided without iterating.
bool Vm::State::op_splat_begin(uint32_t desc, uint32_t pc) {
  Value src = pop();
  const SplatDesc& d = hot->splats()[desc];
  uint32_t m = d.marks ? pop_mark() : ndiags();
  if (errors_since(m)) {
    push(Value::dynamic());
    return false;
  }
  const Type* ty = src.type();
  bool upgrade = !(ty->is_tuple() || ty->is_list() || ty->is_set());
  if (src.is_null()) {
    if (upgrade) {
      push(Value::tuple({}).mark(src.marks()));
      return false;
    }
    report(pc, "Splat of null value",
           "Splat expressions (with the * symbol) cannot be applied to null sequences.", 0, 1, 0);
    push(Value::dynamic());
    return false;
  }
  if (ty->is_dynamic()) {
    push(Value::dynamic().mark(src.marks()));
    return false;
  }
  SplatFrame& f = splats.push();
  f.desc = desc;
  f.upgraded_unknown = false;
  f.known = true;
  f.index = 0;
  f.vals.clear();
  f.types.clear();
  if (upgrade) {
    if (!src.is_known() && value_range(src).could_be_null()) f.upgraded_unknown = true;
    Marks sm = src.marks();
    std::vector<Value> one;
    one.push_back(std::move(src));
    src = Value::tuple(std::move(one)).mark(sm);
  }
  f.src_marks = src.marks();
  if (!src.is_known()) {
    f.src = std::move(src);
    f.types_mode = true;
    f.reason = SplatFrame::UnknownSource;
    f.type_mark = ndiags();
    f.count = f.src.type()->is_tuple() ? f.src.type()->size() : 1;
    return true;
  }
  auto [u, marks] = src.unmark_with_marks();
  f.src = std::move(u);
  f.marks = std::move(marks);
  f.types_mode = false;
  f.count = f.src.length();
  return true;
}

// SPLAT_NEXT: returns true when the iteration is over.
bool Vm::State::op_splat_next() {
  SplatFrame& f = splats.top();
  if (f.index >= f.count) return true;
  const SplatDesc& d = hot->splats()[f.desc];
  if (f.types_mode) {
    const Type* st = f.src.type();
    set_local(d.item_slot,
              Value::unknown(st->is_tuple() ? st->tuple_element(f.index) : st->element()));
  } else {
    bind_local(d.item_slot, f.src.element(f.index));
  }
  ++f.index;
  f.item_mark = ndiags();
  return false;
}

// SPLAT_NEXT, its step counted, over an item expression that is a lone
// traversal from the item (`users[*].name`; [body] is its code): collects
// the items whose every step is found in place without running the loop's
// instructions, counting a step per item as they would. True when every
// item is collected; false, with f.index at the first item that needs the
// general path, or at once for a body of another shape.
bool Vm::State::splat_in_place(SplatFrame& f, uint16_t slot, const uint8_t* body) {
  if (static_cast<Op>(body[0]) != Op::TRAVERSE || static_cast<Op>(body[info(Op::TRAVERSE).size]) != Op::SPLAT_ITEM)
    return false;
  const TraversalDesc& d = hot->traversals()[operand_at<Op::TRAVERSE, 0>(body)];
  if (d.root != TraversalDesc::Local || d.root_index != slot) return false;
  const StepDesc* steps = hot->steps() + d.first_step;
  for (bool first = true; f.index < f.count; ++f.index, first = false) {
    if (!first) budget->step();
    const Value* cur = &f.src.element(f.index);
    for (uint32_t i = 0; cur != nullptr && i < d.num_steps; ++i) cur = step_in_place(steps[i], *cur);
    if (cur == nullptr) return false;
    f.vals.push_back(*cur);
  }
  budget->step();  // the SPLAT_NEXT that finds the items exhausted
  return true;
}

// SPLAT_ITEM: v -> .
void Vm::State::op_splat_item() {
  Value v = pop();
  SplatFrame& f = splats.top();
  if (f.types_mode) {
    f.types.push_back(v.type());
    return;
  }
  if (errors_since(f.item_mark)) f.known = false;
  f.vals.push_back(std::move(v));
}

// SPLAT_END: -> result; returns true (nothing pushed) when the item
// expression must run again over the element types.
// The list a splat over a list or set gives from its items (cty.ListVal):
// items of the dynamic pseudo-type take the others' type; items of
// different types are the reference's "Invalid nested splat expressions".
Value Vm::State::splat_list(uint32_t pc) {
  SplatFrame& f = splats.top();
  const Type* et = Type::dynamic();
  for (const Value& v : f.vals) {
    const Type* t = v.type();
    if (et->is_dynamic()) {
      et = t;
    } else if (!t->is_dynamic() && t != et) {
      report(pc, "Invalid nested splat expressions",
             "The second level of splat expression produced elements of different types, so it "
             "isn't possible "
             "to construct a valid list to represent the top-level result.\n\nConsider using a for "
             "expression "
             "instead, to produce a tuple-typed result which can therefore have non-homogenous "
             "element types.",
             0, 1);
      return Value::dynamic();
    }
  }
  if (!et->is_dynamic()) {
    for (Value& v : f.vals) {
      if (!v.type()->is_dynamic()) continue;
      auto [u, um] = v.unmark_with_marks();
      v = (u.is_null() ? Value::null(et) : Value::unknown(et)).mark(um);
    }
  }
  return Value::list_from(et, f.vals).mark(f.marks);
}

bool Vm::State::op_splat_end(uint32_t pc) {
  SplatFrame& f = splats.top();
  const Type* st = f.src.type();
  bool seq = st->is_list() || st->is_set();
  Value result;
  if (!f.types_mode) {
    auto need_types = [&](SplatFrame::Reason why) {
      f.types_mode = true;
      f.reason = why;
      f.index = 0;
      f.count = st->is_tuple() ? st->size() : 1;
      f.type_mark = ndiags();
      return true;
    };
    if (f.upgraded_unknown) {
      result = Value::dynamic().mark(f.marks);
    } else if (!f.known) {
      return need_types(SplatFrame::NotKnown);
    } else if (seq) {
      if (f.vals.empty()) return need_types(SplatFrame::Empty);
      result = splat_list(pc);
    } else {
      result = Value::tuple_from(memo_tuple_type(f.vals), f.vals).mark(f.marks);
    }
  } else {
    const Type* ty =
        seq ? Type::list(f.types.empty() ? Type::dynamic() : f.types[0]) : Type::tuple(f.types);
    switch (f.reason) {
      case SplatFrame::UnknownSource: {
        result = Value::unknown(ty);
        if (!ty->is_dynamic()) result = refine_not_null(result);
        if (ty->is_list() && st->is_collection()) {
          ValueRange r = value_range(f.src.unmark());
          result = refine(result)
                       .collection_length_lower_bound(r.length_lower_bound())
                       .collection_length_upper_bound(r.length_upper_bound())
                       .new_value();
        }
        result = result.mark(f.src_marks);
        break;
      }
      case SplatFrame::NotKnown:
        truncate(f.type_mark);
        result = Value::unknown(ty).mark(f.marks);
        break;
      case SplatFrame::Empty: result = Value::list(ty->element(), {}).mark(f.marks); break;
    }
  }
  f.src = Value();
  f.vals.clear();
  splats.pop();
  push(std::move(result));
  return false;
}

// --- function calls ---------------------------------------------------------------------
// Spans of the call instructions: whole call, name, closing parenthesis,
// start (name and opening parenthesis), the start of each argument written,
// the whole expanded argument when the call has `...`, then each whole
// argument (arg_span).

// CALL_BEGIN: returns false (with DynamicVal pushed) when the call fails
// before its arguments are evaluated.
bool Vm::State::op_call_begin(uint32_t name, uint16_t nargs, uint8_t flags, uint32_t pc) {
  if (fns == nullptr) {
    report(pc, "Function calls not allowed", "Functions may not be called here.", 0, -1, 0);
    push(Value::dynamic());
    return false;
  }
  SymbolSlot& sym = symbols[hot->symbols()[name]];
  if (sym.fn_gen != fns_gen) {
    sym.fn = fns->find(prog->names[name]);
    sym.fn_gen = fns_gen;
  }
  const Function* fn = sym.fn;
  if (fn == nullptr) {
    const std::string& fname = prog->names[name];
    // The reference lists the functions of the context it was given only:
    // none inside a for expression (a child context without any), nor in
    // a context that only inherits its parent's.
    const FunctionTable* own = ctx->own_functions();
    bool listed = !(flags & kCallChildScope) && own != nullptr;
    std::string detail;
    size_t sep = fname.rfind("::");
    if (sep != std::string::npos) {
      std::vector<std::string_view> avail;
      if (listed) avail = own->names();
      // A namespaced name: is the namespace known at all?
      std::string_view ns = std::string_view(fname).substr(0, sep + 2);
      std::string_view bare = std::string_view(fname).substr(sep + 2);
      std::erase_if(avail, [&](std::string_view n) { return n.substr(0, ns.size()) != ns; });
      if (avail.empty()) {
        detail = "There are no functions in namespace " + uni::go_quote(ns) + ".";
      } else {
        // The reference compares the bare name with the full names here,
        // and puts the namespace before the full name it suggests.
        std::string_view c = closest(bare, {&avail, 1});
        detail = "There is no function named " + uni::go_quote(bare) + " in namespace " +
                 std::string(ns) + ".";
        if (!c.empty()) detail += " Did you mean " + std::string(ns) + std::string(c) + "?";
      }
    } else {
      // The closest name (the first of the closest, in order), straight
      // from the table.
      std::string_view best;
      if (listed) {
        uni::NearName near(fname);
        size_t best_d = 3;
        own->each_name([&](std::string_view c) {
          size_t d = near.below(c, best_d);
          if (d < best_d) best = c, best_d = d;
        });
      }
      detail = "There is no function named " + uni::go_quote(fname) + ".";
      if (!best.empty()) detail += " Did you mean " + uni::go_quote(best) + "?";
    }
    report(pc, "Call to unknown function", std::move(detail), 1, 0, 0);
    push(Value::dynamic());
    return false;
  }
  CallFrame& f = calls.push();
  if (fn->special != Function::Special::None) ++try_depth;
  f.fn = fn;
  f.name = name;
  f.base = depth();
  f.mark = f.arg_mark = ndiags();
  f.nargs = nargs;
  f.expand = flags & kCallExpand;
  f.num_expanded = 0;
  if (!f.expanded.empty()) f.expanded.clear();
  if (!f.try_diags.empty()) f.try_diags.clear();
  size_t np = fn->params.size();
  bool count_ok = nargs == np || (fn->var_param && nargs > np);
  if (!f.expand && !count_ok && !check_arg_count(f, nargs, pc)) {
    pop_call();
    push(Value::dynamic());
    return false;
  }
  f.expr_arg = fn->expression_arg && nargs > (f.expand ? 1 : 0);
  f.expr_arg_error.reset();
  if (f.expr_arg) {
    auto syntax = ArgSyntax((flags & kCallArgSyntaxMask) >> kCallArgSyntaxShift);
    if (std::string m = fn->expression_arg->check(syntax); !m.empty())
      f.expr_arg_error = std::move(m);
  }
  return true;
}

// The first argument of a call whose function takes it as an expression
// has been evaluated (on the stack): its diagnostics go (the reference
// evaluates it inside the function, and keeps only the message of its
// errors, as hcl.Diagnostics.Error() words them); a refused syntax or an
// error leaves DynamicVal in its place and the error for CALL_END.
void Vm::State::expression_arg_done(CallFrame& f) {
  if (!f.expr_arg_error && errors_since(f.arg_mark))
    f.expr_arg_error =
        f.fn->expression_arg->eval_prefix + diagnostics_error(finish_diags(f.arg_mark));
  truncate(f.arg_mark);
  if (f.expr_arg_error) sp[-1] = Value::dynamic();
}

// Checks the count [n] of arguments (expanded ones included) of the call
// in [f]; reports the reference's error (alone) and returns false when wrong.
bool Vm::State::check_arg_count(CallFrame& f, size_t n, uint32_t pc) {
  const Function& fn = *f.fn;
  reporting_try_call = fn.special != Function::Special::None;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{reporting_try_call};
  const std::string& fname = prog->names[f.name];
  size_t np = fn.params.size();
  if (n < np) {
    truncate(f.mark);
    report(pc, "Not enough function arguments",
           "Function " + uni::go_quote(fname) + " expects" + (fn.var_param ? " at least" : "") +
               " " + std::to_string(np) + " argument(s). Missing value for " +
               uni::go_quote(fn.params[n].name) + ".",
           2, 0, 0);
    return false;
  }
  if (!fn.var_param && n > np) {
    truncate(f.mark);
    size_t written = f.expand ? size_t(f.nargs) - 1 : f.nargs;
    int subject = np < written ? int(4 + np) : int(4 + f.nargs);
    report(pc, "Too many function arguments",
           "Function " + uni::go_quote(fname) + " expects only " + std::to_string(np) +
               " argument(s).",
           subject, 0, 0);
    return false;
  }
  return true;
}

// CALL_EXPAND: list -> ; returns false (with DynamicVal pushed) when the call ends here.
bool Vm::State::op_call_expand(uint32_t pc) {
  Value v = pop();
  CallFrame& f = calls.top();
  int expand_span = 4 + f.nargs;
  auto stop = [&]() {
    pop_call();
    push(Value::dynamic());
    return false;
  };
  if (errors_since(f.mark)) return stop();
  const Type* t = v.type();
  if (t->is_dynamic() || t->is_tuple() || t->is_list() || t->is_set()) {
    if (v.is_null()) {
      report(pc, "Invalid expanding argument value",
             "The expanding argument (indicated by ...) must not be null.", expand_span, 0,
             expand_span);
      return stop();
    }
    if (t->is_dynamic() || !v.is_known()) return stop();
  } else {
    report(pc, "Invalid expanding argument value",
           "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
           expand_span, 0, expand_span);
    return stop();
  }
  auto [u, marks] = v.unmark_with_marks();
  const Function& fn = *f.fn;
  std::span<const Value> elems = u.elements();
  if (!check_arg_count(f, size_t(f.nargs) - 1 + elems.size(), pc)) return stop();
  if (fn.special != Function::Special::None) {
    for (const Value& e : elems) f.expanded.push_back(e.mark(marks));
    f.arg_mark = ndiags();
    return true;
  }
  // Onto the stack, before the arguments written (evaluated after the
  // expansion, as in the reference); CALL_END puts them in order and
  // converts them. The code was compiled counting one slot for the list,
  // so the stack grows by the rest.
  size_t depth = size_t(sp - stack.data());
  if (size_t need = depth + elems.size() + hot->max_stack + 1; stack.size() < need) {
    stack.resize(need);
    sp = stack.data() + depth;
  }
  for (const Value& e : elems) push(marks.empty() ? e : e.mark(marks));
  f.num_expanded = uint32_t(elems.size());
  f.arg_mark = ndiags();
  return true;
}

// Ends the call in the innermost frame with [result]: drops its
// arguments and frame and pushes the result.
void Vm::State::finish_call(Value result) {
  CallFrame& f = calls.top();
  for (Value* base = stack.data() + f.base; sp > base;) *--sp = Value();
  if (!f.expanded.empty()) f.expanded.clear();
  pop_call();
  push(std::move(result));
}

// CALL_ARG: v -> v'; returns true when try() or can() has its result
// (pushed, frame gone) and execution continues after the call.
bool Vm::State::op_call_arg(uint16_t index, uint32_t pc) {
  CallFrame& f = calls.top();
  const Function& fn = *f.fn;
  if (fn.special == Function::Special::None) {
    if (index == 0 && f.expr_arg) expression_arg_done(f);
    // The common case, in place: an argument already of its parameter's type.
    const Param& p = index < fn.params.size() ? fn.params[index] : *fn.var_param;
    convert_arg(sp[-1], p, 4 + index, arg_span(f, index), pc);
    f.arg_mark = ndiags();
    return false;
  }
  Value v = pop();
  if (fn.special == Function::Special::Try) {
    if (errors_since(f.arg_mark)) {
      for (uint32_t i = f.arg_mark; i < diags.size(); ++i)
        f.try_diags.push_back(std::move(diags[i]));
      truncate(f.arg_mark);
      push(Value());
      return false;
    }
    truncate(f.mark);
    finish_call(v.is_wholly_known() ? std::move(v) : Value::dynamic());
    return true;
  }
  // can()
  bool failed = errors_since(f.arg_mark);
  truncate(f.mark);
  if (failed)
    finish_call(Value::boolean(false));
  else if (!v.is_wholly_known())
    finish_call(Value::unknown(Type::boolean()));
  else
    finish_call(Value::boolean(true));
  return true;
}

// Converts argument [v] of a call to the type of its parameter [p]; a
// failure is reported with subject span [subject], the call as context and
// the variables of span [expr], and leaves the dynamic value.
void Vm::State::convert_arg_to(Value& v, const Param& p, int subject, int expr, uint32_t pc) {
  ConvertResult cv = convert(v, p.type);
  if (!cv.ok()) {
    report(pc, "Invalid function argument",
           "Invalid value for " + uni::go_quote(p.name) + " parameter: " + cv.error().message + ".",
           subject, 0, expr);
    v = Value::dynamic();
  } else {
    v = cv.take();
  }
}

// The error of try() when no argument succeeded.
Value Vm::State::try_failure(CallFrame& f, uint32_t pc) {
  std::string msg;
  if (size_t(f.nargs) - (f.expand ? 1u : 0u) + f.expanded.size() == 0) {
    msg = "at least one argument is required";
  } else {
    msg = "no expression succeeded:\n";
    for (const PendingDiag& d : f.try_diags) {
      msg.append("- ").append(d.summary.view());
      if (d.has_subject) msg.append(" (at ").append(range_string(range(d.subject))).append(")");
      msg.append("\n  ").append(d.detail.view()).append("\n");
    }
    msg += "\nAt least one expression must produce a successful result";
  }
  reporting_try_call = true;
  report(pc, "Error in function call",
         "Call to function " + uni::go_quote(prog->names[f.name]) + " failed: " + msg + ".", 3, 0,
         0);
  reporting_try_call = false;
  return Value::dynamic();
}

// CALL_END: v1..vn -> result.
void Vm::State::op_call_end(uint16_t nplain, uint32_t pc) {
  CallFrame& f = calls.top();
  const Function& fn = *f.fn;
  int expand_span = 4 + f.nargs;
  if (fn.special != Function::Special::None) {
    // Expanded arguments are literal values: the first decides.
    Value result;
    if (!f.expanded.empty()) {
      const Value& e = f.expanded[0];
      if (fn.special == Function::Special::Try)
        result = e.is_wholly_known() ? e : Value::dynamic();
      else
        result = e.is_wholly_known() ? Value::boolean(true) : Value::unknown(Type::boolean());
    } else if (fn.special == Function::Special::Try) {
      result = try_failure(f, pc);
    } else {
      result = Value::dynamic();
    }
    finish_call(std::move(result));
    return;
  }
  std::span<Value> args(sp - nplain - f.num_expanded, nplain + f.num_expanded);
  if (f.num_expanded != 0) {
    // The arguments written first, then the expanded ones, converted to
    // their parameters' types in order (after the written arguments' own
    // conversions, as in the reference).
    std::rotate(args.begin(), args.begin() + f.num_expanded, args.end());
    size_t np = fn.params.size();
    for (size_t i = nplain; i < args.size(); ++i)
      convert_arg(args[i], i < np ? fn.params[i] : *fn.var_param, expand_span, expand_span, pc);
  }
  if (errors_since(f.mark)) {
    finish_call(Value::dynamic());
    return;
  }
  std::optional<FuncError> instead;
  if (f.expr_arg_error) instead = FuncError{std::move(*f.expr_arg_error), 0};
  FuncResult r = fn.call(std::span<const Value>(args), instead ? &*instead : nullptr);
  if (r.ok()) {
    finish_call(std::move(r.value));
    return;
  }
  const std::string& fname = prog->names[f.name];
  const FuncError& e = *r.error;
  if (e.arg >= 0) {
    size_t i = size_t(e.arg);
    const Param* p = i < fn.params.size() ? &fn.params[i] : fn.var_param ? &*fn.var_param : nullptr;
    size_t nargs = args.size();
    if (p == nullptr || i + 1 > nargs) {
      if (p != nullptr) {
        report(pc, "Invalid function argument",
               "Invalid value for " + uni::go_quote(p->name) + " parameter: " + e.message + ".", 0,
               -1, 0);
      } else {
        report(pc, "Error in function call",
               "Call to function " + uni::go_quote(fname) + " failed: " + e.message + ".", 3, 0, 0);
      }
    } else {
      int subject = i < nplain ? int(4 + i) : expand_span;
      report(pc, "Invalid function argument",
             "Invalid value for " + uni::go_quote(p->name) + " parameter: " + e.message + ".",
             subject, 0, i < nplain ? arg_span(f, i) : expand_span);
    }
  } else {
    report(pc, "Error in function call",
           "Call to function " + uni::go_quote(fname) + " failed: " + e.message + ".", 3, 0, 0);
  }
  finish_call(Value::dynamic());
}

// --- the loop -------------------------------------------------------------------------

// Dispatch: with GCC and Clang, each instruction jumps straight to the
// next one's handler through a table of label addresses (computed goto),
// so every handler ends in its own indirect jump, which the branch
// predictor learns per handler; elsewhere (or with HCLVM_VM_SWITCH) the
// loop goes back to one switch. Each handler is both a case of the switch
// (the first instruction enters through it) and a label of the table.
// A handler's values with destructors live in an inner block that ends
// before VM_NEXT: a computed goto must not leave their scope.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(HCLVM_VM_SWITCH)
#define HCLVM_VM_GOTO 1
// Label addresses are an extension of both compilers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#define VM_CASE(name) \
  case Op::name:      \
  L_##name:
#define VM_NEXT                                                             \
  do {                                                                      \
    op = static_cast<Op>(*ip);                                              \
    pc = uint32_t(ip - code);                                               \
    goto* kJump[uint8_t(op) < kNumOps ? uint8_t(op) : uint8_t(kNumOps)]; \
  } while (0)
#else
#define VM_CASE(name) case Op::name:
#define VM_NEXT continue
#endif

// A handler reads its operands and steps past its instruction through
// these, by opcode name: offsets, widths and sizes come from opcodes.def
// as constants (vm/opcodes.h), never written out by hand.
#define ARG(name, i) (::hclvm::vm::operand_at<Op::name, i>(ip))
#define SIZE(name) (::hclvm::vm::info(Op::name).size)

// Opcodes that share a handler read their operands as its first one does.
static_assert(same_operands(Op::ADD, Op::SUB) && same_operands(Op::ADD, Op::MUL) &&
              same_operands(Op::ADD, Op::DIV) && same_operands(Op::ADD, Op::MOD) &&
              same_operands(Op::ADD, Op::EQ) && same_operands(Op::ADD, Op::NE) &&
              same_operands(Op::ADD, Op::LT) && same_operands(Op::ADD, Op::LE) &&
              same_operands(Op::ADD, Op::GT) && same_operands(Op::ADD, Op::GE) &&
              same_operands(Op::ADD, Op::AND) && same_operands(Op::ADD, Op::OR));
static_assert(same_operands(Op::NEG, Op::NOT));

Value Vm::State::exec() {
  const uint8_t* code = hot->code();
  const uint8_t* ip = code;
  const Value* K = hot->constants();
#ifdef HCLVM_VM_GOTO
  // One entry per opcode, then the one for a byte that is not an opcode.
  static const void* const kJump[kNumOps + 1] = {
#define OP(name, operands, pops, pushes, frame) &&L_##name,
#include "vm/opcodes.def"
#undef OP
      &&L_invalid};
#endif
  for (;;) {
    Op op = static_cast<Op>(*ip);
    uint32_t pc = uint32_t(ip - code);
    switch (op) {
      VM_CASE(NOP) {
        ip += SIZE(NOP);
        VM_NEXT;
      }
      VM_CASE(CONST) {
        push(K[ARG(CONST, 0)]);
        ip += SIZE(CONST);
        VM_NEXT;
      }
      VM_CASE(POP) {
        pop();
        ip += SIZE(POP);
        VM_NEXT;
      }
      VM_CASE(LOAD) {
        push(*local_refs[ARG(LOAD, 0)]);
        ip += SIZE(LOAD);
        VM_NEXT;
      }
      VM_CASE(JUMP) {
        ip += SIZE(JUMP) + ARG(JUMP, 0);
        VM_NEXT;
      }
      VM_CASE(RETURN) { return pop(); }
      VM_CASE(DMARK) {
        mark_stack.push_back(ndiags());
        ip += SIZE(DMARK);
        VM_NEXT;
      }
      VM_CASE(ERROR) {
        const StaticDiag& d = prog->static_diags[ARG(ERROR, 0)];
        report_literals(pc, d.summary, d.detail, 0, 1, -1);
        push(Value::dynamic());
        ip += SIZE(ERROR);
        VM_NEXT;
      }
      VM_CASE(TRAVERSE) {
        const TraversalDesc& d = hot->traversals()[ARG(TRAVERSE, 0)];
        ip += SIZE(TRAVERSE);
        const Value* root;
        if (d.root == TraversalDesc::Local) {
          root = local_refs[d.root_index];
        } else {
          root = root_variable(d.root_index);
          if (root == nullptr) {
            unknown_variable(pc, d);
            push(Value::dynamic());
            VM_NEXT;
          }
        }
        if (d.num_steps == 0)
          push(*root);
        else
          push(traverse_steps(d, root, pc, 1));
        VM_NEXT;
      }
      VM_CASE(TRAVERSE_REL) {
        const TraversalDesc& d = hot->traversals()[ARG(TRAVERSE_REL, 0)];
        ip += SIZE(TRAVERSE_REL);
        {
          Value src = pop();
          push(traverse_steps(d, &src, pc, 1, int(1 + d.num_steps)));
        }
        VM_NEXT;
      }
      VM_CASE(INDEX) {
        op_index(pc);
        ip += SIZE(INDEX);
        VM_NEXT;
      }
      VM_CASE(TPL_BEGIN) {
        TemplateFrame& f = tpls.push();
        f.mark = ndiags();
        f.buf_start = text.size();
        f.known = true;
        f.marks = Marks();
        ip += SIZE(TPL_BEGIN);
        VM_NEXT;
      }
      VM_CASE(TPL_LIT) {
        TemplateFrame& f = tpls.top();
        if (f.known && !errors_since(f.mark)) {
          text += K[ARG(TPL_LIT, 0)].as_string();
          budget->check_string(text.size() - f.buf_start);
        }
        ip += SIZE(TPL_LIT);
        VM_NEXT;
      }
      VM_CASE(TPL_PART) {
        op_tpl_part(pc);
        ip += SIZE(TPL_PART);
        VM_NEXT;
      }
      VM_CASE(TPL_END) {
        op_tpl_end();
        ip += SIZE(TPL_END);
        VM_NEXT;
      }
      VM_CASE(TPL_JOIN) {
        op_tpl_join(pc);
        ip += SIZE(TPL_JOIN);
        VM_NEXT;
      }
      VM_CASE(ADD)
      VM_CASE(SUB)
      VM_CASE(MUL)
      VM_CASE(DIV)
      VM_CASE(MOD)
      VM_CASE(EQ)
      VM_CASE(NE)
      VM_CASE(LT)
      VM_CASE(LE)
      VM_CASE(GT)
      VM_CASE(GE)
      VM_CASE(AND)
      VM_CASE(OR) {
        // When there are no diagnostics to track (no marks, or none
        // reported so far, so none since either), plain operands of the
        // operator's type are combined in place: two small integers or two
        // bools inline (the logic operators pop two marks), others through
        // fast_binary, without the general path's conversions and marks.
        uint8_t flags = ARG(ADD, 0);
        if (!(flags & kFlagMarks) || diags.empty()) {
          if (sp[-2].is_small_int() && sp[-1].is_small_int() && small_binary(op, sp[-2], sp[-1])) {
            if (flags & kFlagMarks) pop_mark();
            --sp;
            ip += SIZE(ADD);
            VM_NEXT;
          }
          if (bool_binary(op, sp[-2], sp[-1])) {
            pop_operand_marks(op, flags);
            --sp;
            ip += SIZE(ADD);
            VM_NEXT;
          }
          if (binary_in_place(op, flags)) {
            ip += SIZE(ADD);
            VM_NEXT;
          }
        }
        op_binary(op, flags, pc);
        ip += SIZE(ADD);
        VM_NEXT;
      }
      VM_CASE(NEG)
      VM_CASE(NOT) {
        op_unary(op, ARG(NEG, 0), pc);
        ip += SIZE(NEG);
        VM_NEXT;
      }
      VM_CASE(COND_TEST) {
        uint32_t type_index = ARG(COND_TEST, 0);
        int32_t to_false = ARG(COND_TEST, 1), to_end = ARG(COND_TEST, 2);
        ip += SIZE(COND_TEST);
        op_cond_test(type_index, pc, ip, to_false, to_end);
        VM_NEXT;
      }
      VM_CASE(COND_ELSE) {
        CondFrame& f = conds.top();
        int32_t to_end = ARG(COND_ELSE, 0);
        ip += SIZE(COND_ELSE);
        if (f.mode == CondFrame::Single) {
          if (!f.marks.empty()) sp[-1] = sp[-1].mark(f.marks);
          conds.pop();
          ip += to_end;
        } else {
          f.true_val = pop();
          f.m2 = ndiags();
        }
        VM_NEXT;
      }
      VM_CASE(COND_END) {
        CondFrame& f = conds.top();
        ip += SIZE(COND_END);
        if (f.mode == CondFrame::Single) {
          if (!f.marks.empty()) sp[-1] = sp[-1].mark(f.marks);
          conds.pop();
          VM_NEXT;
        }
        {
          Value fv = pop();
          Value r;
          if (f.mode == CondFrame::Both) {
            truncate(f.m1);
            r = cond_unknown(f, fv, f.type);
          } else {
            r = cond_general(f, std::move(fv), pc);
          }
          f.cond = Value();
          f.true_val = Value();
          conds.pop();
          push(std::move(r));
        }
        VM_NEXT;
      }
      VM_CASE(TUPLE) {
        uint32_t n = ARG(TUPLE, 0);
        std::span<Value> elems(sp - n, n);
        {
          Value t = Value::tuple_from(tuple_type(elems, ARG(TUPLE, 1)), elems);
          for (Value& e : elems) e = Value();
          sp -= n;
          push(std::move(t));
        }
        ip += SIZE(TUPLE);
        VM_NEXT;
      }
      VM_CASE(OBJ_STATIC) {
        uint32_t n = ARG(OBJ_STATIC, 0);
        {
          Value o = static_object(hot->objects()[ARG(OBJ_STATIC, 1)], std::span<Value>(sp - n, n));
          sp -= n;
          push(std::move(o));
        }
        ip += SIZE(OBJ_STATIC);
        VM_NEXT;
      }
      VM_CASE(OBJ_BEGIN) {
        ObjectFrame& f = objs.push();
        f.start = obj_entries.size();
        f.known = true;
        f.marks = Marks();
        ip += SIZE(OBJ_BEGIN);
        VM_NEXT;
      }
      VM_CASE(OBJ_ITEM) {
        op_obj_item(ARG(OBJ_ITEM, 0), pc);
        ip += SIZE(OBJ_ITEM);
        VM_NEXT;
      }
      VM_CASE(OBJ_END) {
        op_obj_end();
        ip += SIZE(OBJ_END);
        VM_NEXT;
      }
      VM_CASE(FOR_BEGIN) {
        uint32_t desc = ARG(FOR_BEGIN, 0);
        int32_t to_end = ARG(FOR_BEGIN, 1);
        ip += SIZE(FOR_BEGIN);
        if (!op_for_begin(desc, pc)) ip += to_end;
        VM_NEXT;
      }
      VM_CASE(FOR_NEXT) {
        int32_t to_done = ARG(FOR_NEXT, 0);
        ip += SIZE(FOR_NEXT);
        at_pc = pc;
        budget->step();
        if (op_for_next()) ip += to_done;
        VM_NEXT;
      }
      VM_CASE(FOR_COND) {
        int32_t to_next = ARG(FOR_COND, 0);
        ip += SIZE(FOR_COND);
        if (op_for_cond(pc)) ip += to_next;
        VM_NEXT;
      }
      VM_CASE(FOR_KEY) {
        int32_t to_next = ARG(FOR_KEY, 0);
        ip += SIZE(FOR_KEY);
        if (sp[-1].rep() != Value::Rep::String && op_for_key(pc)) ip += to_next;
        VM_NEXT;
      }
      VM_CASE(FOR_ITEM) {
        fors.top().items.push_back(pop());
        ip += SIZE(FOR_ITEM);
        VM_NEXT;
      }
      VM_CASE(FOR_ITEM_KV) {
        op_for_item_kv(pc);
        ip += SIZE(FOR_ITEM_KV);
        VM_NEXT;
      }
      VM_CASE(FOR_END) {
        op_for_end();
        ip += SIZE(FOR_END);
        VM_NEXT;
      }
      VM_CASE(SPLAT_BEGIN) {
        uint32_t desc = ARG(SPLAT_BEGIN, 0);
        int32_t to_end = ARG(SPLAT_BEGIN, 1);
        ip += SIZE(SPLAT_BEGIN);
        if (!op_splat_begin(desc, pc)) ip += to_end;
        VM_NEXT;
      }
      VM_CASE(SPLAT_NEXT) {
        int32_t to_done = ARG(SPLAT_NEXT, 0);
        ip += SIZE(SPLAT_NEXT);
        at_pc = pc;
        budget->step();
        SplatFrame& f = splats.top();
        if (!f.types_mode && f.index < f.count) {  // the common case, in place
          uint16_t slot = hot->splats()[f.desc].item_slot;
          if (splat_in_place(f, slot, ip)) {
            ip += to_done;
            VM_NEXT;
          }
          bind_local(slot, f.src.element(f.index));
          ++f.index;
          f.item_mark = ndiags();
        } else if (op_splat_next()) {
          ip += to_done;
        }
        VM_NEXT;
      }
      VM_CASE(SPLAT_ITEM) {
        if (SplatFrame& f = splats.top(); !f.types_mode && diags.empty())
          f.vals.push_back(pop());  // no diagnostics: nothing to check
        else
          op_splat_item();
        ip += SIZE(SPLAT_ITEM);
        VM_NEXT;
      }
      VM_CASE(SPLAT_END) {
        int32_t to_next = ARG(SPLAT_END, 0);
        ip += SIZE(SPLAT_END);
        if (op_splat_end(pc)) ip += to_next;
        VM_NEXT;
      }
      VM_CASE(CALL_BEGIN) {
        uint32_t name = ARG(CALL_BEGIN, 0);
        uint16_t nargs = ARG(CALL_BEGIN, 1);
        uint8_t flags = ARG(CALL_BEGIN, 2);
        int32_t to_end = ARG(CALL_BEGIN, 3);
        ip += SIZE(CALL_BEGIN);
        if (!op_call_begin(name, nargs, flags, pc)) ip += to_end;
        VM_NEXT;
      }
      VM_CASE(CALL_EXPAND) {
        int32_t to_end = ARG(CALL_EXPAND, 0);
        ip += SIZE(CALL_EXPAND);
        if (!op_call_expand(pc)) ip += to_end;
        VM_NEXT;
      }
      VM_CASE(CALL_ARG) {
        uint16_t index = ARG(CALL_ARG, 0);
        int32_t to_end = ARG(CALL_ARG, 1);
        ip += SIZE(CALL_ARG);
        if (op_call_arg(index, pc)) ip += to_end;
        VM_NEXT;
      }
      VM_CASE(CALL_END) {
        at_pc = pc;
        budget->step();
        op_call_end(ARG(CALL_END, 0), pc);
        ip += SIZE(CALL_END);
        VM_NEXT;
      }
    }
#ifdef HCLVM_VM_GOTO
  L_invalid:
#endif
    // Not an opcode: the compiler never emits one.
    return Value::dynamic();
  }
}

#undef VM_CASE
#undef VM_NEXT
#undef ARG
#undef SIZE
#ifdef HCLVM_VM_GOTO
#pragma GCC diagnostic pop
#undef HCLVM_VM_GOTO
#endif

Vm::Vm() : state_(std::make_unique<State>()) {}

Vm::Vm(const Limits& limits) : Vm() { state_->limits = limits; }

void Vm::set_limits(const Limits& limits) { state_->limits = limits; }

const Limits& Vm::limits() const { return state_->limits; }

const EvalStats& Vm::stats() const { return state_->stats; }

Vm::~Vm() = default;

EvalResult Vm::run(const Program& program, const EvalContext* ctx) {
  static const EvalContext none = [] {
    EvalContext c;
    c.set_variables_allowed(false);
    return c;
  }();
  return run(program, ctx ? *ctx : none);
}

// A run that needs no interpreter returns at once, from a function small
// enough to need no frame; the rest goes to run_program.
EvalResult Vm::run(const Program& program, const EvalContext& ctx) {
  State& s = *state_;
  s.stats = EvalStats{};
  s.at_pc = State::kNoPc;
  uint32_t sc = program.hot().shortcut;
  // Not inside another run (whose budget a nested run counts against),
  // but possibly inside a host's evaluation of many runs (a configuration).
  util::Budget* b = util::current_budget();
  if (sc != vm::Hot::kNoShortcut && (b == nullptr || b->idle_host())) {
    if (const Value* v = s.shortcut(program, ctx, sc)) return EvalResult{*v, {}};
  }
  return run_program(program, ctx);
}

[[gnu::noinline]] EvalResult Vm::run_program(const Program& program, const EvalContext& ctx) {
  State& s = *state_;
  if (util::Budget* outer = util::current_budget()) {
    // Nested in a run on this thread (a function evaluating a template):
    // it counts against that run, and a limit ends that run. Directly in
    // a host's evaluation of many runs (a configuration), a limit on one
    // value (a string, a collection, the nesting) ends only this run, with
    // its diagnostic, as when the run has a budget of its own; a limit the
    // runs share (steps, memory, the deadline, cancelling) ends the
    // host's evaluation, which reports it.
    bool in_host = outer->idle_host();
    outer->enter();
    struct Leave {
      util::Budget* b;
      ~Leave() { b->leave(); }
    } leave{outer};
    if (!in_host) return s.run_on(program, ctx, *outer);
    try {
      return s.run_on(program, ctx, *outer);
    } catch (const util::LimitExceeded& e) {
      if (e.limit != Limit::StringSize && e.limit != Limit::CollectionSize &&
          e.limit != Limit::Depth)
        throw;
      return s.limit_result(program, e.limit);
    }
  }
  // The run's own budget, started again for each run; it is the thread's
  // current one until the run ends, however it ends.
  struct Scope {
    ~Scope() { util::set_current_budget(nullptr); }
  } scope;
  util::Budget& budget = s.own_budget;
  try {
    budget.start(s.limits);
    util::set_current_budget(&budget);
    EvalResult r = s.run_on(program, ctx, budget);
    s.stats.steps = budget.steps_used();
    s.stats.memory = budget.bytes_used();
    return r;
  } catch (const util::LimitExceeded& e) {
    s.stats.steps = budget.steps_used();
    s.stats.memory = budget.bytes_used();
    return s.limit_result(program, e.limit);
  }
}

}  // namespace hclvm

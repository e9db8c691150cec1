// The opcodes of opcodes.def as an enum, with the table the rest expands
// from: each opcode's name, operand layout and stack effect. Also the
// helpers that encode and decode operands, shared by the compiler's
// emitter, the interpreter and the disassembler.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

namespace hclvm::vm {

// Kinds of operand, each of fixed width (see opcodes.def).
enum class Opnd : uint8_t { None, U8, U16, U32, REL, END, K, KS, N, Y, T, E, F, S, O, C, L, FL };

// The constructs whose frames the VM keeps, and how an instruction uses
// the innermost frame (opcodes.def's frame column).
enum class FrameKind : uint8_t { None, Tpl, Obj, Cond, For, Splat, Call };
enum class FrameRole : uint8_t { None, Open, Use, Close };
struct FrameUse {
  FrameRole role = FrameRole::None;
  FrameKind kind = FrameKind::None;
};

enum class Op : uint8_t {
#define OP(name, operands, pops, pushes, frame) name,
#include "vm/opcodes.def"
#undef OP
};

// Everything opcodes.def says about one opcode.
struct OpInfo {
  const char* name;
  std::array<Opnd, 4> operands;
  int8_t pops;  // -1: given by operand a (see opcodes.def Notes)
  int8_t pushes;
  uint8_t size;  // bytes of the whole instruction
  FrameUse frame;
};

// Whether operand kind [k] is a jump offset.
constexpr bool is_jump(Opnd k) { return k == Opnd::REL || k == Opnd::END; }

namespace detail {

// The byte width of operand kind [k].
constexpr uint8_t width(Opnd k) {
  switch (k) {
    case Opnd::None: return 0;
    case Opnd::U8:
    case Opnd::FL: return 1;
    case Opnd::U16:
    case Opnd::L: return 2;
    default: return 4;
  }
}

// The instruction size of an opcode with operands [ops].
constexpr uint8_t size_of(std::array<Opnd, 4> ops) {
  return uint8_t(1 + width(ops[0]) + width(ops[1]) + width(ops[2]) + width(ops[3]));
}

// Operand and frame names as they are written in opcodes.def.
inline constexpr Opnd U8 = Opnd::U8, U16 = Opnd::U16, U32 = Opnd::U32, REL = Opnd::REL,
                      END = Opnd::END, K = Opnd::K, KS = Opnd::KS, N = Opnd::N, Y = Opnd::Y,
                      T = Opnd::T, E = Opnd::E, F = Opnd::F, S = Opnd::S, O = Opnd::O,
                      C = Opnd::C, L = Opnd::L, FL = Opnd::FL;
inline constexpr FrameKind Tpl = FrameKind::Tpl, Obj = FrameKind::Obj, Cond = FrameKind::Cond,
                           For = FrameKind::For, Splat = FrameKind::Splat, Call = FrameKind::Call;
inline constexpr FrameUse None{};
constexpr FrameUse Open(FrameKind k) { return {FrameRole::Open, k}; }
constexpr FrameUse Use(FrameKind k) { return {FrameRole::Use, k}; }
constexpr FrameUse Close(FrameKind k) { return {FrameRole::Close, k}; }
#define HCLVM_OPERANDS(...) \
  std::array<Opnd, 4> { __VA_ARGS__ }

inline constexpr OpInfo kOpInfo[] = {
#define OP(name, operands, pops, pushes, frame) \
  {#name, HCLVM_OPERANDS operands, pops, pushes, size_of(HCLVM_OPERANDS operands), frame},
#include "vm/opcodes.def"
#undef OP
};
#undef HCLVM_OPERANDS

}  // namespace detail

inline constexpr size_t kNumOps = sizeof(detail::kOpInfo) / sizeof(detail::kOpInfo[0]);

// The table entry of [op].
constexpr const OpInfo& info(Op op) { return detail::kOpInfo[static_cast<uint8_t>(op)]; }

// Byte offset of operand [i] within an instruction of [op].
constexpr uint32_t operand_offset(Op op, int i) {
  uint32_t off = 1;
  for (int j = 0; j < i; ++j) off += detail::width(info(op).operands[size_t(j)]);
  return off;
}

// Reads little-endian integers from code.
inline uint8_t read_u8(const uint8_t* p) { return p[0]; }
inline uint16_t read_u16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
inline uint32_t read_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline int32_t read_rel(const uint8_t* p) {
  uint32_t u = read_u32(p);
  int32_t r;
  std::memcpy(&r, &u, sizeof r);
  return r;
}

// Writes the little-endian [width]-byte integer [v] at [p].
inline void write_le(uint8_t* p, uint32_t v, uint8_t width) {
  for (uint8_t i = 0; i < width; ++i) p[i] = uint8_t(v >> (8 * i));
}

// Reads operand [i] of the instruction at [pc] (REL as its two's complement).
inline uint32_t operand(const uint8_t* pc, int i) {
  Op op = static_cast<Op>(pc[0]);
  const uint8_t* p = pc + operand_offset(op, i);
  switch (detail::width(info(op).operands[size_t(i)])) {
    case 0: return 0;
    case 1: return read_u8(p);
    case 2: return read_u16(p);
    default: return read_u32(p);
  }
}

// The number of operands of [op].
constexpr int operand_count(Op op) {
  int n = 0;
  while (n < 4 && info(op).operands[size_t(n)] != Opnd::None) ++n;
  return n;
}

// Reads operand [i] of an instruction of opcode [op] at [ip]: its offset,
// width and signedness (REL and END as int32_t) come from opcodes.def as
// constants, so this is the single load a hand-written offset would be.
template <Op op, int i>
[[gnu::always_inline]] inline auto operand_at(const uint8_t* ip) {
  static_assert(i < operand_count(op), "opcodes.def declares fewer operands");
  constexpr Opnd kind = info(op).operands[size_t(i)];
  constexpr uint32_t off = operand_offset(op, i);
  if constexpr (is_jump(kind)) {
    return read_rel(ip + off);
  } else if constexpr (detail::width(kind) == 1) {
    return read_u8(ip + off);
  } else if constexpr (detail::width(kind) == 2) {
    return read_u16(ip + off);
  } else {
    return read_u32(ip + off);
  }
}

// Whether opcodes [a] and [b] have the same operands (handlers shared by
// several opcodes read them the same way).
constexpr bool same_operands(Op a, Op b) { return info(a).operands == info(b).operands; }

// Sentinel for "no index" in U32 operands and descriptor fields.
inline constexpr uint32_t kNone = 0xFFFFFFFFu;
// Sentinel for "no local slot" in U16 fields.
inline constexpr uint16_t kNoSlot = 0xFFFFu;

// Flag bits of the U8 operand of operators and OBJ_ITEM.
inline constexpr uint8_t kFlagMarks = 1;  // marks precede the operands
// Flag bits of CALL_BEGIN.
inline constexpr uint8_t kCallExpand = 1;      // the last argument is expanded (...)
inline constexpr uint8_t kCallChildScope = 2;  // inside a for: no did-you-mean for functions
// Bits 2-4: how the first argument is written (hclvm::ArgSyntax), for a
// function that takes it as an expression.
inline constexpr uint8_t kCallArgSyntaxShift = 2;
inline constexpr uint8_t kCallArgSyntaxMask = 7 << kCallArgSyntaxShift;
inline constexpr uint8_t kCallArgSyntaxMax = 4;  // ArgSyntax::Reference

}  // namespace hclvm::vm

// Checking a program read from disk before it runs (verify_program of
// program_codec.h). The VM trusts its programs: operands index tables
// without bounds checks, the stack is sized by max_stack, construct frames
// are pushed and popped by pairs of instructions, and a local is read
// through a pointer its for or splat frame set. A compiled program keeps
// all of that by construction; a file may have been damaged or written by
// someone else, so each promise is checked here:
//
// - every table index in the descriptors is within its table, every
//   range within its table, every span within the source;
// - the code decodes into whole instructions of known opcodes, and every
//   operand is within the table its kind names (opcodes.def), a template
//   literal is a string constant, counts agree with their descriptors;
// - one pass in code order follows the stack depth and the nesting of
//   constructs: each instruction is reached with one depth and inside one
//   construct whichever way control gets there (fall-through or jumps);
//   jumps land on instruction boundaries, within the construct (REL) or
//   just past its closing instruction (END), with the depth opcodes.def
//   gives them; the depth never drops below zero nor exceeds max_stack;
//   frames are used only inside a construct of their kind; a construct
//   closes with exactly its result above its start; each inline cache slot
//   has one user (a traversal step, an object, a tuple); locals are read (and
//   listed in diagnostics) only inside a for or splat that binds them; no
//   code is unreachable and none runs off the end; jumps go back only to
//   a for's or splat's next-element instruction, so every run ends.
//
// The compiler's programs pass by construction (the tests run every
// compiled program of the corpus through this).
#include <algorithm>
#include <vector>

#include "cache/program_codec.h"

namespace hclvm::cache {

namespace {

using vm::FrameKind;
using vm::FrameRole;
using vm::Op;
using vm::Opnd;

// A range [first, first + count) of a table of [size] entries.
bool in_range(uint64_t first, uint64_t count, size_t size) { return first + count <= size; }

class Verifier;

// The verifier's tables, kept per thread: a file holds many programs, and
// verifying each would otherwise allocate them anew.
struct Scratch {
  std::vector<uint8_t> boundary;
  std::vector<int64_t> depth_at;
  std::vector<uint32_t> frame_at;
  std::vector<uint8_t> cache_used;
};

class Verifier {
 public:
  Verifier(const Program& p, size_t source_size, Scratch& scratch)
      : p_(p), source_size_(source_size), boundary_(scratch.boundary),
        depth_at_(scratch.depth_at), frame_at_(scratch.frame_at),
        cache_used_(scratch.cache_used) {
    cache_used_.assign(p_.num_caches, 0);
  }

  std::string run() {
    if (!tables()) return error_;
    if (!code()) return error_;
    return "";
  }

 private:
  struct Construct {
    FrameKind kind;
    uint32_t id;
    int64_t start;      // stack depth the construct started at
    uint32_t end = 0;   // where its END jumps land (0: none seen yet)
    uint32_t nargs = 0;  // a call's arguments
    uint32_t slots[2] = {vm::kNone, vm::kNone};  // locals a for or splat binds
  };

  bool fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return false;
  }
  bool fail_at(uint32_t pc, const std::string& why) {
    return fail(why + " (instruction at " + std::to_string(pc) + ")");
  }

  // --- tables ----------------------------------------------------------------------

  // Claims inline cache [slot] for one user: a slot shared by two would
  // hand one of them what the other stored (another type, an attribute
  // index for a type).
  bool own_cache(uint32_t slot) {
    if (cache_used_[slot]) return fail("inline cache slot " + std::to_string(slot) + " shared");
    cache_used_[slot] = 1;
    return true;
  }

  bool tables() {
    const Program& p = p_;
    if (p.code.empty()) return fail("no code");
    if (p.code.size() > (1u << 30)) return fail("code too large");
    // Each value pushed takes at least one instruction byte.
    if (p.max_stack > p.code.size()) return fail("max_stack larger than the code");
    if (p.num_locals > vm::kNoSlot) return fail("too many locals");
    if (p.num_caches > p.code.size() + p.steps.size() + p.objects.size())
      return fail("more inline caches than users");
    for (const vm::TraversalDesc& d : p.traversals) {
      if (d.root == vm::TraversalDesc::Variable && d.root_index >= p.names.size())
        return fail("traversal root name out of range");
      if (d.root == vm::TraversalDesc::Local && d.root_index >= p.num_locals)
        return fail("traversal root local out of range");
      if (!in_range(d.first_step, d.num_steps, p.steps.size()))
        return fail("traversal steps out of range");
      if (!in_range(d.first_scope_name, d.num_scope_names, p.scope_names.size()))
        return fail("traversal scope names out of range");
    }
    for (const vm::StepDesc& s : p.steps) {
      if (s.kind == vm::StepDesc::Attr ? s.operand >= p.names.size()
                                       : s.operand >= p.constants.size())
        return fail("traversal step operand out of range");
      // Only attribute steps and string keys use their cache slot.
      bool cached = s.kind == vm::StepDesc::Attr ||
                    p.constants[s.operand].rep() == Value::Rep::String;
      if (cached && s.cache >= p.num_caches) return fail("traversal step cache out of range");
      if (cached && !own_cache(s.cache)) return false;
    }
    for (uint32_t n : p.scope_names)
      if (n != vm::kNone && n >= p.names.size()) return fail("scope name out of range");
    for (const vm::ForDesc& f : p.fors) {
      if ((f.key_slot != vm::kNoSlot && f.key_slot >= p.num_locals) || f.val_slot >= p.num_locals)
        return fail("for variable slot out of range");
    }
    for (const vm::SplatDesc& s : p.splats)
      if (s.item_slot >= p.num_locals) return fail("splat slot out of range");
    for (uint32_t n : p.object_names)
      if (n >= p.names.size()) return fail("object attribute name out of range");
    for (const vm::ObjectDesc& o : p.objects) {
      if (!in_range(o.first_name, o.num_attrs, p.object_names.size()) ||
          !in_range(o.first_slot, o.num_items, p.object_slots.size()))
        return fail("object descriptor out of range");
      if (o.cache >= p.num_caches) return fail("object cache out of range");
      if (!own_cache(o.cache)) return false;
      // The names make an object type: sorted and distinct.
      for (uint32_t i = 1; i < o.num_attrs; ++i) {
        if (!(p.names[p.object_names[o.first_name + i - 1]] <
              p.names[p.object_names[o.first_name + i]]))
          return fail("object attribute names out of order");
      }
      for (uint32_t i = 0; i < o.num_items; ++i)
        if (p.object_slots[o.first_slot + i] >= o.num_attrs)
          return fail("object item slot out of range");
    }
    uint32_t prev_pc = 0;
    for (size_t i = 0; i < p.sites.size(); ++i) {
      const vm::SiteEntry& s = p.sites[i];
      if (i > 0 && s.pc <= prev_pc) return fail("site table out of order");
      prev_pc = s.pc;
      if (s.pc >= p.code.size()) return fail("site beyond the code");
      if (!in_range(s.first, s.count, p.spans.size()) ||
          !in_range(s.first_local, s.num_locals, p.site_locals.size()))
        return fail("site entry out of range");
    }
    for (const vm::SiteLocal& l : p.site_locals)
      if (l.name >= p.names.size() || l.slot >= p.num_locals)
        return fail("site local out of range");
    for (const ast::Span& s : p.spans)
      if (s.begin > s.end || s.end > source_size_) return fail("span outside the source");
    return true;
  }

  // --- code ------------------------------------------------------------------------

  // Whether local [slot] is bound by a for or splat around the current instruction.
  bool bound(uint32_t slot) const {
    for (const Construct& c : stack_)
      if (c.slots[0] == slot || c.slots[1] == slot) return true;
    return false;
  }

  // Records that control reaches [target] with [depth] inside construct [frame].
  bool reach(uint32_t pc, uint32_t target, int64_t depth, uint32_t frame) {
    if (target >= p_.code.size() || !boundary_[target])
      return fail_at(pc, "jump target " + std::to_string(target) + " is not an instruction");
    // The only loops are a for's and a splat's, which go back to the
    // instruction that takes the next element and stops when there is
    // none: so every program ends.
    if (target <= pc) {
      Op to = Op(p_.code[target]);
      if (to != Op::FOR_NEXT && to != Op::SPLAT_NEXT)
        return fail_at(pc, "jump back to something other than a loop's next element");
    }
    if (depth_at_[target] < 0) {
      if (target <= pc) return fail_at(pc, "jump back to unreached code");
      depth_at_[target] = depth;
      frame_at_[target] = frame;
      return true;
    }
    if (depth_at_[target] != depth || frame_at_[target] != frame)
      return fail_at(pc, "control reaches " + std::to_string(target) +
                             " with another stack depth or construct");
    return true;
  }

  // Checks operand [i] of kind [k] with value [a] of the instruction [op] at [pc].
  bool operand(Op op, uint32_t pc, int i, Opnd k, uint32_t a, int64_t depth) {
    const Program& p = p_;
    auto bad = [&](const char* what) {
      return fail_at(pc, std::string(what) + " " + std::to_string(a) + " out of range");
    };
    switch (k) {
      case Opnd::K: return a < p.constants.size() || bad("constant");
      case Opnd::KS:
        if (a >= p.constants.size()) return bad("constant");
        if (p.constants[a].rep() != Value::Rep::String || !p.constants[a].is_plain())
          return fail_at(pc, "template literal is not a string");
        return true;
      case Opnd::N: return a < p.names.size() || bad("name");
      case Opnd::Y: return a == vm::kNone || a < p.types.size() || bad("type");
      case Opnd::T: {
        if (a >= p.traversals.size()) return bad("traversal");
        const vm::TraversalDesc& d = p.traversals[a];
        if (op == Op::TRAVERSE && d.root == vm::TraversalDesc::None)
          return fail_at(pc, "traversal without a root");
        if (d.root == vm::TraversalDesc::Local && !bound(d.root_index))
          return fail_at(pc, "local read outside the construct that binds it");
        return true;
      }
      case Opnd::E: return a < p.static_diags.size() || bad("diagnostic");
      case Opnd::F: return a < p.fors.size() || bad("for");
      case Opnd::S: return a < p.splats.size() || bad("splat");
      case Opnd::O:
        if (a >= p.objects.size()) return bad("object");
        // OBJ_STATIC's count is its object's.
        if (vm::operand(p.code.data() + pc, 0) != p.objects[a].num_items)
          return fail_at(pc, "object item count differs from its descriptor");
        return true;
      case Opnd::C: return (a < p.num_caches || bad("cache slot")) && own_cache(a);
      case Opnd::L:
        if (a >= p.num_locals) return bad("local");
        if (!bound(a)) return fail_at(pc, "local read outside the construct that binds it");
        return true;
      case Opnd::FL: return a <= vm::kFlagMarks || bad("flags");
      case Opnd::U8:  // CALL_BEGIN's flags
        return (a <= (vm::kCallExpand | vm::kCallChildScope | vm::kCallArgSyntaxMask) &&
                (a & vm::kCallArgSyntaxMask) >> vm::kCallArgSyntaxShift <= vm::kCallArgSyntaxMax) ||
               bad("call flags");
      case Opnd::U16:
        if (op == Op::CALL_ARG && (stack_.empty() || a >= stack_.back().nargs))
          return bad("argument index");
        if (op == Op::CALL_END && (stack_.empty() || a > stack_.back().nargs))
          return bad("argument count");
        return true;
      case Opnd::U32:  // TUPLE and OBJ_STATIC counts
        return int64_t(a) <= depth || fail_at(pc, "stack underflow");
      default: (void)i; return true;
    }
  }

  bool code() {
    const Program& p = p_;
    size_t n = p.code.size();
    boundary_.assign(n + 1, 0);
    for (size_t pc = 0; pc < n;) {
      uint8_t op = p.code[pc];
      if (op >= vm::kNumOps) return fail_at(uint32_t(pc), "unknown opcode " + std::to_string(op));
      boundary_[pc] = 1;
      size_t size = vm::info(Op(op)).size;
      if (pc + size > n) return fail_at(uint32_t(pc), "truncated instruction");
      pc += size;
    }
    for (const vm::SiteEntry& s : p.sites)
      if (!boundary_[s.pc]) return fail("site at " + std::to_string(s.pc) + " is not an instruction");

    depth_at_.assign(n, -1);
    frame_at_.assign(n, 0);
    uint32_t next_id = 1;
    int64_t depth = 0;
    bool falls = true;  // whether control falls through into the next instruction
    size_t site = 0;
    for (uint32_t pc = 0; pc < n;) {
      Op op = Op(p.code[pc]);
      const vm::OpInfo& in = vm::info(op);
      uint32_t frame = stack_.empty() ? 0 : stack_.back().id;
      if (falls) {
        if (depth_at_[pc] >= 0 && (depth_at_[pc] != depth || frame_at_[pc] != frame))
          return fail_at(pc, "control reaches it with another stack depth or construct");
      } else {
        if (depth_at_[pc] < 0) return fail_at(pc, "unreachable instruction");
        if (frame_at_[pc] != frame) return fail_at(pc, "reached inside another construct");
        depth = depth_at_[pc];
      }
      depth_at_[pc] = depth;
      frame_at_[pc] = frame;

      if (in.frame.role == FrameRole::Use || in.frame.role == FrameRole::Close) {
        if (stack_.empty() || stack_.back().kind != in.frame.kind)
          return fail_at(pc, std::string(in.name) + " outside its construct");
      }
      int64_t pops = in.pops >= 0 ? in.pops : int64_t(vm::operand(p.code.data() + pc, 0));
      if (pops > depth) return fail_at(pc, "stack underflow");
      int64_t after_pops = depth - pops;

      if (in.frame.role == FrameRole::Open) {
        Construct c{in.frame.kind, next_id++, after_pops};
        uint32_t a = vm::operand(p.code.data() + pc, 0);
        if (c.kind == FrameKind::For && a < p.fors.size()) {
          const vm::ForDesc& f = p.fors[a];
          c.slots[0] = f.val_slot;
          c.slots[1] = f.key_slot == vm::kNoSlot ? vm::kNone : f.key_slot;
        } else if (c.kind == FrameKind::Splat && a < p.splats.size()) {
          c.slots[0] = p.splats[a].item_slot;
        } else if (c.kind == FrameKind::Call) {
          c.nargs = vm::operand(p.code.data() + pc, 1);
        }
        stack_.push_back(c);
      }

      uint32_t next = pc + in.size;
      for (int i = 0; i < 4 && in.operands[size_t(i)] != Opnd::None; ++i) {
        Opnd k = in.operands[size_t(i)];
        uint32_t a = vm::operand(p.code.data() + pc, i);
        if (!vm::is_jump(k)) {
          if (!operand(op, pc, i, k, a, depth)) return false;
          continue;
        }
        int32_t rel;
        std::memcpy(&rel, &a, sizeof rel);
        int64_t target = int64_t(next) + rel;
        if (target < 0 || target >= int64_t(n))
          return fail_at(pc, "jump target outside the code");
        if (k == Opnd::REL) {
          if (!reach(pc, uint32_t(target), after_pops, stack_.empty() ? 0 : stack_.back().id))
            return false;
          continue;
        }
        // END: just past the innermost construct, with its result.
        if (stack_.empty()) return fail_at(pc, "jump to the end of no construct");
        Construct& c = stack_.back();
        if (c.end != 0 && c.end != uint32_t(target))
          return fail_at(pc, "jumps to two ends of one construct");
        c.end = uint32_t(target);
        uint32_t outer = stack_.size() > 1 ? stack_[stack_.size() - 2].id : 0;
        if (!reach(pc, uint32_t(target), c.start + 1, outer)) return false;
      }

      // Locals a diagnostic here may list must be bound here.
      while (site < p.sites.size() && p.sites[site].pc < pc) ++site;
      if (site < p.sites.size() && p.sites[site].pc == pc) {
        const vm::SiteEntry& s = p.sites[site];
        for (uint32_t i = 0; i < s.num_locals; ++i)
          if (!bound(p.site_locals[s.first_local + i].slot))
            return fail_at(pc, "diagnostic lists a local that is not bound there");
      }

      depth = after_pops + in.pushes;
      if (depth > int64_t(p.max_stack)) return fail_at(pc, "stack deeper than max_stack");
      if (in.frame.role == FrameRole::Close) {
        const Construct& c = stack_.back();
        if (depth != c.start + 1) return fail_at(pc, "construct does not leave one result");
        if (c.end != 0 && c.end != next) return fail_at(pc, "end jump does not land after it");
        stack_.pop_back();
      }
      if (op == Op::RETURN && !stack_.empty()) return fail_at(pc, "return inside a construct");
      falls = op != Op::JUMP && op != Op::RETURN;
      pc = next;
    }
    if (falls) return fail("code runs off its end");
    if (!stack_.empty()) return fail("construct not closed");
    return true;
  }

  const Program& p_;
  size_t source_size_;
  std::string error_;
  std::vector<uint8_t>& boundary_;
  std::vector<int64_t>& depth_at_;
  std::vector<uint32_t>& frame_at_;
  std::vector<Construct> stack_;
  std::vector<uint8_t>& cache_used_;
};

}  // namespace

std::string verify_program(const Program& p, size_t source_size) {
  thread_local Scratch scratch;
  return Verifier(p, source_size, scratch).run();
}

}  // namespace hclvm::cache

// The emitter: appends instructions to a Program with their operands
// encoded as opcodes.def lays them out, resolves forward jumps through
// labels, interns constants, names and types into the side tables, attaches
// source spans to instructions (the site table), and tracks the depth of
// the value stack from each opcode's stack effect to find max_stack.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/value.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vm/opcodes.h"
#include "vm/program.h"

namespace hclvm::compile {

// A jump target, bound to an address once the code there is emitted.
struct Label {
  uint32_t id = 0;
};

class Emitter {
 public:
  explicit Emitter(Program& p) : p_(p) {}

  Program& program() { return p_; }
  uint32_t pc() const { return uint32_t(p_.code.size()); }

  // Emits [op] with [operands] in order; REL operands are label ids
  // (Label::id). Returns the address of the instruction.
  uint32_t emit(vm::Op op, std::initializer_list<uint32_t> operands = {});

  Label label();
  // Binds [l] to the current address.
  void bind(Label l);

  // The stack depth the code emitted so far leaves; set explicitly where a
  // jump, not the fall-through, decides it (see opcodes.def Notes).
  int depth() const { return depth_; }
  void set_depth(int d);

  // Attaches [spans] to the instruction at [pc]; returns their position
  // in Program::spans, for share_site().
  uint32_t site(uint32_t pc, std::initializer_list<ast::Span> spans);
  uint32_t site(uint32_t pc, const std::vector<ast::Span>& spans);
  uint32_t site(uint32_t pc, std::span<const ast::Span> spans);
  // Attaches the [count] spans already stored at [first] to the instruction at [pc].
  void share_site(uint32_t pc, uint32_t first, uint32_t count);
  // Sets the for variables in scope for the sites attached from now on
  // (innermost first).
  void set_scope(const std::vector<vm::SiteLocal>& locals);

  // Indices into the program's tables, each value stored once.
  uint32_t constant(Value v);
  uint32_t name(std::string_view n);
  uint32_t type(const Type* t);
  uint16_t new_local();
  uint32_t new_cache();

  // Patches the jumps, sorts the site table and sets max_stack.
  void finish();

 private:
  struct Patch {
    uint32_t at;    // operand address
    uint32_t next;  // address after the instruction
    uint32_t label;
  };

  Program& p_;
  std::vector<int64_t> labels_;  // bound address, or -1
  std::vector<Patch> patches_;
  std::unordered_map<std::string, uint32_t> const_index_;
  std::unordered_map<std::string, uint32_t> name_index_;
  std::unordered_map<const Type*, uint32_t> type_index_;
  int depth_ = 0;
  int max_depth_ = 0;
  uint32_t scope_first_ = 0, scope_count_ = 0;  // set_scope()
};

}  // namespace hclvm::compile

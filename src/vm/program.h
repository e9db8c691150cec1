// A compiled expression (the Program of eval.h): bytecode plus the side
// tables its operands index. Everything is plain data: indices instead of
// pointers (except the interned types of the type table and inside
// constants), so a program can be serialized and verified. A program is
// immutable once linked and shared between threads (its inline caches are
// atomic words); its constants are counted like any value, since a result
// may hold one after the program is gone. link() lays out what a run reads
// in one block (Hot), and a ProgramArena lays out a file's programs side
// by side.
//
// Source positions live only in the site table: a list sorted by pc that
// gives each instruction able to report a diagnostic its source spans
// (subject, context, operands...; what each instruction expects is written
// beside its handler in vm.cpp). It is searched only when a diagnostic is
// reported, and spans become line/column ranges through the Source at that
// moment.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/eval.h>
#include <hclvm/syntax.h>
#include <hclvm/value.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "vm/opcodes.h"

namespace hclvm {

namespace vm {

// One step of a traversal after its root.
struct StepDesc {
  enum Kind : uint8_t { Attr, Index };
  Kind kind = Attr;
  uint32_t operand = 0;  // Attr: name index; Index: constant index of the key
  uint32_t cache = 0;    // Attr, Index with a string key: inline cache slot
};

// A traversal: where its root comes from and its steps.
struct TraversalDesc {
  enum Root : uint8_t { Variable, Local, None };
  Root root = None;
  uint32_t root_index = 0;  // Variable: name index; Local: slot
  uint32_t first_step = 0;  // into Program::steps
  uint32_t num_steps = 0;
  // Names of the for variables in scope, innermost first (did-you-mean of
  // "Unknown variable"), as a range of Program::scope_names.
  uint32_t first_scope_name = 0;
  uint32_t num_scope_names = 0;
};

// A for expression.
struct ForDesc {
  uint16_t key_slot = kNoSlot;  // local of the key variable, or none
  uint16_t val_slot = 0;        // local of the value variable
  bool object = false;          // {for ...} rather than [for ...]
  bool group = false;           // `...` after the value
  bool has_cond = false;        // an `if` clause
};

// A splat expression.
struct SplatDesc {
  uint16_t item_slot = 0;  // local of the anonymous symbol
  bool marks = false;      // a DMARK precedes the source
};

// An object constructor whose keys are all known when compiling
// (OBJ_STATIC): its attribute names in sorted order and, for each item in
// source order, the attribute it sets (a later item with the same key
// wins, as in the reference).
struct ObjectDesc {
  uint32_t first_name = 0;  // into Program::object_names (name indices)
  uint32_t num_attrs = 0;
  uint32_t first_slot = 0;  // into Program::object_slots
  uint32_t num_items = 0;
  uint32_t cache = 0;       // inline cache slot: the last object type built
};

// A diagnostic whose words are known at compile time ("Ambiguous attribute key").
struct StaticDiag {
  std::string summary;
  std::string detail;
};

// The spans of the instruction at [pc]: Program::spans[first, first + count).
// The for variables in scope there (for the values a diagnostic lists):
// Program::site_locals[first_local, first_local + num_locals), innermost
// first.
struct SiteEntry {
  uint32_t pc = 0;
  uint32_t first = 0;
  uint32_t count = 0;
  uint32_t first_local = 0;
  uint32_t num_locals = 0;
};

// A for variable in scope at a site: its name (index) and local slot.
struct SiteLocal {
  uint32_t name = 0;
  uint32_t slot = 0;
};

// What a run reads, laid out by Program::link in one block: this header,
// then the code, then the tables. A file's attributes are many programs,
// each run once per evaluation of the file, so a run's cost is mostly
// cache misses on the program: one block is one region to miss on, where
// the tables' own vectors are a dozen allocations spread over the heap.
struct alignas(64) Hot {
  // What a run may return without starting the interpreter (shortcut):
  // the program is `CONST k; RETURN` (k), or `TRAVERSE t; RETURN` from a
  // context variable (t | kLoneTraversal), else kNoShortcut.
  static constexpr uint32_t kNoShortcut = 0xFFFFFFFF;
  static constexpr uint32_t kLoneTraversal = 0x80000000;

  // The first cache line: counts, and where each table lies, as byte
  // offsets from this header. The code follows the header directly.
  uint32_t shortcut;
  uint32_t max_stack;
  uint32_t num_locals;
  uint32_t max_symbol;
  uint32_t num_constants;
  uint32_t constants_at, symbols_at, caches_at, traversals_at, steps_at, fors_at, splats_at,
      objects_at, object_names_at, object_slots_at, types_at;

  const uint8_t* code() const { return reinterpret_cast<const uint8_t*>(this + 1); }
  const Value* constants() const { return table<Value>(constants_at); }
  // The symbol of each name (vm/symbols.h).
  const uint32_t* symbols() const { return table<uint32_t>(symbols_at); }
  // Inline caches. An attribute step's slot remembers the last object type
  // it met and the attribute's index there, packed in one word (type
  // pointer | index << 48) so that threads sharing the program read and
  // write it with relaxed atomics: any word read is a valid pair.
  std::atomic<uint64_t>* caches() const {
    return const_cast<std::atomic<uint64_t>*>(table<std::atomic<uint64_t>>(caches_at));
  }
  const TraversalDesc* traversals() const { return table<TraversalDesc>(traversals_at); }
  const StepDesc* steps() const { return table<StepDesc>(steps_at); }
  const ForDesc* fors() const { return table<ForDesc>(fors_at); }
  const SplatDesc* splats() const { return table<SplatDesc>(splats_at); }
  const ObjectDesc* objects() const { return table<ObjectDesc>(objects_at); }
  const uint32_t* object_names() const { return table<uint32_t>(object_names_at); }
  const uint32_t* object_slots() const { return table<uint32_t>(object_slots_at); }
  const Type* const* types() const { return table<const Type*>(types_at); }

 private:
  template <class T>
  const T* table(uint32_t at) const {
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(this) + at);
  }
};

static_assert(sizeof(Hot) == 64, "a program's header is one cache line");

}  // namespace vm

namespace vm {
struct ArenaChunk;
}

class Program {
 public:
  // A new, empty program. Inside a ProgramArena on this thread it is laid
  // out in the arena, after the programs made before it.
  static std::shared_ptr<Program> make();

  Program();
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // The code and the tables below are what the compiler fills in; link()
  // copies the part a run reads into one block (hot()).
  std::vector<uint8_t> code;
  std::vector<Value> constants;  // reference-counted (see program.cpp)
  uint32_t max_stack = 0;   // value stack depth the code needs
  uint32_t num_locals = 0;  // local slots (for variables, splat items)
  uint32_t num_caches = 0;  // inline cache slots (attribute steps, tuple and object types)
  std::vector<vm::TraversalDesc> traversals;
  std::vector<vm::StepDesc> steps;

  std::vector<std::string> names;  // variables, attributes, functions
  std::vector<const Type*> types;  // interned types
  std::vector<uint32_t> scope_names;  // name indices, kNone between levels
  std::vector<vm::ForDesc> fors;
  std::vector<vm::SplatDesc> splats;
  std::vector<vm::ObjectDesc> objects;
  std::vector<uint32_t> object_names;
  std::vector<uint32_t> object_slots;
  std::vector<vm::StaticDiag> static_diags;
  std::vector<vm::SiteEntry> sites;  // sorted by pc
  std::vector<vm::SiteLocal> site_locals;
  std::vector<ast::Span> spans;
  std::shared_ptr<const Source> source;

  // Prepares a program whose code and tables are complete for running:
  // lays out its hot block. Call again after changing them.
  void link();

  // What a run reads (valid after link()).
  const vm::Hot& hot() const { return *hot_; }

  // Identifies this program among all programs of the process.
  uint64_t id() const { return id_; }

  // The spans of the instruction at [pc] (empty when it has none).
  std::span<const ast::Span> site(uint32_t pc) const;
  // The for variables in scope at the instruction at [pc], innermost first.
  std::span<const vm::SiteLocal> site_scope(uint32_t pc) const;

 private:
  void free_hot();

  uint64_t id_;
  vm::Hot* hot_ = nullptr;
  std::shared_ptr<vm::ArenaChunk> hot_chunk_;  // holds hot_ when it lies in an arena
};

// While one is alive, programs made on this thread (Program::make) are laid
// out one after the other in shared chunks of memory rather than wherever
// the heap has room, and so are their hot blocks (in chunks of their own:
// measured faster than interleaving them with the program objects). A file's attributes are
// many small programs run one after the other: in one run of memory, a
// file evaluation walks the programs as a stream the processor prefetches,
// where scattered programs cost a cache miss or two each. A chunk is freed
// when the last program in it is; a program kept after the others of its
// file are gone keeps its chunks (4 to 64 KiB each) alive. Scopes nest.
class ProgramArena {
 public:
  ProgramArena();
  ~ProgramArena();
  ProgramArena(const ProgramArena&) = delete;
  ProgramArena& operator=(const ProgramArena&) = delete;

 private:
  friend class Program;
  std::shared_ptr<vm::ArenaChunk> chunk_;      // where the next program goes
  std::shared_ptr<vm::ArenaChunk> hot_chunk_;  // where the next hot block goes
  ProgramArena* outer_;
};

}  // namespace hclvm

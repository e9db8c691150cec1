// Programs: construction, the site table lookup, and the disassembler
// (`hclvm disasm`, the bytecode goldens), which prints one instruction a
// line with its operands decoded through opcodes.def and what they refer
// to spelled out: constants as HCL literals, traversals as source-like
// paths, jump targets as addresses, and the source range covering the
// instruction's spans.
#include "vm/program.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define HCLVM_ASAN_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define HCLVM_ASAN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define HCLVM_ASAN_POISON(p, n) ((void)(p), (void)(n))
#define HCLVM_ASAN_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "value/render.h"
#include "vm/symbols.h"

namespace hclvm {

namespace {

std::atomic<uint64_t> next_program_id{1};

}  // namespace

Program::Program() : id_(next_program_id.fetch_add(1, std::memory_order_relaxed)) {}

// --- arenas -------------------------------------------------------------------------

namespace vm {

// A run of memory programs are carved from, front to back. Only the thread
// whose arena it is carves; any thread may drop the last reference.
struct ArenaChunk {
  // An arena's first chunk is small, each next one twice the last up to
  // the largest: a file of a few attributes takes a few KiB, a big one
  // mostly 64 KiB chunks.
  static constexpr size_t kFirstSize = 4 * 1024;
  static constexpr size_t kMaxSize = 64 * 1024;
  static constexpr std::align_val_t kAlign{64};

  const size_t size;
  char* const begin;
  size_t used = 0;
  // Who keeps the memory: 1 for all the shared_ptrs to the chunk together,
  // plus 1 for each constant laid out in it (a result may hold a constant
  // after its program is gone).
  std::atomic<uint32_t> holders{1};

  // Under AddressSanitizer the part not yet handed out is poisoned, so an
  // access past a program or hot block is reported as on the heap.
  explicit ArenaChunk(size_t n) : size(n), begin(static_cast<char*>(::operator new(n, kAlign))) {
    HCLVM_ASAN_POISON(begin, size);
  }
  ArenaChunk(const ArenaChunk&) = delete;
  ArenaChunk& operator=(const ArenaChunk&) = delete;
  ~ArenaChunk() {
    HCLVM_ASAN_UNPOISON(begin, size);
    ::operator delete(begin, kAlign);
  }

  // The chunk after [last] (null: the first) in an arena.
  static std::shared_ptr<ArenaChunk> after(const std::shared_ptr<ArenaChunk>& last) {
    return std::shared_ptr<ArenaChunk>(
        new ArenaChunk(last ? std::min(last->size * 2, kMaxSize) : kFirstSize), drop);
  }

  // Adds [n] holders; drop() ends one, the last freeing the chunk.
  void pin(uint32_t n) { holders.fetch_add(n, std::memory_order_relaxed); }
  static void drop(ArenaChunk* c) {
    if (c->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) delete c;
  }
  // ExternalHead::release of a constant laid out in the chunk.
  static void drop_constant(void* c) { drop(static_cast<ArenaChunk*>(c)); }

  // [n] bytes aligned to [align], or null when they do not fit.
  void* take(size_t n, size_t align) {
    size_t at = (used + align - 1) & ~(align - 1);
    if (at > size || size - at < n) return nullptr;
    used = at + n;
    HCLVM_ASAN_UNPOISON(begin + at, n);
    return begin + at;
  }
  bool holds(const void* p) const {
    auto* c = static_cast<const char*>(p);
    return c >= begin && c < begin + size;
  }
};

}  // namespace vm

namespace {

thread_local ProgramArena* t_arena = nullptr;

// The most bytes of a constant link() copies into an arena.
constexpr size_t kArenaConstantLimit = 512;

// Room a program object and its shared_ptr control block need: a chunk
// with less left is retired before making one.
constexpr size_t kProgramRoom = sizeof(Program) + 256;

// Allocates a program (with its control block) in a chunk, which the
// control block's copy of the allocator keeps alive.
template <class T>
struct ChunkAllocator {
  using value_type = T;
  std::shared_ptr<vm::ArenaChunk> chunk;

  explicit ChunkAllocator(std::shared_ptr<vm::ArenaChunk> c) : chunk(std::move(c)) {}
  template <class U>
  ChunkAllocator(const ChunkAllocator<U>& o) : chunk(o.chunk) {}

  T* allocate(size_t n) {
    if (void* p = chunk->take(n * sizeof(T), alignof(T))) return static_cast<T*>(p);
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (chunk->holds(p))
      HCLVM_ASAN_POISON(p, n * sizeof(T));  // the memory goes with the chunk
    else
      ::operator delete(p);  // unsized: clang 14 declares the sized one only with -fsized-deallocation
  }
  template <class U>
  bool operator==(const ChunkAllocator<U>& o) const {
    return chunk == o.chunk;
  }
};

}  // namespace

ProgramArena::ProgramArena() : outer_(t_arena) { t_arena = this; }

ProgramArena::~ProgramArena() { t_arena = outer_; }

std::shared_ptr<Program> Program::make() {
  if (t_arena == nullptr) return std::make_shared<Program>();
  std::shared_ptr<vm::ArenaChunk>& c = t_arena->chunk_;
  if (!c || c->size - c->used < kProgramRoom) c = vm::ArenaChunk::after(c);
  return std::allocate_shared<Program>(ChunkAllocator<Program>(c));
}

Program::~Program() { free_hot(); }

namespace {

// Rounds [n] up to a multiple of [a] (a power of two).
size_t align_up(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }

// Where each part of a hot block goes: the header, then the code, then the
// tables, each aligned for its type.
struct HotLayout {
  size_t code = 0, constants = 0, symbols = 0, caches = 0, traversals = 0, steps = 0, fors = 0,
         splats = 0, objects = 0, object_names = 0, object_slots = 0, types = 0, size = 0;

  explicit HotLayout(const Program& p) {
    size_t at = sizeof(vm::Hot);
    auto place = [&at](size_t count, size_t elem, size_t align) {
      at = align_up(at, align);
      size_t here = at;
      at += count * elem;
      return here;
    };
    code = place(p.code.size(), 1, 1);
    constants = place(p.constants.size(), sizeof(Value), alignof(Value));
    caches = place(p.num_caches, sizeof(std::atomic<uint64_t>), alignof(std::atomic<uint64_t>));
    types = place(p.types.size(), sizeof(const Type*), alignof(const Type*));
    traversals = place(p.traversals.size(), sizeof(vm::TraversalDesc), alignof(vm::TraversalDesc));
    steps = place(p.steps.size(), sizeof(vm::StepDesc), alignof(vm::StepDesc));
    fors = place(p.fors.size(), sizeof(vm::ForDesc), alignof(vm::ForDesc));
    splats = place(p.splats.size(), sizeof(vm::SplatDesc), alignof(vm::SplatDesc));
    objects = place(p.objects.size(), sizeof(vm::ObjectDesc), alignof(vm::ObjectDesc));
    symbols = place(p.names.size(), sizeof(uint32_t), alignof(uint32_t));
    object_names = place(p.object_names.size(), sizeof(uint32_t), alignof(uint32_t));
    object_slots = place(p.object_slots.size(), sizeof(uint32_t), alignof(uint32_t));
    size = align_up(at, alignof(vm::Hot));
  }
};

// Copies [v] to [base + offset] and returns [offset].
template <class T>
size_t copy_to(char* base, size_t offset, const std::vector<T>& v) {
  if (!v.empty()) std::memcpy(static_cast<void*>(base + offset), v.data(), v.size() * sizeof(T));
  return offset;
}

}  // namespace

void Program::free_hot() {
  if (hot_ == nullptr) return;
  Value* k = const_cast<Value*>(hot_->constants());
  for (uint32_t i = 0; i < hot_->num_constants; ++i) k[i].~Value();
  if (hot_chunk_) {
    HCLVM_ASAN_POISON(hot_, sizeof(vm::Hot));  // the memory goes with the chunk
    hot_chunk_.reset();
  }
  else
    ::operator delete(static_cast<void*>(hot_), std::align_val_t(alignof(vm::Hot)));
  hot_ = nullptr;
}

void Program::link() {
  free_hot();
  HotLayout at(*this);
  if (at.size > UINT32_MAX) throw std::length_error("program too large");
  // In an arena, small constants (strings and collections of them) are
  // copied right after the block, where reading one (its count, on every
  // copy) costs no cache miss of its own; the chunk stays while any copy
  // of them lives.
  size_t copies = 0;
  if (t_arena != nullptr)
    for (const Value& v : constants) copies += v.external_size(kArenaConstantLimit);
  char* base = nullptr;
  if (t_arena != nullptr && at.size + copies <= vm::ArenaChunk::kMaxSize / 4) {
    size_t n = at.size + copies;
    std::shared_ptr<vm::ArenaChunk>& c = t_arena->hot_chunk_;
    if (!c || !(base = static_cast<char*>(c->take(n, alignof(vm::Hot))))) {
      do c = vm::ArenaChunk::after(c);
      while (c->size < n);
      base = static_cast<char*>(c->take(n, alignof(vm::Hot)));
    }
    hot_chunk_ = c;
  }
  if (base == nullptr)
    base = static_cast<char*>(::operator new(at.size, std::align_val_t(alignof(vm::Hot))));
  auto* h = new (base) vm::Hot{};
  copy_to(base, at.code, code);
  Value* k = reinterpret_cast<Value*>(base + at.constants);
  char* next_copy = base + at.size;
  for (size_t i = 0; i < constants.size(); ++i) {
    size_t n = hot_chunk_ ? constants[i].external_size(kArenaConstantLimit) : 0;
    if (n == 0) {
      new (&k[i]) Value(constants[i]);
      continue;
    }
    size_t made = 0;
    new (&k[i]) Value(constants[i].external_copy(
        next_copy, detail::ExternalHead{vm::ArenaChunk::drop_constant, hot_chunk_.get()},
        made));
    hot_chunk_->pin(uint32_t(made));
  }
  h->constants_at = uint32_t(at.constants);
  h->num_constants = uint32_t(constants.size());
  auto* caches = reinterpret_cast<std::atomic<uint64_t>*>(base + at.caches);
  for (uint32_t i = 0; i < num_caches; ++i) new (&caches[i]) std::atomic<uint64_t>(0);
  h->caches_at = uint32_t(at.caches);
  h->types_at = uint32_t(copy_to(base, at.types, types));
  h->traversals_at = uint32_t(copy_to(base, at.traversals, traversals));
  h->steps_at = uint32_t(copy_to(base, at.steps, steps));
  h->fors_at = uint32_t(copy_to(base, at.fors, fors));
  h->splats_at = uint32_t(copy_to(base, at.splats, splats));
  h->objects_at = uint32_t(copy_to(base, at.objects, objects));
  h->object_names_at = uint32_t(copy_to(base, at.object_names, object_names));
  h->object_slots_at = uint32_t(copy_to(base, at.object_slots, object_slots));
  auto* symbols = reinterpret_cast<uint32_t*>(base + at.symbols);
  h->max_symbol = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    symbols[i] = vm::intern_symbol(names[i]);
    h->max_symbol = std::max(h->max_symbol, symbols[i]);
  }
  h->symbols_at = uint32_t(at.symbols);
  h->max_stack = max_stack;
  h->num_locals = num_locals;
  h->shortcut = vm::Hot::kNoShortcut;
  // CONST x; RETURN or TRAVERSE x; RETURN (both five bytes before RETURN).
  static_assert(vm::info(vm::Op::CONST).size == vm::info(vm::Op::TRAVERSE).size);
  constexpr size_t kFirst = vm::info(vm::Op::CONST).size;
  if (code.size() == kFirst + vm::info(vm::Op::RETURN).size && code[kFirst] == uint8_t(vm::Op::RETURN)) {
    uint32_t x = vm::operand(code.data(), 0);  // the constant or traversal
    if (code[0] == uint8_t(vm::Op::CONST) && x < constants.size() && x < vm::Hot::kLoneTraversal)
      h->shortcut = x;
    if (code[0] == uint8_t(vm::Op::TRAVERSE) && x < traversals.size() &&
        x < vm::Hot::kLoneTraversal && traversals[x].root == vm::TraversalDesc::Variable)
      h->shortcut = x | vm::Hot::kLoneTraversal;
  }
  hot_ = h;
}

std::span<const ast::Span> Program::site(uint32_t pc) const {
  auto it = std::lower_bound(sites.begin(), sites.end(), pc,
                             [](const vm::SiteEntry& s, uint32_t p) { return s.pc < p; });
  if (it == sites.end() || it->pc != pc) return {};
  return std::span<const ast::Span>(spans.data() + it->first, it->count);
}

std::span<const vm::SiteLocal> Program::site_scope(uint32_t pc) const {
  auto it = std::lower_bound(sites.begin(), sites.end(), pc,
                             [](const vm::SiteEntry& s, uint32_t p) { return s.pc < p; });
  if (it == sites.end() || it->pc != pc) return {};
  return std::span<const vm::SiteLocal>(site_locals.data() + it->first_local, it->num_locals);
}

// Constants stay reference-counted: a result may hold a constant after its
// program is gone (`"hello"` evaluates to the constant itself), so they
// cannot be immortal objects freed with the program. Sharing them between
// threads without touching their counts needs results detached from the
// program first (embedding work).

namespace {

using vm::Op;
using vm::Opnd;

// Formats [pc] as a four-digit address.
std::string addr(uint32_t pc) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04u", pc);
  return buf;
}

// Returns constant [v] as a short literal for a comment.
std::string constant_text(const Value& v) {
  if (!v.is_wholly_known()) {
    if (v.type()->is_dynamic()) return "(dynamic)";
    return "(unknown " + v.type()->friendly_name() + ")";
  }
  std::string text = render_hcl(v), s;
  // One line: a line break and the indentation after it become one space.
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      s += text[i];
      continue;
    }
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
    s += ' ';
  }
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

// Writes the disassembly of one program.
class Disassembler {
 public:
  explicit Disassembler(const Program& p) : p_(p) {}

  std::string run() {
    out_ += "; max_stack=" + std::to_string(p_.max_stack) +
            " locals=" + std::to_string(p_.num_locals) +
            " caches=" + std::to_string(p_.num_caches) + "\n";
    uint32_t pc = 0;
    while (pc < p_.code.size()) pc = instruction(pc);
    return std::move(out_);
  }

 private:
  // Writes the instruction at [pc]; returns the address of the next one.
  uint32_t instruction(uint32_t pc) {
    const uint8_t* ip = p_.code.data() + pc;
    if (ip[0] >= vm::kNumOps) {
      out_ += addr(pc) + "  ?? " + std::to_string(ip[0]) + "\n";
      return uint32_t(p_.code.size());
    }
    Op op = static_cast<Op>(ip[0]);
    const vm::OpInfo& in = vm::info(op);
    uint32_t next = pc + in.size;
    std::string line = addr(pc) + "  " + in.name;
    std::string note;
    for (int i = 0; i < 4 && in.operands[size_t(i)] != Opnd::None; ++i) {
      uint32_t a = vm::operand(ip, i);
      line +=
          i == 0 ? std::string(std::max<size_t>(1, 14 - std::string(in.name).size()), ' ') : " ";
      if (vm::is_jump(in.operands[size_t(i)])) {
        int32_t rel;
        std::memcpy(&rel, &a, sizeof rel);
        line += "->" + addr(uint32_t(int64_t(next) + rel));
      } else if (a == vm::kNone) {
        line += "-";
      } else {
        line += std::to_string(a);
      }
    }
    note = describe(op, ip);
    std::span<const ast::Span> site = p_.site(pc);
    if (!site.empty() && p_.source) {
      ast::Span all = site[0];
      for (const ast::Span& s : site) all = ast::join(all, s);
      Range r = p_.source->range(all);
      if (!note.empty()) note += "  ";
      note += "@" + std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
              std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
    }
    if (!note.empty()) {
      if (line.size() < 36) line.append(36 - line.size(), ' ');
      line += " ; " + note;
    }
    out_ += line + "\n";
    return next;
  }

  // Spells out what the operands of the instruction [op] at [ip] refer to.
  std::string describe(Op op, const uint8_t* ip) {
    uint32_t a = vm::operand(ip, 0);
    switch (op) {
      case Op::CONST:
      case Op::TPL_LIT: return a < p_.constants.size() ? constant_text(p_.constants[a]) : "?";
      case Op::LOAD: return "L" + std::to_string(a);
      case Op::ERROR: return a < p_.static_diags.size() ? p_.static_diags[a].summary : "?";
      case Op::TRAVERSE:
      case Op::TRAVERSE_REL: return traversal(a);
      case Op::COND_TEST:
        return a == vm::kNone        ? "general"
               : a < p_.types.size() ? p_.types[a]->friendly_name()
                                     : "?";
      case Op::FOR_BEGIN: {
        if (a >= p_.fors.size()) return "?";
        const vm::ForDesc& f = p_.fors[a];
        std::string s = f.object ? "object" : "tuple";
        if (f.key_slot != vm::kNoSlot) s += " key=L" + std::to_string(f.key_slot);
        s += " value=L" + std::to_string(f.val_slot);
        if (f.group) s += " group";
        if (f.has_cond) s += " if";
        return s;
      }
      case Op::OBJ_STATIC: {
        uint32_t b = vm::operand(ip, 1);
        if (b >= p_.objects.size()) return "?";
        const vm::ObjectDesc& d = p_.objects[b];
        std::string s;
        for (uint32_t i = 0; i < d.num_items; ++i) {
          uint32_t name = p_.object_names[d.first_name + p_.object_slots[d.first_slot + i]];
          s += (i ? " " : "") + p_.names[name];
        }
        return s;
      }
      case Op::SPLAT_BEGIN:
        return a < p_.splats.size() ? "item=L" + std::to_string(p_.splats[a].item_slot) : "?";
      case Op::CALL_BEGIN: {
        std::string s = a < p_.names.size() ? p_.names[a] : "?";
        uint32_t flags = vm::operand(ip, 2);
        if (flags & vm::kCallExpand) s += " expand";
        return s;
      }
      case Op::ADD:
      case Op::SUB:
      case Op::MUL:
      case Op::DIV:
      case Op::MOD:
      case Op::EQ:
      case Op::NE:
      case Op::LT:
      case Op::LE:
      case Op::GT:
      case Op::GE:
      case Op::AND:
      case Op::OR:
      case Op::NEG:
      case Op::NOT:
      case Op::OBJ_ITEM: return (a & vm::kFlagMarks) ? "marks" : "";
      default: return "";
    }
  }

  // Returns traversal [t] as a path: `name.attr[key]`, `L0.attr`, `_.attr`.
  std::string traversal(uint32_t t) {
    if (t >= p_.traversals.size()) return "?";
    const vm::TraversalDesc& d = p_.traversals[t];
    std::string s;
    switch (d.root) {
      case vm::TraversalDesc::Variable: s = p_.names[d.root_index]; break;
      case vm::TraversalDesc::Local: s = "L" + std::to_string(d.root_index); break;
      case vm::TraversalDesc::None: s = "_"; break;
    }
    for (uint32_t i = 0; i < d.num_steps; ++i) {
      const vm::StepDesc& st = p_.steps[d.first_step + i];
      if (st.kind == vm::StepDesc::Attr)
        s += "." + p_.names[st.operand];
      else
        s += "[" + constant_text(p_.constants[st.operand]) + "]";
    }
    return s;
  }

  const Program& p_;
  std::string out_;
};

}  // namespace

std::string disassemble(const Program& program) { return Disassembler(program).run(); }

}  // namespace hclvm

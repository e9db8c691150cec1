// Programs on disk (see program_codec.h). A program is written as its
// fields in a fixed order, every number a varint, names, types and
// constants through the file's shared tables; spans as a start relative to
// the previous span's start and a length, since they cluster. What link()
// computes (symbols, inline caches, the constant shortcut) is not written:
// it is derived again after reading, so nothing in a file is a pointer or
// depends on the process that wrote it. The 32-bit fields of the
// descriptors are listed once (the tables below), for the writer and the
// reader alike.
#include "cache/program_codec.h"

#include "util/unicode.h"

namespace hclvm::cache {

namespace {

// A 32-bit field of descriptor type D, written as a varint, and what a
// reader's error calls it.
template <class D>
struct Field {
  uint32_t D::*member;
  const char* what;
};

// The 32-bit fields of each descriptor, in the order of the file (after
// the one-byte kind of a traversal or step, and a site's pc).
constexpr Field<vm::TraversalDesc> kTraversalFields[] = {
    {&vm::TraversalDesc::root_index, "traversal root"},
    {&vm::TraversalDesc::first_step, "traversal step"},
    {&vm::TraversalDesc::num_steps, "traversal steps"},
    {&vm::TraversalDesc::first_scope_name, "traversal scope name"},
    {&vm::TraversalDesc::num_scope_names, "traversal scope names"},
};
constexpr Field<vm::StepDesc> kStepFields[] = {
    {&vm::StepDesc::operand, "step operand"},
    {&vm::StepDesc::cache, "step cache"},
};
constexpr Field<vm::ObjectDesc> kObjectFields[] = {
    {&vm::ObjectDesc::first_name, "object name"},
    {&vm::ObjectDesc::num_attrs, "object attributes"},
    {&vm::ObjectDesc::first_slot, "object slot"},
    {&vm::ObjectDesc::num_items, "object items"},
    {&vm::ObjectDesc::cache, "object cache"},
};
constexpr Field<vm::SiteEntry> kSiteFields[] = {
    {&vm::SiteEntry::first, "site span"},
    {&vm::SiteEntry::count, "site spans"},
    {&vm::SiteEntry::first_local, "site local"},
    {&vm::SiteEntry::num_locals, "site locals"},
};
constexpr Field<vm::SiteLocal> kSiteLocalFields[] = {
    {&vm::SiteLocal::name, "site local name"},
    {&vm::SiteLocal::slot, "site local slot"},
};

// The least number of bytes a descriptor with [fields] and [extra] one-byte
// parts takes in the file (each varint takes at least one).
template <class D, size_t N>
constexpr size_t min_bytes(const Field<D> (&)[N], size_t extra = 0) {
  return N + extra;
}

// Writes the [fields] of [d] to [w].
template <class D, size_t N>
void write_fields(ByteWriter& w, const D& d, const Field<D> (&fields)[N]) {
  for (const Field<D>& f : fields) w.varint(d.*f.member);
}

// A varint that must fit 32 bits.
uint32_t u32v(ByteReader& r, const char* what) { return r.index(uint64_t(UINT32_MAX) + 1, what); }

// Reads the [fields] of [d] from [r].
template <class D, size_t N>
void read_fields(ByteReader& r, D& d, const Field<D> (&fields)[N]) {
  for (const Field<D>& f : fields) d.*f.member = u32v(r, f.what);
}

}  // namespace

bool write_program(ByteWriter& w, TableWriter& tables, const Program& p) {
  w.str(std::string_view(reinterpret_cast<const char*>(p.code.data()), p.code.size()));
  w.varint(p.max_stack);
  w.varint(p.num_locals);
  w.varint(p.num_caches);
  w.varint(p.constants.size());
  for (const Value& v : p.constants)
    if (!tables.value(w, v)) return false;
  w.varint(p.names.size());
  for (const std::string& n : p.names) {
    if (!uni::valid_utf8(n)) return false;
    w.varint(tables.string(n));
  }
  w.varint(p.types.size());
  for (const Type* t : p.types) {
    uint32_t i;
    if (!tables.type(t, i)) return false;
    w.varint(i);
  }
  w.varint(p.traversals.size());
  for (const vm::TraversalDesc& d : p.traversals) {
    w.u8(uint8_t(d.root));
    write_fields(w, d, kTraversalFields);
  }
  w.varint(p.steps.size());
  for (const vm::StepDesc& s : p.steps) {
    w.u8(uint8_t(s.kind));
    write_fields(w, s, kStepFields);
  }
  w.varint(p.scope_names.size());
  for (uint32_t n : p.scope_names) w.varint(n == vm::kNone ? 0 : uint64_t(n) + 1);
  w.varint(p.fors.size());
  for (const vm::ForDesc& f : p.fors) {
    w.varint(f.key_slot == vm::kNoSlot ? 0 : uint64_t(f.key_slot) + 1);
    w.varint(f.val_slot);
    w.u8(uint8_t((f.object ? 1 : 0) | (f.group ? 2 : 0) | (f.has_cond ? 4 : 0)));
  }
  w.varint(p.splats.size());
  for (const vm::SplatDesc& s : p.splats) {
    w.varint(s.item_slot);
    w.u8(s.marks ? 1 : 0);
  }
  w.varint(p.objects.size());
  for (const vm::ObjectDesc& o : p.objects) write_fields(w, o, kObjectFields);
  w.varint(p.object_names.size());
  for (uint32_t n : p.object_names) w.varint(n);
  w.varint(p.object_slots.size());
  for (uint32_t s : p.object_slots) w.varint(s);
  w.varint(p.static_diags.size());
  for (const vm::StaticDiag& d : p.static_diags) {
    w.varint(tables.string(d.summary));
    w.varint(tables.string(d.detail));
  }
  w.varint(p.sites.size());
  uint32_t prev_pc = 0;
  for (const vm::SiteEntry& s : p.sites) {
    w.svarint(int64_t(s.pc) - int64_t(prev_pc));
    prev_pc = s.pc;
    write_fields(w, s, kSiteFields);
  }
  w.varint(p.site_locals.size());
  for (const vm::SiteLocal& l : p.site_locals) write_fields(w, l, kSiteLocalFields);
  w.varint(p.spans.size());
  uint32_t prev = 0;
  for (const ast::Span& s : p.spans) {
    w.svarint(int64_t(s.begin) - int64_t(prev));
    w.varint(s.end >= s.begin ? uint64_t(s.end - s.begin) * 2 : uint64_t(s.begin - s.end) * 2 + 1);
    prev = s.begin;
  }
  return true;
}

namespace {

// A 32-bit position [prev] + a signed delta, which must stay in range.
uint32_t delta(ByteReader& r, uint32_t prev, const char* what) {
  int64_t v = int64_t(prev) + r.svarint();
  if (v < 0 || v > int64_t(UINT32_MAX)) {
    r.fail(std::string(what) + " out of range");
    return 0;
  }
  return uint32_t(v);
}

}  // namespace

std::shared_ptr<Program> read_program(ByteReader& r, const TableReader& tables,
                                      std::shared_ptr<const Source> source) {
  auto p = Program::make();
  std::string_view code = r.str();
  p->code.assign(code.begin(), code.end());
  p->max_stack = u32v(r, "max_stack");
  p->num_locals = u32v(r, "num_locals");
  p->num_caches = u32v(r, "num_caches");
  uint32_t n = r.count(1, "constant count");
  p->constants.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) p->constants.push_back(tables.value(r));
  n = r.count(1, "name count");
  p->names.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) p->names.emplace_back(tables.text(r));
  n = r.count(1, "type count");
  p->types.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) p->types.push_back(tables.type(r));
  n = r.count(min_bytes(kTraversalFields, 1), "traversal count");
  p->traversals.resize(n);
  for (vm::TraversalDesc& d : p->traversals) {
    uint8_t root = r.u8();
    if (root > vm::TraversalDesc::None) r.fail("bad traversal root kind");
    d.root = vm::TraversalDesc::Root(root);
    read_fields(r, d, kTraversalFields);
    if (!r.ok()) break;
  }
  n = r.count(min_bytes(kStepFields, 1), "step count");
  p->steps.resize(n);
  for (vm::StepDesc& s : p->steps) {
    uint8_t kind = r.u8();
    if (kind > vm::StepDesc::Index) r.fail("bad traversal step kind");
    s.kind = vm::StepDesc::Kind(kind);
    read_fields(r, s, kStepFields);
    if (!r.ok()) break;
  }
  n = r.count(1, "scope name count");
  p->scope_names.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    uint32_t v = u32v(r, "scope name");
    p->scope_names.push_back(v == 0 ? vm::kNone : v - 1);
  }
  n = r.count(3, "for count");
  p->fors.resize(n);
  for (vm::ForDesc& f : p->fors) {
    uint32_t key = r.index(uint64_t(vm::kNoSlot) + 1, "for key slot");
    f.key_slot = key == 0 ? vm::kNoSlot : uint16_t(key - 1);
    f.val_slot = uint16_t(r.index(vm::kNoSlot, "for value slot"));
    uint8_t flags = r.u8();
    if (flags > 7) r.fail("bad for flags");
    f.object = flags & 1, f.group = flags & 2, f.has_cond = flags & 4;
    if (!r.ok()) break;
  }
  n = r.count(2, "splat count");
  p->splats.resize(n);
  for (vm::SplatDesc& s : p->splats) {
    s.item_slot = uint16_t(r.index(vm::kNoSlot, "splat slot"));
    uint8_t marks = r.u8();
    if (marks > 1) r.fail("bad splat flags");
    s.marks = marks == 1;
    if (!r.ok()) break;
  }
  n = r.count(min_bytes(kObjectFields), "object count");
  p->objects.resize(n);
  for (vm::ObjectDesc& o : p->objects) {
    read_fields(r, o, kObjectFields);
    if (!r.ok()) break;
  }
  n = r.count(1, "object name count");
  p->object_names.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) p->object_names.push_back(u32v(r, "object name"));
  n = r.count(1, "object slot count");
  p->object_slots.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) p->object_slots.push_back(u32v(r, "object slot"));
  n = r.count(2, "static diagnostic count");
  p->static_diags.resize(n);
  for (vm::StaticDiag& d : p->static_diags) {
    d.summary = tables.string(r);
    d.detail = tables.string(r);
    if (!r.ok()) break;
  }
  n = r.count(min_bytes(kSiteFields, 1), "site count");
  p->sites.resize(n);
  uint32_t pc = 0;
  for (vm::SiteEntry& s : p->sites) {
    s.pc = pc = delta(r, pc, "site pc");
    read_fields(r, s, kSiteFields);
    if (!r.ok()) break;
  }
  n = r.count(min_bytes(kSiteLocalFields), "site local count");
  p->site_locals.resize(n);
  for (vm::SiteLocal& l : p->site_locals) {
    read_fields(r, l, kSiteLocalFields);
    if (!r.ok()) break;
  }
  n = r.count(2, "span count");
  p->spans.resize(n);
  uint32_t prev = 0;
  for (ast::Span& s : p->spans) {
    s.begin = prev = delta(r, prev, "span start");
    uint64_t len = r.varint();
    uint64_t mag = len / 2;
    int64_t end = (len & 1) ? int64_t(s.begin) - int64_t(mag) : int64_t(s.begin) + int64_t(mag);
    if (end < 0 || end > int64_t(UINT32_MAX)) r.fail("span end out of range");
    s.end = uint32_t(end);
    if (!r.ok()) break;
  }
  if (!r.ok()) return nullptr;
  p->source = std::move(source);
  std::string why = verify_program(*p, p->source ? p->source->text().size() : 0);
  if (!why.empty()) {
    r.fail("invalid program: " + why);
    return nullptr;
  }
  p->link();
  return p;
}

}  // namespace hclvm::cache

// The emitter (see emitter.h).
#include "compile/emitter.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "value/number.h"

namespace hclvm::compile {

using vm::Op;
using vm::Opnd;

uint32_t Emitter::emit(Op op, std::initializer_list<uint32_t> operands) {
  const vm::OpInfo& in = vm::info(op);
  // Every operand opcodes.def declares, no more and none left to chance.
  if (operands.size() != size_t(vm::operand_count(op)))
    throw std::logic_error(std::string("emit: ") + in.name + " takes " + std::to_string(vm::operand_count(op)) +
                           " operands, given " + std::to_string(operands.size()));
  uint32_t at = pc();
  p_.code.resize(at + in.size);
  p_.code[at] = uint8_t(op);
  uint32_t off = at + 1;
  auto it = operands.begin();
  for (Opnd k : in.operands) {
    if (k == Opnd::None) break;
    uint32_t v = *it++;
    uint8_t w = vm::detail::width(k);
    if (vm::is_jump(k))
      patches_.push_back({off, at + in.size, v});
    else
      vm::write_le(p_.code.data() + off, v, w);
    off += w;
  }
  int pops = in.pops >= 0 ? in.pops : int(*operands.begin());
  depth_ += in.pushes - pops;
  max_depth_ = std::max(max_depth_, depth_);
  return at;
}

Label Emitter::label() {
  labels_.push_back(-1);
  return Label{uint32_t(labels_.size() - 1)};
}

void Emitter::bind(Label l) { labels_[l.id] = pc(); }

void Emitter::set_depth(int d) {
  depth_ = d;
  max_depth_ = std::max(max_depth_, depth_);
}

uint32_t Emitter::site(uint32_t pc, std::initializer_list<ast::Span> spans) {
  return site(pc, std::span<const ast::Span>(spans.begin(), spans.size()));
}

uint32_t Emitter::site(uint32_t pc, const std::vector<ast::Span>& spans) {
  return site(pc, std::span<const ast::Span>(spans));
}

uint32_t Emitter::site(uint32_t pc, std::span<const ast::Span> spans) {
  uint32_t first = uint32_t(p_.spans.size());
  p_.spans.insert(p_.spans.end(), spans.begin(), spans.end());
  share_site(pc, first, uint32_t(spans.size()));
  return first;
}

void Emitter::share_site(uint32_t pc, uint32_t first, uint32_t count) {
  p_.sites.push_back(vm::SiteEntry{pc, first, count, scope_first_, scope_count_});
}

void Emitter::set_scope(const std::vector<vm::SiteLocal>& locals) {
  scope_first_ = uint32_t(p_.site_locals.size());
  scope_count_ = uint32_t(locals.size());
  p_.site_locals.insert(p_.site_locals.end(), locals.begin(), locals.end());
}

namespace {

// The pools are searched one by one while they are this small (most
// programs), and through an index built once they grow past it: making
// hash tables and their keys cost a compilation more than the searches.
constexpr size_t kScanLimit = 16;

// The key under which constant [v] is stored once; empty for a value
// stored as given. Strings, numbers, bools and nulls are stored once.
std::string constant_key(const Value& v) {
  if (v.is_plain()) {
    switch (v.rep()) {
      case Value::Rep::String:
        return "s" + std::string(v.as_string());
      case Value::Rep::SmallNum:
      case Value::Rep::BigNum:
        // The exact form, not the text: equal texts may be different numbers,
        // and the text of 1e100000000 has a hundred million digits.
        return "n" + num::encode_exact(v.as_number());
      case Value::Rep::Bool:
        return v.as_bool() ? "t" : "f";
      default:
        return "";
    }
  }
  if (v.rep() == Value::Rep::TypeOnly)
    return std::string(v.is_null() ? "0" : "?") + v.type()->go_string();
  return "";
}

// Whether constant() stores [v] once.
bool shared_constant(const Value& v) {
  if (v.is_plain()) {
    switch (v.rep()) {
      case Value::Rep::String:
      case Value::Rep::SmallNum:
      case Value::Rep::BigNum:
      case Value::Rep::Bool:
        return true;
      default:
        return false;
    }
  }
  return v.rep() == Value::Rep::TypeOnly;
}

// Whether shared constants [a] and [b] have one key (without making it
// where that is cheap).
bool same_constant(const Value& a, const Value& b) {
  if (a.rep() != b.rep() || a.is_plain() != b.is_plain()) return constant_key(a) == constant_key(b);
  switch (a.rep()) {
    case Value::Rep::String:
      return a.as_string() == b.as_string();
    case Value::Rep::Bool:
      return a.as_bool() == b.as_bool();
    case Value::Rep::TypeOnly:
      return a.is_null() == b.is_null() &&
             (a.type() == b.type() || constant_key(a) == constant_key(b));
    default:
      return constant_key(a) == constant_key(b);
  }
}

// The index of [x] in [pool], added at the end when absent: searched
// one by one while the pool is small, through [index] (built at its first
// use) past that.
template <class Pool, class Index, class Key>
uint32_t pooled(Pool& pool, Index& index, const Key& x) {
  const size_t count = pool.size();
  if (count <= kScanLimit) {
    for (size_t i = 0; i < count; ++i)
      if (pool[i] == x) return uint32_t(i);
  } else {
    if (index.empty())
      for (size_t i = count; i-- > 0;)
        index[pool[i]] = uint32_t(i);  // the first of equal ones wins
    auto [it, fresh] = index.try_emplace(typename Index::key_type(x), uint32_t(count));
    if (!fresh) return it->second;
  }
  pool.emplace_back(x);
  return uint32_t(count);
}

}  // namespace

uint32_t Emitter::constant(Value v) {
  if (!shared_constant(v)) {
    p_.constants.push_back(std::move(v));
    return uint32_t(p_.constants.size() - 1);
  }
  const size_t n = p_.constants.size();
  if (n <= kScanLimit) {
    for (size_t i = 0; i < n; ++i)
      if (shared_constant(p_.constants[i]) && same_constant(p_.constants[i], v)) return uint32_t(i);
  } else {
    if (const_index_.empty())
      for (size_t i = n; i-- > 0;)  // the first of equal ones wins, as in the scan
        if (shared_constant(p_.constants[i]))
          const_index_[constant_key(p_.constants[i])] = uint32_t(i);
    std::string key = constant_key(v);
    auto it = const_index_.find(key);
    if (it != const_index_.end()) return it->second;
    const_index_.emplace(std::move(key), uint32_t(n));
  }
  p_.constants.push_back(std::move(v));
  return uint32_t(n);
}

uint32_t Emitter::name(std::string_view n) { return pooled(p_.names, name_index_, n); }

uint32_t Emitter::type(const Type* t) { return pooled(p_.types, type_index_, t); }

uint16_t Emitter::new_local() { return uint16_t(p_.num_locals++); }

uint32_t Emitter::new_cache() { return p_.num_caches++; }

void Emitter::finish() {
  for (const Patch& pt : patches_) {
    int64_t target = labels_[pt.label];
    int64_t rel = target < 0 ? 0 : target - int64_t(pt.next);
    vm::write_le(p_.code.data() + pt.at, uint32_t(int32_t(rel)), 4);
  }
  auto by_pc = [](const vm::SiteEntry& a, const vm::SiteEntry& b) { return a.pc < b.pc; };
  if (!std::is_sorted(p_.sites.begin(), p_.sites.end(), by_pc))
    std::stable_sort(p_.sites.begin(), p_.sites.end(), by_pc);
  p_.max_stack = uint32_t(max_depth_);
  p_.link();
}

}  // namespace hclvm::compile

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
  return site(pc, std::vector<ast::Span>(spans));
}

uint32_t Emitter::site(uint32_t pc, const std::vector<ast::Span>& spans) {
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

uint32_t Emitter::constant(Value v) {
  // Strings, numbers, bools and nulls are stored once; other values as given.
  std::string key;
  if (v.is_plain()) {
    switch (v.rep()) {
      case Value::Rep::String: key = "s" + std::string(v.as_string()); break;
      case Value::Rep::SmallNum:
      case Value::Rep::BigNum:
        // The exact form, not the text: equal texts may be different numbers,
        // and the text of 1e100000000 has a hundred million digits.
        key = "n" + num::encode_exact(v.as_number());
        break;
      case Value::Rep::Bool: key = v.as_bool() ? "t" : "f"; break;
      default: break;
    }
  } else if (v.rep() == Value::Rep::TypeOnly) {
    key = std::string(v.is_null() ? "0" : "?") + v.type()->go_string();
  }
  if (!key.empty()) {
    auto it = const_index_.find(key);
    if (it != const_index_.end()) return it->second;
    const_index_.emplace(std::move(key), uint32_t(p_.constants.size()));
  }
  p_.constants.push_back(std::move(v));
  return uint32_t(p_.constants.size() - 1);
}

uint32_t Emitter::name(std::string_view n) {
  auto it = name_index_.find(std::string(n));
  if (it != name_index_.end()) return it->second;
  p_.names.emplace_back(n);
  uint32_t i = uint32_t(p_.names.size() - 1);
  name_index_.emplace(std::string(n), i);
  return i;
}

uint32_t Emitter::type(const Type* t) {
  auto it = type_index_.find(t);
  if (it != type_index_.end()) return it->second;
  p_.types.push_back(t);
  uint32_t i = uint32_t(p_.types.size() - 1);
  type_index_.emplace(t, i);
  return i;
}

uint16_t Emitter::new_local() { return uint16_t(p_.num_locals++); }

uint32_t Emitter::new_cache() { return p_.num_caches++; }

void Emitter::finish() {
  for (const Patch& pt : patches_) {
    int64_t target = labels_[pt.label];
    int64_t rel = target < 0 ? 0 : target - int64_t(pt.next);
    vm::write_le(p_.code.data() + pt.at, uint32_t(int32_t(rel)), 4);
  }
  std::stable_sort(p_.sites.begin(), p_.sites.end(),
                   [](const vm::SiteEntry& a, const vm::SiteEntry& b) { return a.pc < b.pc; });
  p_.max_stack = uint32_t(max_depth_);
  p_.link();
}

}  // namespace hclvm::compile

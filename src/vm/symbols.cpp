// The process-wide symbol table (symbols.h): names to dense numbers, under
// a lock, growing only.
#include "vm/symbols.h"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hclvm::vm {

uint32_t intern_symbol(std::string_view name) {
  static std::mutex mu;
  // Never destroyed: programs may be linked while statics are torn down.
  static auto* names = new std::deque<std::string>();
  static auto* index = new std::unordered_map<std::string_view, uint32_t>();
  std::lock_guard lock(mu);
  auto it = index->find(name);
  if (it != index->end()) return it->second;
  const std::string& kept = names->emplace_back(name);
  uint32_t sym = uint32_t(names->size() - 1);
  index->emplace(kept, sym);
  return sym;
}

}  // namespace hclvm::vm

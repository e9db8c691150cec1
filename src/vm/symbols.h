// Symbols: every name a program uses (variables, attributes, functions)
// gets a number unique in the process, so that a Vm can remember what a
// name resolved to in a context across all the programs it runs (a file's
// attributes are many programs over one context) with an array index
// instead of a string look-up. Interning happens when a program is linked,
// never while one runs.
#pragma once

#include <cstdint>
#include <string_view>

namespace hclvm::vm {

// The symbol of [name]: the same number for the same name, from any thread.
uint32_t intern_symbol(std::string_view name);

}  // namespace hclvm::vm

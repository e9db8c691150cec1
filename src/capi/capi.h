// What the files of the C API (include/hclvm/hclvm.h) share: the structs
// behind its opaque handles, and the guard every entry point runs its body
// in, which turns C++ exceptions into status codes and keeps the message
// for hclvm_last_error().
#pragma once

#include <hclvm/cache.h>
#include <hclvm/config.h>
#include <hclvm/eval.h>
#include <hclvm/hclvm.h>
#include <hclvm/value.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "util/budget.h"

// A value: the C++ value alone, so that a `const hclvm::Value&` inside a
// collection can be handed out as a borrowed `const hclvm_value*` without
// copying (a standard-layout struct and its first member share an address).
struct hclvm_value {
  hclvm::Value v;
};
static_assert(std::is_standard_layout_v<hclvm_value>);

// Diagnostics with what rendering them needs: the source for snippets and,
// for a compiled file, the block context of a position.
struct hclvm_diagnostics {
  hclvm::Diagnostics list;
  std::shared_ptr<const hclvm::Source> source;
  std::shared_ptr<const hclvm::CompiledFile> file;
  // Diagnostics of a module (hclvm_module_*): the files it was read from,
  // and rendering as Terraform renders them.
  std::shared_ptr<const hclvm::config::Sources> sources;
};

// A body of a compiled file, with a handle for each of its blocks' bodies,
// made once with the program so that borrowed pointers stay put.
struct hclvm_body {
  const hclvm::CompiledBody* body = nullptr;
  const hclvm_program* program = nullptr;
  std::vector<hclvm_body> blocks;
};

struct hclvm_program {
  hclvm_program_kind kind = HCLVM_PROGRAM_EXPRESSION;
  std::shared_ptr<const hclvm::Source> source;
  // An expression: its program and what compiling it reported (constant
  // folding), which every evaluation repeats, as the command line does.
  std::shared_ptr<const hclvm::Program> expr;
  hclvm::Diagnostics compile_diags;
  // A file.
  std::shared_ptr<const hclvm::CompiledFile> file;
  hclvm_body root;
};

struct hclvm_context {
  hclvm::EvalContext ctx;
  // The table set on [ctx], or null while there is none. Tables are copied
  // on change, so that a table a vm still holds is never modified.
  std::shared_ptr<const hclvm::FunctionTable> fns;
};

struct hclvm_cancel {
  std::atomic<bool> flag{false};
};

struct hclvm_vm {
  hclvm::Vm vm;
  hclvm_limits limits{};
};

struct hclvm_result {
  hclvm_value value;
  hclvm_diagnostics diags;
  hclvm_status status = HCLVM_OK;
  const char* limit = nullptr;
};

struct hclvm_cache {
  hclvm::Cache cache;
};

namespace hclvm::capi {

// The limits [c] of the C API as the C++ API's.
Limits to_limits(const hclvm_limits& c);

// Records [message] as the last error of this thread and returns [s].
hclvm_status fail(hclvm_status s, std::string_view message) noexcept;
// Forgets the last error of this thread.
void clear_error() noexcept;

// A limit of the evaluation in progress on this thread that a call made
// from inside a host function (building a value) ran into: the function's
// wrapper ends the evaluation with it once the host function returns.
extern thread_local bool t_limit_pending;
extern thread_local Limit t_pending_limit;
hclvm_status limit_hit(Limit l) noexcept;

// Runs [body] (returning an hclvm_status) with this thread's last error
// cleared; an exception becomes HCLVM_ERR_NO_MEMORY or HCLVM_ERR_INTERNAL.
template <class F>
hclvm_status guard(F&& body) noexcept {
  clear_error();
  try {
    return body();
  } catch (const util::LimitExceeded& e) {
    return limit_hit(e.limit);
  } catch (const std::bad_alloc&) {
    return fail(HCLVM_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(HCLVM_ERR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(HCLVM_ERR_INTERNAL, "internal error: unknown exception");
  }
}

// Runs [body] (an accessor returning a plain value); [fallback] when it throws.
template <class T, class F>
T quiet(T fallback, F&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return fallback;
  }
}

// The integer a C caller stored in enum [e]. C lets any int through an enum
// while C++ may assume only the enumerators' range, so values from C are
// read as their underlying integer before they are checked.
template <class E>
auto raw_enum(const E& e) {
  std::underlying_type_t<E> raw;
  static_assert(sizeof raw == sizeof e);
  std::memcpy(&raw, &e, sizeof raw);
  return raw;
}

// [text] of [len] bytes, or up to its NUL when [len] is HCLVM_NUL_TERMINATED.
inline std::string_view text_of(const char* text, size_t len) {
  if (len == HCLVM_NUL_TERMINATED) return std::string_view(text);
  return std::string_view(text, len);
}

// A copy of [s] allocated with malloc, for hclvm_string_free.
char* dup_string(std::string_view s);

// The borrowed handle of a value held elsewhere.
inline const hclvm_value* wrap(const Value& v) { return reinterpret_cast<const hclvm_value*>(&v); }

// A new owned handle holding [v].
inline hclvm_value* own(Value v) { return new hclvm_value{std::move(v)}; }

// The type [text] names: an HCL type expression or cty's JSON form; null
// (with [err] set) when it names none. A null [text] is the dynamic type.
const Type* parse_type(const char* text, std::string& err);

// The syntax a file named [name] is read in.
Syntax syntax_for(hclvm_syntax syntax, std::string_view name);

// Stores [diags] (about [src], in [file] when it is a compiled file) in
// [*out] when [out] is not null.
void give_diagnostics(hclvm_diagnostics** out, Diagnostics diags, std::shared_ptr<const Source> src,
                      std::shared_ptr<const CompiledFile> file = nullptr);

}  // namespace hclvm::capi

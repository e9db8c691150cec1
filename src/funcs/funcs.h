// The function library: one registration function per category (each file
// of src/funcs/ adds its functions to a table under their Terraform names),
// and the helpers the categories share. default_functions() (vm/function.cpp)
// calls every registration function.
//
// The functions are go-cty's stdlib functions (newest release) as the
// reference's default table names them, with Terraform's length(); their
// error messages are cty's, word for word, and an error that cty raises as
// an ArgError carries the argument's index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hclvm/function.h"
#include "hclvm/functions.h"
#include "util/budget.h"

namespace hclvm::funcs {

void add_numeric_functions(FunctionTable& t);     // numeric.cpp
void add_string_functions(FunctionTable& t);      // string.cpp
void add_collection_functions(FunctionTable& t);  // collection.cpp
void add_encoding_functions(FunctionTable& t);    // encoding.cpp
void add_conversion_functions(FunctionTable& t);  // conversion.cpp
void add_general_functions(FunctionTable& t);     // general.cpp: coalesce, try, can
void add_regex_functions(FunctionTable& t);       // regex.cpp: regex, regexall
void add_set_functions(FunctionTable& t);         // set.cpp: setunion, setproduct...
void add_datetime_functions(FunctionTable& t);    // datetime.cpp: formatdate, timeadd

// The standard library's additions and Terraform's versions, over the
// functions above (standard_functions in vm/function.cpp calls them in
// this order, after the ones above).
void add_terraform_functions(FunctionTable& t, const LibraryOptions& opts);  // terraform.cpp
// Parts of add_terraform_functions kept with their categories: Terraform's
// to* functions, type, sensitive, nonsensitive, issensitive; replace.
void add_terraform_conversion_functions(FunctionTable& t);  // conversion.cpp
void add_terraform_regex_functions(FunctionTable& t);       // regex.cpp
// Adds templatestring (terraform.cpp), whose templates see the functions
// [t] holds now (templatestring and templatefile failing as recursive
// calls, the filesystem functions as not allowed in it): standard_functions
// calls it last, once every other function is in.
void add_templatestring_function(FunctionTable& t);
void add_filesystem_functions(FunctionTable& t, const LibraryOptions& opts);  // filesystem.cpp
void add_time_functions(FunctionTable& t, const LibraryOptions& opts);  // datetime.cpp: timecmp...
void add_network_functions(FunctionTable& t, const LibraryOptions& opts);  // network.cpp: cidr*
void add_packer_functions(FunctionTable& t, const LibraryOptions& opts);   // packer.cpp

// The file functions' base directory and confinement (filesystem.cpp); one
// made for a table finds the base's canonical form once.
struct Sandbox;
std::shared_ptr<const Sandbox> make_sandbox(const std::string& base_dir, bool confine);

// templatefile (template_file.cpp), which filesystem.cpp registers; it
// reads its template as file() does (filesystem.cpp): the contents of
// [path] under [sb]'s base directory, with [path]'s marks, or file()'s
// error.
Function templatefile_fn(const LibraryOptions& opts, std::shared_ptr<const Sandbox> sb);
FuncResult file_contents(const Sandbox& sb, const Value& path);

// Go's time.Time.Format([layout]) of the UTC time [unix_sec] s + [nsec] ns
// (datetime.cpp), for Packer's legacy time functions.
std::string go_time_format(std::string_view layout, int64_t unix_sec, int64_t nsec);
// encoding.cpp: base64encode, base64decode, base64gzip, urlencode, text*base64
void add_terraform_encoding_functions(FunctionTable& t, const LibraryOptions& opts);
void add_yaml_functions(FunctionTable& t, const LibraryOptions& opts);    // yaml.cpp
void add_crypto_functions(FunctionTable& t, const LibraryOptions& opts);  // hash.cpp: md5...uuid

// format and formatlist (format.cpp), registered with the string functions.
Function format_fn();
Function formatlist_fn();

// What a parameter accepts besides known, non-null, unmarked values of its type.
enum ParamFlags : unsigned {
  kNull = 1,
  kUnknown = 2,
  kDynamic = 4,
  kMarked = 8,
};

// A parameter named [name] of type [t] accepting what [flags] say.
Param param(std::string name, const Type* t, unsigned flags = 0);

// Adds [f] to [t] as [name].
void add(FunctionTable& t, std::string name, Function f);

// Reads the known number [v] as a Go int the way gocty.FromCtyValue does:
// false and [err] set to cty's message when it is not a whole number in
// the int64 range.
bool to_int(const Value& v, int64_t& out, std::string& err);

// Go's strconv.QuoteRune: [r] in single quotes, escaped as %q does.
std::string quote_rune(char32_t r);


// Go's %q of a string (strconv.Quote).
std::string quote(std::string_view s);

// Go's strings.Replace([s], [old], [repl], -1) (string.cpp).
std::string replace_all(std::string_view s, std::string_view old, std::string_view repl);

// A function result: [v], or the error [message] about argument [arg].
inline FuncResult arg_error(std::string message, int arg) {
  return FuncResult::fail(std::move(message), arg);
}

// A type result that is an error [message] (about argument [arg]).
inline TypeResult type_error(std::string message, int arg = -1) {
  return {nullptr, FuncError{std::move(message), arg}};
}

inline TypeResult type_ok(const Type* t) { return {t, std::nullopt}; }

// The type all of [args] unify to (coalesce's return type rule), or
// "all arguments must have the same type".
TypeResult unified_args_type(std::span<const Value> args);

// The grapheme cluster count of the known string [s] as a number (cty's
// Strlen), counted once per string value (Value::string_length).
Value strlen_value(const Value& s);

// Checks, before [more] bytes are added to the text [out], that the run's
// string limit leaves room for them (util/budget.h): a string is refused
// before it is built, never after.
inline void check_append(const std::string& out, uint64_t more) {
  util::check_string_size(uint64_t(out.size()) + more);
}
// Checks, before one more element is added to [out], that the run's
// collection limit leaves room for it.
template <class V>
inline void check_push(const V& out) {
  util::check_collection_size(uint64_t(out.size()) + 1);
}

// For a loop over the elements of a collection whose every iteration does
// real work (converts, compares, hashes): checks the deadline and the
// cancel flag once every 1024 iterations ([i] counts them), so that a
// call over a million elements cannot run on long past the deadline.
inline void poll_every(size_t i) {
  if ((i & 1023) == 1023) util::poll();
}

// A vector of values or a string to build a result in, kept by the thread
// from call to call (so a warm call allocates none) and empty whenever it
// is not in use: it is cleared when the scope ends. A use nested in another
// of the same kind gets one of its own.
template <class T>
class Scratch {
 public:
  Scratch() : v_(free_slot() != nullptr ? free_slot() : &own_) {
    if (v_ != &own_) free_slot() = nullptr;
  }
  ~Scratch() {
    v_->clear();
    // What a big result left behind is given back: the thread keeps at
    // most a small buffer from call to call.
    if (v_->capacity() * sizeof(*v_->data()) > kKeep) v_->shrink_to_fit();
    if (v_ != &own_) free_slot() = v_;
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T& operator*() { return *v_; }
  T* operator->() { return v_; }

 private:
  static constexpr size_t kKeep = 1 << 20;

  // The thread's one while no Scratch holds it, else null.
  static T*& free_slot() {
    thread_local T store;
    thread_local T* free = &store;
    return free;
  }
  T own_;
  T* v_;
};
using ScratchValues = Scratch<std::vector<Value>>;
using ScratchText = Scratch<std::string>;

}  // namespace hclvm::funcs

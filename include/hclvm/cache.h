// The bytecode cache: a configuration file compiled once
// (hclvm/compiled_file.h), the result kept on disk and loaded on later runs
// instead of parsing and compiling again. A cache entry does not hold the
// source bytes, since the file is at hand; they give ranges and snippets.
//
//   hclvm::CompiledFile f = hclvm::compile_file(hclvm::make_source("main.tf", bytes));
//   std::string blob = hclvm::write_compiled({&f});        // or through a Cache
//   hclvm::LoadResult back = hclvm::read_compiled(blob, {source});
//   for (const auto& a : back.files[0].body.attributes) vm.run(*a.program, ctx);
//
// Files are written in a versioned binary format (docs/cache-format.md):
// little-endian, independent of the machine's pointer size, with a header
// that names the format version, the compiler build, a hash of each
// source and a hash of the options that affect compiling, and a checksum.
// Reading checks everything before anything runs (every length, operand,
// jump, stack depth, table index and span; see src/cache/verify.cpp): a
// damaged, truncated, stale or hostile file is refused with a reason. (Read
// lazily, each program is checked before it first runs instead.)
//
// A Cache keeps compiled files in a directory keyed by the hash of the
// source and options (see Cache below); `hclvm eval --cache` and `hclvm
// compile` use it from the command line.
#pragma once

#include <hclvm/ast.h>
#include <hclvm/body.h>
#include <hclvm/compiled_file.h>
#include <hclvm/diagnostic.h>
#include <hclvm/eval.h>
#include <hclvm/json_program.h>
#include <hclvm/json_syntax.h>
#include <hclvm/render.h>
#include <hclvm/syntax.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm {

// What affects compiling beyond the source: a file cached under other
// options is stale. Only the syntax today; the hash of the function
// table's signature is kept so that entries stay apart per embedder table.
struct CompileOptions {
  Syntax syntax = Syntax::Native;
  uint64_t functions_signature = 0;  // see functions_signature()
  // The 128-bit hash of these options that the format stores.
  std::string hash() const;
};

// A hash of the names and parameter lists of [fns] (0 for none).
uint64_t functions_signature(const FunctionTable* fns);

// The XXH3 128-bit hash of [bytes], as 32 lowercase hex digits.
std::string content_hash(std::string_view bytes);

// Writes [files] (compiled with [options]) in the cache format. With
// [embed_sources] the files' source bytes go in too, so that the result
// needs nothing else to be evaluated (`hclvm compile`); without, reading
// needs the sources. Nullopt, with the reason in [*why], when a file holds
// something the format cannot (a marked or refined constant).
std::optional<std::string> write_compiled(const std::vector<const CompiledFile*>& files,
                                          const CompileOptions& options, bool embed_sources,
                                          std::string* why = nullptr);

struct LoadResult {
  std::vector<CompiledFile> files;
  std::string error;  // empty when the data was read and verified
  bool ok() const { return error.empty(); }
};

// Reads data written by write_compiled, checking it whole first: the
// magic, format version and compiler build, the checksum, then every
// section and program. [sources] supplies the source of each file whose
// bytes were not embedded (matched by name; its hash must be the one
// recorded, else the entry is stale); [options], if given, must hash as
// the recorded options.
//
// With ReadMode::Lazy everything but the native programs is read and
// checked at once (envelope, checksum, tables, bodies, JSON programs);
// each native program is decoded and verified when it is first needed
// (CompiledAttribute::native_program), so a process that evaluates a few
// attributes of a large file pays for those only. The data is then kept
// (shared) by the files read from it.
enum class ReadMode { Eager, Lazy };
LoadResult read_compiled(std::string_view data,
                         const std::vector<std::shared_ptr<const Source>>& sources = {},
                         const CompileOptions* options = nullptr, ReadMode mode = ReadMode::Eager);
LoadResult read_compiled(std::shared_ptr<const std::string> data,
                         const std::vector<std::shared_ptr<const Source>>& sources,
                         const CompileOptions* options, ReadMode mode);

// The identity of this compiler build: format changes, opcode table and
// version go into it, so a cache never feeds one build's programs to another.
std::string compiler_build_id();

// --- the cache directory ---------------------------------------------------------

struct CacheOptions {
  // The directory; empty: $HCLVM_CACHE_DIR, else $XDG_CACHE_HOME/hclvm,
  // else $HOME/.cache/hclvm.
  std::string dir;
  uint64_t max_bytes = 512ull << 20;  // least recently used entries go beyond it
};

// How load_or_compile got its file.
struct CacheStatus {
  enum Outcome {
    Hit,           // loaded from the cache
    Miss,          // compiled, and stored
    Replaced,      // the entry was refused (reason), compiled again and replaced
    NotCached,     // compiled; could not be stored (reason)
  } outcome = Miss;
  std::string reason;
};

struct CacheStats {
  std::string dir;
  size_t entries = 0;
  uint64_t bytes = 0;
  uint64_t max_bytes = 0;
};

namespace cache {
class Store;
}

// Compiled files kept in a directory across runs, one entry per source
// (keyed by the hash of its name, its bytes, the compile options and the
// compiler build), written atomically, safe with many processes and
// threads using one directory at once, bounded in size with least
// recently used entries evicted. A damaged or stale entry is never used:
// it is compiled again and replaced.
class Cache {
 public:
  explicit Cache(CacheOptions options = {});
  ~Cache();
  Cache(Cache&&) noexcept;
  Cache& operator=(Cache&&) noexcept;

  // The compiled [source]: from the cache when a valid entry is there,
  // else compiled now and stored. [status], if given, says which.
  CompiledFile load_or_compile(std::shared_ptr<const Source> source,
                               const CompileOptions& options = {},
                               CacheStatus* status = nullptr) const;

  const std::string& dir() const;
  CacheStats stats() const;
  // Removes every entry; returns how many.
  size_t clear() const;
  // Checks every entry's envelope (format, build, checksum); lists the
  // bad ones ("KEY: reason") and removes them.
  std::vector<std::string> verify() const;

  // The key of [source] under [options].
  static std::string key(const Source& source, const CompileOptions& options);

 private:
  std::unique_ptr<cache::Store> store_;
};

// Checks the envelope of [data] without its sources: magic, version,
// build and checksum; "" when sound, else why not.
std::string check_compiled(std::string_view data);

}  // namespace hclvm

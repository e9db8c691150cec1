// Compiled files: a configuration file parsed once and each attribute's
// expression compiled, with the file's attributes and blocks (names,
// labels, source spans) and what parsing reported. A CompiledFile
// evaluates exactly as the parsed file would, diagnostics included: the
// programs keep their source spans, and the source bytes give ranges and
// snippets. The cache (hclvm/cache.h) writes and reads them.
//
//   hclvm::CompiledFile f = hclvm::compile_file(hclvm::make_source("main.tf", bytes));
//   for (const auto& a : f.body.attributes) a.value(vm, &ctx);
#pragma once

#include <hclvm/ast.h>
#include <hclvm/body.h>
#include <hclvm/diagnostic.h>
#include <hclvm/eval.h>
#include <hclvm/json_program.h>
#include <hclvm/render.h>
#include <hclvm/syntax.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm {

namespace detail {
// A native program not decoded yet (a file read lazily from the cache,
// hclvm/cache.h, holds one per attribute).
class LazyProgram {
 public:
  virtual ~LazyProgram() = default;
  // The program, decoded and verified once (thread-safe); when that
  // fails, one compiled again from the source, with the reason in [*why].
  virtual std::shared_ptr<const Program> get(std::string* why) const = 0;
};
}  // namespace detail

// An attribute of a compiled body: its name and spans in the source, and
// its program (native syntax) or JSON program (JSON syntax).
struct CompiledAttribute {
  std::string name;
  ast::Span span, name_span, expr_span;
  // The native program; null in a file read lazily (ReadMode::Lazy) until
  // native_program() decodes it.
  std::shared_ptr<const Program> program;
  std::shared_ptr<const JsonProgram> json_program;
  std::shared_ptr<const detail::LazyProgram> lazy;
  Diagnostics diagnostics;  // what compiling the expression reported

  // The native program (decoded and verified on first use when read
  // lazily; thread-safe), or null for a JSON attribute. A lazily read
  // program that fails verification is compiled again from the source,
  // and [*why], if given, says what was wrong.
  std::shared_ptr<const Program> native_program(std::string* why = nullptr) const;
  // Evaluates the attribute's expression with [vm] in [ctx].
  EvalResult value(Vm& vm, const EvalContext* ctx) const;
};

struct CompiledBlock;

// A compiled body: its attributes and nested blocks in source order.
struct CompiledBody {
  std::vector<CompiledAttribute> attributes;
  std::vector<CompiledBlock> blocks;
  ast::Span span, end_span;
};

struct CompiledBlock {
  std::string type;
  std::vector<std::string> labels;
  ast::Span span, type_span;
  std::vector<ast::Span> label_spans;
  CompiledBody body;
};

// A configuration file, compiled. Immutable once made; shareable between
// threads like its programs.
struct CompiledFile {
  std::shared_ptr<const Source> source;
  Syntax syntax = Syntax::Native;
  // What parsing reported (an erroneous file compiles what it could).
  Diagnostics diagnostics;
  CompiledBody body;

  // The range of [span] in the source.
  Range range(ast::Span span) const { return source->range(span); }
  // The block context of byte [byte] for diagnostics: the header of the
  // top-level block holding it (`resource "a" "b"`), or "".
  std::string context(uint32_t byte) const;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

// [diags] as text (hclvm/render.h) for compiled file [file], whose snippets
// also name the block they are in (`in resource "a" "b":`).
std::string diagnostics_text(const Diagnostics& diags, const CompiledFile& file,
                             const TextOptions& options = {});
// The same text, handed to [out] piece by piece as it is made.
void write_diagnostics_text(const Diagnostics& diags, const CompiledFile& file,
                            const TextOptions& options,
                            const std::function<void(std::string_view)>& out);

// Parses and compiles [source] as a configuration file of [syntax].
CompiledFile compile_file(std::shared_ptr<const Source> source, Syntax syntax = Syntax::Native);

// Gives the expressions of [file] (a parse, hclvm/body.h) the programs of
// [compiled], compiled from the same source (compile_file, or a cache
// entry), so that evaluating them compiles nothing: each attribute's
// expression takes the program of the compiled attribute at the same
// place. Native syntax only; a JSON file is left to compile on use.
void adopt_programs(const ConfigFile& file, const CompiledFile& compiled);

}  // namespace hclvm

// Parsing the native syntax: configuration files, single expressions,
// standalone templates and traversals. Every entry point returns the tree
// (possibly partial) together with the diagnostics, exactly as the reference
// reports them; nothing here throws on bad input.
#pragma once

#include <hclvm/arena.h>
#include <hclvm/ast.h>
#include <hclvm/diagnostic.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm {

// A source file: its name, its bytes, and an index that turns byte offsets
// into reference positions. The index (line starts, and where tokens start
// next to non-ASCII bytes, since the reference counts columns token by
// token) is built on the first position asked for, so a parse without
// diagnostics never pays for it. Thread-safe.
class Source {
 public:
  Source(std::string name, std::string bytes);
  // A source whose first byte stands at [start] of a larger file, rather
  // than at line 1, column 1, byte 0: positions are counted from there, as
  // the reference's parsers do when given a start position (the templates
  // inside JSON strings).
  Source(std::string name, std::string bytes, Pos start);
  ~Source();

  const std::string& name() const { return name_; }
  std::string_view text() const { return bytes_; }
  // Where the first byte stands (1:1, byte 0 for a whole file).
  const Pos& start() const { return start_; }

  // Returns the position of byte offset [byte]: line, column in grapheme
  // clusters (a leading BOM counts as bytes but not as a column).
  Pos pos(uint32_t byte) const;
  Range range(ast::Span span) const;

  // Marks the file as a standalone template, whose tokens (and so columns)
  // differ from a configuration's. The template parser calls it.
  void scan_as_template() const { template_ = true; }

 private:
  struct Index;
  const Index& index() const;
  // Returns position [p] of the bytes as counted from start_ (no change at 1:1, byte 0).
  Pos shifted(Pos p) const;

  std::string name_;
  std::string bytes_;
  uint64_t id_;  // identifies the Source in per-thread position caches
  uint32_t bom_ = 0;
  Pos start_;
  mutable std::atomic<bool> template_{false};
  mutable std::atomic<const Index*> index_{nullptr};
  mutable std::mutex index_mu_;
};

// What every parse returns: the source, the arena that owns the tree, and
// the diagnostics.
struct ParseResult {
  std::shared_ptr<const Source> source;
  std::unique_ptr<Arena> arena;
  Diagnostics diagnostics;
  bool has_errors() const { return hclvm::has_errors(diagnostics); }
};

struct FileParse : ParseResult {
  const ast::Body* body = nullptr;
};

struct ExprParse : ParseResult {
  const ast::Expr* expr = nullptr;
};

struct TraversalParse : ParseResult {
  ast::List<ast::Traverser> traversal;
};

// How deep expressions (and blocks) may nest: a parse reports "Nesting too
// deep" beyond, and the attribute or expression at fault becomes a
// placeholder (a block loses its body), so that no later pass over the
// tree recurses deeper. The reference has no such limit but its parser's
// stack runs out near 100,000 levels; its JSON decoder (jsondecode) stops
// at 10,000 as this does.
inline constexpr uint32_t kMaxNesting = 10000;

// Parses [src] as a configuration file (a body).
FileParse parse_config(std::shared_ptr<const Source> src);
// Parses [src] as one expression, with nothing after it.
ExprParse parse_expression(std::shared_ptr<const Source> src);
// Parses [src] as a standalone template (no quotes around it).
ExprParse parse_template(std::shared_ptr<const Source> src);
// Parses [src] as an absolute traversal: a root name, then attribute and
// constant index steps (`a.b[0]["c"]`).
TraversalParse parse_traversal_abs(std::shared_ptr<const Source> src);
// Parses [src] as a relative traversal: steps only (`.b[0]`, `[1].c`).
TraversalParse parse_traversal_rel(std::shared_ptr<const Source> src);

// Convenience: wraps [bytes] named [name] in a Source.
// Reports whether [s] is an identifier of the native syntax
// (hclsyntax.ValidIdentifier).
bool valid_identifier(std::string_view s);

std::shared_ptr<const Source> make_source(std::string name, std::string bytes);
// Convenience: wraps [bytes] named [name], starting at [start], in a Source.
std::shared_ptr<const Source> make_source(std::string name, std::string bytes, Pos start);

}  // namespace hclvm

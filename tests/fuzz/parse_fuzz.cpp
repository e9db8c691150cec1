// libFuzzer target for the native-syntax parsers. The first byte of the
// input picks the entry point (config, expression, template, traversal) and
// the rest is the source, so one corpus explores all of them; seeds/parse/
// holds small starting inputs whose first byte makes that choice ('0'
// config, '1' expression, '2' template, '3' traversal: the byte modulo 4). The property
// checked is the API's promise: any bytes give a tree and diagnostics, never
// a crash, a hang, a sanitizer report or an exception. And the two parsers
// agree: whenever the Bison fast path accepts the input, the recovering
// parser accepts it too and builds the same tree, spans included (the fast
// path is the accepted language, the recovering parser the reference's
// decisions; see docs/design.md). And no tree nests deeper than the bytes
// it spans allow (syntax/nesting.h: the nesting limit counts on it).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target parse_fuzz
//   mkdir -p /tmp/fuzz-corpus
//   build/fuzz/tests/fuzz/parse_fuzz /tmp/fuzz-corpus tests/fuzz/seeds/parse -max_len=4096
//
// scripts/fuzz-smoke.sh runs every target this way for a fixed time (CI).
#include <hclvm/syntax.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "syntax/dump.h"
#include "syntax/nesting.h"
#include "syntax/parse.h"

namespace {

using hclvm::syntax::Path;

// Traps unless the fast path's answer for [src] (made by [parse]) and the
// recovering parser's are the same tree, when the fast path accepted it.
template <class Parse, class Dump>
void check_paths_agree(const std::shared_ptr<const hclvm::Source>& src, Parse parse, Dump dump) {
  auto fast = parse(src, Path::Fast);
  if (fast.has_errors() || !dump(fast)) return;
  auto slow = parse(src, Path::Recover);
  if (slow.has_errors() || !dump(slow) || *dump(fast) != *dump(slow)) __builtin_trap();
}

// Traps when [e] nests deeper than kNestingSlack levels beyond its bytes.
void check_depth(const hclvm::ast::Expr* e) {
  if (e == nullptr) return;
  if (hclvm::syntax::depth(*e) > e->span.end - e->span.begin + hclvm::syntax::kNestingSlack)
    __builtin_trap();
}

void check_depths(const hclvm::ast::Body* b) {
  if (b == nullptr) return;
  for (const hclvm::ast::Attribute* a : b->attributes) check_depth(a->expr);
  for (const hclvm::ast::Block* blk : b->blocks) check_depths(blk->body);
}

}  // namespace

// Parses [data] (of [size] bytes) with the entry point its first byte selects.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  auto src = hclvm::make_source("fuzz.hcl", std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  // A diagnostic must always come with a coherent subject range, so read it.
  const size_t len = size - 1;
  auto check = [len](const hclvm::Diagnostics& diags) {
    for (const auto& d : diags) {
      if (!d.subject) continue;
      if (d.subject->end.byte < d.subject->start.byte || d.subject->end.byte > len) __builtin_trap();
    }
  };
  auto body = [](const hclvm::FileParse& r) -> std::optional<std::string> {
    if (r.body == nullptr) return std::nullopt;
    return hclvm::syntax::dump_body(*r.body, *r.source);
  };
  auto expr = [](const hclvm::ExprParse& r) -> std::optional<std::string> {
    if (r.expr == nullptr) return std::nullopt;
    return hclvm::syntax::dump_expr(*r.expr, *r.source);
  };
  switch (data[0] % 4) {
    case 0: {
      hclvm::FileParse f = hclvm::parse_config(src);
      check(f.diagnostics);
      check_depths(f.body);
      check_paths_agree(src, hclvm::syntax::parse_config_via, body);
      break;
    }
    case 1: {
      hclvm::ExprParse e = hclvm::parse_expression(src);
      check(e.diagnostics);
      check_depth(e.expr);
      check_paths_agree(src, hclvm::syntax::parse_expression_via, expr);
      break;
    }
    case 2: {
      hclvm::ExprParse t = hclvm::parse_template(src);
      check(t.diagnostics);
      check_depth(t.expr);
      check_paths_agree(src, hclvm::syntax::parse_template_via, expr);
      break;
    }
    case 3: check(hclvm::parse_traversal_abs(src).diagnostics); break;
  }
  return 0;
}

// libFuzzer target for the format layer (include/hclvm/format.h). For any
// bytes:
//  - the lossless tree prints them back byte for byte, its root covers
//    every token, and its children's runs nest in order (only a body may
//    be empty);
//  - hclfmt's layout is idempotent: laying out its own output changes
//    nothing;
//  - the layout keeps the meaning: when the input parses without errors
//    and its laid-out text scans to the same tokens, both parse to the same
//    tree (ranges aside). Where the tokens differ, the reference's layout
//    itself joined tokens (`1 . 5` becomes `1.5`), which hclvm reproduces;
//  - terraform fmt's style never fails on a file that parses, and is
//    idempotent whenever its output parses;
//  - an edit (removing the first item of the file) either is refused or
//    leaves a file that parses as well as before.
// Seeds: tests/fuzz/seeds/fmt/.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target fmt_fuzz
//   build/fuzz/tests/fuzz/fmt_fuzz /tmp/fmt-corpus tests/fuzz/seeds/fmt -max_len=8192
#include <hclvm/format.h>

#include "syntax/dump.h"
#include "syntax/token.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

using hclvm::format::kNoNode;
using hclvm::format::NodeId;
using hclvm::format::NodeKind;
using hclvm::format::Tree;

// Returns [dump] with every range (`L:C-L:C`) replaced by `R`.
std::string strip_ranges(const std::string& dump) {
  std::string out;
  for (size_t i = 0; i < dump.size();) {
    size_t j = i, parts = 0;
    while (parts < 4) {
      size_t k = j;
      while (k < dump.size() && std::isdigit(static_cast<unsigned char>(dump[k]))) ++k;
      if (k == j) break;
      ++parts;
      j = k;
      char want = parts == 1 || parts == 3 ? ':' : parts == 2 ? '-' : '\0';
      if (parts < 4) {
        if (j >= dump.size() || dump[j] != want) break;
        ++j;
      }
    }
    if (parts == 4) {
      out += 'R';
      i = j;
    } else {
      out += dump[i++];
    }
  }
  return out;
}

// Returns the tree dump of [text] without ranges, or "" when it has errors.
std::string meaning(const std::string& text) {
  auto p = hclvm::parse_config(hclvm::make_source("m.hcl", text));
  if (p.has_errors() || !p.body) return {};
  return strip_ranges(hclvm::syntax::dump_body(*p.body, *p.source));
}

// Reports whether [a] and [b] scan to the same tokens (kinds and bytes).
bool same_tokens(const std::string& a, const std::string& b) {
  auto ta = hclvm::syntax::scan(a, hclvm::syntax::ScanMode::Normal);
  auto tb = hclvm::syntax::scan(b, hclvm::syntax::ScanMode::Normal);
  if (ta.size() != tb.size()) return false;
  for (size_t i = 0; i < ta.size(); ++i) {
    if (ta[i].type != tb[i].type) return false;
    auto sa = std::string_view(a).substr(ta[i].span.begin, ta[i].span.end - ta[i].span.begin);
    auto sb = std::string_view(b).substr(tb[i].span.begin, tb[i].span.end - tb[i].span.begin);
    if (sa != sb) return false;
  }
  return true;
}

// Traps unless [t]'s runs nest: each child inside its parent, after the
// sibling before it, not empty unless it is a body.
void check_shape(const Tree& t) {
  if (t[t.root()].first_token != 0 || t[t.root()].end_token != t.token_count()) __builtin_trap();
  for (NodeId id = 0; id < t.size(); ++id) {
    uint32_t prev = t[id].first_token;
    for (NodeId c = t[id].first_child; c != kNoNode; c = t[c].next_sibling) {
      if (t[c].first_token < prev || t[c].end_token > t[id].end_token) __builtin_trap();
      if (t[c].first_token == t[c].end_token && t[c].kind != NodeKind::Body) __builtin_trap();
      if (t[c].parent != id) __builtin_trap();
      prev = t[c].end_token;
    }
  }
}

}  // namespace

// Checks the properties above on [data] (of [size] bytes).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  Tree t(hclvm::make_source("fuzz.hcl", text));
  if (t.print() != text) __builtin_trap();
  check_shape(t);

  // Formatting a file with errors must not crash; idempotence holds for
  // valid files only (hclfmt itself respaces invalid bytes on a second
  // pass: format_test's InvalidBytesAsHclfmtSpacesThem).
  std::string once = hclvm::format::format_hcl(text);
  if (hclvm::has_errors(t.diagnostics())) return 0;
  if (hclvm::format::format_hcl(once) != once) __builtin_trap();
  if (same_tokens(text, once) && meaning(once) != meaning(text)) __builtin_trap();

  auto tf = hclvm::format::format_file(hclvm::make_source("fuzz.tf", text), hclvm::format::Style::Terraform);
  if (tf.has_errors()) __builtin_trap();
  auto again = hclvm::format::format_file(hclvm::make_source("fuzz.tf", tf.text), hclvm::format::Style::Terraform);
  if (!again.has_errors() && again.text != tf.text) __builtin_trap();

  // Remove the first attribute or block the root names directly.
  std::vector<NodeId> items = t.children(t.root());
  if (!items.empty() && t[items[0]].kind == NodeKind::Attribute) {
    hclvm::format::Document doc("fuzz.hcl", text);
    std::string name(t.name(items[0]));
    if (doc.remove("\"" + name + "\"").empty() && hclvm::has_errors(doc.diagnostics())) __builtin_trap();
  }
  return 0;
}

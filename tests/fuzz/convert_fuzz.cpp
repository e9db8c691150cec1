// libFuzzer target for the convert layer (include/hclvm/convert.h). For any
// bytes:
//  - a file with syntax errors gives its diagnostics and no document;
//  - otherwise its jsonsyntax document (unless the file holds bytes that
//    are not UTF-8 in what it must write, and is refused) parses as the JSON syntax without
//    errors, and each top-level attribute read from it evaluates (with an
//    empty context: variables and functions unknown) to the same value,
//    or the same first error, as the native attribute. An object with a
//    traversal as a key is left out: it is an error as a value, and the
//    conversion writes what Terraform reads from it statically;
//  - the hcl2json shape either refuses the file or gives a JSON document,
//    and the tree as JSON is a JSON document.
// Seeds: tests/fuzz/seeds/parse/ (native files).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target convert_fuzz
//   build/fuzz/tests/fuzz/convert_fuzz /tmp/convert-corpus tests/fuzz/seeds/parse -max_len=4096
#include <hclvm/convert.h>
#include <hclvm/eval.h>
#include <hclvm/json_program.h>

#include "value/ops.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Stops the run with [what] when [ok] is false.
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "convert_fuzz: %s\n", what);
    std::abort();
  }
}

// Returns the summary of the first error of [d], or "".
std::string first_error(const hclvm::Diagnostics& d) {
  for (const auto& x : d)
    if (x.severity == hclvm::Severity::Error) return x.summary;
  return "";
}

// Returns the first property named [name] of the root [root] (an object,
// or an array of objects), or null.
const hclvm::json::Node* property(const hclvm::json::Node& root, std::string_view name) {
  using namespace hclvm::json;
  auto in_object = [&](const Node& n) -> const Node* {
    if (n.kind != NodeKind::Object) return nullptr;
    for (const Property& p : as<ObjectNode>(n).properties)
      if (p.name->value == name) return p.value;
    return nullptr;
  };
  if (root.kind == NodeKind::Array) {
    for (const Node* item : as<ArrayNode>(root).items)
      if (const Node* v = in_object(*item)) return v;
    return nullptr;
  }
  return in_object(root);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto file = hclvm::parse_config(hclvm::make_source("f.hcl", text));
  hclvm::convert::Result r = hclvm::convert::native_to_json("f.hcl", text);
  if (file.has_errors()) {
    require(!r.ok() && r.text.empty() && !r.diagnostics.empty(), "a file with errors gave a document");
    return 0;
  }
  require(r.ok() || !r.error.empty(), "a file without errors gave no document and no reason");
  if (!r.ok()) return 0;  // bytes that are not UTF-8, which JSON cannot hold
  auto doc = hclvm::parse_json_config(hclvm::make_source("f.json", r.text));
  require(!doc.has_errors(), "the jsonsyntax document does not parse");

  hclvm::Vm vm;
  hclvm::EvalContext ctx;
  for (const hclvm::ast::Attribute* a : file.body->attributes) {
    auto native = hclvm::compile_expression(*a->expr, file.source);
    if (!native.program) continue;
    hclvm::EvalResult want = vm.run(*native.program, ctx);
    // Errors found by folding constants at compile time come first.
    std::string want_error = first_error(native.diagnostics);
    if (want_error.empty()) want_error = first_error(want.diagnostics);
    if (want_error == "Ambiguous attribute key") continue;
    const hclvm::json::Node* node = property(*doc.root, a->name);
    require(node != nullptr, "an attribute is missing from the document");
    auto converted = hclvm::compile_json_expression(*node, doc.source);
    require(converted.program != nullptr, "a converted attribute does not compile");
    hclvm::EvalResult got = hclvm::run_json(vm, *converted.program, &ctx);
    std::string got_error = first_error(converted.diagnostics);
    if (got_error.empty()) got_error = first_error(got.diagnostics);
    require(want_error == got_error, "a converted attribute gives another error");
    if (want_error.empty()) require(hclvm::ops::raw_equal(want.value, got.value), "a converted attribute gives another value");
  }

  hclvm::convert::JsonOptions h2j;
  h2j.shape = hclvm::convert::Shape::Hcl2Json;
  hclvm::convert::Result h = hclvm::convert::native_to_json("f.hcl", text, h2j);
  if (h.ok()) {
    auto j = hclvm::parse_json_expression(hclvm::make_source("h.json", h.text));
    require(!j.has_errors(), "the hcl2json document is not JSON");
  }
  std::string tree = hclvm::convert::ast_body_json(*file.body, *file.source);
  require(!hclvm::parse_json_expression(hclvm::make_source("t.json", tree)).has_errors(),
          "the tree is not JSON");
  return 0;
}

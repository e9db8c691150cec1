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
//  - the document with comments, converted back to the native syntax with
//    the file's own block layout, parses, and its top-level attributes
//    give the same values or first errors;
//  - the input read as a JSON-syntax file converts back to native text
//    that parses, or gives the reasons it cannot;
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
#include <string_view>
#include <utility>

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

// Returns the attribute named [name] of [body], or null.
const hclvm::ast::Attribute* attribute(const hclvm::ast::Body& body, std::string_view name) {
  for (const hclvm::ast::Attribute* a : body.attributes)
    if (a->name == name) return a;
  return nullptr;
}

// The first error of compiling and running [e] of [src], or its value.
std::pair<std::string, hclvm::Value> run(hclvm::Vm& vm, const hclvm::ast::Expr& e,
                                         const std::shared_ptr<const hclvm::Source>& src) {
  hclvm::EvalContext ctx;
  auto p = hclvm::compile_expression(e, src);
  if (!p.program) return {first_error(p.diagnostics), hclvm::Value()};
  hclvm::EvalResult r = vm.run(*p.program, ctx);
  std::string err = first_error(p.diagnostics);
  if (err.empty()) err = first_error(r.diagnostics);
  return {err, r.value};
}

// The input read as a JSON-syntax file converted to native text: no
// crash, and text only when it parses (json_to_native checks it, and says
// so with an error otherwise).
void json_input(const std::string& text) {
  hclvm::convert::Result back = hclvm::convert::json_to_native("f.json", text);
  if (!back.ok()) {
    require(back.text.empty() && !back.diagnostics.empty(), "a failed conversion back gave text or no reason");
    return;
  }
  for (const auto& d : back.diagnostics)
    require(d.summary != "Conversion failed", "the native text written does not parse");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  json_input(text);
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
  // Back to the native syntax with the file's own layout (comments kept
  // as "//" on the way): converts (or reports what the native syntax
  // cannot hold), and each top-level attribute that is still one gives
  // the same value or first error.
  hclvm::convert::JsonOptions with_comments;
  with_comments.comments = true;
  hclvm::convert::Result c = hclvm::convert::native_to_json("f.hcl", text, with_comments);
  require(c.ok(), "the document with comments failed where the one without did not");
  hclvm::convert::Result back = hclvm::convert::json_to_native("f.json", c.text, hclvm::convert::layout_of(*file.body));
  if (back.ok()) {
    auto again = hclvm::parse_config(hclvm::make_source("b.hcl", back.text));
    require(!again.has_errors(), "the native text written back does not parse");
    for (const hclvm::ast::Attribute* a : file.body->attributes) {
      const hclvm::ast::Attribute* b = attribute(*again.body, a->name);
      if (b == nullptr) continue;  // a name that is a block type too: no layout tells them apart
      auto want = run(vm, *a->expr, file.source);
      if (want.first == "Ambiguous attribute key") continue;
      auto got = run(vm, *b->expr, again.source);
      require(want.first == got.first, "an attribute written back gives another error");
      if (want.first.empty()) require(hclvm::ops::raw_equal(want.second, got.second), "an attribute written back gives another value");
    }
  } else {
    require(back.text.empty() && !back.diagnostics.empty(), "a failed conversion back gave text or no reason");
  }

  std::string tree = hclvm::convert::ast_body_json(*file.body, *file.source);
  require(!hclvm::parse_json_expression(hclvm::make_source("t.json", tree)).has_errors(),
          "the tree is not JSON");
  return 0;
}

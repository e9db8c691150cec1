// libFuzzer target for reading compiled files (hclvm/cache.h). A file
// written by someone else can say anything, so read_compiled promises to
// refuse, with a reason, whatever it cannot prove safe; what it accepts
// must evaluate, render its diagnostics and be written again without a
// crash, a hang, a sanitizer report or an exception.
//
// Random bytes would all stop at the checksum, so the input stands for the
// body of a compiled file (what lies between the 48-byte header and the
// 16-byte checksum) and the target builds the envelope around it. At
// startup it compiles three small configurations (for expressions,
// templates, conditionals, calls, splats, blocks, heredocs, diagnostics)
// and writes each, without its source. The first input byte picks the
// configuration (its low two bits, modulo 3) and how the rest is used:
// bit 2 clear, the rest is the new body; set, the rest is XORed into the
// valid body from its start (so zeros give the valid file back). The
// target then puts the valid header before the body, computes the
// checksum, reads the result with the configuration's source (eagerly, and
// again lazily) and, for each reading that loads, evaluates every attribute with a small context (the standard
// functions without impure or filesystem ones, a few variables), renders
// every diagnostic with its snippet, and checks that the loaded file
// writes and reads back.
//
// Seeds: with HCLVM_CACHE_FUZZ_SEEDS=DIR the target first writes the
// valid bodies (both modes, each configuration) into DIR, so that they
// always match this build's format:
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target cache_fuzz
//   mkdir -p /tmp/cache-corpus
//   HCLVM_CACHE_FUZZ_SEEDS=/tmp/cache-corpus build/fuzz/tests/fuzz/cache_fuzz /tmp/cache-corpus \
//       -max_len=65536 -timeout=10
#include <hclvm/cache.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/syntax.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/codec.h"
#include "diag/render.h"

namespace {

constexpr size_t kHeaderSize = 48;
constexpr size_t kTrailerSize = 16;
constexpr uint8_t kXorMode = 4;

// The configurations compiled at startup: between them, every kind of
// expression and the diagnostics a file keeps (parse and compile errors).
const char* const kConfigs[] = {
    R"~(a = [for i, x in var.tags : { k = x, n = i * 2 } if i < 10]
b = "%{ for t in var.tags }${t}%{ endfor }${var.name}"
c = try(var.missing, length(var.tags) > 0 ? var.tags[*] : [])
d = { for k, v in local.m : k => v... }
e = var.list[*].id
f = upper(var.name) == "WEB" ? 1.5 : -2
g = format("%s-%d", var.name, var.count)
)~",
    R"~(resource "aws_instance" "web" {
  ami   = "ami-${var.name}"
  count = var.count + undefined_function(1)
  tags = {
    Name       = "web"
    (var.name) = 1
  }
  nested "x" { deep = [1, 2][5] }
  text = <<-EOT
    heredoc ${var.count}
    %{ if var.count > 2 }big%{ else }small%{ endif }
  EOT
}
module "m" { source = "./m" }
)~",
    R"~(n = 18446744073709551616 / 3
s = "esc \" \\ \u00e9 $${x} %%{y}"
j = jsondecode("{\"a\": [1, true, null]}").a[0]
r = regex("(\\d+)", "ab12")
z = [for o in var.list : o.id if o.id != null][0]
t = tostring(var.count)...
bad = (
)~",
};
constexpr int kNumConfigs = sizeof kConfigs / sizeof kConfigs[0];

// One configuration: its source and its valid compiled file.
struct Fixture {
  std::shared_ptr<const hclvm::Source> source;
  std::string file;  // header, body, checksum
  std::string_view header() const { return std::string_view(file).substr(0, kHeaderSize); }
  std::string_view body() const {
    return std::string_view(file).substr(kHeaderSize, file.size() - kHeaderSize - kTrailerSize);
  }
};

std::vector<Fixture> make_fixtures() {
  std::vector<Fixture> out;
  for (int i = 0; i < kNumConfigs; ++i) {
    Fixture f;
    hclvm::CompiledFile c =
        hclvm::compile_file(hclvm::make_source("main" + std::to_string(i) + ".tf", kConfigs[i]));
    f.source = c.source;
    std::optional<std::string> w = hclvm::write_compiled({&c}, {}, false);
    if (!w || !hclvm::read_compiled(*w, {f.source}).ok()) __builtin_trap();
    f.file = std::move(*w);
    out.push_back(std::move(f));
  }
  return out;
}

const std::vector<Fixture>& fixtures() {
  static const std::vector<Fixture> f = make_fixtures();
  return f;
}

const hclvm::EvalContext& context() {
  static const hclvm::EvalContext ctx = [] {
    hclvm::EvalContext c;
    hclvm::LibraryOptions o;
    o.impure = false;  // no base_dir: no filesystem functions either
    c.set_functions(std::make_shared<hclvm::FunctionTable>(hclvm::standard_functions(o)));
    using hclvm::Type;
    using hclvm::Value;
    Value tags = Value::list(Type::string(), {Value::string("a"), Value::string("b")});
    Value list = Value::tuple({Value::object({{"id", Value::integer(1)}}),
                               Value::object({{"id", Value::null(Type::number())}})});
    c.set("var", Value::object({{"name", Value::string("web")},
                                {"count", Value::integer(3)},
                                {"tags", tags},
                                {"list", list}}));
    Value m = Value::object({{"x", Value::integer(1)}, {"y", Value::string("two")}});
    c.set("local", Value::object({{"m", m}}));
    return c;
  }();
  return ctx;
}

// Evaluates every attribute of [f] and renders every diagnostic.
void exercise(const hclvm::CompiledFile& f) {
  hclvm::diag::SnippetFiles files;
  files.emplace(f.source->name(), hclvm::diag::SnippetFile{
                                      f.source->text(), [&f](uint32_t b) { return f.context(b); }});
  std::string out = hclvm::diag::render_text(f.diagnostics, files, {80, false});
  out += hclvm::diag::render_json(f.diagnostics);
  hclvm::Vm vm;
  std::vector<const hclvm::CompiledBody*> todo = {&f.body};
  while (!todo.empty()) {
    const hclvm::CompiledBody* b = todo.back();
    todo.pop_back();
    for (const hclvm::CompiledAttribute& a : b->attributes) {
      hclvm::EvalResult r = a.value(vm, &context());
      out += hclvm::diag::render_text(r.diagnostics, files, {80, false});
      out += hclvm::diag::render_json(r.diagnostics);
      (void)f.range(a.span);
    }
    for (const hclvm::CompiledBlock& blk : b->blocks) todo.push_back(&blk.body);
  }
  // A file that was accepted writes and reads back.
  std::optional<std::string> again = hclvm::write_compiled({&f}, {}, false);
  if (again && !hclvm::read_compiled(*again, {f.source}).ok()) __builtin_trap();
}

// Writes the seed inputs into [dir]: for each configuration, its valid body
// (replace mode) and a zero mask (XOR mode).
void write_seeds(const std::string& dir) {
  for (int i = 0; i < kNumConfigs; ++i) {
    const Fixture& f = fixtures()[size_t(i)];
    std::string replace(1, char(i));
    replace += f.body();
    std::string mask(1, char(i | kXorMode));
    mask += std::string(f.body().size(), '\0');
    int n = 0;
    for (const std::string* s : {&replace, &mask}) {
      std::ofstream out(dir + "/seed-" + std::to_string(i) + "-" + std::to_string(n++),
                        std::ios::binary);
      out << *s;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("HCLVM_CACHE_FUZZ_SEEDS")) write_seeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Fixture& fx = fixtures()[(data[0] & 3) % kNumConfigs];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string file(fx.header());
  if (data[0] & kXorMode) {
    std::string body(fx.body());
    for (size_t i = 0; i < rest.size() && i < body.size(); ++i) body[i] ^= rest[i];
    file += body;
  } else {
    file += rest;
  }
  file += hclvm::cache::hash128(file);
  hclvm::LoadResult r = hclvm::read_compiled(file, {fx.source});
  if (r.ok())
    for (const hclvm::CompiledFile& f : r.files) exercise(f);
  // Read lazily (as the cache reads), programs are checked on first use
  // and compiled again from the source when they fail.
  hclvm::LoadResult lazy = hclvm::read_compiled(file, {fx.source}, nullptr, hclvm::ReadMode::Lazy);
  if (lazy.ok())
    for (const hclvm::CompiledFile& f : lazy.files) exercise(f);
  return 0;
}

// Tests of compiled files and their on-disk format (hclvm/cache.h): a file
// written and read back evaluates exactly as the freshly compiled one,
// values and diagnostics alike, over small cases and the whole reference
// corpus; every compiled program passes the verifier; and damaged,
// truncated, stale or hostile data is refused (or, when a change is
// harmless, still verified) without a crash.
#include <gtest/gtest.h>

#include <hclvm/cache.h>
#include <hclvm/functions.h>

#include <random>
#include <string>
#include <vector>

#include "cache/codec.h"
#include "cache/program_codec.h"
#include "diag/render.h"
#include "test_util.h"
#include "value/json.h"
#include "vm/program.h"

namespace hclvm {
namespace {

namespace fs = std::filesystem;

// The context the round-trip evaluations use: the standard functions
// without impure ones (both runs must agree), a few variables.
const EvalContext& context() {
  static const EvalContext ctx = [] {
    EvalContext c;
    LibraryOptions o;
    o.impure = false;
    c.set_functions(std::make_shared<FunctionTable>(standard_functions(o)));
    c.set("var", Value::object({{"name", Value::string("web")},
                                {"count", Value::integer(3)},
                                {"tags", Value::list(Type::string(), {Value::string("a")})}}));
    c.set("local", Value::object({{"env", Value::string("prod")}}));
    return c;
  }();
  return ctx;
}

// Everything evaluating the attributes of [f] gives: values and rendered
// diagnostics, one line each.
std::string evaluate_all(const CompiledFile& f) {
  diag::SnippetFiles files;
  files.emplace(f.source->name(),
                diag::SnippetFile{f.source->text(), [&f](uint32_t b) { return f.context(b); }});
  std::string out = diag::render_text(f.diagnostics, files, {});
  Vm vm;
  std::vector<std::pair<std::string, const CompiledBody*>> todo = {{"", &f.body}};
  while (!todo.empty()) {
    auto [prefix, b] = todo.back();
    todo.pop_back();
    for (const CompiledAttribute& a : b->attributes) {
      EvalResult r = a.value(vm, &context());
      JsonResult<std::string> j = to_json_typed(r.value);
      out += prefix + a.name + " = " + (j.ok() ? j.value : "<" + j.error->message + ">") + "\n";
      out += diag::render_text(r.diagnostics, files, {});
    }
    for (const CompiledBlock& blk : b->blocks) {
      std::string p = prefix + blk.type + ".";
      for (const std::string& l : blk.labels) p += l + ".";
      todo.emplace_back(p, &blk.body);
    }
  }
  return out;
}

// Compiles [text] as [name], writes it (without its source) and reads it
// back; fails the test when either step fails.
struct RoundTrip {
  CompiledFile fresh;
  std::string bytes;
  LoadResult back;
};
RoundTrip round_trip(const std::string& name, std::string text) {
  RoundTrip rt;
  rt.fresh = compile_file(make_source(name, std::move(text)));
  std::string why;
  std::optional<std::string> w = write_compiled({&rt.fresh}, CompileOptions{}, false, &why);
  EXPECT_TRUE(w.has_value()) << why;
  if (w) rt.bytes = *w;
  rt.back = read_compiled(rt.bytes, {rt.fresh.source});
  return rt;
}

TEST(CacheTest, RoundTripEvaluatesAlike) {
  const char* const files[] = {
      R"~(a = 1
b = "x${var.name}y"
c = [for i, t in var.tags : "${i}:${upper(t)}" if t != ""]
d = { for k, v in { x = 1, y = 2 } : k => v * 2... }
e = var.missing
f = local.env == "prod" ? 1.5e300 * 10 : null
g = try(var.nope.deeper, "fallback")
h = jsonencode({ list = [1, 2.25, true, null], s = "\u00e9" })
i = 1 / 3
j = -0.0
k = 18446744073709551616
l = [1, "two", { three = 3 }]
m = var.tags[*].x
n = regex("(\\d+)", "ab12")
o = <<EOT
  heredoc ${var.count}
  %{ for x in [1, 2] }${x}%{ endfor }
EOT
)~",
      R"~(resource "aws_instance" "web" {
  ami   = "ami-${var.name}"
  count = var.count + undefined_function(1)
  tags = {
    Name = "web"
    (var.name) = 1
  }
  nested "x" { deep = [1, 2][5] }
}
module "m" { source = "./m" }
)~",
      "a = \n",  // a parse error: what parsed is still compiled
  };
  for (const char* text : files) {
    SCOPED_TRACE(text);
    RoundTrip rt = round_trip("main.tf", text);
    ASSERT_TRUE(rt.back.ok()) << rt.back.error;
    ASSERT_EQ(rt.back.files.size(), 1u);
    EXPECT_EQ(evaluate_all(rt.back.files[0]), evaluate_all(rt.fresh));
    // Read lazily (programs decoded on first use), it evaluates alike too.
    LoadResult lazy = read_compiled(rt.bytes, {rt.fresh.source}, nullptr, ReadMode::Lazy);
    ASSERT_TRUE(lazy.ok()) << lazy.error;
    EXPECT_EQ(evaluate_all(lazy.files[0]), evaluate_all(rt.fresh));
    // Written again, the loaded file gives the same bytes.
    std::optional<std::string> again = write_compiled({&rt.back.files[0]}, CompileOptions{}, false);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(*again, rt.bytes);
  }
}

TEST(CacheTest, JsonFilesRoundTrip) {
  const char* const docs[] = {
      R"({"a": 1, "b": "x${var.name}", "c": {"d": ["%{ if var.count > 1 }many%{ endif }", null]},
          "e": "${nope}", "f": "${", "g": {"${var.name}": true, "k": "$${literal}"}})",
      R"({"dup": {"x": 1, "x": 2}, "t": [[[["${upper(var.name)}"]]]]})",
      R"([1, 2])",
  };
  for (const char* text : docs) {
    SCOPED_TRACE(text);
    CompiledFile fresh = compile_file(make_source("main.tf.json", text), Syntax::Json);
    std::string why;
    std::optional<std::string> w = write_compiled({&fresh}, CompileOptions{Syntax::Json}, false, &why);
    ASSERT_TRUE(w.has_value()) << why;
    CompileOptions o{Syntax::Json};
    LoadResult back = read_compiled(*w, {fresh.source}, &o);
    ASSERT_TRUE(back.ok()) << back.error;
    EXPECT_EQ(evaluate_all(back.files[0]), evaluate_all(fresh));
    EXPECT_EQ(back.files[0].syntax, Syntax::Json);
    // Native options do not load a JSON entry.
    CompileOptions native;
    EXPECT_EQ(read_compiled(*w, {fresh.source}, &native).error, "compiled with other options");
  }
}

// Found by the fuzzer: a diagnostic range beyond the source made the
// snippet renderer throw; such a file is refused.
TEST(CacheTest, DiagnosticRangesOutsideTheSourceAreRefused) {
  CompiledFile f = compile_file(make_source("main.tf", "a = \n"));
  ASSERT_TRUE(f.has_errors());
  f.diagnostics[0].subject->end.byte = 4309;
  std::optional<std::string> w = write_compiled({&f}, CompileOptions{}, false);
  ASSERT_TRUE(w.has_value());
  LoadResult r = read_compiled(*w, {f.source});
  EXPECT_NE(r.error.find("main.tf: range outside the source"), std::string::npos) << r.error;
  // And the renderer shows such a range without throwing.
  Diagnostic d = f.diagnostics[0];
  d.subject->start.byte = 4309;
  d.subject->end.byte = 2;
  diag::SnippetFiles files;
  files.emplace("main.tf", diag::SnippetFile{f.source->text(), {}});
  EXPECT_NE(diag::render_text({d}, files, {}).find("on main.tf line 1"), std::string::npos);
}

TEST(CacheTest, EmbeddedSourcesNeedNothingElse) {
  CompiledFile a = compile_file(make_source("a.tf", "x = 1 + 2\n"));
  CompiledFile b = compile_file(make_source("b.hcl", "block \"l\" {\n  y = \"${x}\"\n}\n"));
  std::optional<std::string> w = write_compiled({&a, &b}, CompileOptions{}, true);
  ASSERT_TRUE(w.has_value());
  LoadResult r = read_compiled(*w);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_EQ(r.files[0].source->name(), "a.tf");
  EXPECT_EQ(evaluate_all(r.files[0]), evaluate_all(a));
  EXPECT_EQ(evaluate_all(r.files[1]), evaluate_all(b));
  EXPECT_NE(evaluate_all(r.files[1]).find("Unknown variable"), std::string::npos);
}

TEST(CacheTest, StaleDataIsRefusedWithAReason) {
  RoundTrip rt = round_trip("main.tf", "a = 1\n");
  ASSERT_TRUE(rt.back.ok());
  // Another source under the same name.
  LoadResult r = read_compiled(rt.bytes, {make_source("main.tf", "a = 2\n")});
  EXPECT_EQ(r.error, "main.tf: source changed since it was compiled");
  r = read_compiled(rt.bytes, {});
  EXPECT_EQ(r.error, "main.tf: source not given");
  // Other options.
  CompileOptions other;
  other.functions_signature = 42;
  r = read_compiled(rt.bytes, {rt.fresh.source}, &other);
  EXPECT_EQ(r.error, "compiled with other options");
  // Another format version (the checksum is checked after the version).
  std::string v2 = rt.bytes;
  v2[8] = 2;
  EXPECT_EQ(read_compiled(v2, {rt.fresh.source}).error, "format version 2, this build reads 1");
  std::string build = rt.bytes;
  build[16] ^= 1;
  EXPECT_EQ(read_compiled(build, {rt.fresh.source}).error, "written by another compiler build");
  EXPECT_EQ(read_compiled("not a cache file at all, but long enough to be one: 64 bytes or so")
                .error,
            "not a compiled file");
  // Anything shorter than a header and a checksum is not one either, the
  // empty file included.
  EXPECT_EQ(read_compiled("HCLVMBC").error, "not a compiled file");
  EXPECT_EQ(read_compiled("").error, "not a compiled file");
  EXPECT_EQ(read_compiled(rt.bytes.substr(0, 40)).error, "not a compiled file");
  EXPECT_EQ(check_compiled(""), "not a compiled file");
  EXPECT_EQ(check_compiled(rt.bytes.substr(0, 63)), "not a compiled file");
}

// Returns [bytes] (a compiled file) with the one occurrence of [from]
// replaced by [to], of the same length, and the checksum recomputed: data
// crafted by someone who knows the format.
std::string craft(const std::string& bytes, std::string_view from, std::string_view to) {
  size_t at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(bytes.find(from, at + 1), std::string::npos) << from;
  EXPECT_EQ(from.size(), to.size());
  if (at == std::string::npos) return bytes;
  std::string out = bytes.substr(0, bytes.size() - 16);
  out.replace(at, from.size(), to);
  return out + cache::hash128(out);
}

// Text that becomes a value or a name must be UTF-8: string constants, map
// keys and object attribute names, attribute, block and variable names and
// labels crafted into invalid bytes (with a valid checksum) are refused, so
// no function writes raw invalid bytes into JSON output. Read lazily, a
// program holding such a constant is compiled again from its source.
TEST(CacheTest, TextThatIsNotUtf8IsRefused) {
  const std::string text =
      "tpl_attr = upper(\"${var.name}xyzq\")\n"
      "obj_attr = { objkq = 1 }\n"
      "map_attr = tomap({ mapkq = var.name })\n"
      "ref_attr = var.vnameq\n"
      "blkq \"labelq\" { inner = 1 }\n";
  RoundTrip rt = round_trip("main.tf", text);
  ASSERT_TRUE(rt.back.ok()) << rt.back.error;
  const std::string want = evaluate_all(rt.fresh);
  struct Case {
    std::string_view from;
    bool lazy_ok;  // read lazily, only a program holds it (not a table or a body)
  };
  const Case cases[] = {
      {"xyzq", true},  {"mapkq", true},  {"vnameq", true}, {"objkq", false},
      {"tpl_attr", false}, {"blkq", false}, {"labelq", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.from));
    // A stray continuation byte, then a surrogate's encoding.
    for (std::string_view bad : {"\x80", "\xed\xa0\x80"}) {
      std::string to(c.from);
      to.replace(0, bad.size(), bad);
      std::string crafted = craft(rt.bytes, c.from, to);
      LoadResult r = read_compiled(crafted, {rt.fresh.source});
      EXPECT_NE(r.error.find("is not valid UTF-8"), std::string::npos) << r.error;
      LoadResult lazy = read_compiled(crafted, {rt.fresh.source}, nullptr, ReadMode::Lazy);
      EXPECT_EQ(lazy.ok(), c.lazy_ok) << lazy.error;
      if (lazy.ok()) {
        EXPECT_EQ(evaluate_all(lazy.files[0]), want);
      }
    }
  }
  // A multi-byte sequence cut short is refused; a change that leaves valid
  // UTF-8 (the checksum recomputed likewise) loads.
  EXPECT_FALSE(read_compiled(craft(rt.bytes, "xyzq", "xyz\xc3"), {rt.fresh.source}).ok());
  EXPECT_TRUE(read_compiled(craft(rt.bytes, "labelq", "label\x7f"), {rt.fresh.source}).ok());
}

// The writer holds to the same rule: a value or name that is not UTF-8 is
// not written (and a file holding one is not cached), so that everything
// written can be read back.
TEST(CacheTest, WriterRefusesTextThatIsNotUtf8) {
  cache::TableWriter tw;
  cache::ByteWriter w;
  EXPECT_TRUE(tw.value(w, Value::string("caf\xc3\xa9")));
  EXPECT_FALSE(tw.value(w, Value::string("caf\xc3")));
  EXPECT_FALSE(tw.value(w, Value::map(Type::number(), {{"k\xff", Value::integer(1)}})));
  EXPECT_FALSE(tw.value(w, Value::object({{"a\xff", Value::integer(1)}})));
  EXPECT_FALSE(tw.value(w, Value::list(Type::string(), {Value::string("\xc0\x80")})));
  CompiledFile f = compile_file(make_source("main.tf", "a = 1\n"));
  f.body.attributes[0].name = "a\xff";
  std::string why;
  EXPECT_FALSE(write_compiled({&f}, CompileOptions{}, false, &why).has_value());
  EXPECT_NE(why.find("not valid UTF-8"), std::string::npos) << why;
}

// Every single-byte change and every truncation of a compiled file is
// refused (the checksum sees them all).
TEST(CacheTest, EveryCorruptionAndTruncationIsRefused) {
  RoundTrip rt = round_trip("main.tf", "a = [for x in var.tags : upper(x)]\nb { c = \"${a}\" }\n");
  ASSERT_TRUE(rt.back.ok());
  const std::string& good = rt.bytes;
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t x : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xff)}) {
      std::string bad = good;
      bad[i] = char(uint8_t(bad[i]) ^ x);
      EXPECT_FALSE(read_compiled(bad, {rt.fresh.source}).ok()) << "byte " << i;
    }
  }
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_FALSE(read_compiled(good.substr(0, n), {rt.fresh.source}).ok()) << "length " << n;
}

// Data written by someone else, with a valid checksum: random changes to
// the body are either refused by the decoder and verifier or, when they
// still make a valid file, evaluate without a crash (the sanitizer builds
// run this too).
TEST(CacheTest, HostileDataWithAValidChecksumIsVerified) {
  struct Input {
    const char* name;
    const char* text;
    Syntax syntax;
  };
  const Input inputs[] = {
      {"main.tf",
       "a = [for i, x in var.tags : { k = x, n = i * 2 } if i < 10]\n"
       "b = \"%{ for t in var.tags }${t}%{ endfor }${var.name}\"\n"
       "c = try(var.missing, length(var.tags) > 0 ? var.tags[*] : [])\n"
       "d { e = upper(var.name...) }\n"
       "f = { (var.name) = 1, x = var.tags[0], y = [1, 2][0] }\n",
       Syntax::Native},
      {"main.tf.json",
       R"({"a": "${var.name}-x", "b": {"c": ["%{ if var.count > 1 }x%{ endif }", 2]}, "d": null})",
       Syntax::Json},
  };
  const size_t header = 48, trailer = 16;
  std::mt19937 rng(11);
  int refused = 0, accepted = 0, recompiled = 0;
  for (const Input& in : inputs) {
    SCOPED_TRACE(in.name);
    CompiledFile fresh = compile_file(make_source(in.name, in.text), in.syntax);
    CompileOptions o{in.syntax};
    std::optional<std::string> w = write_compiled({&fresh}, o, false);
    ASSERT_TRUE(w.has_value());
    const std::string& good = *w;
    ASSERT_TRUE(read_compiled(good, {fresh.source}).ok());
    for (int round = 0; round < 5000; ++round) {
      std::string bad = good.substr(0, good.size() - trailer);
      int changes = 1 + int(rng() % 3);
      for (int c = 0; c < changes; ++c) {
        size_t at = header + rng() % (bad.size() - header);
        bad[at] = char(rng() % 4 == 0 ? uint8_t(rng()) : uint8_t(bad[at]) ^ uint8_t(1u << (rng() % 8)));
      }
      bad += cache::hash128(bad);
      LoadResult r = read_compiled(bad, {fresh.source});
      // Read lazily, what is not refused at once runs, or is compiled
      // again from the source when its program fails verification.
      LoadResult lazy = read_compiled(bad, {fresh.source}, nullptr, ReadMode::Lazy);
      if (lazy.ok()) {
        evaluate_all(lazy.files[0]);
        for (const CompiledAttribute& a : lazy.files[0].body.attributes) {
          std::string why;
          std::shared_ptr<const Program> p = a.native_program(&why);
          if (!why.empty()) ++recompiled;
          if (!why.empty() && p) {
            EXPECT_EQ(cache::verify_program(*p, fresh.source->text().size()), "");
          }
        }
      }
      if (!r.ok()) {
        ++refused;
        continue;
      }
      ++accepted;
      evaluate_all(r.files[0]);
    }
  }
  EXPECT_GT(refused, 2000);
  EXPECT_GT(recompiled, 100);
  std::printf("hostile data: %d refused, %d accepted and evaluated; read lazily, %d programs "
              "compiled again from the source\n",
              refused, accepted, recompiled);
}

// Programs made by the compiler all pass the verifier; a few targeted
// breaks of a real program are caught with their reasons.
TEST(CacheTest, VerifierAcceptsCompiledProgramsAndCatchesBreaks) {
  CompiledFile f = compile_file(make_source(
      "main.tf", "a = [for x in var.tags : x if x != \"\"]\nb = upper(\"x\") == \"X\" ? 1 : 2\n"));
  ASSERT_FALSE(f.has_errors());
  size_t size = f.source->text().size();
  for (const CompiledAttribute& a : f.body.attributes)
    EXPECT_EQ(cache::verify_program(*a.program, size), "") << a.name;

  const Program& p = *f.body.attributes[0].program;
  auto copy = [&] {
    auto q = std::make_shared<Program>();
    q->code = p.code, q->constants = p.constants, q->max_stack = p.max_stack;
    q->num_locals = p.num_locals, q->num_caches = p.num_caches, q->names = p.names;
    q->types = p.types, q->traversals = p.traversals, q->steps = p.steps;
    q->scope_names = p.scope_names, q->fors = p.fors, q->splats = p.splats;
    q->objects = p.objects, q->object_names = p.object_names, q->object_slots = p.object_slots;
    q->static_diags = p.static_diags, q->sites = p.sites, q->site_locals = p.site_locals;
    q->spans = p.spans;
    return q;
  };
  auto q = copy();
  q->max_stack = 0;
  EXPECT_NE(cache::verify_program(*q, size).find("stack deeper than max_stack"), std::string::npos);
  q = copy();
  q->code.back() = uint8_t(vm::Op::NOP);
  EXPECT_EQ(cache::verify_program(*q, size), "code runs off its end");
  q = copy();
  q->num_locals = 0;
  EXPECT_NE(cache::verify_program(*q, size), "");
  q = copy();
  q->spans.push_back({0, uint32_t(size) + 1});
  EXPECT_EQ(cache::verify_program(*q, size), "span outside the source");
  Program tiny;
  tiny.code = {uint8_t(vm::Op::POP), uint8_t(vm::Op::RETURN)};
  tiny.max_stack = 1;
  EXPECT_EQ(cache::verify_program(tiny, 0), "stack underflow (instruction at 0)");
  tiny.code = {uint8_t(vm::Op::JUMP), 1, 0, 0, 0, uint8_t(vm::Op::NOP), uint8_t(vm::Op::RETURN)};
  EXPECT_EQ(cache::verify_program(tiny, 0), "unreachable instruction (instruction at 5)");
  tiny.constants = {Value::integer(1)};
  tiny.code = {uint8_t(vm::Op::JUMP), 1, 0, 0, 0, uint8_t(vm::Op::CONST), 0, 0, 0, 0,
               uint8_t(vm::Op::RETURN)};
  EXPECT_EQ(cache::verify_program(tiny, 0),
            "jump target 6 is not an instruction (instruction at 0)");
  tiny.code[1] = 0;
  EXPECT_EQ(cache::verify_program(tiny, 0), "");

  // Found by the fuzzer: a loop that does not go through its next-element
  // instruction would never end (JUMP back to itself here)...
  tiny.code = {uint8_t(vm::Op::JUMP), 0xfb, 0xff, 0xff, 0xff, uint8_t(vm::Op::CONST), 0, 0, 0, 0,
               uint8_t(vm::Op::RETURN)};
  EXPECT_EQ(cache::verify_program(tiny, 0),
            "jump back to something other than a loop's next element (instruction at 0)");
  // ... and two users of one inline cache slot would read each other's
  // entries (two tuples here).
  tiny.num_caches = 1;
  tiny.max_stack = 2;
  tiny.code = {uint8_t(vm::Op::TUPLE), 0, 0, 0, 0, 0, 0, 0, 0,
               uint8_t(vm::Op::TUPLE), 0, 0, 0, 0, 0, 0, 0, 0,
               uint8_t(vm::Op::TUPLE), 2, 0, 0, 0, 0, 0, 0, 0, uint8_t(vm::Op::RETURN)};
  EXPECT_EQ(cache::verify_program(tiny, 0), "inline cache slot 0 shared");
  tiny.num_caches = 3;
  tiny.code[14] = 1, tiny.code[23] = 2;
  EXPECT_EQ(cache::verify_program(tiny, 0), "");
}

// The whole reference corpus round-trips: every file that compiles is
// written, read back (every program verified) and evaluates alike.
TEST(CacheTest, CorpusRoundTrips) {
  auto shared = test::shared_dir();
  if (!shared || !fs::is_directory(*shared / "corpus" / "files"))
    GTEST_SKIP() << "reference corpus not found (set HCLVM_SHARED_DIR to the shared directory)";
  size_t files = 0, attributes = 0, not_cacheable = 0;
  for (const auto& e : fs::recursive_directory_iterator(*shared / "corpus" / "files")) {
    if (!e.is_regular_file()) continue;
    std::string ext = e.path().extension().string();
    bool json = ext == ".json";
    if (ext != ".tf" && ext != ".hcl" && ext != ".tfvars" && ext != ".nomad" && !json) continue;
    std::string name = e.path().lexically_relative(*shared / "corpus").string();
    SCOPED_TRACE(name);
    Syntax syntax = json ? Syntax::Json : Syntax::Native;
    CompiledFile fresh = compile_file(make_source(name, test::read_file(e.path())), syntax);
    std::string why;
    std::optional<std::string> w = write_compiled({&fresh}, CompileOptions{syntax}, false, &why);
    if (!w) {
      ++not_cacheable;
      ADD_FAILURE() << why;
      continue;
    }
    LoadResult back = read_compiled(*w, {fresh.source});
    ASSERT_TRUE(back.ok()) << back.error;
    EXPECT_EQ(evaluate_all(back.files[0]), evaluate_all(fresh));
    ++files;
    std::vector<const CompiledBody*> todo = {&fresh.body};
    while (!todo.empty()) {
      const CompiledBody* b = todo.back();
      todo.pop_back();
      attributes += b->attributes.size();
      for (const CompiledBlock& blk : b->blocks) todo.push_back(&blk.body);
    }
  }
  EXPECT_GT(files, 1000u);
  RecordProperty("files", int(files));
  RecordProperty("attributes", int(attributes));
  EXPECT_EQ(not_cacheable, 0u);
}

}  // namespace
}  // namespace hclvm

// Many threads, one program: what is shared (a compiled program, the
// function table, the templatefile and regex caches, a compiled file read
// lazily from the cache) is only read, and what is mutable (a Vm, the
// variables) belongs to one thread. 16 threads run 100,000 evaluations
// each with variables of their own, and every result is checked against a
// value computed here in C++. Run it under ThreadSanitizer (the `tsan`
// preset) to check the sharing itself.
//
// HCLVM_STRESS_ITERATIONS lowers the evaluations per thread for a quick
// run; the default is the full count.

#include <gtest/gtest.h>
#include <hclvm/cache.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/syntax.h>
#include <hclvm/value_json.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace hclvm {
namespace {

namespace fs = std::filesystem;

constexpr int kThreads = 16;
constexpr int kIterations = 100'000;

int iterations() {
  if (const char* s = std::getenv("HCLVM_STRESS_ITERATIONS"); s != nullptr && *s != '\0')
    return std::max(1, std::atoi(s));
  return kIterations;
}

// One expression with a template (interpolation and a directive), a `for`
// expression, big-number arithmetic and calls to functions that keep
// process-wide caches (regex, regexall with a pattern that varies,
// templatefile) or none (format, upper, jsonencode, lookup, length).
constexpr const char* kExpr = R"({
  a_greeting = "Hello, ${upper(name)}! %{ if n == 1 }One item%{ else }${n} items%{ endif }."
  b_tags     = [for i, t in tags : format("%02d:%s", i, upper(t)) if t != ""]
  c_digits   = regex("[0-9]+", id)
  d_json     = jsonencode({ id = id, n = n, tags = tags })
  e_region   = lookup(regions, env, "none")
  f_matches  = regexall(pattern, id)
  g_file     = templatefile("greeting.tmpl", { name = name, n = n })
  h_count    = length([for t in tags : t if t != ""]) + n * 2
  i_big      = n * 12345678901234567890
})";

constexpr const char* kTemplate = "Dear ${name}: %{ for k in range(n) }${k}%{ endfor }";

// A configuration file whose attributes are decoded lazily, on first use,
// by whichever threads get there first.
constexpr const char* kFile = R"(service "web" {
  name     = "${name}-${upper(env)}"
  replicas = n * 3
  labels   = { for k, v in { a = 1, b = 2 } : k => v + n }
  check    = regex("^[a-z]+", name)
  note     = templatefile("greeting.tmpl", { name = env, n = 2 })
}
top = format("%s/%d", env, n)
)";

constexpr const char* kEnvs[] = {"prod", "dev", "qa"};
constexpr const char* kPatterns[] = {"[a-z]+", "[0-9]", "-"};

// The variables of evaluation [i] of thread [t].
struct Vars {
  std::string name, id, env, pattern;
  int n = 0;
  std::vector<std::string> tags;

  Vars(int t, int i) {
    name = "user" + std::to_string(t) + "_" + std::to_string(i);
    id = "id-" + std::to_string(uint64_t(t) * 1000003 + uint64_t(i)) + "-x";
    env = kEnvs[i % 3];
    pattern = kPatterns[(i / 3 + t) % 3];
    n = i % 5;
    if (i % 4 != 0) tags = {"x" + std::to_string(i % 7), "", "t" + std::to_string(t)};
  }

  void set(EvalContext& ctx) const {
    ctx.set("name", Value::string(name));
    ctx.set("id", Value::string(id));
    ctx.set("env", Value::string(env));
    ctx.set("pattern", Value::string(pattern));
    ctx.set("n", Value::integer(n));
    std::vector<Value> elems;
    for (const std::string& s : tags) elems.push_back(Value::string(s));
    ctx.set("tags", Value::list(Type::string(), std::move(elems)));
  }
};

// [s] as a JSON string, as jsonencode writes it.
std::string quote(std::string_view s) { return test::go_json_quote(s); }

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// [digits] times the small number [k], in decimal.
std::string times(std::string digits, int k) {
  if (k == 0) return "0";
  int carry = 0;
  for (size_t j = digits.size(); j-- > 0;) {
    int d = (digits[j] - '0') * k + carry;
    digits[j] = char('0' + d % 10);
    carry = d / 10;
  }
  return carry != 0 ? std::to_string(carry) + digits : digits;
}

std::string greeting_file(std::string_view name, int n) {
  std::string s = "Dear " + std::string(name) + ": ";
  for (int k = 0; k < n; ++k) s += std::to_string(k);
  return s;
}

// The JSON of kExpr's value for [v], written independently of hclvm.
std::string expected_json(const Vars& v) {
  std::string tags_json = "[";
  std::string b_tags = "[";
  int nonempty = 0;
  for (size_t i = 0; i < v.tags.size(); ++i) {
    if (i > 0) tags_json += ",";
    tags_json += quote(v.tags[i]);
    if (v.tags[i].empty()) continue;
    if (nonempty++ > 0) b_tags += ",";
    b_tags += quote((i < 10 ? "0" : "") + std::to_string(i) + ":" + upper(v.tags[i]));
  }
  tags_json += "]";
  b_tags += "]";

  std::string digits = v.id.substr(3, v.id.size() - 5);  // "id-" digits "-x"
  std::string matches = "[";
  if (v.pattern == "[a-z]+") {
    matches += quote("id") + "," + quote("x");
  } else if (v.pattern == "-") {
    matches += quote("-") + "," + quote("-");
  } else {
    for (size_t i = 0; i < digits.size(); ++i)
      matches += (i > 0 ? "," : "") + quote(digits.substr(i, 1));
  }
  matches += "]";

  std::string inner =
      "{\"id\":" + quote(v.id) + ",\"n\":" + std::to_string(v.n) + ",\"tags\":" + tags_json + "}";
  std::string region = v.env == "prod" ? "eu-west" : v.env == "dev" ? "us-east" : "none";
  std::string items = v.n == 1 ? "One item" : std::to_string(v.n) + " items";

  return "{\"a_greeting\":" + quote("Hello, " + upper(v.name) + "! " + items + ".") +
         ",\"b_tags\":" + b_tags + ",\"c_digits\":" + quote(digits) +
         ",\"d_json\":" + quote(inner) + ",\"e_region\":" + quote(region) +
         ",\"f_matches\":" + matches + ",\"g_file\":" + quote(greeting_file(v.name, v.n)) +
         ",\"h_count\":" + std::to_string(nonempty + v.n * 2) +
         ",\"i_big\":" + times("12345678901234567890", v.n) + "}";
}

// The JSON of the file attribute [name]'s value for [v].
std::string expected_attr_json(std::string_view name, const Vars& v) {
  if (name == "name") return quote(v.name + "-" + upper(v.env));
  if (name == "replicas") return std::to_string(v.n * 3);
  if (name == "labels")
    return "{\"a\":" + std::to_string(1 + v.n) + ",\"b\":" + std::to_string(2 + v.n) + "}";
  if (name == "check") return quote("user");
  if (name == "note") return quote(greeting_file(v.env, 2));
  if (name == "top") return quote(v.env + "/" + std::to_string(v.n));
  return "unexpected attribute " + std::string(name);
}

void collect(const CompiledBody& body, std::vector<const CompiledAttribute*>& out) {
  for (const CompiledAttribute& a : body.attributes) out.push_back(&a);
  for (const CompiledBlock& b : body.blocks) collect(b.body, out);
}

class StressTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "hclvm-stress-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    std::ofstream(dir_ / "greeting.tmpl") << kTemplate;
    fs::create_directory(dir_ / "cache");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(StressTest, ThreadsShareProgramsFunctionsAndCaches) {
  const int n_iter = iterations();

  // Shared and read-only from here on: the program, the function table
  // (with templatefile's cache) and a parent context holding them.
  ExprParse p = parse_expression(make_source("stress.hcl", kExpr));
  ASSERT_FALSE(p.has_errors()) << p.diagnostics.size();
  CompileResult c = compile_expression(*p.expr, p.source);
  ASSERT_TRUE(c.program);
  ASSERT_TRUE(c.diagnostics.empty());
  LibraryOptions lib;
  lib.base_dir = dir_.string();
  auto fns = std::make_shared<const FunctionTable>(standard_functions(lib));
  EvalContext shared;
  shared.set_functions(fns);
  shared.set("regions", Value::map(Type::string(), {{"prod", Value::string("eu-west")},
                                                    {"dev", Value::string("us-east")}}));

  // A compiled file through the cache: the first load compiles and stores
  // it, the second reads it back lazily, every program still encoded.
  CacheOptions copts;
  copts.dir = (dir_ / "cache").string();
  Cache cache(copts);
  auto source = make_source("service.hcl", kFile);
  CacheStatus st;
  (void)cache.load_or_compile(source, {}, &st);
  ASSERT_EQ(st.outcome, CacheStatus::Miss) << st.reason;
  CompiledFile file = cache.load_or_compile(source, {}, &st);
  ASSERT_EQ(st.outcome, CacheStatus::Hit) << st.reason;
  ASSERT_FALSE(file.has_errors());
  std::vector<const CompiledAttribute*> attrs;
  collect(file.body, attrs);
  ASSERT_EQ(attrs.size(), 6u);
  for (const CompiledAttribute* a : attrs) {
    ASSERT_EQ(a->program, nullptr) << a->name << " was decoded eagerly";
    ASSERT_NE(a->lazy, nullptr) << a->name;
  }

  std::atomic<uint64_t> failures{0};
  std::vector<std::string> first_failure(kThreads);
  std::latch start(kThreads);

  auto worker = [&](int t) {
    Vm vm;
    EvalContext ctx(&shared);
    std::string& failure = first_failure[size_t(t)];
    auto fail = [&](std::string what) {
      failures.fetch_add(1, std::memory_order_relaxed);
      if (failure.empty()) failure = std::move(what);
    };
    // All threads start together, so that the first uses of every cache
    // (lazy programs, regex patterns, the template) overlap.
    start.arrive_and_wait();
    // The cache itself is shared too: each thread loads the file again.
    CacheStatus own;
    CompiledFile again = cache.load_or_compile(source, {}, &own);
    if (own.outcome != CacheStatus::Hit || again.body.blocks.size() != 1)
      fail("thread " + std::to_string(t) + ": cache load: " + own.reason);

    for (int i = 0; i < n_iter; ++i) {
      Vars v(t, i);
      v.set(ctx);
      EvalResult r = vm.run(*c.program, ctx);
      JsonText got = value_to_json(r.value);
      std::string want = expected_json(v);
      if (!r.diagnostics.empty() || !got.ok() || got.json != want) {
        fail("thread " + std::to_string(t) + " iteration " + std::to_string(i) + ": got " +
             got.json + got.error + " (" + std::to_string(r.diagnostics.size()) + " diagnostics" +
             (r.diagnostics.empty() ? "" : ": " + r.diagnostics[0].summary) + "), want " + want);
      }

      // One attribute of the lazily read file per evaluation, starting at a
      // different one in each thread.
      const CompiledAttribute& a = *attrs[size_t(i + t) % attrs.size()];
      EvalResult ar = a.value(vm, &ctx);
      JsonText agot = value_to_json(ar.value);
      std::string awant = expected_attr_json(a.name, v);
      if (!ar.diagnostics.empty() || !agot.ok() || agot.json != awant) {
        fail("thread " + std::to_string(t) + " iteration " + std::to_string(i) + " attribute " +
             a.name + ": got " + agot.json + agot.error + ", want " + awant);
      }
    }
  };

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (std::thread& th : threads) th.join();

  EXPECT_EQ(failures.load(), 0u);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_TRUE(first_failure[size_t(t)].empty()) << first_failure[size_t(t)];
  }
  // Every lazily read program was decoded once and is shared.
  for (const CompiledAttribute* a : attrs) {
    EXPECT_NE(a->native_program(), nullptr) << a->name;
  }
}

}  // namespace
}  // namespace hclvm

// libFuzzer target for evaluation. The input's bytes drive a generator of
// expressions (not parsed directly: most random bytes would not parse):
// operators, conditionals, for expressions, splats, indexes, templates with
// directives, and calls to every function of the standard library with
// edge arguments (huge and tiny numbers, empty and long strings, negative
// and huge indices and counts, nested and shared collections), over
// variables whose values the bytes also choose. Each expression runs under
// tight limits (small memory, steps, strings and collections, a 100 ms
// deadline). The property checked is the limits' promise for hostile
// input: no crash, no sanitizer report, and every run ends within its
// deadline plus a margin -- a run that takes longer aborts, so that
// libFuzzer reports it with its input. Compiling (which folds constants
// under limits of its own) is held to the same bound.
//
//   scripts/configure.sh fuzz && cmake --build --preset fuzz --target eval_fuzz
//   mkdir -p /tmp/eval-corpus
//   build/fuzz/tests/fuzz/eval_fuzz /tmp/eval-corpus tests/fuzz/seeds/eval -max_len=512
//
// HCLVM_FUZZ_PRINT=1 in the environment prints each expression (to replay a
// crash's input and see what it ran).
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/limits.h>
#include <hclvm/syntax.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace hclvm;

// The deadline of a run and how far past it a run may end.
constexpr auto kDeadline = std::chrono::milliseconds(100);
constexpr auto kMargin = std::chrono::seconds(1);

// Numbers at the edges: of int64, of float64, of big.Float's exponent
// range, of the string limit's reach, and the ordinary small ones.
constexpr const char* kNumbers[] = {
    "0", "1", "-1", "2", "3", "7", "10", "16", "31", "32", "64", "100", "1024", "65536", "0.5",
    "-0.5", "1.5", "3.14159", "1e-7", "1e21", "255", "4294967296", "9223372036854775807",
    "-9223372036854775808", "18446744073709551616", "1e18", "1e300", "1e308", "1.8e308", "5e-324",
    "1e-400", "1e100000000", "-1e100000000", "1e-100000000", "2.5e-99999999", "1e2000000000",
    "123456789.123456789", "0.1", "1e9", "-1e9", "99999999999999999999999999999",
};

// Strings: empty, Unicode, format and template syntax, addresses, times,
// patterns, JSON, CSV, YAML, base64, charsets, paths.
constexpr const char* kStrings[] = {
    "", "a", "abc", "héllo wörld", "ÅΩ✓😀", "a\\nb\\nc", "\\r\\n", " \\t ", "%", "%d", "%s %v",
    "%[2]s %[1]d", "%10.3f", "%-5q|%05d", "%#x %X %o %b", "%e %g %G", "$${x}", "%%{", "x,y,z", ",",
    "10.0.0.0/8", "192.168.1.0/24", "fd00::/8", "::ffff:1.2.3.4/120", "2020-01-01T00:00:00Z",
    "2019-12-31T23:59:59+01:00", "1h30m", "-9999999999h", "YYYY-MM-DD hh:mm:ss ZZZZZ EEEE",
    "[a-z]+", "(a)(b)?", "(?P<n>x*)", "a|a.*z", "^", "(a*)*b", "\\\\d{1000}", "{\\\"a\\\": [1, 2e3]}",
    "[1,[2,[3]]]", "null", "true", "1e100000000", "a,b\\n1,2\\n", "a: 1\\nb: [1, 2]",
    "aGVsbG8=", "!!!", "UTF-16", "ISO-8859-1", "GB18030", "hello.txt", "*", "**/*", "{a,b}*[!c]",
    "../..", "/etc/passwd", "~/x", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "/a(b+)/", "$1$0",
};

// The variables' names; each holds a value the bytes choose.
constexpr const char* kVars[] = {"v0", "v1", "v2", "v3"};

// Member names for objects, attribute steps and splats.
constexpr const char* kNames[] = {"a", "b", "c", "id", "k0", "name"};

// Consumes the fuzzer's bytes; past the end every read is 0, so any input
// makes a finite expression.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  uint8_t next() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  // A number in [0, k).
  size_t pick(size_t k) { return next() % k; }
  bool empty() const { return n_ == 0; }

 private:
  const uint8_t* p_;
  size_t n_;
};

template <class T, size_t N>
const char* one_of(Bytes& b, T (&table)[N]) {
  return table[b.pick(N)];
}

class Generator {
 public:
  Generator(Bytes& b, const std::vector<std::string>& functions) : b_(b), functions_(functions) {}

  // An expression of nesting at most [depth].
  std::string expr(int depth) {
    if (depth <= 0 || b_.empty()) return leaf();
    switch (b_.pick(20)) {
      case 0:
      case 1: return leaf();
      case 2: return unary(depth);
      case 3:
      case 4: return binary(depth);
      case 5: return "(" + expr(depth - 1) + " ? " + expr(depth - 1) + " : " + expr(depth - 1) + ")";
      case 6: return tuple(depth);
      case 7: return object(depth);
      case 8: return for_expr(depth);
      case 9: return splat(depth);
      case 10: return "(" + expr(depth - 1) + ")[" + expr(depth - 1) + "]";
      case 11: return "(" + expr(depth - 1) + ")." + one_of(b_, kNames);
      case 12: return templ(depth);
      default: return call(depth);
    }
  }

 private:
  std::string leaf() {
    switch (b_.pick(8)) {
      case 0:
      case 1: return one_of(b_, kNumbers);
      case 2:
      case 3: return std::string("\"") + one_of(b_, kStrings) + "\"";
      case 4: return b_.pick(2) ? "true" : "false";
      case 5: return "null";
      case 6: return big();
      default: return one_of(b_, kVars);
    }
  }

  // Something large: a long string, a long or nested list, a list shared
  // many times.
  std::string big() {
    static constexpr const char* kSizes[] = {"1000", "10000", "65535", "100000", "1000000"};
    switch (b_.pick(5)) {
      case 0: return std::string("format(\"%") + one_of(b_, kSizes) + "s\", \"x\")";
      case 1: return "range(1000)";
      case 2: return "[for i in range(100): range(100)]";
      case 3: return "[for x in [range(1000)]: [for i in range(1000): x]][0]";
      default: return std::string("replace(format(\"%") + one_of(b_, kSizes) + "s\", \"\"), \" \", \"9\")";
    }
  }

  std::string unary(int depth) { return std::string(b_.pick(2) ? "-" : "!") + "(" + expr(depth - 1) + ")"; }

  std::string binary(int depth) {
    static constexpr const char* kOps[] = {"+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"};
    return "(" + expr(depth - 1) + " " + one_of(b_, kOps) + " " + expr(depth - 1) + ")";
  }

  std::string tuple(int depth) {
    std::string out = "[";
    for (size_t i = 0, n = b_.pick(4); i < n; ++i) out += (i ? ", " : "") + expr(depth - 1);
    return out + "]";
  }

  std::string object(int depth) {
    std::string out = "{";
    for (size_t i = 0, n = b_.pick(4); i < n; ++i) {
      out += (i ? ", " : "");
      out += b_.pick(3) ? std::string(one_of(b_, kNames)) : "(" + expr(depth - 1) + ")";
      out += " = " + expr(depth - 1);
    }
    return out + "}";
  }

  std::string for_expr(int depth) {
    std::string coll = expr(depth - 1);
    std::string cond = b_.pick(3) == 0 ? " if " + expr(depth - 1) : "";
    if (b_.pick(2)) return "[for k, v in " + coll + ": " + expr(depth - 1) + cond + "]";
    std::string group = b_.pick(4) == 0 ? "..." : "";
    return "{for k, v in " + coll + ": " + expr(depth - 1) + " => " + expr(depth - 1) + group + cond + "}";
  }

  std::string splat(int depth) {
    std::string base = "(" + expr(depth - 1) + ")";
    switch (b_.pick(3)) {
      case 0: return base + "[*]." + one_of(b_, kNames);
      case 1: return base + ".*." + one_of(b_, kNames);
      default: return base + "[*]";
    }
  }

  std::string templ(int depth) {
    std::string out = "\"";
    for (size_t i = 0, n = 1 + b_.pick(3); i < n; ++i) {
      switch (b_.pick(4)) {
        case 0: out += "${" + expr(depth - 1) + "}"; break;
        case 1: out += "%{ if " + expr(depth - 1) + " }x${" + expr(depth - 1) + "}%{ else }y%{ endif }"; break;
        case 2: out += "%{ for x in " + expr(depth - 1) + " }${x}-%{ endfor ~}"; break;
        default: out += one_of(b_, kNames); break;
      }
    }
    return out + "\"";
  }

  std::string call(int depth) {
    std::string out = functions_[b_.pick(functions_.size())] + "(";
    size_t n = b_.pick(5);
    for (size_t i = 0; i < n; ++i) out += (i ? ", " : "") + expr(depth - 1);
    if (n > 0 && b_.pick(6) == 0) out += "...";
    return out + ")";
  }

  Bytes& b_;
  const std::vector<std::string>& functions_;
};

// The directory the filesystem functions may read, with a few files.
std::string sandbox() {
  static const std::string dir = [] {
    auto d = std::filesystem::temp_directory_path() / "hclvm-eval-fuzz";
    std::filesystem::create_directories(d / "sub");
    std::ofstream(d / "hello.txt") << "hello ${x}\n";
    std::ofstream(d / "sub" / "t.tmpl") << "%{ for i in range(3) }${i}%{ endfor }${templatefile(\"sub/t.tmpl\", {})}";
    std::ofstream(d / std::string(60, 'a')) << "aaa";
    return d.string();
  }();
  return dir;
}

struct Setup {
  std::shared_ptr<const FunctionTable> functions;
  std::vector<std::string> names;
  Limits limits;
};

const Setup& setup() {
  static const Setup s = [] {
    Setup s;
    LibraryOptions o;
    o.base_dir = sandbox();
    o.packer = true;
    o.env_allow = {"HOME"};
    s.functions = std::make_shared<const FunctionTable>(standard_functions(o));
    for (std::string_view n : s.functions->names())
      if (n.find("::") == std::string_view::npos) s.names.emplace_back(n);
    s.limits.max_steps = 100'000;
    s.limits.max_memory = 16 << 20;
    s.limits.max_string_bytes = 256 << 10;
    s.limits.max_collection_size = 20'000;
    s.limits.max_depth = 32;
    s.limits.timeout = kDeadline;
    return s;
  }();
  return s;
}

// Aborts when [start] was longer ago than the deadline and the margin.
void check_time(std::chrono::steady_clock::time_point start, const char* what, const std::string& src) {
  auto took = std::chrono::steady_clock::now() - start;
  if (took > kDeadline + kMargin) {
    std::fprintf(stderr, "%s took %lld ms, past the deadline of %lld ms: %s\n", what,
                 static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()),
                 static_cast<long long>(kDeadline.count()), src.substr(0, 2000).c_str());
    std::abort();
  }
}

}  // namespace

// Generates variables and one expression from [data] (of [size] bytes),
// compiles and runs it.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Setup& s = setup();
  static const bool print = std::getenv("HCLVM_FUZZ_PRINT") != nullptr;
  Bytes bytes(data, size);
  Generator gen(bytes, s.names);

  // The variables: expressions of their own, evaluated under the same
  // limits (a variable that fails is left unset).
  EvalContext ctx;
  ctx.set_functions(s.functions);
  std::vector<std::pair<std::string, std::string>> vars;
  for (const char* name : kVars) vars.emplace_back(name, gen.expr(2));
  std::string src = gen.expr(6);
  if (print) {
    for (const auto& [name, v] : vars) std::fprintf(stderr, "%s = %s\n", name.c_str(), v.c_str());
    std::fprintf(stderr, "expr: %s\n", src.c_str());
  }

  Vm vm(s.limits);
  auto eval = [&](const std::string& text, const EvalContext& c) -> std::optional<Value> {
    auto start = std::chrono::steady_clock::now();
    ExprParse p = parse_expression(make_source("fuzz.hcl", text));
    if (p.has_errors()) return std::nullopt;
    CompileResult compiled = compile_expression(*p.expr, p.source);
    check_time(start, "compiling", text);
    if (!compiled.program) return std::nullopt;
    start = std::chrono::steady_clock::now();
    EvalResult r = vm.run(*compiled.program, c);
    check_time(start, "the run", text);
    if (r.has_errors()) return std::nullopt;
    return std::move(r.value);
  };
  EvalContext var_ctx;
  var_ctx.set_functions(s.functions);
  for (const auto& [name, text] : vars) {
    if (std::optional<Value> v = eval(text, var_ctx)) ctx.set(name, std::move(*v));
  }
  eval(src, ctx);
  return 0;
}

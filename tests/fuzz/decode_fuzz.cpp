// libFuzzer target for the decoders of untrusted documents: yamldecode,
// jsondecode and cty's JSON value reader (value/json.h), each followed by
// the encoders and walks a configuration would apply to what they return.
// The input's first byte picks the decoder (modulo 3: '0' YAML, '1' JSON,
// '2' cty's typed JSON, {"value":…,"type":…}); the rest is the document.
//
// Everything runs under tight limits (below): the property checked is
// that any document gives a value or an error, never a crash, a sanitizer
// report or an exception, and that each evaluation ends within its
// deadline plus a small margin, however the document nests or shares its
// parts through aliases. An evaluation that passes its deadline by more
// than the margin traps.
//
//   scripts/configure.sh fuzz && cmake --build --preset fuzz --target decode_fuzz
//   mkdir -p /tmp/decode-corpus
//   build/fuzz/tests/fuzz/decode_fuzz /tmp/decode-corpus tests/fuzz/seeds/decode \
//       -max_len=8192 -timeout=10
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/limits.h>
#include <hclvm/syntax.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_limits.h"
#include "util/budget.h"
#include "value/json.h"
#include "value/ops.h"

namespace {

using namespace hclvm;

using fuzz::kDeadline;
using fuzz::kMargin;

Limits tight() { return fuzz::tight_limits(8 << 20); }

// What each decoded document goes through: %s is the decoding of `doc`.
constexpr const char* kAfter[] = {
    // What a configuration does with a decoded document.
    "jsonencode(%s)",
    "yamlencode(%s)",
    "[type(%s), length(flatten([%s]))]",
    "%s == %s",
    "toset([%s, %s])",
    "tolist([%s, %s])",
    "[for k, v in %s: v] == [for k, v in %s: v]",
};

// Replaces each %s of [pattern] with [arg].
std::string fill(const char* pattern, const std::string& arg) {
  std::string out;
  for (const char* p = pattern; *p; ++p) {
    if (p[0] == '%' && p[1] == 's') {
      out += arg;
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

struct Env {
  std::shared_ptr<const FunctionTable> functions =
      std::make_shared<const FunctionTable>(standard_functions({}));
  std::vector<std::shared_ptr<const Program>> programs[2];  // yamldecode, jsondecode

  Env() {
    const char* decoders[2] = {"yamldecode(doc)", "jsondecode(doc)"};
    for (int d = 0; d < 2; ++d) {
      for (const char* after : kAfter) {
        std::string src = fill(after, decoders[d]);
        ExprParse p = parse_expression(make_source("<fuzz>", src));
        if (p.has_errors()) __builtin_trap();
        programs[d].push_back(compile_expression(*p.expr, p.source).program);
      }
    }
  }
};

// Traps when [start] was longer ago than the deadline and its margin.
void check_time(std::chrono::steady_clock::time_point start) {
  if (std::chrono::steady_clock::now() - start > kDeadline + kMargin) __builtin_trap();
}

// Runs [prog] with `doc` set to [doc], under the tight limits.
void run(const Env& env, const Program& prog, const Value& doc) {
  EvalContext ctx;
  ctx.set_functions(env.functions);
  ctx.set("doc", doc);
  Limits limits = tight();
  auto start = std::chrono::steady_clock::now();
  {
    Vm vm(limits);
    EvalResult r = vm.run(prog, ctx);
  }
  check_time(start);
}

// cty's JSON value reader on [doc] and the writers after it, under a
// budget of the tight limits, as a run would.
void typed_json(const std::string& doc) {
  Limits limits = tight();
  auto start = std::chrono::steady_clock::now();
  {
    util::Budget budget(limits);
    util::set_current_budget(&budget);
    try {
      JsonResult<Value> v = from_json(doc, Type::dynamic());
      if (v.ok()) {
        to_json_typed(v.value);
        to_json(v.value, v.value.type());
        ops::set_hash_bytes(v.value);
        ops::equals(v.value, v.value);
      }
      JsonResult<const Type*> t = type_from_json(doc);
      if (t.ok()) type_to_json(t.value);
    } catch (const util::LimitExceeded&) {
    }
    util::set_current_budget(nullptr);
  }
  check_time(start);
}

}  // namespace

// Decodes [data] (of [size] bytes) with the decoder its first byte selects.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Env env;
  if (size == 0) return 0;
  std::string doc(reinterpret_cast<const char*>(data) + 1, size - 1);
  int which = data[0] % 3;
  if (which == 2) {
    typed_json(doc);
    return 0;
  }
  Value text = Value::string(doc);
  for (const auto& prog : env.programs[which]) run(env, *prog, text);
  return 0;
}

// libFuzzer target for the configuration layer (include/hclvm/config.h):
// whole Terraform modules loaded, validated and evaluated from any bytes.
// The input is split at lines `#---` into up to four files of one module
// tree: main.tf, override.tf (merged by the override rules), m/main.tf (a
// child module, which main.tf may call with `source = "./m"`) and
// terraform.tfvars. For any such tree:
//  - loading gives a module or errors, never a crash, a sanitizer report
//    or an exception;
//  - evaluating a loaded module, with inputs and as validate() does (every
//    root variable unknown), ends within the
//    evaluation's limits (tight, below: the evaluation as a whole is held
//    to them, so a module that expands to millions of instances stops) plus
//    a margin; an evaluation that passes its deadline by more traps;
//  - the evaluation's JSON document and console expressions in its scope
//    are made without failing;
//  - re-evaluating it (reevaluate) with another value of var.a, and back,
//    gives what evaluating afresh gives.
// Seeds: tests/fuzz/seeds/config/ (modules of tests/golden/config, one
// file each, and trees split with `#---`).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target config_fuzz
//   build/fuzz/tests/fuzz/config_fuzz /tmp/config-corpus tests/fuzz/seeds/config \
//       -max_len=8192 -timeout=10
#include <hclvm/config.h>
#include <hclvm/limits.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "fuzz_limits.h"

namespace {

using namespace hclvm;
namespace fs = std::filesystem;

using fuzz::kDeadline;
using fuzz::kMargin;

Limits tight() { return fuzz::tight_limits(16 << 20); }

// The scratch directory of this process, made once.
const fs::path& scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("hclvm_config_fuzz_" + std::to_string(getpid()));
    fs::create_directories(d / "m");
    return d;
  }();
  return dir;
}

void write(const fs::path& p, std::string_view text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(text.data(), std::streamsize(text.size()));
}

// Runs [fn], trapping when it takes longer than the deadline and margin.
template <class Fn>
void timed(const char* what, Fn&& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  if (std::chrono::steady_clock::now() - t0 > kDeadline + kMargin) {
    std::fprintf(stderr, "config_fuzz: %s ran past its deadline\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kFiles[] = {"main.tf", "override.tf", "m/main.tf", "terraform.tfvars"};
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const fs::path& dir = scratch();
  size_t part = 0;
  for (; part < std::size(kFiles); ++part) {
    size_t cut = in.find("\n#---\n");
    std::string_view text = part + 1 < std::size(kFiles) ? in.substr(0, cut) : in;
    if (text.empty() && part > 0) {
      fs::remove(dir / kFiles[part]);
    } else {
      write(dir / kFiles[part], text);
    }
    in = cut == std::string_view::npos || part + 1 == std::size(kFiles) ? std::string_view{}
                                                                       : in.substr(cut + 6);
  }

  config::LoadOptions o;
  o.display_dir = ".";
  config::LoadResult r = config::load_module(dir.string(), o);
  if (!r.module) return 0;
  (void)config::render_diagnostics(r.diagnostics, r.sources);

  Vm vm(tight());
  config::Inputs inputs;
  inputs.vars_dir = dir.string();
  inputs.args = {{config::VarArg::Var, "a=1"}};
  timed("evaluate", [&] {
    config::Evaluation e = config::evaluate(r.module, inputs, &vm);
    (void)config::render_diagnostics(e.diagnostics(), r.sources);
    if (!e.stopped()) {
      (void)e.to_json(false);
      for (const char* expr : {"local", "var", "module", "path.module"})
        (void)e.eval(expr, &vm);
    }
  });
  // Re-evaluating with another value of var.a (and back) gives what
  // evaluating afresh gives, unless fresh evaluations differ among
  // themselves (uuid(), timestamp()...).
  timed("reevaluate", [&] {
    auto shown = [&](const config::Evaluation& e) {
      return e.stopped() ? std::string("stopped")
                         : e.to_json(true) + config::render_diagnostics(e.diagnostics(), r.sources);
    };
    config::Evaluation prev = config::evaluate(r.module, inputs, &vm);
    if (prev.stopped()) return;
    config::Inputs other = inputs;
    other.args = {{config::VarArg::Var, "a=2"}};
    for (const config::Inputs* next : {&other, &inputs}) {
      config::Evaluation again = config::reevaluate(prev, *next, &vm);
      std::string fresh = shown(config::evaluate(r.module, *next, &vm));
      if (shown(again) != fresh && !again.stopped() && fresh != "stopped" &&
          fresh == shown(config::evaluate(r.module, *next, &vm))) {
        std::fprintf(stderr,
                     "config_fuzz: re-evaluation differs from a fresh evaluation\n%s\n---\n%s\n",
                     shown(again).c_str(), fresh.c_str());
        std::abort();
      }
      prev = std::move(again);
    }
  });
  // What validate() evaluates (every root variable unknown), on this Vm.
  timed("validate", [&] {
    config::Inputs none;
    none.auto_var_files = false;
    none.validate = true;
    none.vars_dir = dir.string();
    config::Evaluation v = config::evaluate(r.module, none, &vm);
    (void)config::render_validate_json(v.diagnostics(), r.sources);
  });
  return 0;
}

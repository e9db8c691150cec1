// What evaluating whole modules costs in-process (hclvm/config.h), for
// each module directory given: loading it from source (read, parse,
// decode, compile), loading it through the compiled-file cache (a warm
// cache: the programs read instead of compiled), evaluating a loaded
// module, re-evaluating it reusing the previous evaluation
// (config::reevaluate), and loading and evaluating together. Every run
// has new inputs: the workspace, and one of the root variables whose
// values are plain strings in turn. Each figure is the
// median of the runs (at least --runs, and as many as fit in --time
// seconds). Prints one JSON object per directory (bench/compare_config.py
// reads them), or a table with --table. --evaluate-only times only the
// evaluations of a loaded module, --reevaluate-only its re-evaluations
// (each reusing the one before), --load-only the loads (from source, or
// through the cache with --cache), for a profiler.
//
//   config_bench [--runs N] [--time SECONDS] [--table]
//                [--evaluate-only | --reevaluate-only | --load-only [--cache]] DIR...
#include <hclvm/cache.h>
#include <hclvm/config.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;
using namespace hclvm;

// The median of [xs] (sorted in place).
double median(std::vector<double>& xs) {
  std::sort(xs.begin(), xs.end());
  return xs.empty() ? 0 : xs[xs.size() / 2];
}

// Runs [fn] at least [runs] times and until [budget] seconds have passed;
// the median time of one run in milliseconds.
template <class Fn>
double time_ms(int runs, double budget, Fn&& fn) {
  std::vector<double> times;
  auto start = Clock::now();
  while (int(times.size()) < runs ||
         std::chrono::duration<double>(Clock::now() - start).count() < budget) {
    auto t0 = Clock::now();
    fn();
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (times.size() >= 100000) break;
  }
  return median(times);
}

// The root variables whose values are plain strings, with those values
// (in [ev]): what the runs change.
std::vector<std::pair<std::string, std::string>> string_variables(const config::Evaluation& ev) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, v] : ev.variables())
    if (v.is_plain() && v.type() == Type::string())
      out.emplace_back(name, std::string(v.as_string()));
  return out;
}

// Inputs for run [i]: the workspace changes, and so does one of [vars]
// (in turn), so that every run evaluates with inputs of its own and what
// depends on a variable is evaluated again when earlier work is reused.
config::Inputs inputs(int i, const std::vector<std::pair<std::string, std::string>>& vars) {
  config::Inputs in;
  in.auto_var_files = false;
  in.workspace = "ws" + std::to_string(i % 7);
  if (!vars.empty()) {
    const auto& [name, value] = vars[size_t(i) % vars.size()];
    in.values[name] = Value::string(value + "-" + std::to_string(i % 5));
  }
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 20;
  double budget = 1.0;
  bool table = false;
  bool evaluate_only = false;
  bool reevaluate_only = false;
  bool load_only = false;
  bool load_cached = false;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--time" && i + 1 < argc) budget = std::atof(argv[++i]);
    else if (a == "--table") table = true;
    else if (a == "--evaluate-only")
      evaluate_only = true;
    else if (a == "--reevaluate-only")
      evaluate_only = reevaluate_only = true;
    else if (a == "--load-only")
      load_only = true;
    else if (a == "--cache")
      load_cached = true;
    else if (a == "-h" || a == "--help" || a.starts_with("-")) {
      dirs.clear();
      break;
    } else dirs.push_back(a);
  }
  if (dirs.empty()) {
    std::fprintf(stderr,
                 "usage: config_bench [--runs N] [--time SECONDS] [--table]\n"
                 "                    [--evaluate-only | --reevaluate-only | --load-only [--cache]] "
                 "DIR...\n");
    return 2;
  }
  std::filesystem::path cache_dir =
      std::filesystem::temp_directory_path() / ("hclvm_config_bench_" + std::to_string(getpid()));
  Cache cache(CacheOptions{cache_dir.string()});
  if (table)
    std::printf(
        "| module | load ms | load (cache) ms | evaluate ms | reevaluate ms | load+evaluate ms | "
        "load (cache)+evaluate ms | evaluate speedup | reevaluate speedup |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int status = 0;
  for (const std::string& dir : dirs) {
    config::LoadResult first = config::load_module(dir);
    if (!first.module) {
      std::fprintf(stderr, "%s: not loaded (%zu diagnostics)\n", dir.c_str(), first.diagnostics.size());
      status = 1;
      continue;
    }
    const auto vars = string_variables(config::evaluate(first.module, inputs(0, {})));
    if (evaluate_only) {
      Vm vm;
      int n = 0;
      config::Evaluation last = config::evaluate(first.module, inputs(n++, vars), &vm);
      double eval = time_ms(runs, budget, [&] {
        if (reevaluate_only)
          last = config::reevaluate(last, inputs(n++, vars), &vm);
        else
          config::evaluate(first.module, inputs(n++, vars), &vm);
      });
      std::printf("%s: %s %.4f ms\n", dir.c_str(), reevaluate_only ? "reevaluate" : "evaluate",
                  eval);
      continue;
    }
    config::LoadOptions co;
    co.cache = &cache;
    config::load_module(dir, co);  // fills the cache
    if (load_only) {
      double load = time_ms(runs, budget, [&] {
        config::load_module(dir, load_cached ? co : config::LoadOptions{});
      });
      std::printf("%s: load%s %.4f ms\n", dir.c_str(), load_cached ? " (cache)" : "", load);
      continue;
    }
    int n = 0;
    double load = time_ms(runs, budget, [&] { config::load_module(dir); });
    double load_cache = time_ms(runs, budget, [&] { config::load_module(dir, co); });
    Vm vm;
    double eval =
        time_ms(runs, budget, [&] { config::evaluate(first.module, inputs(n++, vars), &vm); });
    // Re-evaluation reusing the previous evaluation's work (reevaluate).
    config::Evaluation last = config::evaluate(first.module, inputs(n++, vars), &vm);
    double reeval =
        time_ms(runs, budget, [&] { last = config::reevaluate(last, inputs(n++, vars), &vm); });
    double both = time_ms(runs, budget, [&] {
      config::LoadResult r = config::load_module(dir);
      config::evaluate(r.module, inputs(n++, vars), &vm);
    });
    double both_cache = time_ms(runs, budget, [&] {
      config::LoadResult r = config::load_module(dir, co);
      config::evaluate(r.module, inputs(n++, vars), &vm);
    });
    size_t files = first.sources.files().size();
    if (table) {
      std::printf("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1fx | %.1fx |\n", dir.c_str(),
                  load, load_cache, eval, reeval, both, both_cache, eval > 0 ? both / eval : 0,
                  reeval > 0 ? both / reeval : 0);
    } else {
      std::printf(
          "{\"dir\": \"%s\", \"files\": %zu, \"load_ms\": %.4f, \"load_cache_ms\": %.4f, "
          "\"eval_ms\": %.4f, \"reeval_ms\": %.4f, \"load_eval_ms\": %.4f, "
          "\"load_cache_eval_ms\": %.4f, \"variables_changed\": %zu}\n",
          dir.c_str(), files, load, load_cache, eval, reeval, both, both_cache, vars.size());
    }
    std::fflush(stdout);
  }
  cache.clear();
  std::filesystem::remove_all(cache_dir);
  return status;
}

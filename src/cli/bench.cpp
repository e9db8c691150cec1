// `hclvm bench`: measures evaluation the way users run it, compile once and
// evaluate many times. With -e it compiles one expression and evaluates it
// N times; with a FILE it compiles every attribute (recursively into
// blocks) and evaluates all of them N times per operation. It prints the
// result (or the file's attribute and error counts) once, then time and
// heap allocations per operation, in the form of the reference's benchmark
// tool (`gohcl-bench eval` / `evalfile`), so the two can be run side by side
// on the same input. This file also holds the hclvm program's allocation
// counter (util/alloc_count.h replaces operator new).
#include "cli/eval.h"

#include <hclvm/function.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "util/alloc_count.h"
#include "vm/program.h"
#include "value/json.h"

namespace hclvm::cli {

const char kBenchHelp[] =
    "Usage: hclvm bench [options] (-e EXPR | FILE)\n"
    "\n"
    "Compiles the expression EXPR, or every attribute of the configuration\n"
    "file FILE (recursively into blocks), once, then evaluates it N times and\n"
    "prints the result (for a file: its attribute and error counts) followed by\n"
    "the time and heap allocations per evaluation (for a file: per evaluation\n"
    "of all its attributes). The output has the form of the reference's\n"
    "`gohcl-bench eval` and `evalfile`, so both can measure the same input.\n"
    "Variables come from --vars-file and --var; the functions are the standard\n"
    "library, or with --functions go-cty those of the reference's tools.\n"
    "\n"
    "Options:\n"
    "  -e, --expr EXPR       measure EXPR (one only)\n"
    "  --var NAME=VALUE      set variable NAME (as for `hclvm eval`)\n"
    "  --vars-file F         set variables from a .json, .tfvars, .tfvars.json or\n"
    "                        .hcl file (as for `hclvm eval`)\n"
    "  --as config|json      read FILE in the native (default) or the JSON syntax\n"
    "                        (default: JSON for names ending in .json)\n"
    "  --functions terraform|go-cty   the function table (as for `hclvm eval`)\n"
    "  --base-dir DIR        the filesystem functions' directory (as for `hclvm eval`)\n"
    "  -n N                  evaluations per timed run (default: as many as fit\n"
    "                        in --benchtime, found while warming up)\n"
    "  --runs R              timed runs after the warm-up; the median is\n"
    "                        reported (default 1)\n"
    "  --benchtime D         target duration of one run, like 1s or 200ms\n"
    "                        (default 1s)\n"
    "  --json                print one JSON object with every run instead of text\n"
    "  --color WHEN          colour for diagnostics: auto (default), always or never\n"
    "  -h, --help            show this help\n"
    "\n"
    "Output (text): `result: {\"value\":…,\"type\":…}` (or `file:`, `bytes:`,\n"
    "`attributes:`, `attributes with errors:`), `iterations: N x R run(s)`,\n"
    "`ns/op:`, `cpu-ns/op:` (process CPU time), `allocs/op:` and `B/op:` (heap\n"
    "allocations, GMP/MPFR's included), `compile-ns:` (compiling, once) and for\n"
    "a file `ns/attribute:`.\n"
    "\n"
    "Exit status: 0 measured (a file's attributes may have errors), 1 the\n"
    "expression has errors (printed; nothing is measured), 2 usage error or\n"
    "unreadable input.\n";

namespace {

// One timed run of n evaluations.
struct RunStats {
  long n = 0;
  double ns_per_op = 0;
  double cpu_ns_per_op = 0;
  double allocs_per_op = 0;
  double bytes_per_op = 0;
};

// The process's CPU time (all threads) in nanoseconds.
double cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

// Runs [op] [n] times and measures it.
template <class Op>
RunStats timed_run(long n, Op& op) {
  long allocs = alloc_count::allocations(), bytes = alloc_count::allocated_bytes();
  double cpu = cpu_ns();
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) op();
  auto stop = std::chrono::steady_clock::now();
  RunStats r;
  r.n = n;
  double dn = double(n);
  r.ns_per_op =
      double(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count()) / dn;
  r.cpu_ns_per_op = (cpu_ns() - cpu) / dn;
  r.allocs_per_op = double(alloc_count::allocations() - allocs) / dn;
  r.bytes_per_op = double(alloc_count::allocated_bytes() - bytes) / dn;
  return r;
}

// Warms [op] up and finds how many evaluations fill [seconds], growing the
// count as Go's testing package does (predicted from the last run, at most
// 100 times larger), unless [fixed] gives it.
template <class Op>
long calibrate(std::optional<long> fixed, double seconds, Op& op) {
  if (fixed) {
    timed_run(*fixed, op);
    return *fixed;
  }
  long n = 1;
  for (;;) {
    RunStats r = timed_run(n, op);
    double elapsed = r.ns_per_op * double(n);
    if (elapsed >= seconds * 1e9 || n >= 1'000'000'000) return n;
    // An evaluation of nothing (a file without attributes) may take no
    // measurable time: the count then grows a hundredfold, not by one.
    double per_op = std::max(elapsed, 1.0) / double(n);
    double predicted = seconds * 1e9 / per_op * 1.2;
    n = long(std::min(std::clamp(predicted, double(n) + 1, double(n) * 100), 1e9));
  }
}

// The median of [field] over [runs].
double median(const std::vector<RunStats>& runs, double RunStats::*field) {
  std::vector<double> v;
  for (const RunStats& r : runs) v.push_back(r.*field);
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// [d] as a JSON number (shortest round-trip form).
std::string json_num(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

// What was measured, beyond the runs: the header lines of the report.
struct Subject {
  bool file = false;
  bool json = false;  // a JSON-syntax file
  std::string expr_or_file;
  std::string result;  // expression: its typed JSON
  size_t bytes = 0, attributes = 0, error_attributes = 0;
  double compile_ns = 0;
};

// Prints the report of [runs] of [s] as text or ([json]) one JSON object.
void print_report(const Subject& s, const std::vector<RunStats>& runs, bool json) {
  double ns = median(runs, &RunStats::ns_per_op);
  double cpu = median(runs, &RunStats::cpu_ns_per_op);
  double allocs = median(runs, &RunStats::allocs_per_op);
  double bytes = median(runs, &RunStats::bytes_per_op);
  bool counted = alloc_count::kAllocCounting;
  std::string out;
  if (json) {
    out += "{\n  \"command\": \"" + std::string(s.file ? "evalfile" : "eval") + "\",\n";
    if (s.file) {
      out += "  \"file\": " + json_quote(s.expr_or_file) + ",\n";
      out += "  \"bytes\": " + std::to_string(s.bytes) + ",\n";
      out += "  \"attributes\": " + std::to_string(s.attributes) + ",\n";
      out += "  \"error_attributes\": " + std::to_string(s.error_attributes) + ",\n";
    } else {
      out += "  \"expr\": " + json_quote(s.expr_or_file) + ",\n";
      out += "  \"result\": " + s.result + ",\n";
    }
    out += "  \"n\": " + std::to_string(runs[0].n) + ",\n  \"runs\": [";
    auto alloc_json = [&](double v) { return counted ? json_num(v) : std::string("null"); };
    for (size_t i = 0; i < runs.size(); ++i) {
      const RunStats& r = runs[i];
      out += std::string(i ? "," : "") + "\n    {\"n\": " + std::to_string(r.n) +
             ", \"ns_per_op\": " + json_num(r.ns_per_op) +
             ", \"cpu_ns_per_op\": " + json_num(r.cpu_ns_per_op) +
             ", \"allocs_per_op\": " + alloc_json(r.allocs_per_op) +
             ", \"bytes_per_op\": " + alloc_json(r.bytes_per_op) + "}";
    }
    double lo = runs[0].ns_per_op, hi = lo;
    for (const RunStats& r : runs) lo = std::min(lo, r.ns_per_op), hi = std::max(hi, r.ns_per_op);
    out += "\n  ],\n  \"ns_per_op\": " + json_num(ns) + ",\n  \"cpu_ns_per_op\": " + json_num(cpu) +
           ",\n  \"allocs_per_op\": " + alloc_json(allocs) +
           ",\n  \"bytes_per_op\": " + alloc_json(bytes) +
           ",\n  \"min_ns_per_op\": " + json_num(lo) + ",\n  \"max_ns_per_op\": " + json_num(hi) +
           ",\n  \"compile_ns\": " + json_num(s.compile_ns) + "\n}\n";
  } else {
    char buf[160];
    if (s.file) {
      out += "file: " + s.expr_or_file + (s.json ? " (JSON syntax)\n" : " (native syntax)\n");
      out += "bytes: " + std::to_string(s.bytes) + "\n";
      out += "attributes: " + std::to_string(s.attributes) + "\n";
      out += "attributes with errors: " + std::to_string(s.error_attributes) + "\n";
    } else {
      out += "result: " + s.result + "\n";
    }
    std::snprintf(buf, sizeof buf, "iterations: %ld x %zu run(s)\nns/op: %.0f\n", runs[0].n,
                  runs.size(), ns);
    out += buf;
    std::snprintf(buf, sizeof buf, "cpu-ns/op: %.0f (process CPU time)\n", cpu);
    out += buf;
    if (counted) {
      std::snprintf(buf, sizeof buf, "allocs/op: %.1f\nB/op: %.0f\n", allocs, bytes);
    } else {
      std::snprintf(buf, sizeof buf, "allocs/op: n/a (not counted in this build)\nB/op: n/a\n");
    }
    out += buf;
    std::snprintf(buf, sizeof buf, "compile-ns: %.0f (once)\n", s.compile_ns);
    out += buf;
    if (s.file && s.attributes) {
      std::snprintf(buf, sizeof buf, "ns/attribute: %.0f\n", ns / double(s.attributes));
      out += buf;
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

// Nanoseconds since [start].
double since(std::chrono::steady_clock::time_point start) {
  return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count());
}

// Calibrates [op], measures [o].runs runs and prints the report of [s].
template <class Op>
int measure(const EvalOptions& o, const Subject& s, Op& op) {
  long n = calibrate(o.iterations, o.benchtime, op);
  std::vector<RunStats> runs;
  for (long i = 0; i < o.runs; ++i) runs.push_back(timed_run(n, op));
  print_report(s, runs, o.json);
  return kExitOk;
}

}  // namespace

int run_bench(const std::vector<std::string>& args) {
  EvalOptions o;
  if (auto stop = parse_eval_options(args, EvalCommand::Bench, o)) return *stop;
  alloc_count::count_gmp();
  EvalContext ctx;
  ctx.set_functions(functions_for(o));
  if (auto err = load_vars(o, ctx)) return usage_error(*err);
  Vm vm;
  Subject s;

  if (!o.exprs.empty()) {
    s.expr_or_file = o.exprs[0];
    auto start = std::chrono::steady_clock::now();
    ExprParse p = parse_expression(make_source("<expr>", o.exprs[0]));
    if (p.has_errors() || !p.expr) {
      print_diags(p.diagnostics, *p.source, nullptr, o.color);
      return kExitErrors;
    }
    CompileResult c = compile_expression(*p.expr, p.source);
    s.compile_ns = since(start);
    EvalResult r = vm.run(*c.program, ctx);
    r.diagnostics.insert(r.diagnostics.begin(), c.diagnostics.begin(), c.diagnostics.end());
    print_diags(r.diagnostics, *p.source, nullptr, o.color);
    if (r.has_errors()) return kExitErrors;
    s.result = typed_json(r.value);
    const Program& prog = *c.program;
    auto op = [&] { vm.run(prog, ctx); };
    return measure(o, s, op);
  }

  const std::string& path = o.files[0];
  std::string bytes, err;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  s.file = true;
  s.expr_or_file = display_name(path);
  s.bytes = bytes.size();
  if (o.as_json || (path != "-" && classify(path) == FileSyntax::Json)) {
    s.json = true;
    auto start = std::chrono::steady_clock::now();
    JsonFileAttributes f = json_file_attributes(display_name(path), std::move(bytes));
    if (f.file.has_errors()) {
      print_diags(f.diagnostics, *f.file.source, nullptr, o.color);
      return kExitErrors;
    }
    Diagnostics all = f.diagnostics;
    s.attributes = f.attributes.size();
    for (const Attribute& a : f.attributes) {  // the first run compiles each
      EvalResult r = a.expr.value(vm, &ctx);
      if (r.has_errors()) ++s.error_attributes;
      all.insert(all.end(), r.diagnostics.begin(), r.diagnostics.end());
    }
    s.compile_ns = since(start);
    print_diags(all, *f.file.source, nullptr, o.color);
    auto op = [&] {
      for (const Attribute& a : f.attributes) a.expr.value(vm, &ctx);
    };
    return measure(o, s, op);
  }
  FileParse p = parse_config(make_source(display_name(path), std::move(bytes)));
  if (p.has_errors() || !p.body) {
    print_diags(p.diagnostics, *p.source, p.body, o.color);
    return kExitErrors;
  }
  auto start = std::chrono::steady_clock::now();
  std::vector<CompileResult> compiled;
  ProgramArena arena;  // as compile_file lays out a file's programs
  each_attribute(*p.body, "", [&](const std::string&, const ast::Attribute& a) {
    compiled.push_back(compile_expression(*a.expr, p.source));
  });
  s.compile_ns = since(start);
  s.attributes = compiled.size();
  std::vector<std::shared_ptr<const Program>> programs;
  Diagnostics all;
  for (CompileResult& c : compiled) {
    EvalResult r = vm.run(*c.program, ctx);
    if (r.has_errors() || has_errors(c.diagnostics)) ++s.error_attributes;
    for (auto& d : c.diagnostics) all.push_back(std::move(d));
    for (auto& d : r.diagnostics) all.push_back(std::move(d));
    programs.push_back(std::move(c.program));
  }
  print_diags(all, *p.source, p.body, o.color);
  auto op = [&] {
    for (const auto& prog : programs) vm.run(*prog, ctx);
  };
  return measure(o, s, op);
}

}  // namespace hclvm::cli

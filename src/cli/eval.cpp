// `hclvm eval` and `hclvm disasm`: evaluate expressions (one given with -e,
// every attribute of a configuration file, or one expression per line of a
// file) against variables from the command line and a JSON file, with the
// default function table, and print the values; or print the bytecode the
// compiler makes of them. Values print as JSON in the shape the reference's
// benchmark tool uses ({"value":…,"type":…}, or {"repr":…,"type":…} with
// cty's Go syntax for values JSON cannot hold), or as HCL. Diagnostics are
// rendered as `hclvm check` renders them, on standard error.
#include "cli/eval.h"

#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/value_json.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli/console.h"
#include "util/budget.h"
#include "util/meter.h"
#include "util/stack.h"
#include "util/unicode.h"
#include "value/json.h"
#include "value/render.h"
#include "value/walk.h"

namespace hclvm::cli {

const char kEvalHelp[] =
    "Usage: hclvm eval [options] (-e EXPR | FILE)\n"
    "       hclvm eval [options] [-e EXPR] (DIR | FILE... | --module FILE)\n"
    "\n"
    "Evaluates the expression EXPR, or every attribute of the configuration\n"
    "file FILE (recursively into blocks, printing `path = value`), and prints\n"
    "the values. Variables come from --vars-file and --var; the functions are\n"
    "the standard library (see 'hclvm functions').\n"
    "\n"
    "Given a directory (or several files, or --module), evaluates it as a\n"
    "Terraform module (a Packer template when it holds *.pkr.hcl files), as\n"
    "Terraform 1.11 does: the variables from TF_VAR_*, terraform.tfvars,\n"
    "*.auto.tfvars, --var-file and --var, locals, outputs, local child modules,\n"
    "and every resource, data source and module instance's arguments, printed\n"
    "as one JSON document (see docs/config.md); with -e, EXPR in the module's\n"
    "scope as terraform console evaluates it. Diagnostics are Terraform's.\n"
    "\n"
    "Options:\n"
    "  -e, --expr EXPR       evaluate EXPR; repeat it to evaluate several, each in\n"
    "                        order, one result a line\n"
    "  --as config|json      read FILE in the native (default) or the JSON\n"
    "                        syntax (default: JSON for names ending in .json)\n"
    "  --lines FILE          evaluate each line of FILE (-: standard input) as an\n"
    "                        expression, printing each result as its line is read:\n"
    "                        one JSON object a line, {\"value\":…,\"type\":…} or\n"
    "                        {\"error\":SUMMARY,\"range\":\"line:col-line:col\"}, or with\n"
    "                        --format hcl the value (errors on standard error);\n"
    "                        blank and comment lines (#, //) are skipped\n"
    "  --var NAME=VALUE      set variable NAME: a number, true, false or null when\n"
    "                        VALUE is one written canonically (1.10, 01234 and 1e3\n"
    "                        stay strings), a string, tuple or object when VALUE\n"
    "                        starts with \", [ or { (an error if it is not a valid\n"
    "                        one), else the string VALUE as written (for a\n"
    "                        module: as terraform's -var, also spelled -var)\n"
    "  --var-file F          a module's variables file (.tfvars, .tfvars.json,\n"
    "                        .pkrvars.hcl; also spelled -var-file), in order with --var\n"
    "  --workspace NAME      a module's terraform.workspace (default: default)\n"
    "  --values F.json       values of a module's resources by address\n"
    "                        ({\"aws_vpc.this\": {...}, \"aws_subnet.a[0]\": {...}})\n"
    "  --module              evaluate the files given as one module\n"
    "  --no-confine          let a module's file functions read outside its directory\n"
    "  --vars-file F         set variables from F: *.json as one JSON object (a\n"
    "                        variable per key, types implied by the JSON, as the\n"
    "                        reference's tools do), *.tfvars.json in the HCL JSON\n"
    "                        syntax, *.tfvars, *.hcl and others as attributes in\n"
    "                        the native syntax\n"
    "  --format json|hcl     how values print (default: json)\n"
    "  --show-sensitive      print sensitive values in clear (default: as\n"
    "                        \"(sensitive value)\", in JSON with \"sensitive\":true)\n"
    "  --functions terraform|go-cty\n"
    "                        the function table: the standard library (Terraform's,\n"
    "                        the default) or go-cty's, as the reference's own tools have\n"
    "  --base-dir DIR        the directory file(), templatefile() and the other\n"
    "                        filesystem functions read under (default: FILE's\n"
    "                        directory, or the current directory for -e)\n"
    "  --cache               load FILE (or each file of a module) compiled from the\n"
    "                        cache when it is there, else compile it and store it\n"
    "                        (see 'hclvm help cache')\n"
    "  --cache-dir DIR       the cache directory (implies --cache)\n"
    "  --no-cache            parse and compile FILE (the default)\n"
    "  --color WHEN          colour for diagnostics: auto (default), always or never\n"
    "  --max-steps N         limits of each evaluation, a module's as a whole (see\n"
    "                        'Limits' in docs/api.md and docs/config.md):\n"
    "  --max-memory BYTES    loop iterations and calls (default 10000000), bytes of\n"
    "  --max-string BYTES    values made (268435456), bytes of one string (16777216),\n"
    "  --max-collection N    elements of one collection (1000000), wall-clock\n"
    "  --timeout SECONDS     seconds (10; 0: none); a result whose text would take\n"
    "                        more than --max-memory bytes is not printed\n"
    "  --no-limits           lift every limit (trusted input only)\n"
    "  -h, --help            show this help\n"
    "\n"
    "FILE may also be a compiled file written by 'hclvm compile': every file in\n"
    "it is evaluated, without parsing. A FILE named *.hclc is always read as one.\n"
    "\n"
    "Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable input.\n";

const char kDisasmHelp[] =
    "Usage: hclvm disasm [options] (-e EXPR | FILE)\n"
    "\n"
    "Prints the bytecode the compiler makes of EXPR, or of every attribute of\n"
    "the configuration file FILE: one instruction a line with its address,\n"
    "opcode, operands, and what they refer to.\n"
    "\n"
    "Options:\n"
    "  -e, --expr EXPR   compile EXPR\n"
    "  --color WHEN      colour for diagnostics: auto (default), always or never\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 no errors, 1 syntax errors, 2 usage error or unreadable input.\n";

namespace {

// The text of [v] in format [f] within [limits] (print_bounded);
// sensitive values as "(sensitive value)" unless [show_sensitive].
Printed print_value(const Value& v, Format f, const Limits& limits, bool show_sensitive) {
  return print_bounded(limits, [&] {
    return f == Format::Json ? typed_json(v, show_sensitive)
           : show_sensitive  ? render_hcl(v.unmark_deep().first, 0)
                             : render_hcl(v, 0);
  });
}

// Formats [s] of [src] as line:col-line:col.
std::string short_range(const Range& r) {
  return std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
         std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
}

// `eval FILE`: every attribute of the compiled file [f] (a parse error
// ends it first), with the variables and functions of [ctx].
int eval_compiled(const CompiledFile& f, const EvalContext& ctx, const EvalOptions& o) {
  auto context = [&f](uint32_t byte) { return f.context(byte); };
  if (f.has_errors()) {
    print_diags_with(f.diagnostics, *f.source, context, o.color);
    return kExitErrors;
  }
  Vm vm(o.limits);
  bool errors = false;
  std::string out;
  std::vector<std::pair<std::string, std::string>> not_printed;  // name, why
  Diagnostics all = f.diagnostics;
  each_compiled_attribute(f.body, "", [&](const std::string& name, const CompiledAttribute& a) {
    EvalResult r = a.value(vm, &ctx);
    for (auto& d : r.diagnostics) all.push_back(std::move(d));
    if (r.has_errors()) {
      errors = true;
      return;
    }
    Printed p = print_value(r.value, o.format, o.limits, o.show_sensitive);
    if (!p.error.empty()) {
      errors = true;
      not_printed.emplace_back(name, std::move(p.error));
      return;
    }
    out += name + " = " + p.text + "\n";
  });
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  print_diags_with(all, *f.source, context, o.color);
  for (const auto& [name, why] : not_printed) print_failed("the value of " + name, why);
  return errors ? kExitErrors : kExitOk;
}

// `eval FILE.json`: every top-level property of the JSON file [path], whose
// contents are [bytes], in order, with the variables and functions of [ctx].
int eval_json_file(const std::string& path, const EvalContext& ctx, const EvalOptions& o,
                   std::string bytes) {
  JsonFileAttributes f = json_file_attributes(display_name(path), std::move(bytes));
  Diagnostics all = f.diagnostics;
  bool errors = has_errors(all);
  std::string out;
  std::vector<std::pair<std::string, std::string>> not_printed;  // name, why
  Vm vm(o.limits);
  for (const Attribute& a : f.attributes) {
    EvalResult r = a.expr.value(vm, &ctx);
    all.insert(all.end(), r.diagnostics.begin(), r.diagnostics.end());
    if (r.has_errors()) {
      errors = true;
      continue;
    }
    Printed p = print_value(r.value, o.format, o.limits, o.show_sensitive);
    if (!p.error.empty()) {
      errors = true;
      not_printed.emplace_back(a.name, std::move(p.error));
      continue;
    }
    out += a.name + " = " + p.text + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  print_diags(all, *f.file.source, nullptr, o.color);
  for (const auto& [name, why] : not_printed) print_failed("the value of " + name, why);
  return errors ? kExitErrors : kExitOk;
}

// `eval --lines FILE`: one result per line of [path] (`-`: standard
// input), each printed and flushed as soon as its line is read, so that a
// program at the other end of a pipe gets its answer before sending the
// next line. JSON: {"value":…,"type":…} or {"error":SUMMARY,"range":…};
// HCL: the value, with diagnostics on standard error. Blank lines and
// comment lines (#, //) are skipped.
int eval_lines(const std::string& path, const EvalContext& ctx, const EvalOptions& o) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "r");
  if (!f) return usage_error("cannot read " + path + ": " + std::strerror(errno));
  Vm vm(o.limits);
  bool any_error = false;
  char* buf = nullptr;
  size_t cap = 0;
  size_t number = 0;
  for (ssize_t n; (n = ::getline(&buf, &cap, f)) >= 0;) {
    ++number;
    std::string line(buf, static_cast<size_t>(n));
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (blank_or_comment(line)) continue;
    std::string name =
        o.format == Format::Json ? "<expr>" : "<line " + std::to_string(number) + ">";
    ExprParse p = parse_expression(make_source(name, line));
    Diagnostics diags = p.diagnostics;
    Value v;
    if (!p.has_errors() && p.expr) {
      CompileResult c = compile_expression(*p.expr, p.source);
      EvalResult r = vm.run(*c.program, ctx);
      v = std::move(r.value);
      diags = std::move(c.diagnostics);
      diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
    }
    const Diagnostic* first = nullptr;
    for (const Diagnostic& d : diags)
      if (d.severity == Severity::Error && !first) first = &d;
    std::string out;
    if (o.format == Format::Hcl) {
      std::fflush(stdout);
      print_diags(diags, *p.source, nullptr, o.color);
    }
    if (first) {
      any_error = true;
      std::string range = first->subject ? short_range(*first->subject) : "";
      if (o.format == Format::Json)
        out = "{\"error\":" + json_quote(first->summary) + ",\"range\":" + json_quote(range) +
              "}\n";
    } else if (Printed pr = print_value(v, o.format, o.limits, o.show_sensitive); pr.error.empty()) {
      out = pr.text + "\n";
    } else {
      any_error = true;
      if (o.format == Format::Json)
        out = "{\"error\":" + json_quote("The value is too large to print: " + pr.error) +
              ",\"range\":\"\"}\n";
      else
        print_failed("the value of line " + std::to_string(number), pr.error);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
  }
  bool failed = std::ferror(f);
  int err = errno;
  std::free(buf);
  if (f != stdin) std::fclose(f);
  if (failed) return usage_error("cannot read " + path + ": " + std::strerror(err));
  return any_error ? kExitErrors : kExitOk;
}

// `eval -e EXPR`: evaluates [text] with [ctx] and prints its value.
int eval_expr(const std::string& text, Vm& vm, const EvalContext& ctx, const EvalOptions& o) {
  ExprParse p = parse_expression(make_source("<expr>", text));
  if (p.has_errors() || !p.expr) {
    std::fflush(stdout);
    print_diags(p.diagnostics, *p.source, nullptr, o.color);
    return kExitErrors;
  }
  CompileResult c = compile_expression(*p.expr, p.source);
  EvalResult r = vm.run(*c.program, ctx);
  r.diagnostics.insert(r.diagnostics.begin(), c.diagnostics.begin(), c.diagnostics.end());
  std::fflush(stdout);
  print_diags(r.diagnostics, *p.source, nullptr, o.color);
  if (r.has_errors()) return kExitErrors;
  Printed printed = print_value(r.value, o.format, o.limits, o.show_sensitive);
  if (!printed.error.empty()) {
    print_failed("the result", printed.error);
    return kExitErrors;
  }
  printed.text += "\n";
  std::fwrite(printed.text.data(), 1, printed.text.size(), stdout);
  return kExitOk;
}

}  // namespace

int run_eval(const std::vector<std::string>& args) {
  EvalOptions o;
  if (auto stop = parse_eval_options(args, EvalCommand::Eval, o)) return *stop;
  if (o.module) return run_eval_module(o);
  EvalContext ctx;
  ctx.set_functions(functions_for(o));
  if (auto err = load_vars(o, ctx)) return usage_error(*err);
  if (o.lines) return eval_lines(*o.lines, ctx, o);

  Vm vm(o.limits);
  if (!o.exprs.empty()) {
    // Each -e in order, one result a line; one that fails does not stop
    // the others.
    bool errors = false;
    for (const std::string& e : o.exprs) errors |= eval_expr(e, vm, ctx, o) != kExitOk;
    return errors ? kExitErrors : kExitOk;
  }

  const std::string& path = o.files[0];
  std::string bytes, err;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  // A file `hclvm compile` wrote: every file in it, sources included. One
  // named *.hclc is read as one whatever it holds, so that an empty or
  // damaged one is refused rather than read as an empty configuration.
  bool hclc_name = path.size() >= 5 && path.compare(path.size() - 5, 5, ".hclc") == 0;
  if (hclc_name || check_compiled(bytes).empty() || bytes.rfind("HCLVMBC", 0) == 0) {
    LoadResult r = read_compiled(bytes);
    if (!r.ok()) return usage_error("cannot load " + path + ": " + r.error);
    bool errors = false;
    for (const CompiledFile& f : r.files) errors |= eval_compiled(f, ctx, o) != kExitOk;
    return errors ? kExitErrors : kExitOk;
  }
  bool json = o.as_json || (path != "-" && classify(path) == FileSyntax::Json);
  if (json && !o.cache) return eval_json_file(path, ctx, o, std::move(bytes));
  std::shared_ptr<const Source> src = make_source(display_name(path), std::move(bytes));
  CompileOptions co;
  co.syntax = json ? Syntax::Json : Syntax::Native;
  if (!o.cache) return eval_compiled(compile_file(src, co.syntax), ctx, o);
  Cache cache(CacheOptions{o.cache_dir});
  CacheStatus status;
  CompiledFile f = cache.load_or_compile(src, co, &status);
  if (status.outcome == CacheStatus::Replaced)
    std::fprintf(stderr, "hclvm: cache entry for %s refused (%s); compiled again\n",
                 src->name().c_str(), status.reason.c_str());
  else if (status.outcome == CacheStatus::NotCached)
    std::fprintf(stderr, "hclvm: %s not cached: %s\n", src->name().c_str(), status.reason.c_str());
  return eval_compiled(f, ctx, o);
}

int run_disasm(const std::vector<std::string>& args) {
  EvalOptions o;
  if (auto stop = parse_eval_options(args, EvalCommand::Disasm, o)) return *stop;
  if (!o.exprs.empty()) {
    bool errors = false;
    for (const std::string& e : o.exprs) {
      ExprParse p = parse_expression(make_source("<expr>", e));
      if (p.has_errors() || !p.expr) {
        std::fflush(stdout);
        print_diags(p.diagnostics, *p.source, nullptr, o.color);
        errors = true;
        continue;
      }
      std::string s = disassemble(*compile_expression(*p.expr, p.source).program);
      std::fwrite(s.data(), 1, s.size(), stdout);
    }
    return errors ? kExitErrors : kExitOk;
  }
  const std::string& path = o.files[0];
  std::string bytes, err;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  FileParse p = parse_config(make_source(display_name(path), std::move(bytes)));
  if (p.has_errors() || !p.body) {
    print_diags(p.diagnostics, *p.source, p.body, o.color);
    return kExitErrors;
  }
  std::string out;
  each_attribute(*p.body, "", [&](const std::string& name, const ast::Attribute& a) {
    Range r = p.source->range(a.expr->span);
    if (!out.empty()) out += "\n";
    out += "== " + name + " (" + short_range(r) + ")\n";
    out += disassemble(*compile_expression(*a.expr, p.source).program);
  });
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace hclvm::cli

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
#include <charconv>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>

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
    "  -e, --expr EXPR       evaluate EXPR\n"
    "  --as config|json      read FILE in the native (default) or the JSON\n"
    "                        syntax (default: JSON for names ending in .json)\n"
    "  --lines FILE          evaluate each line of FILE as an expression and\n"
    "                        print one JSON object per line: {\"value\":…,\"type\":…}\n"
    "                        or {\"error\":SUMMARY,\"range\":\"line:col-line:col\"}\n"
    "  --var NAME=VALUE      set variable NAME; VALUE is an HCL expression\n"
    "                        without variables, or else taken as a string (for a\n"
    "                        module: as terraform's -var, also spelled -var)\n"
    "  --var-file F          a module's variables file (.tfvars, .tfvars.json,\n"
    "                        .pkrvars.hcl; also spelled -var-file), in order with --var\n"
    "  --workspace NAME      a module's terraform.workspace (default: default)\n"
    "  --values F.json       values of a module's resources by address\n"
    "                        ({\"aws_vpc.this\": {...}, \"aws_subnet.a[0]\": {...}})\n"
    "  --module              evaluate the files given as one module\n"
    "  --no-confine          let a module's file functions read outside its directory\n"
    "  --vars-file F.json    set one variable per top-level key of a JSON object\n"
    "                        (types implied by the JSON, as the reference's tools do)\n"
    "  --format json|hcl     how values print (default: json)\n"
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
    "  --max-steps N         limits of each evaluation (see 'Limits' in docs/api.md):\n"
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

// --- options ------------------------------------------------------------------------

// Reads a --benchtime value [s] ("2s", "500ms", "1.5") as seconds into [out].
bool parse_duration(const std::string& s, double& out) {
  double scale = 1;
  std::string num = s;
  if (num.size() > 2 && num.ends_with("ms")) {
    scale = 1e-3, num.resize(num.size() - 2);
  } else if (num.size() > 1 && num.back() == 's') {
    num.pop_back();
  }
  char* end = nullptr;
  double d = std::strtod(num.c_str(), &end);
  if (num.empty() || *end != '\0' || !(d > 0) || d > 1e6) return false;
  out = d * scale;
  return true;
}

// Reads a positive count [s] (-n, --runs) into [out].
bool parse_count(const std::string& s, long& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && out > 0;
}

}  // namespace

std::optional<int> parse_eval_options(const std::vector<std::string>& args, EvalCommand cmd,
                                      EvalOptions& o) {
  const char* name = cmd == EvalCommand::Eval ? "eval" : cmd == EvalCommand::Disasm ? "disasm"
                                                                                   : "bench";
  const char* help = cmd == EvalCommand::Eval ? kEvalHelp : cmd == EvalCommand::Disasm ? kDisasmHelp
                                                                                      : kBenchHelp;
  bool eval = cmd == EvalCommand::Eval, bench = cmd == EvalCommand::Bench;
  std::vector<std::string> long_args = eval ? long_terraform_flags(args) : args;
  ArgScanner sc(long_args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      o.files.push_back(sc.name());
      continue;
    }
    if (sc.is("--help", "-h")) {
      std::fputs(help, stdout);
      return kExitOk;
    }
    if (bench && sc.is("--json")) {
      o.json = true;
      continue;
    }
    if (eval && (sc.is("--cache") || sc.is("--no-cache"))) {
      o.cache = sc.is("--cache");
      continue;
    }
    if (eval && sc.is("--no-limits")) {
      o.limits = Limits::none();
      continue;
    }
    if (eval && (sc.is("--module") || sc.is("--no-confine"))) {
      (sc.is("--module") ? o.module : o.no_confine) = true;
      continue;
    }
    bool known = sc.is("--expr", "-e") || sc.is("--color") || ((eval || bench) && sc.is("--as")) ||
                 (eval && sc.is("--cache-dir")) ||
                 (eval && (sc.is("--max-steps") || sc.is("--max-memory") || sc.is("--max-string") ||
                           sc.is("--max-collection") || sc.is("--timeout"))) ||
                 ((eval || bench) && (sc.is("--var") || sc.is("--vars-file"))) ||
                 ((eval || bench) && (sc.is("--functions") || sc.is("--base-dir"))) ||
                 (eval && (sc.is("--lines") || sc.is("--format"))) ||
                 (eval && (sc.is("--var-file") || sc.is("--workspace") || sc.is("--values"))) ||
                 (bench && (sc.is("-n") || sc.is("--runs") || sc.is("--benchtime")));
    if (!known)
      return usage_error("unknown flag " + sc.name() + " (see 'hclvm help " + name + "')");
    std::optional<std::string> v = sc.value(err);
    if (!v) return usage_error(err);
    if (sc.is("--expr", "-e")) {
      o.expr = *v;
    } else if (sc.is("--color")) {
      if (!parse_color_mode(*v, o.color))
        return usage_error("--color must be auto, always or never, not '" + *v + "'");
    } else if (sc.is("--as")) {
      if (*v != "config" && *v != "json")
        return usage_error("--as must be config or json, not '" + *v + "'");
      o.as_json = *v == "json";
    } else if (sc.is("--lines")) {
      o.lines = *v;
    } else if (sc.is("--var")) {
      o.var_args.emplace_back(false, *v);
      size_t eq = v->find('=');
      if (eq != std::string::npos && eq != 0) o.vars.emplace_back(v->substr(0, eq), v->substr(eq + 1));
    } else if (sc.is("--var-file")) {
      o.var_args.emplace_back(true, *v);
    } else if (sc.is("--workspace")) {
      o.workspace = *v;
    } else if (sc.is("--values")) {
      o.values_file = *v;
    } else if (sc.is("--vars-file")) {
      o.vars_file = *v;
    } else if (sc.is("--functions")) {
      if (*v != "terraform" && *v != "go-cty")
        return usage_error("--functions must be terraform or go-cty, not '" + *v + "'");
      o.go_cty_functions = *v == "go-cty";
    } else if (sc.is("--base-dir")) {
      o.base_dir = *v;
    } else if (sc.is("--max-steps") || sc.is("--max-memory") || sc.is("--max-string") ||
               sc.is("--max-collection")) {
      uint64_t n = 0;
      auto r = std::from_chars(v->data(), v->data() + v->size(), n);
      if (r.ec != std::errc() || r.ptr != v->data() + v->size() || n == 0)
        return usage_error(sc.name() + " must be a positive count, not '" + *v + "'");
      (sc.is("--max-steps")     ? o.limits.max_steps
       : sc.is("--max-memory")  ? o.limits.max_memory
       : sc.is("--max-string")  ? o.limits.max_string_bytes
                                : o.limits.max_collection_size) = n;
    } else if (sc.is("--timeout")) {
      char* end = nullptr;
      double secs = std::strtod(v->c_str(), &end);
      if (v->empty() || *end != '\0' || !(secs >= 0) || secs > 1e6)
        return usage_error("--timeout must be a number of seconds, not '" + *v + "'");
      o.limits.timeout = std::chrono::nanoseconds(int64_t(secs * 1e9));
    } else if (sc.is("--cache-dir")) {
      o.cache_dir = *v;
      o.cache = true;
    } else if (sc.is("-n")) {
      long n = 0;
      if (!parse_count(*v, n)) return usage_error("-n must be a positive count, not '" + *v + "'");
      o.iterations = n;
    } else if (sc.is("--runs")) {
      if (!parse_count(*v, o.runs) || o.runs > 1000)
        return usage_error("--runs must be a count from 1 to 1000, not '" + *v + "'");
    } else if (sc.is("--benchtime")) {
      if (!parse_duration(*v, o.benchtime))
        return usage_error("--benchtime must be a duration like 1s or 200ms, not '" + *v + "'");
    } else if (*v == "json") {
      o.format = Format::Json;
    } else if (*v == "hcl") {
      o.format = Format::Hcl;
    } else {
      return usage_error("--format must be json or hcl, not '" + *v + "'");
    }
  }
  if (eval && !o.module && !o.lines) {
    o.module = o.files.size() > 1 || (o.files.size() == 1 && is_directory(o.files[0]));
  }
  if (o.module) {
    if (o.files.empty()) return usage_error("eval --module needs a DIR or FILEs (see 'hclvm help eval')");
    if (o.lines) return usage_error("eval of a module takes -e EXPR, not --lines");
    // These read lone expressions and files; a module has its own sources.
    if (o.vars_file) return usage_error("--vars-file does not apply to a module: use --var-file");
    if (o.base_dir) return usage_error("--base-dir does not apply to a module: file functions read its directory");
    if (o.go_cty_functions) return usage_error("--functions go-cty does not apply to a module: it has Terraform's");
    if (o.as_json) return usage_error("--as does not apply to a module: *.tf.json files are JSON");
    return std::nullopt;
  }
  for (const auto& [file, text] : o.var_args) {
    size_t eq = text.find('=');
    if (file) return usage_error("--var-file applies to a module (a DIR, or --module)");
    if (eq == std::string::npos || eq == 0)
      return usage_error("--var needs NAME=VALUE, not '" + text + "'");
  }
  int inputs = int(o.expr.has_value()) + int(o.lines.has_value()) + int(o.files.size());
  if (inputs != 1) {
    return usage_error(std::string(name) + " needs exactly one of -e EXPR" +
                       (eval ? ", --lines FILE" : "") + " or FILE (see 'hclvm help " + name +
                       "')");
  }
  return std::nullopt;
}

std::optional<std::string> load_vars(const EvalOptions& o, EvalContext& ctx) {
  if (o.vars_file) {
    std::string bytes, err;
    if (!read_input(*o.vars_file, bytes, err)) return "cannot read " + *o.vars_file + ": " + err;
    if (std::string e = set_variables_from_json(ctx, bytes); !e.empty())
      return "vars " + *o.vars_file + ": " + e;
  }
  for (const auto& [name, text] : o.vars) {
    ExprParse p = parse_expression(make_source("<var " + name + ">", text));
    Value v = Value::string(text);
    if (!p.has_errors() && p.expr) {
      CompileResult c = compile_expression(*p.expr, p.source);
      Vm vm;
      EvalContext none;
      EvalResult r = vm.run(*c.program, none);
      if (!r.has_errors()) v = r.value;
    }
    ctx.set(name, v);
  }
  return std::nullopt;
}

namespace {

// typed_json() of [v], which has no marks at any depth.
std::string typed_json_of(const Value& v) {
  JsonResult<std::string> ty = type_to_json(v.type());
  std::string type = ty.ok() ? ty.value : json_quote(v.type()->friendly_name());
  if (v.is_wholly_known()) {
    JsonResult<std::string> j = to_json(v, v.type());
    if (j.ok()) return "{\"value\":" + j.value + ",\"type\":" + type + "}";
  }
  return "{\"repr\":" + json_quote(go_string(v)) + ",\"type\":" + type + "}";
}

}  // namespace

std::string typed_json(const Value& v0) {
  Value v = v0.unmark_deep().first;
  // The Go syntax recurses once per level.
  if (detail::is_container(v))
    return util::run_deep([&](const util::StackBudget&) { return typed_json_of(v); });
  return typed_json_of(v);
}

void print_diags(const Diagnostics& diags, const Source& src, const ast::Body* body,
                 ColorMode color) {
  std::function<std::string(uint32_t)> context;
  if (body) context = [body](uint32_t byte) { return diag::native_context(*body, byte); };
  print_diags_with(diags, src, std::move(context), color);
}

void print_diags_with(const Diagnostics& diags, const Source& src,
                      std::function<std::string(uint32_t)> context, ColorMode color) {
  if (diags.empty()) return;
  diag::SnippetFiles files;
  diag::SnippetFile f{src.text(), std::move(context)};
  files.emplace(src.name(), std::move(f));
  diag::write_text(diags, files, text_style_for(STDERR_FILENO, color), file_sink(stderr));
}

JsonFileAttributes json_file_attributes(std::string name, std::string bytes) {
  JsonFileAttributes out;
  out.file = parse_json_body(make_source(std::move(name), std::move(bytes)));
  out.diagnostics = out.file.diagnostics;
  if (out.file.has_errors()) return out;
  AttributesResult a = out.file.body.just_attributes();
  out.attributes = std::move(a.attributes);
  out.diagnostics.insert(out.diagnostics.end(), a.diagnostics.begin(), a.diagnostics.end());
  return out;
}

namespace {

// Printing a result. A value may be small in memory and enormous as text:
// one that repeats a shared part writes it out every time, and indentation
// makes the text of a deep value quadratic in its depth. So a result is
// written under a budget of its own (util/meter.h), with the limits of the
// run: its text counts as memory and may not pass the memory limit (a text
// of its own, not a string value: the string size limit is not its
// bound), and the writing has a deadline of its own. A result whose text
// would pass them is not printed; the command reports it and fails.
struct Printed {
  std::string text;
  std::string error;  // why it was not printed
};

// The text of [v] in format [f] within [limits].
Printed print_value(const Value& v, Format f, const Limits& limits) {
  Limits l = limits;
  l.max_string_bytes = std::max(l.max_string_bytes, l.max_memory);
  Printed p;
  util::Budget* outer = util::current_budget();
  try {
    util::Budget budget(l);
    util::set_current_budget(&budget);
    p.text = f == Format::Json ? typed_json(v) : render_hcl(v, 0);
  } catch (const util::LimitExceeded& e) {
    p.text.clear();
    switch (e.limit) {
      case Limit::Memory:
      case Limit::StringSize:
        p.error = "its text would take more than " + std::to_string(l.max_memory) +
                  " bytes (see --max-memory)";
        break;
      case Limit::Timeout: p.error = "writing it took too long (see --timeout)"; break;
      case Limit::Depth: p.error = "it nests too deeply"; break;
      default: p.error = std::string(limit_summary(e.limit));
    }
  }
  util::set_current_budget(outer);
  return p;
}

// Reports on standard error that the value of [what] was not printed, [why].
void print_failed(const std::string& what, const std::string& why) {
  std::fprintf(stderr, "hclvm: %s is too large to print: %s\n", what.c_str(), why.c_str());
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
    Printed p = print_value(r.value, o.format, o.limits);
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
    Printed p = print_value(r.value, o.format, o.limits);
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

// `eval --lines FILE`: one result object per line of [path].
int eval_lines(const std::string& path, const EvalContext& ctx, const Limits& limits) {
  std::string bytes, err;
  if (!read_input(path, bytes, err)) return usage_error("cannot read " + path + ": " + err);
  std::istringstream in(bytes);
  std::string line;
  Vm vm(limits);
  bool any_error = false;
  std::string out;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ExprParse p = parse_expression(make_source("<expr>", line));
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
    if (first) {
      any_error = true;
      out += "{\"error\":" + json_quote(first->summary) +
             ",\"range\":" + json_quote(first->subject ? short_range(*first->subject) : "") + "}\n";
    } else if (Printed pr = print_value(v, Format::Json, limits); pr.error.empty()) {
      out += pr.text + "\n";
    } else {
      any_error = true;
      out += "{\"error\":" + json_quote("The value is too large to print: " + pr.error) +
             ",\"range\":\"\"}\n";
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return any_error ? kExitErrors : kExitOk;
}

}  // namespace

std::shared_ptr<const FunctionTable> functions_for(const EvalOptions& o) {
  if (o.go_cty_functions) return std::make_shared<FunctionTable>(default_functions());
  LibraryOptions lib;
  if (o.base_dir) {
    lib.base_dir = *o.base_dir;
  } else if (!o.files.empty() && o.files[0] != "-") {
    std::filesystem::path dir = std::filesystem::path(o.files[0]).parent_path();
    lib.base_dir = dir.empty() ? "." : dir.string();
  } else {
    lib.base_dir = ".";
  }
  return std::make_shared<FunctionTable>(standard_functions(lib));
}

int run_eval(const std::vector<std::string>& args) {
  EvalOptions o;
  if (auto stop = parse_eval_options(args, EvalCommand::Eval, o)) return *stop;
  if (o.module) return run_eval_module(o);
  EvalContext ctx;
  ctx.set_functions(functions_for(o));
  if (auto err = load_vars(o, ctx)) return usage_error(*err);
  if (o.lines) return eval_lines(*o.lines, ctx, o.limits);

  Vm vm(o.limits);
  if (o.expr) {
    ExprParse p = parse_expression(make_source("<expr>", *o.expr));
    if (p.has_errors() || !p.expr) {
      print_diags(p.diagnostics, *p.source, nullptr, o.color);
      return kExitErrors;
    }
    CompileResult c = compile_expression(*p.expr, p.source);
    EvalResult r = vm.run(*c.program, ctx);
    r.diagnostics.insert(r.diagnostics.begin(), c.diagnostics.begin(), c.diagnostics.end());
    print_diags(r.diagnostics, *p.source, nullptr, o.color);
    if (r.has_errors()) return kExitErrors;
    Printed printed = print_value(r.value, o.format, o.limits);
    if (!printed.error.empty()) {
      print_failed("the result", printed.error);
      return kExitErrors;
    }
    printed.text += "\n";
    std::fwrite(printed.text.data(), 1, printed.text.size(), stdout);
    return kExitOk;
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
  if (o.expr) {
    ExprParse p = parse_expression(make_source("<expr>", *o.expr));
    if (p.has_errors() || !p.expr) {
      print_diags(p.diagnostics, *p.source, nullptr, o.color);
      return kExitErrors;
    }
    std::string s = disassemble(*compile_expression(*p.expr, p.source).program);
    std::fwrite(s.data(), 1, s.size(), stdout);
    return kExitOk;
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

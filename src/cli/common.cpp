// The evaluating commands' toolkit (see common.h): reading their options,
// the function table and variables they evaluate with, printing typed JSON
// results and diagnostics, and the attributes of a JSON-syntax file.
#include "cli/common.h"

#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/value_json.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/eval.h"
#include "util/budget.h"
#include "util/stack.h"
#include "value/json.h"
#include "value/render.h"
#include "value/walk.h"

namespace hclvm::cli {

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
    if (eval && sc.is("--show-sensitive")) {
      o.show_sensitive = true;
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
      return unknown_flag(sc.name(), help, std::string("hclvm help ") + name);
    std::optional<std::string> v = sc.value(err);
    if (!v) return usage_error(err);
    if (sc.is("--expr", "-e")) {
      o.exprs.push_back(*v);
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
  if (bench && o.exprs.size() > 1)
    return usage_error("bench measures one -e EXPR at a time (see 'hclvm help bench')");
  int inputs = int(!o.exprs.empty()) + int(o.lines.has_value()) + int(o.files.size());
  if (inputs != 1) {
    return usage_error(std::string(name) + " needs exactly one of -e EXPR" +
                       (eval ? ", --lines FILE" : "") + " or FILE (see 'hclvm help " + name +
                       "')");
  }
  return std::nullopt;
}

std::optional<Value> var_value(const std::string& text, std::string& error) {
  bool literal = !text.empty() && (text[0] == '"' || text[0] == '[' || text[0] == '{');
  ExprParse p = parse_expression(make_source("<var>", text));
  std::optional<Value> v;
  std::string why;
  if (!p.has_errors() && p.expr) {
    CompileResult c = compile_expression(*p.expr, p.source);
    Vm vm;
    EvalContext none;
    EvalResult r = vm.run(*c.program, none);
    if (!r.has_errors()) v = r.value;
    for (const Diagnostic& d : r.diagnostics)
      if (d.severity == Severity::Error && why.empty()) why = d.summary;
  }
  for (const Diagnostic& d : p.diagnostics)
    if (d.severity == Severity::Error && why.empty()) why = d.summary;
  if (literal) {
    if (!v) error = why.empty() ? "not a valid value" : why;
    return v;
  }
  // Only a literal written canonically keeps its type: 1.10, 01234, 1e3
  // and +5 would each print differently, so they stay strings.
  if (v && v->is_known() && !v->is_marked()) {
    if (v->is_null() && text == "null") return v;
    if (!v->is_null() && v->type() == Type::boolean() && (text == "true" || text == "false")) return v;
    if (!v->is_null() && v->type() == Type::number() && v->as_number().text() == text) return v;
  }
  return Value::string(text);
}

namespace {

// The 1-based line and column (in bytes) of byte [offset] of [text].
std::pair<uint32_t, uint32_t> line_column(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  uint32_t line = 1;
  size_t start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') ++line, start = i + 1;
  return {line, uint32_t(offset - start + 1)};
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

VarsFile read_vars_file(const std::string& path, std::string bytes) {
  VarsFile out;
  std::string name = display_name(path);
  if (ends_with(path, ".json") && !ends_with(path, ".tfvars.json")) {
    out.source = make_source(name, std::move(bytes));
    std::string_view json = out.source->text();
    auto fail = [&](const JsonError& e) {
      Diagnostic d;
      d.summary = "Invalid variables file";
      d.detail = e.message;
      if (e.offset >= 0) {
        auto [line, col] = line_column(json, size_t(e.offset));
        Range r;
        r.filename = name;
        r.start.line = r.end.line = line;
        r.start.column = col;
        r.end.column = col + 1;
        r.start.byte = uint32_t(e.offset);
        r.end.byte = uint32_t(std::min(json.size(), size_t(e.offset) + 1));
        d.subject = r;
      }
      out.diagnostics.push_back(std::move(d));
      return out;
    };
    JsonResult<const Type*> ty = implied_type(json);
    if (!ty.ok()) return fail(*ty.error);
    if (!ty.value->is_object()) return fail(JsonError{"the top level must be a JSON object", {}, 0});
    JsonResult<Value> val = from_json(json, ty.value);
    if (!val.ok()) return fail(*val.error);
    for (size_t i = 0; i < ty.value->size(); ++i)
      out.vars.emplace_back(std::string(ty.value->attr_name(i)), val.value.attr(i));
    return out;
  }
  auto src = make_source(name, std::move(bytes));
  ConfigFile f = ends_with(path, ".json") ? parse_json_body(src) : parse_native_body(src);
  out.source = f.source ? f.source : src;
  out.diagnostics = f.diagnostics;
  if (f.has_errors()) return out;
  AttributesResult attrs = f.body.just_attributes();
  out.diagnostics.insert(out.diagnostics.end(), attrs.diagnostics.begin(), attrs.diagnostics.end());
  for (const Attribute& a : attrs.attributes) {
    EvalResult r = a.expr.value(nullptr);
    out.diagnostics.insert(out.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
    out.vars.emplace_back(a.name, r.value);
  }
  return out;
}

std::optional<std::string> load_vars(const EvalOptions& o, EvalContext& ctx) {
  if (o.vars_file) {
    std::string bytes, err;
    if (!read_input(*o.vars_file, bytes, err)) return "cannot read " + *o.vars_file + ": " + err;
    VarsFile f = read_vars_file(*o.vars_file, std::move(bytes));
    if (has_errors(f.diagnostics)) {
      print_diags(f.diagnostics, *f.source, nullptr, o.color);
      for (const Diagnostic& d : f.diagnostics) {
        if (d.severity != Severity::Error) continue;
        std::string at = *o.vars_file;
        if (d.subject)
          at += ":" + std::to_string(d.subject->start.line) + ":" + std::to_string(d.subject->start.column);
        return at + ": " + d.summary + (d.detail.empty() ? "" : ": " + d.detail);
      }
    }
    for (auto& [name, v] : f.vars) ctx.set(name, std::move(v));
  }
  for (const auto& [name, text] : o.vars) {
    std::string err;
    std::optional<Value> v = var_value(text, err);
    if (!v)
      return "--var " + name + ": '" + text + "' is not a valid value (" + err +
             "); to pass it as a string, quote it: --var '" + name + "=\"...\"'";
    ctx.set(name, *v);
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

Printed print_bounded(const Limits& limits, const std::function<std::string()>& render,
                      bool options) {
  Printed p;
  std::optional<Limit> hit = util::within_text_budget(limits, [&] { p.text = render(); });
  if (!hit) return p;
  p.text.clear();
  p.error = util::text_limit_reason(*hit, limits, "its text");
  if (options && *hit == Limit::Memory) p.error += " (see --max-memory)";
  if (options && *hit == Limit::Timeout) p.error += " (see --timeout)";
  return p;
}

void print_failed(const std::string& what, const std::string& why) {
  std::fprintf(stderr, "hclvm: %s is too large to print: %s\n", what.c_str(), why.c_str());
}

std::string typed_json(const Value& v0, bool show_sensitive) {
  // Not a structured binding: a lambda below captures the value.
  auto unmarked = v0.unmark_deep();
  const Value& v = unmarked.first;
  if (unmarked.second.has("sensitive") && !show_sensitive) {
    JsonResult<std::string> ty = type_to_json(v.type());
    std::string type = ty.ok() ? ty.value : json_quote(v.type()->friendly_name());
    return "{\"value\":" + json_quote(kSensitiveText) + ",\"type\":" + type +
           ",\"sensitive\":true}";
  }
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

}  // namespace hclvm::cli

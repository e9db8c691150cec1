// Whole configurations from the command line (hclvm/config.h):
//  - `hclvm eval DIR` (or several files, or --module FILE): the module
//    evaluated, printed as one JSON document or readably (--format hcl);
//  - `hclvm eval DIR -e EXPR`: EXPR in the module's scope, printed as
//    `hclvm eval -e` prints values (or as terraform console does);
//  - `hclvm console DIR`: terraform console's piped mode, line by line,
//    stream by stream, exit status included;
//  - module directories for `hclvm check` (check.cpp), which reports what
//    `terraform validate` reports without providers.
// Diagnostics print as Terraform prints them (its human view, -no-color).
#include <hclvm/config.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/cli.h"
#include "cli/eval.h"
#include "diag/render.h"
#include "util/unicode.h"
#include "value/json.h"

extern char** environ;

namespace hclvm::cli {

const char kConsoleHelp[] =
    "Usage: hclvm console [options] [DIR]\n"
    "\n"
    "Reads expressions from standard input, one a line, and evaluates them in\n"
    "the scope of the Terraform module DIR (default: the current directory),\n"
    "as `terraform console` does with piped input: the module and its\n"
    "variables are loaded and evaluated first (errors there end the session),\n"
    "each line is evaluated on its own (`exit` ends the session, an error ends\n"
    "it with status 1), and the value of the last line is printed at the end.\n"
    "Values and diagnostics are printed exactly as Terraform 1.11 prints them.\n"
    "\n"
    "Options:\n"
    "  -var NAME=VALUE    set a variable (also --var)\n"
    "  -var-file FILE     read variables from FILE (also --var-file)\n"
    "  --workspace NAME   terraform.workspace (default: $TF_WORKSPACE, else default)\n"
    "  --values F.json    values of resources by address\n"
    "  --no-confine       let file functions read outside DIR\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 success, 1 errors, 2 usage error.\n";

std::vector<std::string> long_terraform_flags(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a == "-var" || a.starts_with("-var=") || a == "-var-file" || a.starts_with("-var-file="))
      out.push_back("-" + a);
    else
      out.push_back(a);
  }
  return out;
}

bool is_directory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_module_dir(const std::string& path) {
  if (!is_directory(path)) return false;
  bool found = false;
  if (DIR* d = opendir(path.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      found |= n.ends_with(".tf") || n.ends_with(".tf.json") || n.ends_with(".pkr.hcl") ||
               n.ends_with(".pkr.json");
    }
    closedir(d);
  }
  return found;
}

ModuleCheck check_module(const std::string& dir) {
  ModuleCheck mc;
  config::LoadResult m = config::load_module(dir);
  mc.sources = m.sources;
  mc.diagnostics = m.diagnostics;
  for (const auto& [name, f] : m.sources.files()) {
    ConfigFile reparsed = f.syntax == Syntax::Json ? parse_json_body(f.source) : parse_native_body(f.source);
    mc.parse_diagnostics[name] = reparsed.diagnostics;
  }
  if (m.has_errors() || !m.module) return mc;
  Diagnostics v = config::validate(m.module);
  mc.diagnostics.insert(mc.diagnostics.end(), v.begin(), v.end());
  return mc;
}

namespace {

// The process's environment as NAME=VALUE entries.
std::vector<std::string> environment() {
  std::vector<std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) out.emplace_back(*e);
  return out;
}

// Reads the resource values of `--values F.json` into [in].
std::optional<std::string> read_values(const std::string& path, config::Inputs& in) {
  std::string bytes, err;
  if (!read_input(path, bytes, err)) return "cannot read " + path + ": " + err;
  JsonResult<Value> v = from_json_simple(bytes);
  if (!v.ok()) return "--values " + path + ": " + v.error->message;
  if (!v.value.type()->is_object() && !v.value.type()->is_map())
    return "--values " + path + ": a JSON object of addresses is required";
  const Type* t = v.value.type();
  size_t n = t->is_object() ? t->size() : v.value.length();
  for (size_t i = 0; i < n; ++i) {
    std::string key(t->is_object() ? t->attr_name(i) : v.value.map_key(i));
    in.resources.insert_or_assign(key, t->is_object() ? v.value.attr(i) : v.value.map_value(i));
  }
  return std::nullopt;
}

// The module's directory and the options of a load of [files].
struct Target {
  std::string dir;
  std::vector<std::string> files;  // empty: the whole directory
};

// Loads the module [t] (a directory, or its files), through the
// compiled-file cache when [o] asks for it (--cache, --cache-dir).
config::LoadResult load(const Target& t, const EvalOptions& o = {}) {
  config::LoadOptions lo;
  std::unique_ptr<Cache> cache;
  if (o.cache) {
    cache = std::make_unique<Cache>(CacheOptions{o.cache_dir});
    lo.cache = cache.get();
  }
  return t.files.empty() ? config::load_module(t.dir, lo) : config::load_files(t.files, lo);
}

// The inputs of an evaluation from the options [o], for the module in [dir].
std::optional<std::string> inputs_from(const EvalOptions& o, const std::string& dir,
                                       config::Inputs& in) {
  in.env = environment();
  for (const auto& [file, text] : o.var_args)
    in.args.push_back({file ? config::VarArg::VarFile : config::VarArg::Var, text});
  in.vars_dir = dir;
  if (o.workspace) {
    in.workspace = *o.workspace;
  } else if (const char* w = std::getenv("TF_WORKSPACE"); w && *w) {
    in.workspace = w;
  } else {
    // The workspace `terraform workspace select` recorded.
    std::string bytes, e;
    if (read_input(dir + "/.terraform/environment", bytes, e)) {
      size_t a = bytes.find_first_not_of(" \t\r\n");
      size_t b = bytes.find_last_not_of(" \t\r\n");
      if (a != std::string::npos) in.workspace = bytes.substr(a, b - a + 1);
    }
  }
  in.confine_files = !o.no_confine;
  if (o.values_file) return read_values(*o.values_file, in);
  return std::nullopt;
}

// Prints Terraform's rendering of [diags] to stderr.
void print_tf_diags(const Diagnostics& diags, const config::Sources& sources) {
  if (diags.empty()) return;
  std::string text = config::render_diagnostics(diags, sources);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

// The evaluation readably: one `address = value` per line, values as
// terraform console shows them (sensitive ones in clear when [show]).
std::string readable(const config::Evaluation& ev, bool show) {
  auto text = [show](const Value& v) {
    return config::console_value(show ? v.unmark_deep().first : v);
  };
  std::string out;
  for (const auto& [n, v] : ev.variables()) out += "var." + n + " = " + text(v) + "\n";
  for (const auto& [n, v] : ev.locals()) out += "local." + n + " = " + text(v) + "\n";
  for (const auto& [n, v] : ev.outputs()) out += "output." + n + " = " + text(v) + "\n";
  for (const config::Instance& i : ev.instances()) out += i.address + " = " + text(i.value) + "\n";
  return out;
}

// The target of [files]: one directory, or files of one module.
std::optional<Target> target_of(const std::vector<std::string>& files, std::string& err) {
  Target t;
  if (files.size() == 1 && is_directory(files[0])) {
    t.dir = files[0];
    return t;
  }
  for (const std::string& f : files) {
    if (is_directory(f)) {
      err = "give one directory, or files of one module, not both";
      return std::nullopt;
    }
  }
  t.files = files;
  size_t slash = files[0].rfind('/');
  t.dir = slash == std::string::npos ? "." : files[0].substr(0, slash);
  return t;
}

// Prints [diags] as packer prints them (hcl's text writer, width 80).
void print_packer_diags(const Diagnostics& diags, const config::Sources& sources) {
  if (diags.empty()) return;
  diag::SnippetFiles files;
  for (const auto& [name, f] : sources.files()) {
    std::function<std::string(uint32_t)> context;
    if (const ast::Body* b = f.body.native_body())
      context = [b](uint32_t byte) { return diag::native_context(*b, byte); };
    files.emplace(name, diag::SnippetFile{f.source->text(), context});
  }
  std::string text = diag::render_text(diags, files, diag::TextStyle{80, false});
  std::fwrite(text.data(), 1, text.size(), stderr);
}

// packer console's piped mode on the template [m] (console.go): every line
// evaluated, errors printed and the session going on, the last result
// printed raw, "variables" listing the variables and locals.
int packer_console(const config::LoadResult& m, const config::Inputs& in) {
  config::Evaluation ev = config::evaluate(m.module, in);
  config::Sources sources = m.sources;
  sources.merge(ev.sources());
  if (ev.stopped()) {
    print_packer_diags(ev.diagnostics(), sources);
    return kExitErrors;
  }
  std::string line, last;
  int status = kExitOk;
  while (std::getline(std::cin, line)) {
    size_t a = line.find_first_not_of(" \t\r\n\v\f");
    size_t b = line.find_last_not_of(" \t\r\n\v\f");
    line = a == std::string::npos ? "" : line.substr(a, b - a + 1);
    if (line.empty()) {
      last.clear();
      continue;
    }
    if (line == "exit") break;
    if (line == "variables") {
      last = "> input-variables:\n\n";
      for (const char* kind : {"var", "local"}) {
        if (std::string_view(kind) == "local") last += "\n> local-variables:\n\n";
        EvalResult r = ev.eval(kind);
        const Type* t = r.value.type();
        if (r.has_errors() || !t->is_object()) continue;
        for (size_t i = 0; i < t->size(); ++i) {
          last += std::string(kind) + "." + std::string(t->attr_name(i)) + ": " +
                  uni::go_quote(config::packer_console_value(r.value.attr(i))) + "\n";
        }
      }
      continue;
    }
    EvalResult r = ev.eval(line);
    if (!r.diagnostics.empty()) {
      print_packer_diags(r.diagnostics, sources);
      status = r.has_errors() ? kExitErrors : kExitOk;
      last.clear();
      if (r.has_errors()) continue;
    }
    last = config::packer_console_value(r.value);
  }
  std::string out = last + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return status;
}

}  // namespace

int run_eval_module(const EvalOptions& o) {
  std::string err;
  std::optional<Target> t = target_of(o.files, err);
  if (!t) return usage_error(err);
  config::LoadResult m = load(*t, o);
  if (m.has_errors() || !m.module) {
    print_tf_diags(m.diagnostics, m.sources);
    return kExitErrors;
  }
  config::Inputs in;
  if (auto e = inputs_from(o, t->dir, in)) return usage_error(*e);
  Vm vm(o.limits);
  config::Evaluation ev = config::evaluate(m.module, in, &vm);
  config::Sources sources = m.sources;
  sources.merge(ev.sources());
  Diagnostics diags = m.diagnostics;
  diags.insert(diags.end(), ev.diagnostics().begin(), ev.diagnostics().end());
  bool errors = has_errors(diags);
  if (ev.stopped()) {
    print_tf_diags(diags, sources);
    return kExitErrors;
  }
  if (!o.exprs.empty()) {
    // Each -e in order: its value, or its diagnostics, before the next
    // (the module's own diagnostics with the first).
    for (const std::string& e : o.exprs) {
      EvalResult r = ev.eval(e, &vm);
      diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
      std::fflush(stdout);
      print_tf_diags(diags, sources);
      diags.clear();
      errors |= r.has_errors();
      if (r.has_errors()) continue;
      Value v = o.show_sensitive ? r.value.unmark_deep().first : r.value;
      std::string s = (o.format == Format::Json ? typed_json(v, o.show_sensitive)
                                                : config::console_value(v)) + "\n";
      std::fwrite(s.data(), 1, s.size(), stdout);
    }
    return errors ? kExitErrors : kExitOk;
  }
  std::string out = o.format == Format::Json ? ev.to_json(o.show_sensitive) : readable(ev, o.show_sensitive);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  print_tf_diags(diags, sources);
  return errors ? kExitErrors : kExitOk;
}

int run_console(const std::vector<std::string>& args_in) {
  EvalOptions o;
  std::vector<std::string> args = long_terraform_flags(args_in);
  ArgScanner sc(args);
  std::string err;
  while (sc.next()) {
    if (!sc.is_flag()) {
      o.files.push_back(sc.name());
      continue;
    }
    if (sc.is("--help", "-h")) {
      std::fputs(kConsoleHelp, stdout);
      return kExitOk;
    }
    if (sc.is("--no-confine")) {
      o.no_confine = true;
      continue;
    }
    if (!sc.is("--var") && !sc.is("--var-file") && !sc.is("--workspace") && !sc.is("--values"))
      return usage_error("unknown flag " + sc.name() + " (see 'hclvm help console')");
    std::optional<std::string> v = sc.value(err);
    if (!v) return usage_error(err);
    if (sc.is("--var")) o.var_args.emplace_back(false, *v);
    else if (sc.is("--var-file")) o.var_args.emplace_back(true, *v);
    else if (sc.is("--workspace")) o.workspace = *v;
    else o.values_file = *v;
  }
  if (o.files.empty()) o.files.push_back(".");
  std::optional<Target> t = target_of(o.files, err);
  if (!t) return usage_error(err);
  config::LoadResult m = load(*t);
  if (m.has_errors() || !m.module) {
    // Warnings on standard output, errors on standard error.
    Diagnostics w, e;
    for (const Diagnostic& d : m.diagnostics) (d.severity == Severity::Error ? e : w).push_back(d);
    std::string text = w.empty() ? "" : config::render_diagnostics(w, m.sources);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    print_tf_diags(e, m.sources);
    return kExitErrors;
  }
  config::Inputs in;
  if (auto e = inputs_from(o, t->dir, in)) return usage_error(*e);
  if (m.module->language() == config::Language::Packer) return packer_console(m, in);
  in.evaluate_resources = false;  // terraform console does not evaluate them
  config::Evaluation ev = config::evaluate(m.module, in);
  Diagnostics warnings, errors;
  for (const Diagnostic& d : m.diagnostics) (d.severity == Severity::Error ? errors : warnings).push_back(d);
  for (const Diagnostic& d : ev.diagnostics())
    (d.severity == Severity::Error ? errors : warnings).push_back(d);
  config::Sources sources = m.sources;
  sources.merge(ev.sources());
  // Warnings go to standard output, errors to standard error.
  auto out = [](const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); };
  if (!warnings.empty()) out(config::render_diagnostics(warnings, sources));
  if (ev.stopped()) {
    std::fflush(stdout);
    print_tf_diags(errors, sources);
    return kExitErrors;
  }
  if (!errors.empty()) {
    print_tf_diags(errors, sources);
    out("\nWarning: Due to the problems above, some expressions may produce unexpected results.\n\n\n");
  }
  std::string line, last;
  while (std::getline(std::cin, line)) {
    size_t a = line.find_first_not_of(" \t\r\n\v\f");
    size_t b = line.find_last_not_of(" \t\r\n\v\f");
    line = a == std::string::npos ? "" : line.substr(a, b - a + 1);
    if (line.empty()) {
      last.clear();
      continue;
    }
    if (line == "exit") {
      std::fflush(stdout);
      return kExitOk;
    }
    if (line == "help") {
      last =
          "The Terraform console allows you to experiment with Terraform interpolations.\n"
          "You may access resources in the state (if you have one) just as you would\n"
          "from a configuration. For example: \"aws_instance.foo.id\" would evaluate\n"
          "to the ID of \"aws_instance.foo\" if it exists in your state.\n"
          "\n"
          "Type in the interpolation to test and hit <enter> to see the result.\n"
          "\n"
          "To exit the console, type \"exit\" and hit <enter>, or use Control-C or\n"
          "Control-D.";
      continue;
    }
    EvalResult r = ev.eval(line);
    if (r.has_errors()) {
      std::fflush(stdout);
      print_tf_diags(r.diagnostics, sources);
      return kExitErrors;
    }
    last = config::console_value(r.value);
  }
  out(last + "\n");
  return kExitOk;
}

}  // namespace hclvm::cli

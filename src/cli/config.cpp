// Whole configurations from the command line (hclvm/config.h):
//  - `hclvm eval DIR` (or several files, or --module FILE): the module
//    evaluated, printed as one JSON document or readably (--format hcl);
//  - `hclvm eval DIR -e EXPR`: EXPR in the module's scope, printed as
//    `hclvm eval -e` prints values (or as terraform console does);
//  - loading a module and its inputs for `hclvm console` (console.cpp);
//  - module directories for `hclvm check` (check.cpp), which reports what
//    `terraform validate` reports without providers.
// Diagnostics print as Terraform prints them (its human view, -no-color).
#include <hclvm/config.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "cli/cli.h"
#include "cli/eval.h"
#include "value/json.h"

extern char** environ;

namespace hclvm::cli {

std::vector<std::string> long_terraform_flags(const std::vector<std::string>& args,
                                              std::initializer_list<std::string_view> names) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    bool terraform = false;
    for (std::string_view n : names) {
      std::string_view rest = std::string_view(a).substr(std::min<size_t>(1, a.size()));
      terraform |= a.starts_with('-') && rest.starts_with(n) &&
                   (rest.size() == n.size() || rest[n.size()] == '=');
    }
    out.push_back(terraform && !a.starts_with("--") ? "-" + a : a);
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

ModuleCheck check_module(const std::string& dir, bool tests, const std::string& test_directory) {
  ModuleCheck mc;
  config::LoadOptions lo;
  lo.tests = tests;
  lo.test_directory = test_directory;
  config::LoadResult m = config::load_module(dir, lo);
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

}  // namespace

config::LoadResult load_target(const ModuleTarget& t, const EvalOptions& o) {
  config::LoadOptions lo;
  std::unique_ptr<Cache> cache;
  if (o.cache) {
    cache = std::make_unique<Cache>(CacheOptions{o.cache_dir});
    lo.cache = cache.get();
  }
  return t.files.empty() ? config::load_module(t.dir, lo) : config::load_files(t.files, lo);
}

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

namespace {

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

}  // namespace

std::optional<ModuleTarget> target_of(const std::vector<std::string>& files, std::string& err) {
  ModuleTarget t;
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

int run_eval_module(const EvalOptions& o) {
  std::string err;
  std::optional<ModuleTarget> t = target_of(o.files, err);
  if (!t) return usage_error(err);
  config::LoadResult m = load_target(*t, o);
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
      Printed p = print_bounded(o.limits, [&] {
        return o.format == Format::Json ? typed_json(v, o.show_sensitive)
                                        : config::console_value(v);
      });
      if (!p.error.empty()) {
        std::fflush(stdout);
        print_failed("the value of " + e, p.error);
        errors = true;
        continue;
      }
      p.text += '\n';
      std::fwrite(p.text.data(), 1, p.text.size(), stdout);
    }
    return errors ? kExitErrors : kExitOk;
  }
  Printed out = print_bounded(o.limits, [&] {
    return o.format == Format::Json ? ev.to_json(o.show_sensitive) : readable(ev, o.show_sensitive);
  });
  std::fwrite(out.text.data(), 1, out.text.size(), stdout);
  std::fflush(stdout);
  print_tf_diags(diags, sources);
  if (!out.error.empty()) {
    print_failed("the module's evaluation", out.error);
    errors = true;
  }
  // The module and its evaluation go with the process (finish).
  keep_until_exit(std::make_shared<config::Evaluation>(std::move(ev)));
  keep_until_exit(std::move(m.module));
  return errors ? kExitErrors : kExitOk;
}

}  // namespace hclvm::cli

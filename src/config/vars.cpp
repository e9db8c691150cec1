// The values of a root module's input variables, collected as Terraform
// 1.11.4 collects them (command/meta_vars.go, backend/unparsed_value.go):
// TF_VAR_ environment variables, terraform.tfvars, terraform.tfvars.json,
// *.auto.tfvars(.json) in name order, then -var and -var-file in command
// line order, each source replacing what came before; values in files are
// expressions evaluated without a context (in .tfvars.json, strings are
// not templates), -var and environment strings are read in the variable's
// parsing mode (raw for primitive types and untyped variables, an HCL
// expression otherwise). Then each variable's final value
// (prepareFinalInputVariableValue): type defaults, conversion, nullability,
// with Terraform's messages naming where the value came from.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "config/eval.h"

namespace hclvm::config::detail {

namespace {

// Adds the assignments of the variables file at [path] (named [name] in
// diagnostics) to [st] (addVarsFromFile). False when it is missing and
// [must_exist].
void add_vars_file(EvalState& st, const std::string& path, const std::string& name,
                   Diagnostics& diags) {
  std::string bytes;
  ReadFailure why;
  if (!read_config_file(path, bytes, &why)) {
    error(diags, "Failed to read variables file",
          !why.waits && why.error == ENOENT
              ? "Given variables file " + name + " does not exist."
              : "Error while reading " + name + ": " + read_failure_text(name, why) + ".");
    return;
  }
  auto src = make_source(name, std::move(bytes));
  ConfigFile f = name.ends_with(".json") ? parse_json_body(src) : parse_native_body(src);
  diags.insert(diags.end(), f.diagnostics.begin(), f.diagnostics.end());
  st.var_sources.add({f.source, f.body, f.syntax});
  if (f.has_errors()) return;
  // A variable block is a common mistake: each one with its label is named
  // (in either syntax, as Terraform probes the body with a schema), and
  // then nothing of the file is read.
  static const BodySchema probe{{}, {{"variable", {"name"}}}};
  PartialContentResult blocks = f.body.partial_content(probe);
  bool declared = false;
  for (const Block& blk : blocks.content.blocks) {
    const std::string& var = blk.labels[0];
    error(diags, "Variable declaration in .tfvars file",
          "A .tfvars file is used to assign values to variables that have already been "
          "declared in .tf files, not to declare new variables. To declare variable \"" +
              var + "\", place this block in one of your .tf files, such as variables.tf.\n\n"
                    "To set a value for this variable in " + name +
              ", use the definition syntax instead:\n    " + var + " = <value>",
          blk.type_range);
    declared = true;
  }
  if (declared) return;
  AttributesResult attrs = f.body.just_attributes();
  diags.insert(diags.end(), attrs.diagnostics.begin(), attrs.diagnostics.end());
  for (const Attribute& a : attrs.attributes) {
    RawValue raw;
    raw.source = RawValue::File;
    raw.unparsed = true;
    raw.expr = a.expr;
    raw.has_range = true;
    raw.range = a.expr.range();
    raw.file = name;
    st.raw_vars.insert_or_assign(a.name, std::move(raw));
  }
}

// The names of [dir]'s entries ending in .auto.tfvars or .auto.tfvars.json, sorted.
std::vector<std::string> auto_files(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json")) out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether file [path] exists and can be opened (without waiting on it).
bool exists(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// VariableParsingMode.Parse of [text] for variable [name].
Value parse_in_mode(const Variable* v, const std::string& name, const std::string& text,
                    Diagnostics& diags, bool& ok) {
  ok = true;
  if (v == nullptr || !v->parse_hcl) return Value::string(text);
  auto src = make_source("<value for var." + name + ">", text);
  ExprParse p = parse_expression(src);
  if (p.has_errors() || p.expr == nullptr) {
    diags.insert(diags.end(), p.diagnostics.begin(), p.diagnostics.end());
    ok = false;
    return Value::dynamic();
  }
  Expression e = Expression::from_parse(std::move(p));
  EvalResult r = e.value(nullptr);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (r.has_errors()) ok = false;
  return r.value;
}

}  // namespace

void collect_root_variables(EvalState& st) {
  const ModuleData& m = *st.root;
  Diagnostics diags;
  const Inputs& in = st.inputs;
  if (!in.validate) {
    for (const std::string& e : in.env) {
      if (!e.starts_with("TF_VAR_")) continue;
      size_t eq = e.find('=');
      if (eq == std::string::npos) continue;
      RawValue raw;
      raw.source = RawValue::Env;
      raw.unparsed = true;
      raw.text = e.substr(eq + 1);
      st.raw_vars.insert_or_assign(e.substr(7, eq - 7), std::move(raw));
    }
    std::string dir = in.vars_dir.empty() ? "." : in.vars_dir;
    auto shown = [&](const std::string& n) { return dir == "." ? n : dir + "/" + n; };
    if (in.auto_var_files) {
      for (const char* n : {"terraform.tfvars", "terraform.tfvars.json"}) {
        if (exists(shown(n))) add_vars_file(st, shown(n), shown(n), diags);
      }
      for (const std::string& n : auto_files(dir)) add_vars_file(st, shown(n), shown(n), diags);
    }
    for (const VarArg& a : in.args) {
      if (a.kind == VarArg::VarFile) {
        add_vars_file(st, a.text, a.text, diags);
        continue;
      }
      size_t eq = a.text.find('=');
      if (eq == std::string::npos) {
        error(diags, "Invalid -var option",
              "The given -var option \"" + a.text +
                  "\" is not correctly specified. Must be a variable name and value separated by "
                  "an equals sign, like -var=\"key=value\".");
        continue;
      }
      std::string name = a.text.substr(0, eq);
      if (!name.empty() && name.back() == ' ') {
        std::string trimmed = name;
        while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
        error(diags, "Invalid -var option",
              "Variable name \"" + name + "\" is invalid due to trailing space. Did you mean -var=\"" +
                  trimmed + "=" + a.text.substr(eq + 1) + "\"?");
        continue;
      }
      RawValue raw;
      raw.source = RawValue::Cli;
      raw.unparsed = true;
      raw.text = a.text.substr(eq + 1);
      st.raw_vars.insert_or_assign(name, std::move(raw));
    }
    for (const auto& [name, v] : in.values) {
      RawValue raw;
      raw.source = RawValue::Api;
      raw.value = v;
      st.raw_vars.insert_or_assign(name, std::move(raw));
    }
  } else {
    st.raw_vars.clear();
  }
  if (has_errors(diags)) {
    st.diags.insert(st.diags.end(), diags.begin(), diags.end());
    st.stopped = true;
    return;
  }

  // ParseVariableValues: read the strings in each variable's mode, and
  // report values for variables that are not declared.
  size_t undeclared_files = 0;
  std::map<std::string, RawValue, std::less<>> parsed;
  std::set<std::string, std::less<>> failed;  // given, but not readable
  for (auto& [name, raw] : st.raw_vars) {
    auto it = m.variables.find(name);
    const Variable* v = it == m.variables.end() ? nullptr : &it->second;
    if (raw.unparsed && raw.expr) {
      // A file's value: its expression, evaluated without a context.
      EvalResult r = raw.expr.value(nullptr);
      diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
      if (r.has_errors()) {
        failed.insert(name);
        continue;
      }
      raw.value = std::move(r.value);
      raw.unparsed = false;
    } else if (raw.unparsed) {
      bool ok = true;
      Diagnostics pd;
      raw.value = parse_in_mode(v, name, raw.text, pd, ok);
      diags.insert(diags.end(), pd.begin(), pd.end());
      if (!ok || has_errors(pd)) {
        failed.insert(name);
        continue;
      }
      raw.unparsed = false;
    }
    if (v == nullptr) {
      if (raw.source == RawValue::File) {
        if (undeclared_files < 2) {
          Diagnostic w;
          w.severity = Severity::Warning;
          w.summary = "Value for undeclared variable";
          w.detail = "The root module does not declare a variable named \"" + name +
                     "\" but a value was found in file \"" + raw.file +
                     "\". If you meant to use this value, add a \"variable\" block to the "
                     "configuration.\n\nTo silence these warnings, use TF_VAR_... environment "
                     "variables to provide certain \"global\" settings to all configurations in "
                     "your organization. To reduce the verbosity of these warnings, use the "
                     "-compact-warnings option.";
          diags.push_back(std::move(w));
        }
        ++undeclared_files;
      } else if (raw.source == RawValue::Cli) {
        error(diags, "Value for undeclared variable",
              "A variable named \"" + name +
                  "\" was assigned on the command line, but the root module does not declare a "
                  "variable of that name. To use this value, add a \"variable\" block to the "
                  "configuration.");
      } else if (raw.source == RawValue::Api) {
        error(diags, "Value for undeclared variable",
              "A variable named \"" + name +
                  "\" was assigned a value, but the root module does not declare a variable of "
                  "that name. To use this value, add a \"variable\" block to the configuration.");
      }
      continue;
    }
    parsed.insert_or_assign(name, raw);
  }
  if (undeclared_files > 2) {
    Diagnostic w;
    w.severity = Severity::Warning;
    w.summary = "Values for undeclared variables";
    w.detail = "In addition to the other similar warnings shown, " +
               std::to_string(undeclared_files - 2) +
               " other variable(s) defined without being declared.";
    diags.push_back(std::move(w));
  }
  for (const auto& [name, v] : m.variables) {
    if (parsed.count(name)) continue;
    if (v.default_value && !in.validate) continue;
    if ((in.unknown_required || in.validate) && !failed.count(name)) {
      // terraform console (and validate: every variable) stands in an
      // unknown value of the variable's type.
      RawValue raw;
      raw.source = RawValue::Api;
      raw.value = Value::unknown(v.type);
      parsed.insert_or_assign(name, std::move(raw));
      continue;
    }
    error(diags, "No value for required variable",
          "The root module input variable \"" + name +
              "\" is not set, and has no default value. Use a -var or -var-file command line "
              "argument to provide a value for this variable.",
          v.decl_range);
  }
  st.raw_vars = std::move(parsed);
  st.diags.insert(st.diags.end(), diags.begin(), diags.end());
  if (has_errors(diags)) st.stopped = true;
}

std::optional<Value> prepare_final(const Variable& v, const std::string& addr, const RawValue& raw,
                                   Diagnostics& diags) {
  std::string non_file;
  Range source_range = v.decl_range;
  if (raw.has_range) {
    source_range = raw.range;
  } else if (raw.source == RawValue::Cli) {
    non_file = "set using -var=\"" + v.name + "=...\"";
  } else if (raw.source == RawValue::Env) {
    non_file = "set using the TF_VAR_" + v.name + " environment variable";
  } else if (raw.source != RawValue::Unset) {
    non_file = "set from outside of the configuration";
  }
  Value given;
  if (raw.source == RawValue::Unset) {
    if (!v.default_value) {
      error(diags, "Required variable not set",
            "The variable \"" + v.name + "\" is required, but is not set.", v.decl_range);
      return std::nullopt;
    }
    given = *v.default_value;
  } else {
    given = raw.value;
  }
  if (v.defaults && !given.is_null()) given = v.defaults->apply(given);
  ConvertResult c = convert(given, v.constraint);
  if (!c.ok()) {
    std::string err = c.error().message;
    if (!non_file.empty()) {
      error(diags, "Invalid value for input variable",
            "Unsuitable value for " + addr + " " + non_file + ": " + err + ".", v.decl_range);
    } else if (v.sensitive) {
      error(diags, "Invalid value for input variable",
            "The given value is not suitable for " + addr + ", which is sensitive: " + err +
                ". Invalid value defined at " + range_string(source_range) + ".",
            v.decl_range);
    } else {
      error(diags, "Invalid value for input variable",
            "The given value is not suitable for " + addr + " declared at " +
                range_string(v.decl_range) + ": " + err + ".",
            source_range);
    }
    return std::nullopt;
  }
  Value val = c.take();
  if (val.is_null() && !v.nullable) {
    if (v.default_value) {
      val = *v.default_value;
    } else {
      if (!non_file.empty()) {
        error(diags, "Required variable not set",
              "Unsuitable value for " + addr + " " + non_file +
                  ": required variable may not be set to null.",
              v.decl_range);
      } else {
        error(diags, "Required variable not set",
              "The given value is not suitable for " + addr + " defined at " +
                  range_string(v.decl_range) + ": required variable may not be set to null.",
              source_range);
      }
      return std::nullopt;
    }
  }
  if (!v.ephemeral) {
    auto [plain, marks] = val.unmark_deep();
    if (marks.has(kEphemeral)) {
      error(diags, "Ephemeral value not allowed",
            "This input variable is not declared as accepting a ephemeral values, so it cannot be "
            "set to a result derived from an ephemeral value.",
            raw.has_range ? raw.range : v.decl_range);
    }
  }
  return val;
}

}  // namespace hclvm::config::detail

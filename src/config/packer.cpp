// Packer templates (Packer 1.16's hcl2template): the files of a template
// directory (*.pkr.hcl, then *.pkr.json; no override files), the top-level
// blocks (packer, variable, variables, locals, local, source, data, build,
// hcp_packer_registry), input variables (a variable without a type takes
// its default's; values from PKR_VAR_ environment variables of declared
// names, *.auto.pkrvars.hcl/json, -var-file, then -var, which always wins;
// strings read as HCL for every type but string, number and any),
// validation rules limited to the variable itself, and locals evaluated in
// the order of their references. The scope holds var, local, path.cwd,
// path.root, packer.version, and unknown source/build objects.
#include <dirent.h>
#include <hclvm/functions.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <set>

#include "config/decode.h"
#include "config/eval.h"
#include "funcs/funcs.h"
#include "util/unicode.h"
#include "value/convert.h"

namespace hclvm::config::detail {

namespace {

std::vector<std::string> dir_entries(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) out.emplace_back(e->d_name);
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Packer's version as packer.version shows it.
constexpr const char* kPackerVersion = "1.16.0";

// A local of the template: its expression and declaration.
struct PackerLocal {
  std::string name;
  Expression expr;
  Range decl_range;
  bool sensitive = false;
};

}  // namespace

// The decoded template, kept in ModuleData's Packer fields.
struct PackerData {
  std::vector<PackerLocal> locals;
};

namespace {

// Decodes a variable block (decodeVariableBlock) into [m].
void decode_packer_variable(const Block& b, ModuleData& m, const EvalContext& env_ctx,
                            Diagnostics& diags) {
  const std::string& name = b.labels[0];
  if (m.variables.count(name)) {
    error(diags, "Duplicate variable", "Duplicate " + name + " variable definition found.",
          std::nullopt, b.def_range);
    return;
  }
  if (!valid_identifier(name)) {
    error(diags, "Invalid variable name", kBadIdentifierDetail, b.label_ranges[0]);
    return;
  }
  static const BodySchema schema{{{"description"}, {"default"}, {"type"}, {"sensitive"}},
                                 {{"validation", {}}}};
  ContentResult c = b.body.content(schema);
  diags.insert(diags.end(), c.diagnostics.begin(), c.diagnostics.end());
  Variable v;
  v.name = name;
  v.decl_range = b.def_range;
  v.constraint = v.type = Type::dynamic();
  if (const Attribute* a = c.content.attributes.find("type")) {
    TypeExprResult t = parse_type_expr(a->expr, TypeExprMode::ConstraintWithDefaults);
    diags.insert(diags.end(), t.diagnostics.begin(), t.diagnostics.end());
    if (has_errors(t.diagnostics)) return;
    v.constraint = t.type;
    v.defaults = t.defaults;
    v.type = t.type->without_optional_attrs_deep();
    v.type_set = true;
  }
  if (const Attribute* a = c.content.attributes.find("sensitive")) {
    Value s;
    if (decode_value(a->expr, Type::boolean(), s, diags) && s.is_known() && !s.is_null())
      v.sensitive = s.as_bool();
  }
  if (const Attribute* a = c.content.attributes.find("default")) {
    EvalResult r = a->expr.value(&env_ctx);
    diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
    if (r.has_errors()) return;
    Value val = r.value;
    if (v.defaults && !val.is_null()) val = v.defaults->apply(val);
    ConvertResult cv = convert(val, v.constraint);
    if (!cv.ok()) {
      error(diags, "Invalid default value for variable",
            "This default value is not compatible with the variable's type constraint: " +
                cv.error().message + ".",
            a->expr.range());
      val = Value::unknown(v.type);
    } else {
      val = cv.take();
    }
    if (!v.type_set) {
      const Type* t = val.type();
      bool empty = (t->is_object() && t->size() == 0) || (t->is_tuple() && t->size() == 0);
      if (!empty) v.constraint = v.type = t;
    }
    v.default_value = std::move(val);
    v.default_range = a->expr.range();
  }
  v.parse_hcl = !(v.type == Type::string() || v.type == Type::number() || v.type->is_dynamic());
  for (const Block& vb : c.content.blocks) {
    CheckRule cr = decode_check_rule(vb, false, diags);
    if (cr.condition) {
      bool own = false;
      for (const Traversal& t : cr.condition->expr.variables()) {
        bool self = t.steps.size() >= 2 && t.root_name() == "var" &&
                    t.steps[1].kind == TraversalStep::Kind::Attr && t.steps[1].name == name;
        if (self) {
          own = true;
        } else {
          error(diags, "Invalid reference in variable validation",
                "The condition for variable \"" + name + "\" can only refer to the variable "
                "itself, using var." + name + ".",
                t.range());
        }
      }
      if (!own) {
        error(diags, "Invalid variable validation condition",
              "The condition for variable \"" + name + "\" must refer to var." + name +
                  " in order to test incoming values.",
              cr.condition->expr.range());
      }
    }
    if (cr.error_message) {
      EvalResult msg = cr.error_message->expr.value(nullptr);
      std::string text;
      if (!msg.has_errors() && msg.value.type() == Type::string() && msg.value.is_known() &&
          !msg.value.is_null())
        text = std::string(uni::trim_right_space(uni::trim_left_space(msg.value.as_string())));
      if (text.empty()) {
        error(diags, "Invalid validation error message",
              "An empty string is not a valid nor useful error message.",
              cr.error_message->expr.range());
      } else if ((text[0] >= 'a' && text[0] <= 'z') ||
                 (text.back() != '.' && text.back() != '?' && text.back() != '!')) {
        error(diags, "Invalid validation error message",
              "Validation error message must be at least one full sentence starting with an "
              "uppercase letter ( if the alphabet permits it ) and ending with a period or "
              "question mark.",
              cr.error_message->expr.range());
      }
    }
    v.validations.push_back(std::move(cr));
  }
  m.variables.emplace(name, std::move(v));
}

}  // namespace

LoadResult load_packer(const std::vector<std::string>& given, const std::string& dir,
                       const LoadOptions& options) {
  LoadResult r;
  std::vector<std::string> files = given;
  if (files.empty()) {
    std::vector<std::string> hcl, json;
    for (const std::string& n : dir_entries(dir)) {
      if (n.ends_with(".pkr.hcl")) hcl.push_back(n);
      else if (n.ends_with(".pkr.json")) json.push_back(n);
    }
    for (auto* list : {&hcl, &json})
      for (const std::string& n : *list) files.push_back(dir == "." ? n : dir + "/" + n);
    if (files.empty()) {
      error(r.diagnostics, "Could not find any config file in " + dir,
            "A config file must be suffixed with `.pkr.hcl` or `.pkr.json`. A folder can be "
            "referenced.");
      return r;
    }
  }
  auto m = std::make_shared<ModuleData>();
  m->language = Language::Packer;
  m->dir = options.display_dir.value_or(".");
  m->fs_dir = dir;
  auto pd = std::make_shared<PackerData>();
  // Variable defaults may call env() only, which reads the environment.
  EvalContext env_ctx;
  {
    LibraryOptions lib;
    lib.packer = true;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
      std::string entry = *e;
      lib.env_allow.push_back(entry.substr(0, entry.find('=')));
    }
    FunctionTable all = standard_functions(lib);
    FunctionTable env_only;
    if (const Function* f = all.find("env")) env_only.add("env", std::make_shared<Function>(*f));
    env_ctx.set_functions(std::make_shared<FunctionTable>(std::move(env_only)));
  }
  std::vector<ConfigFile> parsed;
  for (const std::string& path : files) {
    std::string bytes;
    if (!read_config_file(path, bytes)) {
      error(r.diagnostics, "Failed to read file", "The file \"" + path + "\" could not be read.");
      continue;
    }
    ConfigFile f = parse_body(make_source(path, std::move(bytes)));
    r.diagnostics.insert(r.diagnostics.end(), f.diagnostics.begin(), f.diagnostics.end());
    r.sources.add({f.source, f.body, f.syntax});
    parsed.push_back(std::move(f));
  }
  static const BodySchema schema{{},
                                 {{"packer", {}},
                                  {"source", {"type", "name"}},
                                  {"variable", {"name"}},
                                  {"variables", {}},
                                  {"locals", {}},
                                  {"local", {"name"}},
                                  {"data", {"type", "name"}},
                                  {"build", {}},
                                  {"hcp_packer_registry", {}},
                                  {"communicator", {"type", "name"}}}};
  std::map<std::string, Range> local_ranges;
  size_t registries = 0;
  for (const ConfigFile& f : parsed) {
    ContentResult c = f.body.content(schema);
    r.diagnostics.insert(r.diagnostics.end(), c.diagnostics.begin(), c.diagnostics.end());
    for (const Block& b : c.content.blocks) {
      if (b.type == "variable") {
        decode_packer_variable(b, *m, env_ctx, r.diagnostics);
      } else if (b.type == "variables") {
        AttributesResult a = b.body.just_attributes();
        r.diagnostics.insert(r.diagnostics.end(), a.diagnostics.begin(), a.diagnostics.end());
        for (const Attribute& at : a.attributes) {
          if (m->variables.count(at.name)) {
            error(r.diagnostics, "Duplicate variable",
                  "Duplicate " + at.name + " variable definition found.", at.name_range);
            continue;
          }
          EvalResult v = at.expr.value(nullptr);
          r.diagnostics.insert(r.diagnostics.end(), v.diagnostics.begin(), v.diagnostics.end());
          Variable var;
          var.name = at.name;
          var.decl_range = at.name_range;
          var.constraint = var.type = v.value.type();
          var.default_value = v.value;
          var.default_range = at.expr.range();
          var.parse_hcl = !(var.type == Type::string() || var.type == Type::number() ||
                            var.type->is_dynamic());
          m->variables.emplace(at.name, std::move(var));
        }
      } else if (b.type == "locals" || b.type == "local") {
        std::vector<PackerLocal> found;
        if (b.type == "locals") {
          AttributesResult a = b.body.just_attributes();
          r.diagnostics.insert(r.diagnostics.end(), a.diagnostics.begin(), a.diagnostics.end());
          for (const Attribute& at : a.attributes) found.push_back({at.name, at.expr, at.range});
        } else {
          static const BodySchema ls{{{"expression", true}, {"sensitive"}}, {}};
          ContentResult lc = b.body.content(ls);
          r.diagnostics.insert(r.diagnostics.end(), lc.diagnostics.begin(), lc.diagnostics.end());
          if (const Attribute* e = lc.content.attributes.find("expression")) {
            PackerLocal l{b.labels[0], e->expr, b.def_range};
            if (const Attribute* s = lc.content.attributes.find("sensitive")) {
              Value sv;
              if (decode_value(s->expr, Type::boolean(), sv, r.diagnostics) && sv.is_known())
                l.sensitive = sv.as_bool();
            }
            found.push_back(std::move(l));
          }
        }
        for (PackerLocal& l : found) {
          if (auto it = local_ranges.find(l.name); it != local_ranges.end()) {
            error(r.diagnostics, "Duplicate local definition",
                  "Local variable \"" + l.name + "\" is defined twice in your templates. Other "
                  "definition found at \"" + range_string(it->second) + "\"",
                  l.decl_range);
            continue;
          }
          local_ranges.emplace(l.name, l.decl_range);
          pd->locals.push_back(std::move(l));
        }
      } else if (b.type == "source") {
        m->packer_sources.push_back(b.labels[0] + "." + b.labels[1]);
      } else if (b.type == "hcp_packer_registry") {
        if (++registries > 1)
          error(r.diagnostics, "Only one hcp_packer_registry is allowed",
                "Only one hcp_packer_registry block is allowed in a template.", b.def_range);
      }
    }
  }
  m->sources = r.sources;
  if (r.has_errors()) return r;
  m->packer = pd;
  r.module = std::make_shared<Module>(std::move(m));
  return r;
}

namespace {

// Reads the Packer variables file [path] into [st]'s raw values.
bool add_pkrvars(EvalState& st, const std::string& path, Diagnostics& diags) {
  if (!path.ends_with(".hcl") && !path.ends_with(".json")) {
    error(diags, "Could not guess format of " + path,
          "A var file must be suffixed with `.hcl` or `.json`.");
    return false;
  }
  std::string bytes;
  if (!read_config_file(path, bytes)) {
    error(diags, "Failed to read variables file", "Given variables file " + path +
                                                      " does not exist.");
    return false;
  }
  ConfigFile f = parse_body(make_source(path, std::move(bytes)));
  diags.insert(diags.end(), f.diagnostics.begin(), f.diagnostics.end());
  st.var_sources.add({f.source, f.body, f.syntax});
  if (f.has_errors()) return false;
  if (const ast::Body* b = f.body.native_body()) {
    for (const ast::Block* blk : b->blocks) {
      if (blk->type != "variable") continue;
      std::string var = blk->labels.size ? std::string(blk->labels[0]) : "";
      error(diags, "Variable declaration in a .pkrvar file",
            "A .pkrvar file is used to assign values to variables that have already been "
            "declared in .pkr files, not to declare new variables. To declare variable \"" + var +
                "\", place this block in one of your .pkr files, such as "
                "variables.pkr.hcl\n\nTo set a value for this variable in " + path +
                ", use the definition syntax instead:\n    " + var + " = <value>",
            f.source->range(blk->type_span));
      return false;
    }
  }
  AttributesResult attrs = f.body.just_attributes();
  diags.insert(diags.end(), attrs.diagnostics.begin(), attrs.diagnostics.end());
  for (const Attribute& a : attrs.attributes) {
    if (!st.root->variables.count(a.name)) continue;
    EvalResult v = a.expr.value(nullptr);
    diags.insert(diags.end(), v.diagnostics.begin(), v.diagnostics.end());
    RawValue raw;
    raw.source = RawValue::File;
    raw.value = v.value;
    raw.has_range = true;
    raw.range = a.expr.range();
    raw.file = path;
    st.raw_vars.insert_or_assign(a.name, std::move(raw));
  }
  return true;
}

// Reads [text] for variable [v] from [from] ("env" or "arguments").
std::optional<Value> parse_packer_string(const Variable& v, const std::string& text,
                                         const std::string& from, Diagnostics& diags) {
  if (!v.parse_hcl) return Value::string(text);
  ExprParse p = parse_expression(make_source("<value for var." + v.name + " from " + from + ">", text));
  if (p.has_errors() || !p.expr) {
    diags.insert(diags.end(), p.diagnostics.begin(), p.diagnostics.end());
    return std::nullopt;
  }
  Expression e = Expression::from_parse(std::move(p));
  EvalResult r = e.value(nullptr);
  diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
  if (r.has_errors()) return std::nullopt;
  return r.value;
}

}  // namespace

void evaluate_packer(const Module& module, const Inputs& in, Vm& vm, EvalState& st) {
  const ModuleData& m = module.data();
  const PackerData* pd = m.packer.get();
  LibraryOptions lib;
  lib.base_dir = m.fs_dir;
  lib.confine = in.confine_files;
  lib.packer = true;
  lib.core_namespace = false;
  st.fns = std::make_shared<FunctionTable>(standard_functions(lib));
  st.fn_ctx.set_functions(st.fns);
  Diagnostics diags;
  // Environment, auto files, -var-file, -var (last).
  for (const std::string& e : in.env) {
    if (!e.starts_with("PKR_VAR_")) continue;
    size_t eq = e.find('=');
    if (eq == std::string::npos) continue;
    std::string name = e.substr(8, eq - 8);
    auto it = m.variables.find(name);
    if (it == m.variables.end()) continue;
    if (auto v = parse_packer_string(it->second, e.substr(eq + 1), "env", diags)) {
      RawValue raw;
      raw.source = RawValue::Env;
      raw.value = *v;
      st.raw_vars.insert_or_assign(name, std::move(raw));
    }
  }
  bool stop = false;
  if (in.auto_var_files) {
    std::string dir = in.vars_dir.empty() ? "." : in.vars_dir;
    std::vector<std::string> hcl, json;
    for (const std::string& n : dir_entries(dir)) {
      if (n.ends_with(".auto.pkrvars.hcl")) hcl.push_back(n);
      if (n.ends_with(".auto.pkrvars.json")) json.push_back(n);
    }
    for (auto* list : {&hcl, &json})
      for (const std::string& n : *list)
        if (!stop) stop = !add_pkrvars(st, dir == "." ? n : dir + "/" + n, diags);
  }
  for (const VarArg& a : in.args)
    if (a.kind == VarArg::VarFile && !stop) stop = !add_pkrvars(st, a.text, diags);
  if (!stop) {
    for (const VarArg& a : in.args) {
      if (a.kind != VarArg::Var) continue;
      size_t eq = a.text.find('=');
      std::string name = a.text.substr(0, eq);
      auto it = m.variables.find(name);
      if (it == m.variables.end()) {
        error(diags, "Undefined -var variable",
              "A \"" + name + "\" variable was passed in the command line but was not found in "
              "known variables. To declare variable \"" + name + "\", place this block in one of "
              "your .pkr files, such as variables.pkr.hcl");
        continue;
      }
      if (auto v = parse_packer_string(it->second, eq == std::string::npos ? "" : a.text.substr(eq + 1),
                                       "arguments", diags)) {
        RawValue raw;
        raw.source = RawValue::Cli;
        raw.value = *v;
        st.raw_vars.insert_or_assign(name, std::move(raw));
      }
    }
    for (const auto& [name, v] : in.values) {
      RawValue raw;
      raw.source = RawValue::Api;
      raw.value = v;
      st.raw_vars.insert_or_assign(name, std::move(raw));
    }
  }
  // Final values: the last assignment, converted.
  std::vector<std::pair<std::string, Value>> vars;
  for (const auto& [name, v] : m.variables) {
    Value val = v.default_value ? *v.default_value : Value::unknown(v.type);
    auto it = st.raw_vars.find(name);
    if (it != st.raw_vars.end()) {
      Value given = it->second.value;
      if (v.defaults && !given.is_null()) given = v.defaults->apply(given);
      ConvertResult c = convert(given, v.constraint);
      if (!c.ok()) {
        if (it->second.source == RawValue::Cli) {
          error(diags, "Invalid argument value for -var variable",
                "The received arg value for " + name +
                    " is not compatible with the variable's type constraint: " +
                    c.error().message + ".");
        } else {
          error(diags, "Invalid value for variable",
                "The value for " + name + " is not compatible with the variable's type "
                "constraint: " + c.error().message + ".",
                it->second.has_range ? std::optional<Range>(it->second.range) : std::nullopt);
        }
        val = Value::unknown(v.type);
      } else {
        val = c.take();
      }
    }
    // Packer hides sensitive values from its logs, not from expressions.
    vars.emplace_back(name, std::move(val));
  }
  st.packer_vars = Value::object(vars);
  st.diags.insert(st.diags.end(), diags.begin(), diags.end());
  if (has_errors(diags)) {
    st.stopped = true;
    return;
  }
  // Locals in the order of their references to each other.
  std::map<std::string, const PackerLocal*> by_name;
  for (const PackerLocal& l : pd->locals) by_name[l.name] = &l;
  std::map<std::string, Value> done;
  std::set<std::string> failed, visiting;
  // The named values of a local's scope; `local` is set per local.
  EvalContext scope(&st.fn_ctx);
  scope.set_functions(st.fns);
  scope.set("var", st.packer_vars);
  scope.set("path",
            Value::object({{"cwd", Value::string(st.cwd())}, {"root", Value::string(m.dir)}}));
  scope.set("packer", Value::object({{"version", Value::string(kPackerVersion)},
                                     {"iterationID", Value::unknown(Type::string())},
                                     {"versionFingerprint", Value::unknown(Type::string())}}));
  // The `local` object [l] sees: the locals it names, when it names each
  // one (`local.x`) and each is known, else every local known so far (a
  // whole `local`, or the names a misspelt one is told of). Building all
  // of them for every local would take time quadratic in their number.
  auto locals_for = [&](const PackerLocal& l) {
    std::vector<std::pair<std::string, Value>> named;
    for (const Traversal& t : l.expr.variables()) {
      if (t.root_name() != "local") continue;
      auto it = t.steps.size() >= 2 ? done.find(t.steps[1].name) : done.end();
      if (it == done.end()) {
        named.assign(done.begin(), done.end());
        return Value::object(std::move(named));
      }
      named.emplace_back(it->first, it->second);
    }
    std::sort(named.begin(), named.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    named.erase(std::unique(named.begin(), named.end(),
                            [](const auto& x, const auto& y) { return x.first == y.first; }),
                named.end());
    return Value::object(std::move(named));
  };
  auto evaluate_one = [&](const PackerLocal& l) {
    EvalContext ctx(&scope);
    ctx.set("local", locals_for(l));
    EvalResult r = l.expr.value(vm, &ctx);
    if (r.has_errors()) {
      failed.insert(l.name);
      return;
    }
    done[l.name] = r.value;
  };
  // Each local after the locals it names, depth first, on a stack of our
  // own: a chain of locals may be as long as the file allows.
  auto eval_local = [&](const PackerLocal& first) {
    struct Frame {
      const PackerLocal* local;
      bool expanded;
    };
    std::vector<Frame> stack{{&first, false}};
    while (!stack.empty()) {
      Frame& f = stack.back();
      const PackerLocal& l = *f.local;
      if (f.expanded) {
        visiting.erase(l.name);
        stack.pop_back();
        evaluate_one(l);
        continue;
      }
      if (done.count(l.name) || failed.count(l.name) || visiting.count(l.name)) {
        stack.pop_back();
        continue;
      }
      f.expanded = true;
      visiting.insert(l.name);
      std::vector<const PackerLocal*> deps;
      for (const Traversal& t : l.expr.variables()) {
        if (t.root_name() != "local" || t.steps.size() < 2) continue;
        auto it = by_name.find(t.steps[1].name);
        if (it != by_name.end()) deps.push_back(it->second);
      }
      // Pushed last first, so that they are taken in the order written.
      for (auto d = deps.rbegin(); d != deps.rend(); ++d) stack.push_back({*d, false});
    }
  };
  for (const PackerLocal& l : pd->locals) eval_local(l);
  std::vector<std::pair<std::string, Value>> locals(done.begin(), done.end());
  st.packer_locals = Value::object(std::move(locals));
  st.insts.emplace_back();
  st.insts.back().mod = &m;
}

std::vector<std::string> packer_local_names(const ModuleData& m) {
  std::vector<std::string> out;
  if (m.packer)
    for (const PackerLocal& l : m.packer->locals) out.push_back(l.name);
  std::sort(out.begin(), out.end());
  return out;
}

EvalResult packer_console_eval(const EvalState& st, std::string_view text, Vm& vm) {
  EvalResult r;
  ExprParse p = parse_expression(make_source("<console-input>", std::string(text)));
  if (p.has_errors() || !p.expr) {
    r.diagnostics = p.diagnostics;
    return r;
  }
  Expression e = Expression::from_parse(std::move(p));
  EvalContext ctx(&st.fn_ctx);
  ctx.set_functions(st.fns);
  ctx.set("var", st.packer_vars);
  ctx.set("local", st.packer_locals);
  ctx.set("path",
          Value::object({{"cwd", Value::string(st.cwd())}, {"root", Value::string(st.root->dir)}}));
  ctx.set("packer", Value::object({{"version", Value::string(kPackerVersion)},
                                   {"iterationID", Value::unknown(Type::string())},
                                   {"versionFingerprint", Value::unknown(Type::string())}}));
  ctx.set("source", Value::object({{"type", Value::unknown(Type::string())},
                                   {"name", Value::unknown(Type::string())}}));
  ctx.set("build", Value::unknown(Type::empty_object()));
  return e.value(vm, &ctx);
}

}  // namespace hclvm::config::detail

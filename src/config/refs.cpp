// References: each traversal an expression reads, read as Terraform's
// addrs.ParseRef reads it (var.NAME, local.NAME, module.CALL[KEY].OUTPUT,
// TYPE.NAME[KEY], data.TYPE.NAME, path.*, terraform.*, count.*, each.*,
// self, the reserved template/lazy/arg), then checked as Terraform checks
// them before evaluating anything (StaticValidateReferences and the
// errors of its evaluator's GetInputVariable, GetLocalValue, GetPathAttr,
// GetTerraformAttr, GetCountAttr and GetForEachAttr). Everything here
// depends on the configuration only, so it is done once when a module is
// loaded; an expression with errors here is never evaluated, as Terraform
// returns from EvalExpr before evaluating it.
//
// Quirks kept: `var`, `local`, `path` (and their index forms) yield a
// reference to the name "" besides the error, so the reference is also
// reported as undeclared, with a range that is all zeros (Terraform prints
// it as "on  line 0"); suggestions for variables and locals come from
// their names in sorted order (Terraform iterates a Go map).
#include <algorithm>

#include "config/internal.h"
#include "funcs/funcs.h"

namespace hclvm::config::detail {

namespace {

// hcl.RangeBetween.
Range between(const Range& a, const Range& b) { return Range{a.filename, a.start, b.end}; }

Traversal tail(const Traversal& t, size_t from) {
  Traversal out;
  for (size_t i = from; i < t.steps.size(); ++i) out.steps.push_back(t.steps[i]);
  return out;
}

// parseSingleAttrRef: the name after the root, or "" with an error.
std::optional<Ref> single_attr(const Traversal& t, Ref::Kind kind, Diagnostics& diags,
                               bool keep_on_error) {
  Ref r;
  r.kind = kind;
  const TraversalStep& root = t.steps[0];
  if (t.steps.size() < 2) {
    error(diags, "Invalid reference",
          "The \"" + root.name +
              "\" object cannot be accessed directly. Instead, access one of its attributes.",
          root.range);
  } else if (t.steps[1].kind != TraversalStep::Kind::Attr) {
    error(diags, "Invalid reference",
          "The \"" + root.name + "\" object does not support this operation.", t.steps[1].range);
  } else {
    r.name = t.steps[1].name;
    r.range = between(root.range, t.steps[1].range);
    r.remaining = tail(t, 2);
    return r;
  }
  if (!keep_on_error) return std::nullopt;
  r.range = Range{"", Pos{0, 0, 0}, Pos{0, 0, 0}};
  return r;
}

// ParseInstanceKey of [key]; false with [why] when it is not a key.
bool instance_key(const Value& key, std::string& why) {
  if (key.type() == Type::string()) return true;
  if (key.type() == Type::number()) {
    if (!key.is_known() || key.is_null() || !key.as_number().to_int64()) {
      why = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";
      return false;
    }
    return true;
  }
  why = "either a string or an integer is required";
  return false;
}

// parseResourceRef of [t] (from [first] on) in [mode]; [start] is where
// the reference starts (the `data` keyword, or the type).
std::optional<Ref> resource_ref(ResMode mode, const Range& start, const Traversal& t, size_t first,
                                Diagnostics& diags) {
  size_t n = t.steps.size() - first;
  if (n < 2) {
    error(diags, "Invalid reference",
          "A reference to a resource type must be followed by at least one attribute access, "
          "specifying the resource name.",
          between(t.steps[first].range, t.steps.back().range));
    return std::nullopt;
  }
  const TraversalStep& type = t.steps[first];
  if (type.kind == TraversalStep::Kind::Index) {
    error(diags, "Invalid reference", "The \"data\" object does not support this operation.",
          type.range);
    return std::nullopt;
  }
  const TraversalStep& name = t.steps[first + 1];
  if (name.kind != TraversalStep::Kind::Attr) {
    const char* what = mode == ResMode::Data        ? "data source"
                       : mode == ResMode::Ephemeral ? "ephemeral resource type"
                                                    : "resource type";
    error(diags, "Invalid reference",
          std::string("A reference to a ") + what +
              " must be followed by at least one attribute access, specifying the resource name.",
          name.range);
    return std::nullopt;
  }
  Ref r;
  r.kind = Ref::Resource;
  r.mode = mode;
  r.type = type.name;
  r.name = name.name;
  r.range = between(start, name.range);
  size_t rest = first + 2;
  if (rest < t.steps.size() && t.steps[rest].kind == TraversalStep::Kind::Index) {
    std::string why;
    if (!instance_key(t.steps[rest].key, why)) {
      error(diags, "Invalid index key", "Invalid index for resource instance: " + why + ".",
            t.steps[rest].range);
      return std::nullopt;
    }
    r.keyed = true;
    r.range = between(r.range, t.steps[rest].range);
    ++rest;
  }
  r.remaining = tail(t, rest);
  return r;
}

}  // namespace

// addrs.ParseRef of [t], appending its diagnostics to [diags].
std::optional<Ref> parse_ref(const Traversal& t, Diagnostics& diags) {
  std::string root(t.root_name());
  const Range& root_range = t.steps[0].range;
  if (root == "count") return single_attr(t, Ref::Count, diags, true);
  if (root == "each") return single_attr(t, Ref::Each, diags, true);
  if (root == "local") return single_attr(t, Ref::Local, diags, true);
  if (root == "var") return single_attr(t, Ref::Var, diags, true);
  if (root == "path") return single_attr(t, Ref::Path, diags, true);
  if (root == "terraform") return single_attr(t, Ref::Terraform, diags, true);
  if (root == "data" || root == "resource" || root == "ephemeral") {
    if (t.steps.size() < 3) {
      const char* detail =
          root == "data"
              ? "The \"data\" object must be followed by two attribute names: the data source "
                "type and the resource name."
          : root == "resource"
              ? "The \"resource\" object must be followed by two attribute names: the resource "
                "type and the resource name."
              : "The \"ephemeral\" object must be followed by two attribute names: the ephemeral "
                "resource type and the resource name.";
      error(diags, "Invalid reference", detail, t.range());
      return std::nullopt;
    }
    ResMode mode = root == "data" ? ResMode::Data : root == "resource" ? ResMode::Managed
                                                                        : ResMode::Ephemeral;
    return resource_ref(mode, root_range, t, 1, diags);
  }
  if (root == "module") {
    std::optional<Ref> r = single_attr(t, Ref::Module, diags, false);
    if (!r) return r;
    Traversal remain = r->remaining;
    if (remain.empty()) return r;
    if (remain.steps[0].kind == TraversalStep::Kind::Index) {
      std::string why;
      if (!instance_key(remain.steps[0].key, why)) {
        error(diags, "Invalid index key", "Invalid index for module instance: " + why + ".",
              remain.steps[0].range);
        return std::nullopt;
      }
      r->keyed = true;
      r->range = between(r->range, remain.steps[0].range);
      remain = tail(remain, 1);
      r->remaining = remain;
      if (remain.empty()) return r;
    }
    if (remain.steps[0].kind == TraversalStep::Kind::Attr) {
      r->output = remain.steps[0].name;
      r->range = between(r->range, remain.steps[0].range);
      r->remaining = tail(remain, 1);
      return r;
    }
    error(diags, "Invalid reference", "Module instance objects do not support this operation.",
          remain.steps[0].range);
    return std::nullopt;
  }
  if (root == "self") {
    Ref r;
    r.kind = Ref::Self;
    r.range = root_range;
    r.remaining = tail(t, 1);
    return r;
  }
  if (root == "template" || root == "lazy" || root == "arg") {
    error(diags, "Reserved symbol name",
          "The symbol name \"" + root +
              "\" is reserved for use in a future Terraform version. If you are using a provider "
              "that already uses this as a resource type name, add the prefix \"resource.\" to "
              "force interpretation as a resource type name.",
          root_range);
    return std::nullopt;
  }
  return resource_ref(ResMode::Managed, root_range, t, 0, diags);
}

namespace {

// The attributes of the resource types Terraform has built in, for
// checking references to them (configschema's StaticValidateTraversal).
const std::vector<std::string>* builtin_schema(ResMode mode, std::string_view type) {
  static const std::vector<std::string> data_store{"id", "input", "output", "triggers_replace"};
  static const std::vector<std::string> remote_state{"backend", "config", "defaults", "outputs",
                                                     "workspace"};
  if (mode == ResMode::Managed && type == "terraform_data") return &data_store;
  if (mode == ResMode::Data && type == "terraform_remote_state") return &remote_state;
  return nullptr;
}

// The display address of module [m] in diagnostics.
std::string module_display(const ModuleData& m) {
  if (m.path.empty()) return "the root module";
  std::string s;
  for (const std::string& p : m.path) s += (s.empty() ? "module." : ".module.") + p;
  return s;
}

// StaticValidateReference and the evaluator's lookups of [r] in [m].
void validate_static(const Ref& r, const ModuleData& m, Diagnostics& diags) {
  if (r.kind == Ref::Self) {
    error(diags, "Invalid \"self\" reference",
          "The \"self\" object is not available in this context. This object can be used only in "
          "resource provisioner, connection, and postcondition blocks.",
          r.range);
    return;
  }
  if (r.kind == Ref::Module) {
    if (m.calls.count(r.name)) return;
    std::vector<std::string> names;
    for (const auto& [n, c] : m.calls) names.push_back(n);
    std::string s = name_suggestion(r.name, names);
    error(diags, "Reference to undeclared module",
          "No module call named \"" + r.name + "\" is declared in " + module_display(m) + "." +
              (s.empty() ? "" : " Did you mean \"" + s + "\"?"),
          r.range);
    return;
  }
  if (r.kind != Ref::Resource) return;
  const Resource* cfg = m.resource(r.mode, r.type, r.name);
  std::string addr = (r.mode == ResMode::Data ? "data." : r.mode == ResMode::Ephemeral ? "ephemeral."
                                                                                       : "") +
                     r.type + "." + r.name;
  if (cfg != nullptr) {
    if (!r.keyed && !r.remaining.empty()) {
      if (cfg->count) {
        error(diags, "Missing resource instance key",
              "Because " + addr +
                  " has \"count\" set, its attributes must be accessed on specific instances.\n\n"
                  "For example, to correlate with indices of a referring resource, use:\n    " +
                  addr + "[count.index]",
              r.range);
      }
      if (cfg->for_each) {
        error(diags, "Missing resource instance key",
              "Because " + addr +
                  " has \"for_each\" set, its attributes must be accessed on specific "
                  "instances.\n\nFor example, to correlate with indices of a referring resource, "
                  "use:\n    " + addr + "[each.key]",
              r.range);
      }
    } else if (r.keyed && !cfg->count && !cfg->for_each) {
      error(diags, "Unexpected resource instance key",
            "Because " + addr +
                " does not have \"count\" or \"for_each\" set, references to it must not include "
                "an index key. Remove the bracketed index to refer to the single instance of this "
                "resource.",
            r.range);
    }
  }
  const char* adjective = r.mode == ResMode::Managed ? "managed" : r.mode == ResMode::Data ? "data"
                                                                                          : "ephemeral";
  const char* article = r.mode == ResMode::Ephemeral ? "An" : "A";
  if (cfg == nullptr) {
    std::string suggestion;
    if (r.mode == ResMode::Managed && m.resource(ResMode::Data, r.type, r.name))
      suggestion = "\n\nDid you mean the data resource data." + r.type + "." + r.name + "?";
    error(diags, "Reference to undeclared resource",
          std::string(article) + " " + adjective + " resource \"" + r.type + "\" \"" + r.name +
              "\" has not been declared in " + module_display(m) + "." + suggestion,
          r.range);
    return;
  }
  if (!r.remaining.empty() && r.remaining.steps[0].kind == TraversalStep::Kind::Attr &&
      r.remaining.steps[0].name == "count") {
    error(diags, "Invalid resource count attribute",
          "The special \"count\" attribute is no longer supported after Terraform v0.12. Instead, "
          "use length(" + addr + ") to count resource instances.",
          r.range);
    return;
  }
  const std::vector<std::string>* schema = builtin_schema(r.mode, r.type);
  if (schema == nullptr || r.remaining.empty()) return;
  const TraversalStep& next = r.remaining.steps[0];
  if (next.kind == TraversalStep::Kind::Index) {
    const Value& k = next.key;
    if (k.type() == Type::string() && k.is_known() && !k.is_null() &&
        valid_identifier(k.as_string())) {
      error(diags, "Invalid index operation",
            "Only attribute access is allowed here. Did you mean to access attribute \"" +
                std::string(k.as_string()) + "\" using the dot operator?",
            next.range);
    } else {
      error(diags, "Invalid index operation",
            "Only attribute access is allowed here, using the dot operator.", next.range);
    }
    return;
  }
  if (std::find(schema->begin(), schema->end(), next.name) != schema->end()) return;
  std::string s = name_suggestion(next.name, *schema);
  error(diags, "Unsupported attribute",
        "This object has no argument, nested block, or exported attribute named \"" + next.name +
            "\"." + (s.empty() ? "" : " Did you mean \"" + s + "\"?"),
        next.range);
}

// The evaluator's errors for [r] (GetInputVariable, GetLocalValue, ...),
// which Terraform reports while building the context.
void validate_lookup(const Ref& r, const ModuleData& m, ExprScope scope, Diagnostics& diags) {
  switch (r.kind) {
    case Ref::Var: {
      if (m.variables.count(r.name)) return;
      std::vector<std::string> names;
      for (const auto& [n, v] : m.variables) names.push_back(n);
      std::string s = name_suggestion(r.name, names);
      error(diags, "Reference to undeclared input variable",
            "An input variable with the name \"" + r.name + "\" has not been declared." +
                (s.empty() ? " This variable can be declared with a variable \"" + r.name +
                                 "\" {} block."
                           : " Did you mean \"" + s + "\"?"),
            r.range);
      return;
    }
    case Ref::Local: {
      if (m.locals.count(r.name)) return;
      std::vector<std::string> names;
      for (const auto& [n, v] : m.locals) names.push_back(n);
      std::string s = name_suggestion(r.name, names);
      error(diags, "Reference to undeclared local value",
            "A local value with the name \"" + r.name + "\" has not been declared." +
                (s.empty() ? "" : " Did you mean \"" + s + "\"?"),
            r.range);
      return;
    }
    case Ref::Path: {
      if (r.name == "module" || r.name == "root" || r.name == "cwd") return;
      std::string s = name_suggestion(r.name, {"cwd", "module", "root"});
      error(diags, "Invalid \"path\" attribute",
            "The \"path\" object does not have an attribute named \"" + r.name + "\"." +
                (s.empty() ? "" : " Did you mean \"" + s + "\"?"),
            r.range);
      return;
    }
    case Ref::Terraform: {
      if (r.name == "workspace" || r.name == "applying") return;
      if (r.name == "env") {
        error(diags, "Invalid \"terraform\" attribute",
              "The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "
              "\"state environment\" concept was renamed to \"workspace\" in v0.12, and so the "
              "workspace name can now be accessed using the terraform.workspace attribute.",
              r.range);
        return;
      }
      error(diags, "Invalid \"terraform\" attribute",
            "The \"terraform\" object does not have an attribute named \"" + r.name +
                "\". The only supported attributes are terraform.workspace, the name of the "
                "currently-selected workspace, and terraform.applying, a boolean which is true "
                "only during apply.",
            r.range);
      return;
    }
    case Ref::Count: {
      if (r.name != "index") {
        error(diags, "Invalid \"count\" attribute",
              "The \"count\" object does not have an attribute named \"" + r.name +
                  "\". The only supported attribute is count.index, which is the index of each "
                  "instance of a resource block that has the \"count\" argument set.",
              r.range);
      } else if (scope != ExprScope::Counted) {
        error(diags, "Reference to \"count\" in non-counted context",
              "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" "
              "blocks, and only when the \"count\" argument is set.",
              r.range);
      }
      return;
    }
    case Ref::Each: {
      if (r.name != "key" && r.name != "value") {
        error(diags, "Invalid \"each\" attribute",
              "The \"each\" object does not have an attribute named \"" + r.name +
                  "\". The supported attributes are each.key and each.value, the current key and "
                  "value pair of the \"for_each\" attribute set.",
              r.range);
      } else if (scope != ExprScope::ForEach) {
        if (r.name == "value") {
          error(diags, "each.value cannot be used in this context",
                "A reference to \"each.value\" has been used in a context in which it is "
                "unavailable, such as when the configuration no longer contains the value in its "
                "\"for_each\" expression. Remove this reference to each.value in your "
                "configuration to work around this error.",
                r.range);
        } else {
          error(diags, "Reference to \"each\" in context without for_each",
                "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and "
                "only when the \"for_each\" argument is set.",
                r.range);
        }
      }
      return;
    }
    default: return;
  }
}

}  // namespace

std::vector<Ref> parse_refs(const std::vector<Traversal>& vars, Diagnostics& diags) {
  std::vector<Ref> refs;
  for (const Traversal& t : vars) {
    if (t.steps.empty() || t.steps[0].kind != TraversalStep::Kind::Root) continue;
    if (std::optional<Ref> r = parse_ref(t, diags)) refs.push_back(std::move(*r));
  }
  return refs;
}

bool check_refs(const std::vector<Ref>& refs, const ModuleData& m, ExprScope scope,
                std::string_view self_local, Diagnostics& diags, bool self) {
  Diagnostics statics;
  for (const Ref& r : refs)
    if (!self || r.kind != Ref::Self) validate_static(r, m, statics);
  bool stop = has_errors(statics);
  diags.insert(diags.end(), statics.begin(), statics.end());
  if (stop) return false;
  for (const Ref& r : refs) validate_lookup(r, m, scope, diags);
  (void)self_local;
  return true;
}

Diagnostics check_depends_on(const std::vector<ExprPtr>& deps, const ModuleData& m) {
  Diagnostics own;
  for (const ExprPtr& dep : deps) {
    TraversalResult t = abs_traversal_for_expr(dep->expr);
    if (t.traversal.empty()) continue;
    Diagnostics rd;
    std::optional<Ref> r = parse_ref(t.traversal, rd);
    bool failed = has_errors(rd);
    own.insert(own.end(), rd.begin(), rd.end());
    if (!failed && r && !r->remaining.empty()) {
      error(own, "Invalid depends_on reference",
            "References in depends_on must be to a whole object (resource, etc), not to an "
            "attribute of an object.",
            r->remaining.range());
    }
    if (has_errors(own) || !r) continue;
    check_refs({*r}, m, ExprScope::Plain, {}, own);
  }
  return own;
}

void resolve_refs(std::vector<Ref>& refs, const ModuleData& m) {
  for (Ref& r : refs) {
    if (r.kind == Ref::Resource) {
      if (const Resource* res = m.resource(r.mode, r.type, r.name))
        r.resource = int32_t(res - m.resources.data());
    } else if (r.kind == Ref::Local) {
      if (auto it = m.locals.find(r.name); it != m.locals.end())
        r.local = int32_t(it->second.index);
    } else if (r.kind == Ref::Var) {
      if (auto it = m.variables.find(r.name); it != m.variables.end())
        r.variable = int32_t(it->second.index);
    }
  }
}

ExprPtr analyze(const Expression& e, const ModuleData& m, ExprScope scope,
                std::string_view self_local, bool self_allowed) {
  auto info = std::make_shared<ExprInfo>();
  info->expr = e;
  if (!e) return info;
  info->refs = parse_refs(e.variables(), info->diags);
  resolve_refs(info->refs, m);
  if (!self_local.empty()) {
    // NodeLocal checks for references to itself before anything else, and
    // stops there.
    Diagnostics self;
    for (const Ref& r : info->refs) {
      if (r.kind != Ref::Local || r.name != self_local) continue;
      Diagnostic d;
      d.summary = "Self-referencing local value";
      d.detail = "Local value local." + r.name +
                 " cannot use its own result as part of its expression.";
      d.subject = r.range;
      d.context = e.range();
      self.push_back(std::move(d));
    }
    if (!self.empty()) {
      info->diags = std::move(self);
      return info;
    }
  }
  info->static_errors = !check_refs(info->refs, m, scope, self_local, info->diags, self_allowed);
  return info;
}

}  // namespace hclvm::config::detail

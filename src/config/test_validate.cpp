// What `terraform validate` checks of a module's test files once the
// configuration is validated (internal/configs/test_file.go: TestFile.Validate
// and TestRun.Validate): override blocks must target something the
// configuration under test declares (a warning otherwise), and a run
// block's expect_failures may name only checkable objects (input variables,
// outputs, check blocks, resources and data sources).
//
// A run block with a `module` block tests a module of its own, which is
// not loaded here: its overrides are not checked, and a file's override is
// taken as possibly meant for it.
#include "config/decode.h"
#include "config/internal.h"
#include "util/unicode.h"

namespace hclvm::config::detail {

namespace {

// Config.TargetExists: whether [root] declares the module path and resource
// [t] names; a module call whose module is not loaded (not local) may hold
// anything.
bool target_exists(const ModuleData& root, const TestTarget& t) {
  const ModuleData* m = &root;
  for (const std::string& call : t.modules) {
    auto it = m->calls.find(call);
    if (it == m->calls.end()) return false;
    if (!it->second.child) return true;
    m = it->second.child.get();
  }
  return !t.resource || m->resource(t.mode, t.type, t.name) != nullptr;
}

void warn_target(const TestTarget& t, Diagnostics& diags) {
  Diagnostic w;
  w.severity = Severity::Warning;
  w.summary = "Invalid override target";
  w.detail = "The override target " + t.text +
             " does not exist within the configuration under test. This could indicate a typo "
             "in the target address or an unnecessary override.";
  w.subject = t.range;
  diags.push_back(std::move(w));
}

// addrs.ParseRefFromTestingScope of [t], then the kinds of object
// expect_failures accepts.
void check_expect_failure(const Traversal& t, Diagnostics& diags) {
  std::string root(t.root_name());
  std::string subject;
  Range range;
  if (root == "output" || root == "check" || root == "run") {
    const TraversalStep& r = t.steps[0];
    if (t.steps.size() < 2) {
      error(diags, "Invalid reference",
            "The \"" + root +
                "\" object cannot be accessed directly. Instead, access one of its attributes.",
            r.range);
      return;
    }
    if (t.steps[1].kind != TraversalStep::Kind::Attr) {
      error(diags, "Invalid reference",
            "The \"" + root + "\" object does not support this operation.", t.steps[1].range);
      return;
    }
    if (root != "run") return;  // outputs and check blocks can fail
    subject = "run." + t.steps[1].name;
    range = Range{r.range.filename, r.range.start, t.steps[1].range.end};
  } else if (root == "plan" || root == "state") {
    error(diags, "Reserved symbol name",
          "The symbol name \"" + root +
              "\" is reserved for use in a future Terraform version. If you are using a provider "
              "that already uses this as a resource type name, add the prefix \"resource.\" to "
              "force interpretation as a resource type name.",
          t.steps[0].range);
    return;
  } else {
    Diagnostics rd;
    std::optional<Ref> ref = parse_ref(t, rd);
    bool failed = has_errors(rd);
    diags.insert(diags.end(), rd.begin(), rd.end());
    if (failed || !ref) return;
    switch (ref->kind) {
      case Ref::Var:
      case Ref::Resource:
        return;
      case Ref::Local:
        subject = "local." + ref->name;
        break;
      case Ref::Path:
        subject = "path." + ref->name;
        break;
      case Ref::Terraform:
        subject = "terraform." + ref->name;
        break;
      case Ref::Count:
        subject = "count." + ref->name;
        break;
      case Ref::Each:
        subject = "each." + ref->name;
        break;
      case Ref::Self:
        subject = "self";
        break;
      case Ref::Module:
        subject = "module." + ref->name;
        if (std::string err; ref->keyed && t.steps.size() > 2)
          subject += instance_key(t.steps[2].key, err).value_or("");
        if (ref->output) subject += "." + *ref->output;
        break;
    }
    range = ref->range;
  }
  error(diags, "Invalid `expect_failures` reference",
        "You cannot expect failures from " + subject +
            ". You can only expect failures from checkable objects such as input variables, "
            "output values, check blocks, managed resources and data sources.",
        range);
}

}  // namespace

void validate_tests(const ModuleData& root, Diagnostics& diags) {
  for (const TestFile& f : root.tests) {
    bool other_modules = false;
    for (const TestRun& r : f.runs) other_modules |= r.other_module;
    // TestFile.Validate: its mock providers' own overrides, then its own.
    for (const std::vector<TestTarget>* list : {&f.mock_overrides, &f.overrides})
      for (const TestTarget& t : *list)
        if (!other_modules && !target_exists(root, t)) warn_target(t, diags);
    // TestRun.Validate of each run.
    for (const TestRun& r : f.runs) {
      for (const ExprPtr& e : r.expect_failures) {
        TraversalResult t = abs_traversal_for_expr(e->expr);
        if (!t.traversal.empty()) check_expect_failure(t.traversal, diags);
      }
      if (r.other_module) continue;
      for (const TestTarget& t : r.overrides)
        if (!target_exists(root, t)) warn_target(t, diags);
    }
  }
}

}  // namespace hclvm::config::detail

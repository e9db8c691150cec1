// Tests of whole configurations (hclvm/config.h) through the C++ API:
// modules written to a scratch directory, loaded once and evaluated with
// different inputs, from many threads at once, through the compiled-file
// cache; resource instances and their arguments (count, for_each, dynamic
// blocks), supplied resource values, the JSON document, console rendering,
// validation, and Packer templates; go-version's constraint syntax against
// its regular expression. Terraform's own answers are checked by the goldens
// of tests/golden/config (config_golden_test), and the function signatures
// `check --format terraform-json` describes by what `terraform metadata
// functions -json` printed (tests/golden/config/function-signatures.txt).
#include <gtest/gtest.h>
#include <hclvm/config.h>
#include <re2/re2.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "config/decode.h"
#include "config/internal.h"
#include "test_util.h"

namespace hclvm {
namespace {

using test::ScratchDir;

// Loads [dir], failing the test on errors.
config::ModulePtr load(const ScratchDir& dir, const config::LoadOptions& o = {}) {
  config::LoadResult r = config::load_module(dir.str(), o);
  EXPECT_FALSE(r.has_errors()) << config::render_diagnostics(r.diagnostics, r.sources);
  return r.module;
}

// The console rendering of [v].
std::string show(const Value& v) { return config::console_value(v); }

// The value of [name] among [values], or null.
Value find(const std::vector<std::pair<std::string, Value>>& values, const std::string& name) {
  for (const auto& [n, v] : values)
    if (n == name) return v;
  return Value();
}

const char kModule[] = R"(
variable "env" {
  type = string
  validation {
    condition     = contains(["dev", "prod"], var.env)
    error_message = "env must be dev or prod."
  }
}
variable "replicas" {
  type    = number
  default = 2
}
locals {
  name  = "app-${var.env}"
  hosts = [for i in range(var.replicas) : "${local.name}-${i}"]
}
output "hosts" {
  value = local.hosts
}
)";

TEST(ConfigModule, EvaluatesVariablesLocalsOutputs) {
  ScratchDir d;
  d.write("main.tf", kModule);
  config::ModulePtr m = load(d);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->variable_names(), (std::vector<std::string>{"env", "replicas"}));
  config::Inputs in;
  in.auto_var_files = false;
  in.args = {{config::VarArg::Var, "env=prod"}, {config::VarArg::Var, "replicas=3"}};
  config::Evaluation e = config::evaluate(m, in);
  EXPECT_FALSE(e.has_errors()) << config::render_diagnostics(e.diagnostics(), {});
  EXPECT_EQ(show(e.output("hosts")), "[\n  \"app-prod-0\",\n  \"app-prod-1\",\n  \"app-prod-2\",\n]");
  EXPECT_EQ(show(find(e.locals(), "name")), "\"app-prod\"");
}

TEST(ConfigModule, ValidationFailureIsReportedAndEvaluationGoesOn) {
  ScratchDir d;
  d.write("main.tf", kModule);
  config::ModulePtr m = load(d);
  config::Inputs in;
  in.auto_var_files = false;
  in.args = {{config::VarArg::Var, "env=qa"}};
  config::Evaluation e = config::evaluate(m, in);
  ASSERT_TRUE(e.has_errors());
  EXPECT_FALSE(e.stopped());
  EXPECT_EQ(e.diagnostics()[0].summary, "Invalid value for variable");
  EXPECT_EQ(e.diagnostics()[0].detail,
            "env must be dev or prod.\n\nThis was checked by the validation rule at "
            "main.tf:4,3-13.");
  // Locals that read var.env depend on its validation: not evaluated.
  EXPECT_EQ(show(find(e.locals(), "name")), "(known after apply)");
}

TEST(ConfigModule, RequiredVariableIsUnknownOrAnError) {
  ScratchDir d;
  d.write("main.tf", kModule);
  config::ModulePtr m = load(d);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation console = config::evaluate(m, in);
  EXPECT_FALSE(console.has_errors());
  EXPECT_EQ(show(find(console.variables(), "env")), "(known after apply)");
  in.unknown_required = false;
  config::Evaluation plan = config::evaluate(m, in);
  ASSERT_TRUE(plan.stopped());
  EXPECT_EQ(plan.diagnostics()[0].summary, "No value for required variable");
}

TEST(ConfigModule, CompiledOnceEvaluatedManyTimesOnManyThreads) {
  ScratchDir d;
  d.write("main.tf", kModule);
  config::ModulePtr m = load(d);
  std::vector<std::thread> threads;
  std::vector<std::string> failures(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Vm vm;
      for (int i = 0; i < 50; ++i) {
        config::Inputs in;
        in.auto_var_files = false;
        in.values = {{"env", Value::string(i % 2 ? "dev" : "prod")},
                     {"replicas", Value::integer(t + i % 3)}};
        config::Evaluation e = config::evaluate(m, in, &vm);
        Value hosts = e.output("hosts");
        std::string want_first = std::string("app-") + (i % 2 ? "dev" : "prod") + "-0";
        size_t n = size_t(t + i % 3);
        if (e.has_errors() || hosts.length() != n ||
            (n > 0 && hosts.element(0).as_string() != want_first)) {
          failures[size_t(t)] = "thread " + std::to_string(t) + " run " + std::to_string(i);
          return;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
}

TEST(ConfigModule, LoadsThroughTheCache) {
  ScratchDir d, cache_dir;
  d.write("main.tf", kModule);
  Cache cache(CacheOptions{cache_dir.str()});
  config::LoadOptions o;
  o.cache = &cache;
  config::ModulePtr first = load(d, o);
  EXPECT_GE(cache.stats().entries, 1u);
  config::ModulePtr second = load(d, o);  // the programs from the cache
  config::Inputs in;
  in.auto_var_files = false;
  in.values = {{"env", Value::string("dev")}};
  EXPECT_EQ(show(config::evaluate(first, in).output("hosts")),
            show(config::evaluate(second, in).output("hosts")));
  EXPECT_EQ(show(config::evaluate(second, in).output("hosts")),
            "[\n  \"app-dev-0\",\n  \"app-dev-1\",\n]");

  // Each program is decoded at its first use: threads evaluating a module
  // fresh from the cache race for the first decodes and all see the same
  // answers.
  config::ModulePtr third = load(d, o);
  std::vector<std::string> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      config::Inputs ti;
      ti.auto_var_files = false;
      ti.values = {{"env", Value::string(t % 2 ? "dev" : "prod")}};
      seen[t] = show(config::evaluate(third, ti).output("hosts"));
    });
  }
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < seen.size(); ++t) {
    std::string env = t % 2 ? "dev" : "prod";
    EXPECT_EQ(seen[t], "[\n  \"app-" + env + "-0\",\n  \"app-" + env + "-1\",\n]") << t;
  }
}

TEST(ConfigModule, ResourceInstancesAndTheirArguments) {
  ScratchDir d;
  d.write("main.tf", R"(
variable "zones" {
  default = { a = "10.0.1.0/24", b = "10.0.2.0/24" }
}
resource "aws_subnet" "this" {
  for_each   = var.zones
  cidr_block = each.value
  tags       = { Name = "subnet-${each.key}" }
  dynamic "route" {
    for_each = [1, 2]
    content {
      weight = route.value * 10
    }
  }
}
resource "aws_instance" "web" {
  count     = 2
  subnet_id = aws_subnet.this["a"].id
  name      = "web-${count.index}"
}
data "aws_ami" "x" {
  owners = ["self"]
}
)");
  config::ModulePtr m = load(d);
  config::Inputs in;
  in.auto_var_files = false;
  in.resources = {{"aws_subnet.this[\"a\"]", Value::object({{"id", Value::string("subnet-1")}})}};
  config::Evaluation e = config::evaluate(m, in);
  EXPECT_FALSE(e.has_errors()) << config::render_diagnostics(e.diagnostics(), {});
  std::vector<config::Instance> insts = e.instances();
  ASSERT_EQ(insts.size(), 5u);
  EXPECT_EQ(insts[0].address, "aws_instance.web[0]");
  EXPECT_EQ(insts[2].address, "aws_subnet.this[\"a\"]");
  EXPECT_EQ(insts[4].address, "data.aws_ami.x");
  EXPECT_EQ(show(*insts[1].value.attr("name")), "\"web-1\"");
  EXPECT_EQ(show(*insts[0].value.attr("subnet_id")), "\"subnet-1\"");
  EXPECT_EQ(show(*insts[3].value.attr("route")),
            "[\n  {\n    \"weight\" = 10\n  },\n  {\n    \"weight\" = 20\n  },\n]");
  // Unsupplied resources are unknown.
  EvalResult r = e.eval("aws_subnet.this[\"b\"].id");
  ASSERT_FALSE(r.has_errors());
  EXPECT_EQ(show(r.value), "(known after apply)");
}

// The instances of a counted or for_each resource share what their bodies
// look up (variables, locals, other resources) and each has its own
// count.* / each.*: values and the values named in diagnostics are each
// instance's.
TEST(ConfigModule, InstancesShareLookupsButNotTheirKeys) {
  ScratchDir d;
  d.write("main.tf", R"(
variable "s" { default = "abc" }
locals { names = ["x", "y"] }
resource "terraform_data" "a" {
  count = 2
  input = "${local.names[count.index]}-${var.s}" * count.index
}
resource "terraform_data" "b" {
  for_each = toset(local.names)
  input    = { k = each.key, v = "${each.value}-${var.s}", n = length(terraform_data.c) }
}
resource "terraform_data" "c" {
  count = 3
  input = var.s
}
)");
  config::LoadResult loaded = config::load_module(d.str());
  ASSERT_FALSE(loaded.has_errors());
  config::Inputs in;
  in.auto_var_files = false;
  for (int i = 0; i < 3; ++i)
    in.resources["terraform_data.c[" + std::to_string(i) + "]"] = Value::object({});
  config::Evaluation e = config::evaluate(loaded.module, in);
  std::string diags = config::render_diagnostics(e.diagnostics(), loaded.sources);
  EXPECT_NE(
      diags.find(
          "count.index is 0\n    │ local.names is tuple with 2 elements\n    │ var.s is \"abc\""),
      std::string::npos)
      << diags;
  EXPECT_NE(diags.find("count.index is 1\n"), std::string::npos) << diags;
  std::vector<config::Instance> insts = e.instances();
  ASSERT_EQ(insts.size(), 7u);
  EXPECT_EQ(insts[3].address, "terraform_data.b[\"y\"]");
  EXPECT_EQ(show(*insts[3].value.attr("input")),
            "{\n  \"k\" = \"y\"\n  \"n\" = 3\n  \"v\" = \"y-abc\"\n}");
  EXPECT_EQ(show(*insts[2].value.attr("input")),
            "{\n  \"k\" = \"x\"\n  \"n\" = 3\n  \"v\" = \"x-abc\"\n}");
}

// The objects an evaluation makes for the references of an expression
// and for a resource's body keep their last type from one evaluation to
// the next; a later evaluation whose values have other types, on the same
// thread or on others, gets objects of those types.
TEST(ConfigModule, ReevaluatedWithValuesOfOtherTypes) {
  ScratchDir d;
  d.write("main.tf", R"(
variable "x" {}
locals { wrapped = { v = var.x, n = 1 } }
resource "terraform_data" "a" {
  input = local.wrapped
}
resource "null_resource" "b" {
  triggers = { v = var.x }
  nested {
    value = var.x
  }
}
output "o" { value = [terraform_data.a.input, null_resource.b] }
)");
  config::ModulePtr m = load(d);
  const std::vector<std::pair<Value, std::string>> cases = {
      {Value::string("s"), "string"},
      {Value::integer(7), "number"},
      {Value::string("t"), "string"},
      {Value::tuple({Value::boolean(true)}), "tuple"},
  };
  auto check = [&](const Value& x, const std::string& want) {
    config::Inputs in;
    in.auto_var_files = false;
    in.values = {{"x", x}};
    in.resources["terraform_data.a"] = Value::object({{"input", Value::null(Type::dynamic())}});
    config::Evaluation e = config::evaluate(m, in);
    if (e.has_errors()) return std::string("errors");
    // The type the object gives the attribute, not the value's own.
    auto attr_type = [](const Value& obj, std::string_view name) {
      std::optional<size_t> i = obj.type()->find_attr(name);
      return i ? obj.type()->attr_type(*i)->friendly_name() : std::string("none");
    };
    std::string got;
    for (const auto& [name, v] : e.locals())
      if (name == "wrapped") got += attr_type(v, "v");
    for (const config::Instance& inst : e.instances()) {
      if (inst.address != "null_resource.b") continue;
      got += " " + attr_type(*inst.value.attr("triggers"), "v");
      got += " " + attr_type(inst.value.attr("nested")->element(0), "value");
    }
    std::string expected = want + " " + want + " " + want;
    return got == expected ? std::string() : got + " (want " + expected + ")";
  };
  for (int round = 0; round < 2; ++round)
    for (const auto& [x, want] : cases) EXPECT_EQ(check(x, want), "");
  std::vector<std::thread> threads;
  std::vector<std::string> failures(4);
  for (size_t t = 0; t < failures.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40 && failures[t].empty(); ++i)
        failures[t] = check(cases[(t + size_t(i)) % cases.size()].first,
                            cases[(t + size_t(i)) % cases.size()].second);
    });
  }
  for (auto& th : threads) th.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
}

// Evaluated again and again, a failing expression's diagnostic states the
// values of that evaluation, and names the function it failed in.
TEST(ConfigModule, RepeatedDiagnosticsStateEachEvaluationsValues) {
  ScratchDir d;
  d.write("main.tf", R"(
variable "x" {}
output "o" { value = upper(var.x) }
)");
  config::ModulePtr m = load(d);
  for (size_t n : {1, 2, 1, 3}) {
    config::Inputs in;
    in.auto_var_files = false;
    in.values = {{"x", Value::tuple(std::vector<Value>(n, Value::integer(1)))}};
    config::Evaluation e = config::evaluate(m, in);
    ASSERT_EQ(e.diagnostics().size(), 1u);
    std::string elements = n == 1 ? "1 element" : std::to_string(n) + " elements";
    EXPECT_EQ(
        e.diagnostics()[0].expression_values,
        std::vector<std::string>({"while calling upper(str)", "var.x is tuple with " + elements}));
  }
}

// A named pipe among a module's files, or as its terraform.tfvars, is
// reported as unreadable; loading does not wait on it for a writer.
TEST(ConfigModule, NamedPipesAreUnreadableNotWaitedOn) {
  ScratchDir d;
  d.write("main.tf", "variable \"x\" {\n  default = 1\n}\noutput \"o\" {\n  value = var.x\n}\n");
  ASSERT_EQ(::mkfifo((d.str() + "/pipe.tf").c_str(), 0600), 0);
  config::LoadResult r = config::load_module(d.str());
  std::string diags = config::render_diagnostics(r.diagnostics, r.sources);
  EXPECT_NE(diags.find("Failed to read file"), std::string::npos) << diags;
  EXPECT_NE(diags.find("\"pipe.tf\" could not be read"), std::string::npos) << diags;

  ScratchDir v;
  v.write("main.tf", "variable \"x\" {\n  default = 1\n}\n");
  ASSERT_EQ(::mkfifo((v.str() + "/terraform.tfvars").c_str(), 0600), 0);
  config::ModulePtr m = load(v);
  ASSERT_TRUE(m);
  config::Inputs in;
  in.vars_dir = v.str();
  config::Evaluation e = config::evaluate(m, in);
  std::string vdiags = config::render_diagnostics(e.diagnostics(), {});
  EXPECT_NE(vdiags.find("Failed to read variables file"), std::string::npos) << vdiags;
  ASSERT_FALSE(e.diagnostics().empty());
  EXPECT_EQ(e.diagnostics()[0].detail,
            "Error while reading " + v.str() + "/terraform.tfvars: " + v.str() +
                "/terraform.tfvars is a named pipe or socket, which is not read (it would wait "
                "for a writer).");
}

// A variables file that cannot be read is reported in Terraform's words:
// "does not exist" only when it does not; otherwise Go's error for the
// operation that failed (checked against terraform console -var-file).
TEST(ConfigModule, UnreadableVariablesFilesAsTerraformWordsThem) {
  ScratchDir v;
  v.write("main.tf", "variable \"x\" {\n  default = 1\n}\n");
  std::filesystem::create_directory(v.str() + "/d.tfvars");
  config::ModulePtr m = load(v);
  ASSERT_TRUE(m);
  auto detail = [&](const std::string& file) {
    config::Inputs in;
    in.auto_var_files = false;
    in.args.push_back({config::VarArg::VarFile, file});
    config::Evaluation e = config::evaluate(m, in);
    return e.diagnostics().empty() ? std::string() : e.diagnostics()[0].detail;
  };
  EXPECT_EQ(detail(v.str() + "/d.tfvars"), "Error while reading " + v.str() + "/d.tfvars: read " +
                                               v.str() + "/d.tfvars: is a directory.");
  EXPECT_EQ(detail(v.str() + "/none.tfvars"),
            "Given variables file " + v.str() + "/none.tfvars does not exist.");
}

TEST(ConfigModule, JsonDocument) {
  ScratchDir d;
  d.write("main.tf", R"(
variable "pw" {
  default   = "x"
  sensitive = true
}
locals {
  mixed = ["a", terraform_data.t.output]
}
resource "terraform_data" "t" {
  input = var.pw
}
)");
  config::ModulePtr m = load(d);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation e = config::evaluate(m, in);
  EXPECT_EQ(e.to_json(),
            "{\n"
            "  \"variables\": {\n"
            "    \"pw\": {\"value\":\"x\",\"type\":\"string\",\"sensitive\":true}\n"
            "  },\n"
            "  \"locals\": {\n"
            "    \"mixed\": {\"value\":[\"a\",null],\"type\":[\"tuple\",[\"string\",\"dynamic\"]],"
            "\"unknown\":[false,true]}\n"
            "  },\n"
            "  \"outputs\": {},\n"
            "  \"instances\": {\n"
            "    \"terraform_data.t\": {\"value\":{\"input\":\"x\",\"triggers_replace\":null},\"type\":[\"object\",{\"input\":"
            "\"string\",\"triggers_replace\":\"dynamic\"}],\"sensitive\":{\"input\":true}}\n"
            "  }\n"
            "}\n");
}

TEST(ConfigModule, ChildModulesWithCountAndOutputs) {
  ScratchDir d;
  d.write("main.tf", R"(
module "m" {
  source = "./mod"
  count  = 2
  name   = "n${count.index}"
}
output "names" {
  value = module.m[*].greeting
}
)");
  d.write("mod/main.tf", R"(
variable "name" {}
output "greeting" {
  value = "hi ${var.name} from ${path.module}"
}
)");
  config::ModulePtr m = load(d);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation e = config::evaluate(m, in);
  EXPECT_EQ(show(e.output("names")), "[\n  \"hi n0 from mod\",\n  \"hi n1 from mod\",\n]");
  std::vector<config::Instance> insts = e.instances();
  ASSERT_EQ(insts.size(), 2u);
  EXPECT_EQ(insts[1].address, "module.m[1]");
  EXPECT_EQ(insts[1].kind, "module");
}

TEST(ConfigModule, ValidateReportsCountAndUndeclaredReferences) {
  ScratchDir d;
  d.write("main.tf", R"(
resource "terraform_data" "x" {
  count = -1
}
locals {
  a = var.nope
}
)");
  config::ModulePtr m = load(d);
  Diagnostics diags = config::validate(m);
  std::vector<std::string> summaries;
  for (const Diagnostic& x : diags) summaries.push_back(x.summary);
  std::sort(summaries.begin(), summaries.end());
  EXPECT_EQ(summaries, (std::vector<std::string>{"Invalid count argument",
                                                 "Reference to undeclared input variable"}));
}

TEST(ConfigModule, CyclesStopTheEvaluation) {
  ScratchDir d;
  d.write("main.tf", "locals {\n  a = local.b\n  b = local.a\n}\n");
  config::ModulePtr m = load(d);
  config::Evaluation e = config::evaluate(m);
  ASSERT_TRUE(e.stopped());
  ASSERT_EQ(e.diagnostics().size(), 1u);
  EXPECT_TRUE(e.diagnostics()[0].summary == "Cycle: local.a (expand), local.b (expand)" ||
              e.diagnostics()[0].summary == "Cycle: local.b (expand), local.a (expand)")
      << e.diagnostics()[0].summary;
}

TEST(ConfigModule, LoadErrorsAreTerraforms) {
  ScratchDir d;
  d.write("main.tf", "variable \"a\" {}\nvariable \"a\" {}\nvariabl \"x\" {}\n");
  config::LoadResult r = config::load_module(d.str());
  ASSERT_TRUE(r.has_errors());
  EXPECT_FALSE(r.module);
  std::string text = config::render_diagnostics(r.diagnostics, r.sources);
  EXPECT_NE(text.find("Error: Unsupported block type"), std::string::npos) << text;
  EXPECT_NE(text.find("Did you mean \"variable\"?"), std::string::npos) << text;
  EXPECT_NE(text.find("A variable named \"a\" was already declared at main.tf:1,1-13."),
            std::string::npos)
      << text;
}

// validateProviderConfigs' "Duplicate required provider": a default
// provider required under another name than its configuration block's
// (Terraform would need the provider installed to show it in a golden).
TEST(ConfigModule, ProviderConfigurationBlockUnderAnotherLocalName) {
  ScratchDir d;
  d.write(
      "main.tf",
      "terraform {\n  required_providers {\n    cloud = { source = \"hashicorp/aws\" }\n  }\n}\n"
      "provider \"aws\" {}\n");
  config::LoadResult r = config::load_module(d.str());
  ASSERT_FALSE(r.has_errors()) << config::render_diagnostics(r.diagnostics, r.sources);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Duplicate required provider");
  EXPECT_EQ(r.diagnostics[0].detail,
            "Provider hashicorp/aws with the local name \"cloud\" was implicitly required via a "
            "configuration block as \"aws\". The provider configuration block name must match "
            "the name used in required_providers.");
  EXPECT_EQ(r.diagnostics[0].subject->start.line, 3u);
}

// A required_providers block whose attributes cannot be read is not
// recorded (decodeRequiredProvidersBlock returns none): no "Duplicate
// required providers configuration" follows its syntax errors.
TEST(ConfigModule, UnreadableRequiredProvidersBlockIsNotADuplicate) {
  ScratchDir d;
  d.write("a.tf", "terraform {\n  required_providers {\n    test = {}\n  }\n}\n");
  d.write("b.tf", "terraform {\n  required_providers {\n    inner {}\n  }\n}\n");
  config::LoadResult r = config::load_module(d.str());
  std::string text = config::render_diagnostics(r.diagnostics, r.sources);
  EXPECT_NE(text.find("Unexpected \"inner\" block"), std::string::npos) << text;
  EXPECT_EQ(text.find("Duplicate required providers configuration"), std::string::npos) << text;
}

// The built-in provider's encode_expr writes text counted against the
// run's limits as it grows: a value nested 9,000 deep (whose laid-out text
// grows with the square of the depth) and a wide one both stop at the
// string size limit instead of building their whole text.
TEST(ConfigModule, EncodedValueTextStaysWithinLimits) {
  ScratchDir d;
  std::string deep;
  for (int i = 0; i < 9000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(9000, '}');
  d.write("deep.json", deep);
  d.write(
      "main.tf",
      "terraform {\n  required_providers {\n    tf = { source = "
      "\"terraform.io/builtin/terraform\" }\n  }\n}\n"
      "output \"deep\" {\n  value = provider::tf::encode_expr(jsondecode(file(\"deep.json\")))\n}\n"
      "output \"wide\" {\n  value = provider::tf::encode_tfvars({ for i in range(1000) : "
      "\"k${i}\" => [for j in range(1000) : \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx${j}\"] })\n}\n");
  config::ModulePtr m = load(d);
  ASSERT_TRUE(m);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation e = config::evaluate(m, in);
  std::string text = config::render_diagnostics(e.diagnostics(), {});
  size_t limits = 0;
  for (const Diagnostic& x : e.diagnostics()) limits += x.summary == "String size limit exceeded";
  EXPECT_EQ(limits, 2u) << text;
}

// The number of diagnostics in [e] whose summary is [summary].
size_t count_summary(const config::Evaluation& e, std::string_view summary) {
  size_t n = 0;
  for (const Diagnostic& x : e.diagnostics()) n += x.summary == summary;
  return n;
}

TEST(ConfigLimits, ExpansionBeyondTheCollectionLimitIsAnErrorOfItsBlock) {
  // count = 100000000 used to build a hundred million instances.
  ScratchDir d;
  d.write("main.tf",
          "resource \"terraform_data\" \"big\" {\n  count = 100000000\n  input = count.index\n}\n"
          "resource \"terraform_data\" \"each\" {\n  for_each = toset([for i in range(20) : "
          "tostring(i)])\n}\n"
          "module \"m\" {\n  source = \"./m\"\n  count  = 30\n}\n"
          "output \"ok\" {\n  value = upper(\"fine\")\n}\n");
  d.write("m/main.tf", "output \"o\" {\n  value = 1\n}\n");
  config::ModulePtr m = load(d);
  ASSERT_TRUE(m);
  Limits l;
  l.max_collection_size = 25;
  Vm vm(l);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation e = config::evaluate(m, in, &vm);
  std::string text = config::render_diagnostics(e.diagnostics(), {});
  EXPECT_FALSE(e.stopped()) << text;
  EXPECT_EQ(count_summary(e, "Collection size limit exceeded"), 2u) << text;
  for (const Diagnostic& x : e.diagnostics()) {
    ASSERT_TRUE(x.subject) << text;
    EXPECT_TRUE(x.subject->start.line == 2 || x.subject->start.line == 10) << text;
  }
  // The other blocks are evaluated.
  EXPECT_EQ(show(e.output("ok")), "\"FINE\"") << text;
  std::vector<config::Instance> insts = e.instances();
  EXPECT_EQ(std::count_if(insts.begin(), insts.end(),
                          [](const config::Instance& i) {
                            return i.address.starts_with("terraform_data.each");
                          }),
            20);
}

TEST(ConfigLimits, StepsMemoryAndTheDeadlineCountForTheWholeEvaluation) {
  ScratchDir d;
  d.write("main.tf",
          "locals {\n  a = [for i in range(600) : i]\n  b = [for i in range(600) : i]\n}\n"
          "output \"sum\" {\n  value = length(local.a) + length(local.b)\n}\n");
  config::ModulePtr m = load(d);
  ASSERT_TRUE(m);
  config::Inputs in;
  in.auto_var_files = false;
  // Each local alone fits 1,000 steps; both do not: the evaluation ends
  // with one error, at the expression that went over.
  Limits l;
  l.max_steps = 1000;
  Vm vm(l);
  config::Evaluation e = config::evaluate(m, in, &vm);
  std::string text = config::render_diagnostics(e.diagnostics(), {});
  EXPECT_TRUE(e.stopped()) << text;
  ASSERT_EQ(e.diagnostics().size(), 1u) << text;
  EXPECT_EQ(e.diagnostics()[0].summary, "Evaluation step limit exceeded");
  ASSERT_TRUE(e.diagnostics()[0].subject);
  EXPECT_EQ(e.diagnostics()[0].subject->start.line, 3) << text;
  // The same Vm evaluates the module again once the limit allows it.
  l.max_steps = 2000;
  vm.set_limits(l);
  config::Evaluation again = config::evaluate(m, in, &vm);
  EXPECT_FALSE(again.has_errors()) << config::render_diagnostics(again.diagnostics(), {});
  EXPECT_EQ(show(again.output("sum")), "1200");
  // Every instance is a step: 1,500 instances of a module go over 1,000.
  ScratchDir wide;
  wide.write("main.tf", "module \"m\" {\n  source = \"./m\"\n  count  = 1500\n}\n");
  wide.write("m/main.tf", "output \"o\" {\n  value = 1\n}\n");
  config::ModulePtr w = load(wide);
  ASSERT_TRUE(w);
  l.max_steps = 1000;
  vm.set_limits(l);
  config::Evaluation many = config::evaluate(w, in, &vm);
  EXPECT_TRUE(many.stopped());
  EXPECT_EQ(count_summary(many, "Evaluation step limit exceeded"), 1u)
      << config::render_diagnostics(many.diagnostics(), {});
  // Memory: three strings of 1 MB each fit 2.5 MB alone, not together.
  ScratchDir mem;
  mem.write(
      "main.tf",
      "locals {\n"
      "  a = join(\"\", [for i in range(1000) : join(\"\", [for j in range(1000) : \"a\"])])\n"
      "  b = join(\"\", [for i in range(1000) : join(\"\", [for j in range(1000) : \"b\"])])\n"
      "  c = join(\"\", [for i in range(1000) : join(\"\", [for j in range(1000) : \"c\"])])\n"
      "}\n");
  config::ModulePtr mm = load(mem);
  ASSERT_TRUE(mm);
  Limits ml;
  ml.max_memory = 2'500'000;
  Vm mvm(ml);
  config::Evaluation big = config::evaluate(mm, in, &mvm);
  EXPECT_TRUE(big.stopped());
  EXPECT_EQ(count_summary(big, "Evaluation memory limit exceeded"), 1u)
      << config::render_diagnostics(big.diagnostics(), {});
  // Module instances take memory of their own: a thousand instances of a
  // module of a thousand go over 10 MB, without making any value.
  ScratchDir fan;
  fan.write("main.tf", "module \"a\" {\n  source = \"./a\"\n  count  = 1000\n}\n");
  fan.write("a/main.tf", "module \"b\" {\n  source = \"./b\"\n  count  = 1000\n}\n");
  fan.write("a/b/main.tf", "locals {\n  x = 1\n}\n");
  config::ModulePtr fm = load(fan);
  ASSERT_TRUE(fm);
  ml.max_memory = 10'000'000;
  mvm.set_limits(ml);
  config::Evaluation fanned = config::evaluate(fm, in, &mvm);
  EXPECT_TRUE(fanned.stopped());
  ASSERT_EQ(count_summary(fanned, "Evaluation memory limit exceeded"), 1u)
      << config::render_diagnostics(fanned.diagnostics(), {});
  ASSERT_TRUE(fanned.diagnostics().back().subject);
  EXPECT_EQ(fanned.diagnostics().back().subject->filename, "a/main.tf");
  // A cancelled evaluation does nothing.
  std::atomic<bool> stop{true};
  Limits cl;
  cl.cancel = &stop;
  Vm cvm(cl);
  config::Evaluation cancelled = config::evaluate(m, in, &cvm);
  EXPECT_TRUE(cancelled.stopped());
  EXPECT_EQ(count_summary(cancelled, "Evaluation cancelled"), 1u);
  EXPECT_TRUE(cancelled.outputs().empty());
  // Without limits, all of it runs.
  Vm free(Limits::none());
  EXPECT_FALSE(config::evaluate(w, in, &free).has_errors());
}

TEST(ConfigLimits, ALimitOutsideAnExpressionIsPlacedAtItsBlock) {
  // Nested dynamic blocks: 50^3 blocks, past 4 MB of values.
  ScratchDir d;
  std::string dyn = "v = \"${a.value}-${b.value}-${c.value}\"\n";
  for (const char* n : {"c", "b", "a"})
    dyn =
        std::string("dynamic \"") + n + "\" {\nfor_each = range(50)\ncontent {\n" + dyn + "}\n}\n";
  d.write("main.tf", "locals {\n  x = 1\n}\nresource \"aws_thing\" \"x\" {\n" + dyn + "}\n");
  config::ModulePtr m = load(d);
  ASSERT_TRUE(m);
  Limits l;
  l.max_memory = 4'000'000;
  Vm vm(l);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation e = config::evaluate(m, in, &vm);
  std::string text = config::render_diagnostics(e.diagnostics(), {});
  EXPECT_TRUE(e.stopped()) << text;
  ASSERT_EQ(e.diagnostics().size(), 1u) << text;
  EXPECT_EQ(e.diagnostics()[0].summary, "Evaluation memory limit exceeded");
  ASSERT_TRUE(e.diagnostics()[0].subject);
  EXPECT_EQ(e.diagnostics()[0].subject->start.line, 4) << text;
}

TEST(ConfigLimits, ModuleTreesEnd) {
  // A module whose source is its own directory, or a caller's, used to be
  // loaded again and again (two such calls: without end in time).
  ScratchDir self;
  self.write("main.tf",
             "module \"x\" {\n  source = \"./\"\n}\nmodule \"y\" {\n  source = \"./a\"\n}\n");
  self.write("a/main.tf",
             "module \"z\" {\n  source = \"../\"\n}\nmodule \"ok\" {\n  source = \"./b\"\n}\n");
  self.write("a/b/main.tf", "output \"o\" {\n  value = 1\n}\n");
  config::LoadResult r = config::load_module(self.str());
  std::string text = config::render_diagnostics(r.diagnostics, r.sources);
  ASSERT_EQ(r.diagnostics.size(), 2u) << text;
  EXPECT_EQ(r.diagnostics[0].summary, "Module calls itself");
  EXPECT_EQ(r.diagnostics[1].summary, "Module calls itself");
  EXPECT_NE(text.find("source = \"./\""), std::string::npos) << text;
  EXPECT_NE(text.find("source = \"../\""), std::string::npos) << text;
  // Calls that fan out: 2^7 copies of the deepest module, past a limit of 50.
  ScratchDir fan;
  fan.write("main.tf", "module \"r\" {\n  source = \"./d0\"\n}\n");
  for (int i = 0; i < 7; ++i)
    fan.write("d" + std::to_string(i) + "/main.tf",
              "module \"a\" {\n  source = \"../d" + std::to_string(i + 1) +
                  "\"\n}\nmodule \"b\" {\n  source = \"../d" + std::to_string(i + 1) + "\"\n}\n");
  fan.write("d7/main.tf", "output \"o\" {\n  value = 1\n}\n");
  config::LoadOptions o;
  o.max_modules = 50;
  config::LoadResult f = config::load_module(fan.str(), o);
  EXPECT_TRUE(f.has_errors());
  size_t too_many = 0;
  for (const Diagnostic& d : f.diagnostics) too_many += d.summary == "Too many modules";
  EXPECT_GT(too_many, 0u);
  // Within the limit, the same tree loads.
  o.max_modules = 255;
  config::LoadResult all = config::load_module(fan.str(), o);
  EXPECT_FALSE(all.has_errors()) << config::render_diagnostics(all.diagnostics, all.sources);
}

TEST(ConfigConsole, RendersValuesAsTerraformConsole) {
  EXPECT_EQ(config::console_value(Value::string("a\nb")), "<<EOT\na\nb\nEOT");
  EXPECT_EQ(config::console_value(Value::null(Type::list(Type::string()))),
            "tolist(null) /* of string */");
  EXPECT_EQ(config::console_value(Value::map(Type::number(), {{"b", Value::integer(1)}})),
            "tomap({\n  \"b\" = 1\n})");
  EXPECT_EQ(config::console_value(Value::string("s").mark("sensitive")), "(sensitive value)");
  EXPECT_EQ(config::console_type(Type::list(Type::object(std::vector<TypeAttr>{{"a", Type::number()}}))),
            "list(\n    object({\n        a: number,\n    }),\n)");
}

TEST(ConfigPacker, LongChainsOfLocals) {
  // Each local after those it names, on a stack of its own: 20,000 locals
  // each naming the next overflowed the thread's stack, and every local's
  // scope held all the locals before it (quadratic).
  ScratchDir d;
  std::string text = "locals {\n";
  constexpr int kChain = 20000;
  for (int i = 0; i < kChain; ++i)
    text += "  a" + std::to_string(i) + " = local.a" + std::to_string(i + 1) + " + 1\n";
  text += "  a" + std::to_string(kChain) + " = 0\n  all = length(keys(local))\n}\n";
  d.write("build.pkr.hcl", text);
  config::LoadResult r = config::load_module(d.str());
  ASSERT_TRUE(r.module) << config::render_diagnostics(r.diagnostics, r.sources);
  config::Inputs in;
  in.auto_var_files = false;
  config::Evaluation e = config::evaluate(r.module, in);
  EXPECT_EQ(show(e.eval("local.a0").value), std::to_string(kChain));
  // A whole `local` sees every local evaluated before it, in order.
  EXPECT_EQ(show(e.eval("local.all").value), std::to_string(kChain + 1));
  EXPECT_FALSE(e.has_errors()) << config::render_diagnostics(e.diagnostics(), r.sources);
}

TEST(ConfigPacker, VariablesLocalsAndTheConsole) {
  ScratchDir d;
  d.write("build.pkr.hcl", R"(
variable "region" {
  type    = string
  default = "eu-west-1"
}
variable "count_default" {
  default = 3
}
locals {
  name   = "img-${var.region}"
  upper  = upper(local.name)
}
source "amazon-ebs" "x" {
  region = var.region
}
build {
  sources = ["source.amazon-ebs.x"]
}
)");
  config::LoadResult r = config::load_module(d.str());
  ASSERT_FALSE(r.has_errors()) << config::render_diagnostics(r.diagnostics, r.sources);
  EXPECT_EQ(r.module->language(), config::Language::Packer);
  config::Inputs in;
  in.auto_var_files = false;
  in.args = {{config::VarArg::Var, "region=us-east-1"}, {config::VarArg::Var, "count_default=7"}};
  config::Evaluation e = config::evaluate(r.module, in);
  EXPECT_FALSE(e.has_errors()) << config::render_diagnostics(e.diagnostics(), {});
  EvalResult v = e.eval("local.upper");
  ASSERT_FALSE(v.has_errors());
  EXPECT_EQ(v.value.as_string(), "IMG-US-EAST-1");
  // Without a type, a variable takes its default's type: 7 is a number.
  EvalResult n = e.eval("var.count_default + 1");
  ASSERT_FALSE(n.has_errors());
  EXPECT_EQ(config::console_value(n.value), "8");
  // The evaluation lists the template's values (`hclvm eval DIR`), not
  // only its console: variables as given, locals as evaluated.
  auto vars = e.variables();
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_EQ(vars[0].first, "count_default");
  EXPECT_EQ(config::console_value(vars[0].second), "7");
  EXPECT_EQ(vars[1].first, "region");
  EXPECT_EQ(config::console_value(vars[1].second), "\"us-east-1\"");
  EXPECT_EQ(r.module->local_names(), (std::vector<std::string>{"name", "upper"}));
  auto locals = e.locals();
  ASSERT_EQ(locals.size(), 2u);
  EXPECT_EQ(locals[0].first, "name");
  EXPECT_EQ(config::console_value(locals[0].second), "\"img-us-east-1\"");
  EXPECT_EQ(locals[1].first, "upper");
  EXPECT_EQ(config::console_value(locals[1].second), "\"IMG-US-EAST-1\"");
  EXPECT_NE(e.to_json().find(R"("upper": {"value":"IMG-US-EAST-1","type":"string"})"), std::string::npos)
      << e.to_json();
}

// go-version's constraint syntax, read by hand, against the pattern it
// implements (matched whole for each comma-separated part, with every
// version number fitting an int64): hand-picked cases, then random strings
// over the characters that matter.
TEST(VersionConstraints, AgreeWithGoVersionsPattern) {
  static const RE2 part_re(
      R"(\s*(=|!=|>=|<=|>|<|~>)?\s*v?([0-9]+(?:\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?\s*)");
  ASSERT_TRUE(part_re.ok());
  auto expected = [](std::string_view s) {
    while (true) {
      size_t comma = s.find(',');
      std::string part(s.substr(0, comma));
      std::string nums;
      if (!RE2::FullMatch(part, part_re, nullptr, &nums)) return false;
      size_t i = 0;
      while (i < nums.size()) {
        size_t dot = std::min(nums.find('.', i), nums.size());
        std::string_view seg = std::string_view(nums).substr(i, dot - i);
        size_t first = seg.find_first_not_of('0');
        std::string_view digits = first == std::string_view::npos ? "0" : seg.substr(first);
        if (digits.size() > 19 || (digits.size() == 19 && digits > "9223372036854775807"))
          return false;
        i = dot + 1;
      }
      if (comma == std::string_view::npos) return true;
      s.remove_prefix(comma + 1);
    }
  };
  for (std::string_view c : {">= 1.0",
                             "~> 1.11.0",
                             "v1",
                             " = 1.2.3 ",
                             "1.2.",
                             "1..2",
                             ">= 1.x",
                             "1.2-3",
                             "1.2a",
                             "1.2-",
                             "1-",
                             "1.0-beta.1+build.5",
                             "1+",
                             "1+x.",
                             "1.0.0 , < 2",
                             ",1",
                             "1,",
                             "> =1",
                             "!=1",
                             "=>1",
                             "~>v1.2",
                             ">= 9223372036854775807",
                             ">= 9223372036854775808",
                             ">= 00000000000000000000001",
                             ">= 99999999999999999999",
                             "1~",
                             "1-~.a",
                             "1\t",
                             "\v1",
                             ""}) {
    EXPECT_EQ(config::detail::valid_version_constraint(c), expected(c)) << c;
  }
  std::mt19937 rng(20261202);
  static constexpr std::string_view kChars = "0123456789.,-+~vaZ =<>!\t";
  for (int n = 0; n < 200000; ++n) {
    std::string s;
    size_t len = rng() % 12;
    for (size_t i = 0; i < len; ++i) s += kChars[rng() % kChars.size()];
    ASSERT_EQ(config::detail::valid_version_constraint(s), expected(s)) << "'" << s << "'";
  }
}

// A version number past an int32 compares as a number; one past an int64
// makes the constraint invalid, as in Terraform (it was an abort).
TEST(VersionConstraints, LargeNumbers) {
  EXPECT_FALSE(config::detail::version_satisfies(">= 99999999999999", 1, 11, 4));
  EXPECT_TRUE(config::detail::version_satisfies("< 99999999999999", 1, 11, 4));
  EXPECT_TRUE(config::detail::version_satisfies("!= 4294967297.11.4", 1, 11, 4));
  EXPECT_FALSE(config::detail::valid_version_constraint(">= 99999999999999999999"));
}

// The module source address checks, written out, against the patterns of
// tfaddr and go-getter (FullMatch in RE2, whose `.` does not take a
// newline): random strings over the characters that matter.
TEST(ModuleSources, AgreeWithThePatterns) {
  static const RE2 name_re("[0-9A-Za-z](?:[0-9A-Za-z\\-_]{0,62}[0-9A-Za-z])?");
  static const RE2 sys_re("[0-9a-z]{1,64}");
  static const RE2 forced("[A-Za-z0-9]+::.+");
  static const RE2 scheme("[A-Za-z][A-Za-z0-9+.\\-]*://.*");
  std::mt19937 rng(1202);
  static constexpr std::string_view kChars = "aZ9_-:/+.\n x";
  for (int n = 0; n < 200000; ++n) {
    std::string s;
    size_t len = rng() % (n % 100 == 0 ? 70 : 9);
    for (size_t i = 0; i < len; ++i) s += kChars[rng() % kChars.size()];
    if (n % 7 == 0) s = std::string(rng() % 68, 'a');
    ASSERT_EQ(config::detail::registry_name(s), RE2::FullMatch(s, name_re)) << "'" << s << "'";
    ASSERT_EQ(config::detail::registry_system(s), RE2::FullMatch(s, sys_re)) << "'" << s << "'";
    ASSERT_EQ(config::detail::forced_getter(s), RE2::FullMatch(s, forced)) << "'" << s << "'";
    ASSERT_EQ(config::detail::url_with_scheme(s), RE2::FullMatch(s, scheme)) << "'" << s << "'";
  }
}

// The signature hclvm describes for each of Terraform's functions (the
// "function_call" of validate -json's snippets) against Terraform 1.11.4's
// own description of the same function, recorded by record-signatures.sh:
// parameter names and types, the variadic parameter, the return type
// computed from the parameters' types. The one difference is
// templatestring's: the scope's table takes the template as an expression
// (a capsule, described "dynamic", and so is the return type; validate
// -json says so, see the templatestring_heredoc golden), where the
// metadata describes the plain function's string. Other known differences
// are listed in the test with their reasons.
TEST(ConfigSignatures, MatchTerraformsMetadata) {
  // format and formatlist take arguments of no particular type in go-cty
  // 1.18.1 (since 1.16.1: an untyped null is formatted), so arguments of
  // their parameters' types give a result type; Terraform 1.11.4 is built
  // on go-cty 1.16.0, whose type check stops at such an argument.
  // list and map are in Terraform's scope (removed in 0.12, each call an
  // error naming its replacement) but not in what metadata lists.
  const std::set<std::string> known = {
      "format(format \"string\", args... \"dynamic\") \"dynamic\"",
      "formatlist(format \"string\", args... \"dynamic\") \"dynamic\"",
      "format(format \"string\", args... \"dynamic\") \"string\"",
      "formatlist(format \"string\", args... \"dynamic\") [\"list\",\"string\"]",
      "list(vals... \"dynamic\") \"dynamic\"",
      "map(vals... \"dynamic\") \"dynamic\"",
  };
  auto is_known = [&](std::string l) {
    if (l.starts_with("core::")) l = l.substr(6);
    return known.count(l) != 0;
  };
  std::ifstream in(std::string(HCLVM_SOURCE_DIR) + "/tests/golden/config/function-signatures.txt");
  ASSERT_TRUE(in) << "tests/golden/config/function-signatures.txt";
  std::vector<std::string> expected;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("templatestring(") || line.starts_with("core::templatestring("))
      line.replace(line.find("\"string\""), 8, "\"dynamic\"")
          .replace(line.rfind("\"string\""), 8, "\"dynamic\"");
    expected.push_back(line);
  }
  ASSERT_GT(expected.size(), 200u);
  std::shared_ptr<const FunctionTable> fns = config::detail::terraform_functions(".", true, false);
  std::vector<std::string> got;
  fns->each_name([&](std::string_view name) {
    config::detail::FunctionSignature sig =
        config::detail::describe_function(name, *fns->find(name));
    std::string line = std::string(name) + "(";
    for (size_t i = 0; i < sig.params.size(); ++i)
      line += (i ? ", " : "") + sig.params[i].name + " " + sig.params[i].type;
    if (sig.variadic)
      line += (sig.params.empty() ? "" : ", ") + sig.variadic->name + "... " + sig.variadic->type;
    got.push_back(line + ") " + sig.return_type);
  });
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  std::vector<std::string> missing, extra;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                      std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  std::string report;
  for (const std::string& l : missing)
    if (!is_known(l)) report += "  terraform: " + l + "\n";
  for (const std::string& l : extra)
    if (!is_known(l)) report += "  hclvm:     " + l + "\n";
  EXPECT_TRUE(report.empty()) << report;
}

}  // namespace
}  // namespace hclvm

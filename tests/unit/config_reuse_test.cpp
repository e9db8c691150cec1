// Re-evaluation (config::reevaluate): what it gives must be what evaluating
// afresh gives, for every module of the terraform-console goldens and a
// chain of inputs changing one variable at a time; files read by the file
// functions are read again once changed, impure functions are called again,
// and a vertex is reused only when what it depends on is unchanged.
#include <gtest/gtest.h>
#include <hclvm/config.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace hclvm {
namespace {

using test::ScratchDir;

const std::string kGoldens = std::string(HCLVM_SOURCE_DIR) + "/tests/golden/config";

// Everything an evaluation shows: the JSON document, the diagnostics as
// Terraform prints them, and whether it stopped.
std::string shown(const config::Evaluation& ev, const config::LoadResult& loaded) {
  config::Sources sources = loaded.sources;
  sources.merge(ev.sources());
  return ev.to_json(true) + "\n" + config::render_diagnostics(ev.diagnostics(), sources) +
         (ev.stopped() ? "\n[stopped]" : "");
}

// The golden case directories.
std::vector<std::string> golden_modules() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kGoldens))
    if (e.is_directory()) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ConfigReuse, GivesWhatEvaluatingAfreshGivesForEveryGoldenModule) {
  size_t modules = 0, steps = 0;
  config::Evaluation::WalkStats total;
  for (const std::string& dir : golden_modules()) {
    config::LoadResult loaded = config::load_module(dir);
    if (!loaded.module) continue;
    ++modules;
    config::Inputs base;
    base.vars_dir = dir;
    base.cwd = "/work";
    config::Evaluation prev = config::evaluate(loaded.module, base);
    // A module whose evaluations differ (uuid(), timestamp()...) cannot be
    // compared with itself.
    if (shown(prev, loaded) != shown(config::evaluate(loaded.module, base), loaded)) continue;
    // The inputs in turn: each variable changed alone, the workspace, the
    // working directory, resource values, validate, and back to the start.
    std::vector<config::Inputs> chain;
    for (const auto& [name, v] : prev.variables()) {
      std::optional<Value> c = test::changed_value(v);
      if (!c) continue;
      config::Inputs in = base;
      in.values[name] = *c;
      chain.push_back(in);
      chain.push_back(base);
    }
    config::Inputs ws = base;
    ws.workspace = "other";
    chain.push_back(ws);
    config::Inputs cwd = base;
    cwd.cwd = "/elsewhere";
    chain.push_back(cwd);
    config::Inputs res = base;
    for (const config::Instance& i : prev.instances())
      if (i.kind != "module")
        res.resources[i.address] = Value::object({{"id", Value::string("x")}});
    chain.push_back(res);
    config::Inputs val = base;
    val.validate = true;
    chain.push_back(val);
    chain.push_back(base);
    chain.push_back(base);
    for (const config::Inputs& in : chain) {
      config::Evaluation again = config::reevaluate(prev, in);
      config::Evaluation fresh = config::evaluate(loaded.module, in);
      ASSERT_EQ(shown(again, loaded), shown(fresh, loaded)) << dir << " after step " << steps;
      config::Evaluation::WalkStats s = again.walk_stats();
      total.evaluated += s.evaluated;
      total.reused += s.reused;
      total.skipped += s.skipped;
      prev = std::move(again);
      ++steps;
    }
  }
  EXPECT_GT(modules, 50u);
  // Some of the work is reused (each step changes one input; variables are
  // always evaluated, and these modules are mostly variables).
  EXPECT_GT(total.reused, 0u) << total.reused << " reused, " << total.evaluated << " evaluated in "
                              << steps << " steps";
}

const char kFiles[] = R"(
variable "name" {
  default = "a"
}
locals {
  text     = file("${path.module}/data.txt")
  rendered = templatefile("${path.module}/t.tmpl", { name = var.name })
  exists   = fileexists("${path.module}/maybe.txt")
  constant = upper("x")
}
output "text" {
  value = local.text
}
)";

TEST(ConfigReuse, FilesAreReadAgainOnceChanged) {
  ScratchDir dir;
  dir.write("main.tf", kFiles);
  dir.write("data.txt", "one");
  dir.write("t.tmpl", "hello ${name} ${file(\"inner.txt\")}");
  dir.write("inner.txt", "i1");
  config::LoadResult loaded = config::load_module(dir.str());
  ASSERT_TRUE(loaded.module);
  config::Inputs in;
  in.vars_dir = dir.str();
  config::Evaluation prev = config::evaluate(loaded.module, in);
  auto local = [](const config::Evaluation& ev, const std::string& name) {
    for (const auto& [n, v] : ev.locals())
      if (n == name) return v.is_known() && !v.is_null() ? config::console_value(v) : "?";
    return std::string("missing");
  };
  EXPECT_EQ(local(prev, "text"), "\"one\"");
  EXPECT_EQ(local(prev, "rendered"), "\"hello a i1\"");
  EXPECT_EQ(local(prev, "exists"), "false");

  // Nothing changed: only the variable is evaluated again.
  config::Evaluation same = config::reevaluate(prev, in);
  EXPECT_EQ(same.walk_stats().evaluated, 1u);
  EXPECT_EQ(same.walk_stats().reused, 5u);
  EXPECT_EQ(same.to_json(), prev.to_json());

  // Each file changed (another size, so that its stamp changes whatever the
  // clock's resolution), created, or removed.
  dir.write("data.txt", "two!");
  dir.write("inner.txt", "i22");
  dir.write("maybe.txt", "");
  config::Evaluation next = config::reevaluate(same, in);
  EXPECT_EQ(local(next, "text"), "\"two!\"");
  EXPECT_EQ(local(next, "rendered"), "\"hello a i22\"");
  EXPECT_EQ(local(next, "exists"), "true");
  EXPECT_EQ(local(next, "constant"), "\"X\"");
  EXPECT_EQ(next.walk_stats().evaluated, 5u);  // the variable, the three locals and the output
  std::filesystem::remove(dir.str() + "/data.txt");
  config::Evaluation gone = config::reevaluate(next, in);
  EXPECT_TRUE(gone.has_errors());
  EXPECT_EQ(shown(gone, loaded), shown(config::evaluate(loaded.module, in), loaded));
}

// A file that is missing reads as missing only while its path stays in
// the module's directory: once a directory on the way is a link to
// elsewhere, reading it is refused as outside that directory, as an
// evaluation afresh refuses it (the missing file's own stamp is the same).
TEST(ConfigReuse, AMissingFileIsCheckedAgainOnceItsDirectoryMoves) {
  ScratchDir dir, elsewhere;
  dir.write("m/main.tf", R"(
variable "name" {
  default = "a"
}
locals {
  missing = file("${path.module}/sub/deeper/gone.txt")
  found   = fileexists("${path.module}/sub/deeper/gone.txt")
}
)");
  dir.write("m/sub/deeper/keep.txt", "");
  elsewhere.write("deeper/keep.txt", "");
  std::string m = dir.str() + "/m";
  config::LoadResult loaded = config::load_module(m);
  ASSERT_TRUE(loaded.module);
  config::Inputs in;
  in.vars_dir = m;
  config::Evaluation prev = config::evaluate(loaded.module, in);
  ASSERT_NE(shown(prev, loaded).find("no file exists"), std::string::npos) << shown(prev, loaded);

  // The directory on the way replaced by a link to a directory outside.
  std::filesystem::remove_all(m + "/sub");
  std::filesystem::create_directory_symlink(elsewhere.str(), m + "/sub");
  config::Evaluation fresh = config::evaluate(loaded.module, in);
  ASSERT_NE(shown(fresh, loaded).find("is outside"), std::string::npos) << shown(fresh, loaded);
  EXPECT_EQ(shown(config::reevaluate(prev, in), loaded), shown(fresh, loaded));

  // The directory itself moved outside and linked back from where it was.
  std::filesystem::remove(m + "/sub");
  std::filesystem::create_directories(m + "/sub/deeper");
  prev = config::evaluate(loaded.module, in);
  std::filesystem::rename(m + "/sub", elsewhere.str() + "/moved");
  std::filesystem::create_directory_symlink(elsewhere.str() + "/moved", m + "/sub");
  fresh = config::evaluate(loaded.module, in);
  ASSERT_NE(shown(fresh, loaded).find("is outside"), std::string::npos) << shown(fresh, loaded);
  EXPECT_EQ(shown(config::reevaluate(prev, in), loaded), shown(fresh, loaded));

  // And back: the link replaced by a directory of the module again.
  prev = std::move(fresh);
  std::filesystem::remove(m + "/sub");
  std::filesystem::create_directories(m + "/sub/deeper");
  fresh = config::evaluate(loaded.module, in);
  ASSERT_EQ(shown(fresh, loaded).find("is outside"), std::string::npos) << shown(fresh, loaded);
  EXPECT_EQ(shown(config::reevaluate(prev, in), loaded), shown(fresh, loaded));

  // A file that is a link to another name is read again every time.
  dir.write("m/sub/deeper/target.txt", "one");
  std::filesystem::create_symlink("target.txt", m + "/sub/deeper/gone.txt");
  prev = config::evaluate(loaded.module, in);
  config::Evaluation again = config::reevaluate(prev, in);
  EXPECT_EQ(shown(again, loaded), shown(prev, loaded));
  EXPECT_EQ(again.walk_stats().evaluated, 3u);  // the variable and both locals
}

TEST(ConfigReuse, ImpureFunctionsAreCalledAgain) {
  ScratchDir dir;
  dir.write("main.tf", R"(
locals {
  id    = uuid()
  fixed = "f"
}
)");
  config::LoadResult loaded = config::load_module(dir.str());
  ASSERT_TRUE(loaded.module);
  config::Evaluation a = config::evaluate(loaded.module);
  config::Evaluation b = config::reevaluate(a, {});
  Value ida, idb;
  for (const auto& [n, v] : a.locals())
    if (n == "id") ida = v;
  for (const auto& [n, v] : b.locals())
    if (n == "id") idb = v;
  ASSERT_TRUE(ida.is_known() && idb.is_known());
  EXPECT_NE(ida.as_string(), idb.as_string());
  EXPECT_EQ(b.walk_stats().evaluated, 1u);
  EXPECT_EQ(b.walk_stats().reused, 1u);
}

const char kChain[] = R"(
variable "a" {
  default = "x"
}
variable "b" {
  default = 1
}
locals {
  from_a  = "${var.a}-suffix"
  from_b  = var.b * 2
  same    = length(var.a) > 0
  after   = local.same ? "yes" : "no"
}
resource "terraform_data" "r" {
  count = var.b
  input = local.from_a
}
module "child" {
  source = "./child"
  n      = local.from_b
}
output "child" {
  value = module.child.out
}
)";

TEST(ConfigReuse, OnlyWhatDependsOnAChangeIsEvaluatedAgain) {
  ScratchDir dir;
  dir.write("main.tf", kChain);
  dir.write("child/main.tf", R"(
variable "n" {}
output "out" {
  value = var.n + 1
}
)");
  config::LoadResult loaded = config::load_module(dir.str());
  ASSERT_TRUE(loaded.module) << config::render_diagnostics(loaded.diagnostics, loaded.sources);
  config::Evaluation prev = config::evaluate(loaded.module);
  const size_t vertices = prev.walk_stats().evaluated;

  // var.a changes: from_a and the resource that reads it are evaluated
  // again; `same` is too, and comes out as before, so `after` is reused.
  config::Inputs in;
  in.values["a"] = Value::string("yy");
  config::Evaluation a = config::reevaluate(prev, in);
  EXPECT_EQ(a.to_json(), config::evaluate(loaded.module, in).to_json());
  // The root's two variables and the three that read var.a; the child's
  // variable reads local.from_b, which did not change.
  EXPECT_EQ(a.walk_stats().evaluated, 2u + 3u);
  EXPECT_EQ(a.walk_stats().evaluated + a.walk_stats().reused, vertices);

  // var.b changes: the count changes, and the module's chain through
  // from_b, its child's variable and output, and the root output.
  in.values["b"] = Value::integer(3);
  config::Evaluation b = config::reevaluate(a, in);
  EXPECT_EQ(b.to_json(), config::evaluate(loaded.module, in).to_json());
  EXPECT_EQ(b.output("child").as_number().to_double(), 7.0);
  EXPECT_EQ(b.instances().size(), 4u);  // three terraform_data and the module
}

TEST(ConfigReuse, ManyThreadsReevaluateOneEvaluation) {
  ScratchDir dir;
  dir.write("main.tf", kChain);
  dir.write("child/main.tf", "variable \"n\" {}\noutput \"out\" {\n  value = var.n + 1\n}\n");
  config::LoadResult loaded = config::load_module(dir.str());
  ASSERT_TRUE(loaded.module);
  const config::Evaluation prev = config::evaluate(loaded.module);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        config::Inputs in;
        in.values["b"] = Value::integer(1 + (t + i) % 3);
        if (config::reevaluate(prev, in).to_json() != config::evaluate(loaded.module, in).to_json())
          ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ConfigReuse, AnEmptyOrStoppedEvaluationReusesNothing) {
  config::Evaluation none = config::reevaluate(config::Evaluation(), {});
  EXPECT_FALSE(none.module());
  EXPECT_EQ(none.walk_stats().evaluated, 0u);

  ScratchDir dir;
  dir.write("main.tf",
            "variable \"n\" {\n  default = 600\n}\n"
            "locals {\n  a = [for i in range(var.n) : i]\n  b = [for i in range(var.n) : i]\n}\n");
  config::LoadResult loaded = config::load_module(dir.str());
  ASSERT_TRUE(loaded.module);
  Limits tight;
  tight.max_steps = 1000;
  Vm small(tight);
  config::Evaluation stopped = config::evaluate(loaded.module, {}, &small);
  ASSERT_TRUE(stopped.stopped()) << config::render_diagnostics(stopped.diagnostics(), {});
  config::Evaluation again = config::reevaluate(stopped, {});
  EXPECT_FALSE(again.stopped());
  EXPECT_EQ(again.walk_stats().reused, 0u);
  // Other limits on single values: nothing reused either.
  Limits strings;
  strings.max_string_bytes = 10;
  Vm other(strings);
  config::Evaluation limited = config::reevaluate(again, {}, &other);
  EXPECT_EQ(limited.walk_stats().reused, 0u);
}

TEST(ConfigReuse, ReusedWorkCountsItsStepsAsBefore) {
  ScratchDir dir;
  dir.write("main.tf",
            "variable \"n\" {\n  default = 600\n}\nvariable \"x\" {\n  default = 1\n}\n"
            "locals {\n  a = [for i in range(var.n) : i]\n  b = [for i in range(var.n) : i]\n"
            "  c = var.x\n}\n");
  config::LoadResult loaded = config::load_module(dir.str());
  ASSERT_TRUE(loaded.module);
  config::Evaluation prev = config::evaluate(loaded.module);
  ASSERT_FALSE(prev.has_errors());
  // Under a step limit the two loops do not fit together, evaluated afresh
  // or reused: the re-evaluation stops where the evaluation stops.
  Limits l;
  l.max_steps = 1000;
  Vm vm(l);
  config::Inputs in;
  in.values["x"] = Value::integer(2);
  config::Evaluation fresh = config::evaluate(loaded.module, in, &vm);
  config::Evaluation again = config::reevaluate(prev, in, &vm);
  EXPECT_TRUE(fresh.stopped());
  EXPECT_TRUE(again.stopped());
  EXPECT_EQ(again.walk_stats().reused, 1u);  // a, before b goes over the limit
  EXPECT_EQ(config::render_diagnostics(again.diagnostics(), loaded.sources),
            config::render_diagnostics(fresh.diagnostics(), loaded.sources));
  EXPECT_EQ(config::render_validate_json(again.diagnostics(), loaded.sources),
            config::render_validate_json(fresh.diagnostics(), loaded.sources));
}

}  // namespace
}  // namespace hclvm

// The embedding lifecycle through the public headers only, as docs/api.md
// shows it: a configuration loaded through the cache, a Vm with limits,
// variables from JSON, values read natively and as JSON, diagnostics
// rendered as text and JSON.
#include <gtest/gtest.h>
#include <hclvm/cache.h>
#include <hclvm/eval.h>
#include <hclvm/function.h>
#include <hclvm/functions.h>
#include <hclvm/limits.h>
#include <hclvm/render.h>
#include <hclvm/syntax.h>
#include <hclvm/value_json.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace hclvm {
namespace {

constexpr const char* kConfig = R"(name  = "${env}-web"
ports = [for p in ports : p + 1000]
tags  = { team = upper(team) }

service "api" {
  replicas = count * 2
  broken   = nope.attr
}
)";

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("hclvm-embed-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST(Embed, Lifecycle) {
  TempDir dir;
  CacheOptions co;
  co.dir = dir.path.string();
  Cache cache(co);
  auto src = make_source("app.hcl", kConfig);

  // Compiled once; the second load comes from the cache.
  CacheStatus status;
  auto file = std::make_shared<const CompiledFile>(cache.load_or_compile(src, {}, &status));
  EXPECT_EQ(status.outcome, CacheStatus::Miss);
  EXPECT_FALSE(file->has_errors());
  auto again = std::make_shared<const CompiledFile>(cache.load_or_compile(src, {}, &status));
  EXPECT_EQ(status.outcome, CacheStatus::Hit);
  EXPECT_EQ(cache.stats().entries, 1u);

  EvalContext ctx;
  ctx.set_functions(std::make_shared<const FunctionTable>(standard_functions({})));
  ASSERT_EQ(set_variables_from_json(ctx, R"({"env": "prod", "ports": [80, 443],
                                           "team": "core", "count": 3})"),
            "");
  EXPECT_NE(set_variables_from_json(ctx, "[1]"), "");  // not an object: refused
  EXPECT_NE(set_variables_from_json(ctx, "{"), "");

  Vm vm(Limits{});
  std::map<std::string, std::string> got;
  for (const CompiledFile* f : {file.get(), again.get()}) {
    for (const CompiledAttribute& a : f->body.attributes) {
      EvalResult r = a.value(vm, &ctx);
      ASSERT_FALSE(r.has_errors()) << a.name;
      got[a.name] = value_to_json(r.value).json;
    }
  }
  EXPECT_EQ(got["name"], R"("prod-web")");
  EXPECT_EQ(got["ports"], "[1080,1443]");
  EXPECT_EQ(got["tags"], R"({"team":"CORE"})");

  // Native accessors.
  ASSERT_EQ(file->body.blocks.size(), 1u);
  const CompiledBlock& svc = file->body.blocks[0];
  EXPECT_EQ(svc.type, "service");
  EXPECT_EQ(svc.labels, std::vector<std::string>{"api"});
  EvalResult replicas = svc.body.attributes[0].value(vm, &ctx);
  ASSERT_TRUE(replicas.value.is_plain());
  EXPECT_EQ(replicas.value.as_number().to_int64(), 6);
  EXPECT_EQ(replicas.value.as_number().to_double(), 6.0);

  // An error, rendered as the reference renders it, with the block context.
  EvalResult broken = svc.body.attributes[1].value(vm, &ctx);
  ASSERT_TRUE(broken.has_errors());
  std::string text = diagnostics_text(broken.diagnostics, *file);
  EXPECT_NE(text.find("Error: Unknown variable"), std::string::npos) << text;
  EXPECT_NE(text.find("on app.hcl line 7, in service \"api\":"), std::string::npos) << text;
  EXPECT_NE(text.find("   7:   broken   = nope.attr"), std::string::npos) << text;
  std::string json = diagnostics_json(broken.diagnostics);
  EXPECT_NE(json.find("\"summary\": \"Unknown variable\""), std::string::npos) << json;
  EXPECT_NE(diagnostics_text(broken.diagnostics, src.get()).find("   7:"), std::string::npos);
  EXPECT_NE(diagnostics_text(broken.diagnostics, nullptr).find("(source code not available)"),
            std::string::npos);
}

TEST(Embed, ValuesToAndFromJson) {
  JsonValue v = value_from_json(R"({"a": [1, "x", true, null]})");
  ASSERT_TRUE(v.ok()) << v.error;
  EXPECT_EQ(v.value.type()->friendly_name(), "object");
  EXPECT_EQ(value_to_json(v.value).json, R"({"a":[1,"x",true,null]})");
  EXPECT_EQ(value_to_json(v.value, Type::dynamic()).json,
            R"({"value":{"a":[1,"x",true,null]},"type":["object",{"a":["tuple",)"
            R"(["number","string","bool","dynamic"]]}]})");

  JsonValue typed = value_from_json("[1, 2]", Type::list(Type::string()));
  ASSERT_TRUE(typed.ok()) << typed.error;
  EXPECT_EQ(value_to_json(typed.value).json, R"(["1","2"])");
  EXPECT_EQ(type_as_json(typed.value.type()).json, R"(["list","string"])");

  EXPECT_FALSE(value_from_json("[1,").ok());
  JsonText unknown = value_to_json(Value::unknown(Type::string()));
  EXPECT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error, "value is not known");
}

}  // namespace
}  // namespace hclvm

// Tests of the pieces of the hclvm command that tables can state better
// than command lines: the reports of `hclvm check` (src/cli/report.h) on
// awkward names and messages, and the flag table read from help texts
// with the did-you-mean built on it (src/cli/cli.h). The command lines
// themselves are tested by tests/cli.
#include <gtest/gtest.h>

#include "cli/cli.h"
#include "cli/report.h"

namespace hclvm::cli {
namespace {

// A report of two files, one with an error whose texts need escaping.
CheckReport awkward_report() {
  CheckReport r;
  r.files = {"dir with space/a&b.tf", "/abs/ok.tf"};
  Diagnostic d;
  d.summary = "Invalid <thing> & \"quote\"";
  d.detail = "Line one.\nLine two.";
  Range s;
  s.filename = "dir with space/a&b.tf";
  s.start = {2, 3, 10};
  s.end = {2, 7, 14};
  d.subject = s;
  r.diagnostics.push_back(d);
  r.errors = 1;
  r.with_errors = 1;
  r.unreadable = {{"gone.tf", "No such file or directory"}};
  return r;
}

TEST(CliReport, RuleIds) {
  EXPECT_EQ(rule_id("Invalid expression"), "hcl/invalid-expression");
  EXPECT_EQ(rule_id("Unsupported argument; did you mean?"), "hcl/unsupported-argument-did-you-mean");
  EXPECT_EQ(rule_id("  Missing   \"name\" "), "hcl/missing-name");
  EXPECT_EQ(rule_id("!!!"), "hcl/diagnostic");
}

TEST(CliReport, JsonAlwaysOneDocument) {
  CheckReport clean;
  clean.files = {"a.tf"};
  EXPECT_EQ(report_json(clean),
            "{\n"
            "  \"valid\": true,\n"
            "  \"counts\": {\"files\": 1, \"with_errors\": 0, \"errors\": 0, \"warnings\": 0, \"unreadable\": 0},\n"
            "  \"files\": [\"a.tf\"],\n"
            "  \"unreadable\": [],\n"
            "  \"symlinks\": [],\n"
            "  \"diagnostics\": []\n"
            "}\n");
  std::string doc = report_json(awkward_report());
  EXPECT_NE(doc.find("\"valid\": false"), std::string::npos);
  EXPECT_NE(doc.find("{\"path\": \"gone.tf\", \"error\": \"No such file or directory\"}"), std::string::npos);
  // hcldec's escaping: < > & as \u003c \u003e \u0026.
  EXPECT_NE(doc.find("\"summary\": \"Invalid \\u003cthing\\u003e \\u0026 \\\"quote\\\"\""), std::string::npos);
}

TEST(CliReport, SarifUrisAndNotifications) {
  std::string doc = report_sarif(awkward_report(), "9.9.9");
  EXPECT_NE(doc.find("\"version\": \"2.1.0\""), std::string::npos);
  EXPECT_NE(doc.find("\"version\": \"9.9.9\""), std::string::npos);
  EXPECT_NE(doc.find("\"uri\": \"dir%20with%20space/a%26b.tf\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("\"region\": {\"startLine\": 2, \"startColumn\": 3, \"endLine\": 2, \"endColumn\": 7}"),
            std::string::npos);
  EXPECT_NE(doc.find("\"executionSuccessful\": false"), std::string::npos);
  EXPECT_NE(doc.find("cannot read gone.tf: No such file or directory"), std::string::npos);
  CheckReport abs;
  Diagnostic d;
  d.summary = "x";
  Range s;
  s.filename = "/abs/ok.tf";
  d.subject = s;
  abs.diagnostics.push_back(d);
  EXPECT_NE(report_sarif(abs, "1").find("\"uri\": \"file:///abs/ok.tf\""), std::string::npos);
}

TEST(CliReport, XmlEscaped) {
  std::string cs = report_checkstyle(awkward_report());
  EXPECT_NE(cs.find("<file name=\"dir with space/a&amp;b.tf\">"), std::string::npos) << cs;
  EXPECT_NE(cs.find("message=\"Invalid &lt;thing&gt; &amp; &quot;quote&quot;: Line one.&#xA;Line two.\""),
            std::string::npos)
      << cs;
  EXPECT_NE(cs.find("<file name=\"/abs/ok.tf\"/>"), std::string::npos);
  EXPECT_NE(cs.find("source=\"hclvm/unreadable\""), std::string::npos);
  std::string ju = report_junit(awkward_report());
  EXPECT_NE(ju.find("tests=\"3\" failures=\"1\" errors=\"1\""), std::string::npos) << ju;
  // Element text keeps its line breaks; attributes encode them.
  EXPECT_NE(ju.find("Line one.\nLine two.\n</failure>"), std::string::npos) << ju;
  EXPECT_NE(ju.find("<testcase classname=\"hclvm.check\" name=\"/abs/ok.tf\"/>"), std::string::npos);
}

TEST(CliHelp, FlagsOfAHelpText) {
  const char help[] =
      "Usage: x [options]\n"
      "\n"
      "Prose mentioning --not-a-flag.\n"
      "\n"
      "Options (one or two dashes):\n"
      "  -e, --expr EXPR   evaluate\n"
      "  --format json|hcl how\n"
      "                    --continued prose\n"
      "  -list=false       a Go boolean\n"
      "  --max-steps N     limits:\n"
      "  --max-memory BYTES  more\n"
      "\n"
      "  --after-the-section  not read\n";
  EXPECT_EQ(help_flags(help), (std::vector<std::string>{"-e", "--expr", "--format", "-list",
                                                        "--max-steps", "--max-memory"}));
  EXPECT_TRUE(help_flags("no options here\n").empty());
}

TEST(CliHelp, ClosestName) {
  std::vector<std::string> flags = {"--format", "--force", "--exclude"};
  EXPECT_EQ(closest_name("--formt", flags), "--format");
  EXPECT_EQ(closest_name("--forc", flags), "--force");
  EXPECT_EQ(closest_name("--zzzzzz", flags), "");
  EXPECT_EQ(closest_name("chek", {"check", "cache"}), "check");
}

}  // namespace
}  // namespace hclvm::cli

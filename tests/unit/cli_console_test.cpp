// Tests of what `hclvm console` makes of its input (src/cli/console.h):
// whether an entry goes on to the next line (terraform console's
// ExpressionEntryCouldContinue, on hclvm's tokens), which lines are
// skipped, and the candidates of tab completion in the scope of
// tests/cli/data/module. The key bindings themselves are tested on a
// pseudo-terminal by tests/cli/console_pty.py.
#include <gtest/gtest.h>

#include <hclvm/config.h>

#include <string>
#include <vector>

#include "cli/console.h"

namespace hclvm::cli {
namespace {

struct ContinueCase {
  std::vector<std::string> lines;
  bool could_continue;
};

class EntryContinues : public ::testing::TestWithParam<ContinueCase> {};

TEST_P(EntryContinues, AsTerraformDecides) {
  const ContinueCase& c = GetParam();
  std::string shown;
  for (const std::string& l : c.lines) shown += l + "\\n";
  EXPECT_EQ(entry_could_continue(c.lines), c.could_continue) << shown;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EntryContinues,
    ::testing::Values(
        // Nothing, or nothing open.
        ContinueCase{{}, false}, ContinueCase{{"1 + 2"}, false}, ContinueCase{{"local.a"}, false},
        ContinueCase{{"1 +"}, false},  // an operator does not open anything
        // Brackets, braces and parentheses open.
        ContinueCase{{"["}, true}, ContinueCase{{"{"}, true}, ContinueCase{{"upper("}, true},
        ContinueCase{{"[", "1,"}, true}, ContinueCase{{"{", "a = [", "1"}, true},
        ContinueCase{{"[for x in [1, 2]:", "x"}, true},
        // ... and closed.
        ContinueCase{{"[", "1,", "]"}, false}, ContinueCase{{"{", "a = 1", "}"}, false},
        ContinueCase{{"upper(", "\"a\")"}, false},
        // A blank last line forces evaluation.
        ContinueCase{{"[", ""}, false}, ContinueCase{{"[", "  \t"}, false},
        // A closer without its opener, or the wrong one: not an entry to go on.
        ContinueCase{{"]"}, false}, ContinueCase{{"[", ")"}, false},
        ContinueCase{{"(", "}"}, false},
        ContinueCase{{"{", "a = [1}"}, false},
        // Heredocs: open until the closing marker.
        ContinueCase{{"<<EOT"}, true}, ContinueCase{{"<<EOT", "text"}, true},
        ContinueCase{{"<<-EOT", "  text", "  EOT"}, false},
        ContinueCase{{"<<EOT", "a", "EOT"}, false},
        // Template sequences: an interpolation or directive left open.
        ContinueCase{{"\"a ${"}, true}, ContinueCase{{"\"a ${", "local.x}\""}, false},
        ContinueCase{{"<<EOT", "%{ for x in [1] ~}"}, true},
        ContinueCase{{"<<EOT", "%{ for x in [1] ~}", "${x}", "%{ endfor ~}", "EOT"}, false},
        // Text that does not scan: a quoted string cut by the newline,
        // characters the language does not use.
        ContinueCase{{"\"abc"}, false}, ContinueCase{{"[", "1;"}, false},
        ContinueCase{{"[", "`x`"}, false},
        // Comments inside an open entry keep it open.
        ContinueCase{{"[", "# the first", "1,"}, true}));

TEST(ConsoleInput, BlankAndCommentLines) {
  EXPECT_TRUE(blank_or_comment(""));
  EXPECT_TRUE(blank_or_comment("  \t\r"));
  EXPECT_TRUE(blank_or_comment("# a comment"));
  EXPECT_TRUE(blank_or_comment("   // another"));
  EXPECT_FALSE(blank_or_comment("1 # then a comment"));
  EXPECT_FALSE(blank_or_comment("/ 2"));
  EXPECT_FALSE(blank_or_comment("/* block */ 1"));
}

TEST(ConsoleInput, CommonPrefix) {
  EXPECT_EQ(common_prefix({}), "");
  EXPECT_EQ(common_prefix({"var.env"}), "var.env");
  EXPECT_EQ(common_prefix({"var.env", "var.password"}), "var.");
  EXPECT_EQ(common_prefix({"lower(", "lookup("}), "lo");
}

// Completion in the scope of tests/cli/data/module, as the console has it.
class Completions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    config::LoadResult m =
        config::load_module(std::string(HCLVM_SOURCE_DIR) + "/tests/cli/data/module");
    ASSERT_FALSE(m.has_errors()) << config::render_diagnostics(m.diagnostics, m.sources);
    config::Inputs in;
    in.evaluate_resources = false;
    ev_ = new config::Evaluation(config::evaluate(m.module, in));
    names_ = new CompletionNames(
        completion_names(*m.module, *ev_, {"length", "lookup", "lower", "upper"}));
  }
  static void TearDownTestSuite() {
    delete names_;
    delete ev_;
  }

  // The candidates for [line] with the cursor at [cursor] (default: the end).
  static std::vector<std::string> at(std::string_view line, size_t cursor = std::string::npos) {
    return complete(line, cursor == std::string::npos ? line.size() : cursor, *names_).candidates;
  }

  using V = std::vector<std::string>;
  static config::Evaluation* ev_;
  static CompletionNames* names_;
};

config::Evaluation* Completions::ev_ = nullptr;
CompletionNames* Completions::names_ = nullptr;

TEST_F(Completions, VariablesAndLocals) {
  EXPECT_EQ(at("var."), (V{"var.env", "var.password"}));
  EXPECT_EQ(at("var.p"), (V{"var.password"}));
  EXPECT_EQ(at("local."), (V{"local.name", "local.zones"}));
  EXPECT_EQ(at("local.na"), (V{"local.name"}));
  EXPECT_EQ(at("local.nope"), V{});
}

TEST_F(Completions, RootsAndFunctions) {
  // Roots end with ".", functions with "(".
  EXPECT_EQ(at("up"), (V{"upper("}));
  EXPECT_EQ(at("lo"), (V{"local.", "lookup(", "lower("}));
  EXPECT_EQ(at("va"), (V{"var."}));
  EXPECT_EQ(at("aws_"), (V{"aws_subnet.", "aws_vpc."}));
  EXPECT_EQ(at("mod"), (V{"module."}));
  EXPECT_EQ(at("path.r"), (V{"path.root"}));
  EXPECT_EQ(at("terraform."), (V{"terraform.workspace"}));
}

TEST_F(Completions, AttributesOfValues) {
  // The attributes of a module call's outputs, of a resource's instances.
  EXPECT_EQ(at("module."), (V{"module.net"}));
  EXPECT_EQ(at("module.net.c"), (V{"module.net.cidrs"}));
  EXPECT_EQ(at("aws_vpc."), (V{"aws_vpc.main"}));
}

TEST_F(Completions, TheWordBeforeTheCursor) {
  Completion c = complete("[1, local.z", 11, *names_);
  EXPECT_EQ(c.start, 4u);
  EXPECT_EQ(c.candidates, (V{"local.zones"}));
  // In the middle of the line: only what is before the cursor counts.
  c = complete("upper(local.na) + 1", 14, *names_);
  EXPECT_EQ(c.start, 6u);
  EXPECT_EQ(c.candidates, (V{"local.name"}));
  // An index in the word: local.zones[0] has no attributes.
  EXPECT_EQ(at("local.zones[0]."), V{});
  // Numbers complete to nothing; neither does an empty word after a space.
  EXPECT_EQ(at("12"), V{});
  EXPECT_EQ(at("1 + 1.5"), V{});
}

}  // namespace
}  // namespace hclvm::cli

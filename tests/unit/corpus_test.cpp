// Conformance against the real-world corpus: every file that
// RESULTS-newest.tsv lists (the verdict of the newest reference, hcl v2.24.0
// + go-cty v1.18.1, on it) is parsed with the entry point that its kind
// names, and the two verdicts are compared. For files the reference rejects,
// the first error must also match: "summary: detail" and the subject range.
// Each kind is one test instance, so a failure names the kind; each prints
// an agreement table and lists disagreements (capped) before asserting 100%.
// (The corpus's RESULTS.tsv, made with the hcl 2.14.1 oracle, is not read:
// where the two differ the newest is the truth.) A second test parses every file the reference accepts through the fast
// path and through the recovering parser alone, and requires the same tree
// (compared by dump). The corpus lives in the shared directory beside the
// repository, which a user's clone lacks: the tests then skip.
#include <hclvm/convert.h>
#include <hclvm/format.h>
#include <hclvm/json_syntax.h>
#include <hclvm/syntax.h>

#include <gtest/gtest.h>

#include "syntax/dump.h"
#include "syntax/parse.h"
#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using hclvm::Diagnostics;
using hclvm::Source;

// How a kind of corpus file is parsed: a name from the results' `kind`
// column and a function that returns the diagnostics of one file.
struct KindParser {
  const char* kind;
  std::function<Diagnostics(std::shared_ptr<const Source>)> parse;
};

// ORDER KIND: one line per kind.
const std::vector<KindParser>& kind_parsers() {
  static const std::vector<KindParser> parsers = {
      {"native", [](auto s) { return hclvm::parse_config(std::move(s)).diagnostics; }},
      {"template", [](auto s) { return hclvm::parse_template(std::move(s)).diagnostics; }},
      {"expr", [](auto s) { return hclvm::parse_expression(std::move(s)).diagnostics; }},
      {"traversal", [](auto s) { return hclvm::parse_traversal_abs(std::move(s)).diagnostics; }},
      {"json", [](auto s) { return hclvm::parse_json_config(std::move(s)).diagnostics; }},
  };
  return parsers;
}

// The reference's verdicts: the newest reference's, in the corpus directory.
constexpr const char* kResults = "RESULTS-newest.tsv";

// One row of the results file, reduced to what the comparison needs.
struct Expected {
  std::string path;         // relative to the corpus directory; also the file name diagnostics carry
  std::string kind;
  bool rejected = false;    // status is "error" or "hcl1-only"
  std::string first_range;  // "line:col-line:col", or "-"
  std::string first_error;  // "summary: detail", or "-"
};

// Reads the results file in [corpus]; columns are found by their header
// names so that a column added later does not shift the others.
std::vector<Expected> read_results(const fs::path& corpus) {
  std::istringstream in(hclvm::test::read_file(corpus / kResults));
  std::string line;
  std::getline(in, line);
  std::map<std::string, size_t> col;
  auto header = hclvm::test::split_tabs(line);
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* name : {"path", "kind", "status", "first_error_range", "first_error"})
    if (!col.count(name)) ADD_FAILURE() << kResults << " has no column " << name;
  std::vector<Expected> out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto f = hclvm::test::split_tabs(line);
    if (f.size() < header.size()) continue;
    Expected e;
    e.path = f[col["path"]];
    e.kind = f[col["kind"]];
    e.rejected = f[col["status"]] != "ok";
    e.first_range = f[col["first_error_range"]];
    e.first_error = f[col["first_error"]];
    out.push_back(std::move(e));
  }
  return out;
}

// Formats the first error of [diags] as the results file does: "summary: detail"
// with tabs and line breaks turned into spaces, and its subject range as
// "line:col-line:col" ("-" for either when there is no such thing).
std::pair<std::string, std::string> first_error(const Diagnostics& diags) {
  for (const auto& d : diags) {
    if (d.severity != hclvm::Severity::Error) continue;
    std::string text = d.summary + ": " + d.detail;
    for (char& c : text)
      if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    std::string range = "-";
    if (d.subject) {
      const auto& r = *d.subject;
      range = std::to_string(r.start.line) + ":" + std::to_string(r.start.column) + "-" +
              std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
    }
    return {text, range};
  }
  return {"-", "-"};
}

// Returns the corpus directory, or nothing when the shared directory or the
// newest reference's verdicts in it are absent.
std::optional<fs::path> corpus_dir() {
  auto shared = hclvm::test::shared_dir();
  if (!shared || !fs::exists(*shared / "corpus" / kResults)) return std::nullopt;
  return *shared / "corpus";
}

// Why the corpus tests skip.
constexpr const char* kNoCorpus =
    "reference corpus not found: the shared directory's corpus/RESULTS-newest.tsv "
    "(set HCLVM_SHARED_DIR to the shared directory)";

class CorpusTest : public ::testing::TestWithParam<size_t> {};

// Compares verdicts and first errors for every corpus file of one kind.
TEST_P(CorpusTest, AgreesWithReference) {
  auto corpus = corpus_dir();
  if (!corpus) GTEST_SKIP() << kNoCorpus;
  const KindParser& kp = kind_parsers()[GetParam()];

  size_t accepted = 0, accepted_ok = 0, rejected = 0, rejected_ok = 0, first_ok = 0;
  std::vector<std::string> report;
  for (const Expected& e : read_results(*corpus)) {
    if (e.kind != kp.kind) continue;
    std::string bytes = hclvm::test::read_file(*corpus / e.path);
    Diagnostics diags = kp.parse(hclvm::make_source(e.path, bytes));
    bool ours = hclvm::has_errors(diags);
    auto [text, range] = first_error(diags);
    if (!e.rejected) {
      ++accepted;
      if (!ours) ++accepted_ok;
      else report.push_back(e.path + "\n    ours:   rejected " + range + " " + text + "\n    theirs: accepted");
      continue;
    }
    ++rejected;
    if (!ours) {
      report.push_back(e.path + "\n    ours:   accepted\n    theirs: rejected " + e.first_range + " " +
                       e.first_error);
      continue;
    }
    ++rejected_ok;
    if (text == e.first_error && range == e.first_range) {
      ++first_ok;
    } else {
      report.push_back(e.path + "\n    ours:   " + range + " " + text + "\n    theirs: " + e.first_range + " " +
                       e.first_error);
    }
  }

  std::printf("corpus kind %s\n", kp.kind);
  std::printf("  accepted agreed      %zu/%zu\n", accepted_ok, accepted);
  std::printf("  rejected agreed      %zu/%zu\n", rejected_ok, rejected);
  std::printf("  first error matching %zu/%zu\n", first_ok, rejected);
  const size_t max_listed = 14;  // three lines each: about 50 lines in all
  for (size_t i = 0; i < report.size() && i < max_listed; ++i) std::printf("  %s\n", report[i].c_str());
  if (report.size() > max_listed) std::printf("  ... and %zu more\n", report.size() - max_listed);

  EXPECT_GT(accepted + rejected, 0u) << "no corpus file of kind " << kp.kind;
  EXPECT_EQ(accepted_ok, accepted);
  EXPECT_EQ(rejected_ok, rejected);
  EXPECT_EQ(first_ok, rejected);
}

// Names each instance after its kind (Kinds/CorpusTest.AgreesWithReference/native).
std::string kind_name(const ::testing::TestParamInfo<size_t>& p) { return kind_parsers()[p.param].kind; }

INSTANTIATE_TEST_SUITE_P(Kinds, CorpusTest, ::testing::Range<size_t>(0, kind_parsers().size()), kind_name);

// How a kind of file is parsed along one path: returns the tree's dump,
// or nothing when that path built no error-free tree.
struct TreeParser {
  const char* kind;
  std::function<std::optional<std::string>(std::shared_ptr<const Source>, hclvm::syntax::Path)> dump;
};

// ORDER KIND: traversals have a single parser, so there is nothing to compare.
const std::vector<TreeParser>& tree_parsers() {
  using hclvm::syntax::Path;
  static const std::vector<TreeParser> parsers = {
      {"native",
       [](std::shared_ptr<const Source> s, Path p) -> std::optional<std::string> {
         auto r = hclvm::syntax::parse_config_via(s, p);
         if (r.has_errors() || r.body == nullptr) return std::nullopt;
         return hclvm::syntax::dump_body(*r.body, *s);
       }},
      {"template",
       [](std::shared_ptr<const Source> s, Path p) -> std::optional<std::string> {
         auto r = hclvm::syntax::parse_template_via(s, p);
         if (r.has_errors() || r.expr == nullptr) return std::nullopt;
         return hclvm::syntax::dump_expr(*r.expr, *s);
       }},
      {"expr",
       [](std::shared_ptr<const Source> s, Path p) -> std::optional<std::string> {
         auto r = hclvm::syntax::parse_expression_via(s, p);
         if (r.has_errors() || r.expr == nullptr) return std::nullopt;
         return hclvm::syntax::dump_expr(*r.expr, *s);
       }},
  };
  return parsers;
}

// Returns the first line where dumps [a] and [b] differ, as "line N: a | b".
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (size_t n = 1;; ++n) {
    bool ha = static_cast<bool>(std::getline(sa, la)), hb = static_cast<bool>(std::getline(sb, lb));
    if (!ha && !hb) return "identical";
    if (!ha) la = "<end>";
    if (!hb) lb = "<end>";
    if (la != lb || !ha || !hb) return "line " + std::to_string(n) + ": fast `" + la + "` | recover `" + lb + "`";
  }
}

class FastRecoverTest : public ::testing::TestWithParam<size_t> {};

// Both parsers must build the same tree for every file the reference accepts.
TEST_P(FastRecoverTest, SameTree) {
  auto corpus = corpus_dir();
  if (!corpus) GTEST_SKIP() << kNoCorpus;
  const TreeParser& tp = tree_parsers()[GetParam()];
  using hclvm::syntax::Path;

  size_t files = 0, fast_ok = 0, recover_ok = 0, same = 0;
  std::vector<std::string> report;
  for (const Expected& e : read_results(*corpus)) {
    if (e.kind != tp.kind || e.rejected) continue;
    ++files;
    auto src = hclvm::make_source(e.path, hclvm::test::read_file(*corpus / e.path));
    auto fast = tp.dump(src, Path::Fast);
    auto slow = tp.dump(src, Path::Recover);
    if (fast) ++fast_ok;
    if (slow) ++recover_ok;
    if (fast && slow && *fast == *slow) {
      ++same;
    } else if (!fast || !slow) {
      report.push_back(e.path + "\n    " + (fast ? "" : "fast path built no tree ") +
                       (slow ? "" : "recovering parser built no tree"));
    } else {
      report.push_back(e.path + "\n    " + first_difference(*fast, *slow));
    }
  }

  std::printf("corpus kind %s, files the reference accepts\n", tp.kind);
  std::printf("  fast path built a tree      %zu/%zu\n", fast_ok, files);
  std::printf("  recovering parser built one %zu/%zu\n", recover_ok, files);
  std::printf("  identical trees             %zu/%zu\n", same, files);
  const size_t max_listed = 25;  // two lines each: about 50 lines
  for (size_t i = 0; i < report.size() && i < max_listed; ++i) std::printf("  %s\n", report[i].c_str());
  if (report.size() > max_listed) std::printf("  ... and %zu more\n", report.size() - max_listed);

  EXPECT_EQ(fast_ok, files) << "the fast path falls back on valid files: slower, and not cross-checked";
  EXPECT_EQ(recover_ok, files);
  EXPECT_EQ(same, files);
}

// Names each instance after its kind (Kinds/FastRecoverTest.SameTree/native).
std::string tree_kind_name(const ::testing::TestParamInfo<size_t>& p) { return tree_parsers()[p.param].kind; }

INSTANTIATE_TEST_SUITE_P(Kinds, FastRecoverTest, ::testing::Range<size_t>(0, tree_parsers().size()),
                         tree_kind_name);

// Reports whether [close] (just past a closing parenthesis) is followed by
// the "}" that ends an interpolation.
bool depth_closed(const std::string& s, size_t close) { return close < s.size() && s[close] == '}' && s[close - 1] == ')'; }

// Returns JSON document [doc] without what the layout of a multi-line
// expression changes: whitespace (and the \n escapes of expressions'
// line breaks) and the parentheses that keep such an expression on its
// attribute's line ("${(a ?\n b : c)}"). A multi-line expression inside a
// template is not indented by the formatter; the same expression as an
// attribute's value is.
std::string without_layout(std::string doc) {
  std::string out;
  for (size_t i = 0; i < doc.size(); ++i) {
    char c = doc[i];
    if (c == ' ' || c == '\n') continue;
    if (c == '\\' && i + 1 < doc.size() && (doc[i + 1] == 'n' || doc[i + 1] == 't')) {
      ++i;
      continue;
    }
    out += c;
  }
  for (size_t at = 0; (at = out.find("${(", at)) != std::string::npos;) {
    // Where the parenthesis closes: removed when "}" follows it.
    size_t close = at + 3;
    for (int depth = 1; close < out.size() && depth > 0; ++close) depth += out[close] == '(' ? 1 : out[close] == ')' ? -1 : 0;
    if (depth_closed(out, close)) {
      out.erase(close - 1, 1);
      out.erase(at + 2, 1);
    }
    at += 2;
  }
  return out;
}

// Reports whether bodies [bodies] (those a layout merges: the root, or the
// bodies of all blocks of one type under it) are ambiguous for a layout
// taken from them: a name that is a block type in one and an attribute
// holding an object or tuple (which JSON writes as blocks are written) in
// another, or one block type with different numbers of labels. JSON
// cannot tell those apart; no layout converts them back.
bool ambiguous_layout(const std::vector<const hclvm::ast::Body*>& bodies) {
  std::map<std::string_view, std::pair<uint32_t, std::vector<const hclvm::ast::Body*>>> blocks;
  std::set<std::string_view> composite;
  for (const hclvm::ast::Body* body : bodies) {
    for (const hclvm::ast::Attribute* a : body->attributes)
      if (a->expr->kind == hclvm::ast::ExprKind::Object || a->expr->kind == hclvm::ast::ExprKind::Tuple)
        composite.insert(a->name);
    for (const hclvm::ast::Block* b : body->blocks) {
      auto [it, added] = blocks.try_emplace(b->type, b->labels.size, std::vector<const hclvm::ast::Body*>{});
      if (!added && it->second.first != b->labels.size) return true;
      it->second.second.push_back(b->body);
    }
  }
  for (std::string_view name : composite)
    if (blocks.count(name)) return true;
  for (const auto& [type, entry] : blocks)
    if (ambiguous_layout(entry.second)) return true;
  return false;
}

// Native -> JSON syntax -> native on every native file the reference
// accepts: the file converted to the JSON syntax with its comments, then
// back with the block layout of the original, must parse, be laid out as
// hclfmt lays it out, and convert to the same
// JSON document as the original (whose conversion the reference checks:
// tests/golden/convert/corpus.sh), so it reads as the same body.
TEST(ConvertRoundTrip, NativeJsonNative) {
  auto corpus = corpus_dir();
  if (!corpus) GTEST_SKIP() << kNoCorpus;
  size_t files = 0, refused = 0, same = 0, relaid = 0, ambiguous = 0;
  std::vector<std::string> report;
  for (const Expected& e : read_results(*corpus)) {
    if (e.kind != "native" || e.rejected) continue;
    ++files;
    std::string text = hclvm::test::read_file(*corpus / e.path);
    auto orig = hclvm::parse_config(hclvm::make_source(e.path, text));
    ASSERT_FALSE(orig.has_errors()) << e.path;
    hclvm::convert::JsonOptions with_comments;
    with_comments.comments = true;
    if (ambiguous_layout({orig.body})) {
      ++ambiguous;
      continue;
    }
    auto json = hclvm::convert::body_to_json(*orig.body, *orig.source, with_comments);
    // The layout moves the lines of multi-line expressions as it moves the
    // original's: compare with the original laid out too.
    auto plain = hclvm::convert::native_to_json(e.path, hclvm::format::format_hcl(text));
    if (!json.error.empty()) {  // bytes JSON cannot hold (checked in json_convert_test)
      ++refused;
      continue;
    }
    auto back = hclvm::convert::json_to_native(e.path + ".json", json.text, hclvm::convert::layout_of(*orig.body));
    if (!back.ok()) {
      report.push_back(e.path + ": " + (back.diagnostics.empty() ? back.error : back.diagnostics[0].summary + ": " +
                                                                                     back.diagnostics[0].detail));
      continue;
    }
    auto again = hclvm::convert::native_to_json(e.path, back.text);
    std::string why;
    if (!again.ok()) why = "the native text does not convert again";
    else if (again.text != plain.text && without_layout(again.text) != without_layout(plain.text))
      why = "a different JSON document: " + first_difference(plain.text, again.text);
    else if (again.text != plain.text) ++relaid;
    else if (hclvm::format::format_hcl(back.text) != back.text) why = "not laid out as hclfmt lays it out";
    if (why.empty()) {
      ++same;
    } else {
      report.push_back(e.path + ": " + why);
    }
  }
  std::printf("native -> JSON -> native: %zu/%zu files the same (%zu of them up to the layout of multi-line "
              "expressions); %zu refused as not UTF-8, %zu with blocks no layout tells apart\n",
              same, files - refused - ambiguous, relaid, refused, ambiguous);
  for (size_t i = 0; i < report.size() && i < 25; ++i) std::printf("  %s\n", report[i].c_str());
  EXPECT_EQ(same, files - refused - ambiguous);
  EXPECT_LT(ambiguous, files / 100);
}

}  // namespace

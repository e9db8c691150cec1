// The formatters and the lossless tree on every file of the real-world
// corpus (the shared directory beside the repository; the tests skip
// without it):
//  - Agreement: each file formatted as hclfmt and as terraform fmt gives
//    what the reference tools gave, as recorded in tests/golden/fmt/
//    corpus.tsv by refresh-corpus.py (digests of their outputs, and which
//    files Terraform refused); a second test runs the tools themselves on
//    a sample when they are installed, and on generated inputs: token soup
//    (broken input, which hclfmt formats anyway) and Terraform files full
//    of what terraform fmt rewrites.
//  - Round trip: every file prints back from its tree byte for byte, and
//    the tree's runs nest and cover every token once (only an empty body
//    has an empty run).
//  - Idempotence: formatting a formatted file changes nothing (terraform
//    fmt's one known exception, a rewrite that makes a file that no longer
//    parses, aside).
//  - Meaning: a file and its hclfmt layout parse to the same tree, ranges
//    aside.
#include <hclvm/format.h>

#include <gtest/gtest.h>

#include "funcs/hash.h"
#include "syntax/dump.h"
#include "test_util.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using hclvm::format::format_file;
using hclvm::format::format_hcl;
using hclvm::format::Style;
using hclvm::format::Tree;

// Returns the corpus directory, or nothing when the shared directory is absent.
std::optional<fs::path> corpus_dir() {
  auto shared = hclvm::test::shared_dir();
  if (!shared || !fs::exists(*shared / "corpus" / "RESULTS-newest.tsv")) return std::nullopt;
  return *shared / "corpus";
}

// Returns the paths of all corpus files, relative to [corpus].
std::vector<std::string> corpus_paths(const fs::path& corpus) {
  std::vector<std::string> out;
  for (const auto& row : hclvm::test::read_tsv(corpus / "RESULTS-newest.tsv"))
    if (!row.empty() && row[0] != "path") out.push_back(row[0]);
  return out;
}

// Returns the first 16 hex digits of the SHA-256 of [s] (refresh-corpus.py).
std::string digest(std::string_view s) {
  return hclvm::funcs::hex_encode(hclvm::funcs::hash_bytes(hclvm::funcs::HashKind::Sha256, s)).substr(0, 16);
}

// Returns what refresh-corpus.py recorded: input digest -> (hclfmt, terraform).
std::map<std::string, std::pair<std::string, std::string>> recorded() {
  std::map<std::string, std::pair<std::string, std::string>> out;
  for (const auto& row :
       hclvm::test::read_tsv(fs::path(HCLVM_SOURCE_DIR) / "tests" / "golden" / "fmt" / "corpus.tsv"))
    if (row.size() == 3 && row[0] != "input") out[row[0]] = {row[1], row[2]};
  return out;
}

// Returns what [recorded] says of [out] given [input]: "same" or a digest.
std::string outcome(std::string_view input, std::string_view out) { return out == input ? "same" : digest(out); }

// Returns the tree dump of [text] with its ranges left out.
std::string meaning(const std::string& text) {
  auto p = hclvm::parse_config(hclvm::make_source("f", text));
  static const std::regex range("[0-9]+:[0-9]+-[0-9]+:[0-9]+");
  return std::regex_replace(hclvm::syntax::dump_body(*p.body, *p.source), range, "R");
}

// Appends [line] to [report] while it is short.
void note(std::vector<std::string>& report, std::string line) {
  if (report.size() < 20) report.push_back(std::move(line));
}

// Returns the lines of [report] joined.
std::string joined(const std::vector<std::string>& report) {
  std::string s;
  for (const auto& l : report) s += "  " + l + "\n";
  return s;
}

TEST(FormatCorpus, AgreesWithRecordedReference) {
  auto corpus = corpus_dir();
  if (!corpus) GTEST_SKIP() << "corpus not found (set HCLVM_SHARED_DIR to the shared directory)";
  auto rec = recorded();
  size_t files = 0, hcl_ok = 0, tf_ok = 0, refused = 0;
  std::vector<std::string> report;
  for (const std::string& path : corpus_paths(*corpus)) {
    std::string input = hclvm::test::read_file(*corpus / path);
    auto it = rec.find(digest(input));
    if (it == rec.end()) {
      note(report, path + ": not recorded (run tests/golden/fmt/refresh-corpus.py)");
      continue;
    }
    ++files;
    const auto& [want_hcl, want_tf] = it->second;
    if (outcome(input, format_hcl(input)) == want_hcl) ++hcl_ok;
    else note(report, path + ": hclfmt differs");
    auto r = format_file(hclvm::make_source(path, input), Style::Terraform);
    std::string got_tf = r.has_errors() ? "error" : outcome(input, r.text);
    refused += r.has_errors();
    if (got_tf == want_tf) ++tf_ok;
    else note(report, path + ": terraform fmt: ours " + got_tf + ", theirs " + want_tf);
  }
  std::printf("corpus: %zu files; hclfmt agrees on %zu, terraform fmt on %zu (%zu refused alike)\n", files, hcl_ok,
              tf_ok, refused);
  EXPECT_EQ(hcl_ok, files) << joined(report);
  EXPECT_EQ(tf_ok, files) << joined(report);
  EXPECT_GT(files, 5000u);
}

TEST(FormatCorpus, TreeRoundTrip) {
  auto corpus = corpus_dir();
  if (!corpus) GTEST_SKIP() << "corpus not found (set HCLVM_SHARED_DIR to the shared directory)";
  size_t files = 0, ok = 0;
  std::vector<std::string> report;
  for (const std::string& path : corpus_paths(*corpus)) {
    std::string input = hclvm::test::read_file(*corpus / path);
    Tree t(hclvm::make_source(path, input));
    ++files;
    bool nested = true;
    for (hclvm::format::NodeId id = 0; id < t.size(); ++id) {
      const auto& n = t[id];
      uint32_t prev = n.first_token;
      for (auto c = n.first_child; c != hclvm::format::kNoNode; c = t[c].next_sibling) {
        // Only a body may be empty (`b {}`).
        nested &= t[c].first_token >= prev && t[c].end_token <= n.end_token &&
                  (t[c].first_token < t[c].end_token || t[c].kind == hclvm::format::NodeKind::Body);
        prev = t[c].end_token;
      }
    }
    if (t.print() == input && nested && t[0].end_token == t.token_count()) ++ok;
    else note(report, path);
  }
  std::printf("corpus: %zu of %zu files print back from their trees\n", ok, files);
  EXPECT_EQ(ok, files) << joined(report);
}

TEST(FormatCorpus, IdempotentAndMeaningKept) {
  auto corpus = corpus_dir();
  if (!corpus) GTEST_SKIP() << "corpus not found (set HCLVM_SHARED_DIR to the shared directory)";
  size_t files = 0, idem = 0, parsed = 0, same_meaning = 0, tf_files = 0, tf_idem = 0;
  std::vector<std::string> report;
  for (const std::string& path : corpus_paths(*corpus)) {
    std::string input = hclvm::test::read_file(*corpus / path);
    ++files;
    std::string once = format_hcl(input);
    if (format_hcl(once) == once) ++idem;
    else note(report, path + ": hclfmt layout not idempotent");
    auto r = format_file(hclvm::make_source(path, input), Style::Terraform);
    if (!r.has_errors()) {
      ++parsed;
      if (meaning(once) == meaning(input)) ++same_meaning;
      else note(report, path + ": the layout changed the tree");
      auto again = format_file(hclvm::make_source(path, r.text), Style::Terraform);
      if (!again.has_errors()) {
        ++tf_files;
        if (again.text == r.text) ++tf_idem;
        else note(report, path + ": terraform layout not idempotent");
      }
    }
  }
  std::printf("corpus: %zu files, %zu idempotent; %zu parse, %zu keep their tree; terraform: %zu of %zu idempotent\n",
              files, idem, parsed, same_meaning, tf_idem, tf_files);
  EXPECT_EQ(idem, files) << joined(report);
  EXPECT_EQ(same_meaning, parsed) << joined(report);
  EXPECT_EQ(tf_idem, tf_files) << joined(report);
}

// Returns the output of [cmd], or nothing when it could not run.
std::optional<std::string> run(const std::string& cmd) {
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  if (::pclose(p) != 0) return std::nullopt;
  return out;
}

// The live reference tools, on every 50th corpus file: hclfmt on the file,
// terraform fmt on standard input (whose output ends with one newline
// added when the result lacks one).
TEST(FormatCorpus, AgreesWithLiveReference) {
  auto corpus = corpus_dir();
  const char* hclfmt = "/opt/hcl-oracle/newest/bin/hclfmt";
  if (!corpus) GTEST_SKIP() << "corpus not found (set HCLVM_SHARED_DIR to the shared directory)";
  if (!fs::exists(hclfmt) || !run("terraform version >/dev/null 2>&1 && echo ok"))
    GTEST_SKIP() << "hclfmt (" << hclfmt << ") or terraform not installed";
  auto paths = corpus_paths(*corpus);
  size_t checked = 0, ok = 0;
  std::vector<std::string> report;
  for (size_t i = 0; i < paths.size(); i += 50) {
    fs::path file = *corpus / paths[i];
    std::string input = hclvm::test::read_file(file);
    ++checked;
    auto theirs_hcl = run(std::string(hclfmt) + " '" + file.string() + "' 2>/dev/null");
    auto theirs_tf = run("TF_CLI_CONFIG_FILE=/dev/null terraform fmt -no-color - < '" + file.string() + "' 2>/dev/null");
    auto r = format_file(hclvm::make_source(paths[i], input), Style::Terraform);
    std::string ours_tf = r.text;
    if (ours_tf.empty() || ours_tf.back() != '\n') ours_tf += '\n';
    bool agree = theirs_hcl && *theirs_hcl == format_hcl(input) &&
                 (r.has_errors() ? !theirs_tf : theirs_tf && *theirs_tf == ours_tf);
    if (agree) ++ok;
    else note(report, paths[i]);
  }
  std::printf("live reference: %zu of %zu files agree\n", ok, checked);
  EXPECT_EQ(ok, checked) << joined(report);
}

// Returns a directory of its own under the system's temporary directory.
fs::path scratch_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("hclvm-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Returns [n] inputs of token soup from seed [seed]: fragments of tokens,
// blanks, odd characters and bad bytes, run together at random.
std::vector<std::string> token_soup(unsigned seed, size_t n) {
  static const char* const frags[] = {
      "a", "b", " ", "  ", "\t", "\n", "\r\n", "\r", "=", "==", "{", "}", "[", "]", "(", ")", "\"", "${", "%{",
      "~}", "<<EOT\n", "<<-EOT\n", "EOT\n", "  EOT\n", "#c\n", "//c\n", "/*c*/", "/*", "*/", ",", ".", "...",
      ":", "::", "?", "=>", "-", "!", "+", "*", "/", "%", "&&", "||", "<", ">", "1", "1.5", "1e3", "for", "in",
      "if", "x", "$", "$${", "%%{", "\\", "\\n", "\\\"", "@", ";", "'", "`", "\xc2\xa0", "\xc3\xa9",
      "\xe5\x90\x8d", "\x80", "\xff", "\xc3", "e\xcc\x81", "\xe2\x80\x8b", "\xef\xbb\xbf", "~", "^", "&",
      "|", "\v", "\f", "true", "null", "a-b", "_", ".5", "provider::f()"};
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    std::string s;
    for (size_t k = 1 + rng() % 40; k > 0; --k) s += frags[rng() % std::size(frags)];
    out.push_back(std::move(s));
  }
  return out;
}

// Returns [n] Terraform files from seed [seed], full of what terraform
// fmt rewrites: labels of every kind (some it drops), interpolation-only
// values (multi-line, nested, with comments), variable types, inline
// comments among labels; some do not parse.
std::vector<std::string> terraform_files(unsigned seed, size_t n) {
  static const char* const labels[] = {"a", "web", "\"x\"", "\"a$b\"", "\"100%\"", "\"$\"", "\"%\"",
                                       "\"$${x}\"", "\"%%{\"", "\"a\\u0041\"", "\"\\t\"", "\"\xc3\xa9\"",
                                       "\"e\xcc\x81\"", "\"\xc2\xa0\"", "\"\\\\\"", "\"\"", "b-c",
                                       "\"\\U0001F600\"", "\"\\u0007\""};
  static const char* const values[] = {
      "1", "var.x", "\"s\"", "\"${x}\"", "\"${ x }\"", "\"${~x~}\"", "\"a${x}\"", "\"${x}${y}\"",
      "\"${f(\"${a}\")}\"", "[1,2]", "{a=1}", "\"${\nfoo\n}\"", "\"${cond\n? x\n: y}\"", "\"${(x)\n}\"",
      "\"${ {a=1} }\"", "f(1,\n2)", "\"${-1}\"", "<<EOT\nhi ${x}\nEOT\n", "\"${<<EOT\nhi\nEOT\n}\"",
      "\"%{if x}y%{endif}\"", "list", "map", "\"string\"", "\"list\"", "\"map\"", "set", "\"number\"",
      "list(string)", "\"${x # c\n}\"", "/* c */ \"${x}\"", "\"${x}\" /* d */", "x ? \"${a}\" : b",
      "\"${(x) +\n(y)}\""};
  static const char* const names[] = {"a", "type", "default", "bb", "description", "x_y"};
  static const char* const types[] = {"variable", "resource", "dynamic", "content", "variables", "b"};
  std::mt19937 rng(seed);
  std::function<std::string(int)> body = [&](int depth) {
    std::string out, pad(size_t(2 * depth), ' ');
    for (size_t k = rng() % 5; k > 0; --k) {
      if (rng() % 2 == 0 || depth > 2) {
        out += pad + names[rng() % std::size(names)] + (rng() % 3 == 0 ? "   =" : " =") + " " +
               values[rng() % std::size(values)] + (rng() % 3 == 0 ? " # c" : "") + "\n";
      } else {
        std::string cm = rng() % 2 ? "" : " /* c */ ", labs;
        for (size_t l = rng() % 3; l > 0; --l) labs += std::string(labs.empty() ? "" : " ") + labels[rng() % std::size(labels)];
        out += pad + types[rng() % std::size(types)] + cm + " " + labs + cm + " {\n" + body(depth + 1) + pad + "}\n";
      }
      if (rng() % 5 == 0) out += "\n";
    }
    return out;
  };
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(body(0));
  return out;
}

TEST(FormatLive, TokenSoupAgreesWithHclfmt) {
  const char* hclfmt = "/opt/hcl-oracle/newest/bin/hclfmt";
  if (!fs::exists(hclfmt)) GTEST_SKIP() << "hclfmt not installed at " << hclfmt;
  fs::path dir = scratch_dir("soup");
  size_t ok = 0, n = 0;
  std::vector<std::string> report;
  for (const std::string& input : token_soup(20261202, 300)) {
    fs::path f = dir / (std::to_string(n++) + ".hcl");
    std::ofstream(f, std::ios::binary) << input;
    auto theirs = run(std::string(hclfmt) + " '" + f.string() + "' 2>/dev/null");
    if (theirs && *theirs == format_hcl(input)) ++ok;
    else note(report, f.string());
  }
  fs::remove_all(dir);
  EXPECT_EQ(ok, n) << joined(report);
}

TEST(FormatLive, RewritesAgreeWithTerraform) {
  if (!run("terraform version >/dev/null 2>&1 && echo ok")) GTEST_SKIP() << "terraform not installed";
  fs::path dir = scratch_dir("tf");
  std::vector<std::string> inputs = terraform_files(20261202, 300);
  for (size_t i = 0; i < inputs.size(); ++i) std::ofstream(dir / (std::to_string(10000 + i) + ".tf"), std::ios::binary) << inputs[i];
  // terraform fmt rewrites the directory; the files it refuses it names
  // in its diagnostics and leaves alone.
  std::string errs = run("cd '" + dir.string() + "' && TF_CLI_CONFIG_FILE=/dev/null terraform fmt -no-color -list=false . 2>&1 >/dev/null; true").value_or("");
  size_t ok = 0, refused = 0;
  std::vector<std::string> report;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = std::to_string(10000 + i) + ".tf";
    bool they_refused = errs.find("on " + name + " line") != std::string::npos;
    auto r = format_file(hclvm::make_source(name, inputs[i]), Style::Terraform);
    refused += they_refused;
    if (they_refused ? r.has_errors() : !r.has_errors() && r.text == hclvm::test::read_file(dir / name)) ++ok;
    else note(report, name + ": " + inputs[i]);
  }
  fs::remove_all(dir);
  std::printf("terraform fmt: %zu of %zu generated files agree (%zu refused)\n", ok, inputs.size(), refused);
  EXPECT_EQ(ok, inputs.size()) << joined(report);
}

}  // namespace

// The terraform-console goldens of tests/golden/config: each case's session
// (cases.txt) is replayed through `hclvm console --terraform-piped` and `hclvm check
// --format=terraform-json` by replay.sh, and the transcript compared with
// what Terraform 1.11.4 printed (expected.txt, recorded by record.sh), entry
// by entry, streams and exit status included. An entry where hclvm gives
// another answer on purpose (a Terraform crash, a library version's
// message, a random choice) is taken from the case's expected.hclvm.txt,
// where a comment above it says why.
//
// What Terraform itself prints in varying order is compared as a set: the
// vertices of a "Cycle: ..." message, the cycle errors among themselves,
// and the diagnostics of `terraform validate -json` (its walk is
// concurrent).
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "value/json.h"

namespace {

const std::string kDir = std::string(HCLVM_SOURCE_DIR) + "/tests/golden/config";

// One command of a transcript and what it printed.
struct Entry {
  std::string command;  // the "$ ..." line
  std::string text;     // the whole entry
  std::string why;      // an override's reason
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t nl = s.find('\n', pos);
    out.push_back(s.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

// The entries of a transcript: each starts at a "$ " line that follows a
// blank line, a comment or the start, and ends before the next.
std::vector<Entry> entries(const std::string& text) {
  std::vector<Entry> out;
  std::vector<std::string> lines = split_lines(text);
  std::string why;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    bool boundary = i == 0 || lines[i - 1].empty() || lines[i - 1].starts_with("# ");
    if (l.starts_with("# ") && boundary) {
      why += l.substr(2) + "\n";
      continue;
    }
    if (l.starts_with("$ ") && boundary) {
      out.push_back({l, l + "\n", why});
      why.clear();
      continue;
    }
    if (!out.empty()) out.back().text += l + "\n";
  }
  return out;
}

// [s] with the vertex list of each "Cycle: a, b" (to the end of the line
// or a quote) sorted.
std::string sort_cycles(const std::string& s) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t c = s.find("Cycle: ", pos);
    if (c == std::string::npos) break;
    c += 7;
    size_t end = s.find_first_of("\"\n", c);
    if (end == std::string::npos) end = s.size();
    std::vector<std::string> items;
    std::string list = s.substr(c, end - c);
    size_t p = 0;
    while (true) {
      size_t comma = list.find(", ", p);
      items.push_back(list.substr(p, comma == std::string::npos ? std::string::npos : comma - p));
      if (comma == std::string::npos) break;
      p = comma + 2;
    }
    std::sort(items.begin(), items.end());
    out += s.substr(pos, c - pos);
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
    pos = end;
  }
  return out + s.substr(pos);
}

// The canonical form of a `terraform validate -json` entry: its
// diagnostics as a sorted list of canonical JSON texts.
std::string canonical_validate(const std::string& text) {
  size_t start = text.find('{');
  size_t exit_at = text.rfind("[exit");
  if (start == std::string::npos || exit_at == std::string::npos || exit_at < start) return text;
  hclvm::JsonResult<hclvm::Value> doc = hclvm::from_json_simple(text.substr(start, exit_at - start));
  if (!doc.ok() || !doc.value.type()->is_object()) return text;
  std::string out = text.substr(0, start);
  const hclvm::Value& v = doc.value;
  const hclvm::Type* t = v.type();
  std::vector<std::string> diags;
  for (size_t i = 0; i < t->size(); ++i) {
    if (t->attr_name(i) != "diagnostics") {
      hclvm::JsonResult<std::string> j = hclvm::to_json_simple(v.attr(i));
      out += std::string(t->attr_name(i)) + "=" + (j.ok() ? j.value : "?") + "\n";
      continue;
    }
    const hclvm::Value& list = v.attr(i);
    for (size_t k = 0; k < list.length(); ++k) {
      hclvm::JsonResult<std::string> j = hclvm::to_json_simple(list.element(k));
      diags.push_back(j.ok() ? j.value : "?");
    }
  }
  std::sort(diags.begin(), diags.end());
  for (const std::string& d : diags) out += "diagnostic " + d + "\n";
  out += text.substr(exit_at);
  while (out.size() > 1 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

// [e] in the form that is compared.
std::string canonical(const Entry& e) {
  std::string text = sort_cycles(e.text);
  if (e.command.starts_with("$ terraform validate")) return canonical_validate(text);
  // Cycle errors come in any order: moved out, sorted, and appended.
  std::vector<std::string> cycles;
  std::string kept;
  for (const std::string& l : split_lines(text)) {
    if (l.starts_with("Error: Cycle: ")) cycles.push_back(l);
    else kept += l + "\n";
  }
  std::sort(cycles.begin(), cycles.end());
  for (const std::string& c : cycles) kept += c + "\n";
  // Trailing blank lines (between entries) do not count.
  while (kept.size() > 1 && kept.ends_with("\n\n")) kept.pop_back();
  return kept;
}

// The case directories (those with a cases.txt).
std::vector<std::string> cases() {
  std::vector<std::string> out;
  if (DIR* d = opendir(kDir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      struct stat st;
      if (n[0] != '.' && stat((kDir + "/" + n + "/cases.txt").c_str(), &st) == 0) out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ConfigGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(ConfigGolden, ReplaysAsTerraform) {
  const std::string c = GetParam();
  char tmpl[] = "/tmp/config_golden_XXXXXX";
  int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  std::string out = tmpl;
  std::string cmd = "bash '" + kDir + "/replay.sh' '" + std::string(HCLVM_BINARY_DIR) +
                    "/hclvm' '" + c + "' '" + out + "' 2>&1";
  int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << cmd;
  std::vector<Entry> got = entries(read_file(out));
  std::remove(out.c_str());
  std::vector<Entry> want = entries(read_file(kDir + "/" + c + "/expected.txt"));
  std::vector<Entry> overrides = entries(read_file(kDir + "/" + c + "/expected.hclvm.txt"));
  ASSERT_EQ(got.size(), want.size()) << "entries in the transcript of " << c;
  std::map<std::string, int> seen, used;
  for (size_t i = 0; i < want.size(); ++i) {
    int n = seen[want[i].command]++;
    // The n-th override of this command, if there is one.
    const Entry* wanted = &want[i];
    int k = 0;
    for (const Entry& o : overrides) {
      if (o.command != want[i].command) continue;
      if (k++ == n) {
        wanted = &o;
        ++used[o.command];
        break;
      }
    }
    EXPECT_EQ(canonical(got[i]), canonical(*wanted))
        << c << ": " << want[i].command
        << (wanted != &want[i] ? "\n(hclvm's own answer: " + wanted->why + ")" : "");
  }
  for (const Entry& o : overrides) {
    EXPECT_FALSE(o.why.empty()) << c << ": the override of " << o.command << " says not why";
    EXPECT_GT(used[o.command], 0) << c << ": the override of " << o.command << " matches nothing";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ConfigGolden, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace

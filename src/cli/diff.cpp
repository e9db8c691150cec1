// Unified diffs (diff.h): Myers' greedy algorithm over lines, between the
// common prefix and suffix, then hunks as GNU diff groups them: changes
// less than seven unchanged lines apart share a hunk, and each hunk has
// three lines of context on either side. A difference too big for the
// algorithm's budget is shown as the whole middle replaced.
#include "cli/diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hclvm::cli {

namespace {

// Returns the lines of [s], each with its newline (the last may lack one).
std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    size_t end = nl == std::string_view::npos ? s.size() : nl + 1;
    out.push_back(s.substr(start, end - start));
    start = end;
  }
  return out;
}

enum class Op : uint8_t { Keep, Del, Add };

// The edit script between [a] and [b] lines [a0, a1) and [b0, b1): Myers'
// shortest one, or all deleted then all added beyond [max_d] differences.
std::vector<Op> middle_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                              int a0, int a1, int b0, int b1, int max_d) {
  int n = a1 - a0, m = b1 - b0;
  std::vector<Op> fallback(size_t(n), Op::Del);
  fallback.insert(fallback.end(), size_t(m), Op::Add);
  if (n == 0 || m == 0) return fallback;
  int off = n + m;
  std::vector<int> v(size_t(2 * off + 2), 0);
  std::vector<std::vector<int>> trace;
  int found = -1;
  for (int d = 0; d <= std::min(off, max_d) && found < 0; ++d) {
    trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[size_t(off + k - 1)] < v[size_t(off + k + 1)])) ? v[size_t(off + k + 1)]
                                                                                      : v[size_t(off + k - 1)] + 1;
      int y = x - k;
      while (x < n && y < m && a[size_t(a0 + x)] == b[size_t(b0 + y)]) ++x, ++y;
      v[size_t(off + k)] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return fallback;
  // Walk back through the saved frontiers (trace[d] holds v[-d..d] as it
  // was before step d).
  std::vector<Op> rev;
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& pv = trace[size_t(d)];  // frontier after step d-1, for k in [-d, d]
    auto at = [&](int k) { return pv[size_t(k + d)]; };
    int k = x - y;
    bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    int pk = down ? k + 1 : k - 1;
    int px = at(pk), py = px - pk;
    int sx = down ? px : px + 1;  // where the snake after the edit starts
    while (x > sx) rev.push_back(Op::Keep), --x, --y;
    rev.push_back(down ? Op::Add : Op::Del);
    x = px, y = py;
  }
  while (x > 0) rev.push_back(Op::Keep), --x, --y;
  return std::vector<Op>(rev.rbegin(), rev.rend());
}

// Appends GNU diff's form of the range of [count] lines from line [first]
// (1-based) to [out].
void append_range(std::string& out, int first, int count) {
  if (count == 0)
    out += std::to_string(first - 1) + ",0";
  else if (count == 1)
    out += std::to_string(first);
  else
    out += std::to_string(first) + "," + std::to_string(count);
}

// Appends [line] with [mark] in front, and the marker of a missing newline.
void append_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after, std::string_view old_label,
                         std::string_view new_label) {
  if (before == after) return {};
  std::vector<std::string_view> a = split_lines(before), b = split_lines(after);
  int na = int(a.size()), nb = int(b.size());
  int pre = 0;
  while (pre < na && pre < nb && a[size_t(pre)] == b[size_t(pre)]) ++pre;
  int suf = 0;
  while (suf < na - pre && suf < nb - pre && a[size_t(na - 1 - suf)] == b[size_t(nb - 1 - suf)]) ++suf;
  std::vector<Op> ops(size_t(pre), Op::Keep);
  std::vector<Op> mid = middle_script(a, b, pre, na - suf, pre, nb - suf, 4000);
  ops.insert(ops.end(), mid.begin(), mid.end());
  ops.insert(ops.end(), size_t(suf), Op::Keep);

  // Positions of each op in both files.
  struct Step {
    Op op;
    int ai, bi;  // line index in a (Keep, Del) and in b (Keep, Add)
  };
  std::vector<Step> steps;
  int ai = 0, bi = 0;
  for (Op op : ops) {
    steps.push_back({op, ai, bi});
    if (op != Op::Add) ++ai;
    if (op != Op::Del) ++bi;
  }

  constexpr int kContext = 3;
  std::string out = "--- " + std::string(old_label) + "\n+++ " + std::string(new_label) + "\n";
  size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].op == Op::Keep) {
      ++i;
      continue;
    }
    // A hunk: from kContext before this change to kContext after the last
    // change that follows within 2 * kContext unchanged lines.
    size_t start = i >= size_t(kContext) ? i - kContext : 0;
    size_t end = i;
    for (;;) {
      while (end < steps.size() && steps[end].op != Op::Keep) ++end;
      size_t next = end;
      while (next < steps.size() && steps[next].op == Op::Keep) ++next;
      if (next < steps.size() && next - end <= size_t(2 * kContext)) {
        end = next;
        continue;
      }
      end = std::min(steps.size(), end + kContext);
      break;
    }
    int a_first = 0, a_count = 0, b_first = 0, b_count = 0;
    bool a_set = false, b_set = false;
    for (size_t k = start; k < end; ++k) {
      if (steps[k].op != Op::Add) {
        if (!a_set) a_first = steps[k].ai + 1, a_set = true;
        ++a_count;
      }
      if (steps[k].op != Op::Del) {
        if (!b_set) b_first = steps[k].bi + 1, b_set = true;
        ++b_count;
      }
    }
    if (!a_set) a_first = steps[start].ai + 1;
    if (!b_set) b_first = steps[start].bi + 1;
    out += "@@ -";
    append_range(out, a_first, a_count);
    out += " +";
    append_range(out, b_first, b_count);
    out += " @@\n";
    // GNU diff prints, within a run of changes, the deleted lines first.
    for (size_t k = start; k < end;) {
      if (steps[k].op == Op::Keep) {
        append_line(out, ' ', a[size_t(steps[k].ai)]);
        ++k;
        continue;
      }
      size_t run_end = k;
      while (run_end < end && steps[run_end].op != Op::Keep) ++run_end;
      for (size_t r = k; r < run_end; ++r)
        if (steps[r].op == Op::Del) append_line(out, '-', a[size_t(steps[r].ai)]);
      for (size_t r = k; r < run_end; ++r)
        if (steps[r].op == Op::Add) append_line(out, '+', b[size_t(steps[r].bi)]);
      k = run_end;
    }
    i = end;
  }
  return out;
}

}  // namespace hclvm::cli

// Diagnostics: what every stage reports to the user. A diagnostic has a
// severity, a short summary, a longer detail and optionally the source range
// it is about (subject) and a wider range that gives it context. Ranges use
// the reference's coordinates: 1-based line, 1-based column counted in
// grapheme clusters, and 0-based byte offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hclvm {

enum class Severity : uint8_t { Error, Warning };

struct Pos {
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t byte = 0;
  friend bool operator==(const Pos&, const Pos&) = default;
};

struct Range {
  std::string filename;
  Pos start, end;  // [start, end)
  friend bool operator==(const Range&, const Range&) = default;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string summary;
  std::string detail;
  std::optional<Range> subject;
  std::optional<Range> context;
  // What the variables of the expression at fault held when it failed, as
  // the reference's text renderer lists them under the snippet: sorted
  // statements like `var.a as 3`, `x set to null` (the evaluator fills
  // this in; see docs/api.md).
  std::vector<std::string> expression_values = {};
  // The range of that expression (hcl.Diagnostic.Expression), when the
  // evaluator names one: applications that describe its variables in their
  // own words (Terraform's "var.x is 3") read it again from there.
  std::optional<Range> expression = {};
};

using Diagnostics = std::vector<Diagnostic>;

// Reports whether [diags] holds at least one error.
inline bool has_errors(const Diagnostics& diags) {
  for (const auto& d : diags)
    if (d.severity == Severity::Error) return true;
  return false;
}

// Formats [r] as the reference does in messages: "file:L,C-C" or "file:L,C-L,C".
std::string range_string(const Range& r);

// Formats [diags] as the reference's Diagnostics.Error() does, the text a
// function fails with when evaluating inside it went wrong: the first as
// "<subject>: <summary>; <detail>" (a missing subject as "<nil>"), and
// ", and N other diagnostic(s)".
std::string diagnostics_error(const Diagnostics& diags);

}  // namespace hclvm

// The reports of `hclvm check` for programs and CI services: one JSON
// document (always printed, also for a clean tree), SARIF 2.1.0 (as code
// scanning services read it), Checkstyle XML and JUnit XML. Each is made
// from a CheckReport, what the check found (report.cpp).
#pragma once

#include <hclvm/diagnostic.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/cli.h"

namespace hclvm::cli {

struct CheckReport {
  std::vector<std::string> files;  // checked, in order (named as in diagnostics)
  std::vector<std::pair<std::string, std::string>> unreadable;  // path, reason
  std::vector<SymlinkNote> symlinks;
  Diagnostics diagnostics;  // of every file, in file order, then the modules'
  unsigned with_errors = 0, errors = 0, warnings = 0;
  bool valid() const { return errors == 0 && unreadable.empty(); }
};

// {"valid", "counts", "files", "unreadable", "symlinks", "diagnostics"}:
// see docs/cli.md; "diagnostics" holds hcldec's elements.
std::string report_json(const CheckReport& r);
// SARIF 2.1.0: one run, a rule per distinct summary (ruleId "hcl/" and
// the summary in lower case with dashes), unreadable paths as the run's
// tool execution notifications.
std::string report_sarif(const CheckReport& r, std::string_view version);
// Checkstyle XML: a <file> per file checked, an <error> per diagnostic.
std::string report_checkstyle(const CheckReport& r);
// JUnit XML: one test case per file checked, failing with its errors.
std::string report_junit(const CheckReport& r);

// The rule id of a diagnostic with summary [summary]: "hcl/invalid-expression".
std::string rule_id(std::string_view summary);

}  // namespace hclvm::cli

// Unified diffs of two texts, in the form `diff -u --label old/X --label
// new/X` prints (what terraform fmt -diff shows): `---`/`+++` lines, hunks
// with three lines of context, and `\ No newline at end of file` after a
// last line without one.
#pragma once

#include <string>
#include <string_view>

namespace hclvm::cli {

// Returns the unified diff from [before] to [after], labelled [old_label]
// and [new_label]; empty when the texts are equal.
std::string unified_diff(std::string_view before, std::string_view after, std::string_view old_label,
                         std::string_view new_label);

}  // namespace hclvm::cli

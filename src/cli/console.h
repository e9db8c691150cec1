// What `hclvm console` makes of its input before evaluating it
// (console_input.cpp): whether an entry goes on to the next line, and what
// tab completion offers. Kept apart from the command (console.cpp) and its
// line-editing library, so that unit tests can call them.
#pragma once

#include <hclvm/config.h>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hclvm::cli {

// Whether the entry [lines] typed so far seems to go on: some bracket,
// parenthesis, brace, heredoc or template sequence is open and every closer
// so far matched its opener (terraform console's
// ExpressionEntryCouldContinue). False for no lines, when the last line is
// blank (a blank line forces evaluation) and when the text does not scan.
bool entry_could_continue(const std::vector<std::string>& lines);

// Whether [line] has nothing to evaluate: blank, or a comment (`#`, `//`).
bool blank_or_comment(std::string_view line);

// The names tab completion offers in a module's scope.
struct CompletionNames {
  // The names after "ROOT." for each root ("var", "local", "module",
  // "data", "path", "terraform", each resource type) and after
  // "data.TYPE." for each data source type.
  std::map<std::string, std::vector<std::string>, std::less<>> children;
  std::vector<std::string> functions;  // upper, lookup, ...
  // The attribute names (or map keys) of the value of the traversal
  // [expr] (`module.net`, `local.tags`); empty when it has none or fails.
  std::function<std::vector<std::string>(std::string_view expr)> members;
};

// The completion names of the module [m] evaluated as [ev] (which must
// outlive them), with the functions [functions].
CompletionNames completion_names(const config::Module& m, const config::Evaluation& ev,
                                 std::vector<std::string> functions);

// Tab completion of the word before byte [cursor] of [line]: the word
// starts at byte [start] and each candidate replaces it whole (functions
// end with "(", roots such as "var" with ".").
struct Completion {
  size_t start = 0;
  std::vector<std::string> candidates;  // sorted, no duplicates
};
Completion complete(std::string_view line, size_t cursor, const CompletionNames& names);

// The longest prefix all of [candidates] share.
std::string common_prefix(const std::vector<std::string>& candidates);

}  // namespace hclvm::cli

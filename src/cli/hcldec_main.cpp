// The `hcldec` program: `hclvm dec` under the reference's own name, so that
// tools written for the reference's hcldec (its conformance suite among
// them) run it unchanged.
#include <string>
#include <vector>

#include "cli/cli.h"

int main(int argc, char** argv) {
  hclvm::cli::set_program_name(argv[0]);
  return hclvm::cli::run_dec(std::vector<std::string>(argv + 1, argv + argc));
}

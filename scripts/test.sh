#!/usr/bin/env bash
# Builds hclvm and runs its whole test suite, from a clean clone on Debian 12:
# installs the build dependencies that are missing (with sudo unless root),
# configures the `ci` preset (release build, warnings are errors), builds and
# runs ctest. ccache is used when present. JOBS sets the parallelism
# (default 2). The last lines printed are ctest's summary.
#
# When the shared test data is there ($HCLVM_SHARED_DIR, default: the
# directory `shared` beside the repository), its oracle set-up is run
# first: it installs and builds the Go reference (hcldec, hclspecsuite...),
# which the conformance tests and the golden comparisons use. Without it
# those tests are skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."

shared=${HCLVM_SHARED_DIR:-$(cd .. && pwd)/shared}
if [ -x "$shared/oracle/setup.sh" ]; then
  HCL_ORACLE_SKIP_CHECK=1 "$shared/oracle/setup.sh"
fi

scripts/configure.sh ci

jobs=${JOBS:-2}
cmake --build --preset ci -j"$jobs"
ctest --preset ci -j"$jobs"

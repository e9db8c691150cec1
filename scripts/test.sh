#!/usr/bin/env bash
# Builds hclvm and runs its whole test suite, from a clean clone on Debian 12:
# installs the build dependencies that are missing (with sudo unless root),
# configures the `ci` preset (release build, warnings are errors), builds and
# runs ctest. ccache is used when present. JOBS sets the parallelism
# (default 2). The last lines printed are ctest's summary.
#
# When the shared test data is there ($HCLVM_SHARED_DIR, default: the
# directory `shared` beside the repository), its oracle set-up is run
# first: setup-newest.sh builds the newest reference (hcl v2.24.0 + go-cty
# v1.18.1: hcldec, hclspecsuite, hclfmt, gohcl-bench), which the
# conformance tests run against, after setup.sh (which it runs itself)
# has installed Go and built the hcl 2.14.1 oracle. The tests that need
# the shared data find it through HCLVM_SHARED_DIR, exported here. Without
# it those tests are skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."

shared=${HCLVM_SHARED_DIR:-$(cd .. && pwd)/shared}
if [ -x "$shared/oracle/setup-newest.sh" ]; then
  HCL_ORACLE_SKIP_CHECK=1 "$shared/oracle/setup-newest.sh"
elif [ -x "$shared/oracle/setup.sh" ]; then
  HCL_ORACLE_SKIP_CHECK=1 "$shared/oracle/setup.sh"
fi
if [ -d "$shared" ]; then
  export HCLVM_SHARED_DIR="$shared"
fi

scripts/configure.sh ci

jobs=${JOBS:-2}
cmake --build --preset ci -j"$jobs"
ctest --preset ci -j"$jobs"

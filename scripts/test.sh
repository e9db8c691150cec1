#!/usr/bin/env bash
# Builds hclvm and runs its whole test suite, from a clean clone on Debian 12:
# installs the build dependencies that are missing (with sudo unless root),
# configures the `ci` preset (release build, warnings are errors), builds and
# runs ctest. ccache is used when present. JOBS sets the parallelism
# (default 2). The last lines printed are ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/configure.sh ci

jobs=${JOBS:-2}
cmake --build --preset ci -j"$jobs"
ctest --preset ci -j"$jobs"

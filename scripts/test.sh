#!/usr/bin/env bash
# scripts/test.sh [--quick]
# Builds hclvm and runs its whole test suite, from a clean clone on Debian 12:
# installs the build dependencies that are missing (with sudo unless root),
# then three stages, each timed:
#   1. the `ci` preset (release build, warnings are errors): build, ctest;
#   2. the `asan` preset (clang, AddressSanitizer + UndefinedBehaviorSanitizer,
#      with the libFuzzer targets in the same build): build, ctest;
#   3. the fuzz smoke run (scripts/fuzz-smoke.sh) on that build: every
#      libFuzzer target on a fixed number of inputs from a fixed seed.
# --quick (or HCLVM_TEST_QUICK=1) runs the first stage only. ccache is used
# when present. JOBS sets the parallelism (default 2). The last lines printed
# are the time each stage took.
#
# When the shared test data is there ($HCLVM_SHARED_DIR, default: the
# directory `shared` beside the repository), its oracle set-up is run
# first: setup-newest.sh builds the newest reference (hcl v2.24.0 + go-cty
# v1.18.1: hcldec, hclspecsuite, hclfmt, gohcl-bench), which the
# conformance tests run against, after setup.sh (which it runs itself)
# has installed Go and built the hcl 2.14.1 oracle. The tests that need
# the shared data find it through HCLVM_SHARED_DIR, exported here. Without
# it those tests are skipped with a message. npm, where present, installs
# @cdktf/hcl2json into build/npm for the hcl2json shape's comparison.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=${HCLVM_TEST_QUICK:-0}
for arg in "$@"; do
  case $arg in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown argument $arg (see --help)" >&2; exit 2 ;;
  esac
done

jobs=${JOBS:-2}
export JOBS=$jobs
timings=()
# Runs the remaining arguments as stage [1], recording how long it took.
stage() {
  local name=$1 start=$SECONDS
  shift
  echo "=== test.sh: $name"
  "$@"
  timings+=("$(printf '%-34s %4d s' "$name" $((SECONDS - start)))")
}

# The reference tools, when the shared oracle folder is beside the clone:
# the newest reference (hcl v2.24.0 + go-cty v1.18.1) where it can be set
# up, else hcl 2.14.1 from Debian. Tests that need them skip without them.
shared=${HCLVM_SHARED_DIR:-$(cd .. && pwd)/shared}
if [ -x "$shared/oracle/setup-newest.sh" ]; then
  stage "oracle set-up (newest)" env HCL_ORACLE_SKIP_CHECK=1 "$shared/oracle/setup-newest.sh"
elif [ -x "$shared/oracle/setup.sh" ]; then
  stage "oracle set-up" env HCL_ORACLE_SKIP_CHECK=1 "$shared/oracle/setup.sh"
fi
if [ -d "$shared" ]; then
  export HCLVM_SHARED_DIR="$shared"
fi

# @cdktf/hcl2json from npm, the oracle of `hclvm json --shape hcl2json`
# (tests/golden/convert/hcl2json.sh), into build/npm; without npm or the
# registry that test skips with a message.
install_npm_oracles() {
  if ! command -v npm > /dev/null; then
    echo "test.sh: npm not found: the @cdktf/hcl2json comparison will be skipped"
    return 0
  fi
  mkdir -p build/npm
  if [ ! -d build/npm/node_modules/@cdktf/hcl2json ] &&
     ! npm install --prefix build/npm --no-audit --no-fund --silent @cdktf/hcl2json@0.21.0; then
    echo "test.sh: npm install @cdktf/hcl2json failed: that comparison will be skipped"
    return 0
  fi
  export NODE_PATH="$PWD/build/npm/node_modules${NODE_PATH:+:$NODE_PATH}"
}
install_npm_oracles

build_and_test() {
  local preset=$1
  scripts/configure.sh "$preset"
  cmake --build --preset "$preset" -j"$jobs"
  ctest --preset "$preset" -j"$jobs"
}

stage "release build and tests (ci)" build_and_test ci
if [ "$quick" != 1 ]; then
  stage "sanitizer build and tests (asan)" build_and_test asan
  stage "fuzz smoke run" scripts/fuzz-smoke.sh --preset asan
fi

echo "=== test.sh: all stages passed"
printf '%s\n' "${timings[@]}"

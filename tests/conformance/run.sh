#!/usr/bin/env bash
# Runs conformance tests in the format of the reference's official suite
# (hashicorp/hcl specsuite: NAME.t expectations, NAME.hcldec spec, NAME.hcl
# and/or NAME.hcl.json inputs) against an hcldec-compatible program, one test
# at a time, and prints PASS/FAIL per test and a summary line.
#
#   tests/conformance/run.sh HCLDEC TESTS_DIR
#
# The harness is the newest reference's `hclspecsuite` (hcl v2.24.0), found
# as $HCLSPECSUITE or in the newest reference's tools ($HCL_ORACLE_NEWEST_BIN,
# default /opt/hcl-oracle/newest/bin; the shared directory's
# oracle/setup-newest.sh builds them). TESTS_DIR may be the word `official`
# for the newest reference's own suite (hcl's specsuite/tests, in the shared
# directory's oracle/newest: see tests/golden/oracle-env.sh). When the
# harness or the tests are missing the run is skipped (exit 77, which ctest
# reports as skipped) with a message saying why.
# Set CONFORMANCE_VERBOSE=1 to see the harness's output for failures.
set -uo pipefail

HCLDEC=${1:?usage: run.sh HCLDEC TESTS_DIR}
TESTS=${2:?usage: run.sh HCLDEC TESTS_DIR}
. "$(dirname "$0")/../golden/oracle-env.sh"
[ "$TESTS" = official ] && TESTS=$newest_tests

skip() {
  echo "conformance: SKIPPED: $*"
  exit 77
}

suite=${HCLSPECSUITE:-$newest_bin/hclspecsuite}
[ -x "$suite" ] ||
  skip "the harness hclspecsuite was not found at $suite (the shared directory's oracle/setup-newest.sh builds it; or set \$HCLSPECSUITE)"
[ -d "$TESTS" ] || skip "no tests at $TESTS (the official ones are in the shared directory: set HCLVM_SHARED_DIR)"

HCLDEC=$(command -v "$HCLDEC") || { echo "conformance: $1 not found" >&2; exit 2; }
HCLDEC=$(cd "$(dirname "$HCLDEC")" && pwd)/$(basename "$HCLDEC")
TESTS=$(cd "$TESTS" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass=0
fail=0
while IFS= read -r t; do
  rel=${t#"$TESTS"/}
  name=${rel%.t}
  dir="$work/$name.d"
  mkdir -p "$dir/$(dirname "$rel")"
  cp "$TESTS/$name".* "$dir/$(dirname "$rel")/"
  # Each test alone, so that one failure is reported against its name.
  if (cd "$dir" && "$suite" . "$HCLDEC") >"$dir.out" 2>&1; then
    pass=$((pass + 1))
    echo "PASS $name"
  else
    fail=$((fail + 1))
    echo "FAIL $name"
    if [ "${CONFORMANCE_VERBOSE:-}" = 1 ]; then sed 's/^/    /' "$dir.out"; fi
  fi
done < <(find "$TESTS" -name '*.t' | LC_ALL=C sort)

echo "conformance: $pass passed, $fail failed ($TESTS with $HCLDEC)"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]

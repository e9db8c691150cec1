#!/usr/bin/env bash
# Runs conformance tests (run.sh's format) against the newest reference's
# own hcldec (hcl v2.24.0 + go-cty v1.18.1), to show that their expectations
# are the reference's behaviour. That hcldec is found as $HCLDEC_REFERENCE
# or in the newest reference's tools ($HCL_ORACLE_NEWEST_BIN, default
# /opt/hcl-oracle/newest/bin); without it the run is skipped (exit 77).
#
#   tests/conformance/reference.sh TESTS_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../golden/oracle-env.sh"
ref=${HCLDEC_REFERENCE:-$newest_bin/hcldec}
if [ ! -x "$ref" ]; then
  echo "conformance: SKIPPED: the reference's hcldec was not found at $ref (the shared directory's oracle/setup-newest.sh builds it; or set \$HCLDEC_REFERENCE)"
  exit 77
fi
exec "$here/run.sh" "$ref" "${1:?usage: reference.sh TESTS_DIR}"

#!/usr/bin/env bash
# Runs conformance tests (run.sh's format) against the reference's own
# hcldec, to show that their expectations are the reference's behaviour.
# The reference's hcldec is found as $HCLDEC_REFERENCE, in $HCL_ORACLE_BIN
# or in /opt/hcl-oracle/bin; without it the run is skipped (exit 77).
#
#   tests/conformance/reference.sh TESTS_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ref=${HCLDEC_REFERENCE:-}
if [ -z "$ref" ]; then
  for c in "${HCL_ORACLE_BIN:-}/hcldec" /opt/hcl-oracle/bin/hcldec; do
    if [ -x "$c" ] && [ "$c" != /hcldec ]; then ref=$c; break; fi
  done
fi
if [ -z "$ref" ]; then
  echo "conformance: SKIPPED: the reference's hcldec was not found (set \$HCLDEC_REFERENCE)"
  exit 77
fi
exec "$here/run.sh" "$ref" "${1:?usage: reference.sh TESTS_DIR}"

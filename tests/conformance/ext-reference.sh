#!/usr/bin/env bash
# Runs the extension tests (tests/conformance/ext) against the reference's
# hcldec built with the same extensions (oracle/build.sh: the newest
# reference's own sources, hcl v2.24.0 + go-cty v1.18.1 in the shared
# directory, plus oracle/ext.go), to show that their expectations are the
# reference's behaviour. Skipped (exit 77) without Go or those sources.
#
#   tests/conformance/ext-reference.sh [OUT_DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../golden/oracle-env.sh"
if ! command -v go >/dev/null || [ ! -d "$newest_src/src/github.com/hashicorp/hcl/v2/cmd/hcldec" ]; then
  echo "conformance: SKIPPED: Go or the newest reference's sources (the shared directory's oracle/newest; set HCLVM_SHARED_DIR) are missing"
  exit 77
fi
out=${1:-$(mktemp -d)}
mkdir -p "$out"
"$here/oracle/build.sh" "$out/hcldec-ext" || { echo "conformance: building the extension oracle failed" >&2; exit 2; }
HCLDEC_UNDER_TEST="$out/hcldec-ext" exec "$here/run.sh" "$here/ext/hcldec.sh" "$here/ext"

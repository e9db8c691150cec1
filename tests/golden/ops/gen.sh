#!/usr/bin/env bash
# Regenerates the golden data of the value operations: ops.golden and
# sets.golden from the reference oracle (see gen.py for their format) and
# hash.golden from Go's math/big (see gen_hash.go). Run on a machine with the
# oracle installed (shared/oracle/setup.sh); the unit tests read the
# committed files.
set -euo pipefail
cd "$(dirname "$0")"
GO111MODULE=off go run gen_hash.go > hash.golden
exec python3 gen.py "${1:-/opt/hcl-oracle/bin/gohcl-bench}"

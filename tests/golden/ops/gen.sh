#!/usr/bin/env bash
# Regenerates the golden data of the value operations: ops.golden and
# sets.golden from the reference oracle (see gen.py for their format) and
# hash.golden from Go's math/big (see gen_hash.go). Run on a machine with the
# newest reference installed (shared/oracle/setup-newest.sh; ../oracle-env.sh
# says where it is looked for); the unit tests read the committed files.
set -euo pipefail
cd "$(dirname "$0")"
. ../oracle-env.sh
GO111MODULE=off go run gen_hash.go > hash.golden
exec python3 gen.py "${1:-$newest_bin/gohcl-bench}"

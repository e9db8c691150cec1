#!/usr/bin/env bash
# Bytecode goldens: `hclvm disasm x.hcl` must print x.dis exactly.
#
# Usage: tests/golden/disasm/run.sh HCLVM            compare every *.hcl
#        tests/golden/disasm/run.sh HCLVM --refresh  rewrite the *.dis files
# (review the diff of a refresh: it is how compiler changes are seen).
set -euo pipefail
hclvm="$1"
refresh="${2:-}"
cd "$(dirname "$0")"
status=0
for src in *.hcl; do
  want="${src%.hcl}.dis"
  if [ "$refresh" = "--refresh" ]; then
    "$hclvm" disasm "$src" > "$want"
  elif ! "$hclvm" disasm "$src" | diff -u "$want" -; then
    echo "FAIL: $src" >&2
    status=1
  fi
done
exit $status

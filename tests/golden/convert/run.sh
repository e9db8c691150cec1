#!/usr/bin/env bash
# Goldens of `hclvm json` (jsonsyntax shape): json/NAME.hcl converted must
# give json/NAME.json byte for byte (corpus.sh has the reference read each
# pair as the same body). json-errors.hcl, which has a syntax error, must
# give no document, exit status 1 and the diagnostics `hclvm check` gives.
#
#   run.sh HCLVM              compare, print a diff for each mismatch
#   run.sh HCLVM --refresh    rewrite json/*.json from HCLVM
set -u
here="$(cd "$(dirname "$0")" && pwd)"
hclvm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
refresh=0
[ "${2:-}" = --refresh ] && refresh=1

pass=0
fail=0
check() { # name, expected text, actual text
  if [ "$2" = "$3" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -40 | sed 's/^/    /'
  fi
}

cd "$here/json"
for f in *.hcl; do
  want="${f%.hcl}.json"
  if [ $refresh = 1 ]; then "$hclvm" json "$f" > "$want"; fi
  check "json/$f" "$(cat "$want")" "$("$hclvm" json "$f")"
done

cd "$here"
out="$("$hclvm" json --color never json-errors.hcl 2> /tmp/hclvm-convert-err.$$)"
status=$?
err="$(cat /tmp/hclvm-convert-err.$$)"
rm -f /tmp/hclvm-convert-err.$$
check "json-errors.hcl: exit status" 1 "$status"
check "json-errors.hcl: no document" "" "$out"
check "json-errors.hcl: diagnostics of check" "$("$hclvm" check --color never json-errors.hcl 2> /dev/null)" "$err"

echo "convert golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

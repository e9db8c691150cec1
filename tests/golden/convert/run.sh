#!/usr/bin/env bash
# Goldens of `hclvm json` and `hclvm ast --format json`: json/NAME.hcl
# converted must give json/NAME.json (jsonsyntax shape; corpus.sh has the
# reference read each pair as the same body) and json/NAME.hcl2json
# (hcl2json shape; hcl2json.sh has @cdktf/hcl2json convert the same
# files), byte for byte; ast/NAME.hcl gives the tree ast/NAME.json
# (`hclvm ast --format json`, as expr for expr.hcl and traversal for
# traversal.hcl). json-errors.hcl,
# which has a syntax error, must give no document, exit status 1 and the
# diagnostics `hclvm check` gives; hcl2json-refused.hcl, which hcl2json
# refuses, exit status 1 and no document in that shape.
#
#   run.sh HCLVM              compare, print a diff for each mismatch
#   run.sh HCLVM --refresh    rewrite the json/NAME.* documents from HCLVM
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
  base="${f%.hcl}"
  if [ $refresh = 1 ]; then
    "$hclvm" json "$f" > "$base.json"
    "$hclvm" json --shape hcl2json "$f" > "$base.hcl2json"
  fi
  check "json/$f" "$(cat "$base.json")" "$("$hclvm" json "$f")"
  check "json/$f hcl2json" "$(cat "$base.hcl2json")" "$("$hclvm" json --shape hcl2json "$f")"
done

cd "$here"
out="$("$hclvm" json --color never json-errors.hcl 2> /tmp/hclvm-convert-err.$$)"
status=$?
err="$(cat /tmp/hclvm-convert-err.$$)"
rm -f /tmp/hclvm-convert-err.$$
check "json-errors.hcl: exit status" 1 "$status"
check "json-errors.hcl: no document" "" "$out"
check "json-errors.hcl: diagnostics of check" "$("$hclvm" check --color never json-errors.hcl 2> /dev/null)" "$err"

cd "$here/ast"
for f in *.hcl; do
  as=config
  case "$f" in expr.hcl) as=expr ;; traversal.hcl) as=traversal ;; esac
  if [ $refresh = 1 ]; then "$hclvm" ast --format json --as $as "$f" > "${f%.hcl}.json"; fi
  check "ast/$f" "$(cat "${f%.hcl}.json")" "$("$hclvm" ast --format json --as $as "$f")"
done

cd "$here"
out="$("$hclvm" json --shape hcl2json hcl2json-refused.hcl 2> /dev/null)"
check "hcl2json-refused.hcl: exit status" 1 "$?"
check "hcl2json-refused.hcl: no document" "" "$out"

echo "convert golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

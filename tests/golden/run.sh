#!/usr/bin/env bash
# Golden tests.
#   diag/NAME.hcl + NAME.ref.json: the reference's diagnostics for NAME.hcl,
#     as the reference hcldec prints them with --diags=json; `hclvm check
#     --format json NAME.hcl` must print the same bytes.
#   ast/NAME.hcl + NAME.out: `hclvm ast NAME.hcl`, reviewed by hand.
#
#   run.sh HCLVM              compare, print a diff for each mismatch
#   run.sh HCLVM --refresh    rewrite ast/*.out from HCLVM, and diag/*.ref.json
#                             from the newest reference's hcldec ($HCLDEC,
#                             default: in $HCL_ORACLE_NEWEST_BIN, see
#                             oracle-env.sh) when it is installed
set -u
here="$(cd "$(dirname "$0")" && pwd)"
hclvm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
refresh=0
[ "${2:-}" = --refresh ] && refresh=1
. "$here/oracle-env.sh"
hcldec="${HCLDEC:-$newest_bin/hcldec}"

pass=0
fail=0
check() { # name, expected file, actual output
  if [ "$(cat "$2")" = "$3" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1"
    diff <(cat "$2") <(printf '%s\n' "$3") | head -40 | sed 's/^/    /'
  fi
}

cd "$here/diag"
if [ $refresh = 1 ] && [ -x "$hcldec" ]; then
  printf 'literal { value = null }\n' > /tmp/hclvm-golden.hcldec
  for f in *.hcl; do
    "$hcldec" --spec=/tmp/hclvm-golden.hcldec --diags=json "$f" 2> "${f%.hcl}.ref.json" > /dev/null
  done
  rm -f /tmp/hclvm-golden.hcldec
fi
for f in *.hcl; do
  check "diag/$f" "${f%.hcl}.ref.json" "$("$hclvm" check --format hcldec "$f" 2>/dev/null)"
done

cd "$here/ast"
for f in *.hcl; do
  out="$("$hclvm" ast "$f" 2>&1)"
  if [ $refresh = 1 ]; then printf '%s\n' "$out" > "${f%.hcl}.out"; fi
  check "ast/$f" "${f%.hcl}.out" "$out"
done

echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# Regenerates the CLI goldens that the Go reference can produce: hcldec
# prints parse diagnostics with the same text writer and JSON shape that
# `hclvm check` must reproduce. Files are passed in sorted order, as check
# reports them. Needs the newest reference's tools (hcl v2.24.0 + go-cty
# v1.18.1: HCL_ORACLE_NEWEST_BIN, default /opt/hcl-oracle/newest/bin) and
# `script` for the coloured variant. Review the diff after running.
set -euo pipefail
cd "$(dirname "$0")"
bin=${HCL_ORACLE_NEWEST_BIN:-/opt/hcl-oracle/newest/bin}
spec=oracle.hcldec
mapfile -t files < <(find data/errors -type f \( -name '*.tf' -o -name '*.hcl' -o -name '*.nomad' -o -name '*.tfvars' -o -name '*.tf.json' \) | LC_ALL=C sort)

# hcldec exits 2 when there are diagnostics; that is expected here.
"$bin/hcldec" --spec=$spec "${files[@]}" 2>expected/errors.txt || true
"$bin/hcldec" --spec=$spec --diags=json "${files[@]}" 2>expected/errors.json || true
"$bin/hcldec" --spec=$spec --diags=json <data/errors/a.tf 2>expected/stdin.json || true
# On a terminal hcldec colours; script gives it one, 80 columns wide.
script -qec "stty cols 80; $bin/hcldec --spec=$spec ${files[*]}" /dev/null </dev/null |
  tr -d '\r' >expected/errors-color.txt || true
# On a narrow terminal the detail is wrapped to its width.
script -qec "stty cols 40; $bin/hcldec --spec=$spec data/errors/b.hcl" /dev/null </dev/null |
  tr -d '\r' >expected/tty-40.txt || true
echo "refreshed: expected/errors.txt errors.json stdin.json errors-color.txt tty-40.txt"

# hclvm dec / hcldec: decoding with a spec (data/dec), compared byte for byte.
d=data/dec
"$bin/hcldec" --spec=$d/app.hcldec -V $d/vars.hcl $d/app.hcl >expected/dec-app.json
"$bin/hcldec" --spec=$d/app.hcldec --with-type --keep-nulls -V '{"replicas_hint": 5}' $d/app.hcl \
  >expected/dec-app-typed.json
"$bin/hcldec" --spec=$d/app.hcldec -V $d/vars.hcl -o /dev/stdout <$d/app.hcl >expected/dec-stdin.json
"$bin/hcldec" --spec=$d/app.hcldec $d/app.hcl 2>expected/dec-unknown-var.txt || true
"$bin/hcldec" --spec=$d/app.hcldec --diags=json $d/one-error.hcl 2>expected/dec-one-error.json || true
echo "refreshed: expected/dec-*"

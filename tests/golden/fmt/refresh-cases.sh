#!/usr/bin/env bash
# Records what the reference formatters make of each cases/NAME.hcl, for
# tests/unit/format_test.cpp:
#   NAME.hcl.hclfmt               stdout of the newest hclfmt (hcl v2.24.0)
#   NAME.tf.terraform-fmt         the file as `terraform fmt NAME.tf` rewrote it (when it did not refuse it)
#   NAME.tf.terraform-fmt.stdin   stdout of `terraform fmt -`, where it differs (a newline added)
#   NAME.tf.terraform-fmt.err     terraform's -no-color stderr, where there is any
# Needs /opt/hcl-oracle/newest/bin/hclfmt (or $HCLFMT) and terraform on PATH.
# CASES.tsv describes each case; reviewers read the diff of the outputs.
set -euo pipefail
cd "$(dirname "$0")/cases"
HCLFMT=${HCLFMT:-/opt/hcl-oracle/newest/bin/hclfmt}
export TF_CLI_CONFIG_FILE=/dev/null
command -v terraform >/dev/null && [ -x "$HCLFMT" ] || { echo "refresh-cases.sh needs hclfmt and terraform" >&2; exit 1; }
rm -f ./*.hclfmt ./*.terraform-fmt ./*.terraform-fmt.stdin ./*.terraform-fmt.err
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in *.hcl; do
  n=${f%.hcl}
  "$HCLFMT" "$n.hcl" > "$n.hcl.hclfmt" 2>/dev/null || true
  rm -rf "$tmp/d"; mkdir "$tmp/d"; cp "$n.hcl" "$tmp/d/$n.tf"
  rc=0; (cd "$tmp/d" && terraform fmt -no-color "$n.tf" > /dev/null 2> "$tmp/err") || rc=$?
  if [ -s "$tmp/err" ]; then cp "$tmp/err" "$n.tf.terraform-fmt.err"; fi
  if [ $rc -eq 0 ]; then
    cp "$tmp/d/$n.tf" "$n.tf.terraform-fmt"
    terraform fmt -no-color - < "$n.hcl" > "$tmp/stdin" 2>/dev/null || true
    cmp -s "$tmp/stdin" "$n.tf.terraform-fmt" || cp "$tmp/stdin" "$n.tf.terraform-fmt.stdin"
  fi
done

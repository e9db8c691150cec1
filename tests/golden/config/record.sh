#!/bin/bash
# tests/golden/config/record.sh [CASE...]
# Records Terraform's answers for each case directory (default: all) into
# CASE/expected.txt, with the terraform binary on PATH (the goldens were
# recorded with Terraform 1.11.4; `terraform version` must say so). Each
# case runs in a scratch copy, so that what a session writes stays out of
# the tree. Needs no network: local child modules install offline.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v terraform >/dev/null || { echo "record.sh: terraform is not on PATH" >&2; exit 2; }
terraform version | head -1 | grep -q 'Terraform v1.11.4' ||
  echo "record.sh: warning: the goldens were recorded with Terraform v1.11.4" >&2
cd "$here"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(ls -d */ | tr -d /))
for c in "${cases[@]}"; do
  work=$(mktemp -d)/$c
  mkdir -p "$work"
  cp -a "$c/." "$work/"
  rm -f "$work/expected.txt" "$work/expected.hclvm.txt"
  "$here/session.sh" expected.txt "$work"
  cp "$work/expected.txt" "$c/expected.txt"
  rm -rf "$(dirname "$work")"
  echo "recorded $c"
done

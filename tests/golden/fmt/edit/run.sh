#!/usr/bin/env bash
# Goldens of `hclvm edit`: for each NAME.edits, a copy of NAME.tf (or
# NAME.hcl) gets the edits of NAME.edits one after the other, one a line,
# each as the arguments after `hclvm edit FILE` (shell words; lines
# starting with # are comments). NAME.out is the transcript: each command,
# what it printed (standard output, then standard error) and its exit
# status, then the file as the edits left it.
#   run.sh HCLVM            compare with the .out files
#   run.sh HCLVM --update   rewrite the .out files (review the diff)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: run.sh HCLVM [--update]}
hclvm="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
update=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for edits in "$here"/*.edits; do
  name=$(basename "$edits" .edits)
  input=$here/$name.tf
  [ -f "$input" ] || input=$here/$name.hcl
  file=$tmp/$(basename "$input")
  cp "$input" "$file"
  out=$tmp/$name.out
  : > "$out"
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    eval "args=($line)"
    rc=0
    (cd "$tmp" && "$hclvm" edit --color never "$(basename "$file")" "${args[@]}") > "$tmp/o" 2> "$tmp/e" || rc=$?
    { echo "\$ hclvm edit $(basename "$file") $line"; cat "$tmp/o" "$tmp/e"; echo "[exit $rc]"; } >> "$out"
  done < "$edits"
  { echo "--- $(basename "$file") after the edits:"; cat "$file"; } >> "$out"
  if [ "$update" = --update ]; then
    cp "$out" "$here/$name.out"
  elif ! diff -u "$here/$name.out" "$out"; then
    status=1
  fi
done
exit $status

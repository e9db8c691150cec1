#!/usr/bin/env bash
# `hclvm json --shape hcl2json` against @cdktf/hcl2json itself: the goldens
# (json/NAME.hcl) and every native file the newest reference accepts in the
# shared corpus ($shared/corpus/RESULTS-newest.tsv) are converted by both,
# and parse() must return the same document (hcl2json-compare.js), or both
# must refuse the file (hcl2json-refused.hcl). run.sh replays the goldens' recorded documents
# (json/NAME.hcl2json) without node.
#
#   hcl2json.sh HCLVM [LIMIT]     LIMIT: only the first LIMIT corpus files
#
# HCLVM_CORPUS_STRIDE=K takes every Kth corpus file and directory only
# (the sanitizer build's ctest sets it: a process per file costs tens of
# milliseconds there; the release build's run covers them all).
#
# Needs node and the package on its module path, e.g.
#   (cd DIR && npm install @cdktf/hcl2json); NODE_PATH=DIR/node_modules hcl2json.sh ...
# Exits 77 (skipped) without them; the corpus part is skipped without the
# corpus.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
hclvm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
limit="${2:-0}"
stride="${HCLVM_CORPUS_STRIDE:-1}"
. "$here/../oracle-env.sh"
if ! command -v node > /dev/null || ! node -e 'require.resolve("@cdktf/hcl2json")' 2> /dev/null; then
  echo "hcl2json.sh: skipped: node or @cdktf/hcl2json is missing (set NODE_PATH)"
  exit 77
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
list="$tmp/list"
: > "$list"
n=0
# Adds file [1] to the list with hclvm's document.
add() {
  n=$((n + 1))
  if "$hclvm" json --shape hcl2json "$1" > "$tmp/$n.json" 2> /dev/null; then
    printf '%s\t%s\n' "$1" "$tmp/$n.json" >> "$list"
  else
    printf '%s\t-\n' "$1" >> "$list"
  fi
}
for f in "$here"/json/*.hcl "$here"/hcl2json-refused.hcl; do add "$f"; done
results="$shared/corpus/RESULTS-newest.tsv"
if [ -f "$results" ]; then
  m=0
  while IFS=$'\t' read -r path kind _ status _; do
    [ "$kind" = native ] && [ "$status" = ok ] || continue
    m=$((m + 1))
    if [ "$limit" -gt 0 ] && [ "$m" -gt "$limit" ]; then break; fi
    [ $(((m - 1) % stride)) -eq 0 ] || continue
    add "$shared/corpus/$path"
  done < "$results"
else
  echo "hcl2json.sh: no corpus at $shared/corpus: goldens only"
fi
status=0
node "$here/hcl2json-compare.js" "$list" || status=1

# Whole directories (--merge) against convertFiles: the golden module and
# every corpus directory that holds *.tf files.
dirs="$tmp/dirs"
: > "$dirs"
k=0
merge() {
  k=$((k + 1))
  if "$hclvm" json --shape hcl2json --merge "$1" > "$tmp/m$k.json" 2> /dev/null; then
    printf '%s\t%s\n' "$1" "$tmp/m$k.json" >> "$dirs"
  else
    printf '%s\t-\n' "$1" >> "$dirs"
  fi
}
merge "$here/merge"
if [ -f "$results" ]; then
  m=0
  while IFS= read -r d; do
    m=$((m + 1))
    if [ "$limit" -gt 0 ] && [ "$m" -gt "$limit" ]; then break; fi
    [ $(((m - 1) % stride)) -eq 0 ] || continue
    merge "$d"
  done < <(awk -F'\t' -v root="$shared/corpus/" '$2 == "native" && $1 ~ /\.tf$/ {
             n = split($1, p, "/"); d = p[1]; for (i = 2; i < n; i++) d = d "/" p[i]; print root d }' "$results" | sort -u)
fi
node "$here/hcl2json-compare.js" "$dirs" --dirs || status=1
exit $status

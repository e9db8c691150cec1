#!/usr/bin/env bash
# The jsonsyntax conversion checked by the newest reference on the
# real-world corpus: every native file the reference accepts
# ($shared/corpus/RESULTS-newest.tsv, status ok) is converted with
# `hclvm json --comments` (the comments as "//" properties, which the
# reference's bodies must skip), and the reference reads the original and the converted
# document as the same body (oracle/main.go says what is compared). The
# goldens (json/NAME.hcl with json/NAME.json, which run.sh replays without
# the reference) are checked the same way.
#
#   corpus.sh HCLVM [LIMIT]     LIMIT: only the first LIMIT files
#
# HCLVM_CORPUS_STRIDE=K takes every Kth corpus file only (the sanitizer
# build's ctest sets it; the release build's run covers them all).
#
# Exits 77 (skipped) when the corpus, Go or the reference's sources are
# missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
hclvm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
limit="${2:-0}"
stride="${HCLVM_CORPUS_STRIDE:-1}"
. "$here/../oracle-env.sh"
results="$shared/corpus/RESULTS-newest.tsv"
if [ ! -f "$results" ]; then
  echo "corpus.sh: skipped: no corpus at $shared/corpus (set HCLVM_SHARED_DIR)"
  exit 77
fi
if ! command -v go > /dev/null || [ ! -d "$newest_src/src/github.com/hashicorp/hcl/v2" ]; then
  echo "corpus.sh: skipped: Go or the newest reference's sources ($newest_src) are missing"
  exit 77
fi
. "$here/../build-go-oracle.sh"
build_go_oracle "$here/oracle/main.go" "$tmp/convert-oracle"

list="$tmp/list"
: > "$list"
n=0
converted=0
failed=0
while IFS=$'\t' read -r path kind _ status _; do
  [ "$kind" = native ] && [ "$status" = ok ] || continue
  if [ "$limit" -gt 0 ] && [ "$n" -ge "$limit" ]; then break; fi
  n=$((n + 1))
  [ $(((n - 1) % stride)) -eq 0 ] || continue
  out="$tmp/$n.json"
  if "$hclvm" json --comments "$shared/corpus/$path" > "$out" 2> "$tmp/err"; then
    converted=$((converted + 1))
    printf '%s\t%s\n' "$shared/corpus/$path" "$out" >> "$list"
  else
    failed=$((failed + 1))
    echo "FAIL $path: hclvm json failed: $(head -c 300 "$tmp/err")"
  fi
done < "$results"

for f in "$here"/json/*.hcl; do
  printf '%s\t%s\n' "$f" "${f%.hcl}.json" >> "$list"
  printf '%s\t%s\n' "$f" "${f%.hcl}.comments.json" >> "$list"
done

status=0
"$tmp/convert-oracle" "$list" > "$tmp/report" || status=1
grep -v "^ok " "$tmp/report" | head -50
echo "corpus.sh: $converted of $n files converted (stride $stride), $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]

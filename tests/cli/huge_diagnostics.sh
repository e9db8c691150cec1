#!/usr/bin/env bash
# Diagnostics whose text is far larger than the input (ctest cli.huge_diagnostics):
#   tests/cli/huge_diagnostics.sh path/to/hclvm path/to/hcldec CAP_MEMORY
# Each diagnostic shows the source lines it is about, as the reference's do,
# so N errors on one line of N bytes make text of N*N bytes: 32,000 NUL
# bytes make 32,000 "Invalid character" errors (and one more) and 1 GB of
# text. Every
# command that prints text diagnostics (check, ast, eval, dec, hcldec) must
# write them as it makes them: with CAP_MEMORY=1 each runs under a 512 MB
# address-space limit (ulimit -v), which holding the text would exceed.
# Sanitizer builds pass 0: their shadow memory cannot live under such a
# limit, so there only the output is checked.
set -euo pipefail
hclvm=$(realpath "$1")
hcldec=$(realpath "$2")
cap=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

n=32000
head -c "$n" /dev/zero > nul.hcl
# `"` and `%{if a}` 12,000 times, as an expression: 12,001 errors, each
# showing the 84 KB line.
{ printf '"'; for _ in $(seq 1 12000); do printf '%%{if a}'; done; } > if.txt
printf 'object {}\n' > spec.hcldec

# Runs the command [2...] with its standard output or error (stream [1])
# counted: prints the number of bytes, the number of lines starting with
# "Error: " and the exit status. Under a deadline of 300 s, which the old
# rendering (minutes, then out of memory) could not meet either.
run() {
  local stream=$1
  shift
  local rc=0
  if [ "$stream" = out ]; then
    ( [ "$cap" = 1 ] && ulimit -v 524288; exec timeout 300 "$@" 2>err.txt ) > out.txt || rc=$?
  else
    ( [ "$cap" = 1 ] && ulimit -v 524288; exec timeout 300 "$@" 2>out.txt ) > err.txt || rc=$?
  fi
  echo "$(wc -c < out.txt) $(grep -a -c '^Error: ' out.txt || true) $rc"
}

# Checks that [got] ("bytes errors status") has more than [min] bytes,
# [errors] errors and status [rc], for command [what].
expect() {
  local what=$1 got=$2 min=$3 errors=$4 rc=$5
  read -r bytes count status <<< "$got"
  [ "$status" = "$rc" ] || fail "$what: exit status $status, want $rc ($(head -c 300 err.txt))"
  [ "$count" = "$errors" ] || fail "$what: $count errors, want $errors"
  [ "$bytes" -gt "$min" ] || fail "$what: $bytes bytes of text, want more than $min"
}

min=$((n * n))
e=$((n + 1))
expect "check" "$(run out "$hclvm" check -j 2 nul.hcl)" $min $e 1
grep -q "^1 file checked: 1 with errors ($e errors, 0 warnings)$" err.txt ||
  fail "check: summary $(cat err.txt)"
# Two files: the second waits for the first, which writes its text itself.
cp nul.hcl nul2.hcl
expect "check two files" "$(run out "$hclvm" check -j 2 nul.hcl nul2.hcl)" $((2 * min)) $((2 * e)) 1
# -j1: both on the main thread alone, each streaming its own text.
expect "check two files -j1" "$(run out "$hclvm" check -j 1 nul.hcl nul2.hcl)" $((2 * min)) $((2 * e)) 1
expect "check --as expr" "$(run out "$hclvm" check --as expr if.txt)" $((12000 * 84000)) 12001 1
expect "ast" "$(run err "$hclvm" ast nul.hcl)" $min $e 1
expect "eval" "$(run err "$hclvm" eval nul.hcl)" $min $e 1
expect "dec" "$(run err "$hclvm" dec --spec spec.hcldec nul.hcl)" $min $e 2
expect "hcldec" "$(run err "$hcldec" --spec spec.hcldec nul.hcl)" $min $e 2
echo "ok: huge diagnostic text written as it is made"

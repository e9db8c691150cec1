#!/usr/bin/env bash
# bench/instructions.sh [-n N] [--top K] [--out F] [--functions SET] HCLVM FILE [VARS]
# Counts the instructions one evaluation of FILE takes with `HCLVM bench`,
# deterministically: the count does not depend on the machine's load, so
# two builds compare on a shared machine where wall time does not. Runs
# `HCLVM bench FILE [--vars-file VARS] -n N --runs 1` under callgrind
# collecting only inside the timed runs (the fixed-count warm-up and the
# run: 2N evaluations; parsing, compiling and the first evaluation are left
# out), then prints the instructions per evaluation and, with --top K, the
# K functions that execute the most instructions in it. The callgrind file
# stays in F (default: a temporary file, removed) for callgrind_annotate.
# --functions SET passes `--functions SET` to `hclvm bench` (go-cty: the
# table bench/compare_corpus_eval.py measures with; by default Terraform's).
#
#   bench/instructions.sh build/ci/hclvm build/bench-corpus/corpus_1m.tf \
#       build/bench-corpus/corpus_vars.json
#
# Instructions are not time: a build can execute the same instructions and
# still run slower (docs/benchmarks.md, "Re-measured 2026-12-02").
set -euo pipefail
n=1 top=0 out="" fns=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --functions) fns=(--functions "$2"); shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: bench/instructions.sh [-n N] [--top K] [--out F] [--functions SET] HCLVM FILE [VARS]" >&2
  exit 2
fi
hclvm=$1 file=$2
vars=()
[ $# -eq 3 ] && vars=(--vars-file "$3")
command -v valgrind > /dev/null || { echo "bench/instructions.sh: valgrind not found" >&2; exit 2; }
keep=1
if [ -z "$out" ]; then
  out=$(mktemp)
  keep=0
fi
log=$(mktemp)
trap 'rm -f "$log"; [ "$keep" = 1 ] || rm -f "$out"' EXIT
if ! valgrind --tool=callgrind --callgrind-out-file="$out" '--toggle-collect=*timed_run*' \
    "$hclvm" bench "$file" "${vars[@]}" "${fns[@]}" -n "$n" --runs 1 > "$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
total=$(sed -n 's/^==[0-9]*== I *refs: *//p' "$log" | tr -d ,)
echo "file: $file"
echo "evaluations counted: $((2 * n))"
echo "instructions/evaluation: $((total / (2 * n)))"
if [ "$top" -gt 0 ]; then
  echo "functions (instructions over the $((2 * n)) evaluations):"
  callgrind_annotate --threshold=100 "$out" 2> /dev/null |
    sed -n '/^Ir .*file:function/,$p' | sed -n "3,$((top + 2))p"
fi

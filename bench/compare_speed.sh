#!/usr/bin/env bash
# Runs the speed comparisons against the references and draws them.
#
#   bench/compare_speed.sh [--quick] [--build-dir build/ci] [--results build/speed]
#       [--out-dir docs] [--general-args "..."] [--eval-args "..."] [--parse-args "..."]
#
# In turn: bench/compare_general.py (generated expressions, both references),
# bench/compare_corpus_eval.py (the real corpus evaluated file by file) and
# bench/compare.py (parse: generated corpora, the real corpus file by file,
# a whole `hclvm check -j1` process), each writing its markdown table
# (NAME.md) and its JSON (NAME.json) into the results folder and printing
# the table; then bench/plot_speed.py draws the PNGs into --out-dir from
# those JSON files. A failing comparison (results that differ, a file not
# measured) is reported and the others still run; the exit status is then 1.
#
#   --quick            a quick run: 3 expressions per category, --runs 1
#                      --benchtime 20ms; 40 corpus files at 10ms; parse
#                      with --runs 1
#   --build-dir DIR    where hclvm, bench/parse_bench and bench/parse_mem are
#                      (default build/ci)
#   --results DIR      where the tables and JSON go (default build/speed)
#   --out-dir DIR      where the PNGs go (default docs)
#   --general-args S, --eval-args S, --parse-args S
#                      more arguments for compare_general.py,
#                      compare_corpus_eval.py and compare.py (split on
#                      spaces; given last, so they override)
#   --only NAMES       run only these of general,corpus_eval,parse (comma
#                      separated; the pictures use what the folder holds)
#   --no-plot          do not draw
#
# Defaults (without --quick): --runs 3 --benchtime 50ms for the expressions
# (about 6 minutes on 2 cores), --sample 400 for the corpus, --runs 5 for
# parse. Needs the shared directory ($HCLVM_SHARED_DIR), both references'
# gohcl-bench and matplotlib (python3-matplotlib) for the pictures.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build/ci results=$repo/build/speed out_dir=$repo/docs
quick=0 plot=1 only=general,corpus_eval,parse general_args="" eval_args="" parse_args=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --build-dir) build=$2; shift ;;
    --results) results=$2; shift ;;
    --out-dir) out_dir=$2; shift ;;
    --general-args) general_args=$2; shift ;;
    --eval-args) eval_args=$2; shift ;;
    --parse-args) parse_args=$2; shift ;;
    --only) only=$2; shift ;;
    --no-plot) plot=0 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare_speed.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ $quick = 1 ]; then
  general_default="--per-category 3 --runs 1 --benchtime 20ms"
  eval_default="--sample 40 --benchtime 10ms"
  parse_default="--runs 1"
else
  general_default="--runs 3 --benchtime 50ms"
  eval_default="--sample 400"
  parse_default="--runs 5"
fi
mkdir -p "$results" || exit 2
status=0

# run NAME SCRIPT ARGS...: runs bench/SCRIPT with --out and --json into the
# results folder, its progress to NAME.log, its table to standard output.
run() {
  local name=$1 script=$2
  shift 2
  case ",$only," in *",$name,"*) ;; *) return ;; esac
  echo "== $name: python3 bench/$script $*" >&2
  python3 "$repo/bench/$script" "$@" --out "$results/$name.md" --json "$results/$name.json" 2> "$results/$name.log"
  local rc=$?
  if [ $rc != 0 ]; then
    status=1
    echo "($name: exit status $rc; its progress and errors: $results/$name.log)"
    tail -3 "$results/$name.log"
  fi
  echo
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
# shellcheck disable=SC2086  # the argument strings are split on purpose
run general compare_general.py --hclvm "$build/hclvm" $general_default $general_args
# shellcheck disable=SC2086
run corpus_eval compare_corpus_eval.py --hclvm "$build/hclvm" $eval_default $eval_args
# shellcheck disable=SC2086
run parse compare.py --build-dir "$build" $parse_default $parse_args
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $plot = 1 ]; then
  python3 "$repo/bench/plot_speed.py" --results "$results" --out-dir "$out_dir" || status=1
fi
exit $status

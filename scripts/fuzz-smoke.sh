#!/usr/bin/env bash
# scripts/fuzz-smoke.sh [--preset PRESET] [SECONDS]
# Builds the libFuzzer targets (by default the `fuzz` preset: clang, ASan +
# UBSan, coverage-guided; the `asan` preset builds them beside the tests,
# which is what scripts/test.sh uses) and runs each of them from its seed
# corpus in tests/fuzz/seeds, one after the other: a fixed number of inputs
# (about half a minute's worth on a two-core machine under ASan) from a fixed
# seed, so that every run of this script tries the same inputs and a
# change that passed it once passes it again; SECONDS (default
# $FUZZ_SECONDS, else 60) caps each target's time on a slow machine.
# FUZZ_SEED picks another seed and FUZZ_RUNS_SCALE multiplies the counts
# (for longer runs by hand: FUZZ_SEED=0 draws a seed from the clock). The
# corpus grows in a scratch directory; the repository is not written. A
# crash, a sanitizer report, a leak, an input that runs longer than 10 s or
# a run over 2 GiB of memory fails the script, and the input that did it is
# printed (base64) so that it can be replayed:
#   base64 -d > crash.bin; build/PRESET/tests/fuzz/TARGET crash.bin
set -euo pipefail
cd "$(dirname "$0")/.."

preset=fuzz
secs=${FUZZ_SECONDS:-60}
seed=${FUZZ_SEED:-1}
scale=${FUZZ_RUNS_SCALE:-1}
while [ $# -gt 0 ]; do
  case $1 in
    --preset) preset=${2:?--preset needs a value}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) secs=$1; shift ;;
  esac
done

# target | seed directory under tests/fuzz/seeds ("" for none) | -max_len | inputs
targets=(
  "parse_fuzz|parse|4096|100000"
  "cache_fuzz||65536|25000"
  "eval_fuzz|eval|4096|8000"
  "decode_fuzz|decode|16384|40000"
  "fmt_fuzz|fmt|8192|30000"
  "convert_fuzz|parse|4096|100000"
  "config_fuzz|config|8192|6000"
)

names=()
for entry in "${targets[@]}"; do names+=("${entry%%|*}"); done
scripts/configure.sh "$preset"
cmake --build --preset "$preset" -j"${JOBS:-2}" --target "${names[@]}"

work=$(mktemp -d "${TMPDIR:-/tmp}/hclvm-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=()
for entry in "${targets[@]}"; do
  IFS='|' read -r name seeds max_len runs <<<"$entry"
  exe=build/$preset/tests/fuzz/$name
  if [ ! -x "$exe" ]; then
    echo "fuzz-smoke: $exe was not built" >&2
    failed+=("$name (not built)")
    continue
  fi
  corpus=$work/$name/corpus
  mkdir -p "$corpus"
  dirs=("$corpus")
  [ -n "$seeds" ] && dirs+=("tests/fuzz/seeds/$seeds")
  env=()
  # cache_fuzz writes its seeds (valid compiled bodies of this build's
  # format) into the corpus before it starts.
  [ "$name" = cache_fuzz ] && env=(HCLVM_CACHE_FUZZ_SEEDS="$corpus")
  runs=$((runs * scale))
  echo "fuzz-smoke: $name, $runs inputs from seed $seed (at most ${secs}s)"
  log=$work/$name/log
  status=0
  env "${env[@]}" "$exe" "${dirs[@]}" -runs="$runs" -seed="$seed" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$work/$name/" >"$log" 2>&1 || status=$?
  grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | sed "s/^/  /" || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz-smoke: $name FAILED (exit $status); the end of its log:" >&2
    tail -n 60 "$log" >&2
    for art in "$work/$name"/crash-* "$work/$name"/leak-* "$work/$name"/timeout-* "$work/$name"/oom-*; do
      [ -f "$art" ] || continue
      echo "fuzz-smoke: $(basename "$art") (base64):" >&2
      base64 -w 0 "$art" >&2
      echo >&2
    done
    failed+=("$name")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz-smoke: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz-smoke: ${#targets[@]} targets from seed $seed: no crash"

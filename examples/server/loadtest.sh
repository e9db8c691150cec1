#!/usr/bin/env bash
# examples/server/loadtest.sh SERVER [options]
# Load-tests hclvm-server on loopback with wrk: starts SERVER (a built
# hclvm-server; this script builds nothing) on a free port, warms it up,
# drives POST /eval with post.lua for a bounded time, and prints one
# markdown table row: requests/s, p50 and p99 latency, the server's peak
# RSS, and how much of each request evaluation takes.
#
# Options:
#   --config FILE       the configuration (default: policy.hcl next to this script)
#   --threads N         the server's --threads (default: the server's default:
#                       16 workers for hclvm-server, a loop per core for
#                       hclvm-server-beast)
#   --connections N     wrk connections (default 16; hclvm-server needs at
#                       least as many threads)
#   --duration SECS     how long wrk runs (default 10)
#   --warmup SECS       a first wrk run not measured (default 1; 0: none)
#   --server-cpus LIST  pin the server to these CPUs (taskset -c LIST)
#   --wrk-cpus LIST     pin wrk to these CPUs
#   --header            print the table's header first
#
# Columns: the server program, its threads and wrk's connections, the CPUs each was
# pinned to, wrk's requests/s and latency percentiles, the server's peak RSS
# (VmHWM), and from the server's /stats counters and its CPU time over the
# measured run:
#   server CPU µs/req  the server process's CPU time (all threads) per request
#   eval CPU µs/req    the evaluating thread's CPU time inside the evaluation
#                      of all attributes (and writing their values) per request,
#                      measured on one request in 32
#   eval % CPU         eval CPU over server CPU
#   eval % latency     evaluation wall time per request over wrk's mean latency
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
server=${1:?usage: loadtest.sh SERVER [--threads N] [--connections N] [--duration SECS] ...}
shift
config=$here/policy.hcl threads= connections=16 duration=10 warmup=1
server_cpus= wrk_cpus= header=0
while [ $# -gt 0 ]; do
  case $1 in
    --config) config=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --server-cpus) server_cpus=$2; shift 2 ;;
    --wrk-cpus) wrk_cpus=$2; shift 2 ;;
    --header) header=1; shift ;;
    *) echo "loadtest.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "loadtest.sh: wrk is not installed" >&2; exit 2; }

tmp=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

pin_server=() pin_wrk=()
[ -n "$server_cpus" ] && pin_server=(taskset -c "$server_cpus")
[ -n "$wrk_cpus" ] && pin_wrk=(taskset -c "$wrk_cpus")

"${pin_server[@]}" "$server" --config "$config" --port 0 ${threads:+--threads "$threads"} \
  --cache-dir "$tmp/cache" >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=
for _ in $(seq 200); do
  port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/out")
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ -n "$port" ] || { echo "loadtest.sh: the server did not start:" >&2; cat "$tmp/err" >&2; exit 1; }
url=http://127.0.0.1:$port/eval

# The server's CPU time so far (all its threads' utime + stime), in
# nanoseconds. The fields after the command name start at field 3, the
# state; utime and stime are fields 14 and 15.
clk=$(getconf CLK_TCK)
cpu_ns() {
  local f
  read -ra f <<<"$(sed 's/^.*) //' "/proc/$pid/stat")"
  echo $(((f[11] + f[12]) * 1000000000 / clk))
}
stat_field() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" <<<"$2"; }

if [ "$warmup" != 0 ]; then
  "${pin_wrk[@]}" wrk -t1 -c"$connections" -d"${warmup}s" -s "$here/post.lua" "$url" >/dev/null
fi
before=$(curl -sS "http://127.0.0.1:$port/stats")
cpu_before=$(cpu_ns)
"${pin_wrk[@]}" wrk -t1 -c"$connections" -d"${duration}s" --latency -s "$here/post.lua" "$url" \
  >"$tmp/wrk"
cpu_after=$(cpu_ns)
after=$(curl -sS "http://127.0.0.1:$port/stats")
hwm_kb=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || { echo "loadtest.sh: the server did not exit cleanly" >&2; exit 1; }
pid=

# wrk's latencies (e.g. 812.00us, 1.52ms, 1.01s) in milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
    printf "%.3f", n }'
}
rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$tmp/wrk")
mean=$(to_ms "$(awk '$1 == "Latency" && NF >= 4 { print $2; exit }' "$tmp/wrk")")
p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$tmp/wrk")")
p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$tmp/wrk")")
non2xx=$(awk '/Non-2xx/ { print $NF }' "$tmp/wrk")
errors=$(awk '/Socket errors/ { print }' "$tmp/wrk")

requests=$(($(stat_field requests "$after") - $(stat_field requests "$before")))
eval_ns=$(($(stat_field eval_ns "$after") - $(stat_field eval_ns "$before")))
eval_cpu_ns=$(($(stat_field eval_cpu_ns "$after") - $(stat_field eval_cpu_ns "$before")))
samples=$(($(stat_field eval_cpu_samples "$after") - $(stat_field eval_cpu_samples "$before")))
cpu=$((cpu_after - cpu_before))
threads=$(stat_field threads "$after")
awk -v r="$requests" -v e="$eval_ns" -v ec="$eval_cpu_ns" -v s="$samples" -v c="$cpu" -v m="$mean" \
  -v rps="$rps" -v p50="$p50" -v p99="$p99" -v hwm="$hwm_kb" -v t="$threads" \
  -v conn="$connections" -v header="$header" -v name="$(basename "$server")" \
  -v pin="${server_cpus:+server@$server_cpus}${wrk_cpus:+ wrk@$wrk_cpus}" 'BEGIN {
    if (header) {
      print "| server | threads | connections | pinning | req/s | p50 ms | p99 ms | peak RSS MiB | server CPU µs/req | eval CPU µs/req | eval % CPU | eval % latency |"
      print "|---|---|---|---|---|---|---|---|---|---|---|---|"
    }
    if (r == 0) r = 1
    if (s == 0) s = 1
    lat = m > 0 ? 100 * e / r / (m * 1e6) : 0
    share = c > 0 ? 100 * ec / s * r / c : 0
    printf "| %s | %d | %d | %s | %d | %.2f | %.2f | %.1f | %.1f | %.1f | %.0f | %.1f |\n", name, t, conn,
      (pin == "" ? "none" : pin), rps, p50, p99, hwm / 1024, c / r / 1000, ec / s / 1000,
      share, lat }'
[ -n "$non2xx" ] && echo "loadtest.sh: warning: $non2xx answers were not 200" >&2
[ -n "$errors" ] && echo "loadtest.sh: warning: wrk $errors" >&2
exit 0

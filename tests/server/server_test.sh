#!/usr/bin/env bash
# tests/server/server_test.sh SERVER CONFIG
# The HTTP server example end to end: starts SERVER (hclvm-server) on a free
# port with CONFIG (examples/server/policy.hcl), asks it with curl for a good
# answer, each kind of error and the wrong routes and methods, then stops it
# with SIGTERM and checks that it exits cleanly. Meanwhile 32 slow clients
# (headers a line a second) must not keep valid requests from an answer.
# Exit 77 (skipped) without curl.
set -uo pipefail
server=${1:?usage: server_test.sh SERVER CONFIG}
config=${2:?usage: server_test.sh SERVER CONFIG}
command -v curl >/dev/null || { echo "server_test: curl is not installed; skipped"; exit 77; }

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# start NAME ARGS...: starts the server with ARGS, sets pid and port once it
# says where it listens.
start() {
  local name=$1
  shift
  "$server" --config "${START_CONFIG:-$config}" --port 0 --threads 4 --cache-dir "$tmp/cache" "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  pids+=("$pid")
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/$name.out")
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "server_test: $name did not start"
  cat "$tmp/$name.err"
  exit 1
}

# ask METHOD PATH [BODY]: sets status, body and headers of the answer.
ask() {
  local args=(-sS -X "$1" -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}')
  [ $# -ge 3 ] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  status=$(curl "${args[@]}" "http://127.0.0.1:$port$2") || fail "curl $1 $2"
  body=$(cat "$tmp/body")
}

# expect WHAT STATUS [PATTERN...]: the last answer had STATUS and a body
# holding each fixed string PATTERN.
expect() {
  local what=$1 want=$2
  shift 2
  [ "$status" = "$want" ] || fail "$what: status $status, want $want; body: $body"
  for p in "$@"; do
    [[ $body == *"$p"* ]] || fail "$what: body lacks $p; body: $body"
  done
}

user='{"id":"u-1042","email":"Ada@Example.com","plan":"pro","mfa":true,"roles":["editor"],"teams":["platform","billing"]}'
request='{"method":"PUT","path":"/teams/platform/docs/runbook","source_ip":"10.1.2.3"}'
good="{\"user\":$user,\"request\":$request}"

start main
[ "$(grep -c 'compiled and cached' "$tmp/main.err")" = 1 ] || fail "first start: not compiled and cached: $(cat "$tmp/main.err")"

ask POST /eval "$good"
want='{"values":{"service":"documents","subject":"ada@example.com (u-1042)","action":"update","team":"platform","allow":true,"reason":"editors with MFA may write","rate_limit":{"requests_per_minute":600,"burst":60,"key":"u-1042:10.1.2.3"},"audit":{"log":true,"tags":["plan:pro","role:editor","service:documents","team:billing","team:platform"]},"quota":{"storage":{"gigabytes":200},"documents":{"max_size_mb":250,"versions":20}}}}'
expect "good request" 200
[ "$body" = "$want" ] || fail "good request: got $body, want $want"
grep -qi '^content-type: application/json' "$tmp/headers" || fail "good request: not application/json"

ask POST /eval '{"user": {"id": '
expect "malformed JSON" 400 '"error":"invalid_body"' '"message":"the request body must be a JSON object: '

ask POST /eval '["not", "an", "object"]'
expect "not an object" 400 '"error":"invalid_body"' 'top level must be a JSON object'

ask POST /eval "{\"user\":$user}"
expect "unknown variable" 422 '"error":"evaluation"' \
  '{"severity":"error","summary":"Unknown variable","detail":"There is no variable named \"request\".","range":{"filename":"policy.hcl","start":{"line":15,"column":4,"byte":' \
  '"summary":"Unknown variable"'

ask POST /eval "{\"user\":{\"id\":\"u-1\",\"email\":\"x@y\"},\"request\":$request}"
expect "missing attribute" 422 '"error":"evaluation"' '"summary":"Unsupported attribute"'

ask GET /eval
expect "GET /eval" 405 '"error":"method_not_allowed"'
grep -qi '^allow: POST' "$tmp/headers" || fail "GET /eval: no Allow: POST header"
ask POST /healthz '{}'
expect "POST /healthz" 405 '"error":"method_not_allowed"'
ask GET /nowhere
expect "GET /nowhere" 404 '"error":"not_found"'
ask GET /healthz
expect "GET /healthz" 200 '{"status":"ok"}'
ask GET /stats
expect "GET /stats" 200 '"requests":5,"ok":1,"bad_requests":2,"eval_errors":2,"limit_hits":0,"other":3,' \
  '"attributes":14,'

# Slow clients (slowloris): 32 connections, more than the server's 4
# threads, each sending a request's headers one line a second, within any
# read timeout. Valid requests are answered all the same, at once.
slow_client() {
  exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 0
  printf 'POST /eval HTTP/1.1\r\nHost: slow\r\n' >&3 || exit 0
  for i in $(seq 60); do
    sleep 1
    printf 'X-Slow-%d: %d\r\n' "$i" "$i" >&3 2>/dev/null || exit 0
  done
}
slow=()
for _ in $(seq 32); do
  slow_client &
  slow+=($!)
  pids+=($!)
done
sleep 2
for i in 1 2 3; do
  rm -f "$tmp/body"
  status=$(curl -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary "$good" "http://127.0.0.1:$port/eval") || status="timeout"
  body=$(cat "$tmp/body" 2>/dev/null)
  expect "good request $i among 32 slow clients" 200
  [ "$body" = "$want" ] || fail "good request $i among slow clients: got $body"
done
ask GET /healthz
expect "health among slow clients" 200 '{"status":"ok"}'
for p in "${slow[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done

# dribble SECONDS: on a new connection, sends a request's headers a line
# every 0.2 s for up to SECONDS; prints "closed" once the server has closed
# the connection, or "open".
dribble() {
  (
    trap '' PIPE
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf 'POST /eval HTTP/1.1\r\nHost: slow\r\n' >&3
    for i in $(seq $(($1 * 5))); do
      sleep 0.2
      printf 'X-Slow-%d: %d\r\n' "$i" "$i" >&3 2>/dev/null || { echo closed; exit 0; }
    done
    echo open
  )
}

# With a request timeout of 1 s: a client that sends half a request and
# then nothing is cut off by either front end; one that dribbles its
# headers within every read timeout only by Beast, whose deadline is for
# the whole request (cpp-httplib 0.11 has none: see README.md).
main_pid=$pid
start quick --request-timeout-ms 1000
quick_pid=$pid
exec 4<>"/dev/tcp/127.0.0.1/$port"
printf 'POST /eval HTTP/1.1\r\n' >&4
timeout 5 cat <&4 >/dev/null
rc=$?
exec 4<&-
[ "$rc" = 0 ] || fail "a silent client was not cut off within 5 s (status $rc)"
got=$(dribble 6)
case $(basename "$server") in
  *beast*) [ "$got" = closed ] || fail "a dribbling client was not cut off within 6 s: $got" ;;
  *) [ "$got" = open ] || fail "cpp-httplib closed a dribbling client: $got" ;;
esac
kill -TERM "$quick_pid"
wait "$quick_pid"
pid=$main_pid

# A server whose configuration passes a request's value through: a number
# of 10^8 digits is small in the request and in memory, not as text, and its
# answer is refused within the memory limit instead of written.
printf 'echo = user.id\n' >"$tmp/echo.hcl"
START_CONFIG=$tmp/echo.hcl start echo --max-memory 1000000
ask POST /eval '{"user":{"id":1e100000000}}'
expect "text limit" 422 '"error":"limit","limit":"memory"' '"summary":"Evaluation memory limit exceeded"' \
  'the JSON text would take more than 1000000 bytes'
ask POST /eval '{"user":{"id":12}}'
expect "small echo" 200 '{"values":{"echo":12}}'
kill -TERM "$pid"
wait "$pid"
pid=$main_pid

# A second server with a budget of 3 steps per request: the good request
# calls more functions than that. It finds the configuration in the cache.
start tiny --max-steps 3
grep -q 'loaded from the cache' "$tmp/tiny.err" || fail "second start: not from the cache: $(cat "$tmp/tiny.err")"
ask POST /eval "$good"
expect "step limit" 422 '"error":"limit","limit":"steps"' '"summary":"Evaluation step limit exceeded"'
ask POST /eval "{\"user\":$user,\"request\":{\"method\":\"GET\",\"path\":\"$(head -c 3000 /dev/zero | tr '\0' a)\",\"source_ip\":\"x\"}}"
expect "limit again" 422 '"limit":"steps"'
ask GET /stats
expect "limit stats" 200 '"limit_hits":2,'

# Both stop cleanly on SIGTERM (and SIGINT), exit status 0.
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 0 ] || fail "SIGTERM: exit status $rc"
grep -q 'stopped after 2 requests' "$tmp/tiny.err" || fail "SIGTERM: $(cat "$tmp/tiny.err")"
kill -INT "$main_pid"
wait "$main_pid"
rc=$?
[ "$rc" = 0 ] || fail "SIGINT: exit status $rc"
grep -q 'SIGINT, stopping' "$tmp/main.err" || fail "SIGINT: $(cat "$tmp/main.err")"
pids=()

if [ "$failures" -gt 0 ]; then
  echo "server_test: $failures failure(s)"
  exit 1
fi
echo "server_test: all checks passed"

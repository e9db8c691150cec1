#!/usr/bin/env bash
# The compiled-file cache from the command line (ctest cache.cli):
#   tests/cache/cli_cache.sh path/to/hclvm
# eval --cache gives what eval gives, fills the cache once and then loads
# from it; a damaged entry is refused, recompiled and replaced; compile
# writes a self-contained file that eval loads (and an empty or text *.hclc
# is refused); check --cache shares the
# entries; and many processes evaluating many files at once through one
# cache directory all print the right output and leave only sound entries.
set -euo pipefail
hclvm=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Files to evaluate: native and JSON, with blocks, templates, for
# expressions, function calls and an error.
for i in $(seq 1 16); do
  cat > "f$i.tf" <<HCL
n = $i
s = "file-\${$i}-%{ if $i > 10 }big%{ else }small%{ endif }"
l = [for x in range($i % 7) : x * $i]
o = { for k, v in { a = $i, b = $i + 1 } : upper(k) => v }
resource "thing" "t$i" {
  name = join("-", ["r", tostring($i)])
  nested { deep = jsonencode({ v = $i, w = [true, null] }) }
}
HCL
  printf '{"n": %d, "s": "${%d}-json", "a": [1, "x${max(1, %d)}"]}\n' "$i" "$i" "$i" > "j$i.tf.json"
done
printf 'ok = 1\nbad = nope.attr\n' > err.tf

cache="$work/cache"
for f in f1.tf j1.tf.json err.tf; do
  set +e
  "$hclvm" eval --color=never "$f" > "$f.want" 2> "$f.want.err"; want_rc=$?
  "$hclvm" eval --color=never --cache-dir "$cache" "$f" > "$f.miss" 2> "$f.miss.err"; miss_rc=$?
  "$hclvm" eval --color=never --cache-dir "$cache" "$f" > "$f.hit" 2> "$f.hit.err"; hit_rc=$?
  set -e
  [ "$want_rc" = "$miss_rc" ] && [ "$want_rc" = "$hit_rc" ] || fail "$f: exit $want_rc/$miss_rc/$hit_rc"
  cmp -s "$f.want" "$f.miss" && cmp -s "$f.want" "$f.hit" || fail "$f: output differs with the cache"
  cmp -s "$f.want.err" "$f.hit.err" || fail "$f: diagnostics differ with the cache"
done
grep -q "^entries: 3$" <("$hclvm" cache --cache-dir "$cache" stats) || fail "stats: want 3 entries"

# A damaged entry: refused with a reason, compiled again, replaced.
entry=$(find "$cache" -name '*.hclc' | head -1)
printf 'XXXX' | dd of="$entry" bs=1 seek=60 conv=notrunc 2>/dev/null
for f in f1.tf j1.tf.json err.tf; do
  "$hclvm" eval --color=never --cache-dir "$cache" "$f" > out 2> err || true
  cmp -s out "$f.want" || fail "$f: output differs after damage"
done
grep -q "hclvm: cache entry for .* refused (checksum mismatch" <(cat err; for f in f1.tf j1.tf.json err.tf; do "$hclvm" eval --cache-dir "$cache" "$f" 2>&1 >/dev/null; done; printf 'XXXX' | dd of="$entry" bs=1 seek=60 conv=notrunc 2>/dev/null; for f in f1.tf j1.tf.json err.tf; do "$hclvm" eval --color=never --cache-dir "$cache" "$f" 2>&1 >/dev/null || true; done) || fail "no refusal reported"
"$hclvm" cache --cache-dir "$cache" verify > verify.out || fail "verify found bad entries after replacement: $(cat verify.out)"

# compile: one self-contained file; eval loads it without the sources.
"$hclvm" compile f1.tf f2.tf j3.tf.json -o all.hclc 2> compile.err || fail "compile: $(cat compile.err)"
mkdir elsewhere && cp all.hclc elsewhere/ && (cd elsewhere && "$hclvm" eval all.hclc > ../all.out) \
  || fail "eval of the compiled file"
cat f1.tf.want > all.want
"$hclvm" eval f2.tf >> all.want
"$hclvm" eval j3.tf.json >> all.want
cmp -s all.out all.want || fail "compiled file evaluates differently"
set +e
printf 'a = \n' > syntax.tf
"$hclvm" compile syntax.tf f1.tf -o none.hclc 2>/dev/null; rc=$?
set -e
[ "$rc" = 1 ] && [ ! -e none.hclc ] || fail "compile with errors must fail and write nothing"
head -c 100 all.hclc > short.hclc
set +e
"$hclvm" eval short.hclc 2> short.err; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "cannot load short.hclc: checksum mismatch" short.err || fail "truncated .hclc"
# A file named *.hclc is a compiled file or refused: empty, shorter than a
# header, or text, never read as a configuration.
: > empty.hclc
head -c 20 all.hclc > tiny.hclc
printf 'a = 1\n' > text.hclc
for f in empty.hclc tiny.hclc text.hclc; do
  set +e
  "$hclvm" eval "$f" > "$f.out" 2> "$f.err"; rc=$?
  set -e
  [ "$rc" = 2 ] && [ ! -s "$f.out" ] && [ "$(cat "$f.err")" = "hclvm: cannot load $f: not a compiled file" ] ||
    fail "$f: exit $rc, $(cat "$f.out" "$f.err")"
done

# check --cache: the same diagnostics, through the same entries.
set +e
"$hclvm" check --color=never err.tf f1.tf > check.want 2>&1
"$hclvm" check --color=never --cache-dir "$cache" err.tf f1.tf > check.got 2>&1
set -e
cmp -s check.want check.got || fail "check --cache differs"

# Many processes, one cache directory, at once: 8 workers evaluate all
# 32 files three times each, in different orders (the first round races to
# fill the same entries; eviction under a size bound is store_test's).
for f in f*.tf j*.tf.json; do "$hclvm" eval --color=never "$f" > "$f.want" 2>/dev/null || true; done
shared="$work/shared-cache"
worker() {
  local w=$1
  for round in 1 2 3; do
    for f in $(ls f*.tf j*.tf.json | sort -R --random-source=<(yes "$w$round")); do
      "$hclvm" eval --color=never --cache-dir "$shared" "$f" > "out.$w" 2>/dev/null || true
      cmp -s "out.$w" "$f.want" || { echo "worker $w: $f differs" > "fail.$w"; return; }
    done
  done
}
HCLVM_CACHE_DIR="$shared" "$hclvm" cache stats > /dev/null
for w in 1 2 3 4 5 6 7 8; do worker "$w" & done
wait
if ls fail.* > /dev/null 2>&1; then fail "$(cat fail.*)"; fi
"$hclvm" cache --cache-dir "$shared" verify > verify.out || fail "shared cache: $(cat verify.out)"
n=$("$hclvm" cache --cache-dir "$shared" stats | sed -n 's/^entries: //p')
[ "$n" = 32 ] || fail "shared cache holds $n entries, not 32"
"$hclvm" cache --cache-dir "$shared" clear > /dev/null
grep -q "^entries: 0$" <("$hclvm" cache --cache-dir "$shared" stats) || fail "clear"
# A module directory: eval --cache loads each of its files (the child
# module's too) through the cache, with the output eval gives without it.
mkdir -p mod/child
printf 'variable "n" {\n  default = 2\n}\nlocals {\n  l = [for i in range(var.n) : "x${i}"]\n}\nmodule "c" {\n  source = "./child"\n  v      = local.l\n}\noutput "o" { value = module.c.o }\n' > mod/main.tf
printf '{"output": {"extra": {"value": "${var.n + 1}"}}}\n' > mod/extra.tf.json
printf 'variable "v" {}\noutput "o" { value = join(",", var.v) }\n' > mod/child/main.tf
mcache="$work/module-cache"
"$hclvm" eval mod > mod.want
"$hclvm" eval --cache-dir "$mcache" mod > mod.miss
"$hclvm" eval --cache-dir "$mcache" mod > mod.hit
cmp -s mod.want mod.miss && cmp -s mod.want mod.hit || fail "module: output differs with the cache"
grep -q '"o": {"value":"x0,x1"' mod.want || fail "module: unexpected output $(cat mod.want)"
grep -q "^entries: 3$" <("$hclvm" cache --cache-dir "$mcache" stats) || fail "module: want 3 entries"
echo "cache CLI: ok"

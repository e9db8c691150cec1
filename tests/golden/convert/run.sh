#!/usr/bin/env bash
# Goldens of `hclvm json` and `hclvm ast --format json`: json/NAME.hcl
# converted must give json/NAME.json (jsonsyntax shape; corpus.sh has the
# reference read each pair as the same body) and json/NAME.hcl2json
# (hcl2json shape; hcl2json.sh has @cdktf/hcl2json convert the same
# files), byte for byte; ast/NAME.hcl gives the tree ast/NAME.json
# (`hclvm ast --format json`, as expr for expr.hcl and traversal for
# traversal.hcl). json-errors.hcl,
# which has a syntax error, must give no document, exit status 1 and the
# diagnostics `hclvm check` gives; hcl2json-refused.hcl, which hcl2json
# refuses, exit status 1 and no document in that shape.
#
#   run.sh HCLVM              compare, print a diff for each mismatch
#   run.sh HCLVM --refresh    rewrite the json/NAME.* documents from HCLVM
set -u
here="$(cd "$(dirname "$0")" && pwd)"
hclvm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
refresh=0
[ "${2:-}" = --refresh ] && refresh=1

pass=0
fail=0
check() { # name, expected text, actual text
  if [ "$2" = "$3" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -40 | sed 's/^/    /'
  fi
}

tmpdir="$(mktemp -d)"
trap 'rm -rf "$tmpdir"' EXIT
cd "$here/json"
for f in *.hcl; do
  base="${f%.hcl}"
  if [ $refresh = 1 ]; then
    "$hclvm" json "$f" > "$base.json"
    "$hclvm" json --shape hcl2json "$f" > "$base.hcl2json"
    "$hclvm" json --comments "$f" > "$base.comments.json"
    "$hclvm" json --to hcl --like "$f" "$base.comments.json" > "$base.back.native"
  fi
  check "json/$f" "$(cat "$base.json")" "$("$hclvm" json "$f")"
  check "json/$f hcl2json" "$(cat "$base.hcl2json")" "$("$hclvm" json --shape hcl2json "$f")"
  check "json/$f comments" "$(cat "$base.comments.json")" "$("$hclvm" json --comments "$f")"
  # Back to the native syntax, with the layout of the original.
  check "json/$base.comments.json to hcl" "$(cat "$base.back.native")" \
    "$("$hclvm" json --to hcl --like "$f" "$base.comments.json")"
done
# Terraform's and Packer's layouts, chosen by the file name.
for f in *.tf.json *.pkr.json; do
  if [ $refresh = 1 ]; then "$hclvm" json --to hcl "$f" > "$f.native"; fi
  check "json/$f to hcl" "$(cat "$f.native")" "$("$hclvm" json --to hcl "$f")"
done

# The shape of an hcldec spec (--spec), of a native file and of its JSON twin.
cd "$here/spec"
if [ $refresh = 1 ]; then "$hclvm" json --spec app.hcldec app.hcl > app.json; fi
check "spec/app.hcl --spec" "$(cat app.json)" "$("$hclvm" json --spec app.hcldec app.hcl)"
check "spec/app.hcl.json --spec" "$(cat app.json)" \
  "$("$hclvm" json app.hcl > "$tmpdir/app.hcl.json" && "$hclvm" json --spec app.hcldec "$tmpdir/app.hcl.json")"
cd "$here/json"

# Several files: one document keyed by path; with -o, twins in a tree.
out="$(mktemp -d)"
mkdir -p "$out/in/sub"
cp blocks.hcl "$out/in/a.hcl"
cp exprs.hcl "$out/in/sub/b.tf"
cp terraform.tf.json "$out/in/sub/c.tf.json"
(cd "$out" && "$hclvm" json in > doc.json)
check "several files: one document" "$(cd "$out" && printf '{\n  "in/a.hcl": %s,\n  "in/sub/b.tf": %s\n}' \
  "$("$hclvm" json in/a.hcl | sed '2,$s/^/  /')" "$("$hclvm" json in/sub/b.tf | sed '2,$s/^/  /')")" \
  "$(cat "$out/doc.json")"
(umask 027 && "$hclvm" json -o "$out/j" "$out/in")
# New twins get the mode the umask gives, as open() would.
check "-o: a new twin's mode" "640" "$(stat -c %a "$out/j/a.hcl.json")"
check "-o: the twins" "$(printf 'a.hcl.json\nsub/b.tf.json')" "$(cd "$out/j" && find . -type f | sed 's|^./||' | sort)"
check "-o: a twin" "$("$hclvm" json blocks.hcl)" "$(cat "$out/j/a.hcl.json")"
"$hclvm" json --to hcl -o "$out/h" "$out/in"
check "--to hcl -o: the twins" "sub/c.tf" "$(cd "$out/h" && find . -type f | sed 's|^./||' | sort)"
check "--to hcl -o: a twin" "$(cat terraform.tf.json.native)" "$(cat "$out/h/sub/c.tf")"
"$hclvm" json --to hcl "$out/in" > /dev/null 2> "$out/err"
check "--to hcl, several files without -o: usage error" \
  "hclvm: --to hcl converts several files only into a directory (-o DIR)" "$(cat "$out/err")"
rm -rf "$out"

cd "$here"
out="$("$hclvm" json --color never json-errors.hcl 2> /tmp/hclvm-convert-err.$$)"
status=$?
err="$(cat /tmp/hclvm-convert-err.$$)"
rm -f /tmp/hclvm-convert-err.$$
check "json-errors.hcl: exit status" 1 "$status"
check "json-errors.hcl: no document" "" "$out"
check "json-errors.hcl: diagnostics of check" "$("$hclvm" check --color never json-errors.hcl 2> /dev/null)" "$err"

cd "$here/ast"
for f in *.hcl; do
  as=config
  case "$f" in expr.hcl) as=expr ;; traversal.hcl) as=traversal ;; esac
  if [ $refresh = 1 ]; then "$hclvm" ast --format json --as $as "$f" > "${f%.hcl}.json"; fi
  check "ast/$f" "$(cat "${f%.hcl}.json")" "$("$hclvm" ast --format json --as $as "$f")"
done

cd "$here"
out="$("$hclvm" json --shape hcl2json hcl2json-refused.hcl 2> /dev/null)"
check "hcl2json-refused.hcl: exit status" 1 "$?"
check "hcl2json-refused.hcl: no document" "" "$out"

echo "convert golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

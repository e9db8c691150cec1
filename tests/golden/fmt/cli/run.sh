#!/usr/bin/env bash
# The command line of `hclvm fmt --mode terraform` against terraform fmt's:
# each command of COMMANDS runs in a fresh copy of a small tree (hidden
# files, .terraform/, backup and #…# files, JSON, .tfquery.hcl, test and
# mock files, an empty file, one without a final newline, a syntax error,
# a link to a directory), and its standard output, exit status and the
# files it changed must be the ones recorded from terraform fmt 1.11.4 in
# expected.txt (diagnostics on standard error are hclvm check's, not
# Terraform's, and are not compared).
#   run.sh HCLVM             compare hclvm with expected.txt
#   run.sh --record          record expected.txt from terraform on PATH
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --record ]; then
  export TF_CLI_CONFIG_FILE=/dev/null
  tool=(terraform fmt -no-color)
else
  bin=${1:?usage: run.sh HCLVM | run.sh --record}
  tool=("$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" fmt --mode terraform --color never)
fi

COMMANDS=(
  ""
  "-recursive"
  "-check -recursive"
  "-check -list=false"
  "-write=false"
  "-list=false -write=false"
  "-diff"
  "-diff -write=false -list=false"
  "-check -diff -recursive"
  "-diff -write=false -recursive sub"
  "sub"
  "./sub/"
  "sub/s.tf a.tf"
  ".hidden.tf i.tf~ q.tfquery.hcl"
  "g.hcl a.tf"
  "a.tf nope.tf c.tfvars"
  "-check bad"
  "-recursive bad sub"
)

# Writes the tree every command starts from into [dir].
make_tree() {
  local d=$1
  mkdir -p "$d/.terraform/modules" "$d/_under" "$d/sub/.hid" "$d/sub/deeper" "$d/bad"
  printf 'j=1\n' > "$d/#j.tf#"
  printf 'h=1\n' > "$d/.hidden.tf"
  printf 'm=1\n' > "$d/.terraform/modules/m.tf"
  printf 'u=1\n' > "$d/_under/u.tf"
  printf 'a=1\n' > "$d/a.tf"
  printf 'b = 1\n' > "$d/b.tf"
  printf 'c=1\n' > "$d/c.tfvars"
  printf 'run "x" {\ncommand=plan\n}\n' > "$d/d.tftest.hcl"
  printf 'mock_resource "r" {\ndefaults={}\n}\n' > "$d/e.tfmock.hcl"
  : > "$d/empty.tf"
  printf '{"f":1}\n' > "$d/f.tf.json"
  printf 'g=1\n' > "$d/g.hcl"
  printf 'i=1\n' > "$d/i.tf~"
  printf 'k=1' > "$d/nonl.tf"
  printf 'q=1\n' > "$d/q.tfquery.hcl"
  printf 'y=1\n' > "$d/sub/.hid/y.tf"
  printf 'x=1\n' > "$d/sub/deeper/x.tf"
  printf 's=1\n' > "$d/sub/s.tf"
  printf 'z = \n' > "$d/bad/zz.tf"
  # Changes 6 unchanged lines apart (one hunk), 7 apart (two), at the
  # start and at the end without a final newline.
  {
    printf 'a=1\n'
    for i in 1 2 3 4 5 6; do printf '# %s\n' "$i"; done
    printf 'b=2\n'
    for i in 1 2 3 4 5 6 7; do printf '# %s\n' "$i"; done
    printf 'c=3\n# x\nd  =  4\n'
    for i in 1 2 3 4 5 6 7 8 9; do printf '# %s\n' "$i"; done
    printf 'e=5'
  } > "$d/sub/long.tf"
  printf 'ok=1\n' > "$d/bad/ok.tf"
  # A link to a directory is not walked into.
  ln -s deeper "$d/sub/linkdir"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make_tree "$tmp/orig"
out=$tmp/transcript.txt
: > "$out"
for args in "${COMMANDS[@]}"; do
  rm -rf "$tmp/t"
  cp -r "$tmp/orig" "$tmp/t"
  rc=0
  # shellcheck disable=SC2086
  (cd "$tmp/t" && "${tool[@]}" $args > "$tmp/stdout" 2> /dev/null) || rc=$?
  {
    echo "\$ fmt $args"
    cat "$tmp/stdout"
    echo "[exit $rc]"
    (cd "$tmp/t" && find . -type f | LC_ALL=C sort | while read -r f; do
      cmp -s "$f" "$tmp/orig/$f" || { echo "changed $f:"; cat "$f"; echo; }
    done)
  } >> "$out"
done
# Standard input: the first argument "-".
for input in 'a=1' '' 'a=1\nb = 2\n'; do
  for args in "-" "-check -" "-diff -"; do
    rc=0
    # shellcheck disable=SC2086
    printf "$input" | "${tool[@]}" $args > "$tmp/stdout" 2> /dev/null || rc=$?
    { echo "\$ printf '$input' | fmt $args"; cat "$tmp/stdout"; echo "[exit $rc]"; } >> "$out"
  done
done

if [ "${1:-}" = --record ]; then
  cp "$out" "$here/expected.txt"
  echo "recorded $here/expected.txt"
else
  diff -u "$here/expected.txt" "$out"
fi

#!/bin/sh
# CLI tests that need a scratch directory or another program: how `hclvm
# check` walks trees (excludes, symbolic links and loops, unreadable paths,
# no path), its reports checked by a parser (/usr/bin/python3), compile's
# summary, output to a full disk, the completion scripts (bash) and the
# man page (groff).
#
#   cli_misc.sh HCLVM CASE
#
# Exits 0 when CASE passes, 77 when a program it needs is missing (ctest
# reports it skipped), 1 with a message otherwise.
set -u
hclvm=$1
case_name=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout" >&2; cat out >&2
  echo "--- stderr" >&2; cat err >&2
  exit 1
}
# Runs hclvm with the arguments, keeping stdout in out, stderr in err, and
# the exit status in rc.
run() {
  "$hclvm" "$@" >out 2>err
  rc=$?
}
expect_rc() { [ "$rc" = "$1" ] || fail "exit status $rc, expected $1"; }
expect_out() { grep -q -- "$1" out || fail "stdout lacks '$1'"; }
expect_err() { grep -q -- "$1" err || fail "stderr lacks '$1'"; }
no_out() { ! grep -q -- "$1" out || fail "stdout has '$1'"; }
python=/usr/bin/python3
need_python() { [ -x "$python" ] || { echo "skipped: $python not found"; exit 77; }; }

# A tree: a/ok.hcl, errors in node_modules, .terraform and vendor, a link
# to b (one more file) and a link back to a (a loop).
mkdir -p a/node_modules/m a/.terraform/modules a/vendor b
echo 'x = 1' >a/ok.hcl
echo 'x = ' >a/node_modules/m/bad.hcl
echo 'x = ' >a/.terraform/modules/bad.hcl
echo 'x = ' >a/vendor/bad.hcl
echo 'y = 2' >b/c.hcl
ln -s ../b a/link
ln -s . a/loop

case $case_name in
  excludes)
    run check --exclude vendor a
    expect_rc 0
    expect_err '^2 files checked: 0 with errors'
    run check a
    expect_rc 1
    expect_out 'a/vendor/bad.hcl'
    no_out 'node_modules'
    run check --exclude 'vendor/*' a
    expect_rc 0
    run check --no-default-excludes --exclude vendor a
    expect_rc 1
    expect_out 'a/node_modules/m/bad.hcl'
    expect_out 'a/.terraform/modules/bad.hcl'
    ;;
  symlinks)
    run check --exclude vendor a
    expect_rc 0
    expect_err '^hclvm: following symlink a/link -> ../b$'
    expect_err '^hclvm: not following symlink a/loop -> .: its directory is checked already$'
    run check --format json --exclude vendor a
    expect_rc 0
    expect_out '"files": \["a/link/c.hcl", "a/ok.hcl"\]'
    expect_out '{"path": "a/loop", "target": ".", "followed": false}'
    # A directory named twice is walked once: no second note.
    run check --exclude vendor a a
    expect_rc 0
    [ "$(grep -c 'following symlink a/link' err)" = 1 ] || fail "a/link noted twice"
    ;;
  unreadable)
    # A missing path between two good ones: reported in its turn, the rest
    # checked, exit status 2 at the end.
    run check a/ok.hcl a/gone.hcl b
    expect_rc 2
    expect_err '^hclvm: cannot read a/gone.hcl: No such file or directory$'
    expect_err '^2 files checked: 0 with errors (0 errors, 0 warnings); 1 path unreadable$'
    run check --format json a/ok.hcl a/gone.hcl b
    expect_rc 2
    expect_err '^hclvm: cannot read a/gone.hcl: No such file or directory$'
    need_python
    "$python" - out <<'EOF' || fail "json document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["valid"] is False, d
assert d["counts"] == {"files": 2, "with_errors": 0, "errors": 0, "warnings": 0, "unreadable": 1}, d
assert d["files"] == ["a/ok.hcl", "b/c.hcl"], d
assert d["unreadable"] == [{"path": "a/gone.hcl", "error": "No such file or directory"}], d
assert d["diagnostics"] == [], d
EOF
    ;;
  no_path)
    cd a || exit 1
    run check --exclude vendor
    expect_rc 0
    expect_err '^2 files checked'
    run check --format json --exclude vendor
    expect_out '"files": \["link/c.hcl", "ok.hcl"\]'
    ;;
  formats)
    need_python
    run check --format sarif a a/gone.hcl
    expect_rc 2
    "$python" - out <<'EOF' || fail "SARIF document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0"
assert len(d["runs"]) == 1
run = d["runs"][0]
assert run["tool"]["driver"]["name"] == "hclvm"
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert rules == ["hcl/invalid-expression"], rules
res = run["results"]
assert len(res) == 1, res
r = res[0]
assert r["ruleId"] == "hcl/invalid-expression" and r["ruleIndex"] == 0 and r["level"] == "error"
assert r["message"]["text"].startswith("Invalid expression")
loc = r["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "a/vendor/bad.hcl", loc
assert loc["region"]["startLine"] == 1, loc
inv = run["invocations"][0]
assert inv["executionSuccessful"] is False
assert "a/gone.hcl" in inv["toolExecutionNotifications"][0]["message"]["text"]
EOF
    run check --format checkstyle a a/gone.hcl
    expect_rc 2
    "$python" - out <<'EOF' || fail "checkstyle document"
import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
assert root.tag == "checkstyle"
files = {f.get("name"): [e.attrib for e in f] for f in root}
assert files["a/ok.hcl"] == [], files
assert files["a/vendor/bad.hcl"][0]["severity"] == "error", files
assert files["a/vendor/bad.hcl"][0]["line"] == "1", files
assert files["a/gone.hcl"][0]["source"] == "hclvm/unreadable", files
EOF
    run check --format junit a a/gone.hcl
    expect_rc 2
    "$python" - out <<'EOF' || fail "junit document"
import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites"
suite = root[0]
assert suite.get("tests") == "4" and suite.get("failures") == "1" and suite.get("errors") == "1", suite.attrib
cases = {c.get("name"): c for c in suite}
assert cases["a/vendor/bad.hcl"].find("failure") is not None
assert cases["a/ok.hcl"].find("failure") is None
assert cases["a/gone.hcl"].find("error") is not None
EOF
    # Clean: still one document each.
    for f in json sarif checkstyle junit; do
      run check --format $f b
      expect_rc 0
      [ -s out ] || fail "--format $f printed nothing for a clean tree"
    done
    ;;
  compile_plural)
    run compile -o one.hclc b/c.hcl
    expect_rc 0
    expect_err '^hclvm compile: 1 file, 1 attribute, '
    ;;
  full_output)
    # Output that cannot be written (a full disk) is an error, with a
    # message, for a value and for a whole module.
    [ -w /dev/full ] || { echo "skipped: no /dev/full"; exit 77; }
    "$hclvm" eval -e '"x"' >/dev/full 2>err
    rc=$?
    : >out
    expect_rc 1
    expect_err 'cannot write the output: No space left on device'
    mkdir m && echo 'output "o" { value = 1 }' >m/main.tf
    "$hclvm" eval m >/dev/full 2>err
    rc=$?
    expect_rc 1
    expect_err 'cannot write the output'
    "$hclvm" eval m >out 2>err
    rc=$?
    expect_rc 0
    expect_out '"o"'
    ;;
  completion)
    command -v bash >/dev/null || { echo "skipped: no bash"; exit 77; }
    "$hclvm" completion bash >hclvm.bash || fail "completion bash"
    # The words a completion of "hclvm WORDS..." offers.
    complete_words() {
      bash -c '. ./hclvm.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hclvm; echo "${COMPREPLY[*]}"' x "$@"
    }
    [ "$(complete_words hclvm ch)" = "check" ] || fail "hclvm ch<TAB>: $(complete_words hclvm ch)"
    [ "$(complete_words hclvm eval --show-s)" = "--show-sensitive" ] || fail "eval --show-s<TAB>"
    [ "$(complete_words hclvm check --form)" = "--format" ] || fail "check --form<TAB>"
    [ "$(complete_words hclvm completion z)" = "zsh" ] || fail "completion z<TAB>"
    [ "$(complete_words hclvm help fu)" = "functions" ] || fail "help fu<TAB>"
    bash -c '. ./hclvm.bash; COMP_WORDS=(hcldec --sp); COMP_CWORD=1; _hcldec; [ "${COMPREPLY[*]}" = --spec ]' ||
      fail "hcldec --sp<TAB>"
    for sh in zsh fish; do
      "$hclvm" completion $sh >c.$sh || fail "completion $sh"
      grep -q -- 'show-sensitive' c.$sh || fail "completion $sh lacks eval's flags"
      if command -v $sh >/dev/null; then $sh -n c.$sh || fail "completion $sh: syntax"; fi
    done
    if command -v fish >/dev/null; then
      [ "$(fish -c 'source c.fish; complete -C "hclvm ch"' 2>/dev/null | cut -f1)" = check ] ||
        fail "fish: hclvm ch<TAB>"
    fi
    run completion tcsh
    expect_rc 2
    ;;
  man)
    "$hclvm" help --man >hclvm.1 || fail "help --man"
    grep -q '^\.TH HCLVM 1' hclvm.1 || fail "no .TH"
    grep -q '^\.SS hclvm check' hclvm.1 || fail "no check section"
    grep -q 'show\\-sensitive' hclvm.1 || fail "eval's flags missing"
    command -v groff >/dev/null || { echo "skipped: no groff"; exit 77; }
    groff -man -Tutf8 -ww -z hclvm.1 2>warnings
    [ ! -s warnings ] || { cat warnings >&2; fail "groff warnings"; }
    ;;
  test_files)
    # A module's test files are read by check as by terraform validate: in
    # the directory and in tests/ (or --test-directory), not with --no-tests.
    mkdir -p m/tests m/spec
    printf 'variable "a" {\n  default = 1\n}\n' > m/main.tf
    printf 'run "x" {\n  command = destroy\n}\n' > m/tests/t.tftest.hcl
    printf 'run "y" {\n  bogus = 1\n}\n' > m/spec/s.tftest.hcl
    run check --format terraform-json m
    expect_rc 1
    expect_out 'Invalid \\"command\\" keyword'
    expect_out '"filename": "tests/t.tftest.hcl"'
    no_out 'bogus'
    run check --format terraform-json --no-tests m
    expect_rc 0
    expect_out '"valid": true'
    run check --format terraform-json -test-directory=spec m
    expect_rc 1
    expect_out 'An argument named \\"bogus\\" is not expected here.'
    no_out 'tests/t.tftest.hcl'
    run check --format terraform-json --test-directory nowhere m
    expect_rc 0
    expect_out 'Requested test directory nowhere does not exist.'
    # The general check reports the test file's errors once.
    run check m
    expect_rc 1
    [ "$(grep -c 'Invalid "command" keyword' out)" = 1 ] || fail "reported other than once"
    ;;
  module_limits)
    # A module's evaluation is held to the limits as a whole: a count past
    # the collection limit is an error at it, instances and the runs of
    # all expressions share the steps, and --no-limits lifts them.
    mkdir -p big many
    printf 'resource "terraform_data" "x" {\n  count = 100000000\n}\noutput "o" {\n  value = 1\n}\n' > big/main.tf
    run eval big
    expect_rc 1
    expect_err 'Collection size limit exceeded'
    expect_err 'count = 100000000'
    expect_out '"o": {"value":1'
    printf 'locals {\n  a = [for i in range(600) : i]\n  b = [for i in range(600) : i]\n}\n' > many/main.tf
    run eval --max-steps 1000 many
    expect_rc 1
    expect_err 'Evaluation step limit exceeded'
    expect_err 'line 3'
    run eval --max-steps 2000 many
    expect_rc 0
    run eval --no-limits -e 'length(local.b)' many
    expect_rc 0
    expect_out '600'
    ;;
  docs)
    # Every command of the general help and every flag of each command's
    # help is in docs/cli.md (the third argument), so the two cannot drift.
    doc=$3
    cmds=$("$hclvm" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1; next} on {exit}')
    [ -n "$cmds" ] || fail "no commands in hclvm --help"
    for c in $cmds; do
      grep -q "hclvm $c" "$doc" || { echo "docs/cli.md lacks the command $c" >&2; missing=1; }
      flags=$("$hclvm" help "$c" | awk '/^Options:/ {on = 1; next} on && /^$/ {exit}
        on && /^  -/ {sub(/^  /, ""); sub(/  .*/, ""); gsub(/,/, " "); n = split($0, w, " ");
                      for (i = 1; i <= n; i++) if (w[i] ~ /^-/) {sub(/[=[].*/, "", w[i]); print w[i]}}')
      for f in $flags; do
        grep -q -e "\`$f[\` =]" -e "\`$f\`" -e "$f [A-Z]" -e " $f[,)]" "$doc" ||
          { echo "docs/cli.md lacks $c's flag $f" >&2; missing=1; }
      done
    done
    [ -z "${missing:-}" ] || exit 1
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 1
    ;;
esac
echo "ok: $case_name"

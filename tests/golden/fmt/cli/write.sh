#!/usr/bin/env bash
# How `hclvm fmt` writes files: only files that change; through a new file
# renamed over the old one (a reader holding the old file keeps its bytes:
# the inode changes); the file's mode kept; through a symbolic link, the
# file it points to (the link stays a link); no temporary file left behind;
# a file with syntax errors untouched.
#   write.sh HCLVM
set -euo pipefail
bin=${1:?usage: write.sh HCLVM}
hclvm="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "write.sh: $*" >&2; exit 1; }

printf 'a=1\n' > a.tf
chmod 640 a.tf
printf 'b = 1\n' > b.tf
printf 'c=1\n' > target.tf
ln -s target.tf link.tf
printf 'z = \n' > bad.tf
ino_a=$(stat -c %i a.tf)
ino_b=$(stat -c %i b.tf)
rc=0
"$hclvm" fmt --color never . > out.txt 2> err.txt || rc=$?
[ $rc -eq 2 ] || fail "exit $rc, want 2 (bad.tf)"
[ "$(cat a.tf)" = "a = 1" ] || fail "a.tf not formatted"
[ "$(stat -c %a a.tf)" = 640 ] || fail "a.tf mode $(stat -c %a a.tf), want 640"
[ "$(stat -c %i a.tf)" != "$ino_a" ] || fail "a.tf written in place, not renamed over"
[ "$(stat -c %i b.tf)" = "$ino_b" ] || fail "b.tf (already formatted) was rewritten"
[ -L link.tf ] || fail "link.tf is no longer a link"
[ "$(cat target.tf)" = "c = 1" ] || fail "target.tf not formatted through link.tf"
[ "$(cat bad.tf)" = "z = " ] || fail "bad.tf changed"
grep -q '^Error: Invalid expression' err.txt || fail "no diagnostics for bad.tf"
[ "$(printf 'a.tf\nlink.tf\n')" = "$(cat out.txt)" ] || fail "listed: $(cat out.txt)"
left=$(find . -name '.*hclvm*')
[ -z "$left" ] || fail "temporary files left: $left"
echo "write.sh: ok"

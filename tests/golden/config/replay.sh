#!/bin/bash
# tests/golden/config/replay.sh HCLVM CASE OUT
# Replays the session of case directory CASE (see session.sh) through
# hclvm, whose path is HCLVM, and writes the transcript to the file OUT:
# a scratch copy of the case runs with a `terraform` shim first on PATH
# that answers `terraform console` with `hclvm console --terraform-piped`
# (terraform console's piped mode, exactly), `terraform validate
# -json` with `hclvm check --format=terraform-json .` and `terraform init`
# with nothing (hclvm reads local child modules without installing them).
set -eu
hclvm=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
case_dir=$here/$2
out=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/case"
cp -a "$case_dir/." "$work/case/"
rm -f "$work/case/expected.txt" "$work/case/expected.hclvm.txt"
cat > "$work/bin/terraform" <<SHIM
#!/bin/bash
# terraform's commands that the sessions use, answered by hclvm.
args=()
chdir=""
for a in "\$@"; do
  case "\$a" in
    -chdir=*) chdir="\${a#-chdir=}";;
    -no-color|-json|-backend=false|-state=*) ;;
    *) args+=("\$a");;
  esac
done
case "\${args[0]:-}" in
  console) exec "$hclvm" console --terraform-piped "\${args[@]:1}" \${chdir:+"\$chdir"};;
  validate) exec "$hclvm" check --format=terraform-json .;;
  init) exit 0;;
  *) echo "terraform shim: unsupported command: \$*" >&2; exit 2;;
esac
SHIM
chmod +x "$work/bin/terraform"
PATH="$work/bin:$PATH" HOME="${HOME:-/root}" "$here/session.sh" transcript.txt "$work/case"
cp "$work/case/transcript.txt" "$out"

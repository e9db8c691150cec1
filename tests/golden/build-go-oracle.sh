# Sourced by the golden generators that build a small Go program against
# the reference (tests/golden/*/oracle/main.go): GOPATH mode over the newest
# reference's sources in the shared directory (oracle-env.sh), offline, as
# the shared oracle set-up (setup-newest.sh) builds the reference's tools.
# GOPATH_HCL overrides the GOPATH. Defines build_go_oracle SRC OUT and a
# scratch $tmp directory removed on exit.
. "$(dirname "${BASH_SOURCE[0]}")/oracle-env.sh"
if [ -z "${GOPATH_HCL:-}" ] && [ ! -d "$newest_src/src/github.com/hashicorp/hcl/v2" ]; then
  echo "build-go-oracle.sh: the newest reference's sources are not in $newest_src (set HCLVM_SHARED_DIR)" >&2
  exit 2
fi
export GO111MODULE=off GOFLAGS= GOPATH="${GOPATH_HCL:-$newest_gopath}"
if [ -z "$(go env GOCACHE 2>/dev/null)" ] || [ "$(go env GOCACHE 2>/dev/null)" = off ]; then
  export GOCACHE="${TMPDIR:-/tmp}/hcl-oracle-newest-gocache"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Builds the Go program SRC, with the files EXTRA... compiled into it (such
# as oracle_lines.go here), into the binary OUT.
build_go_oracle() {
  local src=$1 out=$2 dir
  shift 2
  dir=$(mktemp -d "$tmp/oracle.XXXXXX")
  cp "$src" "$@" "$dir/"
  (cd "$dir" && go build -o "$out" .)
}

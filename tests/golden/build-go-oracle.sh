# Sourced by the golden generators that build a small Go program against
# the reference (tests/golden/*/oracle/main.go): GOPATH mode over Debian's
# Go source packages, offline, as the shared oracle set-up builds the
# reference's tools. Defines build_go_oracle SRC OUT and a scratch $tmp
# directory removed on exit.
export GO111MODULE=off GOFLAGS= GOPATH="${GOPATH_HCL:-/usr/share/gocode}"
if [ -z "$(go env GOCACHE 2>/dev/null)" ] || [ "$(go env GOCACHE 2>/dev/null)" = off ]; then
  export GOCACHE="${TMPDIR:-/tmp}/hcl-oracle-gocache"
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

# Sourced by the golden generators that build a small Go program against
# the reference (tests/golden/*/oracle/main.go): GOPATH mode over Debian's
# Go source packages, offline, as ../../shared/oracle/setup.sh builds the
# reference's tools. Defines build_go_oracle SRC OUT and a scratch $tmp
# directory removed on exit.
export GO111MODULE=off GOFLAGS= GOPATH="${GOPATH_HCL:-/usr/share/gocode}"
if [ -z "$(go env GOCACHE 2>/dev/null)" ] || [ "$(go env GOCACHE 2>/dev/null)" = off ]; then
  export GOCACHE="${TMPDIR:-/tmp}/hcl-oracle-gocache"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Builds the Go program SRC into the binary OUT.
build_go_oracle() {
  go build -o "$2" "$1"
}

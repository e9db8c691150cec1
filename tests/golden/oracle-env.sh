# Sourced by the golden generators and the conformance scripts: where the
# newest reference (hcl v2.24.0 + go-cty v1.18.1, built by the shared
# directory's oracle/setup-newest.sh) and its sources are.
#
#   $shared        the shared directory: $HCLVM_SHARED_DIR, or `shared`
#                  beside the repository
#   $newest_bin    the newest reference's tools (hcldec, hclspecsuite,
#                  hclfmt, gohcl-bench): $HCL_ORACLE_NEWEST_BIN, default
#                  /opt/hcl-oracle/newest/bin
#   $newest_src    the newest reference's Go sources ($shared/oracle/newest)
#   $newest_gopath the GOPATH that builds a Go program against them, as
#                  setup-newest.sh builds the tools: the newest sources, the
#                  stand-ins for two packages of newer Go standard libraries,
#                  then Debian's Go source packages for the rest
#   $newest_tests  the newest reference's official conformance suite
#                  (hcl's specsuite/tests)
_oracle_env_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
shared="${HCLVM_SHARED_DIR:-$(dirname "$_oracle_env_repo")/shared}"
newest_bin="${HCL_ORACLE_NEWEST_BIN:-/opt/hcl-oracle/newest/bin}"
newest_src="$shared/oracle/newest"
newest_gopath="$newest_src:$newest_src/compat:/usr/share/gocode"
newest_tests="$newest_src/src/github.com/hashicorp/hcl/v2/specsuite/tests"
unset _oracle_env_repo

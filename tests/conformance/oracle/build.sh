#!/usr/bin/env bash
# Builds the reference's hcldec with the extensions of ext.go into OUT:
#
#   tests/conformance/oracle/build.sh OUT
#
# The reference's sources are the newest reference's (hcl v2.24.0 + go-cty
# v1.18.1, in the shared directory: ../../golden/oracle-env.sh; GOPATH mode,
# offline); they are copied to a scratch directory and two of
# their functions renamed so that ext.go can wrap them, and the input body is
# passed through ext.go's expandInput before decoding (and variablesOf for
# --var-refs). Nothing of the
# reference is kept in this repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUT}
source "$here/../../golden/build-go-oracle.sh"
src="$newest_src/src/github.com/hashicorp/hcl/v2/cmd/hcldec"
[ -d "$src" ] || { echo "build.sh: $src not found" >&2; exit 2; }
mkdir -p "$tmp/hcldec"
for f in "$src"/*.go; do
  case "$f" in *_test.go) continue ;; esac
  cp "$f" "$tmp/hcldec/"
done
sed -i 's/^func evalTypeExpr(/func evalTypeExprOrig(/' "$tmp/hcldec/type_expr.go"
sed -i 's/^func decodeAttrSpec(/func decodeAttrSpecOrig(/' "$tmp/hcldec/spec.go"
# block_attrs: the reference decodes the block but leaves it out of its schema.
sed -i 's/^\t"transform",$/\t"transform",\n\t"block_attrs",/' "$tmp/hcldec/spec.go"
sed -i 's/hcldec\.Decode(body, spec, ctx)/hcldec.Decode(expandInput(body, ctx), spec, ctx)/' \
  "$tmp/hcldec/main.go"
sed -i 's/hcldec\.Variables(body, spec)/variablesOf(body, spec)/' "$tmp/hcldec/main.go"
grep -q 'expandInput(body, ctx)' "$tmp/hcldec/main.go" && grep -q 'variablesOf(body, spec)' "$tmp/hcldec/main.go" &&
  grep -q '"block_attrs",' "$tmp/hcldec/spec.go" ||
  { echo "build.sh: the reference's main.go has changed shape" >&2; exit 2; }
cp "$here/ext.go" "$tmp/hcldec/"
(cd "$tmp/hcldec" && go build -o "$out" .)

#!/usr/bin/env bash
# Builds the release `hclvm` and checks the shipped examples: examples/ok
# (a Terraform module, a Packer template, a Nomad job) must be clean, and
# examples/errors shows what diagnostics look like. Exits 0 when both behave
# as expected. Installs missing build dependencies first (scripts/configure.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/configure.sh release
cmake --build --preset release -j"${JOBS:-2}" --target hclvm
hclvm=build/release/hclvm

echo
echo "\$ hclvm check examples/ok"
"$hclvm" check examples/ok

echo
echo "\$ hclvm check examples/errors        # files with deliberate syntax errors"
status=0
"$hclvm" check examples/errors || status=$?
if [ "$status" -ne 1 ]; then
  echo "run-example.sh: expected exit status 1 for examples/errors, got $status" >&2
  exit 1
fi

echo
echo "\$ hclvm eval examples/eval/app.tf --vars-file examples/eval/vars.json --format hcl"
"$hclvm" eval examples/eval/app.tf --vars-file examples/eval/vars.json --format hcl

echo
echo "\$ hclvm eval examples/eval/app.tf.json --vars-file examples/eval/vars.json   # the JSON syntax"
"$hclvm" eval examples/eval/app.tf.json --vars-file examples/eval/vars.json

echo
echo "\$ hclvm bench -e 'upper(join(\"-\", zones))' --vars-file examples/eval/vars.json --benchtime 200ms"
"$hclvm" bench -e 'upper(join("-", zones))' --vars-file examples/eval/vars.json --benchtime 200ms

echo
echo "run-example.sh: examples/ok is clean; examples/errors reported its errors (exit status 1);"
echo "examples/eval evaluated in both syntaxes."

#!/bin/sh
# The Node.js addon against the library of a build: installs the build
# into a scratch prefix, builds node/ with CMake against it and runs the
# node:test suite. Exits 77 (skipped) without node or without
# node-addon-api in node/node_modules (scripts/configure.sh runs npm ci).
#
# usage: run.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR CXX [LAUNCHER]
set -eu

cmake=$1 build=$2 src=$3 work=$4 cxx=$5 launcher=${6:-}

skip() { echo "node: skipped: $*"; exit 77; }
fail() { echo "node: $*" >&2; exit 1; }

command -v node > /dev/null || skip "no node"
(cd "$src/node" && node -e 'require.resolve("node-addon-api/package.json")') 2> /dev/null ||
  skip "no node-addon-api in node/node_modules (run: cd node && npm ci)"

mkdir -p "$work"
rm -rf "$work/prefix"
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log" ||
  fail "cmake --install failed (see $work/install.log)"
"$cmake" -S "$src/node" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DHCLVM_NODE_WERROR=ON > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring node/ failed"; }
"$cmake" --build "$work/build" --target hclvm_node > "$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building the addon failed"; }

cd "$src/node"
HCLVM_NODE_ADDON=$work/build/hclvm.node node --test test/

#!/usr/bin/env bash
# scripts/configure.sh PRESET
# Installs the Debian 12 packages hclvm builds and tests with, those that are
# missing only (with sudo unless root), then configures the CMake preset
# PRESET, through ccache when it is there (and npm ci in node/ for the
# Node.js addon). Used by scripts/test.sh and
# scripts/run-example.sh.
set -euo pipefail
preset=${1:?usage: scripts/configure.sh PRESET}
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build re2c bison libmpfr-dev libgmp-dev
          libutf8proc-dev libre2-dev libssl-dev libcrypt-dev zlib1g-dev libyaml-dev libxxhash-dev
          libgtest-dev libgmock-dev libbenchmark-dev pkg-config ccache
          # hclvm console's line editing (BSD licence; optional in CMake)
          libedit-dev
          # examples/server: its HTTP libraries, curl for its test, wrk for its load test
          libcpp-httplib-dev libboost-dev curl wrk
          # the Python package (python/): pybind11 and pytest
          pybind11-dev python3-pytest python3-venv python3-dev python3-wheel)

# The sanitizer and libFuzzer builds use clang and its runtimes (llvm for
# the symbolizer that names frames in sanitizer reports).
if [ "$preset" = fuzz ] || [ "$preset" = asan ]; then
  packages+=(clang libclang-rt-14-dev llvm)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "configure.sh: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "configure.sh: need root or sudo to install packages" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The Node.js addon's build dependency (node-addon-api, header-only) from
# npm into node/node_modules, as node/package-lock.json pins it; without
# node or the registry the ctest `node` is skipped.
if command -v npm >/dev/null && [ ! -f node/node_modules/node-addon-api/napi.h ]; then
  (cd node && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "configure.sh: npm ci in node/ failed; the Node.js tests will be skipped" >&2
fi

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset "$preset" "${launcher[@]}"

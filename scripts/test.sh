#!/usr/bin/env bash
# Builds hclvm and runs its whole test suite, from a clean clone on Debian 12:
# installs the build dependencies that are missing (with sudo unless root),
# configures the `ci` preset (release build, warnings are errors), builds and
# runs ctest. ccache is used when present. JOBS sets the parallelism
# (default 2). The last lines printed are ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build re2c bison libmpfr-dev libgmp-dev
          libutf8proc-dev libgtest-dev libgmock-dev libbenchmark-dev pkg-config ccache)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "test.sh: need root or sudo to install packages" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

jobs=${JOBS:-2}
cmake --preset ci "${launcher[@]}"
cmake --build --preset ci -j"$jobs"
ctest --preset ci -j"$jobs"

#!/bin/sh
# The Python package against the library of a build: installs the build
# into a scratch prefix, builds the extension against it in a virtual
# environment (pip, offline, setuptools driving CMake), and runs the
# pytest suite. Exits 77 (skipped) when pybind11, Python's headers, venv
# or pytest are missing.
#
# usage: run.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR CXX [LAUNCHER]
# WORK_DIR keeps the environment and the extension's build between runs.
set -eu

cmake=$1 build=$2 src=$3 work=$4 cxx=$5 launcher=${6:-}
python=/usr/bin/python3

skip() { echo "python: skipped: $*"; exit 77; }
fail() { echo "python: $*" >&2; exit 1; }

[ -x $python ] || skip "no $python (Debian's python3)"
$python -c 'import venv, ensurepip' 2>/dev/null || skip "no venv module (apt-get install python3-venv)"
$python -c 'import pytest' 2>/dev/null || skip "no pytest (apt-get install python3-pytest)"
inc=$($python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$inc/Python.h" ] || skip "no Python headers in $inc (apt-get install python3-dev)"
found=
for d in /usr/include /usr/local/include ${PYBIND11_INCLUDE_DIR:-}; do
  [ -f "$d/pybind11/pybind11.h" ] && found=$d
done
[ -n "$found" ] || skip "no pybind11 headers (apt-get install pybind11-dev)"

mkdir -p "$work"
rm -rf "$work/prefix"
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log" ||
  fail "cmake --install failed (see $work/install.log)"

venv=$work/venv
if [ ! -x "$venv/bin/python" ]; then
  $python -m venv --system-site-packages "$venv" || fail "cannot make a virtual environment"
fi

HCLVM_PREFIX=$work/prefix HCLVM_PYTHON_BUILD_DIR=$work/cmake \
HCLVM_CMAKE_ARGS="-DHCLVM_PYTHON_WERROR=ON -DCMAKE_CXX_COMPILER=$cxx -DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" \
  "$venv/bin/pip" install --no-build-isolation --no-index --no-deps --force-reinstall -q "$src/python" \
  > "$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; fail "pip install failed"; }

cd "$work"
HCLVM_SOURCE_DIR=$src "$venv/bin/python" -m pytest -q -p no:cacheprovider "$src/python/tests"

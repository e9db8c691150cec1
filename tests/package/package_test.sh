#!/bin/sh
# shellcheck disable=SC2046,SC2086 # launcher, flags and pkg-config output are word lists
# The installed package, as a project outside this one uses it: installs
# the build into a scratch prefix, builds examples/consumer against it with
# find_package (shared library, then static) and with pkg-config (shared,
# then static from Libs.private and Requires.private), and runs each.
#
# usage: package_test.sh CMAKE GENERATOR BUILD_DIR SOURCE_DIR WORK_DIR CXX [LAUNCHER [FLAGS]]
# WORK_DIR is emptied first and kept afterwards; its paths stay the same
# from run to run, so a compiler launcher (ccache) finds its earlier work.
set -eu

cmake=$1 generator=$2 build=$3 src=$4 work=$5 cxx=$6
launcher=${7:-} flags=${8:-}
prefix=$work/prefix

fail() { echo "package test: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" ||
  fail "cmake --install failed (see $work/install.log)"

"$prefix/bin/hclvm" --version > /dev/null || fail "installed hclvm does not run"
"$prefix/bin/hcldec" --version > /dev/null || fail "installed hcldec does not run"
for f in share/man/man1/hclvm.1 share/bash-completion/completions/hclvm \
         share/bash-completion/completions/hcldec share/zsh/site-functions/_hclvm \
         share/fish/vendor_completions.d/hclvm.fish share/doc/hclvm/cli.md share/doc/hclvm/README.md; do
  [ -s "$prefix/$f" ] || fail "cmake --install did not install $f"
done

# shellcheck disable=SC2016 # HCL, not shell
expr='{
  summary = format("%s has %d ports", upper(name), length(ports))
  urls    = [for p in ports : "http://${name}:${p + 8000}"]
  build   = regex("[0-9]+", "build-42")
}'
vars='{"name": "web", "ports": [80, 443]}'
want='{"build":"42","summary":"WEB has 2 ports","urls":["http://web:8080","http://web:8443"]}'

# check NAME PROGRAM: runs the consumer PROGRAM and compares its output.
check() {
  got=$("$2" "$expr" "$vars") || fail "$1: the consumer failed"
  [ "$got" = "$want" ] || fail "$1: got $got, want $want"
  echo "$1: ok"
}

# A CMake consumer, linked to the shared library, then to the static one.
for variant in shared static; do
  static=OFF
  [ $variant = static ] && static=ON
  "$cmake" -S "$src/examples/consumer" -B "$work/$variant" -G "$generator" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_FLAGS="$flags" \
    -DHCLVM_CONSUMER_STATIC=$static > "$work/$variant.log" 2>&1 ||
    fail "configuring the $variant consumer failed (see $work/$variant.log)"
  "$cmake" --build "$work/$variant" >> "$work/$variant.log" 2>&1 ||
    fail "building the $variant consumer failed (see $work/$variant.log)"
  check "cmake $variant" "$work/$variant/consumer"
done
# The shared consumer loads libhclvm.so; the static one has hclvm inside.
ldd "$work/shared/consumer" | grep -q 'libhclvm\.so' || fail "cmake shared: libhclvm.so not linked"
if ldd "$work/static/consumer" | grep -q 'libhclvm\.so'; then
  fail "cmake static: libhclvm.so linked"
fi

# The same program through pkg-config.
pc=$(find "$prefix" -name hclvm.pc)
[ -n "$pc" ] || fail "no hclvm.pc installed"
export PKG_CONFIG_PATH="${pc%/hclvm.pc}${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
libdir=$(pkg-config --variable=libdir hclvm)
$launcher "$cxx" -std=c++20 $flags -c "$src/examples/consumer/main.cpp" -o "$work/main.o" \
  $(pkg-config --cflags hclvm) || fail "pkg-config: compiling failed"
"$cxx" $flags "$work/main.o" -o "$work/pc-shared" $(pkg-config --libs hclvm) \
  -Wl,-rpath,"$libdir" || fail "pkg-config: linking the shared library failed"
check "pkg-config shared" "$work/pc-shared"
"$cxx" $flags "$work/main.o" -o "$work/pc-static" "$libdir/libhclvm.a" \
  $(pkg-config --static --libs hclvm | sed 's/-lhclvm//') ||
  fail "pkg-config: linking the static library failed"
check "pkg-config static" "$work/pc-static"

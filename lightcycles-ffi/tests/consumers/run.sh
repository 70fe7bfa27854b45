#!/usr/bin/env bash
# The consumer tests of an installed liblightcycles: install into a fresh
# temporary prefix with lightcycles-ffi/install.sh, then build the C program
# (consumer.c) and the C++17 program (consumer.cpp, on lightcycles.hpp)
# against that prefix through pkg-config and through CMake find_package,
# each with the shared and with the static library, and run all eight. A
# shared build must ask for the SONAME; a static one must not need the
# shared library at all.
#
#   lightcycles-ffi/tests/consumers/run.sh [--no-build]
#
# Needs cc, c++, pkg-config and cmake (.ci/run installs the last two);
# --no-build installs the release library cargo built last.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
PREFIX="$WORK/prefix"

for tool in cc c++ pkg-config cmake readelf; do
  command -v "$tool" >/dev/null 2>&1 || { echo "consumers: $tool is missing" >&2; exit 1; }
done

"$ROOT/lightcycles-ffi/install.sh" --prefix "$PREFIX" "$@"
# Only the prefix: no path into the source tree or cargo's target directory.
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH
VERSION="$(pkg-config --modversion lightcycles)"
MAJOR_MINOR="$(echo "$VERSION" | cut -d. -f1,2)"
SONAME="$(readlink "$PREFIX/lib/liblightcycles.so")"

passed=0
check_run() {  # NAME EXE KIND(shared|static)
  local name="$1" exe="$2" kind="$3" needed
  needed="$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(liblightcycles[^]]*\)\].*/\1/p')"
  if [ "$kind" = shared ] && [ "$needed" != "$SONAME" ]; then
    echo "consumers: $name needs '${needed}', not the SONAME $SONAME" >&2; exit 1
  fi
  if [ "$kind" = static ] && [ -n "$needed" ]; then
    echo "consumers: $name is meant to be static but needs $needed" >&2; exit 1
  fi
  printf '%-22s ' "$name:"
  "$exe"
  passed=$((passed + 1))
}

echo "--- pkg-config (lightcycles $VERSION, SONAME $SONAME)"
B="$WORK/pkg-config"; mkdir -p "$B"
LIBDIR="$(pkg-config --variable=libdir lightcycles)"
cc -std=c11 -Wall -Wextra -Werror -O2 "$HERE/consumer.c" $(pkg-config --cflags --libs lightcycles) \
  -Wl,-rpath,"$LIBDIR" -o "$B/c_shared"
cc -std=c11 -Wall -Wextra -Werror -O2 "$HERE/consumer.c" $(pkg-config --cflags --libs lightcycles-static) \
  -o "$B/c_static"
c++ -std=c++17 -Wall -Wextra -Werror -O2 "$HERE/consumer.cpp" $(pkg-config --cflags --libs lightcycles) \
  -Wl,-rpath,"$LIBDIR" -o "$B/cpp_shared"
c++ -std=c++17 -Wall -Wextra -Werror -O2 "$HERE/consumer.cpp" $(pkg-config --cflags --libs lightcycles-static) \
  -o "$B/cpp_static"
for exe in c_shared c_static cpp_shared cpp_static; do
  check_run "pkg-config $exe" "$B/$exe" "${exe#*_}"
done

echo "--- CMake find_package(lightcycles $MAJOR_MINOR)"
B="$WORK/cmake"
cmake -S "$HERE" -B "$B" -DCMAKE_PREFIX_PATH="$PREFIX" -DLIGHTCYCLES_VERSION="$MAJOR_MINOR" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" \
  >"$WORK/cmake.log" || { cat "$WORK/cmake.log" >&2; exit 1; }
grep "lightcycles $VERSION from" "$WORK/cmake.log" | sed 's/^-- /  /'
cmake --build "$B" --parallel 2 >"$WORK/build.log" || { cat "$WORK/build.log" >&2; exit 1; }
for exe in c_shared c_static cpp_shared cpp_static; do
  check_run "cmake $exe" "$B/$exe" "${exe#*_}"
done

# The version file: another minor version before 1.0 is not compatible.
mkdir -p "$WORK/too-new"
cat >"$WORK/too-new/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(too_new NONE)
find_package(lightcycles $(echo "$MAJOR_MINOR" | awk -F. '{ print $1 "." $2 + 1 }') QUIET)
if(lightcycles_FOUND)
  message(FATAL_ERROR "a newer minor version was accepted")
endif()
CMAKE
cmake -S "$WORK/too-new" -B "$WORK/too-new/build" -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null

echo "consumers: $passed of 8 programs built against $PREFIX and ran"
[ "$passed" = 8 ]

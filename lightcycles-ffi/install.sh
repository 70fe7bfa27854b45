#!/usr/bin/env bash
# Installs liblightcycles for C and C++ users under a prefix, as C libraries
# install: the headers, the static library, the shared library under its
# SONAME (liblightcycles.so.0.MINOR before 1.0) with the usual links, a
# pkg-config file for each (lightcycles, lightcycles-static) and a CMake
# config package (lightcycles::lightcycles, lightcycles::lightcycles_static).
#
#   lightcycles-ffi/install.sh [--prefix DIR] [--libdir DIR] [--destdir DIR] [--no-build]
#
# --prefix   where the files go (default /usr/local)
# --libdir   the library directory, relative to the prefix (default lib)
# --destdir  a staging root put before every path (packagers); the files
#            still name the prefix
# --no-build install what `cargo build --release -p lightcycles-ffi` built
#            last, without running cargo
#
# Cargo's target directory is $CARGO_TARGET_DIR, else target/ of the
# workspace. Linux and other ELF systems only. docs/c-api.md shows the use.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIST="$ROOT/lightcycles-ffi/dist"
PREFIX=/usr/local
LIBDIR=lib
DESTDIR=""
BUILD=1

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --prefix=*) PREFIX="${1#*=}"; shift ;;
    --libdir) LIBDIR="$2"; shift 2 ;;
    --libdir=*) LIBDIR="${1#*=}"; shift ;;
    --destdir) DESTDIR="$2"; shift 2 ;;
    --destdir=*) DESTDIR="${1#*=}"; shift ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "install.sh: unknown argument $1" >&2; usage 2 >&2 ;;
  esac
done
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
case "$LIBDIR" in /*|*..*) echo "install.sh: --libdir is relative to the prefix, without .." >&2; exit 2 ;; esac
LIBDIR="${LIBDIR%/}"

if [ "$BUILD" = 1 ]; then
  (cd "$ROOT" && cargo build --release --locked -p lightcycles-ffi)
fi
BUILT="${CARGO_TARGET_DIR:-$ROOT/target}/release"
for f in liblightcycles.a liblightcycles.so; do
  [ -f "$BUILT/$f" ] || { echo "install.sh: $BUILT/$f is missing: build it (drop --no-build)" >&2; exit 1; }
done

# The version, from Cargo (…#lightcycles-ffi@0.1.0 or …#0.1.0).
PKGID="$(cd "$ROOT" && cargo pkgid -p lightcycles-ffi)"
VERSION="${PKGID##*[#@]}"
MAJOR="${VERSION%%.*}"
REST="${VERSION#*.}"
MINOR="${REST%%.*}"
# The SONAME rule of lightcycles-ffi/build.rs.
if [ "$MAJOR" = 0 ]; then SONAME="liblightcycles.so.0.$MINOR"; else SONAME="liblightcycles.so.$MAJOR"; fi
REALNAME="liblightcycles.so.$VERSION"
if command -v readelf >/dev/null 2>&1; then
  readelf -d "$BUILT/liblightcycles.so" | grep -q "Library soname: \[$SONAME\]" \
    || { echo "install.sh: $BUILT/liblightcycles.so has no SONAME $SONAME" >&2; exit 1; }
fi

# What the static library needs from the system: the native libraries of
# the Rust standard library, as rustc reports them for this target (the
# empty library it builds to say so goes to a directory removed on exit).
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
NATIVE_LIBS="$(echo "" | rustc --crate-type staticlib --print native-static-libs -o "$SCRATCH/empty.a" - 2>&1 \
  | sed -n 's/^note: native-static-libs: //p' | sed 's/ -lc$//')"
[ -n "$NATIVE_LIBS" ] || NATIVE_LIBS="-lgcc_s -lutil -lrt -lpthread -lm -ldl"
NATIVE_LIBS_CMAKE="$(echo "$NATIVE_LIBS" | sed 's/-l//g; s/ /;/g')"
URL="$(sed -n 's/^repository = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -n 1)"
SIZEOF_VOID_P="$(getconf LONG_BIT)"; SIZEOF_VOID_P=$((SIZEOF_VOID_P / 8))
# From lib/cmake/lightcycles back up to the prefix: one .. per level.
CONFIG_TO_PREFIX="$(echo "$LIBDIR/cmake/lightcycles" | sed 's|[^/][^/]*|..|g')"

fill() {
  sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@LIBDIR@|\${prefix}/$LIBDIR|g" -e "s|@LIBDIR_REL@|$LIBDIR|g" \
      -e "s|@VERSION@|$VERSION|g" -e "s|@VERSION_MAJOR@|$MAJOR|g" -e "s|@VERSION_MINOR@|$MINOR|g" \
      -e "s|@VERSION_MAJOR_MINOR@|$MAJOR.$MINOR|g" -e "s|@SONAME@|$SONAME|g" -e "s|@REALNAME@|$REALNAME|g" \
      -e "s|@NATIVE_LIBS@|$NATIVE_LIBS|g" -e "s|@NATIVE_LIBS_CMAKE@|$NATIVE_LIBS_CMAKE|g" -e "s|@URL@|$URL|g" \
      -e "s|@SIZEOF_VOID_P@|$SIZEOF_VOID_P|g" -e "s|@CONFIG_TO_PREFIX@|$CONFIG_TO_PREFIX|g" "$1"
}

DEST="$DESTDIR$PREFIX"
install -d "$DEST/include" "$DEST/$LIBDIR/pkgconfig" "$DEST/$LIBDIR/cmake/lightcycles"
install -m 644 "$ROOT/include/lightcycles.h" "$DEST/include/"
[ ! -f "$ROOT/include/lightcycles.hpp" ] || install -m 644 "$ROOT/include/lightcycles.hpp" "$DEST/include/"
install -m 644 "$BUILT/liblightcycles.a" "$DEST/$LIBDIR/liblightcycles.a"
install -m 755 "$BUILT/liblightcycles.so" "$DEST/$LIBDIR/$REALNAME"
ln -sfn "$REALNAME" "$DEST/$LIBDIR/$SONAME"
ln -sfn "$SONAME" "$DEST/$LIBDIR/liblightcycles.so"
fill "$DIST/lightcycles.pc.in" > "$DEST/$LIBDIR/pkgconfig/lightcycles.pc"
fill "$DIST/lightcycles-static.pc.in" > "$DEST/$LIBDIR/pkgconfig/lightcycles-static.pc"
fill "$DIST/lightcycles-config.cmake.in" > "$DEST/$LIBDIR/cmake/lightcycles/lightcycles-config.cmake"
fill "$DIST/lightcycles-config-version.cmake.in" > "$DEST/$LIBDIR/cmake/lightcycles/lightcycles-config-version.cmake"
chmod 644 "$DEST/$LIBDIR/pkgconfig/"*.pc "$DEST/$LIBDIR/cmake/lightcycles/"*.cmake

echo "installed liblightcycles $VERSION (SONAME $SONAME) under $DEST:"
(cd "$DEST" && find include/lightcycles.h* "$LIBDIR"/liblightcycles* "$LIBDIR/pkgconfig/lightcycles"*.pc \
  "$LIBDIR/cmake/lightcycles" -maxdepth 0 -print 2>/dev/null | sed 's/^/  /')

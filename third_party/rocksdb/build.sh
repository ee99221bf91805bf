#!/bin/sh
# Builds RocksDB 7.8.3 -- the version Debian 12 ships as librocksdb-dev -- from Debian's
# own source package, in release mode, and installs it (static library, headers, CMake
# package) under PREFIX, whose lib/cmake/rocksdb the Makefile hands to CMake (RocksDB_DIR).
#
#   sh third_party/rocksdb/build.sh PREFIX
#
# Why not Debian's library: it is built without NDEBUG and without SSE4.2, so its
# assertions and test sync points run on every write, and the WAL's CRC32C is computed
# a byte at a time (bench/README.md, stop 45: a create cost 19% less CPU with this
# build). Same version, same patches (debian/patches), same compression libraries, so
# the on-disk format and the API are the ones the Debian package gave.
#
# Sources: Debian's archive (the registry the build already installs packages from),
# checked against the SHA-256 sums of rocksdb_7.8.3-2.dsc. About 4 minutes on 2 cores
# (5 with every source), once per PREFIX (ccache, where present, makes a rebuild fast). PREFIX is left
# untouched until the build succeeded.
set -eu

PREFIX=${1:?usage: build.sh PREFIX}
HERE=$(cd "$(dirname "$0")" && pwd)
VERSION=7.8.3
DEBIAN_REVISION=2
ARCHIVE=${ORRERY_DEBIAN_ARCHIVE:-http://deb.debian.org/debian}/pool/main/r/rocksdb
ORIG=rocksdb_$VERSION.orig.tar.gz
ORIG_SHA256=b85408a374770897332bf15e51620a5f35720dd416a4749e3899057f9cfaf84d
DEBIAN=rocksdb_$VERSION-$DEBIAN_REVISION.debian.tar.xz
DEBIAN_SHA256=4ead930612734d2b79e8f5e72e51659004c5a47f8d6bb90dea8eb42fd6d88a02
JOBS=${JOBS:-$(nproc)}

WORK="$PREFIX.work"
rm -rf "$WORK"
mkdir -p "$WORK"

fetch() {  # fetch FILE SHA256
  curl -fsS --retry 5 --retry-delay 2 -o "$WORK/$1" "$ARCHIVE/$1"
  echo "$2  $WORK/$1" | sha256sum -c --quiet -
}
fetch "$ORIG" "$ORIG_SHA256"
fetch "$DEBIAN" "$DEBIAN_SHA256"

SRC="$WORK/rocksdb-$VERSION"
tar -xzf "$WORK/$ORIG" -C "$WORK"
tar -xJf "$WORK/$DEBIAN" -C "$SRC"
while read -r patch; do
  case "$patch" in '' | '#'*) continue ;; esac
  patch -d "$SRC" -p1 -s <"$SRC/debian/patches/$patch"
done <"$SRC/debian/patches/series"

# The sources nothing Orrery links (unused_sources.txt says how they were found), out of
# the library: a quarter of its code, and of its compile time. The library Orrery links
# is the same either way: a static library's members are linked only when referenced.
# ORRERY_ROCKSDB_ALL_SOURCES=1 builds them all.
if [ -z "${ORRERY_ROCKSDB_ALL_SOURCES:-}" ]; then
  while read -r source; do
    case "$source" in '' | '#'*) continue ;; esac
    sed -i "\|^[[:space:]]*$source[[:space:]]*\$|d" "$SRC/CMakeLists.txt"
  done <"$HERE/unused_sources.txt"
fi

LAUNCHER=""
command -v ccache >/dev/null 2>&1 && LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
GENERATOR="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && GENERATOR=Ninja
# Debian's flags (debian/rules) but for the build type, SSE4.2 and PCLMUL (compiled in,
# so the library needs a CPU that has them: every x86-64 server CPU of the last decade),
# and no tools or tests.
# Orrery derives its own classes from RocksDB's, so RTTI stays on as in Debian's build.
# shellcheck disable=SC2086  # LAUNCHER is a list of flags
cmake -S "$SRC" -B "$WORK/build" -G "$GENERATOR" $LAUNCHER \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$WORK/install" -DCMAKE_INSTALL_LIBDIR=lib \
  -DPORTABLE=ON -DFORCE_SSE42=ON -DUSE_RTTI=ON -DFAIL_ON_WARNINGS=OFF \
  -DWITH_LZ4=ON -DWITH_ZSTD=ON -DWITH_SNAPPY=ON -DWITH_ZLIB=ON -DWITH_BZ2=ON -DWITH_GFLAGS=OFF \
  -DROCKSDB_BUILD_SHARED=OFF -DWITH_TESTS=OFF -DWITH_ALL_TESTS=OFF -DWITH_TOOLS=OFF \
  -DWITH_CORE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=OFF >"$WORK/configure.log"
cmake --build "$WORK/build" -j "$JOBS" --target install >"$WORK/build.log" ||
  { tail -50 "$WORK/build.log"; exit 1; }

rm -rf "$PREFIX"
mv "$WORK/install" "$PREFIX"
rm -rf "$WORK"
echo "RocksDB $VERSION (release) installed in $PREFIX"

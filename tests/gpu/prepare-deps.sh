#!/usr/bin/env bash
# Fills .deps/ (git-ignored, ARENA_DEPS_DIR) with what a GPU machine without network may lack:
# Random123 headers, tinyxml2 (arena-score), bubblewrap (the agent sandbox) and libseccomp
# (confined workers), taken from
# this machine's Debian packages. Carry .deps to the GPU machine with the working tree.
set -euo pipefail
cd "$(dirname "$0")/../.."
deps=$PWD/.deps
mkdir -p "$deps/usr/include"
[ -d /usr/include/Random123 ] || { echo "Random123 headers missing here: apt-get install librandom123-dev" >&2; exit 1; }
cp -r /usr/include/Random123 "$deps/usr/include/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download libtinyxml2-9 libtinyxml2-dev bubblewrap libseccomp2 libseccomp-dev >/dev/null 2>&1) ||
  { echo "apt-get download failed (needs Debian's package registry)" >&2; exit 1; }
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$deps"; done
# Python wheels for the GPU machine's Python 3.12 (no network there): triton2triton's baseline
# packages at their pins, and SQLAlchemy, which flag-gems imports for its tuning cache.
# tests/gpu/evidence.sh installs them into .deps/python and puts that on PYTHONPATH.
rm -rf "$deps/wheels"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$deps/wheels" --require-hashes -r suites/triton2triton/requirements.txt >/dev/null ||
  { echo "pip download of suites/triton2triton/requirements.txt failed (needs PyPI)" >&2; exit 1; }
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$deps/wheels" sqlalchemy==2.0.48 greenlet==3.2.4 >/dev/null ||
  { echo "pip download of sqlalchemy failed (needs PyPI)" >&2; exit 1; }
echo "filled $deps:"
ls "$deps/wheels"
ls "$deps/usr/bin" "$deps/usr/include" "$deps/usr/lib/x86_64-linux-gnu"

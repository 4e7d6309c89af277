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
echo "filled $deps:"
ls "$deps/usr/bin" "$deps/usr/include" "$deps/usr/lib/x86_64-linux-gnu"

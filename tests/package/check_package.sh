#!/usr/bin/env bash
# The KernelArena package end to end, as a user would use it (docs/package.md):
#   relocated  install this build to a prefix, check no installed file names the source or
#              build tree, move the prefix, then configure, build and test
#              examples/hpc-project against the moved prefix: its unit tests and compile
#              gates pass, its GPU gates pass or skip (no GPU), the gate family is complete;
#              find_package's version check takes 0.1 and refuses 0.2
#   fetch      configure examples/hpc-project with KernelArena as a FetchContent source tree
#              (-DHPC_KERNELARENA_SOURCE): configure only, then the generated tests
#
#   check_package.sh relocated|fetch <cmake> <ctest> <source dir> <build dir> <work dir>
set -euo pipefail
mode=$1 cmake=$2 ctest=$3 src=$4 build=$5 work=$6
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
example="$src/examples/hpc-project"

check_gate_family() {  # <build dir of the example>
  local listing
  listing=$("$ctest" --test-dir "$1" -N)
  for task in stencil5_f32 dot_f32; do
    for gate in compile correct_seen correct_unseen perf; do
      grep -q "hpc/$task/$gate\$" <<<"$listing" || fail "hpc/$task/$gate missing from: $listing"
    done
  done
  if grep -q "hip2hip/" <<<"$listing"; then fail "the project got KernelArena's own suites"; fi
}

case $mode in
  relocated)
    "$cmake" --install "$build" --prefix "$work/stage" >"$work/install.log"
    # Relocatable: no installed file (text or binary) names this source or build tree.
    if grep -rlF -e "$src" -e "$build" "$work/stage" >"$work/paths.txt"; then
      fail "installed files name the source or build tree: $(cat "$work/paths.txt")"
    fi
    mv "$work/stage" "$work/moved"
    echo "== installed and moved to $work/moved"
    "$cmake" -S "$example" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/moved" >"$work/configure.log" 2>&1 ||
      { cat "$work/configure.log"; fail "the example project did not configure against the moved package"; }
    grep -q "KernelArena platform chosen by the KernelArena package" "$work/configure.log" ||
      fail "configure did not say which platform it chose: $(cat "$work/configure.log")"
    "$cmake" --build "$work/example" --parallel 2 >"$work/build.log" 2>&1 ||
      { tail -50 "$work/build.log"; fail "the example project did not build"; }
    check_gate_family "$work/example"
    echo "== example configured and built; its tests:"
    (cd "$work/example" && "$ctest" -L '^unit$' --output-on-failure) || fail "the example's unit tests failed"
    (cd "$work/example" && "$ctest" -L '^compile$' --output-on-failure) || fail "the example's compile gates failed"
    (cd "$work/example" && "$ctest" -L '^perf$' --resource-spec-file arena_resources.json --output-on-failure) ||
      fail "the example's perf gates (and the gates they need) failed"
    # The version file: 0.1 is accepted, 0.2 is not (0.x: minor versions differ in interface).
    for want in 0.1 0.2; do
      rc=0
      "$cmake" -S "$src/tests/package/version_project" -B "$work/version-$want" -DWANT="$want" \
               -DCMAKE_PREFIX_PATH="$work/moved" >"$work/version-$want.log" 2>&1 || rc=$?
      if [ "$want" = 0.1 ] && [ $rc -ne 0 ]; then cat "$work/version-$want.log"; fail "find_package(KernelArena 0.1) failed"; fi
      if [ "$want" = 0.2 ] && [ $rc -eq 0 ]; then fail "find_package(KernelArena 0.2) accepted version 0.1"; fi
    done
    echo "== find_package(KernelArena 0.1) found, 0.2 refused"
    ;;
  fetch)
    "$cmake" -S "$example" -B "$work/example" -DHPC_KERNELARENA_SOURCE="$src" >"$work/configure.log" 2>&1 ||
      { cat "$work/configure.log"; fail "the example project did not configure with KernelArena through FetchContent"; }
    check_gate_family "$work/example"
    listing=$("$ctest" --test-dir "$work/example" -N)
    if grep -q "framework/" <<<"$listing"; then fail "the project got KernelArena's framework tests"; fi
    echo "== configured with KernelArena as a FetchContent source tree:"
    echo "$listing"
    ;;
  *) fail "unknown mode $mode" ;;
esac
rm -rf "$work"
echo "package $mode: ok"

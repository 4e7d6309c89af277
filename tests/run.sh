#!/usr/bin/env bash
# The test command: for every kernel platform this machine can compile for (nvcc: nvidia,
# hipcc: amd), configure with the expert solutions as candidates (the `ci` preset), build,
# and run every test: the framework's own tests, the compile gates (baselines and solutions,
# for real), the package and its example project, and the GPU gates (skipped with exit 77
# where there is no GPU). With neither compiler it builds and tests the host-only framework
# (ARENA_HIP_PLATFORM=none: the unit, scorer and importer tests) instead.
#
# How long it takes on a 2-core machine without a GPU: docs/running.md. It prints a line per
# step, the output of any test that failed, and ends with one line per platform ("nvidia: N
# passed, 0 failed, M skipped"); the full logs are
# build/test-<platform>/{configure,build,ctest}.log, and CTest's JUnit XML is build/test-<platform>/junit.xml.
#
#   tests/run.sh --summarize <platform> <ctest log>   the summary line of a CTest log
set -euo pipefail

# "<platform>: P passed, F failed, S skipped", and what the skipped tests were, from a log of
# `ctest --output-on-failure`.
summarize() {
  local platform=$1 log=$2 total failed skipped gpu passed
  total=$(sed -nE 's/^[0-9]+% tests passed, [0-9]+ tests? failed out of ([0-9]+)$/\1/p' "$log" | tail -1)
  failed=$(sed -nE 's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of [0-9]+$/\1/p' "$log" | tail -1)
  if [ -z "$total" ]; then
    total=0 failed=0
    grep -q "No tests were found" "$log" || failed=1
  fi
  skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log" || true)
  gpu=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ([a-z0-9_]+/[a-z0-9_]+/(correct_seen|correct_unseen|perf|profile)|selftest/.*/(baseline_correct|eager_correct|solution_correct|solution_faster|launch_bound)|exploits/.*|framework/candidates/.*/gates|framework/timing/.*) .*\*\*\*Skipped' "$log" || true)
  passed=$((total - failed - skipped))
  if [ "$skipped" -gt 0 ]; then
    echo "$platform: skipped: $gpu GPU test(s) (no GPU), $((skipped - gpu)) other test(s) (a tool they need is missing; see $log)"
  fi
  echo "$platform: $passed passed, $failed failed, $skipped skipped"
}

# The output of every test that failed, from the log.
failed_output() {
  awk '/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / { show = ($0 ~ /\*\*\*(Failed|Timeout|Exception|Not Run)/) }
       /^ *Start +[0-9]+: / { show = 0 }
       /^[0-9]+% tests passed/ { show = 0 }
       show' "$1"
}

if [ "${1:-}" = "--summarize" ]; then
  summarize "$2" "$3"
  exit 0
fi
cd "$(dirname "$0")/.."

seconds_since() { echo $(( $(date +%s) - $1 )); }
jobs=$(nproc)
ran=0 any_failed=0
summaries=()
platforms=""
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then platforms="nvidia"; else echo "no nvcc: skipping the nvidia build"; fi
if command -v hipcc >/dev/null; then platforms="$platforms amd"; else echo "no hipcc: skipping the amd build"; fi
if [ -z "$platforms" ]; then
  echo "no kernel compiler (nvcc or hipcc): building the host-only framework (ARENA_HIP_PLATFORM=none)"
  platforms=none
fi
for platform in $platforms; do
  dir=build/test-$platform
  mkdir -p "$dir"
  t0=$(date +%s)
  cmake --preset ci -B "$dir" -DARENA_HIP_PLATFORM=$platform >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; exit 1; }
  echo "=== $platform: configured in $(seconds_since "$t0") s ($dir; $(grep -m1 'KernelArena: [0-9]* task' "$dir/configure.log" | sed 's/^-- //'))"
  t0=$(date +%s)
  cmake --build "$dir" --parallel "$jobs" >"$dir/build.log" 2>&1 || { tail -100 "$dir/build.log"; exit 1; }
  echo "=== $platform: built in $(seconds_since "$t0") s"
  t0=$(date +%s)
  rc=0
  ctest --test-dir "$dir" --parallel "$jobs" --output-on-failure --output-junit junit.xml >"$dir/ctest.log" 2>&1 || rc=$?
  echo "=== $platform: tested in $(seconds_since "$t0") s"
  if [ $rc -ne 0 ]; then
    any_failed=1
    echo "=== $platform: failed tests and their output:"
    failed_output "$dir/ctest.log"
    sed -n '/^The following tests FAILED:/,$p' "$dir/ctest.log"
  fi
  line=$(summarize "$platform" "$dir/ctest.log")
  echo "$line"
  summaries+=("$(tail -1 <<<"$line")")
  ran=$((ran + 1))
done
echo "=== summary"
printf '%s\n' "${summaries[@]}"
exit $any_failed

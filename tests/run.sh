#!/usr/bin/env bash
# The test command: for every kernel platform this machine can compile for (nvcc: nvidia,
# hipcc: amd), configure with the expert solutions as candidates, build, and run every test:
# the framework's own tests, the compile gates (baselines and solutions, for real) and the
# GPU gates (skipped with exit 77 where there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ran=0
for platform in nvidia amd; do
  case $platform in
    nvidia) command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "no nvcc: skipping the nvidia build"; continue; } ;;
    amd) command -v hipcc >/dev/null || { echo "no hipcc: skipping the amd build"; continue; } ;;
  esac
  dir=build/test-$platform
  echo "=== $platform: configure, build, test ($dir)"
  mkdir -p "$dir"
  cmake -S . -B "$dir" -DARENA_HIP_PLATFORM=$platform -DARENA_CANDIDATE=solution >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; exit 1; }
  cmake --build "$dir" --parallel "$jobs" >"$dir/build.log" 2>&1 || { tail -100 "$dir/build.log"; exit 1; }
  ctest --test-dir "$dir" --parallel "$jobs" --output-on-failure
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || { echo "no kernel compiler found (nvcc or hipcc)"; exit 1; }

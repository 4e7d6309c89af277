#!/usr/bin/env bash
# The file a torch2hip agent starts from compiles: for every task with a `torch` binding, the
# ABI skeleton configure generates (arena-spec skeleton) passes the host compiler through the
# project's HIP-on-CUDA layer (it holds no device code, so -fsyntax-only with cudart's headers
# is the check), warnings as errors. hip2hip's starting points are the baselines, which the
# build compiles; triton2triton's are baseline.py, which framework/structure/triton_task_files
# checks.
#   check_starting_points.sh <arena-spec> <tasks dir> <source dir> <nvcc>
set -uo pipefail
spec_tool=$1 tasks=$2 root=$3 nvcc=$4
cuda_inc=$(dirname "$(dirname "$(readlink -f "$nvcc")")")/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0 failed=0
for spec in "$tasks"/*/*/task.json; do
  grep -q '"torch"' "$spec" || continue
  id=$(basename "$(dirname "$(dirname "$spec")")")/$(basename "$(dirname "$spec")")
  if ! "$spec_tool" skeleton "$spec" "$tmp/skeleton.cpp" >"$tmp/log" 2>&1 ||
     ! ${CXX:-g++} -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I "$root/harness/include/hip_on_cuda" \
         -I "$root/harness/include" -I "$cuda_inc" "$tmp/skeleton.cpp" >>"$tmp/log" 2>&1; then
    echo "FAILED: $id: its starting point (the ABI skeleton) does not compile:"
    sed 's/^/    /' "$tmp/log" | head -20
    failed=$((failed + 1))
  fi
  checked=$((checked + 1))
done
echo "$checked starting point(s) checked, $failed failed"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]

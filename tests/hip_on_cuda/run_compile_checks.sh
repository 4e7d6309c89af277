#!/usr/bin/env bash
# Compile checks for the HIP-on-CUDA header layer (harness/include/hip_on_cuda). No GPU needed.
#
#   run_compile_checks.sh <nvcc> <repo root> <output dir> [<task kernel list>]
#
# Builds, each with warnings as errors:
#   1. tests/hip_on_cuda/api_coverage.hip  with nvcc -x cu -c
#   2. the same as a shared library linked with --no-undefined against cudart, libcuda (the
#      toolkit's stub) and NVRTC, so every symbol the layer references must exist
#   3. the same as the self-test executable (-DHIP_ON_CUDA_SELFTEST_MAIN)
#   4. tests/hip_on_cuda/host_only.cpp     with the host C++ compiler, linked with cudart only
#   5. hip_runtime_api.h and hiprtc.h      included from C (they are C-compatible)
#   6. every tasks/<suite>/<task>/*.hip    as a kernel library, the way the harness builds it;
#      with a task kernel list (a file, one path a line, maybe empty), only the files it names:
#      CMake leaves out the ones its build already compiles through this layer (tests/CMakeLists.txt)
# and exits non-zero if any step fails (all steps run; failures are listed at the end).
#
# Environment: CXX / CC (host compilers, default g++ / gcc), HIP_ON_CUDA_ARCH (default sm_90),
# HIP_ON_CUDA_RUN_TESTS=1 to also run host_only and the self-test (needs an NVIDIA GPU).
set -u

if [ $# -ne 3 ] && [ $# -ne 4 ]; then
  echo "usage: $0 <nvcc> <repo root> <output dir> [<task kernel list>]" >&2
  exit 2
fi
NVCC=$1
ROOT=$(cd "$2" && pwd) || exit 2
OUT=$3
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)

CUDA_ROOT=$(cd "$(dirname "$(readlink -f "$NVCC")")/.." && pwd)
CUDA_INC=$CUDA_ROOT/include
CUDA_LIB=$CUDA_ROOT/lib64
[ -d "$CUDA_LIB" ] || CUDA_LIB=$CUDA_ROOT/lib
CXX=${CXX:-g++}
CC=${CC:-gcc}
ARCH=${HIP_ON_CUDA_ARCH:-sm_90}

LAYER=$ROOT/harness/include/hip_on_cuda
TESTS=$ROOT/tests/hip_on_cuda
NVCC_FLAGS=(-std=c++17 -x cu -arch="$ARCH" -Werror all-warnings -Xcompiler -Wall,-Wextra
            -I "$LAYER" -I "$ROOT/harness/include")
LIB_FLAGS=(-shared -Xcompiler -fPIC -cudart shared)

failed=()
step() {  # step <name> <command...>
  local name=$1
  shift
  echo "== $name"
  if "$@"; then
    echo "   ok"
  else
    echo "   FAILED: $name" >&2
    failed+=("$name")
  fi
}

step "api_coverage.hip: nvcc -c" \
  "$NVCC" "${NVCC_FLAGS[@]}" -c "$TESTS/api_coverage.hip" -o "$OUT/api_coverage.o"

step "api_coverage.hip: shared library, all symbols resolved" \
  "$NVCC" "${NVCC_FLAGS[@]}" "${LIB_FLAGS[@]}" "$TESTS/api_coverage.hip" -o "$OUT/libapi_coverage.so" \
  -Xlinker --no-undefined -L"$CUDA_LIB/stubs" -L"$CUDA_LIB" -lcuda -lnvrtc

step "api_coverage.hip: self-test executable" \
  "$NVCC" "${NVCC_FLAGS[@]}" -DHIP_ON_CUDA_SELFTEST_MAIN "$TESTS/api_coverage.hip" \
  -o "$OUT/hip_on_cuda_selftest" -L"$CUDA_LIB/stubs" -L"$CUDA_LIB" -lcuda -lnvrtc

step "host_only.cpp: $CXX, cudart only" \
  "$CXX" -std=c++17 -Wall -Wextra -Werror -I "$LAYER" -I "$CUDA_INC" "$TESTS/host_only.cpp" \
  -L"$CUDA_LIB" -lcudart -o "$OUT/host_only"

printf '#include <hip/hip_runtime_api.h>\n#include <hip/hiprtc.h>\nint main(void) { return 0; }\n' \
  >"$OUT/c_include_check.c"
step "hip_runtime_api.h + hiprtc.h from C: $CC" \
  "$CC" -std=c11 -Wall -Wextra -Werror -I "$LAYER" -I "$CUDA_INC" -c "$OUT/c_include_check.c" \
  -o "$OUT/c_include_check.o"

shopt -s nullglob
task_kernels=("$ROOT"/tasks/*/*/*.hip)
if [ $# -eq 4 ]; then
  [ -f "$4" ] || { echo "task kernel list $4 does not exist" >&2; exit 2; }
  all=${#task_kernels[@]}
  mapfile -t task_kernels <"$4"
  echo "== task kernels: $((all - ${#task_kernels[@]})) of $all are compiled through this layer by the build" \
       "(baselines) and by the compile gates (solutions), so only ${#task_kernels[@]} here ($4)"
fi
for src in "${task_kernels[@]}"; do
  rel=${src#"$ROOT"/}
  lib=$OUT/task_$(echo "$rel" | tr '/' '_' | sed 's/\.hip$//').so
  step "$rel: kernel library" \
    "$NVCC" -std=c++17 -x cu -arch="$ARCH" "${LIB_FLAGS[@]}" -I "$LAYER" -I "$ROOT/harness/include" \
    "$src" -o "$lib"
done

if [ "${HIP_ON_CUDA_RUN_TESTS:-0}" = 1 ]; then
  step "run host_only" env LD_LIBRARY_PATH="$CUDA_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$OUT/host_only"
  step "run self-test" env LD_LIBRARY_PATH="$CUDA_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$OUT/hip_on_cuda_selftest"
fi

if [ ${#failed[@]} -ne 0 ]; then
  echo "hip_on_cuda compile checks: ${#failed[@]} failed:" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "hip_on_cuda compile checks: all passed"

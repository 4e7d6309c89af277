// Row argmax over an M x N fp32 matrix: one thread per row scans its row from left to right
// and keeps the first index of the largest value.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void argmax_rows_kernel(const float* x, int64_t* idx, int64_t m, int n) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* xr = x + row * n;
  float best = xr[0];
  int bi = 0;
  for (int j = 1; j < n; ++j) {
    const float v = xr[j];
    if (v > best) {
      best = v;
      bi = j;
    }
  }
  idx[row] = bi;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  int64_t* idx = static_cast<int64_t*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const int64_t grid = (m + BLOCK - 1) / BLOCK;
  hipLaunchKernelGGL(argmax_rows_kernel, dim3((unsigned)grid), dim3(BLOCK), 0, a->stream, x, idx, m, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

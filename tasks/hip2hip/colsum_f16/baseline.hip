// Column sums of an M x N fp16 matrix: a first kernel zeroes y; then one thread per column sums
// a slab of 1024 rows in fp32 (a 2-D grid: column blocks x row slabs) and adds its partial sum
// into y with an atomic.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define ROWS 1024

__global__ void zero_kernel(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

__global__ void colsum_kernel(const __half* x, float* y, int64_t m, int n) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  const int64_t r0 = (int64_t)blockIdx.y * ROWS;
  const int64_t r1 = r0 + ROWS < m ? r0 + ROWS : m;
  float s = 0.0f;
  for (int64_t r = r0; r < r1; ++r) s += __half2float(x[r * n + c]);
  atomicAdd(&y[c], s);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const unsigned col_blocks = (unsigned)((n + BLOCK - 1) / BLOCK);
  const unsigned slabs = (unsigned)((m + ROWS - 1) / ROWS);
  hipLaunchKernelGGL(zero_kernel, dim3(col_blocks), dim3(BLOCK), 0, a->stream, y, n);
  hipLaunchKernelGGL(colsum_kernel, dim3(col_blocks, slabs), dim3(BLOCK), 0, a->stream, x, y, m, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

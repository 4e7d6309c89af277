// 2-D transpose of an M x N fp32 matrix: one thread per element. Reads of x are coalesced
// (threadIdx.x runs along a row of x); writes of y are strided by M.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

__global__ void transpose_naive(const float* x, float* y, int64_t M, int64_t N) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // column of x
  if (j >= N) return;
  // Rows of x: grid-stride over y (gridDim.y is capped at 65535).
  for (int64_t i = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; i < M;
       i += (int64_t)gridDim.y * blockDim.y) {
    y[j * M + i] = x[i * N + j];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const dim3 block(32, 8);
  const int64_t gx = (N + block.x - 1) / block.x;
  int64_t gy = (M + block.y - 1) / block.y;
  if (gy > 65535) gy = 65535;
  hipLaunchKernelGGL(transpose_naive, dim3((unsigned)gx, (unsigned)gy), block, 0, a->stream,
                     x, y, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

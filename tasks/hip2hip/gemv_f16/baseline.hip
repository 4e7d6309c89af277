// fp16 GEMV y = A * x (row-major A [M,K]), fp32 accumulation: one thread per row, which walks
// its row with scalar fp16 loads and rounds the sum to fp16 at the end.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gemv_row_per_thread(const __half* A, const __half* x, __half* y, int M, int K) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const __half* a = A + (int64_t)row * K;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += __half2float(a[k]) * __half2float(x[k]);
  y[row] = __float2half(acc);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* A = static_cast<const __half*>(a->tensors[0]);
  const __half* x = static_cast<const __half*>(a->tensors[1]);
  __half* y = static_cast<__half*>(a->tensors[2]);
  const int M = (int)a->ints[0];
  const int K = (int)a->ints[1];
  const int block = 256;
  const int grid = (M + block - 1) / block;
  hipLaunchKernelGGL(gemv_row_per_thread, dim3(grid), dim3(block), 0, a->stream, A, x, y, M, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

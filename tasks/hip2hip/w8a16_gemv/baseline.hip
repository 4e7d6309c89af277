// Weight-only int8 GEMV y = scale * (W * x) (int8 W [M,K] row-major, fp32 per-row scale, fp16
// x and y), fp32 accumulation: one thread per row, which walks its row with scalar int8 loads,
// then scales the sum and rounds it to fp16.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void w8a16_gemv_row_per_thread(const int8_t* W, const float* scale, const __half* x,
                                          __half* y, int M, int K) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const int8_t* w = W + (int64_t)row * K;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += (float)w[k] * __half2float(x[k]);
  y[row] = __float2half(acc * scale[row]);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int8_t* W = static_cast<const int8_t*>(a->tensors[0]);
  const float* scale = static_cast<const float*>(a->tensors[1]);
  const __half* x = static_cast<const __half*>(a->tensors[2]);
  __half* y = static_cast<__half*>(a->tensors[3]);
  const int M = (int)a->ints[0];
  const int K = (int)a->ints[1];
  const int block = 256;
  const int grid = (M + block - 1) / block;
  hipLaunchKernelGGL(w8a16_gemv_row_per_thread, dim3(grid), dim3(block), 0, a->stream, W, scale,
                     x, y, M, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

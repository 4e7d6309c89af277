// Weight-only int8 GEMV y = scale * (W * x) (int8 W [M,K] row-major, fp32 per-row scale, fp16
// x and y), fp32 accumulation: one warp per row; the lanes stride through the row with scalar
// int8 and fp16 loads (coalesced), a shuffle tree adds the lanes' sums, and lane 0 scales the
// result and rounds it to fp16.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void w8a16_gemv_row_per_warp(const int8_t* W, const float* scale, const __half* x, __half* y, int M,
                                        int K) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row = (int64_t)blockIdx.x * (BLOCK / warpSize) + threadIdx.x / warpSize;
  if (row >= M) return;
  const int8_t* w = W + row * K;
  float acc = 0.0f;
  for (int k = lane; k < K; k += warpSize) acc += (float)w[k] * __half2float(x[k]);
  for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_xor(acc, o);
  if (lane == 0) y[row] = __float2half(acc * scale[row]);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int8_t* W = static_cast<const int8_t*>(a->tensors[0]);
  const float* scale = static_cast<const float*>(a->tensors[1]);
  const __half* x = static_cast<const __half*>(a->tensors[2]);
  __half* y = static_cast<__half*>(a->tensors[3]);
  const int M = (int)a->ints[0];
  const int K = (int)a->ints[1];
  int dev = 0, warp = 32;
  if (hipGetDevice(&dev) != hipSuccess || hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, dev) != hipSuccess)
    return 1;
  const int rows_per_block = BLOCK / warp;
  const int grid = (M + rows_per_block - 1) / rows_per_block;
  hipLaunchKernelGGL(w8a16_gemv_row_per_warp, dim3(grid), dim3(BLOCK), 0, a->stream, W, scale, x, y, M, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// fp16 GEMV y = A * x (row-major A [M,K]), fp32 accumulation: one warp per row. The lanes of
// a warp read consecutive 16-byte vectors (8 fp16 values) of the row, so every load of the
// warp is fully coalesced, four vectors in flight per lane (unrolled, four independent
// accumulators); the matching 16-byte vectors of x are read through the cache, where they
// stay (x is shared by every row). Warp shuffles reduce the lane sums, and lane 0 rounds to
// fp16 once. Enough rows per block and blocks in all keep many loads in flight to HBM. Rows
// whose length is not a multiple of 8 (so that vectors would be misaligned) take a scalar,
// still coalesced, path. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define THREADS 256

__device__ __forceinline__ float h2f(unsigned int bits) {
  return __half2float(__ushort_as_half((unsigned short)(bits & 0xffffu)));
}

__device__ __forceinline__ float dot2(unsigned int a, unsigned int x, float acc) {
  acc = fmaf(h2f(a), h2f(x), acc);
  return fmaf(h2f(a >> 16), h2f(x >> 16), acc);
}

__device__ __forceinline__ float dot8(const uint4& a, const uint4& x, float acc) {
  acc = dot2(a.x, x.x, acc);
  acc = dot2(a.y, x.y, acc);
  acc = dot2(a.z, x.z, acc);
  return dot2(a.w, x.w, acc);
}

__global__ __launch_bounds__(THREADS) void gemv_warp_per_row(const __half* __restrict__ A,
                                                             const __half* __restrict__ x,
                                                             __half* __restrict__ y, int M,
                                                             int K) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= M) return;  // the whole warp shares `row`
  const __half* a = A + row * K;
  float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
  if (K % 8 == 0) {  // every row starts 16-byte aligned
    const uint4* a8 = reinterpret_cast<const uint4*>(a);
    const uint4* x8 = reinterpret_cast<const uint4*>(x);
    const int K8 = K / 8, ws = warpSize;
    int k = lane;
    for (; k + 3 * ws < K8; k += 4 * ws) {
      const uint4 a0 = a8[k], a1 = a8[k + ws], a2 = a8[k + 2 * ws], a3 = a8[k + 3 * ws];
      const uint4 x0 = x8[k], x1 = x8[k + ws], x2 = x8[k + 2 * ws], x3 = x8[k + 3 * ws];
      acc0 = dot8(a0, x0, acc0);
      acc1 = dot8(a1, x1, acc1);
      acc2 = dot8(a2, x2, acc2);
      acc3 = dot8(a3, x3, acc3);
    }
    for (; k < K8; k += ws) acc0 = dot8(a8[k], x8[k], acc0);
  } else {
    const unsigned short* ab = reinterpret_cast<const unsigned short*>(a);
    const unsigned short* xb = reinterpret_cast<const unsigned short*>(x);
    for (int k = lane; k < K; k += warpSize) acc0 = fmaf(h2f(ab[k]), h2f(xb[k]), acc0);
  }
  float acc = (acc0 + acc1) + (acc2 + acc3);
  for (int o = warpSize / 2; o > 0; o >>= 1) acc += __shfl_xor(acc, o);
  if (lane == 0) y[row] = __float2half(acc);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* A = static_cast<const __half*>(a->tensors[0]);
  const __half* x = static_cast<const __half*>(a->tensors[1]);
  __half* y = static_cast<__half*>(a->tensors[2]);
  const int M = (int)a->ints[0];
  const int K = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const int rows_per_block = THREADS / ws;
  const int64_t grid = ((int64_t)M + rows_per_block - 1) / rows_per_block;
  hipLaunchKernelGGL(gemv_warp_per_row, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, A, x,
                     y, M, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

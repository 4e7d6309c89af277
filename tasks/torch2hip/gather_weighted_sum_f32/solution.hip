// Gather, weight and row sum in one pass: y[i] = sum_k x[i, idx[i, k]] * weight[k]. Eager
// PyTorch writes the gathered [batch_size, num_picks] matrix, reads and rewrites it for the
// product, and reads it again for the sum; here each index is read once (coalesced), its
// x entry is fetched (rows are short enough to stay in L2 while their picks arrive), and only
// one float per row is written. The weight vector is small and stays in cache.
//  - num_picks <= 1024: one warp per row, several rows per block;
//  - longer: one block per row.
// Four picks in flight per thread. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define WARP_BLOCK 256
#define MAX_WARPS 32  // 1024 threads / 32 lanes
#define WARP_ROW_MAX 1024

// Sum over picks first, first + step, ... < k of one row.
__device__ __forceinline__ float row_partial(const float* __restrict__ xr, const int64_t* __restrict__ ir,
                                             const float* __restrict__ w, int k, int first, int step) {
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int j = first;
  for (; j + 3 * step < k; j += 4 * step) {
    int64_t c[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) c[u] = ir[j + u * step];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc[u] = fmaf(xr[c[u]], w[j + u * step], acc[u]);
  }
  for (; j < k; j += step) acc[0] = fmaf(xr[ir[j]], w[j], acc[0]);  // at most three left
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// One warp per row.
__global__ void __launch_bounds__(WARP_BLOCK) gws_warp(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                                       const float* __restrict__ w, float* __restrict__ y,
                                                       int64_t rows, int64_t n, int k) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  if (row >= rows) return;  // the whole warp leaves together
  float s = row_partial(x + row * n, idx + row * k, w, k, lane, ws);
  s = warp_sum(s);
  if (lane == 0) y[row] = s;
}

// One block per row.
__global__ void __launch_bounds__(1024) gws_block(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                                  const float* __restrict__ w, float* __restrict__ y, int64_t n,
                                                  int k) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  float s = row_partial(x + row * n, idx + row * k, w, k, threadIdx.x, blockDim.x);
  s = warp_sum(s);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nwarps = blockDim.x / warpSize;
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = red[0];
    for (int i = 1; i < nwarps; ++i) r += red[i];
    y[row] = r;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const int64_t* idx = static_cast<const int64_t*>(a->tensors[1]);
  const float* w = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t rows = a->ints[0];
  const int64_t n = a->ints[1];
  const int k = (int)a->ints[2];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (k <= WARP_ROW_MAX) {
    const int per_block = WARP_BLOCK / ws;
    const int64_t grid = (rows + per_block - 1) / per_block;
    hipLaunchKernelGGL(gws_warp, dim3((unsigned)grid), dim3(WARP_BLOCK), 0, a->stream, x, idx, w, y, rows, n, k);
  } else {
    const int threads = k >= 16384 ? 512 : 256;
    hipLaunchKernelGGL(gws_block, dim3((unsigned)rows), dim3(threads), 0, a->stream, x, idx, w, y, n, k);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

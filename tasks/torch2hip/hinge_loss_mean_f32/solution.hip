// Hinge loss mean(max(1 - p[i, j] * t[j], 0)) over an fp32 batch_size x dim matrix p and a
// per-column vector t, in one read of p (eager PyTorch writes the product, 1 minus it and the
// clamp to memory before the mean: seven passes over a matrix-sized buffer).
//  1. a device-filling grid with a grid stride over vectors of VEC columns (16-byte loads
//     when dim % 4 == 0, so every row start is aligned); each thread carries its column
//     forward instead of dividing on every step, and reads t (small, cache-resident) at it;
//     one partial sum per block to the workspace;
//  2. one block adds the partials in a fixed order and divides by the element count.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS (THREADS / 32)
#define MAX_PARTIALS 2048

__device__ __forceinline__ float block_sum(float v, float* red) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nw = blockDim.x / warpSize;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float s = 0.0f;
  for (int w = 0; w < nw; ++w) s += red[w];
  return s;
}

__device__ __forceinline__ float hinge(float p, float t) { return fmaxf(1.0f - p * t, 0.0f); }

template <int VEC>
__global__ void __launch_bounds__(THREADS) hinge_partials(const float* __restrict__ p, const float* __restrict__ t,
                                                          float* __restrict__ partial, int64_t rows, int64_t cols) {
  __shared__ float red[MAX_WARPS];
  const int64_t nvr = cols / VEC;  // vectors per row
  const int64_t total = rows * nvr;
  const int64_t stride = (int64_t)gridDim.x * THREADS;
  const int64_t step = stride % nvr;
  int64_t v = (int64_t)blockIdx.x * THREADS + threadIdx.x;
  int64_t c = v % nvr;  // column vector of v
  float acc[VEC];
#pragma unroll
  for (int j = 0; j < VEC; ++j) acc[j] = 0.0f;
  for (; v < total; v += stride) {
    if constexpr (VEC == 4) {
      const float4 pv = reinterpret_cast<const float4*>(p)[v];
      const float4 tv = reinterpret_cast<const float4*>(t)[c];
      acc[0] += hinge(pv.x, tv.x);
      acc[1] += hinge(pv.y, tv.y);
      acc[2] += hinge(pv.z, tv.z);
      acc[3] += hinge(pv.w, tv.w);
    } else {
      acc[0] += hinge(p[v], t[c]);
    }
    c += step;
    if (c >= nvr) c -= nvr;
  }
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < VEC; ++j) s += acc[j];
  s = block_sum(s, red);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

__global__ void __launch_bounds__(THREADS) finish_mean(const float* __restrict__ partial, int nparts, float* __restrict__ y,
                                                       int64_t n) {
  __shared__ float red[MAX_WARPS];
  float s = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += THREADS) s += partial[i];
  s = block_sum(s, red);
  if (threadIdx.x == 0) y[0] = s / (float)n;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args*) { return MAX_PARTIALS * sizeof(float); }

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* p = static_cast<const float*>(a->tensors[0]);
  const float* t = static_cast<const float*>(a->tensors[1]);
  float* y = static_cast<float*>(a->tensors[2]);
  const int64_t rows = a->ints[0], cols = a->ints[1];
  float* partial = static_cast<float*>(a->workspace);
  if (a->workspace_bytes < MAX_PARTIALS * sizeof(float)) return 1;
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  if (sms < 1) sms = 1;
  const int vec = cols % 4 == 0 ? 4 : 1;
  const int64_t need = (rows * (cols / vec) + THREADS - 1) / THREADS;
  int64_t grid = (int64_t)sms * 8;
  if (grid > need) grid = need;
  if (grid > MAX_PARTIALS) grid = MAX_PARTIALS;
  if (vec == 4)
    hipLaunchKernelGGL(hinge_partials<4>, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, p, t, partial, rows, cols);
  else
    hipLaunchKernelGGL(hinge_partials<1>, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, p, t, partial, rows, cols);
  hipLaunchKernelGGL(finish_mean, dim3(1), dim3(THREADS), 0, a->stream, partial, (int)grid, y, rows * cols);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

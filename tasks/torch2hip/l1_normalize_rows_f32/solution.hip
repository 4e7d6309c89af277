// y = x / mean(|x|) per row of an fp32 batch_size x dim matrix, in one kernel: a group of tpr
// threads (a power of two up to 1024, about eight vectors per thread) owns one row, sums
// |x| with independent accumulators, combines the sums (xor shuffles, one shared slot per warp
// when the group spans warps), then reads the row again, just read by the same block and so
// mostly from L2, to write x / mean. Eager PyTorch runs abs (writing a matrix), a mean and a
// broadcast division that reads x from memory again. 16-byte accesses when dim % 4 == 0
// (every row then starts 16-byte aligned).
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_THREADS 1024
#define MAX_WARPS (MAX_THREADS / 32)
#define UNROLL 4

// Sum over the tpr threads of a row group (tpr a power of two, groups aligned to tpr); every
// thread of the group gets the same value. Every thread of the block calls it.
__device__ __forceinline__ float group_sum(float v, int tpr, float* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, wpg = tpr / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    const int first = warp - warp % wpg;
    v = red[first];
    for (int w = 1; w < wpg; ++w) v += red[first + w];
  }
  return v;
}

template <int VEC>
__device__ __forceinline__ void load(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

template <int VEC>
__global__ void __launch_bounds__(MAX_THREADS) l1_normalize(const float* __restrict__ x, float* __restrict__ y,
                                                            int64_t rows, int64_t cols, int tpr) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < rows;  // rows past the end still join the reductions
  const int64_t nvec = cols / VEC;
  const float* xr = x + (valid ? row : 0) * cols;
  float acc[UNROLL] = {};
  if (valid) {
    int64_t i = t;
    for (; i + (int64_t)(UNROLL - 1) * tpr < nvec; i += (int64_t)UNROLL * tpr) {
      float v[UNROLL][VEC];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) load<VEC>(xr + (i + (int64_t)u * tpr) * VEC, v[u]);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
#pragma unroll
        for (int j = 0; j < VEC; ++j) acc[u] += fabsf(v[u][j]);
    }
    for (; i < nvec; i += tpr) {
      float v[VEC];
      load<VEC>(xr + i * VEC, v);
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[0] += fabsf(v[j]);
    }
  }
  const float sum = group_sum((acc[0] + acc[1]) + (acc[2] + acc[3]), tpr, red);
  if (!valid) return;
  const float mean = sum / (float)cols;
  float* yr = y + row * cols;
  for (int64_t i = t; i < nvec; i += tpr) {
    float v[VEC];
    load<VEC>(xr + i * VEC, v);
    if constexpr (VEC == 4) {
      *reinterpret_cast<float4*>(yr + i * 4) = make_float4(v[0] / mean, v[1] / mean, v[2] / mean, v[3] / mean);
    } else {
      yr[i] = v[0] / mean;
    }
  }
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t rows = a->ints[0], cols = a->ints[1];
  const int vec = cols % 4 == 0 ? 4 : 1;
  int tpr = pow2_at_least((cols / vec + 7) / 8);  // about eight vectors per thread
  if (tpr > MAX_THREADS) tpr = MAX_THREADS;
  const int block = tpr > 256 ? tpr : 256;
  const int64_t per_block = block / tpr;
  const dim3 grid((unsigned)((rows + per_block - 1) / per_block));
  if (vec == 4)
    hipLaunchKernelGGL(l1_normalize<4>, grid, dim3(block), 0, a->stream, x, y, rows, cols, tpr);
  else
    hipLaunchKernelGGL(l1_normalize<1>, grid, dim3(block), 0, a->stream, x, y, rows, cols, tpr);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// InstanceNorm2d (no affine, biased variance, eps 1e-5) over fp32 NCHW: each (n, c) plane of
// HW = dim1 * dim2 contiguous values is normalized by its own mean and variance, in one
// kernel. A group of tpr threads (a power of two up to 1024, about eight vectors per thread)
// owns one plane:
//  - statistics: each thread reads its values in batches of BATCH vectors, takes each batch's
//    exact mean and M2 from registers and merges it into its running (count, mean, M2) with
//    Chan's formula (no cancellation, whatever the data's offset); the group merges the same
//    way (shuffle tree, then across warps in a fixed order) and broadcasts the result;
//  - normalization: the group reads the plane again (just read by the same block, so mostly
//    from L2) and writes (x - mean) * rstd.
// Eager PyTorch runs a statistics kernel and then an elementwise pass that reads x from memory
// again. 16-byte accesses when HW % 4 == 0 (every plane then starts 16-byte aligned).
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_THREADS 1024
#define MAX_WARPS (MAX_THREADS / 32)
#define BATCH 8  // vectors per thread per statistics batch
#define EPS 1e-5f

struct Stats {
  float n, mean, m2;
};

// Chan et al.: the statistics of the union of two disjoint sets.
__device__ __forceinline__ Stats merge(Stats a, Stats b) {
  const float n = a.n + b.n;
  if (n == 0.0f) return a;
  const float d = b.mean - a.mean, fb = b.n / n;
  Stats r;
  r.n = n;
  r.mean = fmaf(d, fb, a.mean);
  r.m2 = a.m2 + b.m2 + d * d * a.n * fb;
  return r;
}

__device__ __forceinline__ Stats shfl_down_stats(Stats s, int o) {
  Stats r;
  r.n = __shfl_down(s.n, o);
  r.mean = __shfl_down(s.mean, o);
  r.m2 = __shfl_down(s.m2, o);
  return r;
}

__device__ __forceinline__ Stats shfl_stats(Stats s, int src) {
  Stats r;
  r.n = __shfl(s.n, src);
  r.mean = __shfl(s.mean, src);
  r.m2 = __shfl(s.m2, src);
  return r;
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
__global__ void __launch_bounds__(MAX_THREADS) instance_norm(const float* __restrict__ x, float* __restrict__ y,
                                                             int64_t planes, int64_t hw, int tpr) {
  __shared__ Stats red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t plane = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = plane < planes;  // planes past the end still join the reductions
  const int64_t nvec = hw / VEC;
  const float* xp = x + (valid ? plane : 0) * hw;

  Stats s = {0.0f, 0.0f, 0.0f};
  if (valid) {
    for (int64_t v0 = t; v0 < nvec; v0 += (int64_t)BATCH * tpr) {
      float v[BATCH][VEC];
      int cnt = 0;
#pragma unroll
      for (int b = 0; b < BATCH; ++b) {
        const int64_t i = v0 + (int64_t)b * tpr;
        if (i < nvec) {
          load<VEC>(xp + i * VEC, v[b]);
          cnt += VEC;
        } else {
#pragma unroll
          for (int j = 0; j < VEC; ++j) v[b][j] = 0.0f;
        }
      }
      float sum = 0.0f;
#pragma unroll
      for (int b = 0; b < BATCH; ++b)
#pragma unroll
        for (int j = 0; j < VEC; ++j) sum += v[b][j];
      const float mean = sum / (float)cnt;
      float m2 = 0.0f;
#pragma unroll
      for (int b = 0; b < BATCH; ++b)
        if (v0 + (int64_t)b * tpr < nvec)
#pragma unroll
          for (int j = 0; j < VEC; ++j) {
            const float d = v[b][j] - mean;
            m2 = fmaf(d, d, m2);
          }
      s = merge(s, Stats{(float)cnt, mean, m2});
    }
  }
  // Group merge: a shuffle tree to the group's first lane, then across the group's warps.
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = 1; o < width; o <<= 1) {
    const Stats q = shfl_down_stats(s, o);
    if ((lane % width) % (2 * o) == 0) s = merge(s, q);
  }
  s = shfl_stats(s, lane - lane % width);
  if (tpr > warpSize) {
    const int wpg = tpr / warpSize, first = warp - warp % wpg;
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = red[first];
    for (int w = 1; w < wpg; ++w) s = merge(s, red[first + w]);
  }
  if (!valid) return;
  const float mean = s.mean;
  const float rstd = 1.0f / sqrtf(fmaxf(s.m2 / (float)hw, 0.0f) + EPS);

  float* yp = y + plane * hw;
  for (int64_t i = t; i < nvec; i += tpr) {
    float v[VEC];
    load<VEC>(xp + i * VEC, v);
    if constexpr (VEC == 4) {
      *reinterpret_cast<float4*>(yp + i * 4) =
          make_float4((v[0] - mean) * rstd, (v[1] - mean) * rstd, (v[2] - mean) * rstd, (v[3] - mean) * rstd);
    } else {
      yp[i] = (v[0] - mean) * rstd;
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
  const int64_t planes = a->ints[0] * a->ints[1], hw = a->ints[2] * a->ints[3];
  const int vec = hw % 4 == 0 ? 4 : 1;
  int tpr = pow2_at_least((hw / vec + 7) / 8);  // about eight vectors per thread
  if (tpr > MAX_THREADS) tpr = MAX_THREADS;
  const int block = tpr > 256 ? tpr : 256;
  const int64_t per_block = block / tpr;
  const dim3 grid((unsigned)((planes + per_block - 1) / per_block));
  if (vec == 4)
    hipLaunchKernelGGL(instance_norm<4>, grid, dim3(block), 0, a->stream, x, y, planes, hw, tpr);
  else
    hipLaunchKernelGGL(instance_norm<1>, grid, dim3(block), 0, a->stream, x, y, planes, hw, tpr);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

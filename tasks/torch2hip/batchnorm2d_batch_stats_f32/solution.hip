// BatchNorm2d with batch statistics over fp32 NCHW x [N, C, H, W]: channel c is normalized by
// the mean and biased variance of its N planes of HW = H * W values (a reduction over the
// outer and inner axes at once), then scaled by weight[c] and shifted by bias[c]; eps 1e-5.
//  1. plane_stats: one block per (chunk, plane) holds CHUNK values of one plane in registers
//     and writes that chunk's exact mean and M2 = sum (x - mean)^2 (two block sums);
//  2. channel_stats: one block per channel merges the N * chunks partials of its channel with
//     Chan's formula in a fixed order -> per-channel mean and a = weight * rstd;
//  3. normalize: one block per (chunk, plane) writes (x - mean[c]) * a[c] + bias[c], walking
//     the chunks from the last one back so it starts with what the first kernel left in L2.
// Merging (count, mean, M2) keeps the variance accurate whatever the data's offset. 16-byte
// accesses when HW % 4 == 0 (every plane then starts 16-byte aligned).
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define PER_THREAD 16  // values per thread in a chunk
#define CHUNK (THREADS * PER_THREAD)
#define MAX_WARPS (THREADS / 32)
#define EPS 1e-5f

__device__ __forceinline__ float block_sum(float v, float* red) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nw = blockDim.x / warpSize;
  __syncthreads();  // red may still be read from a previous call
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float s = 0.0f;
  for (int w = 0; w < nw; ++w) s += red[w];
  return s;
}

// Value k of this thread in a chunk starting at c0: with VEC, thread t holds the float4s
// t, t + THREADS, ...; else the scalars t, t + THREADS, ... (coalesced either way).
template <int VEC>
__device__ __forceinline__ int64_t pos_of(int64_t c0, int k) {
  if constexpr (VEC == 4) return c0 + ((int64_t)(k / 4) * THREADS + threadIdx.x) * 4 + k % 4;
  else return c0 + (int64_t)k * THREADS + threadIdx.x;
}

// Partial statistics of chunk `chunk` of plane `plane` (= n * C + c) -> part[plane * nchunks + chunk].
template <int VEC>
__global__ void __launch_bounds__(THREADS) plane_stats(const float* __restrict__ x, float2* __restrict__ part,
                                                       int64_t planes, int64_t hw, int64_t nchunks) {
  __shared__ float red[MAX_WARPS];
  const int64_t plane = blockIdx.x % planes, chunk = blockIdx.x / planes;
  const int64_t c0 = chunk * CHUNK;
  const int64_t cnt = hw - c0 < CHUNK ? hw - c0 : CHUNK;
  const float* xp = x + plane * hw;
  float v[PER_THREAD];
  bool in[PER_THREAD];
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < PER_THREAD; k += VEC) {
    const int64_t p = pos_of<VEC>(c0, k);
    if constexpr (VEC == 4) {
      in[k] = in[k + 1] = in[k + 2] = in[k + 3] = p < c0 + cnt;  // hw % 4 == 0: all four or none
      const float4 t = in[k] ? *reinterpret_cast<const float4*>(xp + p) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      v[k] = t.x;
      v[k + 1] = t.y;
      v[k + 2] = t.z;
      v[k + 3] = t.w;
    } else {
      in[k] = p < c0 + cnt;
      v[k] = in[k] ? xp[p] : 0.0f;
    }
  }
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k) s += v[k];
  const float mean = block_sum(s, red) / (float)cnt;
  float m2 = 0.0f;
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k) {
    const float d = in[k] ? v[k] - mean : 0.0f;
    m2 = fmaf(d, d, m2);
  }
  m2 = block_sum(m2, red);
  if (threadIdx.x == 0) part[plane * nchunks + chunk] = make_float2(mean, m2);
}

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

// coef[c] = (mean, weight * rstd) of channel c over its N planes.
__global__ void __launch_bounds__(THREADS) channel_stats(const float2* __restrict__ part, const float* __restrict__ w,
                                                         float2* __restrict__ coef, int64_t N, int64_t C, int64_t hw,
                                                         int64_t nchunks) {
  __shared__ Stats red[MAX_WARPS];
  const int64_t c = blockIdx.x;
  const int64_t total = N * nchunks;
  Stats s = {0.0f, 0.0f, 0.0f};
  for (int64_t j = threadIdx.x; j < total; j += THREADS) {
    const int64_t n = j / nchunks, chunk = j - n * nchunks;
    const float2 p = part[(n * C + c) * nchunks + chunk];
    const int64_t left = hw - chunk * CHUNK;
    s = merge(s, Stats{(float)(left < CHUNK ? left : CHUNK), p.x, p.y});
  }
  for (int o = 1; o < warpSize; o <<= 1) {
    Stats q;
    q.n = __shfl_down(s.n, o);
    q.mean = __shfl_down(s.mean, o);
    q.m2 = __shfl_down(s.m2, o);
    if ((threadIdx.x % warpSize) % (2 * o) == 0) s = merge(s, q);
  }
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nw = blockDim.x / warpSize;
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    Stats t = red[0];
    for (int k = 1; k < nw; ++k) t = merge(t, red[k]);
    const float var = fmaxf(t.m2 / t.n, 0.0f);
    coef[c] = make_float2(t.mean, w[c] / sqrtf(var + EPS));
  }
}

template <int VEC>
__global__ void __launch_bounds__(THREADS) normalize(const float* __restrict__ x, const float2* __restrict__ coef,
                                                     const float* __restrict__ bias, float* __restrict__ y,
                                                     int64_t planes, int64_t C, int64_t hw, int64_t nchunks) {
  const int64_t plane = blockIdx.x % planes, chunk = nchunks - 1 - (int64_t)blockIdx.x / planes;
  const int64_t c = plane % C;
  const int64_t c0 = chunk * CHUNK;
  const int64_t end = hw - c0 < CHUNK ? hw : c0 + CHUNK;
  const float2 k = coef[c];
  const float b = bias[c];
  const float* xp = x + plane * hw;
  float* yp = y + plane * hw;
  if constexpr (VEC == 4) {
    for (int64_t p = c0 + (int64_t)threadIdx.x * 4; p < end; p += THREADS * 4) {
      const float4 v = *reinterpret_cast<const float4*>(xp + p);
      *reinterpret_cast<float4*>(yp + p) = make_float4(fmaf(v.x - k.x, k.y, b), fmaf(v.y - k.x, k.y, b),
                                                       fmaf(v.z - k.x, k.y, b), fmaf(v.w - k.x, k.y, b));
    }
  } else {
    for (int64_t p = c0 + threadIdx.x; p < end; p += THREADS) yp[p] = fmaf(xp[p] - k.x, k.y, b);
  }
}

static int64_t chunks_of(int64_t hw) { return (hw + CHUNK - 1) / CHUNK; }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t N = a->ints[0], C = a->ints[1], hw = a->ints[2] * a->ints[3];
  return (size_t)(N * C * chunks_of(hw) + C) * sizeof(float2);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* b = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t N = a->ints[0], C = a->ints[1], hw = a->ints[2] * a->ints[3];
  const int64_t planes = N * C, nchunks = chunks_of(hw);
  if (a->workspace_bytes < (size_t)(planes * nchunks + C) * sizeof(float2)) return 1;
  float2* part = static_cast<float2*>(a->workspace);
  float2* coef = part + planes * nchunks;
  const dim3 grid((unsigned)(planes * nchunks));
  if (hw % 4 == 0) {
    hipLaunchKernelGGL(plane_stats<4>, grid, dim3(THREADS), 0, a->stream, x, part, planes, hw, nchunks);
    hipLaunchKernelGGL(channel_stats, dim3((unsigned)C), dim3(THREADS), 0, a->stream, part, w, coef, N, C, hw, nchunks);
    hipLaunchKernelGGL(normalize<4>, grid, dim3(THREADS), 0, a->stream, x, coef, b, y, planes, C, hw, nchunks);
  } else {
    hipLaunchKernelGGL(plane_stats<1>, grid, dim3(THREADS), 0, a->stream, x, part, planes, hw, nchunks);
    hipLaunchKernelGGL(channel_stats, dim3((unsigned)C), dim3(THREADS), 0, a->stream, part, w, coef, N, C, hw, nchunks);
    hipLaunchKernelGGL(normalize<1>, grid, dim3(THREADS), 0, a->stream, x, coef, b, y, planes, C, hw, nchunks);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// LayerNorm over rows of D = features * dim1 * dim2 values (a few rows of millions of values),
// fp32, with elementwise weight and bias of length D, eps = 1e-5, biased variance.
// A row is far too long for one block (eager PyTorch gives each row one block, so a batch of
// 16 keeps 16 multiprocessors busy), so the statistics are split over chunks of CHUNK values:
//  1. chunk_stats: one block per (chunk, row) holds its chunk in registers (16 values per
//     thread) and writes the chunk's mean and M2 = sum (x - mean)^2, two exact block sums;
//  2. row_stats: one block per row merges its chunks' (count, mean, M2) with Chan's formula
//     in a fixed order (per thread, then a shuffle tree, then across warps) -> mean, rstd;
//  3. normalize: one block per (chunk, row) writes (x - mean) * rstd * weight + bias.
// Blocks are ordered chunk-major with the rows innermost, so a chunk of weight and bias is
// fetched from memory once and served from L2 to the other rows; the third kernel walks the
// chunks from the last one back, starting with the part of x the first kernel left in L2.
// 16-byte accesses when D % 4 == 0 (every row then starts 16-byte aligned).
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

template <int VEC>
__global__ void __launch_bounds__(THREADS) chunk_stats(const float* __restrict__ x, float2* __restrict__ part,
                                                       int64_t rows, int64_t D, int64_t nchunks) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x % rows, chunk = blockIdx.x / rows;
  const int64_t c0 = chunk * CHUNK;
  const int64_t cnt = D - c0 < CHUNK ? D - c0 : CHUNK;
  const float* xr = x + row * D;
  float v[PER_THREAD];
  bool in[PER_THREAD];
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < PER_THREAD; k += VEC) {
    const int64_t p = pos_of<VEC>(c0, k);
    if constexpr (VEC == 4) {
      in[k] = in[k + 1] = in[k + 2] = in[k + 3] = p < c0 + cnt;  // D % 4 == 0: all four or none
      const float4 t = in[k] ? *reinterpret_cast<const float4*>(xr + p) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      v[k] = t.x;
      v[k + 1] = t.y;
      v[k + 2] = t.z;
      v[k + 3] = t.w;
    } else {
      in[k] = p < c0 + cnt;
      v[k] = in[k] ? xr[p] : 0.0f;
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
  if (threadIdx.x == 0) part[row * nchunks + chunk] = make_float2(mean, m2);
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

__global__ void __launch_bounds__(THREADS) row_stats(const float2* __restrict__ part, float2* __restrict__ stats,
                                                     int64_t D, int64_t nchunks) {
  __shared__ Stats red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  Stats s = {0.0f, 0.0f, 0.0f};
  for (int64_t c = threadIdx.x; c < nchunks; c += THREADS) {
    const float2 p = part[row * nchunks + c];
    const int64_t left = D - c * CHUNK;
    const Stats q = {(float)(left < CHUNK ? left : CHUNK), p.x, p.y};
    s = merge(s, q);
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
    for (int w = 1; w < nw; ++w) t = merge(t, red[w]);
    const float var = fmaxf(t.m2 / (float)D, 0.0f);
    stats[row] = make_float2(t.mean, 1.0f / sqrtf(var + EPS));
  }
}

template <int VEC>
__global__ void __launch_bounds__(THREADS) normalize(const float* __restrict__ x, const float* __restrict__ w,
                                                     const float* __restrict__ b, const float2* __restrict__ stats,
                                                     float* __restrict__ y, int64_t rows, int64_t D,
                                                     int64_t nchunks) {
  const int64_t row = blockIdx.x % rows, chunk = nchunks - 1 - (int64_t)blockIdx.x / rows;
  const int64_t c0 = chunk * CHUNK;
  const int64_t end = D - c0 < CHUNK ? D : c0 + CHUNK;
  const float2 st = stats[row];
  const float* xr = x + row * D;
  float* yr = y + row * D;
  if constexpr (VEC == 4) {
    for (int64_t p = c0 + (int64_t)threadIdx.x * 4; p < end; p += THREADS * 4) {
      const float4 xv = *reinterpret_cast<const float4*>(xr + p);
      const float4 wv = *reinterpret_cast<const float4*>(w + p);
      const float4 bv = *reinterpret_cast<const float4*>(b + p);
      float4 o;
      o.x = fmaf((xv.x - st.x) * st.y, wv.x, bv.x);
      o.y = fmaf((xv.y - st.x) * st.y, wv.y, bv.y);
      o.z = fmaf((xv.z - st.x) * st.y, wv.z, bv.z);
      o.w = fmaf((xv.w - st.x) * st.y, wv.w, bv.w);
      *reinterpret_cast<float4*>(yr + p) = o;
    }
  } else {
    for (int64_t p = c0 + threadIdx.x; p < end; p += THREADS) yr[p] = fmaf((xr[p] - st.x) * st.y, w[p], b[p]);
  }
}

static int64_t chunks_of(int64_t D) { return (D + CHUNK - 1) / CHUNK; }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t rows = a->ints[0], D = a->ints[1] * a->ints[2] * a->ints[3];
  return (size_t)(rows * chunks_of(D) + rows) * sizeof(float2);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* b = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t rows = a->ints[0], D = a->ints[1] * a->ints[2] * a->ints[3];
  const int64_t nchunks = chunks_of(D);
  if (a->workspace_bytes < (size_t)(rows * nchunks + rows) * sizeof(float2)) return 1;
  float2* part = static_cast<float2*>(a->workspace);
  float2* stats = part + rows * nchunks;
  const dim3 grid((unsigned)(rows * nchunks));
  if (D % 4 == 0) {
    hipLaunchKernelGGL(chunk_stats<4>, grid, dim3(THREADS), 0, a->stream, x, part, rows, D, nchunks);
    hipLaunchKernelGGL(row_stats, dim3((unsigned)rows), dim3(THREADS), 0, a->stream, part, stats, D, nchunks);
    hipLaunchKernelGGL(normalize<4>, grid, dim3(THREADS), 0, a->stream, x, w, b, stats, y, rows, D, nchunks);
  } else {
    hipLaunchKernelGGL(chunk_stats<1>, grid, dim3(THREADS), 0, a->stream, x, part, rows, D, nchunks);
    hipLaunchKernelGGL(row_stats, dim3((unsigned)rows), dim3(THREADS), 0, a->stream, part, stats, D, nchunks);
    hipLaunchKernelGGL(normalize<1>, grid, dim3(THREADS), 0, a->stream, x, w, b, stats, y, rows, D, nchunks);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

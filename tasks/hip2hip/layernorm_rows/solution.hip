// Layer normalization over the rows of an M x N fp32 matrix with one read of x and one
// write of y whenever the row fits in registers:
//  - N <= 32 * warpSize: one warp per row, the row held in the lanes' registers;
//  - N <= 32 * 1024: one block per row, at most 32 values per thread in registers;
//  in both, the mean and then the variance about it are computed from the registers
//  (two-pass accuracy, one pass over memory);
//  - longer rows: per-thread Welford statistics merged across the block (one read), then
//    a second read that writes y.
// 16-byte loads and stores of x, gamma, beta and y when N % 4 == 0 (every row is then
// 16-byte aligned), coalesced scalar accesses otherwise. Reductions: warp shuffles, then one
// shared slot per warp. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// Block-wide sum: every thread gets the result; `red` is free again on return.
__device__ __forceinline__ float block_sum(float v, float* red) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  v = warp_sum(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float r = red[0];
  for (int w = 1; w < nwarps; ++w) r += red[w];
  __syncthreads();
  return r;
}

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

// y[c + j] = (v[j] - mean) * rstd * gamma[c + j] + beta[c + j] for j < VEC.
template <int VEC>
__device__ __forceinline__ void norm_store(float* yr, const float* __restrict__ gamma,
                                           const float* __restrict__ beta, int col, const float* v, float mean,
                                           float rstd) {
  float g[VEC], b[VEC], o[VEC];
  load_vec<VEC>(gamma + col, g);
  load_vec<VEC>(beta + col, b);
#pragma unroll
  for (int j = 0; j < VEC; ++j) o[j] = (v[j] - mean) * rstd * g[j] + b[j];
  if constexpr (VEC == 4) {
    *reinterpret_cast<float4*>(yr + col) = make_float4(o[0], o[1], o[2], o[3]);
  } else {
    yr[col] = o[0];
  }
}

// The row in registers: thread `t` of `nthreads` holds columns (k * nthreads + t) * VEC +
// [0, VEC); `reduce` sums over the threads that share the row.
template <int VEC, int ITERS, typename Reduce>
__device__ __forceinline__ void normalize_row(const float* __restrict__ xr, const float* __restrict__ gamma,
                                              const float* __restrict__ beta, float* __restrict__ yr, int n,
                                              float eps, int t, int nthreads, Reduce reduce) {
  float v[ITERS * VEC];
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * nthreads + t) * VEC;
    if (col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) s += v[i];
  const float mean = reduce(s) / n;

  float q = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * nthreads + t) * VEC;
    if (col < n) {
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const float d = v[k * VEC + j] - mean;
        q += d * d;
      }
    }
  }
  const float rstd = rsqrtf(reduce(q) / n + eps);

#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * nthreads + t) * VEC;
    if (col < n) norm_store<VEC>(yr, gamma, beta, col, v + k * VEC, mean, rstd);
  }
}

template <int VEC, int ITERS>
__global__ void __launch_bounds__(256) layernorm_warp(const float* __restrict__ x, const float* __restrict__ gamma,
                                                      const float* __restrict__ beta, float* __restrict__ y,
                                                      int64_t m, int n, float eps) {
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= m) return;  // the whole warp leaves together
  normalize_row<VEC, ITERS>(x + row * n, gamma, beta, y + row * n, n, eps, threadIdx.x % warpSize, warpSize,
                            [](float v) { return warp_sum(v); });
}

template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) layernorm_block(const float* __restrict__ x, const float* __restrict__ gamma,
                                                        const float* __restrict__ beta, float* __restrict__ y, int n,
                                                        float eps) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  normalize_row<VEC, ITERS>(x + row * n, gamma, beta, y + row * n, n, eps, threadIdx.x, blockDim.x,
                            [&](float v) { return block_sum(v, red); });
}

// Chan et al.: merge statistics (count nb, mean mb, squared deviations qb) into (na, ma, qa).
__device__ __forceinline__ void welford_merge(float& na, float& ma, float& qa, float nb, float mb, float qb) {
  const float nt = na + nb;
  if (nt == 0.0f) return;
  const float wb = nb / nt;
  const float delta = mb - ma;
  qa += qb + delta * delta * na * wb;
  ma += delta * wb;
  na = nt;
}

// Rows too long for registers: Welford statistics per thread (one read, merged a batch of four
// chunks of VEC values at a time), merged across the warp by shuffles and across the block
// through shared memory; a second read writes y.
template <int VEC>
__global__ void __launch_bounds__(1024) layernorm_welford(const float* __restrict__ x,
                                                          const float* __restrict__ gamma,
                                                          const float* __restrict__ beta, float* __restrict__ y,
                                                          int n, float eps) {
  __shared__ float sc[MAX_WARPS], sm[MAX_WARPS], sq[MAX_WARPS];
  const int tid = threadIdx.x;
  const int step = blockDim.x * VEC;
  const float* xr = x + (int64_t)blockIdx.x * n;
  float* yr = y + (int64_t)blockIdx.x * n;

  float cnt = 0.0f, mean = 0.0f, q = 0.0f;
  for (int base = tid * VEC; base < n; base += 4 * step) {
    // A batch of up to four chunks of VEC values; the loaded ones are a prefix of v.
    float v[4 * VEC];
    int nb = 0;
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int col = base + u * step;
      if (col < n) {
        load_vec<VEC>(xr + col, v + u * VEC);
        nb += VEC;
      } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j) v[u * VEC + j] = 0.0f;
      }
    }
    float bm = 0.0f;
#pragma unroll
    for (int i = 0; i < 4 * VEC; ++i) bm += v[i];
    bm /= nb;
    float bq = 0.0f;
#pragma unroll
    for (int i = 0; i < 4 * VEC; ++i)
      if (i < nb) bq += (v[i] - bm) * (v[i] - bm);
    welford_merge(cnt, mean, q, (float)nb, bm, bq);
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    const float nb = __shfl_xor(cnt, o), mb = __shfl_xor(mean, o), qb = __shfl_xor(q, o);
    welford_merge(cnt, mean, q, nb, mb, qb);
  }
  const int lane = tid % warpSize, warp = tid / warpSize, nwarps = blockDim.x / warpSize;
  if (lane == 0) {
    sc[warp] = cnt;
    sm[warp] = mean;
    sq[warp] = q;
  }
  __syncthreads();
  cnt = sc[0];
  mean = sm[0];
  q = sq[0];
  for (int w = 1; w < nwarps; ++w) welford_merge(cnt, mean, q, sc[w], sm[w], sq[w]);
  const float rstd = rsqrtf(q / n + eps);

#pragma unroll 4
  for (int col = tid * VEC; col < n; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
    norm_store<VEC>(yr, gamma, beta, col, v, mean, rstd);
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Args {
  const float *x, *gamma, *beta;
  float* y;
  int64_t m;
  int n;
  float eps;
  hipStream_t stream;
};

template <int VEC, int ITERS>
static void launch_rows(const Args& p, bool warp_rows, int ws, int threads) {
  if (warp_rows) {
    const int block = 256, rows = block / ws;
    const int64_t grid = (p.m + rows - 1) / rows;
    hipLaunchKernelGGL((layernorm_warp<VEC, ITERS>), dim3((unsigned)grid), dim3(block), 0, p.stream, p.x, p.gamma,
                       p.beta, p.y, p.m, p.n, p.eps);
  } else {
    hipLaunchKernelGGL((layernorm_block<VEC, ITERS>), dim3((unsigned)p.m), dim3(threads), 0, p.stream, p.x,
                       p.gamma, p.beta, p.y, p.n, p.eps);
  }
}

// iters: values (VEC == 1) or vectors (VEC == 4) per thread, a power of two, at most 32 / VEC.
template <int VEC>
static int dispatch(const Args& p, bool warp_rows, int ws, int threads, int iters) {
#define ARENA_CASE(IT)                                 \
  case IT:                                             \
    if constexpr (IT * VEC <= 32) {                    \
      launch_rows<VEC, IT>(p, warp_rows, ws, threads); \
      return 0;                                        \
    }                                                  \
    return 1;
  switch (iters) {
    ARENA_CASE(1)
    ARENA_CASE(2)
    ARENA_CASE(4)
    ARENA_CASE(8)
    ARENA_CASE(16)
    ARENA_CASE(32)
    default: return 1;
  }
#undef ARENA_CASE
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  Args p;
  p.x = static_cast<const float*>(a->tensors[0]);
  p.gamma = static_cast<const float*>(a->tensors[1]);
  p.beta = static_cast<const float*>(a->tensors[2]);
  p.y = static_cast<float*>(a->tensors[3]);
  p.m = a->ints[0];
  p.n = (int)a->ints[1];
  p.eps = (float)a->floats[0];
  p.stream = a->stream;
  const int n = p.n;
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const bool vec4 = n % 4 == 0;
  const int vec = vec4 ? 4 : 1;
  int rc = 0;

  if (n <= 32 * ws) {  // one warp per row
    const int per = (n + ws - 1) / ws;
    const int iters = pow2_at_least((per + vec - 1) / vec);
    rc = vec4 ? dispatch<4>(p, true, ws, 0, iters) : dispatch<1>(p, true, ws, 0, iters);
  } else if (n <= 32 * 1024) {  // one block per row, the row in registers
    int threads = pow2_at_least((n + 15) / 16);
    threads = threads < 128 ? 128 : (threads > 512 ? 512 : threads);
    if ((n + threads - 1) / threads > 32) threads = 1024;
    if (threads < ws) threads = ws;
    const int per = (n + threads - 1) / threads;
    const int iters = pow2_at_least((per + vec - 1) / vec);
    rc = vec4 ? dispatch<4>(p, false, ws, threads, iters) : dispatch<1>(p, false, ws, threads, iters);
  } else {  // Welford statistics, two reads
    if (vec4)
      hipLaunchKernelGGL(layernorm_welford<4>, dim3((unsigned)p.m), dim3(1024), 0, p.stream, p.x, p.gamma, p.beta,
                         p.y, n, p.eps);
    else
      hipLaunchKernelGGL(layernorm_welford<1>, dim3((unsigned)p.m), dim3(1024), 0, p.stream, p.x, p.gamma, p.beta,
                         p.y, n, p.eps);
  }
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

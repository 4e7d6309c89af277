// Residual add + layer normalization over fp16 rows in one kernel: each row of x and r is
// read once, h = x + r is rounded to fp16 and written, and the rounded row stays in registers
// for the statistics (mean, then the variance about it) and for y, written once (the
// baseline writes h and re-reads it three times in a second kernel):
//  - short rows (N <= 32 * warpSize; 16 * warpSize when N % 8 != 0): a group of tpr lanes
//    (a power of two) per row, several rows per block, reductions with xor shuffles inside
//    the group;
//  - longer rows: one block of 128 to 1024 threads per row, at most 32 values per thread
//    (16 when N % 8 != 0), warp shuffles and one shared slot per warp;
//  - rows longer than that (beyond 32768 values; 16384 when N % 8 != 0): a block per row
//    that re-reads its own h (mostly from cache).
// 16-byte loads and stores (eight fp16) when N % 8 == 0 (every row is then 16-byte aligned),
// scalar ones otherwise. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes

__device__ __forceinline__ float f16_lo(uint32_t w) {
  return __half2float(__ushort_as_half((unsigned short)(w & 0xffffu)));
}
__device__ __forceinline__ float f16_hi(uint32_t w) {
  return __half2float(__ushort_as_half((unsigned short)(w >> 16)));
}
__device__ __forceinline__ uint32_t f16_bits(float f) { return (uint32_t)__half_as_ushort(__float2half(f)); }

template <int VEC>
__device__ __forceinline__ void load_f16(const __half* p, float* v) {
  if constexpr (VEC == 8) {
    const uint4 t = *reinterpret_cast<const uint4*>(p);
    v[0] = f16_lo(t.x); v[1] = f16_hi(t.x); v[2] = f16_lo(t.y); v[3] = f16_hi(t.y);
    v[4] = f16_lo(t.z); v[5] = f16_hi(t.z); v[6] = f16_lo(t.w); v[7] = f16_hi(t.w);
  } else {
    v[0] = __half2float(*p);
  }
}

// Rounds v to fp16, stores it, and leaves the rounded values in v.
template <int VEC>
__device__ __forceinline__ void round_store_f16(__half* p, float* v, bool store) {
  if constexpr (VEC == 8) {
    uint32_t w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      w[k] = f16_bits(v[2 * k]) | (f16_bits(v[2 * k + 1]) << 16);
      v[2 * k] = f16_lo(w[k]);
      v[2 * k + 1] = f16_hi(w[k]);
    }
    if (store) *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else {
    const __half hv = __float2half(v[0]);
    v[0] = __half2float(hv);
    if (store) *p = hv;
  }
}

// Sum over the tpr threads that share a row (tpr a power of two). Groups of at most a warp
// use xor shuffles within the group (every lane of the warp takes part); a row of several
// warps is a whole block (tpr == blockDim.x) and adds one shared slot per warp.
__device__ __forceinline__ float row_sum(float v, int tpr, float* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < tpr / warpSize; ++w) v += red[w];
    __syncthreads();
  }
  return v;
}

// h = fp16(x + r) for the VEC values at col: rounded values in v, h stored when `store`.
template <int VEC>
__device__ __forceinline__ void add_round(const __half* __restrict__ xr, const __half* __restrict__ rr, __half* hr,
                                          int col, float* v, bool store) {
  float b[VEC];
  load_f16<VEC>(xr + col, v);
  load_f16<VEC>(rr + col, b);
#pragma unroll
  for (int j = 0; j < VEC; ++j) v[j] += b[j];
  round_store_f16<VEC>(hr + col, v, store);
}

// y = (h - mean) * rstd * gamma + beta for the VEC values of v at col.
template <int VEC>
__device__ __forceinline__ void norm_store(__half* yr, const __half* __restrict__ gamma,
                                           const __half* __restrict__ beta, int col, const float* v, float mean,
                                           float rstd) {
  float g[VEC], b[VEC], o[VEC];
  load_f16<VEC>(gamma + col, g);
  load_f16<VEC>(beta + col, b);
#pragma unroll
  for (int j = 0; j < VEC; ++j) o[j] = (v[j] - mean) * rstd * g[j] + b[j];
  round_store_f16<VEC>(yr + col, o, true);
}

// Rows held in registers: thread t of the tpr threads of a row holds columns
// (k * tpr + t) * VEC + [0, VEC) for k < ITERS.
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) add_ln_rows(const __half* __restrict__ x, const __half* __restrict__ r,
                                                    const __half* __restrict__ gamma,
                                                    const __half* __restrict__ beta, __half* __restrict__ h,
                                                    __half* __restrict__ y, int64_t m, int n, int tpr, float eps) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x & (tpr - 1);
  int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = row < m;
  if (!live) row = 0;  // groups past the last row still take part in the shuffles, store nothing
  const int64_t off = row * n;

  float v[ITERS * VEC];
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) {
      add_round<VEC>(x + off, r + off, h + off, col, v + k * VEC, live);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) s += v[i];
  const float mean = row_sum(s, tpr, red) / n;

  float q = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) {
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const float d = v[k * VEC + j] - mean;
        q += d * d;
      }
    }
  }
  const float rstd = rsqrtf(row_sum(q, tpr, red) / n + eps);

  if (!live) return;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) norm_store<VEC>(y + off, gamma, beta, col, v + k * VEC, mean, rstd);
  }
}

// Rows too long for registers: one block per row; each thread re-reads only the h values it
// wrote itself (the same thread, so its own writes are visible), for the variance and for y.
template <int VEC>
__global__ void __launch_bounds__(1024) add_ln_long(const __half* __restrict__ x, const __half* __restrict__ r,
                                                    const __half* __restrict__ gamma,
                                                    const __half* __restrict__ beta, __half* __restrict__ h,
                                                    __half* __restrict__ y, int n, float eps) {
  __shared__ float red[MAX_WARPS];
  const int step = blockDim.x * VEC;
  const int64_t off = (int64_t)blockIdx.x * n;
  float s = 0.0f;
#pragma unroll 4
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    add_round<VEC>(x + off, r + off, h + off, col, v, true);
#pragma unroll
    for (int j = 0; j < VEC; ++j) s += v[j];
  }
  const float mean = row_sum(s, blockDim.x, red) / n;
  float q = 0.0f;
#pragma unroll 4
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_f16<VEC>(h + off + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) q += (v[j] - mean) * (v[j] - mean);
  }
  const float rstd = rsqrtf(row_sum(q, blockDim.x, red) / n + eps);
#pragma unroll 4
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_f16<VEC>(h + off + col, v);
    norm_store<VEC>(y + off, gamma, beta, col, v, mean, rstd);
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Args {
  const __half *x, *r, *gamma, *beta;
  __half *h, *y;
  int64_t m;
  int n;
  float eps;
  hipStream_t stream;
};

// iters: vectors per thread, a power of two with iters * VEC <= 32 (at most 16 when VEC == 1).
template <int VEC>
static int launch_rows(const Args& p, int tpr, int block, int iters) {
  const int64_t rows_per_block = block / tpr;
  const dim3 grid((unsigned)((p.m + rows_per_block - 1) / rows_per_block));
#define ARENA_CASE(IT)                                                                                             \
  case IT:                                                                                                         \
    if constexpr (IT * VEC <= 32) {                                                                                \
      hipLaunchKernelGGL((add_ln_rows<VEC, IT>), grid, dim3(block), 0, p.stream, p.x, p.r, p.gamma, p.beta, p.h, p.y, \
                         p.m, p.n, tpr, p.eps);                                                                    \
      return 0;                                                                                                    \
    }                                                                                                              \
    return 1;
  switch (iters) {
    ARENA_CASE(1)
    ARENA_CASE(2)
    ARENA_CASE(4)
    ARENA_CASE(8)
    ARENA_CASE(16)
    default: return 1;
  }
#undef ARENA_CASE
}

template <int VEC>
static int run(const Args& p, int ws) {
  const int nvec = (p.n + VEC - 1) / VEC;  // vectors per row
  constexpr int MAXIT = VEC == 8 ? 4 : 16;  // at most 32 (vectors) or 16 (scalars) values per thread
  if (nvec <= ws * MAXIT) {                // a group of at most one warp per row
    const int tpr = nvec <= ws ? pow2_at_least(nvec) : ws;
    const int iters = pow2_at_least((nvec + tpr - 1) / tpr);
    return launch_rows<VEC>(p, tpr, 256, iters);
  }
  if (nvec <= 1024 * MAXIT) {  // one block per row
    int tpr = pow2_at_least((nvec + MAXIT - 1) / MAXIT);
    if (tpr < 128) tpr = 128;
    if (tpr < ws) tpr = ws;
    const int iters = pow2_at_least((nvec + tpr - 1) / tpr);
    return launch_rows<VEC>(p, tpr, tpr, iters);
  }
  hipLaunchKernelGGL(add_ln_long<VEC>, dim3((unsigned)p.m), dim3(1024), 0, p.stream, p.x, p.r, p.gamma, p.beta, p.h,
                     p.y, p.n, p.eps);
  return 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  Args p;
  p.x = static_cast<const __half*>(a->tensors[0]);
  p.r = static_cast<const __half*>(a->tensors[1]);
  p.gamma = static_cast<const __half*>(a->tensors[2]);
  p.beta = static_cast<const __half*>(a->tensors[3]);
  p.h = static_cast<__half*>(a->tensors[4]);
  p.y = static_cast<__half*>(a->tensors[5]);
  p.m = a->ints[0];
  p.n = (int)a->ints[1];
  p.eps = (float)a->floats[0];
  p.stream = a->stream;
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const int rc = p.n % 8 == 0 ? run<8>(p, ws) : run<1>(p, ws);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

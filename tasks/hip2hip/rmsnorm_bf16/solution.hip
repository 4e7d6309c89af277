// RMS normalization over the rows of an M x N bf16 matrix with one read of x and one write of
// y whenever the row fits in registers (the baseline reads x twice):
//  - short rows (N <= 32 * warpSize; 16 * warpSize when N % 8 != 0): a group of tpr lanes
//    (a power of two, down to one) per row, so that one block of 256 threads normalizes
//    256 / tpr rows and no lane idles on rows of 128 values; the sum of squares is reduced
//    with xor shuffles inside the group;
//  - longer rows: one block of 128 to 1024 threads per row, at most 32 values per thread
//    (16 when N % 8 != 0), reduced with warp shuffles and one shared slot per warp;
//  - rows longer than that (beyond 32768 values; 16384 when N % 8 != 0): a block per
//    row that reads x twice.
// 16-byte loads and stores (eight bf16) of x, weight and y when N % 8 == 0 (every row is then
// 16-byte aligned), scalar ones otherwise. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes

__device__ __forceinline__ float bf16_to_float(uint32_t b) { return __uint_as_float((b & 0xffffu) << 16); }

// fp32 -> bf16, round to nearest even; NaN stays NaN.
__device__ __forceinline__ uint32_t float_to_bf16(float f) {
  uint32_t u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x0040u;
  u += 0x7fffu + ((u >> 16) & 1u);
  return u >> 16;
}

template <int VEC>
__device__ __forceinline__ void load_bf16(const uint16_t* p, float* v) {
  if constexpr (VEC == 8) {
    const uint4 t = *reinterpret_cast<const uint4*>(p);
    v[0] = bf16_to_float(t.x); v[1] = bf16_to_float(t.x >> 16);
    v[2] = bf16_to_float(t.y); v[3] = bf16_to_float(t.y >> 16);
    v[4] = bf16_to_float(t.z); v[5] = bf16_to_float(t.z >> 16);
    v[6] = bf16_to_float(t.w); v[7] = bf16_to_float(t.w >> 16);
  } else {
    v[0] = bf16_to_float(*p);
  }
}

template <int VEC>
__device__ __forceinline__ void store_bf16(uint16_t* p, const float* v) {
  if constexpr (VEC == 8) {
    uint32_t w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) w[k] = float_to_bf16(v[2 * k]) | (float_to_bf16(v[2 * k + 1]) << 16);
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else {
    *p = (uint16_t)float_to_bf16(v[0]);
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

// y = x * rsqrt(mean(x^2) + eps) * w for the VEC values of v at column col.
template <int VEC>
__device__ __forceinline__ void scale_store(uint16_t* yr, const uint16_t* __restrict__ w, int col, const float* v,
                                            float rstd) {
  float g[VEC], o[VEC];
  load_bf16<VEC>(w + col, g);
#pragma unroll
  for (int j = 0; j < VEC; ++j) o[j] = v[j] * rstd * g[j];
  store_bf16<VEC>(yr + col, o);
}

// Rows held in registers: thread t of the tpr threads of a row holds columns
// (k * tpr + t) * VEC + [0, VEC) for k < ITERS.
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) rmsnorm_rows(const uint16_t* __restrict__ x, const uint16_t* __restrict__ w,
                                                     uint16_t* __restrict__ y, int64_t m, int n, int tpr, float eps) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x & (tpr - 1);
  int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = row < m;
  if (!live) row = 0;  // groups past the last row still take part in the shuffles, store nothing
  const uint16_t* xr = x + row * n;
  uint16_t* yr = y + row * n;

  float v[ITERS * VEC];
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) {
      load_bf16<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) s += v[i] * v[i];
  const float rstd = rsqrtf(row_sum(s, tpr, red) / n + eps);

  if (!live) return;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) scale_store<VEC>(yr, w, col, v + k * VEC, rstd);
  }
}

// Rows too long for registers: one block per row, sum of squares, then a second read.
template <int VEC>
__global__ void __launch_bounds__(1024) rmsnorm_long(const uint16_t* __restrict__ x, const uint16_t* __restrict__ w,
                                                     uint16_t* __restrict__ y, int n, float eps) {
  __shared__ float red[MAX_WARPS];
  const int step = blockDim.x * VEC;
  const uint16_t* xr = x + (int64_t)blockIdx.x * n;
  uint16_t* yr = y + (int64_t)blockIdx.x * n;
  float s = 0.0f;
#pragma unroll 4
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_bf16<VEC>(xr + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) s += v[j] * v[j];
  }
  const float rstd = rsqrtf(row_sum(s, blockDim.x, red) / n + eps);
#pragma unroll 4
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_bf16<VEC>(xr + col, v);
    scale_store<VEC>(yr, w, col, v, rstd);
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Args {
  const uint16_t *x, *w;
  uint16_t* y;
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
#define ARENA_CASE(IT)                                                                                          \
  case IT:                                                                                                      \
    if constexpr (IT * VEC <= 32) {                                                                             \
      hipLaunchKernelGGL((rmsnorm_rows<VEC, IT>), grid, dim3(block), 0, p.stream, p.x, p.w, p.y, p.m, p.n, tpr, \
                         p.eps);                                                                                \
      return 0;                                                                                                 \
    }                                                                                                           \
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
  hipLaunchKernelGGL(rmsnorm_long<VEC>, dim3((unsigned)p.m), dim3(1024), 0, p.stream, p.x, p.w, p.y, p.n, p.eps);
  return 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  Args p;
  p.x = static_cast<const uint16_t*>(a->tensors[0]);
  p.w = static_cast<const uint16_t*>(a->tensors[1]);
  p.y = static_cast<uint16_t*>(a->tensors[2]);
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

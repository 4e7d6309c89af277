// Scaled causal softmax over fp16 scores [BH, S, S] with one read of the kept part of each row
// and one write of the whole row:
//  - the row lives in registers: a group of tpr lanes per row (a power of two, several rows
//    per block of 256 threads) while the row fits in one warp at 32 values per lane, else one
//    block of 128 to 1024 threads per row; max and sum are reduced with xor shuffles (and one
//    shared slot per warp when a row spans several warps);
//  - only the columns j <= i are read (the baseline reads them three times); the vectors past
//    the diagonal are never loaded and are written as zeros in the same store loop;
//  - 16-byte loads and stores (eight fp16) when S % 8 == 0 (every row is then 16-byte
//    aligned), scalar ones otherwise; the exps are computed once and scaled by 1 / sum.
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
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

template <int VEC>
__device__ __forceinline__ void store_f16(__half* p, const float* v) {
  if constexpr (VEC == 8) {
    uint32_t w[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) w[k] = f16_bits(v[2 * k]) | (f16_bits(v[2 * k + 1]) << 16);
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else {
    *p = __float2half(v[0]);
  }
}

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

// Reduction over the tpr threads that share a row (tpr a power of two). Groups of at most a
// warp use xor shuffles within the group (every lane of the warp takes part); a row of several
// warps is a whole block (tpr == blockDim.x) and adds one shared slot per warp.
template <typename Op>
__device__ __forceinline__ float row_reduce(float v, int tpr, float* red, Op op) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v = op(v, __shfl_xor(v, o));
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < tpr / warpSize; ++w) v = op(v, red[w]);
    __syncthreads();
  }
  return v;
}

// Thread t of the tpr threads of a row holds columns (k * tpr + t) * VEC + [0, VEC), k < ITERS.
// Rows are numbered bh * S + i; row i keeps columns 0..i.
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) causal_softmax_rows(const __half* __restrict__ s, __half* __restrict__ y,
                                                            int64_t rows, int n, int tpr, float scale) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x & (tpr - 1);
  int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = row < rows;
  if (!live) row = 0;  // groups past the last row still take part in the shuffles, store nothing
  const int last = (int)(row % n);  // last kept column
  const __half* sr = s + row * n;
  __half* yr = y + row * n;

  float v[ITERS * VEC];
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col <= last) {  // the vector holds at least one kept column
      load_f16<VEC>(sr + col, v + k * VEC);
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = col + j <= last ? scale * v[k * VEC + j] : -INFINITY;
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = -INFINITY;
    }
  }
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) mx = fmaxf(mx, v[i]);
  mx = row_reduce(mx, tpr, red, MaxOp());  // finite: column 0 is always kept

  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) {
    v[i] = expf(v[i] - mx);  // masked columns: exp(-inf) = 0
    sum += v[i];
  }
  const float inv = 1.0f / row_reduce(sum, tpr, red, SumOp());

  if (!live) return;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) {
      float o[VEC];
#pragma unroll
      for (int j = 0; j < VEC; ++j) o[j] = v[k * VEC + j] * inv;
      store_f16<VEC>(yr + col, o);
    }
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

// iters: vectors per thread, a power of two with iters * VEC <= 32 (at most 16 when VEC == 1).
template <int VEC>
static int launch_rows(const __half* s, __half* y, int64_t rows, int n, int tpr, int block, int iters, float scale,
                       hipStream_t st) {
  const int64_t rows_per_block = block / tpr;
  const dim3 grid((unsigned)((rows + rows_per_block - 1) / rows_per_block));
#define ARENA_CASE(IT)                                                                                          \
  case IT:                                                                                                      \
    if constexpr (IT * VEC <= 32) {                                                                             \
      hipLaunchKernelGGL((causal_softmax_rows<VEC, IT>), grid, dim3(block), 0, st, s, y, rows, n, tpr, scale); \
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
static int run(const __half* s, __half* y, int64_t rows, int n, float scale, int ws, hipStream_t st) {
  const int nvec = (n + VEC - 1) / VEC;     // vectors per row
  constexpr int MAXIT = VEC == 8 ? 4 : 16;  // at most 32 (vectors) or 16 (scalars) values per thread
  if (nvec <= ws * MAXIT) {                 // a group of at most one warp per row
    const int tpr = nvec <= ws ? pow2_at_least(nvec) : ws;
    const int iters = pow2_at_least((nvec + tpr - 1) / tpr);
    return launch_rows<VEC>(s, y, rows, n, tpr, 256, iters, scale, st);
  }
  if (nvec <= 1024 * MAXIT) {  // one block per row (S <= 8192 always fits)
    int tpr = pow2_at_least((nvec + MAXIT - 1) / MAXIT);
    if (tpr < 128) tpr = 128;
    if (tpr < ws) tpr = ws;
    const int iters = pow2_at_least((nvec + tpr - 1) / tpr);
    return launch_rows<VEC>(s, y, rows, n, tpr, tpr, iters, scale, st);
  }
  return 1;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* s = static_cast<const __half*>(a->tensors[0]);
  __half* y = static_cast<__half*>(a->tensors[1]);
  const int64_t bh = a->ints[0];
  const int n = (int)a->ints[1];
  const float scale = (float)a->floats[0];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const int64_t rows = bh * n;
  const int rc = n % 8 == 0 ? run<8>(s, y, rows, n, scale, ws, a->stream) : run<1>(s, y, rows, n, scale, ws, a->stream);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

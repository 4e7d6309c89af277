// RMSNorm over fp16 rows in one kernel (eager PyTorch runs six and moves the matrix six
// times): y = fp16(x * rsqrt(sum(x^2) / N + eps) * w), fp32 math.
//  - rows that fit in registers (N <= 32768; 16384 when N % 8 != 0): a group of tpr threads
//    (a power of two) per row, at most 32 values per thread, so x is read once; groups of at
//    most a warp reduce with xor shuffles, larger ones add one shared slot per warp;
//  - longer rows: a block per row, the sum of squares, then a second read (mostly from L2)
//    that writes y.
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
__device__ __forceinline__ uint32_t f16_pack(float lo, float hi) {
  return (uint32_t)__half_as_ushort(__float2half(lo)) | ((uint32_t)__half_as_ushort(__float2half(hi)) << 16);
}

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
    *reinterpret_cast<uint4*>(p) =
        make_uint4(f16_pack(v[0], v[1]), f16_pack(v[2], v[3]), f16_pack(v[4], v[5]), f16_pack(v[6], v[7]));
  } else {
    *p = __float2half(v[0]);
  }
}

// Sum over the tpr threads of a row group (tpr a power of two, groups aligned to tpr). Every
// thread of the block must call it; `red` is free again on return.
__device__ __forceinline__ float group_sum(float v, int tpr, float* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    const int wpg = tpr / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    const int first = warp - warp % wpg;
    v = red[first];
    for (int w = 1; w < wpg; ++w) v += red[first + w];
    __syncthreads();
  }
  return v;
}

// y = x * r * w for VEC values at col.
template <int VEC>
__device__ __forceinline__ void scale_store(__half* yr, const __half* __restrict__ w, int col, const float* v, float r) {
  float wv[VEC], o[VEC];
  load_f16<VEC>(w + col, wv);
#pragma unroll
  for (int j = 0; j < VEC; ++j) o[j] = v[j] * r * wv[j];
  store_f16<VEC>(yr + col, o);
}

// Row in registers: thread t of a group holds columns (k * tpr + t) * VEC + [0, VEC).
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) rmsnorm_regs(const __half* __restrict__ x, const __half* __restrict__ w,
                                                     __half* __restrict__ y, int64_t m, int n, int tpr, float eps) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < m;  // rows past the end still join the reductions
  const __half* xr = x + (valid ? row : 0) * n;

  float v[ITERS * VEC];
  float ss = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (valid && col < n) {
      load_f16<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) ss += v[i] * v[i];
  ss = group_sum(ss, tpr, red);
  if (!valid) return;
  const float r = rsqrtf(ss / (float)n + eps);
  __half* yr = y + row * n;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) scale_store<VEC>(yr, w, col, v + k * VEC, r);
  }
}

// Rows too long for registers: one block per row, two reads.
template <int VEC>
__global__ void __launch_bounds__(1024) rmsnorm_long(const __half* __restrict__ x, const __half* __restrict__ w,
                                                     __half* __restrict__ y, int n, float eps) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  const __half* xr = x + row * n;
  const int step = blockDim.x * VEC;
  float ss = 0.0f;
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_f16<VEC>(xr + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) ss += v[j] * v[j];
  }
  ss = group_sum(ss, blockDim.x, red);
  const float r = rsqrtf(ss / (float)n + eps);
  __half* yr = y + row * n;
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_f16<VEC>(xr + col, v);
    scale_store<VEC>(yr, w, col, v, r);
  }
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

template <int VEC, int ITERS>
static void launch_regs(const __half* x, const __half* w, __half* y, int64_t m, int n, int tpr, float eps,
                        hipStream_t st) {
  const int block = tpr > 256 ? tpr : 256;
  const int rows = block / tpr;
  const int64_t grid = (m + rows - 1) / rows;
  hipLaunchKernelGGL((rmsnorm_regs<VEC, ITERS>), dim3((unsigned)grid), dim3(block), 0, st, x, w, y, m, n, tpr, eps);
}

// maxit: vectors per thread allowed (32 values); returns 1 when the row does not fit.
template <int VEC>
static int run(const __half* x, const __half* w, __half* y, int64_t m, int n, float eps, hipStream_t st) {
  constexpr int MAXIT = VEC == 8 ? 4 : 16;
  const int64_t nv = (n + VEC - 1) / VEC;
  if (nv > 1024 * MAXIT) {
    hipLaunchKernelGGL(rmsnorm_long<VEC>, dim3((unsigned)m), dim3(1024), 0, st, x, w, y, n, eps);
    return 0;
  }
  // Short rows: up to 32 threads with one vector each; longer: as few threads as MAXIT allows.
  int tpr = nv <= 32 ? pow2_at_least(nv) : 32;
  if (nv > 32 * MAXIT) tpr = pow2_at_least((nv + MAXIT - 1) / MAXIT);
  const int iters = pow2_at_least((nv + tpr - 1) / tpr);
  switch (iters) {
    case 1: launch_regs<VEC, 1>(x, w, y, m, n, tpr, eps, st); return 0;
    case 2: launch_regs<VEC, 2>(x, w, y, m, n, tpr, eps, st); return 0;
    case 4: launch_regs<VEC, 4>(x, w, y, m, n, tpr, eps, st); return 0;
    case 8: if constexpr (MAXIT >= 8) { launch_regs<VEC, 8>(x, w, y, m, n, tpr, eps, st); return 0; }
            return 1;
    case 16: if constexpr (MAXIT >= 16) { launch_regs<VEC, 16>(x, w, y, m, n, tpr, eps, st); return 0; }
             return 1;
    default: return 1;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  const __half* w = static_cast<const __half*>(a->tensors[1]);
  __half* y = static_cast<__half*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const float eps = (float)a->floats[0];
  const int rc = n % 8 == 0 ? run<8>(x, w, y, m, n, eps, a->stream) : run<1>(x, w, y, m, n, eps, a->stream);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

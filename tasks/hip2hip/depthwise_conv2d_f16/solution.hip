// Depthwise KS x KS convolution, padding KS/2, fp16 NHWC, fp32 accumulation. A thread owns 8
// channels (one 16-byte vector) of TW = 4 consecutive output pixels of one row. Per filter row
// it loads the row's KS weight vectors once and slides along the TW + KS - 1 input vectors of
// that row, each loaded once (16-byte, coalesced across the channel-fastest threads) and
// converted to fp32 once, feeding every output that uses it: per 32 outputs that is
// KS * (TW + 2KS - 1) 16-byte loads instead of 2 * KS * KS * 32 scalar 2-byte loads, and the
// index arithmetic is shared by 32 outputs. KS is a template parameter (1, 3, 5, 7), so all
// window loops unroll and the weights stay in registers. When C % 8 != 0 the same kernel runs
// with one channel per thread (scalar loads).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define TW 4  // output pixels per thread along W

template <int VEC>
struct Vec;

template <>
struct Vec<8> {
  static __device__ __forceinline__ void load(const __half* p, float* f) {
    const uint4 raw = *reinterpret_cast<const uint4*>(p);
    const __half2* h = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const float2 v = __half22float2(h[k]);
      f[2 * k] = v.x;
      f[2 * k + 1] = v.y;
    }
  }
  static __device__ __forceinline__ void store(__half* p, const float* f) {
    uint4 raw;
    __half2* h = reinterpret_cast<__half2*>(&raw);
#pragma unroll
    for (int k = 0; k < 4; ++k) h[k] = __floats2half2_rn(f[2 * k], f[2 * k + 1]);
    *reinterpret_cast<uint4*>(p) = raw;
  }
};

template <>
struct Vec<1> {
  static __device__ __forceinline__ void load(const __half* p, float* f) { f[0] = __half2float(*p); }
  static __device__ __forceinline__ void store(__half* p, const float* f) { *p = __float2half(f[0]); }
};

template <int KS, int VEC>
__global__ void __launch_bounds__(256, 2) depthwise_rows(const __half* __restrict__ x, const __half* __restrict__ w,
                                                     __half* __restrict__ y, int64_t total, int H, int W, int C,
                                                     int nCV, int nWT) {
  constexpr int P = KS / 2;
  constexpr int NX = TW + KS - 1;  // input pixels per row of the window
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int cv = (int)(idx % nCV);
  int64_t t = idx / nCV;
  const int wt = (int)(t % nWT);
  t /= nWT;
  const int oh = (int)(t % H);
  const int64_t b = t / H;
  const int c = cv * VEC;
  const int w0 = wt * TW;

  float acc[TW][VEC];
#pragma unroll
  for (int p = 0; p < TW; ++p)
#pragma unroll
    for (int v = 0; v < VEC; ++v) acc[p][v] = 0.0f;

#pragma unroll
  for (int kh = 0; kh < KS; ++kh) {
    const int ih = oh + kh - P;
    if (ih < 0 || ih >= H) continue;
    float wk[KS][VEC];
#pragma unroll
    for (int kw = 0; kw < KS; ++kw) Vec<VEC>::load(w + (int64_t)(kh * KS + kw) * C + c, wk[kw]);
    const __half* xr = x + ((b * H + ih) * (int64_t)W) * C + c;
#pragma unroll
    for (int j = 0; j < NX; ++j) {
      const int iw = w0 - P + j;
      float xv[VEC];
      if (iw >= 0 && iw < W) {
        Vec<VEC>::load(xr + (int64_t)iw * C, xv);
      } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v) xv[v] = 0.0f;
      }
#pragma unroll
      for (int p = 0; p < TW; ++p) {
        const int kw = j - p;  // compile-time after unrolling
        if (kw >= 0 && kw < KS) {
#pragma unroll
          for (int v = 0; v < VEC; ++v) acc[p][v] = fmaf(xv[v], wk[kw][v], acc[p][v]);
        }
      }
    }
  }

  __half* yr = y + ((b * H + oh) * (int64_t)W) * C + c;
#pragma unroll
  for (int p = 0; p < TW; ++p)
    if (w0 + p < W) Vec<VEC>::store(yr + (int64_t)(w0 + p) * C, acc[p]);
}

template <int KS>
static void launch_ks(const __half* x, const __half* w, __half* y, int64_t B, int H, int W, int C, hipStream_t st) {
  const int nWT = (W + TW - 1) / TW;
  const int block = 256;
  if (C % 8 == 0) {
    const int nCV = C / 8;
    const int64_t total = B * H * nWT * nCV;
    hipLaunchKernelGGL((depthwise_rows<KS, 8>), dim3((unsigned)((total + block - 1) / block)), dim3(block), 0, st, x,
                       w, y, total, H, W, C, nCV, nWT);
  } else {
    const int64_t total = B * H * nWT * C;
    hipLaunchKernelGGL((depthwise_rows<KS, 1>), dim3((unsigned)((total + block - 1) / block)), dim3(block), 0, st, x,
                       w, y, total, H, W, C, C, nWT);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  const __half* w = static_cast<const __half*>(a->tensors[1]);
  __half* y = static_cast<__half*>(a->tensors[2]);
  const int64_t B = a->ints[0];
  const int H = (int)a->ints[1], W = (int)a->ints[2], C = (int)a->ints[3], KS = (int)a->ints[4];
  switch (KS) {
    case 1: launch_ks<1>(x, w, y, B, H, W, C, a->stream); break;
    case 3: launch_ks<3>(x, w, y, B, H, W, C, a->stream); break;
    case 5: launch_ks<5>(x, w, y, B, H, W, C, a->stream); break;
    case 7: launch_ks<7>(x, w, y, B, H, W, C, a->stream); break;
    default: return 1;  // the task allows odd KS from 1 to 7 only
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

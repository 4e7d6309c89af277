// Depthwise 3x3 conv (padding 1) + bias + ReLU, fp32 NCHW, in one pass: x is read once and y
// written once (eager writes the convolution and reads it back for the ReLU).
//
// A thread owns TW = 4 adjacent outputs of a row and walks RS = 8 rows down its plane, keeping
// a sliding window of three input rows (TW + 2 values each) in registers: each input row is
// loaded once per thread (plus two halo rows per segment), the filter and bias stay in
// registers. Threads of a warp take adjacent column groups, so row loads and stores are
// coalesced; when width % 4 == 0 the four centre values and the four outputs are one aligned
// 16-byte vector (rows start at multiples of width), otherwise checked scalar accesses.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TW 4  // outputs per thread along a row
#define RS 8  // rows per thread

template <bool VEC>
__device__ __forceinline__ void load_row(const float* __restrict__ row, bool inside, int w0, int W,
                                         float r[TW + 2]) {
  if (!inside) {
#pragma unroll
    for (int j = 0; j < TW + 2; ++j) r[j] = 0.0f;
    return;
  }
  if (VEC) {
    const float4 c = *reinterpret_cast<const float4*>(row + w0);
    r[0] = w0 > 0 ? row[w0 - 1] : 0.0f;
    r[1] = c.x;
    r[2] = c.y;
    r[3] = c.z;
    r[4] = c.w;
    r[5] = w0 + TW < W ? row[w0 + TW] : 0.0f;
  } else {
#pragma unroll
    for (int j = 0; j < TW + 2; ++j) {
      const int iw = w0 - 1 + j;
      r[j] = (iw >= 0 && iw < W) ? row[iw] : 0.0f;
    }
  }
}

template <bool VEC>
__global__ __launch_bounds__(256) void dw3x3_bias_relu(const float* __restrict__ x, const float* __restrict__ w,
                                                       const float* __restrict__ bias, float* __restrict__ y,
                                                       int64_t total, int C, int H, int W, int nWG, int nHS) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int wg = (int)(idx % nWG);
  const int64_t t = idx / nWG;
  const int hs = (int)(t % nHS);
  const int64_t plane = t / nHS;  // n * C + c
  const int c = (int)(plane % C);
  const int64_t HW = (int64_t)H * W;
  const float* xp = x + plane * HW;
  float* yp = y + plane * HW;

  float k[9];
#pragma unroll
  for (int i = 0; i < 9; ++i) k[i] = w[c * 9 + i];
  const float bv = bias[c];

  const int w0 = wg * TW;
  const int h0 = hs * RS;
  const int h1 = h0 + RS < H ? h0 + RS : H;
  float r0[TW + 2], r1[TW + 2], r2[TW + 2];
  load_row<VEC>(xp + (int64_t)(h0 > 0 ? h0 - 1 : 0) * W, h0 > 0, w0, W, r0);
  load_row<VEC>(xp + (int64_t)h0 * W, true, w0, W, r1);
  for (int h = h0; h < h1; ++h) {
    load_row<VEC>(xp + (int64_t)(h + 1 < H ? h + 1 : h) * W, h + 1 < H, w0, W, r2);
    float o[TW];
#pragma unroll
    for (int p = 0; p < TW; ++p) {
      float s = 0.0f;
#pragma unroll
      for (int j = 0; j < 3; ++j) {
        s = fmaf(k[j], r0[p + j], s);
        s = fmaf(k[3 + j], r1[p + j], s);
        s = fmaf(k[6 + j], r2[p + j], s);
      }
      o[p] = fmaxf(s + bv, 0.0f);
    }
    float* yr = yp + (int64_t)h * W;
    if (VEC) {
      *reinterpret_cast<float4*>(yr + w0) = make_float4(o[0], o[1], o[2], o[3]);
    } else {
#pragma unroll
      for (int p = 0; p < TW; ++p)
        if (w0 + p < W) yr[w0 + p] = o[p];
    }
#pragma unroll
    for (int j = 0; j < TW + 2; ++j) {
      r0[j] = r1[j];
      r1[j] = r2[j];
    }
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t B = a->ints[0];
  const int C = (int)a->ints[1], H = (int)a->ints[2], W = (int)a->ints[3];
  const int nWG = (W + TW - 1) / TW;
  const int nHS = (H + RS - 1) / RS;
  const int64_t total = B * C * nHS * nWG;
  const int threads = 256;
  const dim3 grid((unsigned)((total + threads - 1) / threads));
  if (W % 4 == 0)
    hipLaunchKernelGGL((dw3x3_bias_relu<true>), grid, dim3(threads), 0, a->stream, x, w, bias, y, total, C, H, W,
                       nWG, nHS);
  else
    hipLaunchKernelGGL((dw3x3_bias_relu<false>), grid, dim3(threads), 0, a->stream, x, w, bias, y, total, C, H, W,
                       nWG, nHS);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

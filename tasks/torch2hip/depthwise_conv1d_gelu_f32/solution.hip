// Depthwise conv1d (kernel 7, padding 3, bias) + exact GELU, fp32, one pass: x read once, y
// written once (eager writes the convolution and re-reads it for the GELU).
//
// A thread owns TW = 4 adjacent outputs of one (batch, channel) row. It needs the inputs
// l0 - 3 .. l0 + 6: when length % 4 == 0 these lie in three aligned 16-byte vectors (the
// previous, own and next group of four, each entirely inside or outside the row, as rows
// start at multiples of length), so three vector loads, the outer two mostly L1 hits from the
// neighbouring threads; otherwise checked scalar loads. The 7 taps and the bias stay in
// registers; the stores are 16-byte vectors (or checked scalars), coalesced across the warp.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define TW 4
#define KS 7
#define PAD 3

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }

template <bool VEC>
__global__ __launch_bounds__(256) void dwconv1d7_gelu(const float* __restrict__ x, const float* __restrict__ w,
                                                      const float* __restrict__ bias, float* __restrict__ y,
                                                      int64_t total, int C, int L, int nWG) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int wg = (int)(idx % nWG);
  const int64_t row = idx / nWG;  // n * C + c
  const int c = (int)(row % C);
  const float* xr = x + row * L;
  float* yr = y + row * L;
  const int l0 = wg * TW;

  float k[KS];
#pragma unroll
  for (int t = 0; t < KS; ++t) k[t] = w[c * KS + t];
  const float bv = bias[c];

  // v[j] = x[l0 - 4 + j], j = 0 .. 11 (v[0] is never used)
  float v[12];
  if (VEC) {
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const float4 a = l0 >= 4 ? *reinterpret_cast<const float4*>(xr + l0 - 4) : zero;
    const float4 m = *reinterpret_cast<const float4*>(xr + l0);
    const float4 b = l0 + 4 < L ? *reinterpret_cast<const float4*>(xr + l0 + 4) : zero;
    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
    v[4] = m.x; v[5] = m.y; v[6] = m.z; v[7] = m.w;
    v[8] = b.x; v[9] = b.y; v[10] = b.z; v[11] = b.w;
  } else {
    v[0] = 0.0f;
#pragma unroll
    for (int j = 1; j < 12; ++j) {
      const int l = l0 - 4 + j;
      v[j] = (l >= 0 && l < L) ? xr[l] : 0.0f;
    }
  }

  float o[TW];
#pragma unroll
  for (int p = 0; p < TW; ++p) {
    float s = 0.0f;
#pragma unroll
    for (int t = 0; t < KS; ++t) s = fmaf(k[t], v[p + t + 1], s);  // x[l0 + p + t - 3]
    o[p] = gelu(s + bv);
  }
  if (VEC) {
    *reinterpret_cast<float4*>(yr + l0) = make_float4(o[0], o[1], o[2], o[3]);
  } else {
#pragma unroll
    for (int p = 0; p < TW; ++p)
      if (l0 + p < L) yr[l0 + p] = o[p];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t B = a->ints[0];
  const int C = (int)a->ints[1], L = (int)a->ints[2];
  const int nWG = (L + TW - 1) / TW;
  const int64_t total = B * C * nWG;
  const int threads = 256;
  const dim3 grid((unsigned)((total + threads - 1) / threads));
  if (L % 4 == 0)
    hipLaunchKernelGGL((dwconv1d7_gelu<true>), grid, dim3(threads), 0, a->stream, x, w, bias, y, total, C, L, nWG);
  else
    hipLaunchKernelGGL((dwconv1d7_gelu<false>), grid, dim3(threads), 0, a->stream, x, w, bias, y, total, C, L, nWG);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

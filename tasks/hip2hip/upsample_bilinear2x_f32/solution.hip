// 2x bilinear upsampling (align_corners = false) of fp32 NCHW. At scale 2 the weights are
// constants: output row 2r = 1/4 x[r-1] + 3/4 x[r], row 2r+1 = 3/4 x[r] + 1/4 x[r+1] (neighbour
// indices clamped to the plane, which reproduces PyTorch's edge rule), and the same along
// columns. One thread per (input row, pair of input columns) reads the 3 x 4 neighbourhood
// (the middle pair as one 8-byte load), blends vertically then horizontally, and writes a
// 2 x 4 output patch: two 16-byte stores when W is even (rows then start 16-byte aligned),
// checked scalar stores otherwise. The index split costs two divisions per 8 outputs instead
// of two per output.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

template <bool VEC>
__global__ void __launch_bounds__(256) upsample2x_patch(const float* __restrict__ x, float* __restrict__ y,
                                                       int64_t total, int H, int W, int Wp) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int j = (int)(idx % Wp);
  const int64_t row = idx / Wp;  // plane * H + r
  const int r = (int)(row % H);
  const int64_t plane = row / H;

  const float* xp = x + plane * (int64_t)H * W;
  const int c0 = 2 * j;
  const bool has2 = c0 + 1 < W;  // false only for the last pair of an odd W
  const int c1 = has2 ? c0 + 1 : c0;
  const int cl = c0 > 0 ? c0 - 1 : 0;
  const int cr = c0 + 2 < W ? c0 + 2 : W - 1;
  const float* rows[3] = {xp + (int64_t)(r > 0 ? r - 1 : 0) * W, xp + (int64_t)r * W,
                          xp + (int64_t)(r < H - 1 ? r + 1 : H - 1) * W};

  float v[3][4];  // [row above, row, row below][cl, c0, c1, cr]
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const float* p = rows[k];
    v[k][0] = p[cl];
    if (VEC) {
      const float2 m = *reinterpret_cast<const float2*>(p + c0);
      v[k][1] = m.x;
      v[k][2] = m.y;
    } else {
      v[k][1] = p[c0];
      v[k][2] = p[c1];
    }
    v[k][3] = p[cr];
  }

  float up[4], dn[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    up[c] = fmaf(0.75f, v[1][c], 0.25f * v[0][c]);  // output row 2r
    dn[c] = fmaf(0.75f, v[1][c], 0.25f * v[2][c]);  // output row 2r + 1
  }

  const int Wo = 2 * W;
  float* y0 = y + plane * 4 * (int64_t)H * W + (int64_t)(2 * r) * Wo + 2 * c0;
  float* y1 = y0 + Wo;
  const float* src[2] = {up, dn};
  float* dst[2] = {y0, y1};
#pragma unroll
  for (int k = 0; k < 2; ++k) {
    const float* s = src[k];
    const float o0 = fmaf(0.75f, s[1], 0.25f * s[0]);
    const float o1 = fmaf(0.75f, s[1], 0.25f * s[2]);
    const float o2 = fmaf(0.75f, s[2], 0.25f * s[1]);
    const float o3 = fmaf(0.75f, s[2], 0.25f * s[3]);
    if (VEC) {
      *reinterpret_cast<float4*>(dst[k]) = make_float4(o0, o1, o2, o3);
    } else {
      dst[k][0] = o0;
      dst[k][1] = o1;
      if (has2) {
        dst[k][2] = o2;
        dst[k][3] = o3;
      }
    }
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t planes = a->ints[0] * a->ints[1];
  const int H = (int)a->ints[2], W = (int)a->ints[3];
  const int Wp = (W + 1) / 2;
  const int64_t total = planes * H * Wp;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  if (W % 2 == 0)
    hipLaunchKernelGGL((upsample2x_patch<true>), dim3((unsigned)grid), dim3(block), 0, a->stream, x, y, total, H, W, Wp);
  else
    hipLaunchKernelGGL((upsample2x_patch<false>), dim3((unsigned)grid), dim3(block), 0, a->stream, x, y, total, H, W, Wp);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

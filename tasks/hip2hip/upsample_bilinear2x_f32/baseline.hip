// 2x bilinear upsampling (align_corners = false) of fp32 NCHW: one thread per output element;
// the flat index is split into (plane, row, column), the source coordinates and weights are
// computed in fp32 as PyTorch does, and the four neighbours are read with scalar loads.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

__global__ void upsample_bilinear2x(const float* x, float* y, int64_t total, int H, int W) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int Wo = 2 * W, Ho = 2 * H;
  const int ow = (int)(i % Wo);
  const int64_t t = i / Wo;
  const int oh = (int)(t % Ho);
  const int64_t plane = t / Ho;

  const float sh = fmaxf((oh + 0.5f) * 0.5f - 0.5f, 0.0f);
  const int h0 = (int)sh;
  const int h1 = h0 + (h0 < H - 1 ? 1 : 0);
  const float lh1 = sh - (float)h0, lh0 = 1.0f - lh1;
  const float sw = fmaxf((ow + 0.5f) * 0.5f - 0.5f, 0.0f);
  const int w0 = (int)sw;
  const int w1 = w0 + (w0 < W - 1 ? 1 : 0);
  const float lw1 = sw - (float)w0, lw0 = 1.0f - lw1;

  const float* p = x + plane * H * W;
  y[i] = lh0 * (lw0 * p[h0 * W + w0] + lw1 * p[h0 * W + w1]) +
         lh1 * (lw0 * p[h1 * W + w0] + lw1 * p[h1 * W + w1]);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t planes = a->ints[0] * a->ints[1];
  const int H = (int)a->ints[2], W = (int)a->ints[3];
  const int64_t total = planes * 4 * H * W;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(upsample_bilinear2x, dim3((unsigned)grid), dim3(block), 0, a->stream, x, y, total, H, W);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

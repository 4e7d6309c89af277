// K x K max pooling (stride S, padding K/2 ignored) of fp32 NCHW: one thread per output; the
// flat index is split into (plane, row, column) and the thread reads its whole window from
// global memory, skipping positions outside the plane.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

__global__ void maxpool2d(const float* x, float* y, int64_t total, int H, int W, int Ho, int Wo, int K, int S) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int ow = (int)(i % Wo);
  const int64_t t = i / Wo;
  const int oh = (int)(t % Ho);
  const int64_t plane = t / Ho;
  const float* xp = x + plane * H * W;
  const int P = K / 2;
  const int h0 = oh * S - P, w0 = ow * S - P;
  float m = -INFINITY;
  for (int kh = 0; kh < K; ++kh) {
    const int ih = h0 + kh;
    if (ih < 0 || ih >= H) continue;
    for (int kw = 0; kw < K; ++kw) {
      const int iw = w0 + kw;
      if (iw < 0 || iw >= W) continue;
      m = fmaxf(m, xp[(int64_t)ih * W + iw]);
    }
  }
  y[i] = m;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t planes = a->ints[0] * a->ints[1];
  const int H = (int)a->ints[2], W = (int)a->ints[3], K = (int)a->ints[4], S = (int)a->ints[5];
  const int Ho = (H - 1) / S + 1, Wo = (W - 1) / S + 1;
  const int64_t total = planes * Ho * Wo;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(maxpool2d, dim3((unsigned)grid), dim3(block), 0, a->stream, x, y, total, H, W, Ho, Wo, K, S);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

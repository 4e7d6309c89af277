// 3x3 convolution, padding 1, stride 1, fp32 NCHW: one thread per output y[b][co][h][w],
// reading its Cin x 3 x 3 input window and weights straight from global memory.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

__global__ void conv2d_3x3_direct(const float* x, const float* w, float* y, int64_t total, int Cin, int Cout, int H,
                                  int W) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int ow = (int)(i % W);
  int64_t t = i / W;
  const int oh = (int)(t % H);
  t /= H;
  const int co = (int)(t % Cout);
  const int64_t b = t / Cout;
  const float* xb = x + b * Cin * H * W;
  const float* wc = w + (int64_t)co * Cin * 9;
  float acc = 0.0f;
  for (int ci = 0; ci < Cin; ++ci) {
    const float* xc = xb + (int64_t)ci * H * W;
    for (int kh = 0; kh < 3; ++kh) {
      const int ih = oh + kh - 1;
      if (ih < 0 || ih >= H) continue;
      for (int kw = 0; kw < 3; ++kw) {
        const int iw = ow + kw - 1;
        if (iw < 0 || iw >= W) continue;
        acc += wc[ci * 9 + kh * 3 + kw] * xc[(int64_t)ih * W + iw];
      }
    }
  }
  y[i] = acc;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  float* y = static_cast<float*>(a->tensors[2]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], H = (int)a->ints[3], W = (int)a->ints[4];
  const int64_t total = B * Cout * H * W;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(conv2d_3x3_direct, dim3((unsigned)grid), dim3(block), 0, a->stream, x, w, y, total, Cin, Cout, H,
                     W);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

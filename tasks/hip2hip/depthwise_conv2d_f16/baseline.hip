// Depthwise KS x KS convolution, padding KS/2, fp16 NHWC: one thread per output element
// y[b][h][w][c] (channels fastest, so a warp's loads are coalesced), scalar 2-byte loads of
// every input and weight of its window, fp32 accumulation, one fp16 rounding.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void depthwise_direct(const __half* x, const __half* w, __half* y, int64_t total, int H, int W, int C,
                                 int KS) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int c = (int)(i % C);
  int64_t t = i / C;
  const int ow = (int)(t % W);
  t /= W;
  const int oh = (int)(t % H);
  const int64_t b = t / H;
  const int P = KS / 2;
  float acc = 0.0f;
  for (int kh = 0; kh < KS; ++kh) {
    const int ih = oh + kh - P;
    if (ih < 0 || ih >= H) continue;
    for (int kw = 0; kw < KS; ++kw) {
      const int iw = ow + kw - P;
      if (iw < 0 || iw >= W) continue;
      acc += __half2float(x[((b * H + ih) * W + iw) * C + c]) * __half2float(w[(kh * KS + kw) * C + c]);
    }
  }
  y[i] = __float2half(acc);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  const __half* w = static_cast<const __half*>(a->tensors[1]);
  __half* y = static_cast<__half*>(a->tensors[2]);
  const int64_t B = a->ints[0];
  const int H = (int)a->ints[1], W = (int)a->ints[2], C = (int)a->ints[3], KS = (int)a->ints[4];
  const int64_t total = B * H * W * C;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(depthwise_direct, dim3((unsigned)grid), dim3(block), 0, a->stream, x, w, y, total, H, W, C, KS);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Depthwise 3 x 7 convolution (stride 1, no padding, no bias), fp32 NCHW, bound by reading x
// and writing y once.
//
// A thread owns one output column and RH = 8 consecutive output rows of one (image, channel)
// plane, with the plane's 21 weights in registers. It streams the RH + 2 input rows its
// outputs need once each (7 loads per row) and adds each row into the up to three output
// rows it feeds: 8.75 loads per output instead of 21 loads and 21 weight reads. Adjacent
// lanes take adjacent columns, so every load and store of a warp is one contiguous run, with
// no alignment assumption (rows of width - 6 outputs are rarely 16-byte aligned). 32-bit
// index math unless the tensors need more.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define KH 3
#define KW 7
#define RH 8  // output rows per thread
#define THREADS 256

template <typename I>
__global__ __launch_bounds__(THREADS) void dwconv3x7(const float* __restrict__ x, const float* __restrict__ w,
                                                     float* __restrict__ y, I total, int C, int H, int W, int nRG) {
  const int Ho = H - (KH - 1), Wo = W - (KW - 1);
  for (I idx = (I)blockIdx.x * THREADS + threadIdx.x; idx < total; idx += (I)gridDim.x * THREADS) {
    const int ow = (int)(idx % Wo);
    const I t = idx / Wo;
    const int oh0 = (int)(t % nRG) * RH;
    const I plane = t / nRG;  // n * C + c
    const int c = (int)(plane % C);
    float k[KH][KW];
#pragma unroll
    for (int i = 0; i < KH; ++i)
#pragma unroll
      for (int j = 0; j < KW; ++j) k[i][j] = w[(c * KH + i) * KW + j];

    const float* xp = x + plane * H * W + (I)oh0 * W + ow;
    float acc[RH];
#pragma unroll
    for (int p = 0; p < RH; ++p) acc[p] = 0.0f;
#pragma unroll
    for (int i = 0; i < RH + KH - 1; ++i) {  // input row oh0 + i feeds output rows oh0 + i - 2 .. oh0 + i
      if (oh0 + i >= H) continue;  // later ones too (continue: the loop stays unrolled)
      float r[KW];
#pragma unroll
      for (int j = 0; j < KW; ++j) r[j] = xp[(I)i * W + j];
#pragma unroll
      for (int kh = 0; kh < KH; ++kh) {
        const int p = i - kh;
        if (p < 0 || p >= RH) continue;
#pragma unroll
        for (int j = 0; j < KW; ++j) acc[p] = fmaf(k[kh][j], r[j], acc[p]);
      }
    }
    float* yp = y + (plane * Ho + oh0) * Wo + ow;
#pragma unroll
    for (int p = 0; p < RH; ++p)
      if (oh0 + p < Ho) yp[(I)p * Wo] = acc[p];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  float* y = static_cast<float*>(a->tensors[2]);
  const int64_t planes = a->ints[0] * a->ints[1];
  const int C = (int)a->ints[1], H = (int)a->ints[2], W = (int)a->ints[3];
  if (H < KH || W < KW) return 1;
  const int Ho = H - (KH - 1), Wo = W - (KW - 1);
  const int nRG = (Ho + RH - 1) / RH;
  const int64_t total = planes * nRG * Wo;
  int64_t blocks = (total + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  if (planes * H * W < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20))
    hipLaunchKernelGGL(dwconv3x7<int>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, w, y, (int)total, C, H,
                       W, nRG);
  else
    hipLaunchKernelGGL(dwconv3x7<int64_t>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, w, y, total, C, H,
                       W, nRG);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// nn.MaxPool2d (square window k, stride s, padding p, dilation d; padded positions never win)
// over fp32 NCHW, values only. Eager PyTorch on the GPU runs max_pool2d_with_indices: besides
// the 4-byte value it writes an 8-byte int64 argmax per output that nobody reads, so a
// values-only kernel moves about half the bytes (read x once, write y once).
//
// A thread owns one output column and RH = 4 consecutive output rows. It walks the input rows
// those four windows touch once each, takes the row's maximum over the k window columns, and
// folds it into every output row whose window holds that input row: with stride 1 and
// k = 4 that is 7 rows of 4 loads for 4 outputs instead of 64 loads. Rows no window uses
// (stride > k * d) are skipped. Adjacent lanes take adjacent output columns, so each load and
// store of a warp is one contiguous run when the stride is 1. NaN wins, as in PyTorch. 32-bit
// index math unless the tensors need more.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define RH 4  // output rows per thread

__device__ __forceinline__ float nanmax(float m, float v) { return (v > m || isnan(v)) ? v : m; }

// I: index type (32-bit while every offset fits); DIL1: dilation 1 (no divisibility test).
template <typename I, bool DIL1>
__global__ __launch_bounds__(THREADS) void maxpool2d(const float* __restrict__ x, float* __restrict__ y, I total,
                                                     int H, int W, int Ho, int Wo, int nRG, int k, int s, int p,
                                                     int d) {
  for (I idx = (I)blockIdx.x * THREADS + threadIdx.x; idx < total; idx += (I)gridDim.x * THREADS) {
    const int ow = (int)(idx % Wo);
    const I t = idx / Wo;
    const int oh0 = (int)(t % nRG) * RH;
    const I plane = t / nRG;
    const float* xp = x + plane * H * W;
    const int nr = Ho - oh0 < RH ? Ho - oh0 : RH;  // output rows this thread writes
    const int span = (k - 1) * d;                  // window extent - 1

    // Window columns inside [0, W): kw in [kw0, kw1).
    const int w0 = ow * s - p;
    const int kw0 = w0 < 0 ? (-w0 + d - 1) / d : 0;
    int kw1 = w0 <= W - 1 ? (W - 1 - w0) / d + 1 : 0;
    if (kw1 > k) kw1 = k;

    float m[RH];
#pragma unroll
    for (int r = 0; r < RH; ++r) m[r] = -INFINITY;
    const int h_first = oh0 * s - p;
    int ih0 = h_first < 0 ? 0 : h_first;
    int ih1 = (oh0 + nr - 1) * s - p + span;
    if (ih1 > H - 1) ih1 = H - 1;
    for (int ih = ih0; ih <= ih1; ++ih) {
      bool used = false;
#pragma unroll
      for (int r = 0; r < RH; ++r) {
        const int off = ih - (h_first + r * s);
        used |= r < nr && off >= 0 && off <= span && (DIL1 || off % d == 0);
      }
      if (!used) continue;
      const float* xr = xp + (I)ih * W + w0;
      float hm = -INFINITY;
      for (int kw = kw0; kw < kw1; ++kw) hm = nanmax(hm, xr[kw * d]);
#pragma unroll
      for (int r = 0; r < RH; ++r) {
        const int off = ih - (h_first + r * s);
        if (r < nr && off >= 0 && off <= span && (DIL1 || off % d == 0)) m[r] = nanmax(m[r], hm);
      }
    }
    float* yp = y + (plane * Ho + oh0) * Wo + ow;
#pragma unroll
    for (int r = 0; r < RH; ++r)
      if (r < nr) yp[(I)r * Wo] = m[r];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t planes = a->ints[0] * a->ints[1];
  const int H = (int)a->ints[2], W = (int)a->ints[3];
  const int k = (int)a->ints[4], s = (int)a->ints[5], p = (int)a->ints[6], d = (int)a->ints[7];
  const int Ho = (H + 2 * p - d * (k - 1) - 1) / s + 1;
  const int Wo = (W + 2 * p - d * (k - 1) - 1) / s + 1;
  if (Ho < 1 || Wo < 1) return 1;
  const int nRG = (Ho + RH - 1) / RH;
  const int64_t total = planes * nRG * Wo;
  int64_t blocks = (total + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  const dim3 grid((unsigned)blocks), block(THREADS);
  const int64_t in = planes * H * W, out = planes * Ho * Wo;
  const bool small = (in > out ? in : out) < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20);
  if (small && d == 1)
    hipLaunchKernelGGL((maxpool2d<int, true>), grid, block, 0, a->stream, x, y, (int)total, H, W, Ho, Wo, nRG, k, s,
                       p, d);
  else if (small)
    hipLaunchKernelGGL((maxpool2d<int, false>), grid, block, 0, a->stream, x, y, (int)total, H, W, Ho, Wo, nRG, k, s,
                       p, d);
  else if (d == 1)
    hipLaunchKernelGGL((maxpool2d<int64_t, true>), grid, block, 0, a->stream, x, y, total, H, W, Ho, Wo, nRG, k, s,
                       p, d);
  else
    hipLaunchKernelGGL((maxpool2d<int64_t, false>), grid, block, 0, a->stream, x, y, total, H, W, Ho, Wo, nRG, k, s,
                       p, d);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// nn.MaxPool3d (cubic window k, stride s, padding p, dilation d; padded positions never win)
// over fp32 NCDHW, values only. Eager PyTorch on the GPU runs max_pool3d_with_indices:
// besides the 4-byte value it writes an 8-byte int64 argmax per output that nobody reads.
//
// A thread owns one output column of one output depth slice and RH = 4 consecutive output
// rows. For each depth tap it walks the input rows its four windows touch once each, takes
// the row's maximum over the k window columns, and folds it into every output row whose
// window holds that input row (with stride 1 neighbouring windows share most rows; rows no
// window uses are skipped). Adjacent lanes take adjacent output columns, so the warp's loads
// stay within a few cache lines and its stores are one contiguous run. NaN wins, as in
// PyTorch. 32-bit index math unless the tensors need more.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define RH 4  // output rows per thread

__device__ __forceinline__ float nanmax(float m, float v) { return (v > m || isnan(v)) ? v : m; }

// Taps t in [t0, t1) of a window starting at `start` (stride d) that fall inside [0, n).
__device__ __forceinline__ void clip_taps(int start, int n, int k, int d, int& t0, int& t1) {
  t0 = start < 0 ? (-start + d - 1) / d : 0;
  t1 = start <= n - 1 ? (n - 1 - start) / d + 1 : 0;
  if (t1 > k) t1 = k;
}

template <typename I>
__global__ __launch_bounds__(THREADS) void maxpool3d(const float* __restrict__ x, float* __restrict__ y, I total,
                                                     int D, int H, int W, int Do, int Ho, int Wo, int nRG, int k,
                                                     int s, int p, int d) {
  for (I idx = (I)blockIdx.x * THREADS + threadIdx.x; idx < total; idx += (I)gridDim.x * THREADS) {
    const int ow = (int)(idx % Wo);
    I t = idx / Wo;
    const int oh0 = (int)(t % nRG) * RH;
    t /= nRG;
    const int od = (int)(t % Do);
    const I plane = t / Do;  // n * C + c
    const float* xp = x + plane * D * H * W;
    const int nr = Ho - oh0 < RH ? Ho - oh0 : RH;  // output rows this thread writes
    const int span = (k - 1) * d;

    int kw0, kw1, kd0, kd1;
    const int w0 = ow * s - p, d0 = od * s - p;
    clip_taps(w0, W, k, d, kw0, kw1);
    clip_taps(d0, D, k, d, kd0, kd1);
    const int h_first = oh0 * s - p;
    const int ih0 = h_first < 0 ? 0 : h_first;
    int ih1 = (oh0 + nr - 1) * s - p + span;
    if (ih1 > H - 1) ih1 = H - 1;

    float m[RH];
#pragma unroll
    for (int r = 0; r < RH; ++r) m[r] = -INFINITY;
    for (int kd = kd0; kd < kd1; ++kd) {
      const float* xs = xp + (I)(d0 + kd * d) * H * W + w0;
      for (int ih = ih0; ih <= ih1; ++ih) {
        bool used = false;
#pragma unroll
        for (int r = 0; r < RH; ++r) {
          const int off = ih - (h_first + r * s);
          used |= r < nr && off >= 0 && off <= span && off % d == 0;
        }
        if (!used) continue;
        const float* xr = xs + (I)ih * W;
        float hm = -INFINITY;
        for (int kw = kw0; kw < kw1; ++kw) hm = nanmax(hm, xr[kw * d]);
#pragma unroll
        for (int r = 0; r < RH; ++r) {
          const int off = ih - (h_first + r * s);
          if (r < nr && off >= 0 && off <= span && off % d == 0) m[r] = nanmax(m[r], hm);
        }
      }
    }
    float* yp = y + ((plane * Do + od) * Ho + oh0) * Wo + ow;
#pragma unroll
    for (int r = 0; r < RH; ++r)
      if (r < nr) yp[(I)r * Wo] = m[r];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t planes = a->ints[0] * a->ints[1];
  const int D = (int)a->ints[2], H = (int)a->ints[3], W = (int)a->ints[4];
  const int k = (int)a->ints[5], s = (int)a->ints[6], p = (int)a->ints[7], d = (int)a->ints[8];
  const int ext = d * (k - 1) + 1;
  const int Do = (D + 2 * p - ext) / s + 1, Ho = (H + 2 * p - ext) / s + 1, Wo = (W + 2 * p - ext) / s + 1;
  if (D + 2 * p < ext || H + 2 * p < ext || W + 2 * p < ext) return 1;
  const int nRG = (Ho + RH - 1) / RH;
  const int64_t total = planes * Do * nRG * Wo;
  int64_t blocks = (total + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  const int64_t in = planes * D * H * W, out = planes * Do * Ho * Wo;
  if ((in > out ? in : out) < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20))
    hipLaunchKernelGGL(maxpool3d<int>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, y, (int)total, D, H, W,
                       Do, Ho, Wo, nRG, k, s, p, d);
  else
    hipLaunchKernelGGL(maxpool3d<int64_t>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, y, total, D, H, W,
                       Do, Ho, Wo, nRG, k, s, p, d);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// softmax_o(min_d conv3x3x3(x)[n, o, d, h, w] + cb[o]) (no padding), fp32 NCDHW ->
// [batch, out_channels, height - 2, width - 2], in one kernel that never writes the
// convolution: eager PyTorch writes it (all depths) and reads it back for the minimum.
//
// A thread owns TW = 2 adjacent output pixels (h, w) and all (up to 24) output channels, and
// walks the output depths keeping the running minimum per channel and pixel in shared memory
// (the accumulators fill the registers); the bias is added after the minimum (it does not
// depend on the depth). Per output depth and input channel it
// loads the 3 x 3 rows of 4 input columns its two pixels need once, and each (kd, kh, kw) tap's
// weights for 24 channels are six broadcast 16-byte reads from shared memory (staged as
// [in_channel][tap][channel], sized to in_channels so that more blocks fit) feeding 48 FMAs.
// Adjacent lanes take adjacent pixel pairs.
// Then the softmax over the channels of each pixel.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define CP 24        // output channels, padded (the task's bound)
#define MAX_CIN 8    // the task's bound
#define TW 2         // output pixels per thread along the width
#define THREADS 64   // small blocks: the grid is about one wave of resident threads

__global__ __launch_bounds__(THREADS) void conv3d_depth_min_softmax(const float* __restrict__ x,
                                                                    const float* __restrict__ w,
                                                                    const float* __restrict__ cb,
                                                                    float* __restrict__ y, int64_t total, int Cin,
                                                                    int Cout, int D, int H, int W, int npair) {
  extern __shared__ float4 ws4[];  // in_channels * 27 * CP weights, sized at launch
  float* ws = reinterpret_cast<float*>(ws4);
  __shared__ float smin[CP][TW][THREADS];  // running minima, [.][.][thread]: no bank conflicts
  for (int i = threadIdx.x; i < Cin * 27 * CP; i += blockDim.x) {
    const int c = i % CP, r = i / CP;  // r = ci * 27 + tap
    ws[i] = c < Cout ? w[(int64_t)c * Cin * 27 + r] : 0.0f;
  }
  __syncthreads();

  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int Do = D - 2, Ho = H - 2, Wo = W - 2;
  const int pair = (int)(idx % npair);
  const int64_t t = idx / npair;
  const int oh = (int)(t % Ho);
  const int64_t n = t / Ho;
  const int ow0 = pair * TW;
  const bool second = ow0 + 1 < Wo;  // the pair's second pixel exists
  const int64_t HW = (int64_t)H * W, DHW = (int64_t)D * HW;
  const float* xn = x + n * Cin * DHW + (int64_t)oh * W + ow0;

  const int tid = threadIdx.x;
#pragma unroll
  for (int c = 0; c < CP; ++c)
#pragma unroll
    for (int p = 0; p < TW; ++p) smin[c][p][tid] = INFINITY;

  for (int od = 0; od < Do; ++od) {
    float acc[CP][TW];
#pragma unroll
    for (int c = 0; c < CP; ++c)
#pragma unroll
      for (int p = 0; p < TW; ++p) acc[c][p] = 0.0f;
    for (int ci = 0; ci < Cin; ++ci) {
      const float* xc = xn + ci * DHW + (int64_t)od * HW;
      const float* wc = ws + ci * 27 * CP;
#pragma unroll 1  // one depth tap's rows at a time: keeps the live registers to the accumulators
      for (int kd = 0; kd < 3; ++kd)
#pragma unroll
        for (int kh = 0; kh < 3; ++kh) {
          const float* row = xc + kd * HW + kh * W;
          float col[TW + 2];
#pragma unroll
          for (int j = 0; j < TW + 1; ++j) col[j] = row[j];
          col[TW + 1] = second ? row[TW + 1] : 0.0f;
          const float* wt = wc + (kd * 3 + kh) * 3 * CP;
#pragma unroll
          for (int kw = 0; kw < 3; ++kw) {
#pragma unroll
            for (int q = 0; q < CP / 4; ++q) {
              const float4 wv = *reinterpret_cast<const float4*>(wt + kw * CP + 4 * q);
#pragma unroll
              for (int p = 0; p < TW; ++p) {
                const float v = col[p + kw];
                acc[4 * q + 0][p] = fmaf(wv.x, v, acc[4 * q + 0][p]);
                acc[4 * q + 1][p] = fmaf(wv.y, v, acc[4 * q + 1][p]);
                acc[4 * q + 2][p] = fmaf(wv.z, v, acc[4 * q + 2][p]);
                acc[4 * q + 3][p] = fmaf(wv.w, v, acc[4 * q + 3][p]);
              }
            }
          }
        }
    }
#pragma unroll
    for (int c = 0; c < CP; ++c)
#pragma unroll
      for (int p = 0; p < TW; ++p) smin[c][p][tid] = fminf(smin[c][p][tid], acc[c][p]);
  }

  const int64_t HWo = (int64_t)Ho * Wo;
  float* yp = y + n * Cout * HWo + (int64_t)oh * Wo + ow0;
#pragma unroll
  for (int p = 0; p < TW; ++p) {
    if (p == 1 && !second) continue;  // later ones too (continue: the loop stays unrolled)
    float mn[CP];
#pragma unroll
    for (int c = 0; c < CP; ++c) mn[c] = smin[c][p][tid];
    float m = -INFINITY;
#pragma unroll
    for (int c = 0; c < CP; ++c)
      if (c < Cout) {
        mn[c] += cb[c];
        m = fmaxf(m, mn[c]);
      }
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < CP; ++c)
      if (c < Cout) {
        mn[c] = expf(mn[c] - m);
        s += mn[c];
      }
    const float inv = 1.0f / s;
#pragma unroll
    for (int c = 0; c < CP; ++c)
      if (c < Cout) yp[c * HWo + p] = mn[c] * inv;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* cb = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2];
  const int D = (int)a->ints[3], H = (int)a->ints[4], W = (int)a->ints[5];
  if (Cin > MAX_CIN || Cout > CP || D < 3 || H < 3 || W < 3) return 1;
  const int npair = (W - 2 + TW - 1) / TW;
  const int64_t total = B * (H - 2) * npair;
  const size_t wbytes = (size_t)Cin * 27 * CP * sizeof(float);
  hipLaunchKernelGGL(conv3d_depth_min_softmax, dim3((unsigned)((total + THREADS - 1) / THREADS)), dim3(THREADS),
                     wbytes, a->stream, x, w, cb, y, total, Cin, Cout, D, H, W, npair);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

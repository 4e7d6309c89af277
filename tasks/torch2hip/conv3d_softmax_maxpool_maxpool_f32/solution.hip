// maxpool2(maxpool2(softmax over channels of conv3x3x3(x) + cb)) (no padding), fp32 NCDHW, in
// one kernel: two 2x2x2 max poolings in floor mode are one 4x4x4 pooling of the convolution's
// (depth - 2) / 4 x ... windows, so only the pooled result (1/64 of the activation) is written.
// Eager PyTorch writes the full-resolution convolution, reads and writes it for the softmax,
// then pools twice (writing int64 argmax indices too).
//
// A block of 128 threads owns eight pooled outputs along the width (a strip): lane l of warp b
// takes the convolution column 4 * (8 * strip + l / 4) + l % 4 at row 4 * ph + b, and the four
// depths 4 * pd .. + 3 of it, so a warp's loads are 32 consecutive columns. Per input channel
// and (kh, kw) tap it loads the six input depths its four outputs need once, and feeds them
// with each kd's 16 weights (staged in shared memory as [in_channel][tap][16 channels], four
// broadcast 16-byte reads) into 4 x 16 accumulators. Then per output: softmax over the
// channels, and the running maximum over its four depths; the block takes the maximum over
// the 4 x 4 (row, column) positions of each window in shared memory.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define CP 16        // output channels, padded (the task's bound)
#define MAX_CIN 8    // the task's bound
#define STRIP 8      // pooled outputs per block along the width
#define THREADS 128  // 4 rows x 32 columns

__global__ __launch_bounds__(THREADS) void conv3d_softmax_pool4(const float* __restrict__ x,
                                                                const float* __restrict__ w,
                                                                const float* __restrict__ cb, float* __restrict__ y,
                                                                int Cin, int Cout, int D, int H, int W, int Dp, int Hp,
                                                                int Wp, int nstrips) {
  __shared__ __attribute__((aligned(16))) float ws[MAX_CIN * 27 * CP];
  __shared__ float pmax[THREADS][CP + 1];  // +1: no bank conflicts in the final reduction
  for (int i = threadIdx.x; i < Cin * 27 * CP; i += blockDim.x) {
    const int c = i % CP, r = i / CP;  // r = ci * 27 + tap
    ws[i] = c < Cout ? w[(int64_t)c * Cin * 27 + r] : 0.0f;
  }
  __syncthreads();

  int64_t blk = blockIdx.x;
  const int strip = (int)(blk % nstrips);
  blk /= nstrips;
  const int ph = (int)(blk % Hp);
  blk /= Hp;
  const int pd = (int)(blk % Dp);
  const int64_t n = blk / Dp;

  const int lane = threadIdx.x % 32, b = threadIdx.x / 32;
  const int pw = strip * STRIP + lane / 4;
  const bool valid = pw < Wp;
  const int od0 = 4 * pd, oh = 4 * ph + b, ow = 4 * (valid ? pw : 0) + lane % 4;
  const int64_t HW = (int64_t)H * W, DHW = (int64_t)D * HW;

  float acc[4][CP];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int c = 0; c < CP; ++c) acc[a][c] = 0.0f;

  if (valid) {
    const float* xn = x + n * Cin * DHW + (int64_t)od0 * HW + (int64_t)oh * W + ow;
    for (int ci = 0; ci < Cin; ++ci) {
      const float* xc = xn + ci * DHW;
      const float* wc = ws + ci * 27 * CP;
#pragma unroll
      for (int kh = 0; kh < 3; ++kh)
#pragma unroll
        for (int kw = 0; kw < 3; ++kw) {
          float col[6];  // input depths od0 .. od0 + 5 at (oh + kh, ow + kw)
#pragma unroll
          for (int i = 0; i < 6; ++i) col[i] = xc[i * HW + kh * W + kw];
#pragma unroll
          for (int kd = 0; kd < 3; ++kd) {
            const float* wt = wc + ((kd * 3 + kh) * 3 + kw) * CP;
#pragma unroll
            for (int q = 0; q < CP / 4; ++q) {
              const float4 wv = *reinterpret_cast<const float4*>(wt + 4 * q);
#pragma unroll
              for (int a = 0; a < 4; ++a) {
                const float v = col[a + kd];
                acc[a][4 * q + 0] = fmaf(wv.x, v, acc[a][4 * q + 0]);
                acc[a][4 * q + 1] = fmaf(wv.y, v, acc[a][4 * q + 1]);
                acc[a][4 * q + 2] = fmaf(wv.z, v, acc[a][4 * q + 2]);
                acc[a][4 * q + 3] = fmaf(wv.w, v, acc[a][4 * q + 3]);
              }
            }
          }
        }
    }
  }

  // Softmax over the channels of each of the four outputs, then the maximum over them.
  float best[CP];
#pragma unroll
  for (int c = 0; c < CP; ++c) best[c] = 0.0f;  // softmax values are positive
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    float m = -INFINITY;
#pragma unroll
    for (int c = 0; c < CP; ++c)
      if (c < Cout) {
        acc[a][c] += cb[c];
        m = fmaxf(m, acc[a][c]);
      }
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < CP; ++c)
      if (c < Cout) {
        acc[a][c] = expf(acc[a][c] - m);
        s += acc[a][c];
      }
    const float inv = 1.0f / s;
#pragma unroll
    for (int c = 0; c < CP; ++c) best[c] = fmaxf(best[c], acc[a][c] * inv);
  }
#pragma unroll
  for (int c = 0; c < CP; ++c) pmax[threadIdx.x][c] = best[c];
  __syncthreads();

  // Thread t < STRIP * CP: window t / CP of the strip, channel t % CP; max over 4 rows x 4 columns.
  const int t = threadIdx.x;
  const int win = t / CP, c = t % CP;
  const int opw = strip * STRIP + win;
  if (opw < Wp && c < Cout) {
    float m = 0.0f;
#pragma unroll
    for (int rb = 0; rb < 4; ++rb)
#pragma unroll
      for (int cc = 0; cc < 4; ++cc) m = fmaxf(m, pmax[rb * 32 + win * 4 + cc][c]);
    y[(((n * Cout + c) * Dp + pd) * Hp + ph) * Wp + opw] = m;
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
  if (Cin > MAX_CIN || Cout > CP || D < 6 || H < 6 || W < 6) return 1;
  // Two floor-mode 2x2x2 poolings: (n - 2) / 2 / 2 = (n - 2) / 4.
  const int Dp = (D - 2) / 4, Hp = (H - 2) / 4, Wp = (W - 2) / 4;
  const int nstrips = (Wp + STRIP - 1) / STRIP;
  const int64_t blocks = B * Dp * Hp * nstrips;
  hipLaunchKernelGGL(conv3d_softmax_pool4, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, w, cb, y, Cin,
                     Cout, D, H, W, Dp, Hp, Wp, nstrips);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

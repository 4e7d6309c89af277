// 3x3 conv (no padding, bias) -> tanh -> * s -> + bias[c] -> 4x4 max pooling, fp32 NCHW, in one
// kernel that never writes the full-resolution activation: x is read once (per channel group)
// and only the pooled output, 1/16 of the activation, is written. Eager PyTorch writes and
// re-reads the activation after the convolution, the tanh, the scale and the bias add.
//
// A thread owns one pooled output: the 4 x 4 convolution outputs of its window, for
// COC = 4 output channels at a time, streaming the 6 x 6 input window of each input channel
// one row at a time (each input row feeds up to three output rows). The filter is staged in
// shared memory as [in_channel][tap][out_channel] (padded to a multiple of 4), so one
// broadcast 16-byte read gives a tap's weights for the four channels.
// The pooling is taken before the tanh: tanh is increasing, so the window's largest value
// of tanh(z) * s + bias is tanh(max z) * s + bias when s >= 0 and tanh(min z) * s + bias when
// s < 0: one tanh per pooled output instead of sixteen.
// Output channels are split over blockIdx.y in groups of CPT = 16, so a small batch still
// fills the GPU.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define POOL 4      // the pooling window and stride
#define COC 4       // output channels per pass
#define CPT 16      // output channels per thread (blockIdx.y picks the group)
#define MAX_CIN 16  // the task's bounds
#define MAX_COUT 64
#define THREADS 256

__global__ __launch_bounds__(THREADS) void conv3x3_tanh_scale_bias_maxpool(
    const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ cb,
    const float* __restrict__ bias, float* __restrict__ y, int64_t total, int Cin, int Cout, int H, int W, int Hp,
    int Wp, float s) {
  __shared__ __attribute__((aligned(16))) float ws[MAX_CIN * 9 * MAX_COUT];
  const int coutp = (Cout + COC - 1) / COC * COC;
  const int nw = Cin * 9 * coutp;
  for (int i = threadIdx.x; i < nw; i += blockDim.x) {
    const int co = i % coutp, r = i / coutp;  // r = ci * 9 + tap
    ws[i] = co < Cout ? w[(int64_t)co * Cin * 9 + r] : 0.0f;
  }
  __syncthreads();

  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int pw = (int)(idx % Wp);
  const int64_t t = idx / Wp;
  const int ph = (int)(t % Hp);
  const int64_t n = t / Hp;
  const int64_t HW = (int64_t)H * W, HWp = (int64_t)Hp * Wp;
  // The window's inputs: rows POOL * ph .. + 5, columns POOL * pw .. + 5, all inside the image.
  const float* xn = x + n * Cin * HW + (int64_t)(POOL * ph) * W + POOL * pw;
  float* yn = y + n * Cout * HWp + (int64_t)ph * Wp + pw;
  const bool take_max = s >= 0.0f;
  const int co_end = min(Cout, ((int)blockIdx.y + 1) * CPT);

  for (int co0 = (int)blockIdx.y * CPT; co0 < co_end; co0 += COC) {
    float acc[COC][POOL][POOL];
#pragma unroll
    for (int j = 0; j < COC; ++j)
#pragma unroll
      for (int p = 0; p < POOL; ++p)
#pragma unroll
        for (int q = 0; q < POOL; ++q) acc[j][p][q] = 0.0f;

    for (int ci = 0; ci < Cin; ++ci) {
      const float* xc = xn + ci * HW;
      const float* wc = ws + ci * 9 * coutp + co0;
#pragma unroll
      for (int i = 0; i < POOL + 2; ++i) {  // input row i feeds output rows i - 2 .. i
        float r[POOL + 2];
#pragma unroll
        for (int j = 0; j < POOL + 2; ++j) r[j] = xc[(int64_t)i * W + j];
#pragma unroll
        for (int kh = 0; kh < 3; ++kh) {
          const int p = i - kh;
          if (p < 0 || p >= POOL) continue;
#pragma unroll
          for (int kw = 0; kw < 3; ++kw) {
            const float4 wv = *reinterpret_cast<const float4*>(wc + (kh * 3 + kw) * coutp);
#pragma unroll
            for (int q = 0; q < POOL; ++q) {
              const float xv = r[q + kw];
              acc[0][p][q] = fmaf(wv.x, xv, acc[0][p][q]);
              acc[1][p][q] = fmaf(wv.y, xv, acc[1][p][q]);
              acc[2][p][q] = fmaf(wv.z, xv, acc[2][p][q]);
              acc[3][p][q] = fmaf(wv.w, xv, acc[3][p][q]);
            }
          }
        }
      }
    }

#pragma unroll
    for (int j = 0; j < COC; ++j) {
      const int co = co0 + j;
      if (co >= co_end) continue;  // later ones too (continue: the loop stays unrolled)
      float m = acc[j][0][0];
#pragma unroll
      for (int p = 0; p < POOL; ++p)
#pragma unroll
        for (int q = 0; q < POOL; ++q) m = take_max ? fmaxf(m, acc[j][p][q]) : fminf(m, acc[j][p][q]);
      yn[co * HWp] = fmaf(tanhf(m + cb[co]), s, bias[co]);
    }
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* cb = static_cast<const float*>(a->tensors[2]);
  const float* bias = static_cast<const float*>(a->tensors[3]);
  float* y = static_cast<float*>(a->tensors[4]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], H = (int)a->ints[3], W = (int)a->ints[4];
  const float s = (float)a->floats[0];
  if (Cin > MAX_CIN || Cout > MAX_COUT || H < 2 + POOL || W < 2 + POOL) return 1;
  const int Hp = (H - 2) / POOL, Wp = (W - 2) / POOL;
  const int64_t total = B * Hp * Wp;
  const dim3 grid((unsigned)((total + THREADS - 1) / THREADS), (unsigned)((Cout + CPT - 1) / CPT));
  hipLaunchKernelGGL(conv3x3_tanh_scale_bias_maxpool, grid, dim3(THREADS), 0, a->stream, x, w, cb, bias, y, total,
                     Cin, Cout, H, W, Hp, Wp, s);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

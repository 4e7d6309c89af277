// mean_{h,w} gelu(conv3x3(x) + cb) (no padding), fp32 NCHW -> [batch, out_channels], without
// ever writing the full-resolution activation: eager PyTorch writes it after the convolution
// and again after the GELU, and reads it back for the pooling.
//
// Pass 1: a block takes one image n, one group of COC = 8 output channels (blockIdx.y) and a
// band of output rows (blockIdx.x). Its threads walk the band's (row group, column) items,
// adjacent lanes on adjacent columns (contiguous loads), each item being one column of RH = 4
// output rows: per input channel the (RH + 2) x 3 window is loaded once and feeds
// 9 * 8 * RH FMAs with the group's weights, staged in shared memory as
// [in_channel][tap][8 channels] (one broadcast 16-byte read per tap and four channels). Each
// thread adds up its exact-erf GELU values per channel; the block sums its threads in shared
// memory in a fixed order and writes one partial per (n, channel, band) to the workspace.
// Pass 2: one thread per (n, channel) adds its bands in order and divides by the pixel count.
// No atomics: the result is the same bit for bit on every launch. Bands are sized from the
// params alone (about 4 items per thread), so the workspace size and the launch agree.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define RH 4         // output rows per item
#define COC 8        // output channels per block
#define MAX_CIN 16   // the task's bound
#define THREADS 256
#define ITEMS 4      // items per thread a band aims at

struct Plan {
  int Ho, Wo, nRG, band_rg, nbands;
};

static Plan plan_of(const arena_args* a) {
  Plan p;
  p.Ho = (int)a->ints[3] - 2;
  p.Wo = (int)a->ints[4] - 2;
  p.nRG = (p.Ho + RH - 1) / RH;
  const int want = (THREADS * ITEMS + p.Wo - 1) / p.Wo;
  p.band_rg = want < p.nRG ? want : p.nRG;
  p.nbands = (p.nRG + p.band_rg - 1) / p.band_rg;
  return p;
}

__device__ __forceinline__ float gelu_erf(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }

__global__ __launch_bounds__(THREADS) void conv3x3_gelu_band_sums(
    const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ cb,
    float* __restrict__ partial, int Cin, int Cout, int H, int W, int nRG, int band_rg, int nbands) {
  __shared__ __attribute__((aligned(16))) float ws[MAX_CIN * 9 * COC];
  __shared__ float red[COC][THREADS];
  const int band = blockIdx.x, co0 = blockIdx.y * COC;
  const int64_t n = blockIdx.z;
  for (int i = threadIdx.x; i < Cin * 9 * COC; i += blockDim.x) {
    const int j = i % COC, r = i / COC;  // r = ci * 9 + tap
    ws[i] = co0 + j < Cout ? w[(int64_t)(co0 + j) * Cin * 9 + r] : 0.0f;
  }
  __syncthreads();

  const int Ho = H - 2, Wo = W - 2;
  const int64_t HW = (int64_t)H * W;
  const int rg0 = band * band_rg;
  const int rg1 = rg0 + band_rg < nRG ? rg0 + band_rg : nRG;
  const int items = (rg1 - rg0) * Wo;
  float bias[COC], tsum[COC];
#pragma unroll
  for (int j = 0; j < COC; ++j) {
    bias[j] = co0 + j < Cout ? cb[co0 + j] : 0.0f;
    tsum[j] = 0.0f;
  }
  const float* xn = x + n * Cin * HW;

  for (int it = threadIdx.x; it < items; it += blockDim.x) {
    const int ow = it % Wo;
    const int oh0 = (rg0 + it / Wo) * RH;
    float acc[COC][RH];
#pragma unroll
    for (int j = 0; j < COC; ++j)
#pragma unroll
      for (int p = 0; p < RH; ++p) acc[j][p] = 0.0f;
    for (int ci = 0; ci < Cin; ++ci) {
      const float* xc = xn + ci * HW + ow;
      float r[RH + 2][3];
#pragma unroll
      for (int i = 0; i < RH + 2; ++i) {
        const bool in = oh0 + i < H;
        const float* xr = xc + (int64_t)(in ? oh0 + i : 0) * W;
#pragma unroll
        for (int k = 0; k < 3; ++k) r[i][k] = in ? xr[k] : 0.0f;
      }
      const float* wc = ws + ci * 9 * COC;
#pragma unroll
      for (int tap = 0; tap < 9; ++tap) {
        const int kh = tap / 3, kw = tap % 3;
#pragma unroll
        for (int q = 0; q < COC / 4; ++q) {
          const float4 wv = *reinterpret_cast<const float4*>(wc + tap * COC + 4 * q);
#pragma unroll
          for (int p = 0; p < RH; ++p) {
            const float xv = r[p + kh][kw];
            acc[4 * q + 0][p] = fmaf(wv.x, xv, acc[4 * q + 0][p]);
            acc[4 * q + 1][p] = fmaf(wv.y, xv, acc[4 * q + 1][p]);
            acc[4 * q + 2][p] = fmaf(wv.z, xv, acc[4 * q + 2][p]);
            acc[4 * q + 3][p] = fmaf(wv.w, xv, acc[4 * q + 3][p]);
          }
        }
      }
    }
#pragma unroll
    for (int p = 0; p < RH; ++p) {
      if (oh0 + p >= Ho) continue;  // later ones too (continue: the loop stays unrolled)
#pragma unroll
      for (int j = 0; j < COC; ++j) tsum[j] += gelu_erf(acc[j][p] + bias[j]);
    }
  }

#pragma unroll
  for (int j = 0; j < COC; ++j) red[j][threadIdx.x] = tsum[j];
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if ((int)threadIdx.x < stride)
#pragma unroll
      for (int j = 0; j < COC; ++j) red[j][threadIdx.x] += red[j][threadIdx.x + stride];
    __syncthreads();
  }
  if ((int)threadIdx.x < COC && co0 + (int)threadIdx.x < Cout)
    partial[(n * Cout + co0 + threadIdx.x) * nbands + band] = red[threadIdx.x][0];
}

__global__ void finish_mean(const float* __restrict__ partial, float* __restrict__ y, int64_t rows, int nbands,
                            float inv_count) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float* p = partial + i * nbands;
  float s = 0.0f;
  for (int b = 0; b < nbands; ++b) s += p[b];
  y[i] = s * inv_count;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const Plan p = plan_of(a);
  return (size_t)a->ints[0] * (size_t)a->ints[2] * (size_t)p.nbands * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* cb = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  float* partial = static_cast<float*>(a->workspace);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], H = (int)a->ints[3], W = (int)a->ints[4];
  if (Cin > MAX_CIN || H < 3 || W < 3 || B > 65535) return 1;
  const Plan p = plan_of(a);
  const dim3 grid1((unsigned)p.nbands, (unsigned)((Cout + COC - 1) / COC), (unsigned)B);
  hipLaunchKernelGGL(conv3x3_gelu_band_sums, grid1, dim3(THREADS), 0, a->stream, x, w, cb, partial, Cin, Cout, H, W,
                     p.nRG, p.band_rg, p.nbands);
  const int64_t rows = B * Cout;
  const float inv_count = (float)(1.0 / ((double)p.Ho * (double)p.Wo));
  hipLaunchKernelGGL(finish_mean, dim3((unsigned)((rows + THREADS - 1) / THREADS)), dim3(THREADS), 0, a->stream,
                     (const float*)partial, y, rows, p.nbands, inv_count);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

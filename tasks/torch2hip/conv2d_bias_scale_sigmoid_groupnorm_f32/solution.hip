// groupnorm(sigmoid((conv3x3(x) + cb + bias) * scale)) (no padding), fp32 NCHW, in three
// kernels that touch the full-size activation three times (write, read, write) where eager
// PyTorch touches it about ten times (convolution, add, multiply, sigmoid, and GroupNorm's
// statistics and normalization passes):
//
// 1. conv_sigmoid_sums: a block takes one image (blockIdx.z), COC = 8 output channels
//    (blockIdx.y) and a band of output rows (blockIdx.x); each thread walks the band's
//    (row group, column) items, one column of RH = 4 rows each (per input channel the
//    (RH + 2) x 3 window is loaded once and feeds 9 * 8 * RH FMAs with weights staged in
//    shared memory as [in_channel][tap][channel]). It writes e = s - k to y, where
//    s = sigmoid((acc + cb + bias) * scale) and k = sigmoid((cb + bias) * scale) is the
//    channel's value at a zero convolution, close to the channel's mean, and adds e and e^2
//    per channel: sums around a shift near the mean keep the one-pass variance well
//    conditioned even when a channel's values barely vary (a scale near 0). The block sums
//    its threads in shared memory in a fixed order and writes one partial per
//    (n, channel, band).
// 2. group_stats: one thread per (n, group) adds the partials in double, puts the shifts back
//    (sum s = sum e + N k, sum s^2 = sum e^2 + 2 k sum e + N k^2) and writes the per-channel
//    affine map of the normalization applied to e: y = e * m + c with m = gamma / sqrt(var +
//    eps), c = beta - (mean - k) * m.
// 3. normalize: y = y * m + c in place, 16-byte vectors when a plane's size is a multiple of 4.
// Adjacent lanes take adjacent columns, so every load and store of a warp is contiguous. No
// atomics: the result is the same bit for bit on every launch.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define RH 4         // output rows per item
#define COC 8        // output channels per block
#define MAX_CIN 16   // the task's bound
#define THREADS 256
#define ITEMS 4      // items per thread a band aims at
#define GN_EPS 1e-5  // nn.GroupNorm's default

struct Plan {
  int Ho, Wo, nRG, band_rg, nbands;
};

static Plan plan_of(const arena_args* a) {
  Plan p;
  p.Ho = (int)a->ints[4] - 2;
  p.Wo = (int)a->ints[5] - 2;
  p.nRG = (p.Ho + RH - 1) / RH;
  const int want = (THREADS * ITEMS + p.Wo - 1) / p.Wo;
  p.band_rg = want < p.nRG ? want : p.nRG;
  p.nbands = (p.nRG + p.band_rg - 1) / p.band_rg;
  return p;
}

// Workspace: float partial[B][Cout][nbands][2] (sum, sum of squares), then float affine[B][Cout][2].
static size_t partial_floats(const arena_args* a, const Plan& p) {
  return (size_t)a->ints[0] * (size_t)a->ints[2] * (size_t)p.nbands * 2;
}

// sigmoid(v * scale), the same expression wherever it is evaluated (the shift k included).
__device__ __forceinline__ float sigmoid_k(float v, float scale) { return 1.0f / (1.0f + expf(-(v * scale))); }

__global__ __launch_bounds__(THREADS) void conv_sigmoid_sums(
    const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ cb,
    const float* __restrict__ bias, const float* __restrict__ scale, float* __restrict__ y,
    float* __restrict__ partial, int Cin, int Cout, int H, int W, int nRG, int band_rg, int nbands) {
  __shared__ __attribute__((aligned(16))) float ws[MAX_CIN * 9 * COC];
  __shared__ float red[2 * COC][THREADS];
  const int band = blockIdx.x, co0 = blockIdx.y * COC;
  const int64_t n = blockIdx.z;
  for (int i = threadIdx.x; i < Cin * 9 * COC; i += blockDim.x) {
    const int j = i % COC, r = i / COC;  // r = ci * 9 + tap
    ws[i] = co0 + j < Cout ? w[(int64_t)(co0 + j) * Cin * 9 + r] : 0.0f;
  }
  __syncthreads();

  const int Ho = H - 2, Wo = W - 2;
  const int64_t HW = (int64_t)H * W, HWo = (int64_t)Ho * Wo;
  const int rg0 = band * band_rg;
  const int rg1 = rg0 + band_rg < nRG ? rg0 + band_rg : nRG;
  const int items = (rg1 - rg0) * Wo;
  const int nco = Cout - co0 < COC ? Cout - co0 : COC;
  float shift[COC], mul[COC], k[COC], ts[COC], tq[COC];
#pragma unroll
  for (int j = 0; j < COC; ++j) {
    shift[j] = j < nco ? cb[co0 + j] + bias[co0 + j] : 0.0f;
    mul[j] = j < nco ? scale[co0 + j] : 0.0f;
    k[j] = sigmoid_k(shift[j], mul[j]);
    ts[j] = tq[j] = 0.0f;
  }
  const float* xn = x + n * Cin * HW;
  float* yn = y + (n * Cout + co0) * HWo;

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
    for (int j = 0; j < COC; ++j) {
      if (j >= nco) continue;  // later ones too (continue: the loop stays unrolled)
      float* yc = yn + j * HWo + (int64_t)oh0 * Wo + ow;
#pragma unroll
      for (int p = 0; p < RH; ++p) {
        if (oh0 + p >= Ho) continue;  // later ones too (continue: the loop stays unrolled)
        const float e = sigmoid_k(acc[j][p] + shift[j], mul[j]) - k[j];
        yc[(int64_t)p * Wo] = e;
        ts[j] += e;
        tq[j] = fmaf(e, e, tq[j]);
      }
    }
  }

#pragma unroll
  for (int j = 0; j < COC; ++j) {
    red[j][threadIdx.x] = ts[j];
    red[COC + j][threadIdx.x] = tq[j];
  }
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if ((int)threadIdx.x < stride)
#pragma unroll
      for (int j = 0; j < 2 * COC; ++j) red[j][threadIdx.x] += red[j][threadIdx.x + stride];
    __syncthreads();
  }
  if ((int)threadIdx.x < 2 * COC) {
    const int j = threadIdx.x % COC, which = threadIdx.x / COC;
    if (j < nco) partial[((n * Cout + co0 + j) * nbands + band) * 2 + which] = red[threadIdx.x][0];
  }
}

__global__ void group_stats(const float* __restrict__ partial, const float* __restrict__ cb,
                            const float* __restrict__ bias, const float* __restrict__ scale,
                            const float* __restrict__ gamma, const float* __restrict__ beta, float* __restrict__ affine,
                            int64_t groups_total, int G, int cpg, int nbands, double count) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // n * G + g
  if (i >= groups_total) return;
  const int g = (int)(i % G);
  const int64_t n = i / G;
  const int Cout = G * cpg;
  double s = 0.0, q = 0.0;
  for (int c = g * cpg; c < (g + 1) * cpg; ++c) {
    const float* pc = partial + (n * Cout + c) * nbands * 2;
    double sc = 0.0, qc = 0.0;
    for (int b = 0; b < nbands; ++b) {
      sc += pc[2 * b];
      qc += pc[2 * b + 1];
    }
    const double k = sigmoid_k(cb[c] + bias[c], scale[c]);
    s += sc + count * k;
    q += qc + 2.0 * k * sc + count * k * k;
  }
  const double total = count * cpg;
  const double mean = s / total;
  double var = q / total - mean * mean;
  if (var < 0.0) var = 0.0;
  const double rstd = 1.0 / sqrt(var + GN_EPS);
  for (int c = g * cpg; c < (g + 1) * cpg; ++c) {
    const double k = sigmoid_k(cb[c] + bias[c], scale[c]);
    const double m = rstd * gamma[c];
    affine[(n * Cout + c) * 2] = (float)m;
    affine[(n * Cout + c) * 2 + 1] = (float)(beta[c] - (mean - k) * m);
  }
}

template <bool VEC>
__global__ __launch_bounds__(THREADS) void normalize(float* __restrict__ y, const float* __restrict__ affine,
                                                     int64_t units, int64_t plane_units) {
  for (int64_t u = (int64_t)blockIdx.x * THREADS + threadIdx.x; u < units; u += (int64_t)gridDim.x * THREADS) {
    const int64_t plane = u / plane_units;  // n * Cout + c
    const float m = affine[2 * plane], c = affine[2 * plane + 1];
    if (VEC) {
      float4 v = reinterpret_cast<float4*>(y)[u];
      v.x = fmaf(v.x, m, c);
      v.y = fmaf(v.y, m, c);
      v.z = fmaf(v.z, m, c);
      v.w = fmaf(v.w, m, c);
      reinterpret_cast<float4*>(y)[u] = v;
    } else {
      y[u] = fmaf(y[u], m, c);
    }
  }
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const Plan p = plan_of(a);
  return (partial_floats(a, p) + (size_t)a->ints[0] * (size_t)a->ints[2] * 2) * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* cb = static_cast<const float*>(a->tensors[2]);
  const float* bias = static_cast<const float*>(a->tensors[3]);
  const float* scale = static_cast<const float*>(a->tensors[4]);
  const float* gamma = static_cast<const float*>(a->tensors[5]);
  const float* beta = static_cast<const float*>(a->tensors[6]);
  float* y = static_cast<float*>(a->tensors[7]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], G = (int)a->ints[3];
  const int H = (int)a->ints[4], W = (int)a->ints[5];
  if (Cin > MAX_CIN || Cout % G != 0 || H < 3 || W < 3 || B > 65535) return 1;
  const Plan p = plan_of(a);
  float* partial = static_cast<float*>(a->workspace);
  float* affine = partial + partial_floats(a, p);

  const dim3 grid1((unsigned)p.nbands, (unsigned)((Cout + COC - 1) / COC), (unsigned)B);
  hipLaunchKernelGGL(conv_sigmoid_sums, grid1, dim3(THREADS), 0, a->stream, x, w, cb, bias, scale, y, partial, Cin,
                     Cout, H, W, p.nRG, p.band_rg, p.nbands);
  const int64_t groups_total = B * G;
  hipLaunchKernelGGL(group_stats, dim3((unsigned)((groups_total + THREADS - 1) / THREADS)), dim3(THREADS), 0,
                     a->stream, (const float*)partial, cb, bias, scale, gamma, beta, affine, groups_total, G, Cout / G,
                     p.nbands,
                     (double)p.Ho * (double)p.Wo);
  const int64_t HWo = (int64_t)p.Ho * p.Wo;
  const bool vec = HWo % 4 == 0 && ((uintptr_t)y & 15) == 0;
  const int64_t units = B * Cout * HWo / (vec ? 4 : 1);
  int64_t blocks = (units + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  if (vec)
    hipLaunchKernelGGL(normalize<true>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, y,
                       (const float*)affine, units, HWo / 4);
  else
    hipLaunchKernelGGL(normalize<false>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, y,
                       (const float*)affine, units, HWo);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

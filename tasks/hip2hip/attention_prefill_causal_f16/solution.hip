// Causal attention over fp16 q, k, v [B, H, S, D], fp32 math on the FP32 units, flash-attention
// style:
//  - a block owns QT = 32 consecutive queries of one (batch, head); a query is owned by a group
//    of G lanes (G = 1, 2, 4 for D <= 32, 64, 128), each lane holding 32 of the (zero-padded)
//    dimensions of the query (pre-scaled by scale * log2(e)) and of the output accumulator in
//    registers;
//  - the block walks the keys 0 .. q0 + QT - 1 only (tiles entirely above the diagonal are
//    skipped) in tiles of KT = 32 keys: K and V tiles are converted to fp32 once into shared
//    memory (16-byte global loads when D % 8 == 0), then every lane reads them as broadcast
//    16-byte shared loads: 32 FMAs per key for the scores, an xor shuffle across the group, one
//    online-softmax update (running max, rescaled sum and accumulator) per tile, and 32 FMAs
//    per key for P.V;
//  - blocks are numbered heaviest first (the tiles nearest the end of the sequence, which see
//    the most keys, start first) to even out the causal triangle's work.
// K and V are read from global memory once per query tile instead of once per query row.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define QT 32  // queries per block
#define KT 32  // keys per tile
#define LOG2E 1.4426950408889634f

// Lane `lg` of a query's group owns the float4 chunks c = i * G + lg (i < 8) of the padded
// dimension DP = 32 * G, i.e. dims 4c .. 4c + 3.
template <int G, bool VEC8>
__global__ __launch_bounds__(QT * G) void flash_causal(const __half* __restrict__ q, const __half* __restrict__ k,
                                                       const __half* __restrict__ v, __half* __restrict__ out,
                                                       int S, int D, int64_t BH, int ntiles, float qscale) {
  constexpr int NT = QT * G;  // threads
  constexpr int DP = 32 * G;  // padded head dim
  constexpr int C4 = DP / 4;  // float4 chunks per row
  __shared__ float4 Ks[KT * C4];
  __shared__ float4 Vs[KT * C4];

  const int tid = threadIdx.x;
  const int lg = tid % G, qi = tid / G;
  const int tile = ntiles - 1 - (int)(blockIdx.x / BH);  // heaviest tiles first
  const int64_t bh = blockIdx.x % BH;
  const int q0 = tile * QT;
  const int row = q0 + qi;
  const bool qvalid = row < S;
  const int kend = min(S, q0 + QT);  // keys this block needs
  const __half* kb = k + bh * S * D;
  const __half* vb = v + bh * S * D;

  float qr[32], o[32];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int d = 4 * (i * G + lg) + e;
      qr[4 * i + e] = (qvalid && d < D) ? __half2float(q[(bh * S + row) * D + d]) * qscale : 0.0f;
      o[4 * i + e] = 0.0f;
    }
  }
  float m = -INFINITY, l = 0.0f;

  for (int k0 = 0; k0 < kend; k0 += KT) {
    __syncthreads();  // the previous tile has been consumed
    if constexpr (VEC8) {
      // 8 halves per slot; slots past D or past kend are zero.
      for (int s = tid; s < KT * DP / 8; s += NT) {
        const int j = s / (DP / 8), c8 = s % (DP / 8);
        const int key = k0 + j;
        float kf[8], vf[8];
        if (key < kend && c8 * 8 < D) {
          const uint4 kr = *reinterpret_cast<const uint4*>(kb + (int64_t)key * D + c8 * 8);
          const uint4 vr = *reinterpret_cast<const uint4*>(vb + (int64_t)key * D + c8 * 8);
          const __half2* kh = reinterpret_cast<const __half2*>(&kr);
          const __half2* vh = reinterpret_cast<const __half2*>(&vr);
#pragma unroll
          for (int t = 0; t < 4; ++t) {
            const float2 a = __half22float2(kh[t]), b = __half22float2(vh[t]);
            kf[2 * t] = a.x;
            kf[2 * t + 1] = a.y;
            vf[2 * t] = b.x;
            vf[2 * t + 1] = b.y;
          }
        } else {
#pragma unroll
          for (int t = 0; t < 8; ++t) kf[t] = vf[t] = 0.0f;
        }
        Ks[j * C4 + 2 * c8] = make_float4(kf[0], kf[1], kf[2], kf[3]);
        Ks[j * C4 + 2 * c8 + 1] = make_float4(kf[4], kf[5], kf[6], kf[7]);
        Vs[j * C4 + 2 * c8] = make_float4(vf[0], vf[1], vf[2], vf[3]);
        Vs[j * C4 + 2 * c8 + 1] = make_float4(vf[4], vf[5], vf[6], vf[7]);
      }
    } else {
      float* Kf = reinterpret_cast<float*>(Ks);
      float* Vf = reinterpret_cast<float*>(Vs);
      for (int s = tid; s < KT * DP; s += NT) {
        const int j = s / DP, d = s % DP;
        const int key = k0 + j;
        const bool ok = key < kend && d < D;
        Kf[s] = ok ? __half2float(kb[(int64_t)key * D + d]) : 0.0f;
        Vf[s] = ok ? __half2float(vb[(int64_t)key * D + d]) : 0.0f;
      }
    }
    __syncthreads();

    // Scores (log2 domain) of this query against the KT keys of the tile.
    float s[KT];
#pragma unroll
    for (int jj = 0; jj < KT; ++jj) {
      float a = 0.0f;
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const float4 kk = Ks[jj * C4 + i * G + lg];
        a = fmaf(qr[4 * i], kk.x, a);
        a = fmaf(qr[4 * i + 1], kk.y, a);
        a = fmaf(qr[4 * i + 2], kk.z, a);
        a = fmaf(qr[4 * i + 3], kk.w, a);
      }
      s[jj] = a;
    }
#pragma unroll
    for (int off = 1; off < G; off <<= 1)
#pragma unroll
      for (int jj = 0; jj < KT; ++jj) s[jj] += __shfl_xor(s[jj], off);

    float mt = -INFINITY;
#pragma unroll
    for (int jj = 0; jj < KT; ++jj) {
      const int key = k0 + jj;
      if (key > row || key >= kend) s[jj] = -INFINITY;  // causal mask, and keys past the tile's end
      mt = fmaxf(mt, s[jj]);
    }
    const float mn = fmaxf(m, mt);
    const float mref = mn == -INFINITY ? 0.0f : mn;  // nothing seen yet: everything stays zero
    const float alpha = exp2f(m - mref);             // m == -inf gives 0
    l *= alpha;
#pragma unroll
    for (int e = 0; e < 32; ++e) o[e] *= alpha;
#pragma unroll
    for (int jj = 0; jj < KT; ++jj) {
      const float p = exp2f(s[jj] - mref);
      l += p;
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const float4 vv = Vs[jj * C4 + i * G + lg];
        o[4 * i] = fmaf(p, vv.x, o[4 * i]);
        o[4 * i + 1] = fmaf(p, vv.y, o[4 * i + 1]);
        o[4 * i + 2] = fmaf(p, vv.z, o[4 * i + 2]);
        o[4 * i + 3] = fmaf(p, vv.w, o[4 * i + 3]);
      }
    }
    m = mn;
  }

  if (qvalid) {
    const float inv = 1.0f / l;  // l >= 1: the maximum's own term
    __half* orow = out + (bh * S + row) * D;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int d = 4 * (i * G + lg) + e;
        if (d < D) orow[d] = __float2half(o[4 * i + e] * inv);
      }
    }
  }
}

template <int G>
static void launch(const __half* q, const __half* k, const __half* v, __half* out, int S, int D, int64_t BH,
                   float qscale, hipStream_t st) {
  const int ntiles = (S + QT - 1) / QT;
  const int64_t blocks = BH * ntiles;
  if (D % 8 == 0)
    hipLaunchKernelGGL((flash_causal<G, true>), dim3((unsigned)blocks), dim3(QT * G), 0, st, q, k, v, out, S, D, BH,
                       ntiles, qscale);
  else
    hipLaunchKernelGGL((flash_causal<G, false>), dim3((unsigned)blocks), dim3(QT * G), 0, st, q, k, v, out, S, D,
                       BH, ntiles, qscale);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* q = static_cast<const __half*>(a->tensors[0]);
  const __half* k = static_cast<const __half*>(a->tensors[1]);
  const __half* v = static_cast<const __half*>(a->tensors[2]);
  __half* out = static_cast<__half*>(a->tensors[3]);
  const int64_t BH = a->ints[0] * a->ints[1];
  const int S = (int)a->ints[2];
  const int D = (int)a->ints[3];
  const float qscale = (float)a->floats[0] * LOG2E;
  if (D <= 32) launch<1>(q, k, v, out, S, D, BH, qscale, a->stream);
  else if (D <= 64) launch<2>(q, k, v, out, S, D, BH, qscale, a->stream);
  else launch<4>(q, k, v, out, S, D, BH, qscale, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

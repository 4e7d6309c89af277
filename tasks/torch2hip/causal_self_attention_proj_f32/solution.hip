// minGPT causal self-attention with its output projection, fp32, head size 64:
//   qkv = x W_attn^T + b_attn                 ([B*T, 3C], C = 64 * n_head, in the workspace)
//   att[b, t, h*64 + d] = sum_{s <= t} softmax_s(q_t . k_s / 8) * v_s[d]   (per batch and head)
//   y = att W_proj^T + b_proj
//
// Eager PyTorch materializes the [B, n_head, T, T] scores and passes over them several times
// (matmul, scale, masked_fill, softmax) before the second matmul, and computes the masked half
// of both products. Here:
//  1. gemm_bias (twice: the qkv projection and the output projection): a register-blocked fp32
//     GEMM with the bias in its epilogue. A 256-thread block computes a 128 x 128 tile, 8 x 8
//     per thread; per step of 8 along K each thread loads one 16-byte vector of each operand
//     tile (both K-contiguous) and stores them K-major in shared memory, double buffered, the
//     next step's global loads in flight during the FMAs, one barrier per step. A thread's rows
//     and columns come in two groups of 4 spaced 64 apart: 16-byte, conflict-free shared reads.
//  2. flash_attention: one block per (batch, head, tile of 64 queries) keeps the query tile in
//     shared memory and walks the key/value tiles of 32 up to the diagonal only (the next
//     tile's global loads in flight during the math), with an online softmax: scores S = Q K^T
//     (4 x 2 per thread), scale and causal mask, the row maximum and sum combined over the 16
//     threads that share a row with shuffles, P = exp(S - running max) stored transposed to
//     shared memory, the accumulator rescaled by exp(old max - new max) and O += P V (4 x 4 per
//     thread); O / row sum at the end. Nothing of size T x T reaches global memory. Query tiles
//     run longest first (the last tiles see the most keys).
// Every batch_size, seq_len, n_head >= 1 works (rows past seq_len are loaded as zeros and never
// stored). Plain fp32 FMA and expf throughout. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define HD 64   // head size
#define BM 128  // GEMM tile
#define BN 128
#define BK 8
#define PAD 4   // keeps rows 16-byte aligned and spreads transposed stores over the banks
#define BQ 64   // queries per attention block
#define BKV 32  // keys per step
#define LDS_ROW (HD + PAD)

// C[M, N] = A[M, K] B[N, K]^T + bias[N].
__global__ __launch_bounds__(THREADS, 2) void gemm_bias(const float* __restrict__ A, const float* __restrict__ B,
                                                        const float* __restrict__ bias, float* __restrict__ C, int M,
                                                        int N, int K, int ntn) {
  __shared__ __attribute__((aligned(16))) float As[2][BK][BM + PAD];
  __shared__ __attribute__((aligned(16))) float Bs[2][BK][BN + PAD];
  const int t = threadIdx.x;
  const int tx = t % 16, ty = t / 16;
  const int nt = (int)(blockIdx.x % (unsigned)ntn), mt = (int)(blockIdx.x / (unsigned)ntn);
  const int m0 = mt * BM, n0 = nt * BN;
  const bool vecK = (K % 4) == 0;
  // Tile loads: thread t moves row t / 2, columns (t % 2) * 4 .. +3 of the BK-wide slice.
  const int lr = t >> 1, lk = (t & 1) * 4;

  auto load4 = [&](const float* __restrict__ P, int rows, int row, int kk) {
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row < rows) {
      const float* p = P + (int64_t)row * K + kk;
      if (vecK && kk + 3 < K) {
        v = *reinterpret_cast<const float4*>(p);
      } else {
        if (kk + 0 < K) v.x = p[0];
        if (kk + 1 < K) v.y = p[1];
        if (kk + 2 < K) v.z = p[2];
        if (kk + 3 < K) v.w = p[3];
      }
    }
    return v;
  };
  auto store = [&](int buf, float4 a, float4 bv) {
    As[buf][lk + 0][lr] = a.x; As[buf][lk + 1][lr] = a.y; As[buf][lk + 2][lr] = a.z; As[buf][lk + 3][lr] = a.w;
    Bs[buf][lk + 0][lr] = bv.x; Bs[buf][lk + 1][lr] = bv.y; Bs[buf][lk + 2][lr] = bv.z; Bs[buf][lk + 3][lr] = bv.w;
  };

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  float4 ra = load4(A, M, m0 + lr, lk), rb = load4(B, N, n0 + lr, lk);
  store(0, ra, rb);
  __syncthreads();
  const int ktiles = (K + BK - 1) / BK;
  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) {
      const int kk = (kt + 1) * BK + lk;
      ra = load4(A, M, m0 + lr, kk);
      rb = load4(B, N, n0 + lr, kk);
    }
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[8], bb[8];
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + tx * 4]);
      a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w; a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
      bb[0] = b0.x; bb[1] = b0.y; bb[2] = b0.z; bb[3] = b0.w; bb[4] = b1.x; bb[5] = b1.y; bb[6] = b1.z; bb[7] = b1.w;
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
    }
    if (more) store(cur ^ 1, ra, rb);
    __syncthreads();
  }

  // Sub-tile element (i, j) is row m0 + (i / 4) * 64 + ty * 4 + i % 4, column
  // n0 + (j / 4) * 64 + tx * 4 + j % 4.
  const bool vecN = (N % 4) == 0;
  float bv[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const int n = n0 + (j / 4) * 64 + tx * 4 + j % 4;
    bv[j] = n < N ? bias[n] : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int m = m0 + (i / 4) * 64 + ty * 4 + i % 4;
    if (m >= M) continue;
    float* row = C + (int64_t)m * N;
#pragma unroll
    for (int g = 0; g < 2; ++g) {
      const int n = n0 + g * 64 + tx * 4;
      float o[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) o[j] = acc[i][g * 4 + j] + bv[g * 4 + j];
      if (vecN && n + 3 < N) {
        *reinterpret_cast<float4*>(row + n) = make_float4(o[0], o[1], o[2], o[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (n + j < N) row[n + j] = o[j];
      }
    }
  }
}

// o[0..3] += p * v.
__device__ __forceinline__ void fma_row(float* o, float p, float4 v) {
  o[0] = fmaf(p, v.x, o[0]);
  o[1] = fmaf(p, v.y, o[1]);
  o[2] = fmaf(p, v.z, o[2]);
  o[3] = fmaf(p, v.w, o[3]);
}

// Vector idx (16 per row) of the key and value tiles starting at row s0; zeros past T.
__device__ __forceinline__ void load_kv(const float* __restrict__ base, int64_t ld, int C, int T, int s0, int idx,
                                        float4& k, float4& v) {
  const int r = idx / (HD / 4), c = (idx % (HD / 4)) * 4;
  k = v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (s0 + r < T) {
    const float* p = base + (int64_t)(s0 + r) * ld + c;
    k = *reinterpret_cast<const float4*>(p + C);
    v = *reinterpret_cast<const float4*>(p + 2 * C);
  }
}

// Maximum / sum over the 16 threads of an aligned group of 16 lanes (every thread gets it).
__device__ __forceinline__ float group16_max(float v) {
#pragma unroll
  for (int o = 8; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
  return v;
}

__device__ __forceinline__ float group16_sum(float v) {
#pragma unroll
  for (int o = 8; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// Grid: x = batch * n_head + head, y = query tile counted from the last. qkv rows hold
// q | k | v for all heads; head h's columns are h*64 .. h*64+63 within each third.
__global__ __launch_bounds__(THREADS) void flash_attention(const float* __restrict__ qkv, float* __restrict__ y,
                                                           int T, int nh, float scale) {
  __shared__ __attribute__((aligned(16))) float Qs[BQ][LDS_ROW];
  __shared__ __attribute__((aligned(16))) float Ks[BKV][LDS_ROW];
  __shared__ __attribute__((aligned(16))) float Vs[BKV][HD];
  __shared__ __attribute__((aligned(16))) float Pt[BKV][LDS_ROW];  // P transposed: [key][query]
  __shared__ float alpha_s[BQ];  // per query row: rescale factor of this step, then 1 / row sum

  const int b = blockIdx.x / nh, h = blockIdx.x % nh;
  const int q0 = (gridDim.y - 1 - blockIdx.y) * BQ;
  const int C = nh * HD;
  const int64_t ld = 3 * (int64_t)C;
  const float* base = qkv + (int64_t)b * T * ld + h * HD;  // q of row s at base + s*ld, k at +C, v at +2C
  const int t = threadIdx.x;
  const int tr = t / 16, tc = t % 16;  // S: rows tr + 16i, keys tc + 16j; O: rows tr*4 + i, cols tc*4 + j

#pragma unroll
  for (int l = 0; l < BQ * HD / 4 / THREADS; ++l) {
    const int idx = t + l * THREADS, r = idx / (HD / 4), c = (idx % (HD / 4)) * 4;
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (q0 + r < T) v = *reinterpret_cast<const float4*>(base + (int64_t)(q0 + r) * ld + c);
    *reinterpret_cast<float4*>(&Qs[r][c]) = v;
  }

  constexpr int KV_LD = BKV * HD / 4 / THREADS;  // 16-byte vectors of K (and of V) per thread
  float4 rk[KV_LD], rv[KV_LD];
#pragma unroll
  for (int l = 0; l < KV_LD; ++l) load_kv(base, ld, C, T, 0, t + l * THREADS, rk[l], rv[l]);

  float o[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) o[i][j] = 0.0f;

  // Running max and sum of the S rows tr + 16i (the 16 threads of a row hold the same values).
  float m_run[4], l_run[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    m_run[i] = -INFINITY;
    l_run[i] = 0.0f;
  }

  const int kv_end = min(T, q0 + BQ);
  const int ntiles = (kv_end + BKV - 1) / BKV;
  for (int it = 0; it < ntiles; ++it) {
    const int s0 = it * BKV;
    __syncthreads();  // the previous step's reads of Ks, Vs and Pt are done (and Qs is visible)
#pragma unroll
    for (int l = 0; l < KV_LD; ++l) {
      const int idx = t + l * THREADS, r = idx / (HD / 4), c = (idx % (HD / 4)) * 4;
      *reinterpret_cast<float4*>(&Ks[r][c]) = rk[l];
      *reinterpret_cast<float4*>(&Vs[r][c]) = rv[l];
    }
    __syncthreads();
    if (it + 1 < ntiles) {
#pragma unroll
      for (int l = 0; l < KV_LD; ++l) load_kv(base, ld, C, T, s0 + BKV, t + l * THREADS, rk[l], rv[l]);
    }

    float s[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i) s[i][0] = s[i][1] = 0.0f;
#pragma unroll
    for (int d = 0; d < HD; d += 4) {
      float4 qv[4], kv[2];
#pragma unroll
      for (int i = 0; i < 4; ++i) qv[i] = *reinterpret_cast<const float4*>(&Qs[tr + 16 * i][d]);
#pragma unroll
      for (int j = 0; j < 2; ++j) kv[j] = *reinterpret_cast<const float4*>(&Ks[tc + 16 * j][d]);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          float a = s[i][j];
          a = fmaf(qv[i].x, kv[j].x, a);
          a = fmaf(qv[i].y, kv[j].y, a);
          a = fmaf(qv[i].z, kv[j].z, a);
          a = fmaf(qv[i].w, kv[j].w, a);
          s[i][j] = a;
        }
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int q = q0 + tr + 16 * i;
      float mx = -INFINITY;
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int key = s0 + tc + 16 * j;
        s[i][j] = key <= q ? s[i][j] * scale : -INFINITY;
        mx = fmaxf(mx, s[i][j]);
      }
      mx = group16_max(mx);
      // Finite: key 0 is visible to every row, so the first step sets a finite maximum.
      const float m_new = fmaxf(m_run[i], mx);
      const float alpha = expf(m_run[i] - m_new);  // 0 on the first step
      float rs = 0.0f;
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const float p = expf(s[i][j] - m_new);  // 0 where masked
        Pt[tc + 16 * j][tr + 16 * i] = p;
        rs += p;
      }
      rs = group16_sum(rs);
      l_run[i] = l_run[i] * alpha + rs;
      m_run[i] = m_new;
      if (tc == 0) alpha_s[tr + 16 * i] = alpha;
    }
    __syncthreads();

#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const float a = alpha_s[tr * 4 + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) o[i][j] *= a;
    }

#pragma unroll 8
    for (int k = 0; k < BKV; ++k) {
      const float4 p = *reinterpret_cast<const float4*>(&Pt[k][tr * 4]);
      const float4 v = *reinterpret_cast<const float4*>(&Vs[k][tc * 4]);
      fma_row(o[0], p.x, v);
      fma_row(o[1], p.y, v);
      fma_row(o[2], p.z, v);
      fma_row(o[3], p.w, v);
    }
  }

  __syncthreads();  // every read of alpha_s in the last step is done
  if (tc == 0) {
#pragma unroll
    for (int i = 0; i < 4; ++i) alpha_s[tr + 16 * i] = 1.0f / l_run[i];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int q = q0 + tr * 4 + i;
    const float inv = alpha_s[tr * 4 + i];
    if (q < T)
      *reinterpret_cast<float4*>(y + ((int64_t)b * T + q) * C + h * HD + tc * 4) =
          make_float4(o[i][0] * inv, o[i][1] * inv, o[i][2] * inv, o[i][3] * inv);
  }
}

static size_t qkv_floats(int64_t B, int64_t T, int64_t nh) { return (size_t)(B * T) * (size_t)(3 * HD * nh); }
static size_t att_floats(int64_t B, int64_t T, int64_t nh) { return (size_t)(B * T) * (size_t)(HD * nh); }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t B = a->ints[0], T = a->ints[1], nh = a->ints[2];
  return (qkv_floats(B, T, nh) + att_floats(B, T, nh)) * sizeof(float);
}

static int launch_gemm(const float* A, const float* W, const float* bias, float* C, int64_t M, int64_t N, int64_t K,
                       hipStream_t st) {
  const int64_t ntn = (N + BN - 1) / BN, ntm = (M + BM - 1) / BM;
  if (ntn * ntm > 0x7fffffff) return 1;
  hipLaunchKernelGGL(gemm_bias, dim3((unsigned)(ntn * ntm)), dim3(THREADS), 0, st, A, W, bias, C, (int)M, (int)N,
                     (int)K, (int)ntn);
  return 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w_attn = static_cast<const float*>(a->tensors[1]);
  const float* b_attn = static_cast<const float*>(a->tensors[2]);
  const float* w_proj = static_cast<const float*>(a->tensors[3]);
  const float* b_proj = static_cast<const float*>(a->tensors[4]);
  float* y = static_cast<float*>(a->tensors[5]);
  const int64_t B = a->ints[0], T = a->ints[1], nh = a->ints[2];
  const int64_t C = HD * nh, M = B * T;
  if (M > 0x7fffffff || 3 * C > 0x7fffffff) return 1;
  if (a->workspace_bytes < (qkv_floats(B, T, nh) + att_floats(B, T, nh)) * sizeof(float)) return 1;
  float* qkv = static_cast<float*>(a->workspace);
  float* att = qkv + qkv_floats(B, T, nh);  // a multiple of 4 floats: 16-byte aligned
  hipStream_t st = a->stream;

  if (launch_gemm(x, w_attn, b_attn, qkv, M, 3 * C, C, st)) return 1;
  const int64_t nq = (T + BQ - 1) / BQ;
  if (B * nh > 0x7fffffff || nq > 65535) return 1;
  hipLaunchKernelGGL(flash_attention, dim3((unsigned)(B * nh), (unsigned)nq), dim3(THREADS), 0, st, qkv, att, (int)T,
                     (int)nh, 0.125f);  // 1 / sqrt(64)
  if (launch_gemm(att, w_proj, b_proj, y, M, C, C, st)) return 1;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

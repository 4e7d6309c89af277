// y[m] = max_p scale * gelu(avgpool_kp(x w^T + b)[m, p]). Average pooling over windows of kp
// output features is linear, so it moves onto the weight:
//
//     pooled[m, p] = x[m] . wp[p] + bp[p],   wp[p] = mean_{j < kp} w[p*kp + j],  bp alike
//
// (rows of w past P * kp, P = out_features / kp, are dropped as AvgPool1d drops them). The GEMM
// shrinks by kp (16x for KernelBench's shape): one pass over w builds wp, then an fp32 GEMM of
// x [M, K] with wp [P, K] whose epilogue applies bias, GELU, scale and the row maximum.
//
//  1. pool_weight: wp and bp into the workspace, VEC adjacent columns per thread.
//  2. gemm_nt: a 256-thread block computes a 128 x 128 tile of x wp^T, 8 x 8 per thread in
//     registers. Per step of 8 along K each thread loads one 16-byte vector of the x tile and
//     one of the wp tile (both K-contiguous) and stores them transposed (K-major) in shared
//     memory, double buffered, the next step's global loads in flight during the FMAs and one
//     barrier per step. A thread's rows and columns come in two groups of 4 spaced 64 apart, so
//     its shared reads are 16-byte vectors and conflict-free. With few tiles (fewer than two
//     per multiprocessor) K is split over blockIdx.y and each split writes its partial tile to
//     the workspace; finish_rows then adds the splits in a fixed order and applies the epilogue
//     per row. With one split the epilogue runs in the GEMM: the 16 threads that share a row
//     reduce their maximum with shuffles and write one value per (column tile, row);
//     max_tiles takes the maximum over the column tiles.
// 16-byte global loads when in_features % 4 == 0, checked scalar loads otherwise; every size of
// at least 1 works. Plain fp32 FMA throughout. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define BM 128
#define BN 128
#define BK 8
#define PAD 4             // keeps rows 16-byte aligned and the transposed stores conflict-free
#define TARGET_BLOCKS 264  // two blocks per multiprocessor on a 132-SM GPU
#define MIN_KCHUNK 256
#define MAX_SPLITS 16

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }

// wp[p][c] = mean of w[p*kp + j][c] over j < kp; block 0 of each p also writes bp[p].
template <int VEC>
__global__ __launch_bounds__(THREADS) void pool_weight(const float* __restrict__ w, const float* __restrict__ b,
                                                       float* __restrict__ wp, float* __restrict__ bp, int k,
                                                       int kp, int colblocks) {
  const int64_t p = blockIdx.x / colblocks;
  const int cb = blockIdx.x % colblocks;
  if (cb == 0 && threadIdx.x == 0) {
    float s = 0.0f;
    for (int j = 0; j < kp; ++j) s += b[p * kp + j];
    bp[p] = s / (float)kp;
  }
  const int64_t c = ((int64_t)cb * THREADS + threadIdx.x) * VEC;
  if (c >= k) return;
  const float* src = w + p * kp * k + c;
  float acc[4][VEC];
#pragma unroll
  for (int u = 0; u < 4; ++u)
#pragma unroll
    for (int i = 0; i < VEC; ++i) acc[u][i] = 0.0f;
  int j = 0;
  for (; j + 3 < kp; j += 4) {
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const float* q = src + (int64_t)(j + u) * k;
      if constexpr (VEC == 4) {
        const float4 v = *reinterpret_cast<const float4*>(q);
        acc[u][0] += v.x; acc[u][1] += v.y; acc[u][2] += v.z; acc[u][3] += v.w;
      } else {
        acc[u][0] += q[0];
      }
    }
  }
  for (; j < kp; ++j) {
    const float* q = src + (int64_t)j * k;
#pragma unroll
    for (int i = 0; i < VEC; ++i) acc[0][i] += q[i];
  }
  float* dst = wp + p * k + c;
#pragma unroll
  for (int i = 0; i < VEC; ++i) dst[i] = ((acc[0][i] + acc[1][i]) + (acc[2][i] + acc[3][i])) / (float)kp;
}

// C = A B^T over K range [blockIdx.y * kchunk, +kchunk) for A [M, K], B [N, K]. SPLIT: the raw
// partial tile goes to out[blockIdx.y][M][N]. Otherwise out[nt][M] = max over the tile's
// columns n of scale * gelu(C[m, n] + bias[n]).
template <bool SPLIT>
__global__ __launch_bounds__(THREADS, 2) void gemm_nt(const float* __restrict__ A, const float* __restrict__ B,
                                                      const float* __restrict__ bias, float* __restrict__ out, int M,
                                                      int N, int K, int kchunk, int ntn, float scale) {
  __shared__ __attribute__((aligned(16))) float As[2][BK][BM + PAD];
  __shared__ __attribute__((aligned(16))) float Bs[2][BK][BN + PAD];
  const int t = threadIdx.x;
  const int tx = t % 16, ty = t / 16;
  const int nt = (int)(blockIdx.x % (unsigned)ntn), mt = (int)(blockIdx.x / (unsigned)ntn);
  const int m0 = mt * BM, n0 = nt * BN;
  const int kbeg = blockIdx.y * kchunk;
  const int kend = min(K, kbeg + kchunk);
  const bool vecK = (K % 4) == 0;  // then kbeg and kend are multiples of 4 as well
  // Tile loads: thread t moves row t / 2, columns (t % 2) * 4 .. +3 of the BK-wide slice.
  const int lr = t >> 1, lk = (t & 1) * 4;

  auto load4 = [&](const float* __restrict__ P, int rows, int row, int kk) {
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row < rows) {
      const float* p = P + (int64_t)row * K + kk;
      if (vecK && kk + 3 < kend) {
        v = *reinterpret_cast<const float4*>(p);
      } else {
        if (kk + 0 < kend) v.x = p[0];
        if (kk + 1 < kend) v.y = p[1];
        if (kk + 2 < kend) v.z = p[2];
        if (kk + 3 < kend) v.w = p[3];
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

  float4 ra = load4(A, M, m0 + lr, kbeg + lk), rb = load4(B, N, n0 + lr, kbeg + lk);
  store(0, ra, rb);
  __syncthreads();
  const int ktiles = (kend - kbeg + BK - 1) / BK;
  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) {
      const int kk = kbeg + (kt + 1) * BK + lk;
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
  if constexpr (SPLIT) {
    const bool vecN = (N % 4) == 0;
    float* base = out + (int64_t)blockIdx.y * M * N;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int m = m0 + (i / 4) * 64 + ty * 4 + i % 4;
      if (m >= M) continue;
      float* row = base + (int64_t)m * N;
#pragma unroll
      for (int g = 0; g < 2; ++g) {
        const int n = n0 + g * 64 + tx * 4;
        if (vecN && n + 3 < N) {
          *reinterpret_cast<float4*>(row + n) =
              make_float4(acc[i][g * 4 + 0], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (n + j < N) row[n + j] = acc[i][g * 4 + j];
        }
      }
    }
  } else {
    float bv[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int n = n0 + (j / 4) * 64 + tx * 4 + j % 4;
      bv[j] = n < N ? bias[n] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      float mx = -INFINITY;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int n = n0 + (j / 4) * 64 + tx * 4 + j % 4;
        if (n < N) mx = fmaxf(mx, gelu(acc[i][j] + bv[j]) * scale);
      }
      // The 16 threads with this ty (an aligned group of 16 lanes) hold the row's columns.
#pragma unroll
      for (int o = 8; o > 0; o >>= 1) mx = fmaxf(mx, __shfl_xor(mx, o));
      const int m = m0 + (i / 4) * 64 + ty * 4 + i % 4;
      if (tx == 0 && m < M) out[(int64_t)nt * M + m] = mx;
    }
  }
}

// Maximum over the block's threads (every thread gets it). Every thread must call it.
__device__ __forceinline__ float block_max(float v) {
  __shared__ float red[THREADS / 32];
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
  const int warps = THREADS / warpSize;
  if (threadIdx.x % warpSize == 0) red[threadIdx.x / warpSize] = v;
  __syncthreads();
  v = red[0];
  for (int i = 1; i < warps; ++i) v = fmaxf(v, red[i]);
  return v;
}

// One block per row: y[m] = max_n scale * gelu(sum_s part[s][m][n] + bias[n]).
__global__ __launch_bounds__(THREADS) void finish_rows(const float* __restrict__ part, const float* __restrict__ bias,
                                                       float* __restrict__ y, int M, int N, int splits,
                                                       float scale) {
  const int m = blockIdx.x;
  float mx = -INFINITY;
  for (int n = threadIdx.x; n < N; n += THREADS) {
    float s = 0.0f;
    for (int i = 0; i < splits; ++i) s += part[((int64_t)i * M + m) * N + n];
    mx = fmaxf(mx, gelu(s + bias[n]) * scale);
  }
  mx = block_max(mx);
  if (threadIdx.x == 0) y[m] = mx;
}

// y[m] = max over the column tiles of tmax[nt][m].
__global__ __launch_bounds__(THREADS) void max_tiles(const float* __restrict__ tmax, float* __restrict__ y, int M,
                                                     int ntn) {
  const int m = blockIdx.x * THREADS + threadIdx.x;
  if (m >= M) return;
  float mx = tmax[m];
  for (int i = 1; i < ntn; ++i) mx = fmaxf(mx, tmax[(int64_t)i * M + m]);
  y[m] = mx;
}

struct Plan {
  int64_t P, ntn, ntm, splits, kchunk;
  size_t wp_off, bp_off, out_off, total;  // in floats
};

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

static Plan plan(int64_t M, int64_t K, int64_t N, int64_t kp) {
  Plan p;
  p.P = N / kp;
  p.ntn = (p.P + BN - 1) / BN;
  p.ntm = (M + BM - 1) / BM;
  const int64_t tiles = p.ntn * p.ntm;
  int64_t splits = TARGET_BLOCKS / tiles;  // no partial second wave
  const int64_t by_k = K / MIN_KCHUNK;
  if (splits > by_k) splits = by_k;
  if (splits > MAX_SPLITS) splits = MAX_SPLITS;
  if (splits < 1) splits = 1;
  p.kchunk = (int64_t)round_up((size_t)((K + splits - 1) / splits), BK);
  p.splits = (K + p.kchunk - 1) / p.kchunk;  // every split non-empty
  p.wp_off = 0;
  p.bp_off = round_up((size_t)(p.P * K), 64);
  p.out_off = p.bp_off + round_up((size_t)p.P, 64);
  const size_t out_floats = p.splits > 1 ? (size_t)(p.splits * M * p.P) : (size_t)(p.ntn * M);
  p.total = p.out_off + out_floats;
  return p;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  if (a->ints[3] < 1 || a->ints[2] < a->ints[3]) return 0;
  return plan(a->ints[0], a->ints[1], a->ints[2], a->ints[3]).total * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* b = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t M = a->ints[0], K = a->ints[1], N = a->ints[2], kp = a->ints[3];
  const float scale = (float)a->floats[0];
  if (kp < 1 || N < kp || M > 0x7fffffff || K > 0x7fffffff) return 1;
  const Plan p = plan(M, K, N, kp);
  if (a->workspace_bytes < p.total * sizeof(float)) return 1;
  float* ws = static_cast<float*>(a->workspace);
  float* wp = ws + p.wp_off;
  float* bp = ws + p.bp_off;
  float* out = ws + p.out_off;
  hipStream_t st = a->stream;

  const int vec = K % 4 == 0 ? 4 : 1;
  const int64_t colblocks = (K + (int64_t)THREADS * vec - 1) / ((int64_t)THREADS * vec);
  const int64_t pool_blocks = p.P * colblocks;
  if (pool_blocks > 0x7fffffff || p.ntn * p.ntm > 0x7fffffff) return 1;
  if (vec == 4)
    hipLaunchKernelGGL(pool_weight<4>, dim3((unsigned)pool_blocks), dim3(THREADS), 0, st, w, b, wp, bp, (int)K,
                       (int)kp, (int)colblocks);
  else
    hipLaunchKernelGGL(pool_weight<1>, dim3((unsigned)pool_blocks), dim3(THREADS), 0, st, w, b, wp, bp, (int)K,
                       (int)kp, (int)colblocks);

  const dim3 grid((unsigned)(p.ntn * p.ntm), (unsigned)p.splits);
  if (p.splits > 1) {
    hipLaunchKernelGGL(gemm_nt<true>, grid, dim3(THREADS), 0, st, x, wp, bp, out, (int)M, (int)p.P, (int)K,
                       (int)p.kchunk, (int)p.ntn, scale);
    hipLaunchKernelGGL(finish_rows, dim3((unsigned)M), dim3(THREADS), 0, st, out, bp, y, (int)M, (int)p.P,
                       (int)p.splits, scale);
  } else {
    hipLaunchKernelGGL(gemm_nt<false>, grid, dim3(THREADS), 0, st, x, wp, bp, out, (int)M, (int)p.P, (int)K,
                       (int)p.kchunk, (int)p.ntn, scale);
    hipLaunchKernelGGL(max_tiles, dim3((unsigned)((M + THREADS - 1) / THREADS)), dim3(THREADS), 0, st, out, y,
                       (int)M, (int)p.ntn);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

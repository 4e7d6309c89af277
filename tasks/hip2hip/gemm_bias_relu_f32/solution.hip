// Linear layer C = relu(A * B + bias) in fp32 (row-major A [M,K], B [K,N], bias [N]): one
// register-blocked GEMM with the bias and relu fused into its epilogue, so C is written once
// and never read back.
//
// A 256-thread block computes a BM x BN tile of C; each thread owns a TM x TN sub-tile held in
// registers (8 x 8 for the 128 x 128 tile, 4 x 4 for the 64 x 64 tile used when the grid of
// large tiles would leave multiprocessors idle). Per step of BK along K the block stages an
// A tile (stored K-major, i.e. transposed, so that a thread reads its rows as 16-byte vectors)
// and a B tile in shared memory; the thread then does TM*TN FMAs per (TM+TN)/4 vector
// shared-memory loads. A thread's rows and columns come in groups of 4 spaced 64 apart, so
// the vector reads of a warp are conflict-free. Global loads of the next K tile go to
// registers before the current tile is used (double-buffered shared memory, one barrier per
// step). Global loads and C stores are 16-byte vectors when the row length allows (K % 4 == 0
// for A, N % 4 == 0 for B and C) and fall back to checked scalar accesses on ragged edges,
// so every M, N, K >= 1 works. The epilogue adds the column's bias (read once per column
// group) and clamps at zero before the store. When even the 64 x 64 grid is small and K is
// long, K is split into chunks (blockIdx.z) whose partial products go to the workspace and a
// second kernel sums them in a fixed order (deterministic) and applies bias and relu there.
// Plain fp32 FMA throughout.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define NTHREADS 256

// EPI: add bias and apply relu before the store (false for split-K partial products).
template <int BM, int BN, int BK, int TM, int TN, bool EPI>
__global__ __launch_bounds__(NTHREADS, 2) void sgemm_regblock(const float* __restrict__ A,
                                                              const float* __restrict__ B,
                                                              const float* __restrict__ bias,
                                                              float* __restrict__ C, int M,
                                                              int N, int K, int kchunk,
                                                              int vecA, int vecB) {
  constexpr int TX = BN / TN;  // threads along N
  constexpr int TY = BM / TM;  // threads along M
  static_assert(TX * TY == NTHREADS, "tile / thread mismatch");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "vector widths");
  constexpr int APAD = 4;                        // keeps 16-byte alignment of As rows
  constexpr int A_VEC = BM * BK / 4;             // float4 slots of an A tile
  constexpr int B_VEC = BK * BN / 4;             // float4 slots of a B tile
  constexpr int A_LD = (A_VEC + NTHREADS - 1) / NTHREADS;
  constexpr int B_LD = (B_VEC + NTHREADS - 1) / NTHREADS;

  __shared__ __attribute__((aligned(16))) float As[2][BK][BM + APAD];
  __shared__ __attribute__((aligned(16))) float Bs[2][BK][BN];

  const int t = threadIdx.x;
  const int tx = t % TX, ty = t / TX;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  // K range of this block: [kbeg, kend); kchunk is a multiple of BK. With a split, block z
  // writes its partial product to slice z of C (the workspace).
  const int kbeg = blockIdx.z * kchunk;
  const int kend = K < kbeg + kchunk ? K : kbeg + kchunk;
  C += (int64_t)blockIdx.z * M * N;

  float4 ra[A_LD], rb[B_LD];

  // Global -> registers for the K tile starting at k0 (zero outside the matrices).
  auto load_tile = [&](int k0) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
      if (idx < A_VEC) {
        const int m = m0 + idx / (BK / 4);
        const int k = k0 + (idx % (BK / 4)) * 4;
        if (m < M) {
          const float* p = A + (int64_t)m * K + k;
          if (vecA && k + 3 < kend) {
            v = *reinterpret_cast<const float4*>(p);
          } else {
            if (k + 0 < kend) v.x = p[0];
            if (k + 1 < kend) v.y = p[1];
            if (k + 2 < kend) v.z = p[2];
            if (k + 3 < kend) v.w = p[3];
          }
        }
      }
      ra[l] = v;
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
      if (idx < B_VEC) {
        const int k = k0 + idx / (BN / 4);
        const int n = n0 + (idx % (BN / 4)) * 4;
        if (k < kend) {
          const float* p = B + (int64_t)k * N + n;
          if (vecB && n + 3 < N) {
            v = *reinterpret_cast<const float4*>(p);
          } else {
            if (n + 0 < N) v.x = p[0];
            if (n + 1 < N) v.y = p[1];
            if (n + 2 < N) v.z = p[2];
            if (n + 3 < N) v.w = p[3];
          }
        }
      }
      rb[l] = v;
    }
  };
  // Registers -> shared buffer `buf` (A transposed to K-major).
  auto store_tile = [&](int buf) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < A_VEC) {
        const int m = idx / (BK / 4), k = (idx % (BK / 4)) * 4;
        As[buf][k + 0][m] = ra[l].x;
        As[buf][k + 1][m] = ra[l].y;
        As[buf][k + 2][m] = ra[l].z;
        As[buf][k + 3][m] = ra[l].w;
      }
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < B_VEC) {
        const int k = idx / (BN / 4), n = (idx % (BN / 4)) * 4;
        *reinterpret_cast<float4*>(&Bs[buf][k][n]) = rb[l];
      }
    }
  };

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  const int ktiles = (kend - kbeg + BK - 1) / BK;
  load_tile(kbeg);
  store_tile(0);
  __syncthreads();

  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) load_tile(kbeg + (kt + 1) * BK);  // in flight while we compute
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
#pragma unroll
      for (int g = 0; g < TM / 4; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(&As[cur][k][g * TY * 4 + ty * 4]);
        a[g * 4 + 0] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
      }
#pragma unroll
      for (int g = 0; g < TN / 4; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(&Bs[cur][k][g * TX * 4 + tx * 4]);
        b[g * 4 + 0] = v.x; b[g * 4 + 1] = v.y; b[g * 4 + 2] = v.z; b[g * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (more) store_tile(cur ^ 1);
    __syncthreads();
  }

  // Epilogue: row r of the thread's sub-tile is m0 + (r/4)*TY*4 + ty*4 + r%4, columns alike.
  const bool vecC = (N % 4) == 0;
  if (EPI) {
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int n = n0 + g * TX * 4 + tx * 4;
      float bv[4];
      if (vecC && n + 3 < N) {
        const float4 v = *reinterpret_cast<const float4*>(bias + n);
        bv[0] = v.x; bv[1] = v.y; bv[2] = v.z; bv[3] = v.w;
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) bv[j] = n + j < N ? bias[n + j] : 0.0f;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][g * 4 + j] = fmaxf(acc[i][g * 4 + j] + bv[j], 0.0f);
    }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int m = m0 + (i / 4) * TY * 4 + ty * 4 + (i % 4);
    if (m >= M) continue;
    float* crow = C + (int64_t)m * N;
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int n = n0 + g * TX * 4 + tx * 4;
      if (vecC && n + 3 < N) {
        *reinterpret_cast<float4*>(crow + n) =
            make_float4(acc[i][g * 4 + 0], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (n + j < N) crow[n + j] = acc[i][g * 4 + j];
      }
    }
  }
}

// C[i] = relu(sum over the nsplit slices of W (fixed order) + bias[i % N]), 16-byte vectors
// when possible (N % 4 == 0: the four values of a vector share a row).
__global__ __launch_bounds__(NTHREADS) void splitk_reduce(const float* __restrict__ W,
                                                          const float* __restrict__ bias,
                                                          float* __restrict__ C, int64_t n,
                                                          int N, int nsplit) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (N % 4 == 0) {
    const float4* W4 = reinterpret_cast<const float4*>(W);
    float4* C4 = reinterpret_cast<float4*>(C);
    const int64_t n4 = n / 4;
    for (int64_t i = i0; i < n4; i += stride) {
      float4 acc = W4[i];
      for (int z = 1; z < nsplit; ++z) {
        const float4 v = W4[(int64_t)z * n4 + i];
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
      }
      const float4 b = *reinterpret_cast<const float4*>(bias + (4 * i) % N);
      C4[i] = make_float4(fmaxf(acc.x + b.x, 0.0f), fmaxf(acc.y + b.y, 0.0f),
                          fmaxf(acc.z + b.z, 0.0f), fmaxf(acc.w + b.w, 0.0f));
    }
  } else {
    for (int64_t i = i0; i < n; i += stride) {
      float acc = W[i];
      for (int z = 1; z < nsplit; ++z) acc += W[(int64_t)z * n + i];
      C[i] = fmaxf(acc + bias[i % N], 0.0f);
    }
  }
}

// Number of K chunks for the 64 x 64 kernel: enough blocks for about 256 in all, chunks of at
// least 128 along K, at most 16 of them. A function of the params alone, so that
// arena_workspace_size and arena_launch agree. Returns the chunk length (a multiple of 16).
static int splitk_chunk(int64_t M, int64_t N, int64_t K, int* nsplit) {
  const int64_t tiles = ((M + 63) / 64) * ((N + 63) / 64);
  int64_t s = (256 + tiles - 1) / tiles;
  if (s > K / 128) s = K / 128;
  if (s > 16) s = 16;
  if (s < 2) { *nsplit = 1; return (int)K; }
  int64_t chunk = (K + s - 1) / s;
  chunk = (chunk + 15) / 16 * 16;
  *nsplit = (int)((K + chunk - 1) / chunk);
  return (int)chunk;
}

template <int BM, int BN, int BK, int TM, int TN, bool EPI>
static int launch_tile(const float* A, const float* B, const float* bias, float* C, int M, int N,
                       int K, int kchunk, int nsplit, hipStream_t s) {
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM), (unsigned)nsplit);
  if (grid.y > 65535) return 1;
  const int vecA = (K % 4) == 0, vecB = (N % 4) == 0;
  hipLaunchKernelGGL((sgemm_regblock<BM, BN, BK, TM, TN, EPI>), grid, dim3(NTHREADS), 0, s, A, B,
                     bias, C, M, N, K, kchunk, vecA, vecB);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  int nsplit = 1;
  splitk_chunk(a->ints[0], a->ints[1], a->ints[2], &nsplit);
  return nsplit > 1 ? (size_t)nsplit * (size_t)a->ints[0] * (size_t)a->ints[1] * sizeof(float)
                    : 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  const float* B = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* C = static_cast<float*>(a->tensors[3]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int K = (int)a->ints[2];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess)
    return 1;
  // Large tiles do twice the FMAs per shared-memory load, but pay off only when there are
  // enough of them to keep every multiprocessor busy with little wave imbalance (two resident
  // per multiprocessor); otherwise use 64 x 64 tiles (4x as many blocks), split along K when
  // even those are too few.
  const int64_t big_tiles = (int64_t)((M + 127) / 128) * ((N + 127) / 128);
  if (big_tiles >= (int64_t)sms + sms / 2)
    return launch_tile<128, 128, 8, 8, 8, true>(A, B, bias, C, M, N, K, K, 1, a->stream);
  int nsplit = 1;
  const int kchunk = splitk_chunk(M, N, K, &nsplit);
  if (nsplit == 1)
    return launch_tile<64, 64, 16, 4, 4, true>(A, B, bias, C, M, N, K, K, 1, a->stream);
  const size_t need = (size_t)nsplit * (size_t)M * (size_t)N * sizeof(float);
  if (a->workspace == nullptr || a->workspace_bytes < need) return 1;
  float* W = static_cast<float*>(a->workspace);
  if (launch_tile<64, 64, 16, 4, 4, false>(A, B, bias, W, M, N, K, kchunk, nsplit, a->stream))
    return 1;
  const int64_t n = (int64_t)M * N;
  const int64_t work = N % 4 == 0 ? n / 4 : n;
  int64_t grid = (work + NTHREADS - 1) / NTHREADS;
  if (grid > (int64_t)sms * 8) grid = (int64_t)sms * 8;
  hipLaunchKernelGGL(splitk_reduce, dim3((unsigned)grid), dim3(NTHREADS), 0, a->stream, W, bias,
                     C, n, N, nsplit);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

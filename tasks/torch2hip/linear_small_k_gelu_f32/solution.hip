// y = gelu(x w^T + b), fp32, x [M, K], w [N, K] (nn.Linear layout), one register-blocked GEMM
// with bias and GELU in its epilogue: y is written once and never re-read (with K in the tens
// the GEMM is bound by that write, and eager's separate GELU pass doubles the traffic).
//
// A 256-thread block computes a BM x BN tile of y; each thread a TM x TN sub-tile held in
// registers (8 x 8 for 128 x 128 tiles, 4 x 4 for 64 x 64 tiles when the large grid would
// leave multiprocessors idle). Both operands are K-contiguous: per step of BK along K the
// block stages an x tile and a w tile transposed to K-major in shared memory (double
// buffered, the next tile's global loads in flight during the FMAs, one barrier per step),
// so that a thread reads its four rows / four columns as one 16-byte vector. Rows and columns
// of a thread come in groups of 4 spaced 64 apart: conflict-free shared reads, and each row
// of the tile is stored as contiguous 16-byte vectors. Global loads are 16-byte vectors when
// K % 4 == 0, checked scalars otherwise; y stores are vectors when N % 4 == 0. Tiles are
// numbered along N first, so consecutive blocks share the same rows of x (L2 hits).
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define NTHREADS 256

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }

template <int BM, int BN, int BK, int TM, int TN>
__global__ __launch_bounds__(NTHREADS, 2) void linear_gelu(const float* __restrict__ X, const float* __restrict__ Wt,
                                                        const float* __restrict__ bias, float* __restrict__ Y,
                                                        int M, int N, int K, int ntn, int vecK) {
  constexpr int TX = BN / TN;  // threads along N
  constexpr int TY = BM / TM;  // threads along M
  static_assert(TX * TY == NTHREADS, "tile / thread mismatch");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "vector widths");
  constexpr int PAD = 4;  // keeps rows 16-byte aligned, spreads the transposed stores over banks
  constexpr int KQ = BK / 4;
  constexpr int A_VEC = BM * KQ, B_VEC = BN * KQ;
  constexpr int A_LD = (A_VEC + NTHREADS - 1) / NTHREADS;
  constexpr int B_LD = (B_VEC + NTHREADS - 1) / NTHREADS;

  __shared__ __attribute__((aligned(16))) float As[2][BK][BM + PAD];
  __shared__ __attribute__((aligned(16))) float Bs[2][BK][BN + PAD];

  const int t = threadIdx.x;
  const int tx = t % TX, ty = t / TX;
  const int nt = (int)(blockIdx.x % (unsigned)ntn);
  const int mt = (int)(blockIdx.x / (unsigned)ntn);
  const int m0 = mt * BM, n0 = nt * BN;

  float4 ra[A_LD], rb[B_LD];

  // Row `row` of a K-contiguous matrix with `rows` rows, four values from k (zero outside).
  auto load4 = [&](const float* __restrict__ P, int rows, int row, int k) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (row < rows) {
      const float* p = P + (int64_t)row * K + k;
      if (vecK && k + 3 < K) {
        v = *reinterpret_cast<const float4*>(p);
      } else {
        if (k + 0 < K) v.x = p[0];
        if (k + 1 < K) v.y = p[1];
        if (k + 2 < K) v.z = p[2];
        if (k + 3 < K) v.w = p[3];
      }
    }
    return v;
  };
  auto load_tile = [&](int k0) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < A_VEC) ra[l] = load4(X, M, m0 + idx / KQ, k0 + (idx % KQ) * 4);
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < B_VEC) rb[l] = load4(Wt, N, n0 + idx / KQ, k0 + (idx % KQ) * 4);
    }
  };
  auto store_tile = [&](int buf) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < A_VEC) {
        const int r = idx / KQ, k = (idx % KQ) * 4;
        As[buf][k + 0][r] = ra[l].x;
        As[buf][k + 1][r] = ra[l].y;
        As[buf][k + 2][r] = ra[l].z;
        As[buf][k + 3][r] = ra[l].w;
      }
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < B_VEC) {
        const int r = idx / KQ, k = (idx % KQ) * 4;
        Bs[buf][k + 0][r] = rb[l].x;
        Bs[buf][k + 1][r] = rb[l].y;
        Bs[buf][k + 2][r] = rb[l].z;
        Bs[buf][k + 3][r] = rb[l].w;
      }
    }
  };

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  const int ktiles = (K + BK - 1) / BK;
  load_tile(0);
  store_tile(0);
  __syncthreads();
  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) load_tile((kt + 1) * BK);
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

  // Epilogue: column c of the sub-tile is n0 + (c/4)*TX*4 + tx*4 + c%4, rows alike. The GELU
  // is applied row by row as it is stored.
  const bool vecN = (N % 4) == 0;
  float bv[TN];
#pragma unroll
  for (int g = 0; g < TN / 4; ++g)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int n = n0 + g * TX * 4 + tx * 4 + j;
      bv[g * 4 + j] = n < N ? bias[n] : 0.0f;
    }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int m = m0 + (i / 4) * TY * 4 + ty * 4 + (i % 4);
    if (m >= M) continue;
    float* yrow = Y + (int64_t)m * N;
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int n = n0 + g * TX * 4 + tx * 4;
      float o[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) o[j] = gelu(acc[i][g * 4 + j] + bv[g * 4 + j]);
      if (vecN && n + 3 < N) {
        *reinterpret_cast<float4*>(yrow + n) = make_float4(o[0], o[1], o[2], o[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (n + j < N) yrow[n + j] = o[j];
      }
    }
  }
}

template <int BM, int BN, int BK, int TM, int TN>
static int launch_tile(const float* X, const float* Wt, const float* bias, float* Y, int M, int N, int K,
                       hipStream_t s) {
  const int64_t ntn = (N + BN - 1) / BN, ntm = ((int64_t)M + BM - 1) / BM;
  const int64_t tiles = ntn * ntm;
  if (tiles > 0x7fffffffLL) return 1;
  hipLaunchKernelGGL((linear_gelu<BM, BN, BK, TM, TN>), dim3((unsigned)tiles), dim3(NTHREADS), 0, s, X, Wt, bias, Y,
                     M, N, K, (int)ntn, (int)(K % 4 == 0));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* X = static_cast<const float*>(a->tensors[0]);
  const float* Wt = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* Y = static_cast<float*>(a->tensors[3]);
  const int M = (int)a->ints[0];
  const int K = (int)a->ints[1];
  const int N = (int)a->ints[2];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  // Large tiles halve the shared-memory reads per FMA but only pay off with enough of them to
  // fill every multiprocessor; otherwise 64 x 64 tiles (4x as many blocks).
  const int64_t big_tiles = (int64_t)((M + 127) / 128) * ((N + 127) / 128);
  if (big_tiles >= 2 * (int64_t)sms) return launch_tile<128, 128, 8, 8, 8>(X, Wt, bias, Y, M, N, K, a->stream);
  return launch_tile<64, 64, 16, 4, 4>(X, Wt, bias, Y, M, N, K, a->stream);
}

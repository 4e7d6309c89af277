// fp16 GEMM C = A * B (row-major A [M,K], B [K,N], C [M,N]), fp32 accumulation, register
// blocked.
//
// A 256-thread block computes a BM x BN tile of C; each thread owns a TM x TN sub-tile held in
// fp32 registers (8 x 8 for the 128 x 128 tile, 4 x 4 for the 64 x 64 tile used when the grid
// of large tiles would leave multiprocessors idle). Global loads are 16-byte vectors of eight
// fp16 values (one per thread per tile of A and of B; checked scalar loads on ragged edges or
// when a row length is not a multiple of 8), converted once to fp32 as they are stored in
// shared memory: A transposed to K-major so that a thread reads its rows as 16-byte vectors,
// B as is. Per k the thread does TM*TN FMAs per (TM+TN)/4 vector shared-memory loads; its rows
// and columns come in groups of 4 spaced 64 apart, so a warp's vector reads are conflict-free.
// The next K tile is fetched into registers while the current one is used (double-buffered
// shared memory, one barrier per step). When even the 64 x 64 grid is small and K is long, K
// is split into chunks (blockIdx.z) whose fp32 partial products go to the workspace and a
// second kernel sums them in a fixed order (deterministic) and rounds to fp16 once.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define NTHREADS 256

__device__ __forceinline__ float h2f(unsigned int bits) {
  return __half2float(__ushort_as_half((unsigned short)(bits & 0xffffu)));
}

// Eight fp16 values at p (raw bits); entries at or past `limit` (relative to p) are zero.
__device__ __forceinline__ uint4 load8_checked(const unsigned short* p, int limit) {
  unsigned int s[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) s[j] = j < limit ? (unsigned int)p[j] : 0u;
  return make_uint4(s[0] | (s[1] << 16), s[2] | (s[3] << 16), s[4] | (s[5] << 16),
                    s[6] | (s[7] << 16));
}

template <int BM, int BN, int BK, int TM, int TN, bool SPLIT>
__global__ __launch_bounds__(NTHREADS, 2) void hgemm_regblock(const unsigned short* __restrict__ A,
                                                              const unsigned short* __restrict__ B,
                                                              void* __restrict__ Cout, int M,
                                                              int N, int K, int kchunk,
                                                              int vecA, int vecB) {
  constexpr int TX = BN / TN;  // threads along N
  constexpr int TY = BM / TM;  // threads along M
  static_assert(TX * TY == NTHREADS, "tile / thread mismatch");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 8 == 0, "vector widths");
  constexpr int APAD = 4;                        // keeps 16-byte alignment of As rows
  constexpr int A_VEC = BM * BK / 8;             // 8-half slots of an A tile
  constexpr int B_VEC = BK * BN / 8;             // 8-half slots of a B tile
  constexpr int A_LD = (A_VEC + NTHREADS - 1) / NTHREADS;
  constexpr int B_LD = (B_VEC + NTHREADS - 1) / NTHREADS;

  __shared__ __attribute__((aligned(16))) float As[2][BK][BM + APAD];
  __shared__ __attribute__((aligned(16))) float Bs[2][BK][BN];

  const int t = threadIdx.x;
  const int tx = t % TX, ty = t / TX;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  // K range of this block: [kbeg, kend); kchunk is a multiple of BK.
  const int kbeg = blockIdx.z * kchunk;
  const int kend = K < kbeg + kchunk ? K : kbeg + kchunk;

  uint4 ra[A_LD], rb[B_LD];

  // Global -> registers for the K tile starting at k0 (zero outside the matrices).
  auto load_tile = [&](int k0) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      uint4 v = make_uint4(0u, 0u, 0u, 0u);
      if (idx < A_VEC) {
        const int m = m0 + idx / (BK / 8);
        const int k = k0 + (idx % (BK / 8)) * 8;
        if (m < M) {
          const unsigned short* p = A + (int64_t)m * K + k;
          if (vecA && k + 7 < kend)
            v = *reinterpret_cast<const uint4*>(p);
          else
            v = load8_checked(p, kend - k);
        }
      }
      ra[l] = v;
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      uint4 v = make_uint4(0u, 0u, 0u, 0u);
      if (idx < B_VEC) {
        const int k = k0 + idx / (BN / 8);
        const int n = n0 + (idx % (BN / 8)) * 8;
        if (k < kend) {
          const unsigned short* p = B + (int64_t)k * N + n;
          if (vecB && n + 7 < N)
            v = *reinterpret_cast<const uint4*>(p);
          else
            v = load8_checked(p, N - n);
        }
      }
      rb[l] = v;
    }
  };
  // Registers -> shared buffer `buf`, converted to fp32 (A transposed to K-major).
  auto store_tile = [&](int buf) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < A_VEC) {
        const int m = idx / (BK / 8), k = (idx % (BK / 8)) * 8;
        const uint4 v = ra[l];
        As[buf][k + 0][m] = h2f(v.x);
        As[buf][k + 1][m] = h2f(v.x >> 16);
        As[buf][k + 2][m] = h2f(v.y);
        As[buf][k + 3][m] = h2f(v.y >> 16);
        As[buf][k + 4][m] = h2f(v.z);
        As[buf][k + 5][m] = h2f(v.z >> 16);
        As[buf][k + 6][m] = h2f(v.w);
        As[buf][k + 7][m] = h2f(v.w >> 16);
      }
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < B_VEC) {
        const int k = idx / (BN / 8), n = (idx % (BN / 8)) * 8;
        const uint4 v = rb[l];
        *reinterpret_cast<float4*>(&Bs[buf][k][n]) =
            make_float4(h2f(v.x), h2f(v.x >> 16), h2f(v.y), h2f(v.y >> 16));
        *reinterpret_cast<float4*>(&Bs[buf][k][n + 4]) =
            make_float4(h2f(v.z), h2f(v.z >> 16), h2f(v.w), h2f(v.w >> 16));
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
  // Split: fp32 partials to slice z of the workspace; otherwise fp16 to C.
  const bool vecC = (N % 4) == 0;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int m = m0 + (i / 4) * TY * 4 + ty * 4 + (i % 4);
    if (m >= M) continue;
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int n = n0 + g * TX * 4 + tx * 4;
      const float* v = &acc[i][g * 4];
      if (SPLIT) {
        float* crow = static_cast<float*>(Cout) + (int64_t)blockIdx.z * M * N + (int64_t)m * N;
        if (vecC && n + 3 < N) {
          *reinterpret_cast<float4*>(crow + n) = make_float4(v[0], v[1], v[2], v[3]);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (n + j < N) crow[n + j] = v[j];
        }
      } else {
        __half* crow = static_cast<__half*>(Cout) + (int64_t)m * N;
        if (vecC && n + 3 < N) {
          *reinterpret_cast<__half2*>(crow + n) = __floats2half2_rn(v[0], v[1]);
          *reinterpret_cast<__half2*>(crow + n + 2) = __floats2half2_rn(v[2], v[3]);
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (n + j < N) crow[n + j] = __float2half(v[j]);
        }
      }
    }
  }
}

// C[i] = fp16(sum over the nsplit slices of W), fixed order, 16-byte loads when possible.
__global__ __launch_bounds__(NTHREADS) void splitk_reduce(const float* __restrict__ W,
                                                          __half* __restrict__ C, int64_t n,
                                                          int nsplit) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (n % 4 == 0) {
    const float4* W4 = reinterpret_cast<const float4*>(W);
    const int64_t n4 = n / 4;
    for (int64_t i = i0; i < n4; i += stride) {
      float4 acc = W4[i];
      for (int z = 1; z < nsplit; ++z) {
        const float4 v = W4[(int64_t)z * n4 + i];
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
      }
      *reinterpret_cast<__half2*>(C + 4 * i) = __floats2half2_rn(acc.x, acc.y);
      *reinterpret_cast<__half2*>(C + 4 * i + 2) = __floats2half2_rn(acc.z, acc.w);
    }
  } else {
    for (int64_t i = i0; i < n; i += stride) {
      float acc = W[i];
      for (int z = 1; z < nsplit; ++z) acc += W[(int64_t)z * n + i];
      C[i] = __float2half(acc);
    }
  }
}

// Number of K chunks for the 64 x 64 kernel: enough blocks for about 256 in all, chunks of at
// least 128 along K, at most 16 of them. A function of the params alone, so that
// arena_workspace_size and arena_launch agree. Returns the chunk length (a multiple of 32,
// the K tile of that kernel).
static int splitk_chunk(int64_t M, int64_t N, int64_t K, int* nsplit) {
  const int64_t tiles = ((M + 63) / 64) * ((N + 63) / 64);
  int64_t s = (256 + tiles - 1) / tiles;
  if (s > K / 128) s = K / 128;
  if (s > 16) s = 16;
  if (s < 2) { *nsplit = 1; return (int)K; }
  int64_t chunk = (K + s - 1) / s;
  chunk = (chunk + 31) / 32 * 32;
  *nsplit = (int)((K + chunk - 1) / chunk);
  return (int)chunk;
}

template <int BM, int BN, int BK, int TM, int TN, bool SPLIT>
static int launch_tile(const unsigned short* A, const unsigned short* B, void* C, int M, int N,
                       int K, int kchunk, int nsplit, hipStream_t s) {
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM), (unsigned)nsplit);
  if (grid.y > 65535) return 1;
  const int vecA = (K % 8) == 0, vecB = (N % 8) == 0;
  hipLaunchKernelGGL((hgemm_regblock<BM, BN, BK, TM, TN, SPLIT>), grid, dim3(NTHREADS), 0, s, A,
                     B, C, M, N, K, kchunk, vecA, vecB);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  int nsplit = 1;
  splitk_chunk(a->ints[0], a->ints[1], a->ints[2], &nsplit);
  return nsplit > 1 ? (size_t)nsplit * (size_t)a->ints[0] * (size_t)a->ints[1] * sizeof(float)
                    : 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const unsigned short* A = static_cast<const unsigned short*>(a->tensors[0]);
  const unsigned short* B = static_cast<const unsigned short*>(a->tensors[1]);
  void* C = a->tensors[2];
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int K = (int)a->ints[2];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess)
    return 1;
  // Large tiles do twice the FMAs per shared-memory load, but pay off only when there are
  // enough of them to keep every multiprocessor busy with little wave imbalance; otherwise use
  // 64 x 64 tiles (4x as many blocks), split along K when even those are too few.
  const int64_t big_tiles = (int64_t)((M + 127) / 128) * ((N + 127) / 128);
  if (big_tiles >= (int64_t)sms + sms / 2)
    return launch_tile<128, 128, 16, 8, 8, false>(A, B, C, M, N, K, K, 1, a->stream);
  int nsplit = 1;
  const int kchunk = splitk_chunk(M, N, K, &nsplit);
  if (nsplit == 1)
    return launch_tile<64, 64, 32, 4, 4, false>(A, B, C, M, N, K, K, 1, a->stream);
  const size_t need = (size_t)nsplit * (size_t)M * (size_t)N * sizeof(float);
  if (a->workspace == nullptr || a->workspace_bytes < need) return 1;
  float* W = static_cast<float*>(a->workspace);
  if (launch_tile<64, 64, 32, 4, 4, true>(A, B, W, M, N, K, kchunk, nsplit, a->stream)) return 1;
  const int64_t n = (int64_t)M * N;
  const int64_t work = n % 4 == 0 ? n / 4 : n;
  int64_t grid = (work + NTHREADS - 1) / NTHREADS;
  if (grid > (int64_t)sms * 8) grid = (int64_t)sms * 8;
  hipLaunchKernelGGL(splitk_reduce, dim3((unsigned)grid), dim3(NTHREADS), 0, a->stream, W,
                     static_cast<__half*>(C), n, nsplit);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// int8 GEMM C = A * B (row-major A [M,K], B [K,N] int8, C [M,N] int32), register blocked with
// 4-way int8 dot products.
//
// A 256-thread block computes a BM x BN tile of C; each thread owns a TM x TN sub-tile of
// int32 accumulators in registers (8 x 8 for the 128 x 128 tile, 4 x 4 for the 64 x 64 tile
// used when the grid of large tiles would leave multiprocessors idle). Shared memory holds
// both tiles as 32-bit words of four consecutive k values: A's rows already are, so A is
// loaded as 16-byte vectors (16 k values of one row) and its words stored K-major
// (transposed, padded so the stores are conflict-free); B is [K,N], so each thread loads one
// 4-byte word (4 columns) from each of 4 consecutive rows and transposes the 4 x 4 bytes in
// registers into 4 column words. The inner loop then reads TM + TN words as 16-byte vectors
// and issues TM*TN dot4 operations (4 multiply-adds each): __dp4a on NVIDIA, v_dot4_i32_i8
// on AMD GPUs that have it, plain integer arithmetic elsewhere. The next K tile is fetched into
// registers while the current one is used (double-buffered shared memory, one barrier per
// step). Ragged edges (and rows whose length does not allow aligned vectors) use checked byte
// loads that fill zeros, so every M, N, K >= 1 works; integer sums are exact in any order.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define NTHREADS 256

// c + the dot product of the four signed bytes of a and of b.
__device__ __forceinline__ int dot4(int a, int b, int c) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  return __dp4a(a, b, c);
#elif defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__) || \
    defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
  return __builtin_amdgcn_sdot4(a, b, c, false);
#else
  c += (int)(signed char)(a & 0xff) * (int)(signed char)(b & 0xff);
  c += (int)(signed char)((a >> 8) & 0xff) * (int)(signed char)((b >> 8) & 0xff);
  c += (int)(signed char)((a >> 16) & 0xff) * (int)(signed char)((b >> 16) & 0xff);
  return c + (a >> 24) * (b >> 24);
#endif
}

// Byte c of each of r0..r3, packed as the bytes 0..3 of one word.
__device__ __forceinline__ unsigned int gather_byte(unsigned int r0, unsigned int r1,
                                                    unsigned int r2, unsigned int r3, int c) {
  const int s = 8 * c;
  return ((r0 >> s) & 0xffu) | (((r1 >> s) & 0xffu) << 8) | (((r2 >> s) & 0xffu) << 16) |
         (((r3 >> s) & 0xffu) << 24);
}

template <int BM, int BN, int BK, int TM, int TN>
__global__ __launch_bounds__(NTHREADS, 2) void igemm_regblock(const int8_t* __restrict__ A,
                                                              const int8_t* __restrict__ B,
                                                              int* __restrict__ C, int M, int N,
                                                              int K, int vecA, int vecB) {
  constexpr int TX = BN / TN;  // threads along N
  constexpr int TY = BM / TM;  // threads along M
  static_assert(TX * TY == NTHREADS, "tile / thread mismatch");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 16 == 0, "vector widths");
  constexpr int KQ = BK / 4;            // 4-k words per tile row
  constexpr int APAD = 4;               // conflict-free transposed stores, 16-byte rows
  constexpr int A_VEC = BM * BK / 16;   // 16-byte slots of an A tile
  constexpr int B_UNITS = KQ * BN / 4;  // 4 k x 4 n byte blocks of a B tile
  constexpr int A_LD = (A_VEC + NTHREADS - 1) / NTHREADS;
  constexpr int B_LD = (B_UNITS + NTHREADS - 1) / NTHREADS;

  __shared__ __attribute__((aligned(16))) int As[2][KQ][BM + APAD];
  __shared__ __attribute__((aligned(16))) int Bs[2][KQ][BN];

  const int t = threadIdx.x;
  const int tx = t % TX, ty = t / TX;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

  uint4 ra[A_LD], rb[B_LD];  // rb: the 4 row words of a B unit, not yet transposed

  // Global -> registers for the K tile starting at k0 (zero outside the matrices).
  auto load_tile = [&](int k0) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      uint4 v = make_uint4(0u, 0u, 0u, 0u);
      if (idx < A_VEC) {
        const int m = m0 + idx / (BK / 16);
        const int k = k0 + (idx % (BK / 16)) * 16;
        if (m < M) {
          const int8_t* p = A + (int64_t)m * K + k;
          if (vecA && k + 15 < K) {
            v = *reinterpret_cast<const uint4*>(p);
          } else {
            unsigned int w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
            for (int j = 0; j < 16; ++j)
              if (k + j < K) w[j / 4] |= (unsigned int)(unsigned char)p[j] << (8 * (j % 4));
            v = make_uint4(w[0], w[1], w[2], w[3]);
          }
        }
      }
      ra[l] = v;
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      unsigned int w[4] = {0u, 0u, 0u, 0u};
      if (idx < B_UNITS) {
        const int k = k0 + (idx / (BN / 4)) * 4;
        const int n = n0 + (idx % (BN / 4)) * 4;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (k + j < K && n < N) {
            const int8_t* p = B + (int64_t)(k + j) * N + n;
            if (vecB && n + 3 < N) {
              w[j] = *reinterpret_cast<const unsigned int*>(p);
            } else {
#pragma unroll
              for (int c = 0; c < 4; ++c)
                if (n + c < N) w[j] |= (unsigned int)(unsigned char)p[c] << (8 * c);
            }
          }
        }
      }
      rb[l] = make_uint4(w[0], w[1], w[2], w[3]);
    }
  };
  // Registers -> shared buffer `buf`: A words K-major, B transposed into column words.
  auto store_tile = [&](int buf) {
#pragma unroll
    for (int l = 0; l < A_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < A_VEC) {
        const int m = idx / (BK / 16), q = (idx % (BK / 16)) * 4;
        As[buf][q + 0][m] = (int)ra[l].x;
        As[buf][q + 1][m] = (int)ra[l].y;
        As[buf][q + 2][m] = (int)ra[l].z;
        As[buf][q + 3][m] = (int)ra[l].w;
      }
    }
#pragma unroll
    for (int l = 0; l < B_LD; ++l) {
      const int idx = t + l * NTHREADS;
      if (idx < B_UNITS) {
        const int q = idx / (BN / 4), n = (idx % (BN / 4)) * 4;
        const uint4 r = rb[l];
        *reinterpret_cast<int4*>(&Bs[buf][q][n]) =
            make_int4((int)gather_byte(r.x, r.y, r.z, r.w, 0),
                      (int)gather_byte(r.x, r.y, r.z, r.w, 1),
                      (int)gather_byte(r.x, r.y, r.z, r.w, 2),
                      (int)gather_byte(r.x, r.y, r.z, r.w, 3));
      }
    }
  };

  int acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;

  const int ktiles = (K + BK - 1) / BK;
  load_tile(0);
  store_tile(0);
  __syncthreads();

  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) load_tile((kt + 1) * BK);  // in flight while we compute
#pragma unroll
    for (int q = 0; q < KQ; ++q) {
      int a[TM], b[TN];
#pragma unroll
      for (int g = 0; g < TM / 4; ++g) {
        const int4 v = *reinterpret_cast<const int4*>(&As[cur][q][g * TY * 4 + ty * 4]);
        a[g * 4 + 0] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
      }
#pragma unroll
      for (int g = 0; g < TN / 4; ++g) {
        const int4 v = *reinterpret_cast<const int4*>(&Bs[cur][q][g * TX * 4 + tx * 4]);
        b[g * 4 + 0] = v.x; b[g * 4 + 1] = v.y; b[g * 4 + 2] = v.z; b[g * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = dot4(a[i], b[j], acc[i][j]);
    }
    if (more) store_tile(cur ^ 1);
    __syncthreads();
  }

  // Epilogue: row r of the thread's sub-tile is m0 + (r/4)*TY*4 + ty*4 + r%4, columns alike.
  const bool vecC = (N % 4) == 0;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int m = m0 + (i / 4) * TY * 4 + ty * 4 + (i % 4);
    if (m >= M) continue;
    int* crow = C + (int64_t)m * N;
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int n = n0 + g * TX * 4 + tx * 4;
      if (vecC && n + 3 < N) {
        *reinterpret_cast<int4*>(crow + n) =
            make_int4(acc[i][g * 4 + 0], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (n + j < N) crow[n + j] = acc[i][g * 4 + j];
      }
    }
  }
}

template <int BM, int BN, int BK, int TM, int TN>
static int launch_tile(const int8_t* A, const int8_t* B, int* C, int M, int N, int K,
                       hipStream_t s) {
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
  if (grid.y > 65535) return 1;
  const int vecA = (K % 16) == 0, vecB = (N % 4) == 0;
  hipLaunchKernelGGL((igemm_regblock<BM, BN, BK, TM, TN>), grid, dim3(NTHREADS), 0, s, A, B, C,
                     M, N, K, vecA, vecB);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int8_t* A = static_cast<const int8_t*>(a->tensors[0]);
  const int8_t* B = static_cast<const int8_t*>(a->tensors[1]);
  int* C = static_cast<int*>(a->tensors[2]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int K = (int)a->ints[2];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess)
    return 1;
  // Large tiles do twice the dot products per shared-memory load, but pay off only when there
  // are enough of them to keep every multiprocessor busy; otherwise 64 x 64 tiles.
  const int64_t big_tiles = (int64_t)((M + 127) / 128) * ((N + 127) / 128);
  if (big_tiles >= (int64_t)sms + sms / 2)
    return launch_tile<128, 128, 32, 8, 8>(A, B, C, M, N, K, a->stream);
  return launch_tile<64, 64, 64, 4, 4>(A, B, C, M, N, K, a->stream);
}

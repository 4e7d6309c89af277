// Row sort of int32 keys with a bitonic network held in registers. A row is padded with
// INT_MAX to NP (the next power of two) and spread over G = NP / E threads, E = min(NP, 16)
// contiguous keys per thread (16-byte loads and stores when N % 4 == 0). For every step of
// the network (k, j), unrolled at compile time for each NP:
//  - j < E: both keys are in the same thread: a min/max in registers;
//  - j < E * warpSize: the partner is lane ^ (j / E) of the same warp: one shuffle per key;
//  - larger j (rows of 1024+ keys): one exchange through shared memory (laid out so that
//    consecutive lanes hit consecutive banks), two barriers.
// So the 78 steps of a 4096-key sort touch shared memory 6 times instead of 78, with no
// index arithmetic and no idle half of the threads. Short rows share a warp (several rows per
// warp, 256 threads per block). Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <limits.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define EMAX 16

template <int NP>
struct Shape {
  static constexpr int E = NP < EMAX ? NP : EMAX;  // keys per thread
  static constexpr int G = NP / E;                  // threads per row
  static constexpr int ROWS = BLOCK / G;            // rows per block
};

template <int NP>
__global__ void __launch_bounds__(BLOCK) sort_rows(const int* __restrict__ keys, int* __restrict__ out, int64_t m,
                                                   int n) {
  constexpr int E = Shape<NP>::E, G = Shape<NP>::G, ROWS = Shape<NP>::ROWS;
  __shared__ int smem[BLOCK * E];  // used only when a row spans several warps
  const int tid = threadIdx.x;
  const int g = tid % G;       // thread within the row
  const int rloc = tid / G;    // row within the block
  const int64_t row = (int64_t)blockIdx.x * ROWS + rloc;
  const bool active = row < m;  // inactive threads still take part in the barriers
  const int i0 = g * E;         // first key of this thread
  const int* kr = keys + (active ? row : 0) * n;
  int v[E];
  if (E % 4 == 0 && n % 4 == 0) {  // rows start 16-byte aligned; a group of 4 is all in or all out
#pragma unroll
    for (int r = 0; r < E; r += 4) {
      if (active && i0 + r < n) {
        const int4 t = *reinterpret_cast<const int4*>(kr + i0 + r);
        v[r] = t.x;
        v[r + 1] = t.y;
        v[r + 2] = t.z;
        v[r + 3] = t.w;
      } else {
        v[r] = v[r + 1] = v[r + 2] = v[r + 3] = INT_MAX;
      }
    }
  } else {
#pragma unroll
    for (int r = 0; r < E; ++r) v[r] = (active && i0 + r < n) ? kr[i0 + r] : INT_MAX;
  }

  int* srow = smem + rloc * NP;  // this row's slice: key (g, r) lives at r * G + g
#pragma unroll
  for (int k = 2; k <= NP; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      if (j < E) {
#pragma unroll
        for (int r = 0; r < E; ++r) {
          if ((r & j) == 0) {
            const bool up = ((i0 + r) & k) == 0;  // ascending pair
            const int a = v[r], b = v[r | j];
            const int lo = a < b ? a : b, hi = a < b ? b : a;
            v[r] = up ? lo : hi;
            v[r | j] = up ? hi : lo;
          }
        }
      } else {
        const int d = j / E;                          // partner thread: g ^ d
        const bool keep_min = ((g & d) == 0) == ((i0 & k) == 0);  // lower index of an ascending pair, or upper of a descending one
        if (d < warpSize) {
#pragma unroll
          for (int r = 0; r < E; ++r) {
            const int o = __shfl_xor(v[r], d);
            v[r] = keep_min ? (v[r] < o ? v[r] : o) : (v[r] < o ? o : v[r]);
          }
        } else {
#pragma unroll
          for (int r = 0; r < E; ++r) srow[r * G + g] = v[r];
          __syncthreads();
#pragma unroll
          for (int r = 0; r < E; ++r) {
            const int o = srow[r * G + (g ^ d)];
            v[r] = keep_min ? (v[r] < o ? v[r] : o) : (v[r] < o ? o : v[r]);
          }
          __syncthreads();
        }
      }
    }
  }

  if (!active) return;
  int* orow = out + row * n;
  if (E % 4 == 0 && n % 4 == 0) {
#pragma unroll
    for (int r = 0; r < E; r += 4)
      if (i0 + r < n) *reinterpret_cast<int4*>(orow + i0 + r) = make_int4(v[r], v[r + 1], v[r + 2], v[r + 3]);
  } else {
#pragma unroll
    for (int r = 0; r < E; ++r)
      if (i0 + r < n) orow[i0 + r] = v[r];
  }
}

template <int NP>
static void launch(const int* keys, int* out, int64_t m, int n, hipStream_t st) {
  const int64_t rows = Shape<NP>::ROWS;
  hipLaunchKernelGGL(sort_rows<NP>, dim3((unsigned)((m + rows - 1) / rows)), dim3(BLOCK), 0, st, keys, out, m, n);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int* keys = static_cast<const int*>(a->tensors[0]);
  int* out = static_cast<int*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  switch (n <= 1 ? 1 : 1 << (32 - __builtin_clz((unsigned)(n - 1)))) {
    case 1: launch<1>(keys, out, m, n, a->stream); break;
    case 2: launch<2>(keys, out, m, n, a->stream); break;
    case 4: launch<4>(keys, out, m, n, a->stream); break;
    case 8: launch<8>(keys, out, m, n, a->stream); break;
    case 16: launch<16>(keys, out, m, n, a->stream); break;
    case 32: launch<32>(keys, out, m, n, a->stream); break;
    case 64: launch<64>(keys, out, m, n, a->stream); break;
    case 128: launch<128>(keys, out, m, n, a->stream); break;
    case 256: launch<256>(keys, out, m, n, a->stream); break;
    case 512: launch<512>(keys, out, m, n, a->stream); break;
    case 1024: launch<1024>(keys, out, m, n, a->stream); break;
    case 2048: launch<2048>(keys, out, m, n, a->stream); break;
    case 4096: launch<4096>(keys, out, m, n, a->stream); break;
    default: return 1;
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

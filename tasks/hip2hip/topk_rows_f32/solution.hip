// Top-K values of each row (K <= 64) with a warp-wide filter and bitonic merges in registers
// (the WarpSelect scheme):
//  - S warps share a row (S grows with N so long rows spread over a block), each taking
//    every S-th chunk of 4 * warpSize values (16-byte loads when N % 4 == 0, two chunks in
//    flight per lane);
//  - a warp keeps its current best KB values (KB = max(warpSize, next power of two >= K))
//    sorted in descending order across its lanes' registers, and the K-th of them as a
//    threshold; a warp vote discards most chunks outright (after the first few hundred
//    values, a value beats the K-th best seen so far with probability ~K / position);
//  - values above the threshold are appended to a per-warp candidate buffer in shared
//    memory (position = count + ballot popcount of the lower lanes); when it would overflow,
//    the buffer is bitonic-sorted in registers and merged into the best list (elementwise
//    max against the reversed candidates gives a bitonic sequence holding the best KB of
//    both, and log2(KB) shuffle half-cleaner steps sort it), and the threshold rises;
//  - the S lists of a row are merged the same way through shared memory.
// The host reads the warp width and instantiates the kernel for it (32 or 64).
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__device__ __forceinline__ unsigned long long warp_ballot(int pred) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  return __ballot_sync(0xffffffffu, pred);
#else
  return __ballot(pred);
#endif
}

// Orders shared-memory accesses of the lanes of one warp.
__device__ __forceinline__ void warp_sync() {
#if defined(__HIP_PLATFORM_NVIDIA__)
  __syncwarp();
#else
  __builtin_amdgcn_wave_barrier();  // a wavefront runs in lockstep; this keeps the compiler from reordering
#endif
}

// A list of KB values spread over a warp: element e = r * WS + lane lives in v[r].
// Bitonic sort into descending order.
template <int WS, int KB>
__device__ __forceinline__ void sort_desc(float (&v)[KB / WS], int lane) {
  constexpr int R = KB / WS;
#pragma unroll
  for (int k = 2; k <= KB; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      if (j >= WS) {  // partner in register r ^ (j / WS) of the same lane
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const int rp = r ^ (j / WS);
          if (rp > r) {
            const bool desc = ((r * WS + lane) & k) == 0;  // the lower element takes the max
            const float a = v[r], b = v[rp];
            v[r] = desc ? fmaxf(a, b) : fminf(a, b);
            v[rp] = desc ? fminf(a, b) : fmaxf(a, b);
          }
        }
      } else {  // partner in lane ^ j
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const int e = r * WS + lane;
          const float o = __shfl_xor(v[r], j);
          const bool lower = (e & j) == 0, desc = (e & k) == 0;
          v[r] = lower == desc ? fmaxf(v[r], o) : fminf(v[r], o);
        }
      }
    }
  }
}

// best (descending) <- the KB largest of best and c (descending).
template <int WS, int KB>
__device__ __forceinline__ void merge_into(float (&best)[KB / WS], const float (&c)[KB / WS], int lane) {
  constexpr int R = KB / WS;
  // Element e of the reversed c is c[KB - 1 - e]: register R - 1 - r of lane WS - 1 - lane.
  float rev[R];
#pragma unroll
  for (int r = 0; r < R; ++r) rev[r] = __shfl(c[R - 1 - r], WS - 1 - lane);
#pragma unroll
  for (int r = 0; r < R; ++r) best[r] = fmaxf(best[r], rev[r]);  // bitonic, holds the KB largest
#pragma unroll
  for (int j = KB / 2; j > 0; j >>= 1) {
    if (j >= WS) {
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int rp = r ^ (j / WS);
        if (rp > r) {
          const float a = best[r], b = best[rp];
          best[r] = fmaxf(a, b);
          best[rp] = fminf(a, b);
        }
      }
    } else {
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const float o = __shfl_xor(best[r], j);
        best[r] = ((r * WS + lane) & j) == 0 ? fmaxf(best[r], o) : fminf(best[r], o);
      }
    }
  }
}

template <int WS, int KB>
struct WarpTopK {
  static constexpr int R = KB / WS;
  float best[R];
  float thr;    // the K-th largest value merged so far (-inf until K values were merged)
  int count;    // candidates waiting in cand
  float* cand;  // this warp's KB-slot candidate buffer (shared memory)
  int lane, k;
  unsigned long long lower;  // mask of the lanes below this one

  __device__ __forceinline__ void init(float* buf, int lane_, int k_) {
#pragma unroll
    for (int r = 0; r < R; ++r) best[r] = -INFINITY;
    thr = -INFINITY;
    count = 0;
    cand = buf;
    lane = lane_;
    k = k_;
    lower = lane == 0 ? 0ull : (~0ull >> (64 - lane));
  }

  __device__ __forceinline__ void update_threshold() {
    const int e = k - 1, rk = e / WS;
    float t = best[0];
#pragma unroll
    for (int r = 1; r < R; ++r)
      if (r == rk) t = best[r];
    thr = __shfl(t, e % WS);
  }

  // Merge the waiting candidates into best (uniform: every lane calls it together).
  __device__ __forceinline__ void flush() {
    warp_sync();
    float c[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int e = r * WS + lane;
      c[r] = e < count ? cand[e] : -INFINITY;
    }
    warp_sync();
    sort_desc<WS, KB>(c, lane);
    merge_into<WS, KB>(best, c, lane);
    update_threshold();
    count = 0;
  }

  // Offer one value per lane (-inf for none).
  __device__ __forceinline__ void offer(float x) {
    const bool p = x > thr;
    const unsigned long long m = warp_ballot(p);
    if (m == 0ull) return;
    const int n = __popcll(m);
    if (count + n > KB) flush();
    if (p) cand[count + __popcll(m & lower)] = x;
    count += n;
  }
};

template <int WS, int KB>
__global__ void __launch_bounds__(BLOCK) topk_rows(const float* __restrict__ x, float* __restrict__ vals, int64_t m,
                                                   int64_t n, int k, int splits, bool vec4) {
  constexpr int R = KB / WS;
  constexpr int NW = BLOCK / WS;
  constexpr int CH = 4 * WS;  // values per chunk
  __shared__ float s_buf[NW * KB];
  const int lane = threadIdx.x % WS, warp = threadIdx.x / WS;
  const int rows_per_block = NW / splits;
  const int wr = warp % splits;  // this warp's share of its row
  const int64_t row = (int64_t)blockIdx.x * rows_per_block + warp / splits;
  const bool active = row < m;  // inactive warps still reach the block barrier
  const float* xr = x + (active ? row : 0) * n;

  WarpTopK<WS, KB> t;
  t.init(s_buf + warp * KB, lane, k);
  const int64_t chunks = active ? (n + CH - 1) / CH : 0;
  for (int64_t c = wr; c < chunks; c += 2 * (int64_t)splits) {
    float v[8];
    const int64_t c1 = c + splits;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t cc = h == 0 ? c : c1;
      const int64_t base = cc * CH;
      if (vec4) {  // n % 4 == 0: a group of four is entirely in or out of the row
        const int64_t i = base + 4 * lane;
        if (cc < chunks && i < n) {
          const float4 q = *reinterpret_cast<const float4*>(xr + i);
          v[4 * h] = q.x;
          v[4 * h + 1] = q.y;
          v[4 * h + 2] = q.z;
          v[4 * h + 3] = q.w;
        } else {
          v[4 * h] = v[4 * h + 1] = v[4 * h + 2] = v[4 * h + 3] = -INFINITY;
        }
      } else {
#pragma unroll
        for (int s = 0; s < 4; ++s) {
          const int64_t i = base + s * WS + lane;
          v[4 * h + s] = (cc < chunks && i < n) ? xr[i] : -INFINITY;
        }
      }
    }
    bool any = false;
#pragma unroll
    for (int s = 0; s < 8; ++s) any = any || v[s] > t.thr;
    if (warp_ballot(any) == 0ull) continue;
#pragma unroll
    for (int s = 0; s < 8; ++s) t.offer(v[s]);
  }
  if (t.count > 0) t.flush();

  if (splits > 1) {  // merge the row's lists into its first warp
    float* mine = s_buf + warp * KB;
#pragma unroll
    for (int r = 0; r < R; ++r) mine[r * WS + lane] = t.best[r];
    __syncthreads();
    if (wr == 0) {
      for (int w = 1; w < splits; ++w) {
        const float* other = s_buf + (warp + w) * KB;
        float c[R];
#pragma unroll
        for (int r = 0; r < R; ++r) c[r] = other[r * WS + lane];
        merge_into<WS, KB>(t.best, c, lane);
      }
    }
  }
  if (!active || wr != 0) return;
  float* out = vals + row * k;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int e = r * WS + lane;
    if (e < k) out[e] = t.best[r];
  }
}

template <int WS, int KB>
static void launch(const float* x, float* vals, int64_t m, int64_t n, int k, hipStream_t st) {
  constexpr int NW = BLOCK / WS;
  // Warps per row: about one per 2048 values, a power of two, at most a block.
  int splits = 1;
  while (splits < NW && (int64_t)splits * 2048 < n) splits *= 2;
  const int64_t rows_per_block = NW / splits;
  const bool vec4 = n % 4 == 0;
  hipLaunchKernelGGL((topk_rows<WS, KB>), dim3((unsigned)((m + rows_per_block - 1) / rows_per_block)), dim3(BLOCK),
                     0, st, x, vals, m, n, k, splits, vec4);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* vals = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0], n = a->ints[1];
  const int k = (int)a->ints[2];
  if (k < 1 || k > 64 || k > n) return 1;
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (ws == 32) {
    if (k <= 32) launch<32, 32>(x, vals, m, n, k, a->stream);
    else launch<32, 64>(x, vals, m, n, k, a->stream);
  } else if (ws == 64) {
    launch<64, 64>(x, vals, m, n, k, a->stream);
  } else {
    return 1;
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

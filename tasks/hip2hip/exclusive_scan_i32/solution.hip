// Exclusive prefix sum of an int32 vector in a single pass over the data (read x once, write
// y once) with decoupled look-back:
//  - a tiny init kernel clears the tile status words and the tile counter (the workspace is
//    garbage on entry);
//  - each block takes the next tile of 4096 values from an atomic counter (so a tile only
//    ever waits on tiles whose blocks are already running: forward progress without relying
//    on the order blocks are scheduled), loads it with coalesced 16-byte loads (each thread
//    four chunks of four consecutive values), scans each chunk serially in registers, runs the
//    four block-wide scans of the chunk sums together (warp shuffles, then one shared slot
//    per warp), and publishes its aggregate as one 64-bit {flag, value} word with an atomic
//    (so the flag and value can never be seen apart);
//  - warp 0 then looks back over the preceding tiles warpSize at a time (atomic reads of the
//    status words, performed at device scope), adding aggregates until it meets a tile that
//    has published its inclusive prefix, publishes its own inclusive prefix, and the block
//    writes its values with 16-byte stores.
// The sums are exact in int32: every true prefix sum is below 2^31 in magnitude and two's
// complement addition is associative, so any grouping gives the same result.
// Works with 32- and 64-wide warps (the device uses warpSize; ballot masks are 64-bit).
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32
#define THREADS 256
#define CHUNKS 4  // chunks of 4 values per thread
#define TILE (THREADS * CHUNKS * 4)

#define FLAG_AGGREGATE 1ull
#define FLAG_INCLUSIVE 2ull

__device__ __forceinline__ unsigned long long warp_ballot(int pred) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  return __ballot_sync(0xffffffffu, pred);
#else
  return __ballot(pred);
#endif
}

__device__ __forceinline__ int warp_sum(int v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

__device__ __forceinline__ int warp_inclusive(int v, int lane) {
  for (int o = 1; o < warpSize; o <<= 1) {
    const int t = __shfl_up(v, o);
    if (lane >= o) v += t;
  }
  return v;
}

__device__ __forceinline__ unsigned long long pack(unsigned long long flag, int v) {
  return (flag << 32) | (unsigned long long)(unsigned int)v;
}

// Coherent read of a status word (an atomic no-op, performed where the other blocks' atomics are).
__device__ __forceinline__ unsigned long long read_status(unsigned long long* p) { return atomicAdd(p, 0ull); }

__global__ void init_status(unsigned long long* __restrict__ status, int64_t count, unsigned int* __restrict__ counter) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) status[i] = 0ull;
  if (i == 0) *counter = 0u;
}

__global__ void __launch_bounds__(THREADS) scan_tiles(const int* __restrict__ x, int* __restrict__ y, int64_t n,
                                                      unsigned long long* __restrict__ status,
                                                      unsigned int* __restrict__ counter) {
  __shared__ int s_warp[CHUNKS][MAX_WARPS];
  __shared__ int s_prefix;
  __shared__ unsigned int s_tile;
  const int tid = threadIdx.x, ws = warpSize;
  const int lane = tid % ws, warp = tid / ws, nw = blockDim.x / ws;

  if (tid == 0) s_tile = atomicAdd(counter, 1u);
  __syncthreads();
  const int64_t tile = s_tile;
  const int64_t base = tile * TILE;

  // Chunk k of thread t: the four consecutive values at base + (k * THREADS + t) * 4
  // (coalesced 16-byte loads); the tile is the chunks in (k, t) order.
  int v[CHUNKS][4];
#pragma unroll
  for (int k = 0; k < CHUNKS; ++k) {
    const int64_t i = base + (int64_t)(k * THREADS + tid) * 4;
    if (i + 4 <= n) {  // x is 256-byte aligned and i a multiple of 4: an aligned 16-byte load
      const int4 t = *reinterpret_cast<const int4*>(x + i);
      v[k][0] = t.x;
      v[k][1] = t.y;
      v[k][2] = t.z;
      v[k][3] = t.w;
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) v[k][q] = i + q < n ? x[i + q] : 0;
    }
  }
  // Exclusive scan of each chunk in place, then CHUNKS block-wide scans of the chunk sums at once.
  int total[CHUNKS], inc[CHUNKS];
#pragma unroll
  for (int k = 0; k < CHUNKS; ++k) {
    int run = 0;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int t = v[k][q];
      v[k][q] = run;
      run += t;
    }
    total[k] = run;
    inc[k] = run;
  }
  for (int o = 1; o < ws; o <<= 1) {
#pragma unroll
    for (int k = 0; k < CHUNKS; ++k) {
      const int t = __shfl_up(inc[k], o);
      if (lane >= o) inc[k] += t;
    }
  }
  if (lane == ws - 1) {
#pragma unroll
    for (int k = 0; k < CHUNKS; ++k) s_warp[k][warp] = inc[k];
  }
  __syncthreads();
  int chunk_prefix[CHUNKS];  // sum of the tile before each of this thread's chunks
  int aggregate = 0;
#pragma unroll
  for (int k = 0; k < CHUNKS; ++k) {
    int warp_excl = 0, round_total = 0;
    for (int w = 0; w < nw; ++w) {
      const int t = s_warp[k][w];
      if (w < warp) warp_excl += t;
      round_total += t;
    }
    chunk_prefix[k] = aggregate + warp_excl + (inc[k] - total[k]);
    aggregate += round_total;
  }

  if (warp == 0) {
    int prefix = 0;
    if (tile == 0) {
      if (lane == 0) atomicExch(&status[0], pack(FLAG_INCLUSIVE, aggregate));
    } else {
      if (lane == 0) atomicExch(&status[tile], pack(FLAG_AGGREGATE, aggregate));
      int64_t pos = tile - 1;
      while (true) {
        const int64_t p = pos - lane;
        unsigned long long s;
        if (p >= 0) {
          do {
            s = read_status(&status[p]);
          } while ((s >> 32) == 0ull);
        } else {
          s = pack(FLAG_INCLUSIVE, 0);  // before tile 0: an inclusive prefix of 0
        }
        const unsigned long long done = warp_ballot((s >> 32) == FLAG_INCLUSIVE);
        // Lanes up to the nearest inclusive prefix (the lowest such lane) contribute.
        const int stop = done ? __ffsll((unsigned long long)done) - 1 : ws - 1;
        prefix += warp_sum(lane <= stop ? (int)(unsigned int)s : 0);
        if (done) break;
        pos -= ws;
      }
      if (lane == 0) atomicExch(&status[tile], pack(FLAG_INCLUSIVE, prefix + aggregate));
    }
    if (lane == 0) s_prefix = prefix;
  }
  __syncthreads();
  const int prefix = s_prefix;
#pragma unroll
  for (int k = 0; k < CHUNKS; ++k) {
    const int64_t i = base + (int64_t)(k * THREADS + tid) * 4;
    const int add = prefix + chunk_prefix[k];
    if (i + 4 <= n) {
      *reinterpret_cast<int4*>(y + i) = make_int4(v[k][0] + add, v[k][1] + add, v[k][2] + add, v[k][3] + add);
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (i + q < n) y[i + q] = v[k][q] + add;
    }
  }
}

static int64_t tiles_for(int64_t n) { return (n + TILE - 1) / TILE; }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return 256 + (size_t)tiles_for(a->ints[0]) * sizeof(unsigned long long);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int* x = static_cast<const int*>(a->tensors[0]);
  int* y = static_cast<int*>(a->tensors[1]);
  const int64_t n = a->ints[0];
  const int64_t tiles = tiles_for(n);
  unsigned int* counter = static_cast<unsigned int*>(a->workspace);
  unsigned long long* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(a->workspace) + 256);
  hipLaunchKernelGGL(init_status, dim3((unsigned)((tiles + 255) / 256)), dim3(256), 0, a->stream, status, tiles,
                     counter);
  hipLaunchKernelGGL(scan_tiles, dim3((unsigned)tiles), dim3(THREADS), 0, a->stream, x, y, n, status, counter);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

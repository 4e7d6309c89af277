// Running mean along each row, y[i, j] = (x[i, 0] + ... + x[i, j]) / (j + 1), fp32, in one
// pass: one read of x and one write of y, the division applied as the scan's results are
// stored (eager materialises the cumsum and re-reads it for the division).
//  - rows of up to 32 * warpSize values: one warp per row, the row in registers as chunks of
//    4 * warpSize values (each lane four consecutive values, coalesced 16-byte loads when
//    N % 4 == 0): a serial scan of each lane's four, a shuffle scan of the lane sums, and a
//    running carry from chunk to chunk;
//  - longer rows: tiles of 4096 values (256 threads x 4 chunks of 4 values, coalesced; the 4
//    block scans of the chunk sums run together: shuffles, then one shared slot per warp)
//    and single-pass decoupled look-back across the tiles of a row, so a row of a million
//    values is spread over the whole device instead of one multiprocessor. Tiles are
//    numbered by an atomic counter in the order blocks start (a tile only waits on tiles
//    already running), and each tile publishes a 64-bit status word {flag, value} with one
//    atomic (aggregate first, then the inclusive prefix); a per-launch init kernel clears
//    the status words and the counter.
// Works with 32- and 64-wide warps (the host reads the width, the device uses warpSize).
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32     // 1024 threads / 32 lanes
#define TILE_THREADS 256
#define TILE_CHUNKS 4  // chunks of 4 values per thread
#define TILE (TILE_THREADS * TILE_CHUNKS * 4)

#define FLAG_AGGREGATE 1ull
#define FLAG_INCLUSIVE 2ull

__device__ __forceinline__ unsigned long long warp_ballot(int pred) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  return __ballot_sync(0xffffffffu, pred);
#else
  return __ballot(pred);
#endif
}

// Inclusive sum ending at column j -> running mean (j + 1 is exact in fp32 for j < 2^24).
__device__ __forceinline__ float mean_at(float sum, int j) { return sum / (float)(j + 1); }

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// Inclusive scan over the lanes of a warp.
__device__ __forceinline__ float warp_inclusive(float v, int lane) {
  for (int o = 1; o < warpSize; o <<= 1) {
    const float t = __shfl_up(v, o);
    if (lane >= o) v += t;
  }
  return v;
}

// ---------------------------------------------------------------------------------------
// Short rows: one warp per row, the row in C chunks of 4 * warpSize values; in chunk c lane l
// holds the four consecutive values at c * 4 * warpSize + 4 * l (coalesced 16-byte loads).
template <int C, bool VEC4>
__global__ void __launch_bounds__(256) cumsum_warp_rows(const float* __restrict__ x, float* __restrict__ y,
                                                        int64_t m, int n) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  if (row >= m) return;  // the whole warp leaves together
  const float* xr = x + row * n;
  float* yr = y + row * n;
  float v[C][4];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int i = (c * ws + lane) * 4;
    if constexpr (VEC4) {  // n % 4 == 0: a group of four is entirely in or out of the row
      if (i < n) {
        const float4 t = *reinterpret_cast<const float4*>(xr + i);
        v[c][0] = t.x;
        v[c][1] = t.y;
        v[c][2] = t.z;
        v[c][3] = t.w;
      } else {
        v[c][0] = v[c][1] = v[c][2] = v[c][3] = 0.0f;
      }
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) v[c][q] = i + q < n ? xr[i + q] : 0.0f;
    }
  }
  float carry = 0.0f;  // sum of the previous chunks
#pragma unroll
  for (int c = 0; c < C; ++c) {
    v[c][1] += v[c][0];
    v[c][2] += v[c][1];
    v[c][3] += v[c][2];
    const float total = v[c][3];
    const float inc = warp_inclusive(total, lane);
    const float add = carry + (inc - total);
#pragma unroll
    for (int q = 0; q < 4; ++q) v[c][q] += add;
    carry += __shfl(inc, ws - 1);
  }
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int i = (c * ws + lane) * 4;
    if constexpr (VEC4) {
      if (i < n)
        *reinterpret_cast<float4*>(yr + i) = make_float4(mean_at(v[c][0], i), mean_at(v[c][1], i + 1),
                                                         mean_at(v[c][2], i + 2), mean_at(v[c][3], i + 3));
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (i + q < n) yr[i + q] = mean_at(v[c][q], i + q);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Long rows: decoupled look-back over tiles.
__global__ void init_status(unsigned long long* __restrict__ status, int64_t count, unsigned int* __restrict__ counter) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) status[i] = 0ull;
  if (i == 0) *counter = 0u;
}

__device__ __forceinline__ unsigned long long pack(unsigned long long flag, float v) {
  return (flag << 32) | (unsigned long long)__float_as_uint(v);
}

// Coherent read of a status word (an atomic no-op: performed where other blocks' atomics are).
__device__ __forceinline__ unsigned long long read_status(unsigned long long* p) { return atomicAdd(p, 0ull); }

template <bool VEC4>
__global__ void __launch_bounds__(TILE_THREADS) cumsum_tiles(const float* __restrict__ x, float* __restrict__ y,
                                                             int n, int tiles_per_row,
                                                             unsigned long long* __restrict__ status,
                                                             unsigned int* __restrict__ counter) {
  __shared__ float s_warp[TILE_CHUNKS][MAX_WARPS];
  __shared__ float s_prefix;
  __shared__ unsigned int s_tile;
  const int tid = threadIdx.x, ws = warpSize;
  const int lane = tid % ws, warp = tid / ws, nw = blockDim.x / ws;

  if (tid == 0) s_tile = atomicAdd(counter, 1u);
  __syncthreads();
  const unsigned int tile = s_tile;
  const int64_t row = tile / (unsigned int)tiles_per_row;
  const int t_in_row = (int)(tile - row * tiles_per_row);
  const float* xr = x + row * n;
  float* yr = y + row * n;
  const int base = t_in_row * TILE;

  // Chunk k of thread t: the four consecutive values at base + (k * TILE_THREADS + t) * 4
  // (coalesced 16-byte loads); the tile is the chunks in (k, t) order.
  float v[TILE_CHUNKS][4];
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    const int i = base + (k * TILE_THREADS + tid) * 4;
    if constexpr (VEC4) {
      if (i < n) {
        const float4 t = *reinterpret_cast<const float4*>(xr + i);
        v[k][0] = t.x;
        v[k][1] = t.y;
        v[k][2] = t.z;
        v[k][3] = t.w;
      } else {
        v[k][0] = v[k][1] = v[k][2] = v[k][3] = 0.0f;
      }
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) v[k][q] = i + q < n ? xr[i + q] : 0.0f;
    }
  }
  // Inclusive scan of each chunk, then TILE_CHUNKS block-wide scans of the chunk sums at once.
  float total[TILE_CHUNKS], inc[TILE_CHUNKS];
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    v[k][1] += v[k][0];
    v[k][2] += v[k][1];
    v[k][3] += v[k][2];
    total[k] = v[k][3];
    inc[k] = total[k];
  }
  for (int o = 1; o < ws; o <<= 1) {
#pragma unroll
    for (int k = 0; k < TILE_CHUNKS; ++k) {
      const float t = __shfl_up(inc[k], o);
      if (lane >= o) inc[k] += t;
    }
  }
  if (lane == ws - 1) {
#pragma unroll
    for (int k = 0; k < TILE_CHUNKS; ++k) s_warp[k][warp] = inc[k];
  }
  __syncthreads();
  float chunk_prefix[TILE_CHUNKS];  // sum of the tile before each of this thread's chunks
  float aggregate = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    float warp_excl = 0.0f, round_total = 0.0f;
    for (int w = 0; w < nw; ++w) {
      const float t = s_warp[k][w];
      if (w < warp) warp_excl += t;
      round_total += t;
    }
    chunk_prefix[k] = aggregate + warp_excl + (inc[k] - total[k]);
    aggregate += round_total;
  }

  unsigned long long* row_status = status + (int64_t)row * tiles_per_row;
  if (warp == 0) {
    float prefix = 0.0f;
    if (t_in_row == 0) {
      if (lane == 0) atomicExch(&row_status[0], pack(FLAG_INCLUSIVE, aggregate));
    } else {
      if (lane == 0) atomicExch(&row_status[t_in_row], pack(FLAG_AGGREGATE, aggregate));
      // Look back over the preceding tiles of this row, warpSize of them at a time.
      int pos = t_in_row - 1;
      while (true) {
        const int p = pos - lane;
        unsigned long long s;
        if (p >= 0) {
          do {
            s = read_status(&row_status[p]);
          } while ((s >> 32) == 0ull);
        } else {
          s = pack(FLAG_INCLUSIVE, 0.0f);  // before the row start: an inclusive prefix of 0
        }
        const unsigned long long done = warp_ballot((s >> 32) == FLAG_INCLUSIVE);
        // Lanes up to the nearest inclusive prefix (the lowest such lane) contribute.
        const int stop = done ? __ffsll((unsigned long long)done) - 1 : ws - 1;
        prefix += warp_sum(lane <= stop ? __uint_as_float((unsigned int)s) : 0.0f);
        if (done) break;
        pos -= ws;
      }
      if (lane == 0) atomicExch(&row_status[t_in_row], pack(FLAG_INCLUSIVE, prefix + aggregate));
    }
    if (lane == 0) s_prefix = prefix;
  }
  __syncthreads();
  const float prefix = s_prefix;
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    const int i = base + (k * TILE_THREADS + tid) * 4;
    const float add = prefix + chunk_prefix[k];
    if constexpr (VEC4) {
      if (i < n)
        *reinterpret_cast<float4*>(yr + i) = make_float4(mean_at(v[k][0] + add, i), mean_at(v[k][1] + add, i + 1),
                                                         mean_at(v[k][2] + add, i + 2), mean_at(v[k][3] + add, i + 3));
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (i + q < n) yr[i + q] = mean_at(v[k][q] + add, i + q);
    }
  }
}

// ---------------------------------------------------------------------------------------
static int64_t tiles_per_row(int64_t n) { return (n + TILE - 1) / TILE; }

static bool use_warp_rows(int64_t n, int ws) { return n <= 32 * (int64_t)ws; }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t m = a->ints[0], n = a->ints[1];
  // Counter (padded to 256 bytes) + one status word per tile; the warp path needs none, but
  // the warp width is not known here, so size for the tile path.
  return 256 + (size_t)(m * tiles_per_row(n)) * sizeof(unsigned long long);
}

template <int C>
static void launch_warp(const float* x, float* y, int64_t m, int n, int ws, hipStream_t st) {
  const int block = 256;
  const int64_t rows = block / ws;
  const dim3 grid((unsigned)((m + rows - 1) / rows));
  if (n % 4 == 0)
    hipLaunchKernelGGL((cumsum_warp_rows<C, true>), grid, dim3(block), 0, st, x, y, m, n);
  else
    hipLaunchKernelGGL((cumsum_warp_rows<C, false>), grid, dim3(block), 0, st, x, y, m, n);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;

  if (use_warp_rows(n, ws)) {
    const int chunks = (n + 4 * ws - 1) / (4 * ws);  // at most 8
    if (chunks <= 1) launch_warp<1>(x, y, m, n, ws, a->stream);
    else if (chunks <= 2) launch_warp<2>(x, y, m, n, ws, a->stream);
    else if (chunks <= 4) launch_warp<4>(x, y, m, n, ws, a->stream);
    else launch_warp<8>(x, y, m, n, ws, a->stream);
  } else {
    const int64_t tpr = tiles_per_row(n);
    const int64_t tiles = m * tpr;
    unsigned int* counter = static_cast<unsigned int*>(a->workspace);
    unsigned long long* status =
        reinterpret_cast<unsigned long long*>(static_cast<char*>(a->workspace) + 256);
    hipLaunchKernelGGL(init_status, dim3((unsigned)((tiles + 255) / 256)), dim3(256), 0, a->stream, status, tiles,
                       counter);
    if (n % 4 == 0)
      hipLaunchKernelGGL(cumsum_tiles<true>, dim3((unsigned)tiles), dim3(TILE_THREADS), 0, a->stream, x, y, n,
                         (int)tpr, status, counter);
    else
      hipLaunchKernelGGL(cumsum_tiles<false>, dim3((unsigned)tiles), dim3(TILE_THREADS), 0, a->stream, x, y, n,
                         (int)tpr, status, counter);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Cumulative product along each row of an fp32 matrix, y[i, j] = x[i, 0] * ... * x[i, j].
// One pass: one read of the input and one write of y.
//  - rows of up to 32 * warpSize values: one warp per row, the row in registers as chunks of
//    4 * warpSize values (each lane four consecutive values, coalesced 16-byte loads when
//    N % 4 == 0): a serial scan of each lane's four, a shuffle scan of the lane totals, and a
//    running carry from chunk to chunk;
//  - longer rows: tiles of 4096 values (256 threads x 4 chunks of 4 values, coalesced), a
//    block scan, and single-pass decoupled look-back across the tiles of a row, so the tiles
//    of one long row run on many multiprocessors at once. Tiles are numbered by an atomic
//    counter in the order blocks start (a tile only waits on tiles already running); each
//    publishes a 64-bit status word {flag, value} with one atomic (its aggregate first, then
//    its inclusive prefix); a small kernel clears the status words and the counter first.
// The scan's operator is the product (identity 1); the look-back combines tiles' products.
// Works with 32- and 64-wide warps (the host reads the width, the device uses warpSize).
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes
#define TILE_THREADS 256
#define TILE_CHUNKS 4  // chunks of 4 values per thread
#define TILE (TILE_THREADS * TILE_CHUNKS * 4)

#define FLAG_AGGREGATE 1ull
#define FLAG_INCLUSIVE 2ull

#define IDENTITY 1.0f
__device__ __forceinline__ float combine(float a, float b) { return a * b; }

__device__ __forceinline__ unsigned long long warp_ballot(int pred) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  return __ballot_sync(0xffffffffu, pred);
#else
  return __ballot(pred);
#endif
}

__device__ __forceinline__ float warp_reduce(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = combine(v, __shfl_xor(v, o));
  return v;
}

// Inclusive scan over the lanes of a warp.
__device__ __forceinline__ float warp_inclusive(float v, int lane) {
  for (int o = 1; o < warpSize; o <<= 1) {
    const float t = __shfl_up(v, o);
    if (lane >= o) v = combine(t, v);
  }
  return v;
}

// The four values at scan positions i .. i + 3 of a row (i % 4 == 0), identity past the end.
template <bool VEC4>
__device__ __forceinline__ void load4(const float* __restrict__ xr, int i, int n, float v[4]) {
  if constexpr (VEC4) {  // n % 4 == 0: a group of four is entirely in or out of the row
    if (i < n) {
      const float4 t = *reinterpret_cast<const float4*>(xr + i);
      v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
    } else {
      v[0] = v[1] = v[2] = v[3] = IDENTITY;
    }
  } else {
#pragma unroll
    for (int q = 0; q < 4; ++q) v[q] = i + q < n ? xr[i + q] : IDENTITY;
  }
}

// Writes the four results at scan positions i .. i + 3 (those inside the row).
template <bool VEC4>
__device__ __forceinline__ void store4(float* __restrict__ yr, int i, int n, const float r[4]) {
  if constexpr (VEC4) {
    if (i < n) *reinterpret_cast<float4*>(yr + i) = make_float4(r[0], r[1], r[2], r[3]);
  } else {
#pragma unroll
    for (int q = 0; q < 4; ++q)
      if (i + q < n) yr[i + q] = r[q];
  }
}

// In-place inclusive scan of four values; total = all four combined.
__device__ __forceinline__ void scan4(float v[4], float& total) {
  v[1] = combine(v[0], v[1]);
  v[2] = combine(v[1], v[2]);
  v[3] = combine(v[2], v[3]);
  total = v[3];
}

// ---------------------------------------------------------------------------------------
// Short rows: one warp per row, in C chunks of 4 * warpSize positions; in chunk c lane l
// holds the four consecutive positions c * 4 * warpSize + 4 * l.
template <int C, bool VEC4>
__global__ void __launch_bounds__(256) scan_warp_rows(const float* __restrict__ x, float* __restrict__ y,
                                                      int64_t m, int n) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  if (row >= m) return;  // the whole warp leaves together
  const float* xr = x + row * n;
  float* yr = y + row * n;
  float v[C][4];
#pragma unroll
  for (int c = 0; c < C; ++c) load4<VEC4>(xr, (c * ws + lane) * 4, n, v[c]);
  float carry = IDENTITY;  // the previous chunks combined
#pragma unroll
  for (int c = 0; c < C; ++c) {
    float total;
    scan4(v[c], total);
    const float inc = warp_inclusive(total, lane);
    float before = __shfl_up(inc, 1);  // the lanes before this one
    if (lane == 0) before = IDENTITY;
    const float add = combine(carry, before);
#pragma unroll
    for (int q = 0; q < 4; ++q) v[c][q] = combine(add, v[c][q]);
    carry = combine(carry, __shfl(inc, ws - 1));
  }
#pragma unroll
  for (int c = 0; c < C; ++c) store4<VEC4>(yr, (c * ws + lane) * 4, n, v[c]);
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

// Coherent read of a status word (an atomic no-op, performed where the other blocks' atomics are).
__device__ __forceinline__ unsigned long long read_status(unsigned long long* p) { return atomicAdd(p, 0ull); }

template <bool VEC4>
__global__ void __launch_bounds__(TILE_THREADS) scan_tiles(const float* __restrict__ x, float* __restrict__ y,
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

  // Chunk k of thread t: the four positions base + (k * TILE_THREADS + t) * 4; the tile is the
  // chunks in (k, t) order.
  float v[TILE_CHUNKS][4];
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) load4<VEC4>(xr, base + (k * TILE_THREADS + tid) * 4, n, v[k]);
  // Scan of each chunk, then TILE_CHUNKS block-wide scans of the chunk totals at once.
  float total[TILE_CHUNKS], inc[TILE_CHUNKS];
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    scan4(v[k], total[k]);
    inc[k] = total[k];
  }
  for (int o = 1; o < ws; o <<= 1) {
#pragma unroll
    for (int k = 0; k < TILE_CHUNKS; ++k) {
      const float t = __shfl_up(inc[k], o);
      if (lane >= o) inc[k] = combine(t, inc[k]);
    }
  }
  if (lane == ws - 1) {
#pragma unroll
    for (int k = 0; k < TILE_CHUNKS; ++k) s_warp[k][warp] = inc[k];
  }
  float lane_before[TILE_CHUNKS];  // the lanes before this one in its warp
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    lane_before[k] = __shfl_up(inc[k], 1);
    if (lane == 0) lane_before[k] = IDENTITY;
  }
  __syncthreads();
  float chunk_prefix[TILE_CHUNKS];  // the tile before each of this thread's chunks
  float aggregate = IDENTITY;
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    float warp_before = IDENTITY, round_total = IDENTITY;
    for (int w = 0; w < nw; ++w) {
      const float t = s_warp[k][w];
      if (w < warp) warp_before = combine(warp_before, t);
      round_total = combine(round_total, t);
    }
    chunk_prefix[k] = combine(combine(aggregate, warp_before), lane_before[k]);
    aggregate = combine(aggregate, round_total);
  }

  unsigned long long* row_status = status + row * tiles_per_row;
  if (warp == 0) {
    float prefix = IDENTITY;
    if (t_in_row == 0) {
      if (lane == 0) atomicExch(&row_status[0], pack(FLAG_INCLUSIVE, aggregate));
    } else {
      if (lane == 0) atomicExch(&row_status[t_in_row], pack(FLAG_AGGREGATE, aggregate));
      // Look back over the preceding tiles of this row, warpSize of them at a time; lane l
      // reads tile pos - l, so lower lanes hold later tiles.
      int pos = t_in_row - 1;
      while (true) {
        const int p = pos - lane;
        unsigned long long s;
        if (p >= 0) {
          do {
            s = read_status(&row_status[p]);
          } while ((s >> 32) == 0ull);
        } else {
          s = pack(FLAG_INCLUSIVE, IDENTITY);  // before the row start
        }
        const unsigned long long done = warp_ballot((s >> 32) == FLAG_INCLUSIVE);
        // Lanes up to the nearest inclusive prefix (the lowest such lane) contribute.
        const int stop = done ? __ffsll((unsigned long long)done) - 1 : ws - 1;
        // The window's values combine in tile order; all ops here are commutative.
        prefix = combine(prefix, warp_reduce(lane <= stop ? __uint_as_float((unsigned int)s) : IDENTITY));
        if (done) break;
        pos -= ws;
      }
      if (lane == 0) atomicExch(&row_status[t_in_row], pack(FLAG_INCLUSIVE, combine(prefix, aggregate)));
    }
    if (lane == 0) s_prefix = prefix;
  }
  __syncthreads();
  const float prefix = s_prefix;
#pragma unroll
  for (int k = 0; k < TILE_CHUNKS; ++k) {
    const float add = combine(prefix, chunk_prefix[k]);
#pragma unroll
    for (int q = 0; q < 4; ++q) v[k][q] = combine(add, v[k][q]);
    store4<VEC4>(yr, base + (k * TILE_THREADS + tid) * 4, n, v[k]);
  }
}

// ---------------------------------------------------------------------------------------
static int64_t tiles_per_row(int64_t n) { return (n + TILE - 1) / TILE; }

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
    hipLaunchKernelGGL((scan_warp_rows<C, true>), grid, dim3(block), 0, st, x, y, m, n);
  else
    hipLaunchKernelGGL((scan_warp_rows<C, false>), grid, dim3(block), 0, st, x, y, m, n);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;

  if (n <= 32 * ws) {
    const int chunks = (n + 4 * ws - 1) / (4 * ws);  // at most 8
    if (chunks <= 1) launch_warp<1>(x, y, m, n, ws, a->stream);
    else if (chunks <= 2) launch_warp<2>(x, y, m, n, ws, a->stream);
    else if (chunks <= 4) launch_warp<4>(x, y, m, n, ws, a->stream);
    else launch_warp<8>(x, y, m, n, ws, a->stream);
  } else {
    const int64_t tpr = tiles_per_row(n);
    const int64_t tiles = m * tpr;
    if (a->workspace_bytes < 256 + (size_t)tiles * sizeof(unsigned long long)) return 1;
    unsigned int* counter = static_cast<unsigned int*>(a->workspace);
    unsigned long long* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(a->workspace) + 256);
    hipLaunchKernelGGL(init_status, dim3((unsigned)((tiles + 255) / 256)), dim3(256), 0, a->stream, status, tiles,
                       counter);
    if (n % 4 == 0)
      hipLaunchKernelGGL(scan_tiles<true>, dim3((unsigned)tiles), dim3(TILE_THREADS), 0, a->stream, x,
                         y, n, (int)tpr, status, counter);
    else
      hipLaunchKernelGGL(scan_tiles<false>, dim3((unsigned)tiles), dim3(TILE_THREADS), 0, a->stream, x,
                         y, n, (int)tpr, status, counter);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

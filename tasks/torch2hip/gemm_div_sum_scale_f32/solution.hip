// y[m] = scaling_factor * sum_n (x[m] . weight[n]) / 2. The sum over the hidden features is
// linear, so it moves inside the product:
//
//     y[m] = (scaling_factor / 2) * (x[m] . wsum),   wsum[k] = sum_n weight[n, k]
//
// which replaces the 2*M*N*K-flop GEMM by one read of the weight and one GEMV: the work is a
// single pass over weight and x (memory-bound), where eager PyTorch runs the whole GEMM and then
// reduces it.
//
//  1. colsum_partial: the rows of weight are cut into `chunks` ranges; a thread sums VEC
//     adjacent columns over one range (four rows in flight) into the workspace,
//     part[chunk][k].
//  2. colsum_finish: wsum[k] = sum over chunks in a fixed order (deterministic).
//  3. gemv_rows: a group of tpr threads per row of x, four accumulators per thread, shuffles
//     (and shared memory when the group spans warps) to combine, then the scale.
// 16-byte loads when input_size % 4 == 0 (every row is then 16-byte aligned), scalar loads
// otherwise. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_CHUNKS 128
#define TARGET_BLOCKS 1024  // column-sum blocks to aim for: several waves of any GPU

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

// Sum over the tpr threads of a group (tpr a power of two <= THREADS, groups aligned to tpr).
// Every thread of the block must call it.
__device__ __forceinline__ float group_sum(float v, int tpr) {
  __shared__ float red[THREADS / 32];
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (tpr > warpSize) {
    const int warp = threadIdx.x / warpSize, wpg = tpr / warpSize;
    if (threadIdx.x % warpSize == 0) red[warp] = v;
    __syncthreads();
    const int first = warp - warp % wpg;
    v = red[first];
    for (int i = 1; i < wpg; ++i) v += red[first + i];
    __syncthreads();
  }
  return v;
}

// part[chunk][c .. c+VEC) = sum of w[n][c .. c+VEC) over the rows n of the chunk.
template <int VEC>
__global__ __launch_bounds__(THREADS) void colsum_partial(const float* __restrict__ w, float* __restrict__ part,
                                                          int n_rows, int k, int rows_per_chunk) {
  const int64_t c = ((int64_t)blockIdx.x * THREADS + threadIdx.x) * VEC;
  if (c >= k) return;
  const int n0 = blockIdx.y * rows_per_chunk;
  const int n1 = min(n_rows, n0 + rows_per_chunk);
  float acc[4][VEC];
#pragma unroll
  for (int u = 0; u < 4; ++u)
#pragma unroll
    for (int j = 0; j < VEC; ++j) acc[u][j] = 0.0f;
  const float* p = w + (int64_t)n0 * k + c;
  int n = n0;
  for (; n + 3 < n1; n += 4, p += 4 * (int64_t)k) {
    float v[4][VEC];
#pragma unroll
    for (int u = 0; u < 4; ++u) load_vec<VEC>(p + u * (int64_t)k, v[u]);
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[u][j] += v[u][j];
  }
  for (; n < n1; ++n, p += k) {
    float v[VEC];
    load_vec<VEC>(p, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) acc[0][j] += v[j];
  }
  float* out = part + (int64_t)blockIdx.y * k + c;
#pragma unroll
  for (int j = 0; j < VEC; ++j) out[j] = (acc[0][j] + acc[1][j]) + (acc[2][j] + acc[3][j]);
}

// wsum[c] = sum over the chunks of part[chunk][c].
__global__ __launch_bounds__(THREADS) void colsum_finish(const float* __restrict__ part, float* __restrict__ wsum,
                                                         int k, int chunks) {
  const int c = blockIdx.x * THREADS + threadIdx.x;
  if (c >= k) return;
  float s = 0.0f;
  for (int r = 0; r < chunks; ++r) s += part[(int64_t)r * k + c];
  wsum[c] = s;
}

// y[m] = scale * (x[m] . wsum), one group of tpr threads per row.
template <int VEC>
__global__ __launch_bounds__(THREADS) void gemv_rows(const float* __restrict__ x, const float* __restrict__ wsum,
                                                     float* __restrict__ y, int64_t m, int k, int tpr, float scale) {
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (THREADS / tpr) + threadIdx.x / tpr;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (row < m) {  // rows past the end still join group_sum
    const float* xr = x + row * k;
    const int step = tpr * VEC;
    int c = t * VEC;
    for (; c + 3 * step < k; c += 4 * step) {
      float a[4][VEC], s[4][VEC];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        load_vec<VEC>(xr + c + u * step, a[u]);
        load_vec<VEC>(wsum + c + u * step, s[u]);
      }
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int j = 0; j < VEC; ++j) acc[u] = fmaf(a[u][j], s[u][j], acc[u]);
    }
    for (; c < k; c += step) {
      float a[VEC], s[VEC];
      load_vec<VEC>(xr + c, a);
      load_vec<VEC>(wsum + c, s);
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[0] = fmaf(a[j], s[j], acc[0]);
    }
  }
  const float v = group_sum((acc[0] + acc[1]) + (acc[2] + acc[3]), tpr);
  if (row < m && t == 0) y[row] = v * scale;
}

struct Plan {
  int vec, colblocks, chunks, rows_per_chunk;
};

static Plan plan(int64_t n_rows, int64_t k) {
  Plan p;
  p.vec = k % 4 == 0 ? 4 : 1;
  const int64_t cols_per_block = (int64_t)THREADS * p.vec;
  p.colblocks = (int)((k + cols_per_block - 1) / cols_per_block);
  int64_t chunks = (TARGET_BLOCKS + p.colblocks - 1) / p.colblocks;
  if (chunks > MAX_CHUNKS) chunks = MAX_CHUNKS;
  if (chunks > n_rows) chunks = n_rows;
  p.rows_per_chunk = (int)((n_rows + chunks - 1) / chunks);
  p.chunks = (int)((n_rows + p.rows_per_chunk - 1) / p.rows_per_chunk);  // no empty chunk
  return p;
}

// part[chunks][k] then wsum[k].
static size_t workspace_floats(int64_t n_rows, int64_t k) {
  const Plan p = plan(n_rows, k);
  return (size_t)p.chunks * (size_t)k + (size_t)k;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return workspace_floats(a->ints[2], a->ints[1]) * sizeof(float);
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

template <int VEC>
static void run(const float* x, const float* w, float* y, float* part, float* wsum, int64_t m, int k, int n_rows,
                float scale, const Plan& p, hipStream_t st) {
  hipLaunchKernelGGL(colsum_partial<VEC>, dim3(p.colblocks, p.chunks), dim3(THREADS), 0, st, w, part, n_rows, k,
                     p.rows_per_chunk);
  hipLaunchKernelGGL(colsum_finish, dim3((k + THREADS - 1) / THREADS), dim3(THREADS), 0, st, part, wsum, k,
                     p.chunks);
  const int64_t nv = (k + VEC - 1) / VEC;
  int tpr = pow2_at_least((nv + 7) / 8);  // about eight vectors per thread
  if (tpr > THREADS) tpr = THREADS;
  const int64_t rows_per_block = THREADS / tpr;
  const int64_t grid = (m + rows_per_block - 1) / rows_per_block;
  hipLaunchKernelGGL(gemv_rows<VEC>, dim3((unsigned)grid), dim3(THREADS), 0, st, x, wsum, y, m, k, tpr, scale);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  float* y = static_cast<float*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int64_t k = a->ints[1];
  const int64_t n_rows = a->ints[2];
  if (k > 0x7fffffff || n_rows > 0x7fffffff) return 1;
  const Plan p = plan(n_rows, k);
  if (a->workspace_bytes < workspace_floats(n_rows, k) * sizeof(float)) return 1;
  float* part = static_cast<float*>(a->workspace);
  float* wsum = part + (size_t)p.chunks * (size_t)k;
  const float scale = (float)(0.5 * a->floats[0]);
  if (p.vec == 4) run<4>(x, w, y, part, wsum, m, (int)k, (int)n_rows, scale, p, a->stream);
  else run<1>(x, w, y, part, wsum, m, (int)k, (int)n_rows, scale, p, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Row logsumexp in one read of x (eager PyTorch runs amax, a subtract, exp, sum, log and add,
// moving the matrix five times). Each thread keeps a running maximum m and a sum s of
// exp(x - m) rescaled whenever m grows (once per block of 4 vectors, not per value); partial
// states merge as (max(m1, m2), s1 * exp(m1 - M) + s2 * exp(m2 - M)); y = m + log(s).
//  - enough rows to fill the GPU, or short rows: a group of tpr threads (a power of two, about
//    eight vectors each) per row, xor shuffles inside the group (and one shared slot per warp
//    when the group spans several warps);
//  - few long rows: each row is cut into chunks of CHUNK_VALUES, one block per chunk writes
//    its (m, s) to the workspace, and a second kernel merges each row's chunks.
// 16-byte loads when N % 4 == 0 (every row is then 16-byte aligned), scalar ones otherwise.
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes
#define UNROLL 4
#define CHUNK_THREADS 256
#define CHUNK_VALUES (CHUNK_THREADS * 64)  // 16 float4 per thread

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

// (m, s) <- merge of (m, s) and (om, os). An empty state is (-inf, 0).
__device__ __forceinline__ void merge(float& m, float& s, float om, float os) {
  const float nm = fmaxf(m, om);
  if (nm == -INFINITY) return;  // both empty
  s = s * expf(m - nm) + os * expf(om - nm);
  m = nm;
}

// Adds the CNT values in v to (m, s).
template <int CNT>
__device__ __forceinline__ void absorb(float& m, float& s, const float* v) {
  float cm = v[0];
#pragma unroll
  for (int i = 1; i < CNT; ++i) cm = fmaxf(cm, v[i]);
  if (cm > m) {
    s *= expf(m - cm);  // the first time: 0 * exp(-inf) = 0
    m = cm;
  }
#pragma unroll
  for (int i = 0; i < CNT; ++i) s += expf(v[i] - m);
}

// Merges (m, s) over the tpr threads of a row group (tpr a power of two, groups aligned to
// tpr). Every thread of the block must call it; `red` is free again on return.
__device__ __forceinline__ void group_merge(float& m, float& s, int tpr, float2* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) {
    const float om = __shfl_xor(m, o), os = __shfl_xor(s, o);
    merge(m, s, om, os);
  }
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    const int wpg = tpr / warpSize;
    if (lane == 0) red[warp] = make_float2(m, s);
    __syncthreads();
    const int first = warp - warp % wpg;
    m = red[first].x;
    s = red[first].y;
    for (int w = 1; w < wpg; ++w) merge(m, s, red[first + w].x, red[first + w].y);
    __syncthreads();
  }
}

// (m, s) of the columns col0, col0 + step, ... below end (VEC values each; col0, step and end
// are multiples of VEC).
template <int VEC>
__device__ __forceinline__ void lse_span(const float* __restrict__ xr, int col0, int end, int step, float& m,
                                         float& s) {
  m = -INFINITY;
  s = 0.0f;
  int col = col0;
  for (; col + (UNROLL - 1) * step < end; col += UNROLL * step) {
    float v[UNROLL * VEC];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) load_vec<VEC>(xr + col + u * step, v + u * VEC);
    absorb<UNROLL * VEC>(m, s, v);
  }
  for (; col < end; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
    absorb<VEC>(m, s, v);
  }
}

// One group of tpr threads per row.
template <int VEC>
__global__ void __launch_bounds__(1024) lse_rows(const float* __restrict__ x, float* __restrict__ y, int64_t m_rows,
                                                 int n, int tpr) {
  __shared__ float2 red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < m_rows;  // rows past the end still join the reductions
  float m = -INFINITY, s = 0.0f;
  if (valid) lse_span<VEC>(x + row * n, t * VEC, n, tpr * VEC, m, s);
  group_merge(m, s, tpr, red);
  if (valid && t == 0) y[row] = m + logf(s);
}

// One block per chunk of a row: partial states, row-major [row][chunk].
template <int VEC>
__global__ void __launch_bounds__(CHUNK_THREADS) lse_chunks(const float* __restrict__ x, float2* __restrict__ part,
                                                            int n, int nchunks) {
  __shared__ float2 red[MAX_WARPS];
  const int64_t row = blockIdx.x / nchunks;
  const int begin = (int)(blockIdx.x % nchunks) * CHUNK_VALUES;
  const int end = min(n, begin + CHUNK_VALUES);
  float m, s;
  lse_span<VEC>(x + row * n, begin + threadIdx.x * VEC, end, CHUNK_THREADS * VEC, m, s);
  group_merge(m, s, CHUNK_THREADS, red);
  if (threadIdx.x == 0) part[blockIdx.x] = make_float2(m, s);
}

// One block per row: merges the row's chunk states.
__global__ void __launch_bounds__(CHUNK_THREADS) lse_finish(const float2* __restrict__ part, float* __restrict__ y,
                                                            int nchunks) {
  __shared__ float2 red[MAX_WARPS];
  const float2* p = part + (int64_t)blockIdx.x * nchunks;
  float m = -INFINITY, s = 0.0f;
  for (int i = threadIdx.x; i < nchunks; i += CHUNK_THREADS) merge(m, s, p[i].x, p[i].y);
  group_merge(m, s, CHUNK_THREADS, red);
  if (threadIdx.x == 0) y[blockIdx.x] = m + logf(s);
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

static int sm_count() {
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return -1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return -1;
  return sms;
}

static int64_t num_chunks(int64_t n) { return (n + CHUNK_VALUES - 1) / CHUNK_VALUES; }

// Few long rows (too few row blocks for two waves of the GPU) use the chunked path.
static bool use_chunks(int64_t m, int64_t n, int sms) {
  return num_chunks(n) > 1 && m * 1024 < (int64_t)sms * 4096;
}

// Enough for the chunked path whenever a row has several chunks (the SM count decides later).
ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t nchunks = num_chunks(a->ints[1]);
  return nchunks > 1 ? (size_t)(a->ints[0] * nchunks) * sizeof(float2) : 0;
}

template <int VEC>
static void run(const float* x, float* y, float2* part, int64_t m, int n, bool chunks, hipStream_t st) {
  if (chunks) {
    const int nchunks = (int)num_chunks(n);
    hipLaunchKernelGGL(lse_chunks<VEC>, dim3((unsigned)(m * nchunks)), dim3(CHUNK_THREADS), 0, st, x, part, n,
                       nchunks);
    hipLaunchKernelGGL(lse_finish, dim3((unsigned)m), dim3(CHUNK_THREADS), 0, st, part, y, nchunks);
    return;
  }
  const int64_t nv = (n + VEC - 1) / VEC;
  int tpr = pow2_at_least((nv + 7) / 8);  // about eight vectors per thread
  if (tpr > 1024) tpr = 1024;
  const int block = tpr > 256 ? tpr : 256;
  const int rows = block / tpr;
  const int64_t grid = (m + rows - 1) / rows;
  hipLaunchKernelGGL(lse_rows<VEC>, dim3((unsigned)grid), dim3(block), 0, st, x, y, m, n, tpr);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const int sms = sm_count();
  if (sms <= 0) return 1;
  const bool chunks = use_chunks(m, n, sms);
  float2* part = static_cast<float2*>(a->workspace);
  if (chunks && a->workspace_bytes < (size_t)(m * num_chunks(n)) * sizeof(float2)) return 1;
  if (n % 4 == 0) run<4>(x, y, part, m, n, chunks, a->stream);
  else run<1>(x, y, part, m, n, chunks, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

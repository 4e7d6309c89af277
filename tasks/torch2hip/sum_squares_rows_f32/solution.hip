// Sum of squares of each row in one read of x (eager PyTorch writes x^2 to memory and reads it
// back for the sum: three passes over the matrix).
//  - enough rows to fill the GPU, or short rows: a group of tpr threads (a power of two, about
//    eight vectors each) per row, four independent accumulators per thread, then xor shuffles
//    inside the group (and one shared slot per warp when the group spans several warps);
//  - few long rows: each row is cut into chunks of CHUNK_VALUES, one block per chunk writes a
//    partial sum to the workspace, and a second kernel adds each row's partials.
// 16-byte loads when N % 4 == 0 (every row is then 16-byte aligned), scalar ones otherwise.
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
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

// Sum over the tpr threads of a row group (tpr a power of two, groups aligned to tpr). Every
// thread of the block must call it; `red` is free again on return.
__device__ __forceinline__ float group_sum(float v, int tpr, float* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    const int wpg = tpr / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    const int first = warp - warp % wpg;
    v = red[first];
    for (int w = 1; w < wpg; ++w) v += red[first + w];
    __syncthreads();
  }
  return v;
}

// Sum of squares of the columns col0, col0 + step, ... below end (VEC values each; col0, step
// and end are multiples of VEC).
template <int VEC>
__device__ __forceinline__ float ssq_span(const float* __restrict__ xr, int col0, int end, int step) {
  float acc[UNROLL] = {};
  int col = col0;
  for (; col + (UNROLL - 1) * step < end; col += UNROLL * step) {
    float v[UNROLL][VEC];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) load_vec<VEC>(xr + col + u * step, v[u]);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[u] = fmaf(v[u][j], v[u][j], acc[u]);
  }
  for (; col < end; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) acc[0] = fmaf(v[j], v[j], acc[0]);
  }
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

// One group of tpr threads per row.
template <int VEC>
__global__ void __launch_bounds__(1024) ssq_rows(const float* __restrict__ x, float* __restrict__ y, int64_t m, int n,
                                                 int tpr) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < m;  // rows past the end still join the reductions
  float s = valid ? ssq_span<VEC>(x + row * n, t * VEC, n, tpr * VEC) : 0.0f;
  s = group_sum(s, tpr, red);
  if (valid && t == 0) y[row] = s;
}

// One block per chunk of a row: partial sums, row-major [row][chunk].
template <int VEC>
__global__ void __launch_bounds__(CHUNK_THREADS) ssq_chunks(const float* __restrict__ x, float* __restrict__ part,
                                                            int n, int nchunks) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x / nchunks;
  const int begin = (int)(blockIdx.x % nchunks) * CHUNK_VALUES;
  const int end = min(n, begin + CHUNK_VALUES);
  float s = ssq_span<VEC>(x + row * n, begin + threadIdx.x * VEC, end, CHUNK_THREADS * VEC);
  s = group_sum(s, CHUNK_THREADS, red);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

// One block per row: adds the row's partial sums.
__global__ void __launch_bounds__(CHUNK_THREADS) ssq_finish(const float* __restrict__ part, float* __restrict__ y,
                                                            int nchunks) {
  __shared__ float red[MAX_WARPS];
  const float* p = part + (int64_t)blockIdx.x * nchunks;
  float s = 0.0f;
  for (int i = threadIdx.x; i < nchunks; i += CHUNK_THREADS) s += p[i];
  s = group_sum(s, CHUNK_THREADS, red);
  if (threadIdx.x == 0) y[blockIdx.x] = s;
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
  return nchunks > 1 ? (size_t)(a->ints[0] * nchunks) * sizeof(float) : 0;
}

template <int VEC>
static void run(const float* x, float* y, float* part, int64_t m, int n, bool chunks, hipStream_t st) {
  if (chunks) {
    const int nchunks = (int)num_chunks(n);
    hipLaunchKernelGGL(ssq_chunks<VEC>, dim3((unsigned)(m * nchunks)), dim3(CHUNK_THREADS), 0, st, x, part, n,
                       nchunks);
    hipLaunchKernelGGL(ssq_finish, dim3((unsigned)m), dim3(CHUNK_THREADS), 0, st, part, y, nchunks);
    return;
  }
  const int64_t nv = (n + VEC - 1) / VEC;
  int tpr = pow2_at_least((nv + 7) / 8);  // about eight vectors per thread
  if (tpr > 1024) tpr = 1024;
  const int block = tpr > 256 ? tpr : 256;
  const int rows = block / tpr;
  const int64_t grid = (m + rows - 1) / rows;
  hipLaunchKernelGGL(ssq_rows<VEC>, dim3((unsigned)grid), dim3(block), 0, st, x, y, m, n, tpr);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const int sms = sm_count();
  if (sms <= 0) return 1;
  const bool chunks = use_chunks(m, n, sms);
  float* part = static_cast<float*>(a->workspace);
  if (chunks && a->workspace_bytes < (size_t)(m * num_chunks(n)) * sizeof(float)) return 1;
  if (n % 4 == 0) run<4>(x, y, part, m, n, chunks, a->stream);
  else run<1>(x, y, part, m, n, chunks, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

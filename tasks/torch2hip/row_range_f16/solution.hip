// Row peak-to-peak (max - min) of an fp16 matrix in one read (eager PyTorch reads the matrix
// once for amax and again for amin). Max and min are exact in fp32; y = fp16(max - min).
//  - enough rows to fill the GPU, or short rows: a group of tpr threads (a power of two, about
//    eight vectors each) per row, xor shuffles inside the group (and one shared slot per warp
//    when the group spans several warps);
//  - few long rows: each row is cut into chunks of CHUNK_VALUES, one block per chunk writes
//    its (max, min) to the workspace, and a second kernel combines each row's chunks.
// 16-byte loads (eight fp16) when N % 8 == 0 (every row is then 16-byte aligned), scalar ones
// otherwise. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes
#define UNROLL 4
#define CHUNK_THREADS 256
#define CHUNK_VALUES (CHUNK_THREADS * 128)  // 16 vectors of eight fp16 per thread

__device__ __forceinline__ float f16_lo(uint32_t w) {
  return __half2float(__ushort_as_half((unsigned short)(w & 0xffffu)));
}
__device__ __forceinline__ float f16_hi(uint32_t w) {
  return __half2float(__ushort_as_half((unsigned short)(w >> 16)));
}

template <int VEC>
__device__ __forceinline__ void load_f16(const __half* p, float* v) {
  if constexpr (VEC == 8) {
    const uint4 t = *reinterpret_cast<const uint4*>(p);
    v[0] = f16_lo(t.x); v[1] = f16_hi(t.x); v[2] = f16_lo(t.y); v[3] = f16_hi(t.y);
    v[4] = f16_lo(t.z); v[5] = f16_hi(t.z); v[6] = f16_lo(t.w); v[7] = f16_hi(t.w);
  } else {
    v[0] = __half2float(*p);
  }
}

// (hi, lo) over the tpr threads of a row group (tpr a power of two, groups aligned to tpr).
// Every thread of the block must call it; `red` is free again on return.
__device__ __forceinline__ void group_minmax(float& hi, float& lo, int tpr, float2* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) {
    hi = fmaxf(hi, __shfl_xor(hi, o));
    lo = fminf(lo, __shfl_xor(lo, o));
  }
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    const int wpg = tpr / warpSize;
    if (lane == 0) red[warp] = make_float2(hi, lo);
    __syncthreads();
    const int first = warp - warp % wpg;
    hi = red[first].x;
    lo = red[first].y;
    for (int w = 1; w < wpg; ++w) {
      hi = fmaxf(hi, red[first + w].x);
      lo = fminf(lo, red[first + w].y);
    }
    __syncthreads();
  }
}

// Max and min of the columns col0, col0 + step, ... below end (VEC values each; col0, step and
// end are multiples of VEC). Two independent pairs for more loads in flight.
template <int VEC>
__device__ __forceinline__ void minmax_span(const __half* __restrict__ xr, int col0, int end, int step, float& hi,
                                            float& lo) {
  float h[2] = {-INFINITY, -INFINITY}, l[2] = {INFINITY, INFINITY};
  int col = col0;
  for (; col + (UNROLL - 1) * step < end; col += UNROLL * step) {
    float v[UNROLL][VEC];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) load_f16<VEC>(xr + col + u * step, v[u]);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        h[u & 1] = fmaxf(h[u & 1], v[u][j]);
        l[u & 1] = fminf(l[u & 1], v[u][j]);
      }
  }
  for (; col < end; col += step) {
    float v[VEC];
    load_f16<VEC>(xr + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      h[0] = fmaxf(h[0], v[j]);
      l[0] = fminf(l[0], v[j]);
    }
  }
  hi = fmaxf(h[0], h[1]);
  lo = fminf(l[0], l[1]);
}

// One group of tpr threads per row.
template <int VEC>
__global__ void __launch_bounds__(1024) range_rows(const __half* __restrict__ x, __half* __restrict__ y, int64_t m,
                                                   int n, int tpr) {
  __shared__ float2 red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < m;  // rows past the end still join the reductions
  float hi = -INFINITY, lo = INFINITY;
  if (valid) minmax_span<VEC>(x + row * n, t * VEC, n, tpr * VEC, hi, lo);
  group_minmax(hi, lo, tpr, red);
  if (valid && t == 0) y[row] = __float2half(hi - lo);
}

// One block per chunk of a row: partial (max, min), row-major [row][chunk].
template <int VEC>
__global__ void __launch_bounds__(CHUNK_THREADS) range_chunks(const __half* __restrict__ x, float2* __restrict__ part,
                                                              int n, int nchunks) {
  __shared__ float2 red[MAX_WARPS];
  const int64_t row = blockIdx.x / nchunks;
  const int begin = (int)(blockIdx.x % nchunks) * CHUNK_VALUES;
  const int end = min(n, begin + CHUNK_VALUES);
  float hi, lo;
  minmax_span<VEC>(x + row * n, begin + threadIdx.x * VEC, end, CHUNK_THREADS * VEC, hi, lo);
  group_minmax(hi, lo, CHUNK_THREADS, red);
  if (threadIdx.x == 0) part[blockIdx.x] = make_float2(hi, lo);
}

// One block per row: combines the row's chunks.
__global__ void __launch_bounds__(CHUNK_THREADS) range_finish(const float2* __restrict__ part, __half* __restrict__ y,
                                                              int nchunks) {
  __shared__ float2 red[MAX_WARPS];
  const float2* p = part + (int64_t)blockIdx.x * nchunks;
  float hi = -INFINITY, lo = INFINITY;
  for (int i = threadIdx.x; i < nchunks; i += CHUNK_THREADS) {
    hi = fmaxf(hi, p[i].x);
    lo = fminf(lo, p[i].y);
  }
  group_minmax(hi, lo, CHUNK_THREADS, red);
  if (threadIdx.x == 0) y[blockIdx.x] = __float2half(hi - lo);
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
static void run(const __half* x, __half* y, float2* part, int64_t m, int n, bool chunks, hipStream_t st) {
  if (chunks) {
    const int nchunks = (int)num_chunks(n);
    hipLaunchKernelGGL(range_chunks<VEC>, dim3((unsigned)(m * nchunks)), dim3(CHUNK_THREADS), 0, st, x, part, n,
                       nchunks);
    hipLaunchKernelGGL(range_finish, dim3((unsigned)m), dim3(CHUNK_THREADS), 0, st, part, y, nchunks);
    return;
  }
  const int64_t nv = (n + VEC - 1) / VEC;
  int tpr = pow2_at_least((nv + 7) / 8);  // about eight vectors per thread
  if (tpr > 1024) tpr = 1024;
  const int block = tpr > 256 ? tpr : 256;
  const int rows = block / tpr;
  const int64_t grid = (m + rows - 1) / rows;
  hipLaunchKernelGGL(range_rows<VEC>, dim3((unsigned)grid), dim3(block), 0, st, x, y, m, n, tpr);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  __half* y = static_cast<__half*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const int sms = sm_count();
  if (sms <= 0) return 1;
  const bool chunks = use_chunks(m, n, sms);
  float2* part = static_cast<float2*>(a->workspace);
  if (chunks && a->workspace_bytes < (size_t)(m * num_chunks(n)) * sizeof(float2)) return 1;
  if (n % 8 == 0) run<8>(x, y, part, m, n, chunks, a->stream);
  else run<1>(x, y, part, m, n, chunks, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

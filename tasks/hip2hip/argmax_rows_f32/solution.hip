// Row argmax over an M x N fp32 matrix with coalesced, vectorized reads:
//  - rows of up to 32 * warpSize vectors: a group of G lanes per row (G a power of two up to
//    warpSize, sized so that each lane reads about four vectors), several rows per warp;
//  - longer rows: one block of 256 threads per row.
// Lane l of a group reads vectors l, l + G, l + 2G, ... (four loads in flight per step), 16-byte
// float4 loads when N % 4 == 0 (every row is then 16-byte aligned), coalesced scalar loads
// otherwise. Each lane scans its values in increasing index order with a strict >, so it keeps
// its first maximum; lanes, warps and the block merge (value, index) pairs by shuffles and
// shared memory with "larger value, or equal value and smaller index", so the result is the
// first index of the row maximum, as a sequential scan finds it. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <limits.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS 32  // 1024 threads / 32 lanes

struct Best {
  float v;
  int i;
};

__device__ __forceinline__ void take(Best& b, float v, int i) {
  if (v > b.v || (v == b.v && i < b.i)) {
    b.v = v;
    b.i = i;
  }
}

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

// Scans vectors lane, lane + g, ... of row xr (nv vectors of VEC floats), in increasing order.
template <int VEC>
__device__ __forceinline__ Best scan_row(const float* __restrict__ xr, int nv, int lane, int g) {
  Best b;
  b.v = -INFINITY;
  b.i = INT_MAX;
  int v = lane;
  for (; v + 3 * g < nv; v += 4 * g) {
    float t[4 * VEC];
#pragma unroll
    for (int k = 0; k < 4; ++k) load_vec<VEC>(xr + (int64_t)(v + k * g) * VEC, t + k * VEC);
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
      for (int e = 0; e < VEC; ++e)
        if (t[k * VEC + e] > b.v) {
          b.v = t[k * VEC + e];
          b.i = (v + k * g) * VEC + e;
        }
  }
  for (; v < nv; v += g) {
    float t[VEC];
    load_vec<VEC>(xr + (int64_t)v * VEC, t);
#pragma unroll
    for (int e = 0; e < VEC; ++e)
      if (t[e] > b.v) {
        b.v = t[e];
        b.i = v * VEC + e;
      }
  }
  return b;
}

// Merge across the aligned groups of g lanes (g a power of two <= warpSize).
__device__ __forceinline__ Best group_merge(Best b, int g) {
  for (int o = g / 2; o > 0; o >>= 1) {
    const float ov = __shfl_xor(b.v, o);
    const int oi = __shfl_xor(b.i, o);
    take(b, ov, oi);
  }
  return b;
}

// g lanes per row, blockDim.x / g rows per block. Every lane takes part in the shuffles, also
// those of rows past the end (they hold the neutral element).
template <int VEC>
__global__ void __launch_bounds__(THREADS) argmax_groups(const float* __restrict__ x, int64_t* __restrict__ idx,
                                                         int64_t m, int n, int g) {
  const int lane = threadIdx.x & (g - 1);
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / g) + threadIdx.x / g;
  Best b;
  b.v = -INFINITY;
  b.i = INT_MAX;
  if (row < m) b = scan_row<VEC>(x + row * n, n / VEC, lane, g);
  b = group_merge(b, g);
  if (row < m && lane == 0) idx[row] = b.i;
}

// One block per row.
template <int VEC>
__global__ void __launch_bounds__(THREADS) argmax_block(const float* __restrict__ x, int64_t* __restrict__ idx,
                                                        int n) {
  __shared__ float sv[MAX_WARPS];
  __shared__ int si[MAX_WARPS];
  const int64_t row = blockIdx.x;
  const int tid = threadIdx.x;
  Best b = scan_row<VEC>(x + row * n, n / VEC, tid, blockDim.x);
  b = group_merge(b, warpSize);
  const int lane = tid % warpSize, warp = tid / warpSize, nwarps = blockDim.x / warpSize;
  if (lane == 0) {
    sv[warp] = b.v;
    si[warp] = b.i;
  }
  __syncthreads();
  if (tid == 0) {
    for (int w = 1; w < nwarps; ++w) take(b, sv[w], si[w]);  // b holds warp 0's result
    idx[row] = b.i;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  int64_t* idx = static_cast<int64_t*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const bool vec4 = n % 4 == 0;
  const int nv = vec4 ? n / 4 : n;

  if (nv <= 32 * ws) {
    int g = 1;
    while (g < ws && 4 * g < nv) g <<= 1;  // about four vectors per lane
    const int rows = THREADS / g;
    const int64_t grid = (m + rows - 1) / rows;
    if (vec4)
      hipLaunchKernelGGL(argmax_groups<4>, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, idx, m, n, g);
    else
      hipLaunchKernelGGL(argmax_groups<1>, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, idx, m, n, g);
  } else {
    if (vec4)
      hipLaunchKernelGGL(argmax_block<4>, dim3((unsigned)m), dim3(THREADS), 0, a->stream, x, idx, n);
    else
      hipLaunchKernelGGL(argmax_block<1>, dim3((unsigned)m), dim3(THREADS), 0, a->stream, x, idx, n);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

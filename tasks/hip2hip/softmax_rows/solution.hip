// Row softmax over an M x N fp32 matrix with one read of x and one write of y whenever the
// row fits in registers:
//  - N <= 32 * warpSize: one warp per row, the row held in the lanes' registers;
//  - N <= 32 * 1024: one block per row, at most 32 values per thread in registers;
//  - longer rows: online softmax (running max and rescaled sum, one read), then a second
//    read that writes y.
// 16-byte loads and stores when N % 4 == 0 (every row is then 16-byte aligned), coalesced
// scalar accesses otherwise. Reductions: warp shuffles, then one shared slot per warp.
// Works with 32- and 64-wide warps (the host reads the width, the device uses warpSize).
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes

__device__ __forceinline__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// Block-wide reductions: every thread gets the result; `red` is free again on return.
__device__ __forceinline__ float block_max(float v, float* red) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  v = warp_max(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float r = red[0];
  for (int w = 1; w < nwarps; ++w) r = fmaxf(r, red[w]);
  __syncthreads();
  return r;
}

__device__ __forceinline__ float block_sum(float v, float* red) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  v = warp_sum(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float r = red[0];
  for (int w = 1; w < nwarps; ++w) r += red[w];
  __syncthreads();
  return r;
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

template <int VEC>
__device__ __forceinline__ void store_vec(float* p, const float* v, float scale) {
  if constexpr (VEC == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0] * scale, v[1] * scale, v[2] * scale, v[3] * scale);
  } else {
    *p = v[0] * scale;
  }
}

// One warp per row; lane l holds columns (k * warpSize + l) * VEC + [0, VEC).
template <int VEC, int ITERS>
__global__ void __launch_bounds__(256) softmax_warp(const float* __restrict__ x, float* __restrict__ y,
                                                    int64_t m, int n) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= m) return;  // the whole warp leaves together
  const float* xr = x + row * n;
  float* yr = y + row * n;

  float v[ITERS * VEC];
  float mx = -INFINITY;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * warpSize + lane) * VEC;
    if (col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = -INFINITY;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) mx = fmaxf(mx, v[i]);
  mx = warp_max(mx);

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) {
    v[i] = expf(v[i] - mx);  // padding: exp(-inf) = 0
    s += v[i];
  }
  const float inv = 1.0f / warp_sum(s);

#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * warpSize + lane) * VEC;
    if (col < n) store_vec<VEC>(yr + col, v + k * VEC, inv);
  }
}

// One block per row; thread t holds columns (k * blockDim.x + t) * VEC + [0, VEC).
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) softmax_block(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float red[MAX_WARPS];
  const int tid = threadIdx.x;
  const float* xr = x + (int64_t)blockIdx.x * n;
  float* yr = y + (int64_t)blockIdx.x * n;

  float v[ITERS * VEC];
  float mx = -INFINITY;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + tid) * VEC;
    if (col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = -INFINITY;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) mx = fmaxf(mx, v[i]);
  mx = block_max(mx, red);

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) {
    v[i] = expf(v[i] - mx);
    s += v[i];
  }
  const float inv = 1.0f / block_sum(s, red);

#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + tid) * VEC;
    if (col < n) store_vec<VEC>(yr + col, v + k * VEC, inv);
  }
}

// Rows too long for registers: each thread keeps a running max and a sum rescaled to it
// (one read, four chunks of VEC values per step), the block merges them, and a second read
// writes y.
template <int VEC>
__global__ void __launch_bounds__(1024) softmax_online(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float red[MAX_WARPS];
  const int tid = threadIdx.x;
  const int step = blockDim.x * VEC;
  const float* xr = x + (int64_t)blockIdx.x * n;
  float* yr = y + (int64_t)blockIdx.x * n;

  float mx = -INFINITY, s = 0.0f;
  for (int base = tid * VEC; base < n; base += 4 * step) {
    float v[4 * VEC];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int col = base + u * step;
      if (col < n) {
        load_vec<VEC>(xr + col, v + u * VEC);
      } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j) v[u * VEC + j] = -INFINITY;
      }
    }
    float cm = v[0];
#pragma unroll
    for (int i = 1; i < 4 * VEC; ++i) cm = fmaxf(cm, v[i]);
    if (cm > mx) {
      s *= expf(mx - cm);  // first time: 0 * exp(-inf) = 0
      mx = cm;
    }
#pragma unroll
    for (int i = 0; i < 4 * VEC; ++i) s += expf(v[i] - mx);  // padding adds exp(-inf) = 0
  }
  const float gm = block_max(mx, red);
  s = (s > 0.0f) ? s * expf(mx - gm) : 0.0f;  // threads that saw no column hold s = 0
  const float inv = 1.0f / block_sum(s, red);

#pragma unroll 4
  for (int col = tid * VEC; col < n; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[j] = expf(v[j] - gm);
    store_vec<VEC>(yr + col, v, inv);
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

template <int VEC, int ITERS>
static void launch_warp(const float* x, float* y, int64_t m, int n, int ws, hipStream_t st) {
  const int block = 256;
  const int rows = block / ws;
  const int64_t grid = (m + rows - 1) / rows;
  hipLaunchKernelGGL((softmax_warp<VEC, ITERS>), dim3((unsigned)grid), dim3(block), 0, st, x, y, m, n);
}

template <int VEC, int ITERS>
static void launch_block(const float* x, float* y, int64_t m, int n, int threads, hipStream_t st) {
  hipLaunchKernelGGL((softmax_block<VEC, ITERS>), dim3((unsigned)m), dim3(threads), 0, st, x, y, n);
}

// iters: values (VEC == 1) or vectors (VEC == 4) per thread, a power of two, at most 32 / VEC.
template <int VEC>
static int dispatch(const float* x, float* y, int64_t m, int n, int ws, bool warp_rows, int threads, int iters,
                    hipStream_t st) {
#define ARENA_CASE(IT)                                                   \
  case IT:                                                               \
    if constexpr (IT * VEC <= 32) {                                      \
      if (warp_rows) launch_warp<VEC, IT>(x, y, m, n, ws, st);           \
      else launch_block<VEC, IT>(x, y, m, n, threads, st);               \
      return 0;                                                          \
    }                                                                    \
    return 1;
  switch (iters) {
    ARENA_CASE(1)
    ARENA_CASE(2)
    ARENA_CASE(4)
    ARENA_CASE(8)
    ARENA_CASE(16)
    ARENA_CASE(32)
    default: return 1;
  }
#undef ARENA_CASE
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const bool vec4 = n % 4 == 0;
  const int vec = vec4 ? 4 : 1;
  int rc = 0;

  if (n <= 32 * ws) {  // one warp per row
    const int per = (n + ws - 1) / ws;
    const int iters = pow2_at_least((per + vec - 1) / vec);
    rc = vec4 ? dispatch<4>(x, y, m, n, ws, true, 0, iters, a->stream)
              : dispatch<1>(x, y, m, n, ws, true, 0, iters, a->stream);
  } else if (n <= 32 * 1024) {  // one block per row, the row in registers
    int threads = pow2_at_least((n + 15) / 16);
    threads = threads < 128 ? 128 : (threads > 512 ? 512 : threads);
    if ((n + threads - 1) / threads > 32) threads = 1024;
    if (threads < ws) threads = ws;
    const int per = (n + threads - 1) / threads;
    const int iters = pow2_at_least((per + vec - 1) / vec);
    rc = vec4 ? dispatch<4>(x, y, m, n, ws, false, threads, iters, a->stream)
              : dispatch<1>(x, y, m, n, ws, false, threads, iters, a->stream);
  } else {  // online softmax, two reads
    if (vec4)
      hipLaunchKernelGGL(softmax_online<4>, dim3((unsigned)m), dim3(1024), 0, a->stream, x, y, n);
    else
      hipLaunchKernelGGL(softmax_online<1>, dim3((unsigned)m), dim3(1024), 0, a->stream, x, y, n);
  }
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

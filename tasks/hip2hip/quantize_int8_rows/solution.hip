// Symmetric per-row int8 quantization of an M x N fp32 matrix with one read of x whenever the
// row fits in registers:
//  - N <= 32 * warpSize: one warp per row, the row held in the lanes' registers, max |x| by
//    xor shuffles;
//  - N <= 32 * 1024: one block per row, at most 32 values per thread in registers, shuffles
//    then one shared slot per warp;
//  - longer rows: a max pass and a quantize pass over the row (the second read mostly hits L2).
// 16-byte loads and packed 4-byte stores of four int8 codes when N % 4 == 0 (every row is then
// aligned), coalesced scalar accesses otherwise. The arithmetic is the spec's, step for step:
// x / scale is a correctly rounded fp32 division (not a multiplication by 1 / scale), rintf
// rounds half to even. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes

__device__ __forceinline__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
  return v;
}

// Block-wide max: every thread gets the result; `red` is free again on return.
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

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

// The code of one value; `sc` > 0.
__device__ __forceinline__ uint32_t code(float x, float sc) {
  const float r = fminf(fmaxf(rintf(x / sc), -127.0f), 127.0f);
  return (uint32_t)(uint8_t)(int8_t)(int)r;
}

// Stores the codes of VEC values at p (4 codes packed into one 4-byte store).
template <int VEC>
__device__ __forceinline__ void store_codes(int8_t* p, const float* v, float sc, bool nonzero) {
  if constexpr (VEC == 4) {
    uint32_t w = 0;
    if (nonzero) w = code(v[0], sc) | code(v[1], sc) << 8 | code(v[2], sc) << 16 | code(v[3], sc) << 24;
    *reinterpret_cast<uint32_t*>(p) = w;
  } else {
    *p = nonzero ? (int8_t)(int)fminf(fmaxf(rintf(v[0] / sc), -127.0f), 127.0f) : (int8_t)0;
  }
}

// One warp per row; lane l holds columns (k * warpSize + l) * VEC + [0, VEC).
template <int VEC, int ITERS>
__global__ void __launch_bounds__(256) quant_warp(const float* __restrict__ x, int8_t* __restrict__ q,
                                                  float* __restrict__ scale, int64_t m, int n) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= m) return;  // the whole warp leaves together
  const float* xr = x + row * n;
  int8_t* qr = q + row * n;

  float v[ITERS * VEC];
  float amax = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * warpSize + lane) * VEC;
    if (col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) amax = fmaxf(amax, fabsf(v[i]));
  amax = warp_max(amax);
  const float sc = amax / 127.0f;
  if (lane == 0) scale[row] = sc;
  const bool nonzero = amax > 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * warpSize + lane) * VEC;
    if (col < n) store_codes<VEC>(qr + col, v + k * VEC, sc, nonzero);
  }
}

// One block per row; thread t holds columns (k * blockDim.x + t) * VEC + [0, VEC).
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) quant_block(const float* __restrict__ x, int8_t* __restrict__ q,
                                                    float* __restrict__ scale, int n) {
  __shared__ float red[MAX_WARPS];
  const int tid = threadIdx.x;
  const float* xr = x + (int64_t)blockIdx.x * n;
  int8_t* qr = q + (int64_t)blockIdx.x * n;

  float v[ITERS * VEC];
  float amax = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + tid) * VEC;
    if (col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) amax = fmaxf(amax, fabsf(v[i]));
  amax = block_max(amax, red);
  const float sc = amax / 127.0f;
  if (tid == 0) scale[blockIdx.x] = sc;
  const bool nonzero = amax > 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + tid) * VEC;
    if (col < n) store_codes<VEC>(qr + col, v + k * VEC, sc, nonzero);
  }
}

// Rows too long for registers: a max pass (four chunks of VEC values in flight per thread),
// then a quantize pass.
template <int VEC>
__global__ void __launch_bounds__(1024) quant_long(const float* __restrict__ x, int8_t* __restrict__ q,
                                                   float* __restrict__ scale, int n) {
  __shared__ float red[MAX_WARPS];
  const int tid = threadIdx.x;
  const int step = blockDim.x * VEC;
  const float* xr = x + (int64_t)blockIdx.x * n;
  int8_t* qr = q + (int64_t)blockIdx.x * n;

  float amax = 0.0f;
  for (int base = tid * VEC; base < n; base += 4 * step) {
    float v[4 * VEC];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int col = base + u * step;
      if (col < n) {
        load_vec<VEC>(xr + col, v + u * VEC);
      } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j) v[u * VEC + j] = 0.0f;
      }
    }
#pragma unroll
    for (int i = 0; i < 4 * VEC; ++i) amax = fmaxf(amax, fabsf(v[i]));
  }
  amax = block_max(amax, red);
  const float sc = amax / 127.0f;
  if (tid == 0) scale[blockIdx.x] = sc;
  const bool nonzero = amax > 0.0f;

#pragma unroll 4
  for (int col = tid * VEC; col < n; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
    store_codes<VEC>(qr + col, v, sc, nonzero);
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Args {
  const float* x;
  int8_t* q;
  float* scale;
  int64_t m;
  int n;
  hipStream_t stream;
};

template <int VEC, int ITERS>
static void launch_rows(const Args& p, bool warp_rows, int ws, int threads) {
  if (warp_rows) {
    const int block = 256, rows = block / ws;
    const int64_t grid = (p.m + rows - 1) / rows;
    hipLaunchKernelGGL((quant_warp<VEC, ITERS>), dim3((unsigned)grid), dim3(block), 0, p.stream, p.x, p.q, p.scale,
                       p.m, p.n);
  } else {
    hipLaunchKernelGGL((quant_block<VEC, ITERS>), dim3((unsigned)p.m), dim3(threads), 0, p.stream, p.x, p.q,
                       p.scale, p.n);
  }
}

// iters: values (VEC == 1) or vectors (VEC == 4) per thread, a power of two, at most 32 / VEC.
template <int VEC>
static int dispatch(const Args& p, bool warp_rows, int ws, int threads, int iters) {
#define ARENA_CASE(IT)                                 \
  case IT:                                             \
    if constexpr (IT * VEC <= 32) {                    \
      launch_rows<VEC, IT>(p, warp_rows, ws, threads); \
      return 0;                                        \
    }                                                  \
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
  Args p;
  p.x = static_cast<const float*>(a->tensors[0]);
  p.q = static_cast<int8_t*>(a->tensors[1]);
  p.scale = static_cast<float*>(a->tensors[2]);
  p.m = a->ints[0];
  p.n = (int)a->ints[1];
  p.stream = a->stream;
  const int n = p.n;
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const bool vec4 = n % 4 == 0;
  const int vec = vec4 ? 4 : 1;
  int rc = 0;

  if (n <= 32 * ws) {  // one warp per row
    const int per = (n + ws - 1) / ws;
    const int iters = pow2_at_least((per + vec - 1) / vec);
    rc = vec4 ? dispatch<4>(p, true, ws, 0, iters) : dispatch<1>(p, true, ws, 0, iters);
  } else if (n <= 32 * 1024) {  // one block per row, the row in registers
    int threads = pow2_at_least((n + 15) / 16);
    threads = threads < 128 ? 128 : (threads > 512 ? 512 : threads);
    if ((n + threads - 1) / threads > 32) threads = 1024;
    if (threads < ws) threads = ws;
    const int per = (n + threads - 1) / threads;
    const int iters = pow2_at_least((per + vec - 1) / vec);
    rc = vec4 ? dispatch<4>(p, false, ws, threads, iters) : dispatch<1>(p, false, ws, threads, iters);
  } else {  // two passes
    if (vec4)
      hipLaunchKernelGGL(quant_long<4>, dim3((unsigned)p.m), dim3(1024), 0, p.stream, p.x, p.q, p.scale, n);
    else
      hipLaunchKernelGGL(quant_long<1>, dim3((unsigned)p.m), dim3(1024), 0, p.stream, p.x, p.q, p.scale, n);
  }
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

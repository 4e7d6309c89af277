// y = softmax(x / T + mask) over the last dim, x [B, L, N], mask [B, 1, N], in one kernel:
// x is read once and y written once whenever a row fits in registers (eager PyTorch writes
// and re-reads x / T and x / T + mask before its softmax). The mask row of a batch is shared
// by its L rows and stays in cache.
//  - rows that fit in registers (N <= 32768; 16384 when N % 4 != 0): a group of tpr threads
//    (a power of two) per row, at most 32 values per thread; groups of at most a warp reduce
//    with xor shuffles, larger ones add one shared slot per warp;
//  - longer rows: a block per row keeps a running max and a sum rescaled to it (one read),
//    then a second read writes y.
// 16-byte loads and stores when N % 4 == 0 (every row is then 16-byte aligned), scalar ones
// otherwise. z = x * (1 / T) + mask. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32  // 1024 threads / 32 lanes

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
__device__ __forceinline__ void store_scaled(float* p, const float* v, float s) {
  if constexpr (VEC == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0] * s, v[1] * s, v[2] * s, v[3] * s);
  } else {
    *p = v[0] * s;
  }
}

// z = x * inv_t + mask for VEC values at col.
template <int VEC>
__device__ __forceinline__ void load_logits(const float* __restrict__ xr, const float* __restrict__ mr, int col,
                                            float inv_t, float* v) {
  float mv[VEC];
  load_vec<VEC>(xr + col, v);
  load_vec<VEC>(mr + col, mv);
#pragma unroll
  for (int j = 0; j < VEC; ++j) v[j] = fmaf(v[j], inv_t, mv[j]);
}

// Max / sum over the tpr threads of a row group (tpr a power of two, groups aligned to tpr).
// Every thread of the block must call them; `red` is free again on return.
__device__ __forceinline__ float group_max(float v, int tpr, float* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor(v, o));
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    const int wpg = tpr / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    const int first = warp - warp % wpg;
    v = red[first];
    for (int w = 1; w < wpg; ++w) v = fmaxf(v, red[first + w]);
    __syncthreads();
  }
  return v;
}

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

// Row in registers: thread t of a group holds columns (k * tpr + t) * VEC + [0, VEC).
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) msm_regs(const float* __restrict__ x, const float* __restrict__ mask,
                                                 float* __restrict__ y, int64_t rows, int64_t l, int n, int tpr,
                                                 float inv_t) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < rows;  // rows past the end still join the reductions
  const int64_t r = valid ? row : 0;
  const float* xr = x + r * n;
  const float* mr = mask + (r / l) * n;

  float v[ITERS * VEC];
  float mx = -INFINITY;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (valid && col < n) {
      load_logits<VEC>(xr, mr, col, inv_t, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = -INFINITY;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) mx = fmaxf(mx, v[i]);
  mx = group_max(mx, tpr, red);
  if (!valid) mx = 0.0f;  // keeps exp(-inf - mx) = 0 in rows past the end

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) {
    v[i] = expf(v[i] - mx);  // padding: exp(-inf) = 0
    s += v[i];
  }
  s = group_sum(s, tpr, red);
  if (!valid) return;
  const float inv = 1.0f / s;
  float* yr = y + row * n;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) store_scaled<VEC>(yr + col, v + k * VEC, inv);
  }
}

// Rows too long for registers: one block per row. Each thread keeps a running max and a sum
// rescaled to it, the block merges them, and a second read writes y.
template <int VEC>
__global__ void __launch_bounds__(1024) msm_online(const float* __restrict__ x, const float* __restrict__ mask,
                                                   float* __restrict__ y, int64_t l, int n, float inv_t) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  const float* xr = x + row * n;
  const float* mr = mask + (row / l) * n;
  const int step = blockDim.x * VEC;

  float mx = -INFINITY, s = 0.0f;
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_logits<VEC>(xr, mr, col, inv_t, v);
    float cm = v[0];
#pragma unroll
    for (int j = 1; j < VEC; ++j) cm = fmaxf(cm, v[j]);
    if (cm > mx) {
      s *= expf(mx - cm);  // the first time: 0 * exp(-inf) = 0
      mx = cm;
    }
#pragma unroll
    for (int j = 0; j < VEC; ++j) s += expf(v[j] - mx);
  }
  const float gm = group_max(mx, blockDim.x, red);
  s = s > 0.0f ? s * expf(mx - gm) : 0.0f;  // threads that saw no column hold s = 0
  const float inv = 1.0f / group_sum(s, blockDim.x, red);

  float* yr = y + row * n;
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_logits<VEC>(xr, mr, col, inv_t, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[j] = expf(v[j] - gm);
    store_scaled<VEC>(yr + col, v, inv);
  }
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Args {
  const float *x, *mask;
  float* y;
  int64_t rows, l;
  int n;
  float inv_t;
  hipStream_t st;
};

template <int VEC, int ITERS>
static void launch_regs(const Args& p, int tpr) {
  const int block = tpr > 256 ? tpr : 256;
  const int per_block = block / tpr;
  const int64_t grid = (p.rows + per_block - 1) / per_block;
  hipLaunchKernelGGL((msm_regs<VEC, ITERS>), dim3((unsigned)grid), dim3(block), 0, p.st, p.x, p.mask, p.y, p.rows,
                     p.l, p.n, tpr, p.inv_t);
}

template <int VEC>
static int run(const Args& p) {
  constexpr int MAXIT = VEC == 4 ? 8 : 16;  // vectors per thread: 32 (VEC 4) or 16 (scalar) values
  const int64_t nv = (p.n + VEC - 1) / VEC;
  if (nv > 1024 * MAXIT) {
    hipLaunchKernelGGL(msm_online<VEC>, dim3((unsigned)p.rows), dim3(1024), 0, p.st, p.x, p.mask, p.y, p.l, p.n,
                       p.inv_t);
    return 0;
  }
  // Short rows: up to 32 threads with one vector each; longer: as few threads as MAXIT allows.
  int tpr = nv <= 32 ? pow2_at_least(nv) : 32;
  if (nv > 32 * MAXIT) tpr = pow2_at_least((nv + MAXIT - 1) / MAXIT);
  const int iters = pow2_at_least((nv + tpr - 1) / tpr);
  switch (iters) {
    case 1: launch_regs<VEC, 1>(p, tpr); return 0;
    case 2: launch_regs<VEC, 2>(p, tpr); return 0;
    case 4: launch_regs<VEC, 4>(p, tpr); return 0;
    case 8: launch_regs<VEC, 8>(p, tpr); return 0;
    case 16: if constexpr (MAXIT >= 16) { launch_regs<VEC, 16>(p, tpr); return 0; }
             return 1;
    default: return 1;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  Args p;
  p.x = static_cast<const float*>(a->tensors[0]);
  p.mask = static_cast<const float*>(a->tensors[1]);
  p.y = static_cast<float*>(a->tensors[2]);
  p.l = a->ints[1];
  p.rows = a->ints[0] * p.l;
  p.n = (int)a->ints[2];
  p.inv_t = (float)(1.0 / a->floats[0]);
  p.st = a->stream;
  const int rc = p.n % 4 == 0 ? run<4>(p) : run<1>(p);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

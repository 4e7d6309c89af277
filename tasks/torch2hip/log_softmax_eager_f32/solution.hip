// Log-softmax over rows in one kernel: x is read once and y written once whenever a row fits
// in registers (the reference's eager ops move the matrix eight times in six kernels).
// y = (x - max) - log(sum(exp(x - max))).
//  - rows that fit in registers (N <= 32768; 16384 when N % 4 != 0): a group of tpr threads
//    (a power of two) per row, at most 32 values per thread; groups of at most a warp reduce
//    with xor shuffles, larger ones add one shared slot per warp (rows of 100 to 1000 values
//    get one warp each);
//  - longer rows: a block per row keeps a running max and a sum rescaled to it (one read),
//    then a second read writes y.
// 16-byte loads and stores when N % 4 == 0 (every row is then 16-byte aligned), scalar ones
// otherwise. Works with 32- and 64-wide warps.
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

// y = (v - mx) - lse for VEC values (the reference's order of operations).
template <int VEC>
__device__ __forceinline__ void store_shifted(float* p, const float* v, float mx, float lse) {
  if constexpr (VEC == 4) {
    *reinterpret_cast<float4*>(p) =
        make_float4((v[0] - mx) - lse, (v[1] - mx) - lse, (v[2] - mx) - lse, (v[3] - mx) - lse);
  } else {
    *p = (v[0] - mx) - lse;
  }
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
__global__ void __launch_bounds__(1024) lsm_regs(const float* __restrict__ x, float* __restrict__ y, int64_t rows,
                                                 int n, int tpr) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x % tpr;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool valid = row < rows;  // rows past the end still join the reductions
  const float* xr = x + (valid ? row : 0) * n;

  float v[ITERS * VEC];
  float mx = -INFINITY;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (valid && col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
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
  for (int i = 0; i < ITERS * VEC; ++i) s += expf(v[i] - mx);  // padding: exp(-inf) = 0
  s = group_sum(s, tpr, red);
  if (!valid) return;
  const float lse = logf(s);
  float* yr = y + row * n;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) store_shifted<VEC>(yr + col, v + k * VEC, mx, lse);
  }
}

// Rows too long for registers: one block per row. Each thread keeps a running max and a sum
// rescaled to it, the block merges them, and a second read writes y.
template <int VEC>
__global__ void __launch_bounds__(1024) lsm_online(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  const float* xr = x + row * n;
  const int step = blockDim.x * VEC;

  float mx = -INFINITY, s = 0.0f;
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
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
  const float lse = logf(group_sum(s, blockDim.x, red));

  float* yr = y + row * n;
  for (int col = threadIdx.x * VEC; col < n; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
    store_shifted<VEC>(yr + col, v, gm, lse);
  }
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

template <int VEC, int ITERS>
static void launch_regs(const float* x, float* y, int64_t rows, int n, int tpr, hipStream_t st) {
  const int block = tpr > 256 ? tpr : 256;
  const int per_block = block / tpr;
  const int64_t grid = (rows + per_block - 1) / per_block;
  hipLaunchKernelGGL((lsm_regs<VEC, ITERS>), dim3((unsigned)grid), dim3(block), 0, st, x, y, rows, n, tpr);
}

template <int VEC>
static int run(const float* x, float* y, int64_t rows, int n, hipStream_t st) {
  constexpr int MAXIT = VEC == 4 ? 8 : 16;  // vectors per thread: 32 (VEC 4) or 16 (scalar) values
  const int64_t nv = (n + VEC - 1) / VEC;
  if (nv > 1024 * MAXIT) {
    hipLaunchKernelGGL(lsm_online<VEC>, dim3((unsigned)rows), dim3(1024), 0, st, x, y, n);
    return 0;
  }
  // Short rows: up to 32 threads with one vector each; longer: as few threads as MAXIT allows.
  int tpr = nv <= 32 ? pow2_at_least(nv) : 32;
  if (nv > 32 * MAXIT) tpr = pow2_at_least((nv + MAXIT - 1) / MAXIT);
  const int iters = pow2_at_least((nv + tpr - 1) / tpr);
  switch (iters) {
    case 1: launch_regs<VEC, 1>(x, y, rows, n, tpr, st); return 0;
    case 2: launch_regs<VEC, 2>(x, y, rows, n, tpr, st); return 0;
    case 4: launch_regs<VEC, 4>(x, y, rows, n, tpr, st); return 0;
    case 8: launch_regs<VEC, 8>(x, y, rows, n, tpr, st); return 0;
    case 16: if constexpr (MAXIT >= 16) { launch_regs<VEC, 16>(x, y, rows, n, tpr, st); return 0; }
             return 1;
    default: return 1;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t rows = a->ints[0];
  const int n = (int)a->ints[1];
  const int rc = n % 4 == 0 ? run<4>(x, y, rows, n, a->stream) : run<1>(x, y, rows, n, a->stream);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Row log-softmax over an M x N fp32 matrix with one read of x and one write of y whenever
// the row fits in registers (the baseline reads every row three times):
//  - short rows (N <= 32 * warpSize; 16 * warpSize when N % 4 != 0): a group of tpr lanes
//    (a power of two, down to one) per row, several rows per block of 256 threads, max and
//    sum reduced with xor shuffles inside the group;
//  - longer rows up to 32768 values (16384 when N % 4 != 0): one block of 128 to 1024 threads
//    per row, at most 32 values per thread, warp shuffles and one shared slot per warp;
//  - longer rows: an online pass (running max and a sum rescaled to it, one read), then a
//    second read that writes y.
// 16-byte loads and stores when N % 4 == 0 (every row is then 16-byte aligned), scalar ones
// otherwise. y = (x - max) - log(sum), in that order (x - max is exact near the maximum).
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
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
__device__ __forceinline__ void store_shifted(float* p, const float* v, float shift) {
  if constexpr (VEC == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0] - shift, v[1] - shift, v[2] - shift, v[3] - shift);
  } else {
    *p = v[0] - shift;
  }
}

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

// Reduction over the tpr threads that share a row (tpr a power of two). Groups of at most a
// warp use xor shuffles within the group (every lane of the warp takes part); a row of several
// warps is a whole block (tpr == blockDim.x) and adds one shared slot per warp.
template <typename Op>
__device__ __forceinline__ float row_reduce(float v, int tpr, float* red, Op op) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v = op(v, __shfl_xor(v, o));
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < tpr / warpSize; ++w) v = op(v, red[w]);
    __syncthreads();
  }
  return v;
}

// Rows held in registers: thread t of the tpr threads of a row holds columns
// (k * tpr + t) * VEC + [0, VEC) for k < ITERS.
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) log_softmax_rows(const float* __restrict__ x, float* __restrict__ y, int64_t m,
                                                         int n, int tpr) {
  __shared__ float red[MAX_WARPS];
  const int t = threadIdx.x & (tpr - 1);
  int64_t row = (int64_t)blockIdx.x * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = row < m;
  if (!live) row = 0;  // groups past the last row still take part in the shuffles, store nothing
  const float* xr = x + row * n;
  float* yr = y + row * n;

  float v[ITERS * VEC];
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) {
      load_vec<VEC>(xr + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = -INFINITY;
    }
  }
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) mx = fmaxf(mx, v[i]);
  mx = row_reduce(mx, tpr, red, MaxOp());

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) {
    v[i] -= mx;       // padding stays -inf
    s += expf(v[i]);  // exp(-inf) = 0
  }
  const float lse = logf(row_reduce(s, tpr, red, SumOp()));

  if (!live) return;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * tpr + t) * VEC;
    if (col < n) store_shifted<VEC>(yr + col, v + k * VEC, lse);
  }
}

// Rows too long for registers: each thread keeps a running max and a sum rescaled to it (one
// read, four chunks of VEC values per step), the block merges them, and a second read
// writes y.
template <int VEC>
__global__ void __launch_bounds__(1024) log_softmax_online(const float* __restrict__ x, float* __restrict__ y, int n) {
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
  const float gm = row_reduce(mx, blockDim.x, red, MaxOp());
  s = (s > 0.0f) ? s * expf(mx - gm) : 0.0f;  // threads that saw no column hold s = 0
  const float lse = logf(row_reduce(s, blockDim.x, red, SumOp()));

#pragma unroll 4
  for (int col = tid * VEC; col < n; col += step) {
    float v[VEC];
    load_vec<VEC>(xr + col, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[j] -= gm;  // (x - max) - lse: exact near the max
    store_shifted<VEC>(yr + col, v, lse);
  }
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

// iters: vectors per thread, a power of two with iters * VEC <= 32 (at most 16 when VEC == 1).
template <int VEC>
static int launch_rows(const float* x, float* y, int64_t m, int n, int tpr, int block, int iters, hipStream_t st) {
  const int64_t rows_per_block = block / tpr;
  const dim3 grid((unsigned)((m + rows_per_block - 1) / rows_per_block));
#define ARENA_CASE(IT)                                                                              \
  case IT:                                                                                          \
    if constexpr (IT * VEC <= 32) {                                                                 \
      hipLaunchKernelGGL((log_softmax_rows<VEC, IT>), grid, dim3(block), 0, st, x, y, m, n, tpr); \
      return 0;                                                                                     \
    }                                                                                               \
    return 1;
  switch (iters) {
    ARENA_CASE(1)
    ARENA_CASE(2)
    ARENA_CASE(4)
    ARENA_CASE(8)
    ARENA_CASE(16)
    default: return 1;
  }
#undef ARENA_CASE
}

template <int VEC>
static int run(const float* x, float* y, int64_t m, int n, int ws, hipStream_t st) {
  const int nvec = (n + VEC - 1) / VEC;     // vectors per row
  constexpr int MAXIT = VEC == 4 ? 8 : 16;  // at most 32 (vectors) or 16 (scalars) values per thread
  if (nvec <= ws * MAXIT) {                 // a group of at most one warp per row
    const int tpr = nvec <= ws ? pow2_at_least(nvec) : ws;
    const int iters = pow2_at_least((nvec + tpr - 1) / tpr);
    return launch_rows<VEC>(x, y, m, n, tpr, 256, iters, st);
  }
  if (nvec <= 1024 * MAXIT) {  // one block per row
    int tpr = pow2_at_least((nvec + MAXIT - 1) / MAXIT);
    if (tpr < 128) tpr = 128;
    if (tpr < ws) tpr = ws;
    const int iters = pow2_at_least((nvec + tpr - 1) / tpr);
    return launch_rows<VEC>(x, y, m, n, tpr, tpr, iters, st);
  }
  hipLaunchKernelGGL(log_softmax_online<VEC>, dim3((unsigned)m), dim3(1024), 0, st, x, y, n);
  return 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const int rc = n % 4 == 0 ? run<4>(x, y, m, n, ws, a->stream) : run<1>(x, y, m, n, ws, a->stream);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

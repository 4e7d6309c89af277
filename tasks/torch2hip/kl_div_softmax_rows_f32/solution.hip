// Per-row KL(softmax(q) || softmax(p)) in a single read of p and q. Eager PyTorch runs
// log_softmax(p), softmax(q), the kl_div elementwise ops and a row sum: six kernels, four of
// them writing full matrices. With s = softmax(q) and l = log_softmax(p),
//   KL = sum_j s_j (log s_j - l_j) = A / Zq + (mp - mq) + log(Zp / Zq),
//   Zq = sum_j exp(q_j - mq), A = sum_j exp(q_j - mq) (q_j - p_j), Zp = sum_j exp(p_j - mp),
// with mq, mp the row maxima. Every thread keeps (mq, Zq, A, mp, Zp) online (Zq and A rescaled
// when a batch of values raises mq, Zp when it raises mp), and the states merge by shuffles
// and shared memory. mp - mq is exact for one-element rows, so they give exactly 0.
//  - rows of up to 2048 values: one warp per row, several rows per block;
//  - longer rows: one block per row (256 to 1024 threads by row length).
// 16-byte loads when every row of both inputs is 16-byte aligned. Works with 32- and 64-wide
// warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define WARP_BLOCK 256
#define MAX_WARPS 32  // 1024 threads / 32 lanes
#define WARP_ROW_MAX 2048

struct KlState {
  float mq, zq, a, mp, zp;  // empty: mq = mp = -inf, sums 0
};

__device__ __forceinline__ KlState kl_empty() { return {-INFINITY, 0.0f, 0.0f, -INFINITY, 0.0f}; }

// Adds K (p, q) pairs.
template <int K>
__device__ __forceinline__ void kl_add(KlState& s, const float* p, const float* q) {
  float bq = q[0], bp = p[0];
#pragma unroll
  for (int k = 1; k < K; ++k) {
    bq = fmaxf(bq, q[k]);
    bp = fmaxf(bp, p[k]);
  }
  if (bq > s.mq) {
    const float r = s.mq == -INFINITY ? 0.0f : __expf(s.mq - bq);
    s.zq *= r;
    s.a *= r;
    s.mq = bq;
  }
  if (bp > s.mp) {
    s.zp = s.mp == -INFINITY ? 0.0f : s.zp * __expf(s.mp - bp);
    s.mp = bp;
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const float e = __expf(q[k] - s.mq);
    s.zq += e;
    s.a += e * (q[k] - p[k]);
    s.zp += __expf(p[k] - s.mp);
  }
}

__device__ __forceinline__ void kl_merge(KlState& s, const KlState& o) {
  if (o.mq == -INFINITY) return;  // o is empty (mq and mp are set together)
  if (s.mq == -INFINITY) {
    s = o;
    return;
  }
  const float mq = fmaxf(s.mq, o.mq), r1 = __expf(s.mq - mq), r2 = __expf(o.mq - mq);
  s.zq = s.zq * r1 + o.zq * r2;
  s.a = s.a * r1 + o.a * r2;
  s.mq = mq;
  const float mp = fmaxf(s.mp, o.mp);
  s.zp = s.zp * __expf(s.mp - mp) + o.zp * __expf(o.mp - mp);
  s.mp = mp;
}

__device__ __forceinline__ void warp_kl_merge(KlState& s) {
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    KlState t;
    t.mq = __shfl_xor(s.mq, o);
    t.zq = __shfl_xor(s.zq, o);
    t.a = __shfl_xor(s.a, o);
    t.mp = __shfl_xor(s.mp, o);
    t.zp = __shfl_xor(s.zp, o);
    kl_merge(s, t);
  }
}

__device__ __forceinline__ float kl_value(const KlState& s) {
  return (s.a / s.zq + (s.mp - s.mq)) + logf(s.zp / s.zq);
}

template <int VEC>
__device__ __forceinline__ void load_vec(const float* x, int k, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = reinterpret_cast<const float4*>(x)[k];
    v[0] = t.x;
    v[1] = t.y;
    v[2] = t.z;
    v[3] = t.w;
  } else {
    v[0] = x[k];
  }
}

// Adds the vectors first, first + step, ... < nv of one row (vectors of VEC floats), four
// vectors of each input in flight.
template <int VEC>
__device__ __forceinline__ void row_partial(KlState& s, const float* __restrict__ p, const float* __restrict__ q,
                                            int nv, int first, int step) {
  int k = first;
  for (; k + 3 * step < nv; k += 4 * step) {
    float vp[4 * VEC], vq[4 * VEC];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      load_vec<VEC>(p, k + u * step, vp + u * VEC);
      load_vec<VEC>(q, k + u * step, vq + u * VEC);
    }
    kl_add<4 * VEC>(s, vp, vq);
  }
  for (; k < nv; k += step) {
    float vp[VEC], vq[VEC];
    load_vec<VEC>(p, k, vp);
    load_vec<VEC>(q, k, vq);
    kl_add<VEC>(s, vp, vq);
  }
}

// One warp per row.
template <int VEC>
__global__ void __launch_bounds__(WARP_BLOCK) kl_rows_warp(const float* __restrict__ p, const float* __restrict__ q,
                                                           float* __restrict__ loss, int64_t rows, int n) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  if (row >= rows) return;  // the whole warp leaves together
  KlState s = kl_empty();
  row_partial<VEC>(s, p + row * n, q + row * n, n / VEC, lane, ws);
  warp_kl_merge(s);
  if (lane == 0) loss[row] = kl_value(s);
}

// One block per row.
template <int VEC>
__global__ void __launch_bounds__(1024) kl_rows_block(const float* __restrict__ p, const float* __restrict__ q,
                                                      float* __restrict__ loss, int n) {
  __shared__ KlState red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  KlState s = kl_empty();
  row_partial<VEC>(s, p + row * n, q + row * n, n / VEC, threadIdx.x, blockDim.x);
  warp_kl_merge(s);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nwarps = blockDim.x / warpSize;
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < nwarps; ++w) kl_merge(s, red[w]);  // s holds warp 0's state
    loss[row] = kl_value(s);
  }
}

template <int VEC>
static void launch(const float* p, const float* q, float* loss, int64_t rows, int n, int ws, hipStream_t stream) {
  if (n <= WARP_ROW_MAX) {
    const int per_block = WARP_BLOCK / ws;
    const int64_t grid = (rows + per_block - 1) / per_block;
    hipLaunchKernelGGL(kl_rows_warp<VEC>, dim3((unsigned)grid), dim3(WARP_BLOCK), 0, stream, p, q, loss, rows, n);
  } else {
    const int threads = n >= 65536 ? 1024 : (n >= 16384 ? 512 : 256);
    hipLaunchKernelGGL(kl_rows_block<VEC>, dim3((unsigned)rows), dim3(threads), 0, stream, p, q, loss, n);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* p = static_cast<const float*>(a->tensors[0]);
  const float* q = static_cast<const float*>(a->tensors[1]);
  float* loss = static_cast<float*>(a->tensors[2]);
  const int64_t rows = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const bool vec4 = n % 4 == 0 && ((uintptr_t)p & 15) == 0 && ((uintptr_t)q & 15) == 0;
  if (vec4) launch<4>(p, q, loss, rows, n, ws, a->stream);
  else launch<1>(p, q, loss, rows, n, ws, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

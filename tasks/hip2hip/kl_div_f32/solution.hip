// Per-row KL(softmax(p) || softmax(q)) over fp32 logits in one read of each row:
//   KL = S / Zp + (mq - mp) + log Zq - log Zp,
//   Zp = sum_j e^(p_j - mp),  Zq = sum_j e^(q_j - mq),  S = sum_j e^(p_j - mp) (p_j - q_j),
// which is sum_j P_j (log P_j - log Q_j) written with log-softmax values (sum_j P_j = 1), never
// forming P_j, Q_j or their logarithms. Every thread keeps running maxima mp, mq and the sums
// Zp, S (rescaled together when mp grows) and Zq (when mq grows), once per batch of values;
// the partial states merge by shuffles and shared memory.
//  - rows of up to 32 * warpSize: one warp per row, coalesced scalar loads (four per input in
//    flight per lane), several rows per block;
//  - longer rows: one block of 256 threads per row; the first (up to 3) values before a
//    16-byte boundary and the last (up to 3) after the final whole float4 are scalar, the body
//    16-byte float4 loads of both inputs (p and q rows share their alignment), four of each in
//    flight per thread.
// exp is the hardware approximation (__expf), well inside the tolerance. Works with 32- and
// 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS 32  // 1024 threads / 32 lanes

struct State {
  float mp, zp, s, mq, zq;
};

__device__ __forceinline__ State empty_state() {
  State a;
  a.mp = -INFINITY;
  a.zp = 0.0f;
  a.s = 0.0f;
  a.mq = -INFINITY;
  a.zq = 0.0f;
  return a;
}

// Add K (p, q) pairs.
template <int K>
__device__ __forceinline__ void add(State& a, const float* p, const float* q) {
  float bp = p[0], bq = q[0];
#pragma unroll
  for (int k = 1; k < K; ++k) {
    bp = fmaxf(bp, p[k]);
    bq = fmaxf(bq, q[k]);
  }
  if (bp > a.mp) {
    const float f = (a.mp == -INFINITY) ? 0.0f : __expf(a.mp - bp);
    a.zp *= f;
    a.s *= f;
    a.mp = bp;
  }
  if (bq > a.mq) {
    a.zq = (a.mq == -INFINITY) ? 0.0f : a.zq * __expf(a.mq - bq);
    a.mq = bq;
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const float e = __expf(p[k] - a.mp);
    a.zp += e;
    a.s += e * (p[k] - q[k]);
    a.zq += __expf(q[k] - a.mq);
  }
}

__device__ __forceinline__ void merge(State& a, const State& b) {
  if (b.mp != -INFINITY) {
    if (a.mp == -INFINITY) {
      a.mp = b.mp;
      a.zp = b.zp;
      a.s = b.s;
    } else {
      const float mx = fmaxf(a.mp, b.mp);
      const float fa = __expf(a.mp - mx), fb = __expf(b.mp - mx);
      a.zp = a.zp * fa + b.zp * fb;
      a.s = a.s * fa + b.s * fb;
      a.mp = mx;
    }
  }
  if (b.mq != -INFINITY) {
    if (a.mq == -INFINITY) {
      a.mq = b.mq;
      a.zq = b.zq;
    } else {
      const float mx = fmaxf(a.mq, b.mq);
      a.zq = a.zq * __expf(a.mq - mx) + b.zq * __expf(b.mq - mx);
      a.mq = mx;
    }
  }
}

__device__ __forceinline__ void warp_merge(State& a) {
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    State b;
    b.mp = __shfl_xor(a.mp, o);
    b.zp = __shfl_xor(a.zp, o);
    b.s = __shfl_xor(a.s, o);
    b.mq = __shfl_xor(a.mq, o);
    b.zq = __shfl_xor(a.zq, o);
    merge(a, b);
  }
}

__device__ __forceinline__ float result(const State& a) {
  return a.s / a.zp + ((a.mq - a.mp) + (logf(a.zq) - logf(a.zp)));
}

// One warp per row.
__global__ void __launch_bounds__(THREADS) kl_warp(const float* __restrict__ p, const float* __restrict__ q,
                                                   float* __restrict__ kl, int64_t rows, int n) {
  const int lane = threadIdx.x % warpSize;
  const int ws = warpSize;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  State a = empty_state();
  if (row < rows) {
    const float* pr = p + row * n;
    const float* qr = q + row * n;
    int j = lane;
    for (; j + 3 * ws < n; j += 4 * ws) {
      float tp[4], tq[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        tp[u] = pr[j + u * ws];
        tq[u] = qr[j + u * ws];
      }
      add<4>(a, tp, tq);
    }
    for (; j < n; j += ws) add<1>(a, pr + j, qr + j);
  }
  warp_merge(a);  // every lane takes part, also those of rows past the end
  if (row < rows && lane == 0) kl[row] = result(a);
}

// One block per row.
__global__ void __launch_bounds__(THREADS) kl_block(const float* __restrict__ p, const float* __restrict__ q,
                                                    float* __restrict__ kl, int n) {
  __shared__ State sh[MAX_WARPS];
  const int tid = threadIdx.x;
  const int T = blockDim.x;
  const int64_t row = blockIdx.x;
  const float* pr = p + row * n;
  const float* qr = q + row * n;
  // p and q are 256-byte aligned: both rows start (row * n) % 4 floats past a 16-byte boundary.
  int head = (4 - (int)((row * n) & 3)) & 3;
  if (head > n) head = n;
  const int nvec = (n - head) / 4;
  const int tail = head + 4 * nvec;  // first column after the body
  const float4* p4 = reinterpret_cast<const float4*>(pr + head);
  const float4* q4 = reinterpret_cast<const float4*>(qr + head);

  State a = empty_state();
  if (tid < head) add<1>(a, pr + tid, qr + tid);
  if (tid < n - tail) add<1>(a, pr + tail + tid, qr + tail + tid);
  int k = tid;
  for (; k + 3 * T < nvec; k += 4 * T) {
    float tp[16], tq[16];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const float4 vp = p4[k + u * T], vq = q4[k + u * T];
      tp[4 * u] = vp.x; tp[4 * u + 1] = vp.y; tp[4 * u + 2] = vp.z; tp[4 * u + 3] = vp.w;
      tq[4 * u] = vq.x; tq[4 * u + 1] = vq.y; tq[4 * u + 2] = vq.z; tq[4 * u + 3] = vq.w;
    }
    add<16>(a, tp, tq);
  }
  for (; k < nvec; k += T) {
    const float4 vp = p4[k], vq = q4[k];
    const float tp[4] = {vp.x, vp.y, vp.z, vp.w};
    const float tq[4] = {vq.x, vq.y, vq.z, vq.w};
    add<4>(a, tp, tq);
  }

  warp_merge(a);
  const int lane = tid % warpSize, warp = tid / warpSize, nwarps = T / warpSize;
  if (lane == 0) sh[warp] = a;
  __syncthreads();
  if (tid == 0) {
    for (int w = 1; w < nwarps; ++w) merge(a, sh[w]);  // a holds warp 0's state
    kl[row] = result(a);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* p = static_cast<const float*>(a->tensors[0]);
  const float* q = static_cast<const float*>(a->tensors[1]);
  float* kl = static_cast<float*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (n <= 32 * ws) {
    const int rows = THREADS / ws;
    const int64_t grid = (m + rows - 1) / rows;
    hipLaunchKernelGGL(kl_warp, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, p, q, kl, m, n);
  } else {
    hipLaunchKernelGGL(kl_block, dim3((unsigned)m), dim3(THREADS), 0, a->stream, p, q, kl, n);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

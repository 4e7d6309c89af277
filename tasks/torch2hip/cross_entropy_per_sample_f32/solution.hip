// Per-sample cross-entropy in one read of the logits. Eager PyTorch writes the whole
// log_softmax matrix and reads it back in nll_loss; here every thread keeps a running maximum m
// and a sum s of exp(x - m), rescaled only when a batch of values raises the maximum, the
// (m, s) pairs merge by shuffles and shared memory, and loss = m + log(s) - x[target]: one read
// of the logits, one float written per row.
//  - rows of up to 32 * warpSize logits: one warp per row, several rows per block, four
//    coalesced scalar loads in flight per lane;
//  - longer rows: one block per row; scalar loads up to the row's first 16-byte boundary, then
//    float4 loads (four in flight per thread), then a scalar tail.
// __expf's few-ulp error is far below the tolerance. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define WARP_BLOCK 256
#define MAX_WARPS 32  // 1024 threads / 32 lanes

// Adds K values to the running (m, s); an empty state is m = -inf, s = 0.
template <int K>
__device__ __forceinline__ void lse_add(float& m, float& s, const float* v) {
  float bm = v[0];
#pragma unroll
  for (int k = 1; k < K; ++k) bm = fmaxf(bm, v[k]);
  if (bm > m) {
    s = (m == -INFINITY) ? 0.0f : s * __expf(m - bm);
    m = bm;
  }
#pragma unroll
  for (int k = 0; k < K; ++k) s += __expf(v[k] - m);
}

__device__ __forceinline__ void lse_merge(float& m, float& s, float m2, float s2) {
  if (m2 == -INFINITY) return;
  if (m == -INFINITY) {
    m = m2;
    s = s2;
    return;
  }
  const float mx = fmaxf(m, m2);
  s = s * __expf(m - mx) + s2 * __expf(m2 - mx);
  m = mx;
}

__device__ __forceinline__ void warp_lse_merge(float& m, float& s) {
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    const float m2 = __shfl_xor(m, o), s2 = __shfl_xor(s, o);
    lse_merge(m, s, m2, s2);
  }
}

// One warp per row.
__global__ void __launch_bounds__(WARP_BLOCK) ce_warp(const float* __restrict__ x,
                                                      const int64_t* __restrict__ target,
                                                      float* __restrict__ loss, int64_t rows, int c) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  if (row >= rows) return;  // the whole warp leaves together
  const float* xr = x + row * c;
  float m = -INFINITY, s = 0.0f;
  int j = lane;
  for (; j + 3 * ws < c; j += 4 * ws) {
    float t[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) t[u] = xr[j + u * ws];
    lse_add<4>(m, s, t);
  }
  for (; j < c; j += ws) lse_add<1>(m, s, xr + j);
  warp_lse_merge(m, s);
  if (lane == 0) loss[row] = (m + logf(s)) - xr[target[row]];
}

// One block per row.
__global__ void __launch_bounds__(1024) ce_block(const float* __restrict__ x, const int64_t* __restrict__ target,
                                                 float* __restrict__ loss, int c) {
  __shared__ float sm[MAX_WARPS], ss[MAX_WARPS];
  const int tid = threadIdx.x;
  const int T = blockDim.x;
  const int64_t row = blockIdx.x;
  const float* xr = x + row * c;
  // Logits before the row's first 16-byte boundary, float4 body, scalar tail.
  int head = (int)(((16u - ((uintptr_t)xr & 15u)) & 15u) / 4u);
  if (head > c) head = c;
  const int nvec = (c - head) / 4;
  const int tail = head + 4 * nvec;
  const float4* body = reinterpret_cast<const float4*>(xr + head);

  float m = -INFINITY, s = 0.0f;
  if (tid < head) lse_add<1>(m, s, xr + tid);
  if (tid < c - tail) lse_add<1>(m, s, xr + tail + tid);
  int k = tid;
  for (; k + 3 * T < nvec; k += 4 * T) {
    float t[16];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const float4 q = body[k + u * T];
      t[4 * u] = q.x;
      t[4 * u + 1] = q.y;
      t[4 * u + 2] = q.z;
      t[4 * u + 3] = q.w;
    }
    lse_add<16>(m, s, t);
  }
  for (; k < nvec; k += T) {
    const float4 q = body[k];
    const float t[4] = {q.x, q.y, q.z, q.w};
    lse_add<4>(m, s, t);
  }

  warp_lse_merge(m, s);
  const int lane = tid % warpSize, warp = tid / warpSize, nwarps = T / warpSize;
  if (lane == 0) {
    sm[warp] = m;
    ss[warp] = s;
  }
  __syncthreads();
  if (tid == 0) {
    for (int w = 1; w < nwarps; ++w) lse_merge(m, s, sm[w], ss[w]);  // m, s hold warp 0's
    loss[row] = (m + logf(s)) - xr[target[row]];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const int64_t* target = static_cast<const int64_t*>(a->tensors[1]);
  float* loss = static_cast<float*>(a->tensors[2]);
  const int64_t rows = a->ints[0];
  const int c = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (c <= 32 * ws) {
    const int per_block = WARP_BLOCK / ws;
    const int64_t grid = (rows + per_block - 1) / per_block;
    hipLaunchKernelGGL(ce_warp, dim3((unsigned)grid), dim3(WARP_BLOCK), 0, a->stream, x, target, loss, rows, c);
  } else {
    // More threads for longer rows, so that few long rows still keep enough loads in flight.
    const int threads = c >= 65536 ? 1024 : (c >= 8192 ? 512 : 256);
    hipLaunchKernelGGL(ce_block, dim3((unsigned)rows), dim3(threads), 0, a->stream, x, target, loss, c);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

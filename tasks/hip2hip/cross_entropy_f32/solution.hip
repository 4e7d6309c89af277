// Per-row softmax cross-entropy over fp32 logits in one read of each row (online
// logsumexp): every thread keeps a running maximum and a sum of exp(x - max) rescaled whenever
// the maximum grows (once per batch of values, not per value), and the partial pairs
// (max, sum) merge by shuffles and shared memory; the loss is max + log(sum) - x[target].
//  - rows of up to 32 * warpSize logits: one warp per row, coalesced scalar loads (four in
//    flight per lane), several rows per block;
//  - longer rows: one block per row (256 threads; 512 from 8192 logits on, so that few long
//    rows still keep enough loads in flight). A row of any length V starts anywhere modulo
//    16 bytes, so the first (up to 3) logits before a 16-byte boundary and the last (up to 3)
//    after the final whole float4 are read as scalars and the body as 16-byte float4 loads,
//    four in flight per thread.
// exp is the hardware approximation (__expf): its few-ulp error on terms with x - max of a few
// units is far below the tolerance. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define BIG_THREADS 512
#define MAX_WARPS 32  // 1024 threads / 32 lanes

// Add K values to the running (m, s).
template <int K>
__device__ __forceinline__ void online(float& m, float& s, const float* v) {
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

// Merge (m2, s2) into (m, s); an empty side has m = -inf and s = 0.
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
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

__device__ __forceinline__ void warp_merge(float& m, float& s) {
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    const float m2 = __shfl_xor(m, o), s2 = __shfl_xor(s, o);
    merge(m, s, m2, s2);
  }
}

// One warp per row.
__global__ void __launch_bounds__(THREADS) ce_warp(const float* __restrict__ x, const int* __restrict__ target,
                                                   float* __restrict__ loss, int64_t rows, int v) {
  const int lane = threadIdx.x % warpSize;
  const int ws = warpSize;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  float m = -INFINITY, s = 0.0f;
  if (row < rows) {
    const float* xr = x + row * v;
    int j = lane;
    for (; j + 3 * ws < v; j += 4 * ws) {
      float t[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) t[u] = xr[j + u * ws];
      online<4>(m, s, t);
    }
    for (; j < v; j += ws) online<1>(m, s, xr + j);
  }
  warp_merge(m, s);  // every lane takes part, also those of rows past the end
  if (row < rows && lane == 0) loss[row] = (m + logf(s)) - x[row * v + target[row]];
}

// One block per row.
__global__ void __launch_bounds__(BIG_THREADS) ce_block(const float* __restrict__ x, const int* __restrict__ target,
                                                    float* __restrict__ loss, int v) {
  __shared__ float sm[MAX_WARPS], ss[MAX_WARPS];
  const int tid = threadIdx.x;
  const int T = blockDim.x;
  const int64_t row = blockIdx.x;
  const float* xr = x + row * v;
  // x is 256-byte aligned, so the row starts (row * v) % 4 floats past a 16-byte boundary.
  int head = (4 - (int)((row * v) & 3)) & 3;
  if (head > v) head = v;
  const int nvec = (v - head) / 4;
  const int tail = head + 4 * nvec;  // first logit after the body
  const float4* body = reinterpret_cast<const float4*>(xr + head);

  float m = -INFINITY, s = 0.0f;
  if (tid < head) online<1>(m, s, xr + tid);
  if (tid < v - tail) online<1>(m, s, xr + tail + tid);
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
    online<16>(m, s, t);
  }
  for (; k < nvec; k += T) {
    const float4 q = body[k];
    const float t[4] = {q.x, q.y, q.z, q.w};
    online<4>(m, s, t);
  }

  warp_merge(m, s);
  const int lane = tid % warpSize, warp = tid / warpSize, nwarps = T / warpSize;
  if (lane == 0) {
    sm[warp] = m;
    ss[warp] = s;
  }
  __syncthreads();
  if (tid == 0) {
    for (int w = 1; w < nwarps; ++w) merge(m, s, sm[w], ss[w]);  // m, s hold warp 0's
    loss[row] = (m + logf(s)) - xr[target[row]];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const int* target = static_cast<const int*>(a->tensors[1]);
  float* loss = static_cast<float*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int v = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (v <= 32 * ws) {
    const int rows = THREADS / ws;
    const int64_t grid = (m + rows - 1) / rows;
    hipLaunchKernelGGL(ce_warp, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, target, loss, m, v);
  } else {
    const int threads = v >= 8192 ? BIG_THREADS : THREADS;
    hipLaunchKernelGGL(ce_block, dim3((unsigned)m), dim3(threads), 0, a->stream, x, target, loss, v);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// mean((p - t)^2) over two fp32 matrices, in one read of each (eager PyTorch writes the
// difference, writes its square, then reduces: six matrix-sized passes over memory).
//  1. a device-filling grid with a grid stride, 16-byte loads of both inputs (two vectors of
//     each in flight per thread), one partial sum per block to the workspace;
//  2. one block adds the partials in a fixed order and divides by the element count.
// The flat buffers are n / 4 float4 vectors plus a scalar tail of n % 4 values.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS (THREADS / 32)
#define MAX_PARTIALS 2048

__device__ __forceinline__ float block_sum(float v, float* red) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nw = blockDim.x / warpSize;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float s = 0.0f;
  for (int w = 0; w < nw; ++w) s += red[w];
  return s;
}

__device__ __forceinline__ void add_sq_diff(float4& acc, const float4 p, const float4 t) {
  const float dx = p.x - t.x, dy = p.y - t.y, dz = p.z - t.z, dw = p.w - t.w;
  acc.x = fmaf(dx, dx, acc.x);
  acc.y = fmaf(dy, dy, acc.y);
  acc.z = fmaf(dz, dz, acc.z);
  acc.w = fmaf(dw, dw, acc.w);
}

__global__ void __launch_bounds__(THREADS) sq_diff_partials(const float* __restrict__ p, const float* __restrict__ t,
                                                            float* __restrict__ partial, int64_t n) {
  __shared__ float red[MAX_WARPS];
  const int64_t nvec = n / 4;
  const int64_t stride = (int64_t)gridDim.x * THREADS;
  const int64_t g = (int64_t)blockIdx.x * THREADS + threadIdx.x;
  const float4* pv = reinterpret_cast<const float4*>(p);
  const float4* tv = reinterpret_cast<const float4*>(t);
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  int64_t i = g;
  for (; i + stride < nvec; i += 2 * stride) {
    const float4 p0 = pv[i], t0 = tv[i], p1 = pv[i + stride], t1 = tv[i + stride];
    add_sq_diff(acc, p0, t0);
    add_sq_diff(acc, p1, t1);
  }
  if (i < nvec) add_sq_diff(acc, pv[i], tv[i]);
  if (g < n - nvec * 4) {  // the scalar tail
    const float d = p[nvec * 4 + g] - t[nvec * 4 + g];
    acc.x = fmaf(d, d, acc.x);
  }
  const float s = block_sum((acc.x + acc.y) + (acc.z + acc.w), red);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

__global__ void __launch_bounds__(THREADS) finish_mean(const float* __restrict__ partial, int nparts, float* __restrict__ y,
                                                       int64_t n) {
  __shared__ float red[MAX_WARPS];
  float s = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += THREADS) s += partial[i];
  s = block_sum(s, red);
  if (threadIdx.x == 0) y[0] = s / (float)n;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args*) { return MAX_PARTIALS * sizeof(float); }

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* p = static_cast<const float*>(a->tensors[0]);
  const float* t = static_cast<const float*>(a->tensors[1]);
  float* y = static_cast<float*>(a->tensors[2]);
  const int64_t n = a->ints[0] * a->ints[1];
  float* partial = static_cast<float*>(a->workspace);
  if (a->workspace_bytes < MAX_PARTIALS * sizeof(float)) return 1;
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  if (sms < 1) sms = 1;
  // Enough blocks for every vector (and the tail) to have a thread, at most 8 per multiprocessor.
  const int64_t need = (n / 4 + THREADS - 1) / THREADS + 1;
  int64_t grid = (int64_t)sms * 8;
  if (grid > need) grid = need;
  if (grid > MAX_PARTIALS) grid = MAX_PARTIALS;
  hipLaunchKernelGGL(sq_diff_partials, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, p, t, partial, n);
  hipLaunchKernelGGL(finish_mean, dim3(1), dim3(THREADS), 0, a->stream, partial, (int)grid, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

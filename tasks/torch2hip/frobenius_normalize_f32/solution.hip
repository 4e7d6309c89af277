// y = x / ||x||_F over a whole fp32 tensor, in two kernels and the fewest passes the math
// allows (x read twice, y written once):
//  1. a device-filling grid sums squares with 16-byte loads and a grid stride, one partial
//     sum per block to the workspace;
//  2. every block of the second kernel adds the (few hundred) partials itself in the same
//     fixed order, so all blocks hold the same norm without a third launch, and then divides
//     its share of x. It walks x from the end backwards: the first kernel read the end last,
//     so that part is still in L2.
// The flat buffer is treated as n / 4 float4 vectors plus a scalar tail of n % 4 values.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS (THREADS / 32)
#define MAX_PARTIALS 2048

__device__ __forceinline__ float block_sum(float v, float* red) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nw = blockDim.x / warpSize;
  __syncthreads();  // red may still be read from a previous call
  if (lane == 0) red[warp] = v;
  __syncthreads();
  float s = 0.0f;
  for (int w = 0; w < nw; ++w) s += red[w];
  return s;
}

__global__ void __launch_bounds__(THREADS) sumsq_partials(const float* __restrict__ x, float* __restrict__ partial,
                                                          int64_t n) {
  __shared__ float red[MAX_WARPS];
  const int64_t nvec = n / 4;
  const int64_t stride = (int64_t)gridDim.x * THREADS;
  const int64_t t = (int64_t)blockIdx.x * THREADS + threadIdx.x;
  const float4* xv = reinterpret_cast<const float4*>(x);
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  int64_t i = t;
  for (; i + stride < nvec; i += 2 * stride) {  // two loads in flight per thread
    const float4 a = xv[i], b = xv[i + stride];
    acc.x = fmaf(a.x, a.x, acc.x);
    acc.y = fmaf(a.y, a.y, acc.y);
    acc.z = fmaf(a.z, a.z, acc.z);
    acc.w = fmaf(a.w, a.w, acc.w);
    acc.x = fmaf(b.x, b.x, acc.x);
    acc.y = fmaf(b.y, b.y, acc.y);
    acc.z = fmaf(b.z, b.z, acc.z);
    acc.w = fmaf(b.w, b.w, acc.w);
  }
  if (i < nvec) {
    const float4 a = xv[i];
    acc.x = fmaf(a.x, a.x, acc.x);
    acc.y = fmaf(a.y, a.y, acc.y);
    acc.z = fmaf(a.z, a.z, acc.z);
    acc.w = fmaf(a.w, a.w, acc.w);
  }
  if (t < n - nvec * 4) {  // the scalar tail
    const float v = x[nvec * 4 + t];
    acc.x = fmaf(v, v, acc.x);
  }
  const float s = block_sum((acc.x + acc.y) + (acc.z + acc.w), red);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

__global__ void __launch_bounds__(THREADS) divide_by_norm(const float* __restrict__ x, float* __restrict__ y,
                                                          const float* __restrict__ partial, int nparts, int64_t n) {
  __shared__ float red[MAX_WARPS];
  float s = 0.0f;
  for (int p = threadIdx.x; p < nparts; p += THREADS) s += partial[p];
  const float norm = sqrtf(block_sum(s, red));

  const int64_t nvec = n / 4;
  const int64_t stride = (int64_t)gridDim.x * THREADS;
  const int64_t t = (int64_t)blockIdx.x * THREADS + threadIdx.x;
  const float4* xv = reinterpret_cast<const float4*>(x);
  float4* yv = reinterpret_cast<float4*>(y);
  for (int64_t r = t; r < nvec; r += stride) {  // r counts from the end
    const int64_t i = nvec - 1 - r;
    const float4 a = xv[i];
    yv[i] = make_float4(a.x / norm, a.y / norm, a.z / norm, a.w / norm);
  }
  if (t < n - nvec * 4) y[nvec * 4 + t] = x[nvec * 4 + t] / norm;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args*) { return MAX_PARTIALS * sizeof(float); }

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t n = a->ints[0] * a->ints[1] * a->ints[2] * a->ints[3];
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
  hipLaunchKernelGGL(sumsq_partials, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, partial, n);
  hipLaunchKernelGGL(divide_by_norm, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, y, partial, (int)grid, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

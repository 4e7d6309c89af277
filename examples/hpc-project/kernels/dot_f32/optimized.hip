// Dot product: a first kernel zeroes out; then a grid of a few blocks per multiprocessor
// streams x and y with 16-byte loads (grid-stride, scalar tail), each thread keeping a
// running sum; warp shuffles and one shared slot per warp reduce a block to one value, added
// into out with a single atomicAdd per block. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS 32
#define MAX_BLOCKS 2048

__global__ void zero_kernel(float* out) { out[0] = 0.0f; }

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

__global__ void dot_kernel(const float* __restrict__ x, const float* __restrict__ y, float* out, int64_t n) {
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  float s = 0.0f;
  int64_t done = 0;
  if (((uintptr_t)x % 16) == 0 && ((uintptr_t)y % 16) == 0) {
    const int64_t n4 = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    for (int64_t i = tid; i < n4; i += stride) {
      const float4 a = x4[i], b = y4[i];
      s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    done = n4 * 4;
  }
  for (int64_t i = done + tid; i < n; i += stride) s += x[i] * y[i];

  __shared__ float red[MAX_WARPS];
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  s = warp_sum(s);
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = 0.0f;
    for (int k = 0; k < (int)(blockDim.x / warpSize); ++k) r += red[k];
    atomicAdd(out, r);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* y = static_cast<const float*>(a->tensors[1]);
  float* out = static_cast<float*>(a->tensors[2]);
  const int64_t n = a->ints[0];
  int64_t blocks = (n + THREADS * 4 - 1) / (THREADS * 4);
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  hipLaunchKernelGGL(zero_kernel, dim3(1), dim3(1), 0, a->stream, out);
  hipLaunchKernelGGL(dot_kernel, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, y, out, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Dot product: a first kernel zeroes out; then one element per thread, a shared-memory tree
// with interleaved addressing per block of 256 (a __syncthreads per level, most threads
// idle), and one atomicAdd per block into out.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void zero_kernel(float* out) { out[0] = 0.0f; }

__global__ void dot_kernel(const float* x, const float* y, float* out, int64_t n) {
  __shared__ float s[BLOCK];
  const int64_t i = (int64_t)blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] * y[i] : 0.0f;
  __syncthreads();
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    if (threadIdx.x % (2 * stride) == 0) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* y = static_cast<const float*>(a->tensors[1]);
  float* out = static_cast<float*>(a->tensors[2]);
  const int64_t n = a->ints[0];
  const int64_t grid = (n + BLOCK - 1) / BLOCK;
  hipLaunchKernelGGL(zero_kernel, dim3(1), dim3(1), 0, a->stream, out);
  hipLaunchKernelGGL(dot_kernel, dim3((unsigned)grid), dim3(BLOCK), 0, a->stream, x, y, out, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

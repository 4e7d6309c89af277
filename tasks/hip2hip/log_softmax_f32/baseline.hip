// Row log-softmax over an M x N fp32 matrix: one block per row, three passes over the row in
// global memory (max, sum of exp(x - max), write x - max - log(sum)), each reduction a
// shared-memory tree.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void log_softmax_kernel(const float* x, float* y, int n) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const float* xr = x + (int64_t)blockIdx.x * n;
  float* yr = y + (int64_t)blockIdx.x * n;

  // Pass 1: row maximum.
  float m = -INFINITY;
  for (int j = tid; j < n; j += blockDim.x) m = fmaxf(m, xr[j]);
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();

  // Pass 2: sum of exp(x - max).
  float sum = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) sum += expf(xr[j] - m);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float lse = logf(red[0]);

  // Pass 3: y = x - max - log(sum).
  for (int j = tid; j < n; j += blockDim.x) yr[j] = (xr[j] - m) - lse;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  hipLaunchKernelGGL(log_softmax_kernel, dim3((unsigned)m), dim3(BLOCK), 0, a->stream, x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Per-row softmax cross-entropy over fp32 logits: one block per row, two passes over the row
// in global memory (the maximum, then the sum of exp(x - max)), each reduced by a
// shared-memory tree; thread 0 writes max + log(sum) - x[target].
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void cross_entropy_kernel(const float* x, const int* target, float* loss, int v) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t row = blockIdx.x;
  const float* xr = x + row * v;

  // Pass 1: row maximum.
  float m = -INFINITY;
  for (int j = tid; j < v; j += blockDim.x) m = fmaxf(m, xr[j]);
  red[tid] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] = fmaxf(red[tid], red[tid + k]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();

  // Pass 2: sum of exp(x - max).
  float s = 0.0f;
  for (int j = tid; j < v; j += blockDim.x) s += expf(xr[j] - m);
  red[tid] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  if (tid == 0) loss[row] = (m + logf(red[0])) - xr[target[row]];
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const int* target = static_cast<const int*>(a->tensors[1]);
  float* loss = static_cast<float*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int v = (int)a->ints[1];
  hipLaunchKernelGGL(cross_entropy_kernel, dim3((unsigned)m), dim3(BLOCK), 0, a->stream, x, target, loss, v);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

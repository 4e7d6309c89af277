// Scaled causal softmax over fp16 scores [BH, S, S]: one block per row; three passes over the
// row's unmasked columns j <= i in global memory (max, sum of exp, normalize) with scalar
// 2-byte loads and stores, each reduction a shared-memory tree, then a separate loop writes
// the zeros above the diagonal. fp32 math.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void causal_softmax_kernel(const __half* s, __half* y, int n, float scale) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t row = blockIdx.x;
  const int len = (int)(row % n) + 1;  // row i keeps columns 0..i
  const __half* sr = s + row * n;
  __half* yr = y + row * n;

  // Pass 1: maximum of the scaled scores.
  float m = -INFINITY;
  for (int j = tid; j < len; j += blockDim.x) m = fmaxf(m, scale * __half2float(sr[j]));
  red[tid] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] = fmaxf(red[tid], red[tid + k]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();

  // Pass 2: sum of exp(scaled score - max).
  float sum = 0.0f;
  for (int j = tid; j < len; j += blockDim.x) sum += expf(scale * __half2float(sr[j]) - m);
  red[tid] = sum;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  sum = red[0];

  // Pass 3: normalize the kept columns.
  for (int j = tid; j < len; j += blockDim.x) yr[j] = __float2half(expf(scale * __half2float(sr[j]) - m) / sum);
  // Masked columns.
  for (int j = len + tid; j < n; j += blockDim.x) yr[j] = __float2half(0.0f);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* s = static_cast<const __half*>(a->tensors[0]);
  __half* y = static_cast<__half*>(a->tensors[1]);
  const int64_t bh = a->ints[0];
  const int n = (int)a->ints[1];
  const float scale = (float)a->floats[0];
  hipLaunchKernelGGL(causal_softmax_kernel, dim3((unsigned)(bh * n)), dim3(BLOCK), 0, a->stream, s, y, n, scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Layer normalization over the rows of an M x N fp32 matrix: one block per row, three
// passes over the row in global memory (mean, variance about the mean, normalize), each
// reduction a shared-memory tree.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void layernorm_rows_kernel(const float* x, const float* gamma, const float* beta, float* y, int n,
                                      float eps) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const float* xr = x + (int64_t)blockIdx.x * n;
  float* yr = y + (int64_t)blockIdx.x * n;

  // Pass 1: mean.
  float s = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) s += xr[j];
  red[tid] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  const float mean = red[0] / n;
  __syncthreads();

  // Pass 2: biased variance about the mean.
  float q = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) {
    const float d = xr[j] - mean;
    q += d * d;
  }
  red[tid] = q;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  const float rstd = 1.0f / sqrtf(red[0] / n + eps);

  // Pass 3: normalize, scale and shift.
  for (int j = tid; j < n; j += blockDim.x) yr[j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* gamma = static_cast<const float*>(a->tensors[1]);
  const float* beta = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const float eps = (float)a->floats[0];
  hipLaunchKernelGGL(layernorm_rows_kernel, dim3((unsigned)m), dim3(BLOCK), 0, a->stream, x, gamma, beta, y, n,
                     eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

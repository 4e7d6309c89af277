// Group normalization over fp32 [B, C, HW]: one block per (batch, group), three passes over
// the group's CPG * HW contiguous values in global memory (mean, variance about the mean,
// normalize with the channel's gamma and beta), each reduction a shared-memory tree.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void groupnorm_kernel(const float* x, const float* gamma, const float* beta, float* y, int groups_per_batch,
                                 int cpg, int hw, float eps) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int g = (int)(blockIdx.x % groups_per_batch);
  const int n = cpg * hw;  // values per group
  const float* xg = x + (int64_t)blockIdx.x * n;
  float* yg = y + (int64_t)blockIdx.x * n;

  // Pass 1: mean.
  float s = 0.0f;
  for (int e = tid; e < n; e += blockDim.x) s += xg[e];
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
  for (int e = tid; e < n; e += blockDim.x) {
    const float d = xg[e] - mean;
    q += d * d;
  }
  red[tid] = q;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  const float rstd = 1.0f / sqrtf(red[0] / n + eps);

  // Pass 3: normalize, then the per-channel scale and shift.
  for (int e = tid; e < n; e += blockDim.x) {
    const int c = g * cpg + e / hw;
    yg[e] = (xg[e] - mean) * rstd * gamma[c] + beta[c];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* gamma = static_cast<const float*>(a->tensors[1]);
  const float* beta = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t b = a->ints[0];
  const int g = (int)a->ints[1];
  const int cpg = (int)a->ints[2];
  const int hw = (int)a->ints[3];
  const float eps = (float)a->floats[0];
  hipLaunchKernelGGL(groupnorm_kernel, dim3((unsigned)(b * g)), dim3(BLOCK), 0, a->stream, x, gamma, beta, y, g, cpg,
                     hw, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Per-channel mean and biased variance of an fp32 [B, C, HW] tensor: one block per channel,
// two passes over the channel's B slices in global memory (the mean, then the squared
// deviations about it), each reduced by a shared-memory tree.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void channel_stats_kernel(const float* x, float* mean, float* var, int B, int C, int HW) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int c = blockIdx.x;
  const float n = (float)((int64_t)B * HW);

  // Pass 1: mean.
  float s = 0.0f;
  for (int b = 0; b < B; ++b) {
    const float* xb = x + ((int64_t)b * C + c) * HW;
    for (int i = tid; i < HW; i += blockDim.x) s += xb[i];
  }
  red[tid] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  const float mu = red[0] / n;
  __syncthreads();

  // Pass 2: biased variance about the mean.
  float q = 0.0f;
  for (int b = 0; b < B; ++b) {
    const float* xb = x + ((int64_t)b * C + c) * HW;
    for (int i = tid; i < HW; i += blockDim.x) {
      const float d = xb[i] - mu;
      q += d * d;
    }
  }
  red[tid] = q;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  if (tid == 0) {
    mean[c] = mu;
    var[c] = red[0] / n;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* mean = static_cast<float*>(a->tensors[1]);
  float* var = static_cast<float*>(a->tensors[2]);
  const int B = (int)a->ints[0], C = (int)a->ints[1], HW = (int)a->ints[2];
  hipLaunchKernelGGL(channel_stats_kernel, dim3((unsigned)C), dim3(BLOCK), 0, a->stream, x, mean, var, B, C, HW);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

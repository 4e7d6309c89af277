// Per-row KL(softmax(p) || softmax(q)) over fp32 logits: one block per row, three passes over
// the two rows in global memory (the maxima, the two sums of exp(x - max), the P-weighted sum
// of p - q), each reduced by shared-memory trees; thread 0 combines them:
//   KL = sum_j e^(p_j - mp) (p_j - q_j) / Zp + (mq - mp) + log Zq - log Zp.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__device__ float block_max(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] = fmaxf(red[tid], red[tid + k]);
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();
  return r;
}

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();
  return r;
}

__global__ void kl_div_kernel(const float* p, const float* q, float* kl, int n) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t row = blockIdx.x;
  const float* pr = p + row * n;
  const float* qr = q + row * n;

  // Pass 1: maxima.
  float mp = -INFINITY, mq = -INFINITY;
  for (int j = tid; j < n; j += blockDim.x) {
    mp = fmaxf(mp, pr[j]);
    mq = fmaxf(mq, qr[j]);
  }
  mp = block_max(mp, red);
  mq = block_max(mq, red);

  // Pass 2: normalizers.
  float zp = 0.0f, zq = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) {
    zp += expf(pr[j] - mp);
    zq += expf(qr[j] - mq);
  }
  zp = block_sum(zp, red);
  zq = block_sum(zq, red);

  // Pass 3: sum_j e^(p_j - mp) (p_j - q_j).
  float s = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) s += expf(pr[j] - mp) * (pr[j] - qr[j]);
  s = block_sum(s, red);

  if (tid == 0) kl[row] = s / zp + ((mq - mp) + (logf(zq) - logf(zp)));
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* p = static_cast<const float*>(a->tensors[0]);
  const float* q = static_cast<const float*>(a->tensors[1]);
  float* kl = static_cast<float*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  hipLaunchKernelGGL(kl_div_kernel, dim3((unsigned)m), dim3(BLOCK), 0, a->stream, p, q, kl, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

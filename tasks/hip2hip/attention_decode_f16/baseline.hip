// Decode attention (one fp16 query per (batch, head) against an fp16 KV cache), fp32 math: one
// block per (batch, head) in three phases: the L scores q.k_j * scale into a global workspace
// (one thread per key, scalar fp16 loads), the softmax statistics (max, then sum of exp) by
// shared-memory tree reductions, then the weighted sum of the value rows (one thread per
// dimension and group of keys) divided by the sum.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define MAX_D 256

__global__ void attention_decode_kernel(const __half* q, const __half* k, const __half* v, __half* out,
                                        float* scores, int L, int D, float scale) {
  __shared__ float qs[MAX_D];
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t bh = blockIdx.x;
  const __half* kh = k + bh * L * D;
  const __half* vh = v + bh * L * D;
  float* sc = scores + bh * L;

  for (int d = tid; d < D; d += BLOCK) qs[d] = __half2float(q[bh * D + d]);
  __syncthreads();

  // Phase 1: scores, and the running maximum.
  float mx = -INFINITY;
  for (int j = tid; j < L; j += BLOCK) {
    const __half* kr = kh + (int64_t)j * D;
    float dot = 0.0f;
    for (int d = 0; d < D; ++d) dot += qs[d] * __half2float(kr[d]);
    const float s = dot * scale;
    sc[j] = s;
    mx = fmaxf(mx, s);
  }
  red[tid] = mx;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  mx = red[0];
  __syncthreads();

  // Phase 2: exp(score - max) in place, and their sum.
  float sum = 0.0f;
  for (int j = tid; j < L; j += BLOCK) {
    const float e = expf(sc[j] - mx);
    sc[j] = e;
    sum += e;
  }
  red[tid] = sum;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  sum = red[0];
  __syncthreads();

  // Phase 3: thread (g, d) sums weight * v[j][d] over the keys j = g, g + groups, ...
  const int groups = BLOCK / D;  // D <= 256, so at least one group
  const int g = tid / D, d = tid % D;
  float acc = 0.0f;
  if (g < groups)
    for (int j = g; j < L; j += groups) acc += sc[j] * __half2float(vh[(int64_t)j * D + d]);
  red[tid] = acc;
  __syncthreads();
  for (int dd = tid; dd < D; dd += BLOCK) {
    float o = 0.0f;
    for (int gg = 0; gg < groups; ++gg) o += red[gg * D + dd];
    out[bh * D + dd] = __float2half(o / sum);
  }
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return (size_t)(a->ints[0] * a->ints[1] * a->ints[2]) * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* q = static_cast<const __half*>(a->tensors[0]);
  const __half* k = static_cast<const __half*>(a->tensors[1]);
  const __half* v = static_cast<const __half*>(a->tensors[2]);
  __half* out = static_cast<__half*>(a->tensors[3]);
  const int64_t bh = a->ints[0] * a->ints[1];
  const int L = (int)a->ints[2];
  const int D = (int)a->ints[3];
  const float scale = (float)a->floats[0];
  float* scores = static_cast<float*>(a->workspace);
  hipLaunchKernelGGL(attention_decode_kernel, dim3((unsigned)bh), dim3(BLOCK), 0, a->stream, q, k, v, out, scores,
                     L, D, scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

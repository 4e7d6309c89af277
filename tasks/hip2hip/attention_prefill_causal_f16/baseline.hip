// Causal attention over fp16 q, k, v [B, H, S, D], fp32 math: one block per (batch, head, query
// row i). The block computes the i + 1 scores q_i.k_j * scale (j <= i) into shared memory, one
// thread per key with scalar fp16 loads from global memory, takes the max and the sum of exp
// by shared-memory tree reductions, then sums weight * v_j (one thread per dimension and group
// of keys) and divides by the sum. Every row reads its K and V prefix from global memory.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define MAX_S 4096
#define MAX_D 128

__global__ void attention_row_kernel(const __half* q, const __half* k, const __half* v, __half* out, int S, int D,
                                     float scale) {
  __shared__ float qs[MAX_D];
  __shared__ float sc[MAX_S];
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t row = blockIdx.x;  // (b * H + h) * S + i
  const int64_t bh = row / S;
  const int i = (int)(row % S);
  const int n = i + 1;  // keys 0..i
  const __half* kh = k + bh * S * D;
  const __half* vh = v + bh * S * D;

  for (int d = tid; d < D; d += BLOCK) qs[d] = __half2float(q[row * D + d]);
  __syncthreads();

  // Scores and their maximum.
  float mx = -INFINITY;
  for (int j = tid; j < n; j += BLOCK) {
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

  // exp(score - max) in place, and the sum.
  float sum = 0.0f;
  for (int j = tid; j < n; j += BLOCK) {
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

  // Thread (g, d) sums weight * v[j][d] over the keys j = g, g + groups, ... <= i.
  const int groups = BLOCK / D;  // D <= 128, so at least two groups
  const int g = tid / D, d = tid % D;
  float acc = 0.0f;
  if (g < groups)
    for (int j = g; j < n; j += groups) acc += sc[j] * __half2float(vh[(int64_t)j * D + d]);
  red[tid] = acc;
  __syncthreads();
  for (int dd = tid; dd < D; dd += BLOCK) {
    float o = 0.0f;
    for (int gg = 0; gg < groups; ++gg) o += red[gg * D + dd];
    out[row * D + dd] = __float2half(o / sum);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* q = static_cast<const __half*>(a->tensors[0]);
  const __half* k = static_cast<const __half*>(a->tensors[1]);
  const __half* v = static_cast<const __half*>(a->tensors[2]);
  __half* out = static_cast<__half*>(a->tensors[3]);
  const int64_t rows = a->ints[0] * a->ints[1] * a->ints[2];
  const int S = (int)a->ints[2];
  const int D = (int)a->ints[3];
  const float scale = (float)a->floats[0];
  hipLaunchKernelGGL(attention_row_kernel, dim3((unsigned)rows), dim3(BLOCK), 0, a->stream, q, k, v, out, S, D,
                     scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// K nearest neighbours (squared distances only) of 3-D query points: one thread per query,
// streaming its batch's reference points from global memory and keeping the K best distances
// in a sorted array, updated by insertion (shift the larger entries up by one).
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define MAX_K 32

__global__ void knn_kernel(const float* queries, const float* refs, float* dists, int64_t nq, int Q, int P, int K) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // query over all batches
  if (i >= nq) return;
  const int64_t b = i / Q;
  const float qx = queries[3 * i], qy = queries[3 * i + 1], qz = queries[3 * i + 2];
  const float* r = refs + b * P * 3;
  float best[MAX_K];
  for (int k = 0; k < K; ++k) best[k] = INFINITY;
  for (int j = 0; j < P; ++j) {
    const float dx = qx - r[3 * j], dy = qy - r[3 * j + 1], dz = qz - r[3 * j + 2];
    const float d = dx * dx + dy * dy + dz * dz;
    if (d < best[K - 1]) {
      int k = K - 1;
      while (k > 0 && best[k - 1] > d) {
        best[k] = best[k - 1];
        --k;
      }
      best[k] = d;
    }
  }
  for (int k = 0; k < K; ++k) dists[i * K + k] = best[k];
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* queries = static_cast<const float*>(a->tensors[0]);
  const float* refs = static_cast<const float*>(a->tensors[1]);
  float* dists = static_cast<float*>(a->tensors[2]);
  const int64_t B = a->ints[0];
  const int Q = (int)a->ints[1], P = (int)a->ints[2], K = (int)a->ints[3];
  const int64_t nq = B * Q;
  const int block = 256;
  const int64_t grid = (nq + block - 1) / block;
  hipLaunchKernelGGL(knn_kernel, dim3((unsigned)grid), dim3(block), 0, a->stream, queries, refs, dists, nq, Q, P, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Gram matrix G = A^T * A (row-major A [M,N], G [N,N]) in fp32: one thread per element of G,
// on a 16 x 16 grid of threads per block; the thread walks all M rows of A, reading the two
// columns it needs, and writes its dot product.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TS 16

__global__ void gram_per_element(const float* A, float* G, int M, int N) {
  const int j = blockIdx.x * TS + threadIdx.x;
  const int i = blockIdx.y * TS + threadIdx.y;
  if (i >= N || j >= N) return;
  float acc = 0.0f;
  for (int r = 0; r < M; ++r) acc += A[(int64_t)r * N + i] * A[(int64_t)r * N + j];
  G[(int64_t)i * N + j] = acc;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  float* G = static_cast<float*>(a->tensors[1]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const dim3 block(TS, TS);
  const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((N + TS - 1) / TS));
  hipLaunchKernelGGL(gram_per_element, grid, block, 0, a->stream, A, G, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

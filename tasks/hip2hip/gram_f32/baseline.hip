// Gram matrix G = A^T * A (row-major A [M,N], G [N,N]) in fp32, split over rows: a first kernel
// zeroes G; then each block of 16 x 16 threads takes one 16 x 16 tile of G and one chunk of
// CHUNK rows of A, stages the tile's two 16-column slices of every 16 rows in shared memory,
// accumulates one element per thread, and adds its partial sum into G with an atomic.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TS 16
#define CHUNK 1024

__global__ void zero_gram(float* G, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) G[i] = 0.0f;
}

__global__ void gram_chunk(const float* A, float* G, int M, int N) {
  __shared__ float Ai[TS][TS + 1];  // [row][column of the tile's i range]
  __shared__ float Aj[TS][TS + 1];  // [row][column of the tile's j range]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * TS + ty;  // G row this thread owns
  const int j = blockIdx.x * TS + tx;  // G column this thread owns
  const int r0 = blockIdx.z * CHUNK;
  const int r1 = min(M, r0 + CHUNK);
  float acc = 0.0f;
  for (int r = r0; r < r1; r += TS) {
    // Thread (ty, tx) loads row r + ty, column tx of each slice.
    const int row = r + ty;
    const int ci = blockIdx.y * TS + tx, cj = blockIdx.x * TS + tx;
    Ai[ty][tx] = (row < r1 && ci < N) ? A[(int64_t)row * N + ci] : 0.0f;
    Aj[ty][tx] = (row < r1 && cj < N) ? A[(int64_t)row * N + cj] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TS; ++k) acc += Ai[k][ty] * Aj[k][tx];
    __syncthreads();
  }
  if (i < N && j < N) atomicAdd(&G[(int64_t)i * N + j], acc);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  float* G = static_cast<float*>(a->tensors[1]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int64_t nn = (int64_t)N * N;
  hipLaunchKernelGGL(zero_gram, dim3((unsigned)((nn + 255) / 256)), dim3(256), 0, a->stream, G, nn);
  const dim3 block(TS, TS);
  const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((N + TS - 1) / TS), (unsigned)((M + CHUNK - 1) / CHUNK));
  hipLaunchKernelGGL(gram_chunk, grid, block, 0, a->stream, A, G, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// int8 GEMM C = A * B (row-major A [M,K], B [K,N] int8, C [M,N] int32): the classic
// shared-memory tiled kernel. Each 16 x 16 block stages a 16 x 16 tile of A and of B per step
// of K (scalar int8 loads, widened to int in shared memory) and every thread accumulates one
// element of C in int32. Out-of-range tile entries are loaded as zero.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TS 16

__global__ void igemm_tiled16(const int8_t* A, const int8_t* B, int32_t* C, int M, int N, int K) {
  __shared__ int As[TS][TS];
  __shared__ int Bs[TS][TS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TS + ty;
  const int col = blockIdx.x * TS + tx;
  int acc = 0;
  for (int k0 = 0; k0 < K; k0 += TS) {
    const int ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < M && ka < K) ? (int)A[(int64_t)row * K + ka] : 0;
    Bs[ty][tx] = (kb < K && col < N) ? (int)B[(int64_t)kb * N + col] : 0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(int64_t)row * N + col] = acc;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int8_t* A = static_cast<const int8_t*>(a->tensors[0]);
  const int8_t* B = static_cast<const int8_t*>(a->tensors[1]);
  int32_t* C = static_cast<int32_t*>(a->tensors[2]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int K = (int)a->ints[2];
  const dim3 block(TS, TS);
  const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((M + TS - 1) / TS));
  if (grid.y > 65535) return 1;
  hipLaunchKernelGGL(igemm_tiled16, grid, block, 0, a->stream, A, B, C, M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

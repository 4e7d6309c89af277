// fp16 GEMM C = A * B (row-major A [M,K], B [K,N], C [M,N]), fp32 accumulation: the classic
// shared-memory tiled kernel. Each 16 x 16 block stages a 16 x 16 tile of A and of B per step
// of K (scalar fp16 loads, converted to fp32 in shared memory) and every thread accumulates one
// element of C, rounded to fp16 once at the end. Out-of-range tile entries are loaded as zero.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define TS 16

__global__ void hgemm_tiled16(const __half* A, const __half* B, __half* C, int M, int N, int K) {
  __shared__ float As[TS][TS];
  __shared__ float Bs[TS][TS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TS + ty;
  const int col = blockIdx.x * TS + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TS) {
    const int ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < M && ka < K) ? __half2float(A[(int64_t)row * K + ka]) : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? __half2float(B[(int64_t)kb * N + col]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(int64_t)row * N + col] = __float2half(acc);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* A = static_cast<const __half*>(a->tensors[0]);
  const __half* B = static_cast<const __half*>(a->tensors[1]);
  __half* C = static_cast<__half*>(a->tensors[2]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int K = (int)a->ints[2];
  const dim3 block(TS, TS);
  const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((M + TS - 1) / TS));
  if (grid.y > 65535) return 1;
  hipLaunchKernelGGL(hgemm_tiled16, grid, block, 0, a->stream, A, B, C, M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

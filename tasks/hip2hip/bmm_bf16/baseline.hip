// Batched bf16 GEMM C[b] = A[b] * B[b] (row-major A [Bt,M,K], B [Bt,K,N], C [Bt,M,N]), fp32
// accumulation: the classic shared-memory tiled kernel with the batch in blockIdx.z. Each
// 16 x 16 block stages a 16 x 16 tile of A and of B per step of K (scalar bf16 loads, widened
// to fp32 in shared memory) and every thread accumulates one element of C, rounded to bf16
// (nearest even) once at the end. bf16 values are handled as their 16-bit patterns.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TS 16

__device__ __forceinline__ float bf16_to_float(uint16_t b) {
  return __uint_as_float((unsigned int)b << 16);
}

__device__ __forceinline__ uint16_t float_to_bf16(float f) {
  unsigned int u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);                                            // nearest even
  return (uint16_t)(u >> 16);
}

__global__ void bmm_tiled16(const uint16_t* A, const uint16_t* B, uint16_t* C, int M, int N,
                            int K) {
  __shared__ float As[TS][TS];
  __shared__ float Bs[TS][TS];
  const int64_t b = blockIdx.z;
  A += b * M * K;
  B += b * K * N;
  C += b * M * N;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TS + ty;
  const int col = blockIdx.x * TS + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TS) {
    const int ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < M && ka < K) ? bf16_to_float(A[(int64_t)row * K + ka]) : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? bf16_to_float(B[(int64_t)kb * N + col]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(int64_t)row * N + col] = float_to_bf16(acc);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint16_t* A = static_cast<const uint16_t*>(a->tensors[0]);
  const uint16_t* B = static_cast<const uint16_t*>(a->tensors[1]);
  uint16_t* C = static_cast<uint16_t*>(a->tensors[2]);
  const int Bt = (int)a->ints[0];
  const int M = (int)a->ints[1];
  const int N = (int)a->ints[2];
  const int K = (int)a->ints[3];
  const dim3 block(TS, TS);
  const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((M + TS - 1) / TS), (unsigned)Bt);
  if (grid.y > 65535 || grid.z > 65535) return 1;
  hipLaunchKernelGGL(bmm_tiled16, grid, block, 0, a->stream, A, B, C, M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

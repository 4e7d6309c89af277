// Linear layer C = relu(A * B + bias) in fp32 (row-major A [M,K], B [K,N], bias [N]), in two
// kernels: the classic 16 x 16 shared-memory tiled GEMM (one element of C per thread) writes
// A * B to C, then an elementwise kernel reads C back, adds the column's bias and applies relu.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TS 16

__global__ void gemm_tiled16(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TS][TS];
  __shared__ float Bs[TS][TS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TS + ty;
  const int col = blockIdx.x * TS + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TS) {
    const int ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < M && ka < K) ? A[(int64_t)row * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? B[(int64_t)kb * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(int64_t)row * N + col] = acc;
}

__global__ void bias_relu(float* C, const float* bias, int64_t total, int N) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) C[i] = fmaxf(C[i] + bias[i % N], 0.0f);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  const float* B = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* C = static_cast<float*>(a->tensors[3]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const int K = (int)a->ints[2];
  const dim3 block(TS, TS);
  const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((M + TS - 1) / TS));
  if (grid.y > 65535) return 1;
  hipLaunchKernelGGL(gemm_tiled16, grid, block, 0, a->stream, A, B, C, M, N, K);
  const int64_t total = (int64_t)M * N;
  const int threads = 256;
  const int64_t blocks = (total + threads - 1) / threads;
  hipLaunchKernelGGL(bias_relu, dim3((unsigned)blocks), dim3(threads), 0, a->stream, C, bias,
                     total, N);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

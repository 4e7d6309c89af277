// Symmetric per-row int8 quantization of an M x N fp32 matrix: one block per row, two passes
// over the row in global memory: max |x| by a shared-memory tree reduction, then
// q = rint(x / scale) clamped to [-127, 127], one scalar load and one byte store per element.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void quantize_rows_kernel(const float* x, int8_t* q, float* scale, int n) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const float* xr = x + (int64_t)blockIdx.x * n;
  int8_t* qr = q + (int64_t)blockIdx.x * n;

  // Pass 1: row max of |x|.
  float amax = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) amax = fmaxf(amax, fabsf(xr[j]));
  red[tid] = amax;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  amax = red[0];
  const float sc = amax / 127.0f;
  if (tid == 0) scale[blockIdx.x] = sc;

  // Pass 2: quantize (an all-zero row gives zeros).
  for (int j = tid; j < n; j += blockDim.x) {
    float v = 0.0f;
    if (amax > 0.0f) v = fminf(fmaxf(rintf(xr[j] / sc), -127.0f), 127.0f);
    qr[j] = (int8_t)(int)v;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  int8_t* q = static_cast<int8_t*>(a->tensors[1]);
  float* scale = static_cast<float*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  hipLaunchKernelGGL(quantize_rows_kernel, dim3((unsigned)m), dim3(BLOCK), 0, a->stream, x, q, scale, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

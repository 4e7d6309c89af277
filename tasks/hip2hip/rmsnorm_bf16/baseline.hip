// RMS normalization over the rows of an M x N bf16 matrix: one block per row, two passes over
// the row in global memory (sum of squares, then scale) with scalar 2-byte loads and stores,
// the reduction a shared-memory tree; fp32 math.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define BLOCK 256

// bf16 is handled as its 16 raw bits (the upper half of an fp32).
__device__ __forceinline__ float bf16_to_float(uint16_t b) { return __uint_as_float((uint32_t)b << 16); }

// fp32 -> bf16, round to nearest even; NaN stays NaN.
__device__ __forceinline__ uint16_t float_to_bf16(float f) {
  uint32_t u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

__global__ void rmsnorm_kernel(const uint16_t* x, const uint16_t* w, uint16_t* y, int n, float eps) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const uint16_t* xr = x + (int64_t)blockIdx.x * n;
  uint16_t* yr = y + (int64_t)blockIdx.x * n;

  // Pass 1: sum of squares.
  float s = 0.0f;
  for (int j = tid; j < n; j += blockDim.x) {
    const float v = bf16_to_float(xr[j]);
    s += v * v;
  }
  red[tid] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  const float rstd = 1.0f / sqrtf(red[0] / n + eps);

  // Pass 2: scale by the reciprocal RMS and the weight.
  for (int j = tid; j < n; j += blockDim.x) yr[j] = float_to_bf16(bf16_to_float(xr[j]) * rstd * bf16_to_float(w[j]));
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint16_t* x = static_cast<const uint16_t*>(a->tensors[0]);
  const uint16_t* w = static_cast<const uint16_t*>(a->tensors[1]);
  uint16_t* y = static_cast<uint16_t*>(a->tensors[2]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  const float eps = (float)a->floats[0];
  hipLaunchKernelGGL(rmsnorm_kernel, dim3((unsigned)m), dim3(BLOCK), 0, a->stream, x, w, y, n, eps);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

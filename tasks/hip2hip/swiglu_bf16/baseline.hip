// SwiGLU over bf16: one thread per output element; the flat index is split into row and
// column, gate and up are read with scalar 2-byte loads, silu(gate) * up is computed in fp32
// and stored with a scalar 2-byte store.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

// bf16 is handled as its 16 raw bits (the upper half of an fp32).
__device__ __forceinline__ float bf16_to_float(uint16_t b) { return __uint_as_float((uint32_t)b << 16); }

// fp32 -> bf16, round to nearest even; NaN stays NaN.
__device__ __forceinline__ uint16_t float_to_bf16(float f) {
  uint32_t u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

__global__ void swiglu_kernel(const uint16_t* x, uint16_t* y, int64_t m, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m * n) return;
  const int64_t row = i / n;
  const int64_t col = i - row * n;
  const float g = bf16_to_float(x[row * 2 * n + col]);
  const float u = bf16_to_float(x[row * 2 * n + n + col]);
  y[i] = float_to_bf16(g / (1.0f + expf(-g)) * u);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint16_t* x = static_cast<const uint16_t*>(a->tensors[0]);
  uint16_t* y = static_cast<uint16_t*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int64_t n = a->ints[1];
  const int block = 256;
  const int64_t grid = (m * n + block - 1) / block;
  hipLaunchKernelGGL(swiglu_kernel, dim3((unsigned)grid), dim3(block), 0, a->stream, x, y, m, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

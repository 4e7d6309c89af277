// FP8 E4M3 (e4m3fn) dequantization to fp16 with one fp32 scale per 128 elements of a row: one
// thread per element, a byte load, the code decoded with bit fields and ldexpf, times the
// block's scale (scales are [M, N / 128] with N = 128 * NB, so element i uses scales[i / 128]),
// converted to fp16.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

__device__ float decode_e4m3fn(unsigned c) {
  const unsigned e = (c >> 3) & 15u, m = c & 7u;
  float v;
  if (e == 15u && m == 7u) v = NAN;
  else if (e == 0u) v = ldexpf((float)m, -9);
  else v = ldexpf((float)(8u + m), (int)e - 10);
  return (c & 0x80u) ? -v : v;
}

__global__ void dequant_kernel(const uint8_t* codes, const float* scales, __half* y, int64_t total) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) y[i] = __float2half(decode_e4m3fn(codes[i]) * scales[i / 128]);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint8_t* codes = static_cast<const uint8_t*>(a->tensors[0]);
  const float* scales = static_cast<const float*>(a->tensors[1]);
  __half* y = static_cast<__half*>(a->tensors[2]);
  const int64_t total = a->ints[0] * 128 * a->ints[1];
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(dequant_kernel, dim3((unsigned)grid), dim3(block), 0, a->stream, codes, scales, y, total);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

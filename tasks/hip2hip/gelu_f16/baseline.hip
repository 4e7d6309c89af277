// GELU (erf form) over fp16: one element per thread, fp32 math.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gelu_kernel(const __half* x, __half* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __half2float(x[i]);
    y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  __half* y = static_cast<__half*>(a->tensors[1]);
  int64_t n = a->ints[0];
  const int block = 256;
  int64_t grid = (n + block - 1) / block;
  hipLaunchKernelGGL(gelu_kernel, dim3((unsigned)grid), dim3(block), 0, a->stream, x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Broken on purpose: tuned for the first seen size only (N = 16777216 hard-coded).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gelu_kernel(const __half* x, __half* y) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  float v = __half2float(x[i]);
  y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  hipLaunchKernelGGL(gelu_kernel, dim3(16777216 / 256), dim3(256), 0, a->stream,
                     static_cast<const __half*>(a->tensors[0]), static_cast<__half*>(a->tensors[1]));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// A correct but slower kernel: every element is computed three times (the perf gate's
// verdict must be SLOWER and the gate must fail).
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
  int64_t n = a->ints[0];
  for (int rep = 0; rep < 3; ++rep)
    hipLaunchKernelGGL(gelu_kernel, dim3((unsigned)((n + 255) / 256)), dim3(256), 0, a->stream,
                       static_cast<const __half*>(a->tensors[0]), static_cast<__half*>(a->tensors[1]), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

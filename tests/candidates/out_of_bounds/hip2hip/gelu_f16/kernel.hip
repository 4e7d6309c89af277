// Broken on purpose: the bounds check is off by one (i <= n), so the element after the end
// of y is written: the red zone behind the buffer must catch it.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gelu_kernel(const __half* x, __half* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) {
    float v = i < n ? __half2float(x[i]) : 0.0f;
    y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  int64_t n = a->ints[0];
  int64_t grid = (n + 1 + 255) / 256;
  hipLaunchKernelGGL(gelu_kernel, dim3((unsigned)grid), dim3(256), 0, a->stream,
                     static_cast<const __half*>(a->tensors[0]), static_cast<__half*>(a->tensors[1]), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Broken on purpose: handles only whole blocks of 256 elements, so the tail of any N that is
// not a multiple of 256 is never written. Seen sizes are multiples of 256; unseen ones are not.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gelu_kernel(const __half* x, __half* y) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  float v = __half2float(x[i]);
  y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  int64_t n = a->ints[0];
  int64_t grid = n / 256;
  if (grid == 0) return 0;
  hipLaunchKernelGGL(gelu_kernel, dim3((unsigned)grid), dim3(256), 0, a->stream,
                     static_cast<const __half*>(a->tensors[0]), static_cast<__half*>(a->tensors[1]));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

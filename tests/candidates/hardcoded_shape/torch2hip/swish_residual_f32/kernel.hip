// Fixture: a translation that only knows the shapes it was shown. The row length comes
// from a table of the seen configurations (4096 x 8192, 1024 x 4096) instead of the dim
// param, and the element count is assumed to be a multiple of the block size. Passes
// correct_seen; must fail correct_unseen.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

__global__ void swish_residual_fixed(const float* x, const float* r, float* y, float scale) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  y[i] = x[i] / (1.0f + expf(-x[i])) * scale + r[i];
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int64_t batch = a->ints[0];
  const int64_t dim = batch == 4096 ? 8192 : 4096;  // "the" row length
  const int64_t n = batch * dim;
  swish_residual_fixed<<<(unsigned)(n / 256), 256, 0, a->stream>>>(
      static_cast<const float*>(a->tensors[0]), static_cast<const float*>(a->tensors[1]),
      static_cast<float*>(a->tensors[2]), static_cast<float>(a->floats[0]));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

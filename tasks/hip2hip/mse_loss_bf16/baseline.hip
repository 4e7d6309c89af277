// Mean squared error of two bf16 vectors: one element per thread (two 2-byte loads), a
// shared-memory tree per block writes one partial sum per block to the workspace, and a
// second kernel (one block) sums the partials and divides by N.
// bf16 values are handled as their 16-bit patterns (bits << 16 is the fp32 value).
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define FINAL_BLOCK 1024

__device__ __forceinline__ float bf16_to_float(uint16_t h) { return __uint_as_float((uint32_t)h << 16); }

__global__ void sq_diff_partial(const uint16_t* a, const uint16_t* b, float* partial, int64_t n) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + tid;
  float v = 0.0f;
  if (i < n) {
    const float d = bf16_to_float(a[i]) - bf16_to_float(b[i]);
    v = d * d;
  }
  red[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = red[0];
}

__global__ void final_mean(const float* partial, float* out, int64_t count, int64_t n) {
  __shared__ float red[FINAL_BLOCK];
  const int tid = threadIdx.x;
  float v = 0.0f;
  for (int64_t i = tid; i < count; i += blockDim.x) v += partial[i];
  red[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[0] = red[0] / (float)n;
}

static int64_t blocks_for(int64_t n) { return (n + BLOCK - 1) / BLOCK; }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return (size_t)blocks_for(a->ints[0]) * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint16_t* x = static_cast<const uint16_t*>(a->tensors[0]);
  const uint16_t* y = static_cast<const uint16_t*>(a->tensors[1]);
  float* out = static_cast<float*>(a->tensors[2]);
  float* partial = static_cast<float*>(a->workspace);
  const int64_t n = a->ints[0];
  const int64_t blocks = blocks_for(n);
  hipLaunchKernelGGL(sq_diff_partial, dim3((unsigned)blocks), dim3(BLOCK), 0, a->stream, x, y, partial, n);
  hipLaunchKernelGGL(final_mean, dim3(1), dim3(FINAL_BLOCK), 0, a->stream, partial, out, blocks, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

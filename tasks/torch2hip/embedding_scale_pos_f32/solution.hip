// Embedding lookup, scale by sqrt(embed_dim) and positional add in one pass: each output row
// (one token) is its table row times the scale plus the position's row, read and written
// once. Eager PyTorch writes the gathered rows, reads and rewrites them for the scale, and
// again for the add.
// A row of embed_dim floats is split over `tpr` threads (as many as needed for at most 256
// per row, spread evenly), and a block of ~256 threads takes 256 / tpr rows at a time, so
// short rows still fill the block. 16-byte loads and stores when embed_dim % 4 == 0 and the
// buffers are 16-byte aligned (then every row is), scalar otherwise.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define TARGET_BLOCK 256

__device__ __forceinline__ float4 scale_add(float4 e, float4 p, float s) {
  return make_float4(e.x * s + p.x, e.y * s + p.y, e.z * s + p.z, e.w * s + p.w);
}
__device__ __forceinline__ float scale_add(float e, float p, float s) { return e * s + p; }

// V is float4 (nv = embed_dim / 4) or float (nv = embed_dim).
template <typename V>
__global__ void __launch_bounds__(TARGET_BLOCK) embed_scale_pos(const int64_t* __restrict__ ids,
                                                                const V* __restrict__ table,
                                                                const V* __restrict__ pos, V* __restrict__ out,
                                                                int64_t tokens, int64_t seq_len, int nv, int tpr,
                                                                float scale) {
  const int rows_per_block = blockDim.x / tpr;
  const int lane = threadIdx.x % tpr;
  for (int64_t tok = (int64_t)blockIdx.x * rows_per_block + threadIdx.x / tpr; tok < tokens;
       tok += (int64_t)gridDim.x * rows_per_block) {
    const int64_t id = ids[tok];
    const V* src = table + id * nv;
    const V* pp = pos + (tok % seq_len) * nv;
    V* dst = out + tok * nv;
    for (int k = lane; k < nv; k += tpr) dst[k] = scale_add(src[k], pp[k], scale);
  }
}

template <typename V>
static void launch(const arena_args* a, int nv, float scale) {
  const int64_t tokens = a->ints[0] * a->ints[1];
  const int64_t seq_len = a->ints[1];
  const int iters = (nv + TARGET_BLOCK - 1) / TARGET_BLOCK;
  const int tpr = (nv + iters - 1) / iters;  // threads per row, each with `iters` vectors
  const int rows_per_block = TARGET_BLOCK / tpr;
  const int threads = rows_per_block * tpr;
  int64_t grid = (tokens + rows_per_block - 1) / rows_per_block;
  if (grid > (1 << 30)) grid = 1 << 30;
  hipLaunchKernelGGL(embed_scale_pos<V>, dim3((unsigned)grid), dim3(threads), 0, a->stream,
                     static_cast<const int64_t*>(a->tensors[0]), static_cast<const V*>(a->tensors[1]),
                     static_cast<const V*>(a->tensors[2]), static_cast<V*>(a->tensors[3]), tokens, seq_len, nv, tpr,
                     scale);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int d = (int)a->ints[3];
  // The model multiplies by the Python float sqrt(embed_dim), which fp32 math rounds to float.
  const float scale = (float)sqrt((double)d);
  bool vec4 = d % 4 == 0;
  for (int i = 1; i < 4; ++i) vec4 = vec4 && ((uintptr_t)a->tensors[i] & 15) == 0;
  if (vec4) launch<float4>(a, d / 4, scale);
  else launch<float>(a, d, scale);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

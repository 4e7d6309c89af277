// Triplet margin loss, mean over rows of max(||a - p + eps|| - ||a - n + eps|| + margin, 0)
// (L2 norms, eps = 1e-6 as torch's pairwise_distance adds it), in one read of each input.
// Eager PyTorch runs each distance as a subtraction, an addition and a norm (writing two
// matrix-sized temporaries per distance) before the clamp and the mean.
//  1. a group of tpr threads per row (a power of two, about eight vectors of each input per
//     thread; 16-byte loads when dim % 4 == 0), both sums of squares at once, xor shuffles
//     inside the group (one shared slot per warp when the group spans warps); the group's
//     first thread turns them into the row's loss, and the block adds its rows' losses into
//     one partial in the workspace;
//  2. one block adds the partials in a fixed order and divides by the row count.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS (THREADS / 32)
#define EPS 1e-6f

// Sum over the tpr threads of a row group (tpr a power of two, groups aligned to tpr). Every
// thread of the block calls it; red is free again on return.
__device__ __forceinline__ float group_sum(float v, int tpr, float* red) {
  const int width = tpr < warpSize ? tpr : warpSize;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (tpr > warpSize) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, wpg = tpr / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    const int first = warp - warp % wpg;
    v = red[first];
    for (int w = 1; w < wpg; ++w) v += red[first + w];
    __syncthreads();
  }
  return v;
}

__device__ __forceinline__ void add_pair(float a, float p, float n, float& sp, float& sn) {
  const float dp = (a - p) + EPS, dn = (a - n) + EPS;
  sp = fmaf(dp, dp, sp);
  sn = fmaf(dn, dn, sn);
}

template <int VEC>
__global__ void __launch_bounds__(THREADS) triplet_rows(const float* __restrict__ a, const float* __restrict__ p,
                                                        const float* __restrict__ n, float* __restrict__ partial,
                                                        int64_t rows, int64_t cols, int tpr, float margin) {
  __shared__ float red[MAX_WARPS];
  __shared__ float row_loss[THREADS];
  const int t = threadIdx.x % tpr, g = threadIdx.x / tpr;
  const int64_t row = (int64_t)blockIdx.x * (THREADS / tpr) + g;
  const bool valid = row < rows;  // rows past the end still join the reductions
  float sp = 0.0f, sn = 0.0f;
  if (valid) {
    const int64_t base = row * cols;
    for (int64_t c = (int64_t)t * VEC; c < cols; c += (int64_t)tpr * VEC) {
      if constexpr (VEC == 4) {
        const float4 av = *reinterpret_cast<const float4*>(a + base + c);
        const float4 pv = *reinterpret_cast<const float4*>(p + base + c);
        const float4 nv = *reinterpret_cast<const float4*>(n + base + c);
        add_pair(av.x, pv.x, nv.x, sp, sn);
        add_pair(av.y, pv.y, nv.y, sp, sn);
        add_pair(av.z, pv.z, nv.z, sp, sn);
        add_pair(av.w, pv.w, nv.w, sp, sn);
      } else {
        add_pair(a[base + c], p[base + c], n[base + c], sp, sn);
      }
    }
  }
  sp = group_sum(sp, tpr, red);
  sn = group_sum(sn, tpr, red);
  if (t == 0) row_loss[g] = valid ? fmaxf(sqrtf(sp) - sqrtf(sn) + margin, 0.0f) : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int r = 0; r < THREADS / tpr; ++r) s += row_loss[r];
    partial[blockIdx.x] = s;
  }
}

__global__ void __launch_bounds__(1024) finish_mean(const float* __restrict__ partial, int64_t nparts,
                                                    float* __restrict__ y, int64_t rows) {
  __shared__ float red[1024 / 32];
  float s = 0.0f;
  for (int64_t i = threadIdx.x; i < nparts; i += 1024) s += partial[i];
  for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_xor(s, o);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nw = blockDim.x / warpSize;
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < nw; ++w) total += red[w];
    y[0] = total / (float)rows;
  }
}

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Plan {
  int vec, tpr;
  int64_t blocks;
};

static Plan make_plan(int64_t rows, int64_t cols) {
  Plan p;
  p.vec = cols % 4 == 0 ? 4 : 1;
  const int64_t nvec = cols / p.vec;
  p.tpr = pow2_at_least((nvec + 7) / 8);  // about eight vectors per thread
  if (p.tpr > THREADS) p.tpr = THREADS;
  const int64_t per_block = THREADS / p.tpr;
  p.blocks = (rows + per_block - 1) / per_block;
  return p;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return (size_t)make_plan(a->ints[0], a->ints[1]).blocks * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* anc = static_cast<const float*>(a->tensors[0]);
  const float* pos = static_cast<const float*>(a->tensors[1]);
  const float* neg = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t rows = a->ints[0], cols = a->ints[1];
  const float margin = (float)a->floats[0];
  const Plan p = make_plan(rows, cols);
  float* partial = static_cast<float*>(a->workspace);
  if (a->workspace_bytes < (size_t)p.blocks * sizeof(float)) return 1;
  if (p.vec == 4)
    hipLaunchKernelGGL(triplet_rows<4>, dim3((unsigned)p.blocks), dim3(THREADS), 0, a->stream, anc, pos, neg, partial,
                       rows, cols, p.tpr, margin);
  else
    hipLaunchKernelGGL(triplet_rows<1>, dim3((unsigned)p.blocks), dim3(THREADS), 0, a->stream, anc, pos, neg, partial,
                       rows, cols, p.tpr, margin);
  hipLaunchKernelGGL(finish_mean, dim3(1), dim3(1024), 0, a->stream, partial, p.blocks, y, rows);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// K nearest neighbours (squared distances only) of 3-D query points, one thread per query:
//  - the block's 128 queries share one batch, and its reference points are staged through
//    shared memory in tiles of 256 as float4 (x, y, z, 0): one broadcast 16-byte shared load
//    per reference instead of three global loads;
//  - the K best distances live in registers: a sorted array of KM = K rounded up to a power of
//    two, whose first KM - K entries are -inf sentinels, so that its last entry is exactly the
//    K-th best (the insertion threshold) for any K; inserting d is a branch-free merge,
//    new[i] = max(old[i-1], min(old[i], d)), every entry independent of the others (no
//    data-dependent indexing, so nothing spills to local memory);
//  - four distances are computed before one test of their minimum against the threshold, so
//    the common case (no insertion) costs one compare per four references.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define THREADS 128
#define TILE 256

template <int KM>
__device__ __forceinline__ void insert(float (&best)[KM], float d) {
#pragma unroll
  for (int i = KM - 1; i > 0; --i) best[i] = fmaxf(best[i - 1], fminf(best[i], d));
  best[0] = fminf(best[0], d);
}

__device__ __forceinline__ float dist2(float qx, float qy, float qz, const float4& r) {
  const float dx = qx - r.x, dy = qy - r.y, dz = qz - r.z;
  return dx * dx + dy * dy + dz * dz;
}

template <int KM>
__global__ __launch_bounds__(THREADS) void knn_tiled(const float* __restrict__ queries,
                                                     const float* __restrict__ refs, float* __restrict__ dists,
                                                     int Q, int P, int K, int qblocks) {
  __shared__ float4 tile[TILE];
  const int64_t b = blockIdx.x / qblocks;
  const int qi = (int)(blockIdx.x % qblocks) * THREADS + threadIdx.x;
  const bool valid = qi < Q;
  float qx = 0.0f, qy = 0.0f, qz = 0.0f;
  if (valid) {
    const float* qp = queries + (b * Q + qi) * 3;
    qx = qp[0];
    qy = qp[1];
    qz = qp[2];
  }
  float best[KM];
#pragma unroll
  for (int i = 0; i < KM; ++i) best[i] = i < KM - K ? -INFINITY : INFINITY;

  const float* rb = refs + b * P * 3;
  for (int t0 = 0; t0 < P; t0 += TILE) {  // uniform over the block
    const int n = min(TILE, P - t0);
    __syncthreads();  // the previous tile has been consumed
    for (int j = threadIdx.x; j < n; j += THREADS) {
      const float* rp = rb + (int64_t)(t0 + j) * 3;
      tile[j] = make_float4(rp[0], rp[1], rp[2], 0.0f);
    }
    __syncthreads();
    int j = 0;
    for (; j + 4 <= n; j += 4) {
      float d[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) d[u] = dist2(qx, qy, qz, tile[j + u]);
      if (fminf(fminf(d[0], d[1]), fminf(d[2], d[3])) < best[KM - 1]) {
#pragma unroll
        for (int u = 0; u < 4; ++u)
          if (d[u] < best[KM - 1]) insert<KM>(best, d[u]);
      }
    }
    for (; j < n; ++j) {
      const float d = dist2(qx, qy, qz, tile[j]);
      if (d < best[KM - 1]) insert<KM>(best, d);
    }
  }
  if (valid) {
    float* o = dists + (b * Q + qi) * K;
#pragma unroll
    for (int i = 0; i < KM; ++i)
      if (i >= KM - K) o[i - (KM - K)] = best[i];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* queries = static_cast<const float*>(a->tensors[0]);
  const float* refs = static_cast<const float*>(a->tensors[1]);
  float* dists = static_cast<float*>(a->tensors[2]);
  const int64_t B = a->ints[0];
  const int Q = (int)a->ints[1], P = (int)a->ints[2], K = (int)a->ints[3];
  const int qblocks = (Q + THREADS - 1) / THREADS;
  const dim3 grid((unsigned)(B * qblocks)), block(THREADS);
  if (K <= 1) hipLaunchKernelGGL(knn_tiled<1>, grid, block, 0, a->stream, queries, refs, dists, Q, P, K, qblocks);
  else if (K <= 2) hipLaunchKernelGGL(knn_tiled<2>, grid, block, 0, a->stream, queries, refs, dists, Q, P, K, qblocks);
  else if (K <= 4) hipLaunchKernelGGL(knn_tiled<4>, grid, block, 0, a->stream, queries, refs, dists, Q, P, K, qblocks);
  else if (K <= 8) hipLaunchKernelGGL(knn_tiled<8>, grid, block, 0, a->stream, queries, refs, dists, Q, P, K, qblocks);
  else if (K <= 16) hipLaunchKernelGGL(knn_tiled<16>, grid, block, 0, a->stream, queries, refs, dists, Q, P, K, qblocks);
  else hipLaunchKernelGGL(knn_tiled<32>, grid, block, 0, a->stream, queries, refs, dists, Q, P, K, qblocks);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

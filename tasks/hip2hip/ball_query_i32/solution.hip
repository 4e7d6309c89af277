// Ball query (PointNet++ semantics) on integer grid points, one warp per pair of centers:
//  - the block's warps share tiles of 1024 points staged once in shared memory (x, y, z as
//    separate float arrays: a warp reads 32 consecutive points in one conflict-free access);
//  - the lanes test 2 * warpSize consecutive points per step against both centers of the warp;
//    a ballot per center and step gives the hits in index order, each hit lane writes its
//    index at cnt + (hits in lower lanes) and the count advances by the popcount, so the scan
//    order (first K hits by index) is kept while 32 or 64 points are tested at once;
//  - a warp stops as soon as both its centers have K hits, a block stops loading tiles once
//    every center in it is done;
//  - distances in fp32: coordinates are integers in [0, 1023], so every difference, square
//    and sum (at most 3 * 1023^2 < 2^24) is an integer that fp32 holds exactly; the test
//    d2 <= R2 is therefore exact, and the float pipes are twice as wide as the integer ones.
// Works with 32- and 64-wide warps (ballot masks are 64-bit; the host reads the width).
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define TILE 1024  // points per shared-memory tile
#define C 2        // centers per warp
#define S 2        // point groups of warpSize per step

// Ballot over the full warp (every lane is active at each call site).
__device__ __forceinline__ unsigned long long warp_ballot(int pred) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  return __ballot_sync(0xffffffffu, pred);
#else
  return __ballot(pred);
#endif
}

__global__ void __launch_bounds__(BLOCK) ball_query_warp(const int* __restrict__ points,
                                                         const int* __restrict__ centers, int* __restrict__ idx,
                                                         int P, int Q, int K, float r2, int blocks_per_batch) {
  __shared__ float sx[TILE], sy[TILE], sz[TILE];
  const int ws = warpSize;
  const int lane = threadIdx.x % ws, warp = threadIdx.x / ws, nw = blockDim.x / ws;
  const int b = blockIdx.x / blocks_per_batch;
  const int q0 = ((blockIdx.x - b * blocks_per_batch) * nw + warp) * C;  // first center of this warp
  const unsigned long long lower = lane == 0 ? 0ull : (~0ull >> (64 - lane));  // lanes below this one

  float cx[C], cy[C], cz[C];
  int cnt[C], first[C];
  bool done[C];
  int* out[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int q = q0 + c;
    done[c] = q >= Q;
    cnt[c] = 0;
    first[c] = 0;
    const int64_t ci = (int64_t)b * Q + (done[c] ? 0 : q);
    out[c] = idx + ci * K;
    cx[c] = (float)centers[ci * 3 + 0];
    cy[c] = (float)centers[ci * 3 + 1];
    cz[c] = (float)centers[ci * 3 + 2];
  }
  bool warp_done = true;
#pragma unroll
  for (int c = 0; c < C; ++c) warp_done = warp_done && done[c];

  const int* pts = points + (int64_t)b * P * 3;
  for (int base = 0; base < P; base += TILE) {
    // Also the barrier that keeps the previous tile alive until every warp is through with it.
    if (!__syncthreads_or(!warp_done)) break;
    const int len = P - base < TILE ? P - base : TILE;
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
      const int* p = pts + (int64_t)(base + i) * 3;
      sx[i] = (float)p[0];
      sy[i] = (float)p[1];
      sz[i] = (float)p[2];
    }
    __syncthreads();
    if (warp_done) continue;  // uniform per warp
    for (int j = 0; j < len; j += S * ws) {
      float px[S], py[S], pz[S];
      bool in[S];
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const int jj = j + s * ws + lane;
        in[s] = jj < len;
        px[s] = in[s] ? sx[jj] : 0.0f;
        py[s] = in[s] ? sy[jj] : 0.0f;
        pz[s] = in[s] ? sz[jj] : 0.0f;
      }
#pragma unroll
      for (int c = 0; c < C; ++c) {
        bool hit[S];
#pragma unroll
        for (int s = 0; s < S; ++s) {
          const float dx = px[s] - cx[c], dy = py[s] - cy[c], dz = pz[s] - cz[c];
          const float d2 = fmaf(dx, dx, fmaf(dy, dy, dz * dz));
          hit[s] = in[s] && d2 <= r2;
        }
#pragma unroll
        for (int s = 0; s < S; ++s) {
          if (done[c]) break;  // uniform: cnt, first and done are the same in every lane
          const unsigned long long m = warp_ballot(hit[s]);
          if (m == 0ull) continue;
          const int p0 = base + j + s * ws;  // index of lane 0's point
          if (cnt[c] == 0) first[c] = p0 + __ffsll((unsigned long long)m) - 1;
          if (hit[s]) {
            const int pos = cnt[c] + __popcll(m & lower);
            if (pos < K) out[c][pos] = p0 + lane;
          }
          cnt[c] += __popcll(m);
          if (cnt[c] >= K) {
            cnt[c] = K;
            done[c] = true;
          }
        }
      }
      warp_done = true;
#pragma unroll
      for (int c = 0; c < C; ++c) warp_done = warp_done && done[c];
      if (warp_done) break;
    }
  }

  // Pad: fewer than K hits repeat the first hit; no hit at all gives zeros.
#pragma unroll
  for (int c = 0; c < C; ++c) {
    if (q0 + c >= Q) continue;
    const int pad = cnt[c] > 0 ? first[c] : 0;
    for (int l = cnt[c] + lane; l < K; l += ws) out[c][l] = pad;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int* points = static_cast<const int*>(a->tensors[0]);
  const int* centers = static_cast<const int*>(a->tensors[1]);
  int* idx = static_cast<int*>(a->tensors[2]);
  const int64_t B = a->ints[0], P = a->ints[1], Q = a->ints[2], K = a->ints[3], R2 = a->ints[4];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const int64_t centers_per_block = (int64_t)(BLOCK / ws) * C;
  const int64_t blocks_per_batch = (Q + centers_per_block - 1) / centers_per_block;
  // R2 <= 3 * 1023^2 < 2^24: exact in fp32.
  hipLaunchKernelGGL(ball_query_warp, dim3((unsigned)(B * blocks_per_batch)), dim3(BLOCK), 0, a->stream, points,
                     centers, idx, (int)P, (int)Q, (int)K, (float)R2, (int)blocks_per_batch);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

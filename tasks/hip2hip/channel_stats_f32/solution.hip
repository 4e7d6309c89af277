// Per-channel mean and biased variance of an fp32 [B, C, HW] tensor in one read of x:
//  - each channel's B * HW elements (B slices of HW) are split over S blocks (S chosen so that
//    the grid holds about 2048 blocks, each with at least 1024 vectors to read); a block walks
//    its share of the flattened channel with 16-byte float4 loads when HW % 4 == 0 (every slice
//    is then 16-byte aligned), scalar loads otherwise, four loads in flight per thread;
//  - every thread keeps Welford statistics (count, mean, sum of squared deviations): a batch of
//    up to 16 values is reduced exactly about its own mean and merged with Chan's formula, so
//    the variance is taken about the mean (no E[x^2] - E[x]^2 cancellation) at one division
//    per batch; warps merge by shuffles, the block through shared memory;
//  - S = 1: the block writes mean and var itself; otherwise it writes its partial statistics
//    to the workspace and a second kernel (one warp per channel) merges the S partials.
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_WARPS 32          // 1024 threads / 32 lanes
#define TARGET_BLOCKS 2048
#define MIN_VECTORS 1024      // per block

// Chan et al.: merge statistics (count nb, mean mb, squared deviations qb) into (na, ma, qa).
__device__ __forceinline__ void merge(float& na, float& ma, float& qa, float nb, float mb, float qb) {
  const float nt = na + nb;
  if (nt == 0.0f) return;
  const float wb = nb / nt;
  const float d = mb - ma;
  qa += qb + d * d * na * wb;
  ma += d * wb;
  na = nt;
}

// Statistics of K values, merged in.
template <int K>
__device__ __forceinline__ void add_batch(float& n, float& mu, float& q, const float* v) {
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) s += v[k];
  const float bm = s * (1.0f / K);  // K is a power of two: exact
  float bq = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) bq += (v[k] - bm) * (v[k] - bm);
  merge(n, mu, q, (float)K, bm, bq);
}

__device__ __forceinline__ void warp_merge(float& n, float& mu, float& q) {
  for (int o = warpSize / 2; o > 0; o >>= 1) {
    const float nb = __shfl_xor(n, o), mb = __shfl_xor(mu, o), qb = __shfl_xor(q, o);
    merge(n, mu, q, nb, mb, qb);
  }
}

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

struct Partials {
  float *n, *mu, *q;  // C * S each, channel-major
};

// Block (c, s): vectors [s * per, min(nv, (s + 1) * per)) of channel c, where vector k of the
// channel is vector k % hwv of slice k / hwv (hwv = HW / VEC vectors per slice).
template <int VEC>
__global__ void __launch_bounds__(THREADS) stats_partial(const float* __restrict__ x, float* __restrict__ mean,
                                                         float* __restrict__ var, Partials ws, int C, unsigned hwv,
                                                         unsigned nv, unsigned per, int S) {
  __shared__ float sn[MAX_WARPS], smu[MAX_WARPS], sq[MAX_WARPS];
  const int c = blockIdx.x, s = blockIdx.y;
  const int tid = threadIdx.x;
  const unsigned T = blockDim.x;
  const unsigned q0 = (unsigned)s * per;
  const unsigned q1 = q0 + per < nv ? q0 + per : nv;
  const float* xc = x + (int64_t)c * hwv * VEC;    // slice 0 of channel c
  const int64_t slice = (int64_t)C * hwv * VEC;    // floats from one slice of c to the next
  const unsigned step_b = T / hwv, step_i = T % hwv;

  float n = 0.0f, mu = 0.0f, q = 0.0f;
  unsigned k = q0 + tid;
  unsigned b = k / hwv, i = k % hwv;  // position of vector k; advanced by T vectors at a time
  for (; k + 3 * T < q1; k += 4 * T) {
    float v[4 * VEC];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      load_vec<VEC>(xc + b * slice + (int64_t)i * VEC, v + u * VEC);
      i += step_i;
      b += step_b;
      if (i >= hwv) {
        i -= hwv;
        ++b;
      }
    }
    add_batch<4 * VEC>(n, mu, q, v);
  }
  for (; k < q1; k += T) {
    float v[VEC];
    load_vec<VEC>(xc + b * slice + (int64_t)i * VEC, v);
    add_batch<VEC>(n, mu, q, v);
    i += step_i;
    b += step_b;
    if (i >= hwv) {
      i -= hwv;
      ++b;
    }
  }

  warp_merge(n, mu, q);
  const int lane = tid % warpSize, warp = tid / warpSize, nwarps = blockDim.x / warpSize;
  if (lane == 0) {
    sn[warp] = n;
    smu[warp] = mu;
    sq[warp] = q;
  }
  __syncthreads();
  if (tid == 0) {
    for (int w = 1; w < nwarps; ++w) merge(n, mu, q, sn[w], smu[w], sq[w]);  // n, mu, q hold warp 0's
    if (S == 1) {
      mean[c] = mu;
      var[c] = q / n;
    } else {
      const int64_t at = (int64_t)c * S + s;
      ws.n[at] = n;
      ws.mu[at] = mu;
      ws.q[at] = q;
    }
  }
}

// One warp per channel merges its S partials.
__global__ void __launch_bounds__(THREADS) stats_final(Partials ws, float* __restrict__ mean, float* __restrict__ var,
                                                       int C, int S) {
  const int lane = threadIdx.x % warpSize;
  const int64_t c = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  float n = 0.0f, mu = 0.0f, q = 0.0f;
  if (c < C)
    for (int k = lane; k < S; k += warpSize) {
      const int64_t at = c * S + k;
      merge(n, mu, q, ws.n[at], ws.mu[at], ws.q[at]);
    }
  warp_merge(n, mu, q);  // every lane takes part, also those past the last channel
  if (c < C && lane == 0) {
    mean[c] = mu;
    var[c] = q / n;
  }
}

struct Plan {
  int vec;
  unsigned hwv, nv, per;
  int S;
};

// A function of the params alone, so that arena_workspace_size and arena_launch agree.
static Plan make_plan(int64_t B, int64_t C, int64_t HW) {
  Plan p;
  p.vec = HW % 4 == 0 ? 4 : 1;
  p.hwv = (unsigned)(HW / p.vec);
  const int64_t nv = B * HW / p.vec;
  p.nv = (unsigned)nv;
  int64_t S = (TARGET_BLOCKS + C - 1) / C;
  const int64_t by_size = (nv + MIN_VECTORS - 1) / MIN_VECTORS;
  if (S > by_size) S = by_size;
  if (S > 65535) S = 65535;
  if (S < 1) S = 1;
  p.S = (int)S;
  p.per = (unsigned)((nv + S - 1) / S);
  return p;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const Plan p = make_plan(a->ints[0], a->ints[1], a->ints[2]);
  return p.S > 1 ? 3 * (size_t)a->ints[1] * (size_t)p.S * sizeof(float) : 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* mean = static_cast<float*>(a->tensors[1]);
  float* var = static_cast<float*>(a->tensors[2]);
  const int64_t B = a->ints[0], C = a->ints[1], HW = a->ints[2];
  if (B * HW >= ((int64_t)1 << 31)) return 1;  // per-channel positions are 32-bit
  const Plan p = make_plan(B, C, HW);
  Partials ws{nullptr, nullptr, nullptr};
  if (p.S > 1) {
    const size_t cs = (size_t)C * (size_t)p.S;
    if (a->workspace == nullptr || a->workspace_bytes < 3 * cs * sizeof(float)) return 1;
    ws.n = static_cast<float*>(a->workspace);
    ws.mu = ws.n + cs;
    ws.q = ws.mu + cs;
  }
  const dim3 grid((unsigned)C, (unsigned)p.S);
  if (p.vec == 4)
    hipLaunchKernelGGL(stats_partial<4>, grid, dim3(THREADS), 0, a->stream, x, mean, var, ws, (int)C, p.hwv, p.nv,
                       p.per, p.S);
  else
    hipLaunchKernelGGL(stats_partial<1>, grid, dim3(THREADS), 0, a->stream, x, mean, var, ws, (int)C, p.hwv, p.nv,
                       p.per, p.S);
  if (p.S > 1) {
    int dev = 0, warp = 0;
    if (hipGetDevice(&dev) != hipSuccess) return 1;
    if (hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
    const int per_block = THREADS / warp;
    hipLaunchKernelGGL(stats_final, dim3((unsigned)((C + per_block - 1) / per_block)), dim3(THREADS), 0, a->stream,
                       ws, mean, var, (int)C, p.S);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// nn.GroupNorm (affine) over fp32 [B, C, HW] (C = G * CPG; a group is CPG * HW contiguous
// values). Eager PyTorch runs a Welford statistics kernel with one block per group (too few
// blocks when B * G is small, scalar loads), a kernel for the per-channel scale and shift,
// and an elementwise pass: x is read twice from memory. Two strategies here:
//  - many small groups (CPG * HW <= 32768, 16384 when HW % 4 != 0, and at least two groups
//    per multiprocessor): one block per group holds the whole group in registers (at most 32
//    values per thread), so x is read once; mean, then the variance about it, from the
//    registers;
//  - otherwise each group is cut into chunks of 8192 values: a statistics kernel (one block
//    per chunk) keeps its chunk in registers and writes the chunk's mean and sum of squared
//    deviations to the workspace; an apply kernel (one block per chunk) merges its group's
//    chunk statistics (Chan et al.) in one warp and normalizes its chunk. x is read twice,
//    and the apply kernel walks the chunks in reverse order so that the chunks the
//    statistics kernel read last are still in L2.
// 16-byte loads and stores when HW % 4 == 0 (four values of one channel, 16-byte aligned),
// scalar ones otherwise. y = (x - mean) * (rstd * weight[c]) + bias[c]. Works with 32- and
// 64-wide warps.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define MAX_WARPS 32           // 1024 threads / 32 lanes
#define CHUNK_THREADS 256      // threads of a chunk block
#define CHUNK (CHUNK_THREADS * 32)  // values per chunk: 32 per thread

template <int VEC>
__device__ __forceinline__ void load_vec(const float* p, float* v) {
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
  } else {
    v[0] = *p;
  }
}

template <int VEC>
__device__ __forceinline__ void store_vec(float* p, const float* v) {
  if constexpr (VEC == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
    *p = v[0];
  }
}

// Sum over the whole block (blockDim.x a multiple of warpSize): warp shuffles, then one shared
// slot per warp. Every thread gets the result; `red` is free again on return.
__device__ __forceinline__ float block_sum(float v, float* red) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  const int nwarps = blockDim.x / warpSize;
  if (nwarps > 1) {
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < nwarps; ++w) v += red[w];
    __syncthreads();
  }
  return v;
}

// Values [base, base + count) of a group (already offset to the group): thread t holds
// columns base + (k * blockDim.x + t) * VEC + [0, VEC); missing values are 0. Returns
// the mean, and the sum of squared deviations about it in *m2.
template <int VEC, int ITERS>
__device__ __forceinline__ float load_stats(const float* __restrict__ xs, int count, float* v, float* m2,
                                            float* red) {
  const int t = threadIdx.x;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + t) * VEC;
    if (col < count) {
      load_vec<VEC>(xs + col, v + k * VEC);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[k * VEC + j] = 0.0f;
    }
  }
#pragma unroll
  for (int i = 0; i < ITERS * VEC; ++i) s += v[i];
  const float mean = block_sum(s, red) / count;
  float q = 0.0f;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + t) * VEC;
    if (col < count) {
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const float d = v[k * VEC + j] - mean;
        q += d * d;
      }
    }
  }
  *m2 = block_sum(q, red);
  return mean;
}

// Normalizes the values held by load_stats: e0 is the offset of xs inside its group, g the
// group's index within the batch.
template <int VEC, int ITERS>
__device__ __forceinline__ void apply(float* __restrict__ ys, const float* v, int count, int e0, int g, int cpg, int hw,
                                      float mean, float rstd, const float* __restrict__ weight,
                                      const float* __restrict__ bias) {
  const int t = threadIdx.x;
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * blockDim.x + t) * VEC;
    if (col < count) {
      float o[VEC];
      if constexpr (VEC == 4) {  // HW % 4 == 0: the four values share a channel
        const int c = g * cpg + (e0 + col) / hw;
        const float sc = rstd * weight[c], sh = bias[c];
#pragma unroll
        for (int j = 0; j < 4; ++j) o[j] = (v[k * VEC + j] - mean) * sc + sh;
      } else {
        const int c = g * cpg + (e0 + col) / hw;
        o[0] = (v[k] - mean) * (rstd * weight[c]) + bias[c];
      }
      store_vec<VEC>(ys + col, o);
    }
  }
}

// One block per group, the group in registers.
template <int VEC, int ITERS>
__global__ void __launch_bounds__(1024) gn_regs(const float* __restrict__ x, const float* __restrict__ weight,
                                                const float* __restrict__ bias, float* __restrict__ y, int groups,
                                                int cpg, int hw, float eps) {
  __shared__ float red[MAX_WARPS];
  const int n = cpg * hw;
  const int64_t grp = blockIdx.x;
  const int g = (int)(grp % groups);
  float v[ITERS * VEC], m2;
  const float mean = load_stats<VEC, ITERS>(x + grp * n, n, v, &m2, red);
  const float rstd = rsqrtf(m2 / n + eps);
  apply<VEC, ITERS>(y + grp * n, v, n, 0, g, cpg, hw, mean, rstd, weight, bias);
}

// Chunk statistics: one block per chunk (group grp = blockIdx.x / nchunks).
template <int VEC>
__global__ void __launch_bounds__(CHUNK_THREADS) gn_stats(const float* __restrict__ x, float2* __restrict__ part,
                                                          int n, int nchunks) {
  __shared__ float red[MAX_WARPS];
  const int64_t grp = blockIdx.x / nchunks;
  const int ch = (int)(blockIdx.x % nchunks);
  const int e0 = ch * CHUNK;
  const int count = min(CHUNK, n - e0);
  float v[32], m2;
  const float mean = load_stats<VEC, 32 / VEC>(x + grp * n + e0, count, v, &m2, red);
  if (threadIdx.x == 0) part[blockIdx.x] = make_float2(mean, m2);
}

// Chan et al.: merge (count nb, mean mb, squared deviations qb) into (na, ma, qa).
__device__ __forceinline__ void merge(float& na, float& ma, float& qa, float nb, float mb, float qb) {
  const float nt = na + nb;
  if (nt == 0.0f) return;
  const float wb = nb / nt;
  const float delta = mb - ma;
  qa += qb + delta * delta * na * wb;
  ma += delta * wb;
  na = nt;
}

// Apply: one block per chunk, in reverse order of the statistics kernel.
template <int VEC>
__global__ void __launch_bounds__(CHUNK_THREADS) gn_apply(const float* __restrict__ x, const float2* __restrict__ part,
                                                          const float* __restrict__ weight,
                                                          const float* __restrict__ bias, float* __restrict__ y,
                                                          int groups, int cpg, int hw, int nchunks, float eps) {
  __shared__ float stat[2];
  const int n = cpg * hw;
  const int64_t bid = (int64_t)gridDim.x - 1 - blockIdx.x;
  const int64_t grp = bid / nchunks;
  const int ch = (int)(bid % nchunks);
  const int e0 = ch * CHUNK;
  const int count = min(CHUNK, n - e0);
  const int64_t off = grp * n + e0;

  // Issue this chunk's loads first; the statistics merge overlaps with them.
  constexpr int ITERS = 32 / VEC;
  float v[32];
#pragma unroll
  for (int k = 0; k < ITERS; ++k) {
    const int col = (k * CHUNK_THREADS + (int)threadIdx.x) * VEC;
    if (col < count) load_vec<VEC>(x + off + col, v + k * VEC);
  }

  if (threadIdx.x < warpSize) {  // warp 0 merges the group's chunk statistics
    float cnt = 0.0f, mean = 0.0f, m2 = 0.0f;
    const float2* pg = part + grp * nchunks;
    for (int i = threadIdx.x; i < nchunks; i += warpSize) {
      const float2 p = pg[i];
      merge(cnt, mean, m2, (float)min(CHUNK, n - i * CHUNK), p.x, p.y);
    }
    for (int o = warpSize / 2; o > 0; o >>= 1) {
      const float nb = __shfl_xor(cnt, o), mb = __shfl_xor(mean, o), qb = __shfl_xor(m2, o);
      merge(cnt, mean, m2, nb, mb, qb);
    }
    if (threadIdx.x == 0) {
      stat[0] = mean;
      stat[1] = rsqrtf(m2 / n + eps);
    }
  }
  __syncthreads();
  apply<VEC, ITERS>(y + off, v, count, e0, (int)(grp % groups), cpg, hw, stat[0], stat[1], weight, bias);
}

static int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

struct Args {
  const float *x, *weight, *bias;
  float* y;
  int64_t batches;
  int groups, cpg, hw;
  float eps;
  float2* part;
  hipStream_t stream;
};

static int64_t chunks_per_group(const arena_args* a) {
  const int64_t n = a->ints[2] * a->ints[3];
  return (n + CHUNK - 1) / CHUNK;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return (size_t)(a->ints[0] * a->ints[1] * chunks_per_group(a)) * sizeof(float2);
}

template <int VEC>
static int launch_regs(const Args& p, int threads, int iters) {
  const dim3 grid((unsigned)(p.batches * p.groups));
#define ARENA_CASE(IT)                                                                                            \
  case IT:                                                                                                        \
    if constexpr (IT * VEC <= 32) {                                                                               \
      hipLaunchKernelGGL((gn_regs<VEC, IT>), grid, dim3(threads), 0, p.stream, p.x, p.weight, p.bias, p.y,      \
                         p.groups, p.cpg, p.hw, p.eps);                                                           \
      return 0;                                                                                                   \
    }                                                                                                             \
    return 1;
  switch (iters) {
    ARENA_CASE(1)
    ARENA_CASE(2)
    ARENA_CASE(4)
    ARENA_CASE(8)
    ARENA_CASE(16)
    default: return 1;
  }
#undef ARENA_CASE
}

template <int VEC>
static int run(const Args& p, int ws, int sms) {
  const int n = p.cpg * p.hw;
  const int64_t ngroups = p.batches * p.groups;
  constexpr int MAXIT = VEC == 4 ? 8 : 16;  // at most 32 (vectors) or 16 (scalars) values per thread
  const int nvec = (n + VEC - 1) / VEC;
  if (nvec <= 1024 * MAXIT && ngroups >= 2 * (int64_t)sms) {
    int threads = pow2_at_least((nvec + MAXIT - 1) / MAXIT);
    const int small = pow2_at_least(nvec) < 128 ? pow2_at_least(nvec) : 128;
    if (threads < small) threads = small;
    if (threads < ws) threads = ws;
    const int iters = pow2_at_least((nvec + threads - 1) / threads);
    return launch_regs<VEC>(p, threads, iters);
  }
  const int nchunks = (n + CHUNK - 1) / CHUNK;
  const dim3 grid((unsigned)(ngroups * nchunks));
  hipLaunchKernelGGL(gn_stats<VEC>, grid, dim3(CHUNK_THREADS), 0, p.stream, p.x, p.part, n, nchunks);
  hipLaunchKernelGGL(gn_apply<VEC>, grid, dim3(CHUNK_THREADS), 0, p.stream, p.x, p.part, p.weight, p.bias, p.y,
                     p.groups, p.cpg, p.hw, nchunks, p.eps);
  return 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  Args p;
  p.x = static_cast<const float*>(a->tensors[0]);
  p.weight = static_cast<const float*>(a->tensors[1]);
  p.bias = static_cast<const float*>(a->tensors[2]);
  p.y = static_cast<float*>(a->tensors[3]);
  p.batches = a->ints[0];
  p.groups = (int)a->ints[1];
  p.cpg = (int)a->ints[2];
  p.hw = (int)a->ints[3];
  p.eps = (float)a->floats[0];
  p.part = static_cast<float2*>(a->workspace);
  p.stream = a->stream;
  int dev = 0, ws = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  const int rc = p.hw % 4 == 0 ? run<4>(p, ws, sms) : run<1>(p, ws, sms);
  if (rc != 0) return rc;
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Argmin over the middle axis of x [B, K, N] (fp32, contiguous) -> int64 y[b, n], the first
// index of the smallest value (as torch.argmin). One read of x, coalesced along n: a block is
// TX column vectors (VEC = 4 columns each when N % 4 == 0, so every row start is 16-byte
// aligned) times TY slices of the K axis; each thread issues UNROLL loads before comparing
// them in k order, the TY (value, index) pairs meet in shared memory. When B * N is too small
// to fill the device, K is also split across blocks: each writes its pairs to the workspace
// and a second small kernel picks the best per column. Every combine breaks ties towards the
// smaller index, so the result does not depend on how K was cut.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define MAX_SPLITS 64
#define WS_TARGET_BLOCKS 4096  // the most blocks any device is asked to fill (workspace bound)

template <int VEC>
struct Vec {
  float v[VEC];
};

template <int VEC>
__device__ __forceinline__ Vec<VEC> load(const float* p) {
  Vec<VEC> r;
  if constexpr (VEC == 4) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    r.v[0] = t.x; r.v[1] = t.y; r.v[2] = t.z; r.v[3] = t.w;
  } else {
    r.v[0] = *p;
  }
  return r;
}

// (v, i) beats (bv, bi): smaller, or equal at a smaller index.
__device__ __forceinline__ bool beats(float v, int i, float bv, int bi) { return v < bv || (v == bv && i < bi); }

// Best pairs of x[b, k0:k1, cols]: grid.x = column blocks * B, grid.y = K splits. tx column
// vectors per block (a power of two), THREADS / tx slices of K. Writes y directly when there
// is one split, else the pairs (value, index) of split s to pv/pi[s * count + column].
template <int VEC, int UNROLL>
__global__ void __launch_bounds__(THREADS) column_argmin(const float* __restrict__ x, int64_t* __restrict__ y,
                                                         float* __restrict__ pv, int* __restrict__ pi, int64_t K,
                                                         int64_t N, int64_t col_blocks, int64_t kchunk, int tx,
                                                         int splits) {
  __shared__ float red_v[THREADS * VEC];
  __shared__ int red_i[THREADS * VEC];
  const int ty_count = THREADS / tx;
  const int lx = threadIdx.x % tx, ly = threadIdx.x / tx;
  const int64_t b = blockIdx.x / col_blocks;
  const int64_t cv = (blockIdx.x % col_blocks) * tx + lx;  // column vector index
  const bool valid = cv * VEC < N;
  const int64_t k0 = (int64_t)blockIdx.y * kchunk;
  const int64_t k1 = k0 + kchunk < K ? k0 + kchunk : K;

  float best[VEC];
  int bidx[VEC];
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    best[j] = INFINITY;
    bidx[j] = INT32_MAX;
  }
  if (valid) {
    const float* p = x + b * K * N + cv * VEC;
    int64_t k = k0 + ly;
    // This thread's rows come in increasing k, so a strict < keeps the first minimum.
    for (; k + (int64_t)(UNROLL - 1) * ty_count < k1; k += (int64_t)UNROLL * ty_count) {
      Vec<VEC> v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load<VEC>(p + (k + (int64_t)u * ty_count) * N);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
#pragma unroll
        for (int j = 0; j < VEC; ++j)
          if (v[u].v[j] < best[j] || bidx[j] == INT32_MAX) {
            best[j] = v[u].v[j];
            bidx[j] = (int)(k + u * ty_count);
          }
    }
    for (; k < k1; k += ty_count) {
      const Vec<VEC> v = load<VEC>(p + k * N);
#pragma unroll
      for (int j = 0; j < VEC; ++j)
        if (v.v[j] < best[j] || bidx[j] == INT32_MAX) {
          best[j] = v.v[j];
          bidx[j] = (int)k;
        }
    }
  }
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    red_v[(ly * tx + lx) * VEC + j] = best[j];
    red_i[(ly * tx + lx) * VEC + j] = bidx[j];
  }
  __syncthreads();
  if (ly == 0 && valid) {
    const int64_t col = b * N + cv * VEC;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      float bv = red_v[lx * VEC + j];
      int bi = red_i[lx * VEC + j];
      for (int t = 1; t < ty_count; ++t) {
        const float v = red_v[(t * tx + lx) * VEC + j];
        const int i = red_i[(t * tx + lx) * VEC + j];
        if (beats(v, i, bv, bi)) {
          bv = v;
          bi = i;
        }
      }
      if (splits == 1) {
        y[col + j] = bi;
      } else {
        const int64_t o = (int64_t)blockIdx.y * (gridDim.x / col_blocks) * N + col + j;
        pv[o] = bv;
        pi[o] = bi;
      }
    }
  }
}

// y[c] = the index of the best pair over the splits of column c.
__global__ void __launch_bounds__(THREADS) pick_splits(const float* __restrict__ pv, const int* __restrict__ pi,
                                                       int64_t* __restrict__ y, int64_t count, int splits) {
  const int64_t c = (int64_t)blockIdx.x * THREADS + threadIdx.x;
  if (c >= count) return;
  float bv = pv[c];
  int bi = pi[c];
  for (int s = 1; s < splits; ++s) {
    const float v = pv[(int64_t)s * count + c];
    const int i = pi[(int64_t)s * count + c];
    if (beats(v, i, bv, bi)) {
      bv = v;
      bi = i;
    }
  }
  y[c] = bi;
}

struct Plan {
  int vec, tx;
  int64_t col_blocks, splits, kchunk;
};

static int pow2_at_least(int64_t v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

// target_blocks: blocks of THREADS that fill the device. The split count never decreases as
// the target grows, so the workspace sized for WS_TARGET_BLOCKS covers every device.
static Plan make_plan(int64_t B, int64_t K, int64_t N, int64_t target_blocks) {
  Plan p;
  p.vec = N % 4 == 0 ? 4 : 1;
  const int64_t nvec = N / p.vec;
  p.tx = pow2_at_least(nvec < 32 ? nvec : 32);
  p.col_blocks = (nvec + p.tx - 1) / p.tx;
  const int64_t blocks = p.col_blocks * B;
  const int64_t ty = THREADS / p.tx;
  int64_t s = target_blocks / blocks;                  // 0 or 1 when B * N fills the device
  const int64_t most = (K + 16 * ty - 1) / (16 * ty);  // at least ~16 rows of K per thread
  if (s > most) s = most;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  if (s < 1) s = 1;
  p.kchunk = (K + s - 1) / s;
  p.splits = (K + p.kchunk - 1) / p.kchunk;
  return p;
}

static size_t pair_bytes(int64_t count, int64_t splits) { return (size_t)(splits * count) * (sizeof(float) + sizeof(int)); }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t B = a->ints[0], K = a->ints[1], N = a->ints[2];
  const Plan p = make_plan(B, K, N, WS_TARGET_BLOCKS);
  return p.splits > 1 ? pair_bytes(B * N, p.splits) : 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  int64_t* y = static_cast<int64_t*>(a->tensors[1]);
  const int64_t B = a->ints[0], K = a->ints[1], N = a->ints[2];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  int64_t target = (int64_t)(sms > 0 ? sms : 1) * 8;
  if (target > WS_TARGET_BLOCKS) target = WS_TARGET_BLOCKS;
  const Plan p = make_plan(B, K, N, target);
  const int64_t count = B * N;
  float* pv = nullptr;
  int* pi = nullptr;
  if (p.splits > 1) {
    if (a->workspace_bytes < pair_bytes(count, p.splits)) return 1;
    pv = static_cast<float*>(a->workspace);
    pi = reinterpret_cast<int*>(pv + p.splits * count);
  }
  const dim3 grid((unsigned)(p.col_blocks * B), (unsigned)p.splits);
  if (p.vec == 4)
    hipLaunchKernelGGL((column_argmin<4, 4>), grid, dim3(THREADS), 0, a->stream, x, y, pv, pi, K, N, p.col_blocks,
                       p.kchunk, p.tx, (int)p.splits);
  else
    hipLaunchKernelGGL((column_argmin<1, 8>), grid, dim3(THREADS), 0, a->stream, x, y, pv, pi, K, N, p.col_blocks,
                       p.kchunk, p.tx, (int)p.splits);
  if (p.splits > 1)
    hipLaunchKernelGGL(pick_splits, dim3((unsigned)((count + THREADS - 1) / THREADS)), dim3(THREADS), 0, a->stream,
                       pv, pi, y, count, (int)p.splits);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Mean over the middle axis of x [B, K, N] (fp32, contiguous): y[b, n] = sum_k x[b, k, n] / K.
// One read of x, coalesced along n: a block is TX column vectors (VEC = 4 columns each when
// N % 4 == 0, so every row start is 16-byte aligned) times TY slices of the K axis; each
// thread walks its slice with independent accumulators (several loads in flight), the TY
// partial sums meet in shared memory. When B * N is too small to fill the device (few, long
// columns), K is also split across blocks: each writes its partial sums to the workspace and
// a second small kernel adds them per column. The sum is scaled by 1 / K as it is stored.
#include <hip/hip_runtime.h>
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

// Partial sums of x[b, k0:k1, cols]: grid.x = column blocks * B, grid.y = K splits.
// tx column vectors per block (a power of two), THREADS / tx slices of K.
template <int VEC, int UNROLL>
__global__ void __launch_bounds__(THREADS) column_mean(const float* __restrict__ x, float* __restrict__ out,
                                                      int64_t K, int64_t N, int64_t col_blocks, int64_t kchunk,
                                                      int tx, int64_t out_split_stride, float scale) {
  __shared__ float red[THREADS * VEC];
  const int ty_count = THREADS / tx;
  const int lx = threadIdx.x % tx, ly = threadIdx.x / tx;
  const int64_t b = blockIdx.x / col_blocks;
  const int64_t cv = (blockIdx.x % col_blocks) * tx + lx;  // column vector index
  const bool valid = cv * VEC < N;
  const int64_t k0 = (int64_t)blockIdx.y * kchunk;
  const int64_t k1 = k0 + kchunk < K ? k0 + kchunk : K;

  float acc[UNROLL][VEC];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u)
#pragma unroll
    for (int j = 0; j < VEC; ++j) acc[u][j] = 0.0f;
  if (valid) {
    const float* p = x + b * K * N + cv * VEC;
    int64_t k = k0 + ly;
    for (; k + (int64_t)(UNROLL - 1) * ty_count < k1; k += (int64_t)UNROLL * ty_count) {
      Vec<VEC> v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load<VEC>(p + (k + (int64_t)u * ty_count) * N);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
#pragma unroll
        for (int j = 0; j < VEC; ++j) acc[u][j] += v[u].v[j];
    }
    for (; k < k1; k += ty_count) {
      const Vec<VEC> v = load<VEC>(p + k * N);
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[0][j] += v.v[j];
    }
  }
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    float s = 0.0f;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) s += acc[u][j];
    red[(ly * tx + lx) * VEC + j] = s;
  }
  __syncthreads();
  if (ly == 0 && valid) {
    float* o = out + (int64_t)blockIdx.y * out_split_stride + b * N + cv * VEC;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      float s = 0.0f;
      for (int t = 0; t < ty_count; ++t) s += red[(t * tx + lx) * VEC + j];
      o[j] = s * scale;
    }
  }
}

// y[i] = scale * the sum over the splits of part[s][i].
__global__ void __launch_bounds__(THREADS) add_splits(const float* __restrict__ part, float* __restrict__ y,
                                                      int64_t count, int splits, float scale) {
  const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;
  if (i >= count) return;
  float s = 0.0f;
  for (int t = 0; t < splits; ++t) s += part[(int64_t)t * count + i];
  y[i] = s * scale;
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
  int64_t s = target_blocks / blocks;               // 0 or 1 when B * N fills the device
  const int64_t most = (K + 16 * ty - 1) / (16 * ty);  // at least ~16 rows of K per thread
  if (s > most) s = most;
  if (s > MAX_SPLITS) s = MAX_SPLITS;
  if (s < 1) s = 1;
  p.kchunk = (K + s - 1) / s;
  p.splits = (K + p.kchunk - 1) / p.kchunk;
  return p;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t B = a->ints[0], K = a->ints[1], N = a->ints[2];
  const Plan p = make_plan(B, K, N, WS_TARGET_BLOCKS);
  return p.splits > 1 ? (size_t)(p.splits * B * N) * sizeof(float) : 0;
}

template <int VEC>
static void run_columns(const float* x, float* out, int64_t B, int64_t K, int64_t N, const Plan& p,
                        int64_t split_stride, float scale, hipStream_t st) {
  const dim3 grid((unsigned)(p.col_blocks * B), (unsigned)p.splits);
  if (VEC == 4)
    hipLaunchKernelGGL((column_mean<4, 4>), grid, dim3(THREADS), 0, st, x, out, K, N, p.col_blocks, p.kchunk, p.tx,
                       split_stride, scale);
  else
    hipLaunchKernelGGL((column_mean<1, 8>), grid, dim3(THREADS), 0, st, x, out, K, N, p.col_blocks, p.kchunk, p.tx,
                       split_stride, scale);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t B = a->ints[0], K = a->ints[1], N = a->ints[2];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  int64_t target = (int64_t)(sms > 0 ? sms : 1) * 8;
  if (target > WS_TARGET_BLOCKS) target = WS_TARGET_BLOCKS;
  const Plan p = make_plan(B, K, N, target);
  const int64_t count = B * N;
  const float scale = (float)(1.0 / (double)K);
  if (p.splits == 1) {
    if (p.vec == 4) run_columns<4>(x, y, B, K, N, p, 0, scale, a->stream);
    else run_columns<1>(x, y, B, K, N, p, 0, scale, a->stream);
  } else {
    float* part = static_cast<float*>(a->workspace);
    if (a->workspace_bytes < (size_t)(p.splits * count) * sizeof(float)) return 1;
    if (p.vec == 4) run_columns<4>(x, part, B, K, N, p, count, 1.0f, a->stream);
    else run_columns<1>(x, part, B, K, N, p, count, 1.0f, a->stream);
    hipLaunchKernelGGL(add_splits, dim3((unsigned)((count + THREADS - 1) / THREADS)), dim3(THREADS), 0, a->stream,
                       part, y, count, (int)p.splits, scale);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

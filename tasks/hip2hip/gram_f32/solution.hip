// Gram matrix G = A^T * A (row-major A [M,N], G [N,N]) in fp32, split along M.
//
// G is symmetric, so only the tile pairs (bi <= bj) of its upper triangle are computed, T x T
// tiles (T = 64, or 32 when N <= 32). The rows of A are cut into chunks and the grid is
// (chunk, tile pair): enough blocks to fill the device even when G is a single tile. A block
// streams its chunk of rows 16 at a time: the rows' segments [bi*T, bi*T+T) and
// [bj*T, bj*T+T) are already the K-major operands of a GEMM (A^T A sums outer products of the
// rows), so they go to shared memory as loaded, with 16-byte vector loads (checked scalar
// loads on the ragged right edge or when N % 4 != 0) and no transposition; a diagonal pair
// loads one segment and uses it twice. Each thread keeps a 4 x 4 block of the tile in
// registers (16 FMAs per two 16-byte shared loads); the next rows are fetched into registers
// while the current ones are used (double-buffered shared memory, one barrier per step).
// With T = 32 a block holds four independent 64-thread groups, each taking every fourth step
// of the chunk, and adds their tiles in shared memory at the end. Every block writes its
// partial tile to the workspace; a second kernel sums the partials of each element in a fixed
// order (deterministic) and writes G[i][j] and its mirror G[j][i].
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define NTHREADS 256
#define BK 16                   // rows of A per step
#define MAX_PARTIAL_FLOATS (1 << 21)
#define TARGET_BLOCKS 264       // about two per multiprocessor on a 132-SM device

template <int T>
__global__ __launch_bounds__(NTHREADS) void gram_partial(const float* __restrict__ A,
                                                         float* __restrict__ W, int M, int N,
                                                         int nt, int rows_per_chunk) {
  constexpr int TPS = T / 4;                   // threads per tile side (4 x 4 each)
  constexpr int GT = TPS * TPS;                // threads of a group
  constexpr int NG = NTHREADS / GT;            // groups per block
  constexpr int VEC = BK * T / 4;              // float4 slots of one step's segment
  constexpr int LD = (VEC + GT - 1) / GT;
  static_assert(NG * GT == NTHREADS, "group size");
  static_assert(NG == 1 || 2 * BK >= T, "shared memory reuse for the group sum");

  __shared__ __attribute__((aligned(16))) float As[NG][2][BK][T];
  __shared__ __attribute__((aligned(16))) float Bs[NG][2][BK][T];

  const int t = threadIdx.x;
  const int g = t / GT, tg = t % GT;
  const int tx = tg % TPS, ty = tg / TPS;

  // Tile pair (bi, bj), bi <= bj, from its index in row-major upper-triangle order.
  int bi = 0, rem = blockIdx.y;
  while (rem >= nt - bi) {
    rem -= nt - bi;
    ++bi;
  }
  const int bj = bi + rem;
  const bool diag = bi == bj;
  const int ci = bi * T, cj = bj * T;

  const int r0 = blockIdx.x * rows_per_chunk;
  const int r1 = M < r0 + rows_per_chunk ? M : r0 + rows_per_chunk;
  const int nsteps = (r1 - r0 + BK - 1) / BK;
  const int iters = (nsteps + NG - 1) / NG;  // the same for every group: barriers stay uniform
  const bool vec = (N % 4) == 0;

  float4 ra[LD], rb[LD];

  // One row segment of T columns starting at c0, zero past the matrix.
  auto load4 = [&](int r, int c) -> float4 {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    const float* p = A + (int64_t)r * N + c;
    if (vec && c + 3 < N) {
      v = *reinterpret_cast<const float4*>(p);
    } else {
      if (c + 0 < N) v.x = p[0];
      if (c + 1 < N) v.y = p[1];
      if (c + 2 < N) v.z = p[2];
      if (c + 3 < N) v.w = p[3];
    }
    return v;
  };
  // Global -> registers for iteration `it` of this group (step it*NG + g of the chunk).
  auto load_step = [&](int it) {
    const int step = it * NG + g;
    const int rbase = r0 + step * BK;
#pragma unroll
    for (int l = 0; l < LD; ++l) {
      const int idx = tg + l * GT;
      const int k = idx / (T / 4), c = (idx % (T / 4)) * 4;
      const int r = rbase + k;
      float4 a = make_float4(0.f, 0.f, 0.f, 0.f), b = a;
      if (idx < VEC && step < nsteps && r < r1) {
        a = load4(r, ci + c);
        if (!diag) b = load4(r, cj + c);
      }
      ra[l] = a;
      rb[l] = b;
    }
  };
  auto store_step = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LD; ++l) {
      const int idx = tg + l * GT;
      if (idx < VEC) {
        const int k = idx / (T / 4), c = (idx % (T / 4)) * 4;
        *reinterpret_cast<float4*>(&As[g][buf][k][c]) = ra[l];
        if (!diag) *reinterpret_cast<float4*>(&Bs[g][buf][k][c]) = rb[l];
      }
    }
  };

  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  load_step(0);
  store_step(0);
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    const int cur = it & 1;
    const bool more = it + 1 < iters;
    if (more) load_step(it + 1);  // in flight while we compute
    const float(*as)[T] = As[g][cur];
    const float(*bs)[T] = diag ? As[g][cur] : Bs[g][cur];
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 a4 = *reinterpret_cast<const float4*>(&as[k][ty * 4]);
      const float4 b4 = *reinterpret_cast<const float4*>(&bs[k][tx * 4]);
      const float a[4] = {a4.x, a4.y, a4.z, a4.w};
      const float b[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (more) store_step(cur ^ 1);
    __syncthreads();
  }

  // Partial tile of this (chunk, pair): W[chunk][pair][T][T].
  const int npairs = nt * (nt + 1) / 2;
  float* out = W + ((int64_t)blockIdx.x * npairs + blockIdx.y) * (T * T);
  if (NG == 1) {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      *reinterpret_cast<float4*>(out + (ty * 4 + i) * T + tx * 4) =
          make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  } else {
    // Groups' tiles to shared memory (As is free after the last barrier), then summed in
    // group order.
    float* red = &As[0][0][0][0];  // NG * 2 * BK * T >= NG * T * T floats
#pragma unroll
    for (int i = 0; i < 4; ++i)
      *reinterpret_cast<float4*>(red + g * T * T + (ty * 4 + i) * T + tx * 4) =
          make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    __syncthreads();
    for (int e = t; e < T * T; e += NTHREADS) {
      float s = red[e];
      for (int q = 1; q < NG; ++q) s += red[q * T * T + e];
      out[e] = s;
    }
  }
}

// Sums the partial tiles of each element over the chunks (16 lanes per element, each a fixed
// stride of chunks, then the lanes in order) and writes G[i][j] and, off the diagonal tiles,
// G[j][i].
__global__ __launch_bounds__(NTHREADS) void gram_reduce(const float* __restrict__ W,
                                                        float* __restrict__ G, int N, int T,
                                                        int nt, int64_t E, int nchunks) {
  __shared__ float red[16][17];
  const int x = threadIdx.x % 16, y = threadIdx.x / 16;
  const int64_t e = (int64_t)blockIdx.x * 16 + x;
  float s = 0.0f;
  if (e < E)
    for (int c = y; c < nchunks; c += 16) s += W[(int64_t)c * E + e];
  red[y][x] = s;
  __syncthreads();
  if (y == 0 && e < E) {
    float total = red[0][x];
    for (int q = 1; q < 16; ++q) total += red[q][x];
    const int TT = T * T;
    int rem = (int)(e / TT);
    const int w = (int)(e % TT);
    int bi = 0;
    while (rem >= nt - bi) {
      rem -= nt - bi;
      ++bi;
    }
    const int bj = bi + rem;
    const int i = bi * T + w / T, j = bj * T + w % T;
    if (i < N && j < N) {
      G[(int64_t)i * N + j] = total;
      if (bi != bj) G[(int64_t)j * N + i] = total;
    }
  }
}

struct Plan {
  int T, nt, npairs, rows, nchunks;
  int64_t E;  // floats of one chunk's partial tiles
};

// A function of the params alone, so that arena_workspace_size and arena_launch agree.
static Plan make_plan(int64_t M, int64_t N) {
  Plan p;
  p.T = N <= 32 ? 32 : 64;
  p.nt = (int)((N + p.T - 1) / p.T);
  p.npairs = p.nt * (p.nt + 1) / 2;
  p.E = (int64_t)p.npairs * p.T * p.T;
  int64_t n = (TARGET_BLOCKS + p.npairs - 1) / p.npairs;
  const int64_t cap = MAX_PARTIAL_FLOATS / p.E;
  if (n > cap) n = cap;
  const int64_t steps = (M + BK - 1) / BK;
  if (n > steps) n = steps;
  if (n < 1) n = 1;
  int64_t rows = (M + n - 1) / n;
  rows = (rows + BK - 1) / BK * BK;
  p.rows = (int)rows;
  p.nchunks = (int)((M + rows - 1) / rows);
  return p;
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const Plan p = make_plan(a->ints[0], a->ints[1]);
  return (size_t)p.nchunks * (size_t)p.E * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  float* G = static_cast<float*>(a->tensors[1]);
  const int M = (int)a->ints[0];
  const int N = (int)a->ints[1];
  const Plan p = make_plan(M, N);
  if (a->workspace == nullptr || a->workspace_bytes < (size_t)p.nchunks * (size_t)p.E * sizeof(float))
    return 1;
  float* W = static_cast<float*>(a->workspace);
  const dim3 grid((unsigned)p.nchunks, (unsigned)p.npairs);
  if (p.T == 32)
    hipLaunchKernelGGL(gram_partial<32>, grid, dim3(NTHREADS), 0, a->stream, A, W, M, N, p.nt,
                       p.rows);
  else
    hipLaunchKernelGGL(gram_partial<64>, grid, dim3(NTHREADS), 0, a->stream, A, W, M, N, p.nt,
                       p.rows);
  if (hipGetLastError() != hipSuccess) return 1;
  const int64_t rblocks = (p.E + 15) / 16;
  hipLaunchKernelGGL(gram_reduce, dim3((unsigned)rblocks), dim3(NTHREADS), 0, a->stream, W, G, N,
                     p.T, p.nt, p.E, p.nchunks);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

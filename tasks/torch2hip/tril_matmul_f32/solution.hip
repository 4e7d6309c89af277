// C = tril(tril(A) tril(B)) for fp32 M x M matrices (M is called N below): with both factors lower triangular,
//
//     C[i][j] = sum_{k = j .. i} A[i][k] * B[k][j]   (j <= i),   C[i][j] = 0   (j > i),
//
// so a 128 x 128 tile of C at rows m0.., columns n0.. needs only k in [n0, m0 + 128): a sixth
// of the dense product's flops in all, where eager PyTorch (and torch.compile, through cuBLAS)
// multiply the full matrices. Tiles above the diagonal are only zero-filled.
//
// Register-blocked fp32 GEMM: a 256-thread block computes one 128 x 128 tile, 8 x 8 per thread.
// Per step of 8 along k each thread loads one 16-byte vector of the A tile (k-contiguous;
// stored k-major, i.e. transposed, in shared memory) and one of the B tile (already k-major),
// zeroing the entries outside the triangles (the inputs' lower parts are ignored), double
// buffered with the next step's global loads in flight during the FMAs and one barrier per
// step. A thread's rows and columns come in two groups of 4 spaced 64 apart: 16-byte,
// conflict-free shared reads. Grid: y walks the tile diagonals from the farthest (the longest k
// range) to the zero tiles above the diagonal, x the tile column, so the longest tiles start
// first.
// 16-byte global accesses when N % 4 == 0, checked scalar ones otherwise; any N >= 1 works.
// Plain fp32 FMA throughout.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define BT 128  // tile edge
#define BK 8
#define PAD 4   // keeps rows 16-byte aligned and the transposed stores conflict-free

__global__ __launch_bounds__(THREADS, 2) void tril_gemm(const float* __restrict__ A, const float* __restrict__ B,
                                                        float* __restrict__ C, int N, int tiles) {
  __shared__ __attribute__((aligned(16))) float As[2][BK][BT + PAD];
  __shared__ __attribute__((aligned(16))) float Bs[2][BK][BT + PAD];
  const int d = tiles - 1 - (int)blockIdx.y;  // tile diagonal: mt - nt, farthest first
  const int nt = blockIdx.x, mt = nt + d;
  if (mt < 0 || mt >= tiles) return;
  const int m0 = mt * BT, n0 = nt * BT;
  const int t = threadIdx.x;
  const int tx = t % 16, ty = t / 16;
  const bool vec = (N % 4) == 0;

  if (d < 0) {  // above the diagonal: zeros
    for (int idx = t; idx < BT * (BT / 4); idx += THREADS) {
      const int r = m0 + idx / (BT / 4), c = n0 + (idx % (BT / 4)) * 4;
      if (r >= N) continue;
      float* p = C + (int64_t)r * N + c;
      if (vec && c + 3 < N) {
        *reinterpret_cast<float4*>(p) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      } else {
        for (int j = 0; j < 4 && c + j < N; ++j) p[j] = 0.0f;
      }
    }
    return;
  }

  const int kbeg = n0, kend = min(N, m0 + BT);
  // A tile: row m0 + (t >> 1), k offsets (t & 1) * 4 .. +3. B tile: k row t / 32, columns
  // n0 + (t % 32) * 4 .. +3.
  const int ar = m0 + (t >> 1), ak = (t & 1) * 4;
  const int bk = t / 32, bc = n0 + (t % 32) * 4;

  auto load_a = [&](int k0) {  // A[ar][k] for k <= ar (lower triangle), else 0
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const int k = k0 + ak;
    if (ar < N) {
      const float* p = A + (int64_t)ar * N + k;
      if (vec && k + 3 < kend) {
        const float4 q = *reinterpret_cast<const float4*>(p);
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
      } else {
        for (int j = 0; j < 4; ++j)
          if (k + j < kend) v[j] = p[j];
      }
      for (int j = 0; j < 4; ++j)
        if (k + j > ar) v[j] = 0.0f;
    }
    return make_float4(v[0], v[1], v[2], v[3]);
  };
  auto load_b = [&](int k0) {  // B[k][c] for k >= c (lower triangle), else 0
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const int k = k0 + bk;
    if (k < kend) {
      const float* p = B + (int64_t)k * N + bc;
      if (vec && bc + 3 < N) {
        const float4 q = *reinterpret_cast<const float4*>(p);
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
      } else {
        for (int j = 0; j < 4; ++j)
          if (bc + j < N) v[j] = p[j];
      }
      for (int j = 0; j < 4; ++j)
        if (k < bc + j) v[j] = 0.0f;
    }
    return make_float4(v[0], v[1], v[2], v[3]);
  };
  auto store = [&](int buf, float4 a, float4 b) {
    const int r = t >> 1;
    As[buf][ak + 0][r] = a.x; As[buf][ak + 1][r] = a.y; As[buf][ak + 2][r] = a.z; As[buf][ak + 3][r] = a.w;
    *reinterpret_cast<float4*>(&Bs[buf][bk][(t % 32) * 4]) = b;
  };

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  float4 ra = load_a(kbeg), rb = load_b(kbeg);
  store(0, ra, rb);
  __syncthreads();
  const int ktiles = (kend - kbeg + BK - 1) / BK;
  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) {
      ra = load_a(kbeg + (kt + 1) * BK);
      rb = load_b(kbeg + (kt + 1) * BK);
    }
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[8], b[8];
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + tx * 4]);
      a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w; a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
      b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w; b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (more) store(cur ^ 1, ra, rb);
    __syncthreads();
  }

  // Sub-tile element (i, j) is row m0 + (i / 4) * 64 + ty * 4 + i % 4, column
  // n0 + (j / 4) * 64 + tx * 4 + j % 4; entries right of the diagonal are written as 0.
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int m = m0 + (i / 4) * 64 + ty * 4 + i % 4;
    if (m >= N) continue;
    float* row = C + (int64_t)m * N;
#pragma unroll
    for (int g = 0; g < 2; ++g) {
      const int n = n0 + g * 64 + tx * 4;
      float o[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) o[j] = n + j <= m ? acc[i][g * 4 + j] : 0.0f;
      if (vec && n + 3 < N) {
        *reinterpret_cast<float4*>(row + n) = make_float4(o[0], o[1], o[2], o[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (n + j < N) row[n + j] = o[j];
      }
    }
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  const float* B = static_cast<const float*>(a->tensors[1]);
  float* C = static_cast<float*>(a->tensors[2]);
  const int64_t N = a->ints[0];
  const int64_t tiles = (N + BT - 1) / BT;
  if (N > 0x7fffffff || 2 * tiles - 1 > 65535) return 1;
  hipLaunchKernelGGL(tril_gemm, dim3((unsigned)tiles, (unsigned)(2 * tiles - 1)), dim3(THREADS), 0, a->stream, A, B,
                     C, (int)N, (int)tiles);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

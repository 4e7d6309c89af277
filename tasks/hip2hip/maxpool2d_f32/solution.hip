// K x K max pooling (stride S, padding K/2 ignored) of fp32 NCHW, separable and tiled: a block
// owns a TOH x TOW tile of one output plane, stages the input rows and columns it needs once
// in shared memory (coalesced row segments, -inf outside the plane), takes the maximum over
// each row window (IH x TOW values), then over each column window of those, and writes the
// tile with coalesced stores. Per output that is about 2K shared-memory reads instead of K*K
// global (L1) reads, and every input element comes from DRAM about once. K and S are template
// parameters (odd K <= 13, S <= 2), so the window loops unroll; other values take a runtime-K
// instantiation. Tiles: the whole plane when it is small (SPP-style 20 x 20 maps), otherwise
// up to 64 columns and about 2048 outputs, shrunk to fit 40 KB of shared memory.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define TX 32
#define TY 8
#define SMEM_FLOATS 10240  // 40 KB

struct PoolArgs {
  int H, W, Ho, Wo, K, S;
  int toh, tow;            // output tile
  int tiles_w, tiles_h;    // tiles per plane
};

template <int KT, int ST>
__global__ void __launch_bounds__(TX * TY) maxpool_tiled(const float* __restrict__ x, float* __restrict__ y, PoolArgs p) {
  extern __shared__ float smem[];
  const int K = KT > 0 ? KT : p.K;
  const int S = ST > 0 ? ST : p.S;
  const int P = K / 2;
  const int tx = threadIdx.x, ty = threadIdx.y;

  int64_t bid = blockIdx.x;
  const int tw = (int)(bid % p.tiles_w);
  bid /= p.tiles_w;
  const int th = (int)(bid % p.tiles_h);
  const int64_t plane = bid / p.tiles_h;

  const int oh0 = th * p.toh, ow0 = tw * p.tow;
  const int toh = p.Ho - oh0 < p.toh ? p.Ho - oh0 : p.toh;  // this tile's size
  const int tow = p.Wo - ow0 < p.tow ? p.Wo - ow0 : p.tow;
  const int ih0 = oh0 * S - P, iw0 = ow0 * S - P;
  const int nih = (toh - 1) * S + K, niw = (tow - 1) * S + K;
  float* xs = smem;               // [nih][niw]
  float* hs = smem + nih * niw;   // [nih][tow]

  const float* xp = x + plane * (int64_t)p.H * p.W;
  for (int r = ty; r < nih; r += TY) {
    const int ih = ih0 + r;
    const bool row_ok = ih >= 0 && ih < p.H;
    const float* xr = xp + (int64_t)(row_ok ? ih : 0) * p.W;
    for (int c = tx; c < niw; c += TX) {
      const int iw = iw0 + c;
      xs[r * niw + c] = (row_ok && iw >= 0 && iw < p.W) ? xr[iw] : -INFINITY;
    }
  }
  __syncthreads();

  for (int r = ty; r < nih; r += TY) {
    const float* src = xs + r * niw;
    for (int c = tx; c < tow; c += TX) {
      const float* s = src + c * S;
      float m = s[0];
#pragma unroll
      for (int k = 1; k < K; ++k) m = fmaxf(m, s[k]);
      hs[r * tow + c] = m;
    }
  }
  __syncthreads();

  float* yp = y + plane * (int64_t)p.Ho * p.Wo;
  for (int r = ty; r < toh; r += TY) {
    const float* src = hs + (r * S) * tow;
    for (int c = tx; c < tow; c += TX) {
      float m = src[c];
#pragma unroll
      for (int k = 1; k < K; ++k) m = fmaxf(m, src[k * tow + c]);
      yp[(int64_t)(oh0 + r) * p.Wo + ow0 + c] = m;
    }
  }
}

static int smem_floats(int toh, int tow, int K, int S) {
  const int nih = (toh - 1) * S + K, niw = (tow - 1) * S + K;
  return nih * niw + nih * tow;
}

template <int KT, int ST>
static void launch(const float* x, float* y, const PoolArgs& p, int64_t blocks, size_t shm, hipStream_t st) {
  hipLaunchKernelGGL((maxpool_tiled<KT, ST>), dim3((unsigned)blocks), dim3(TX, TY), shm, st, x, y, p);
}

template <int ST>
static void launch_k(const float* x, float* y, const PoolArgs& p, int64_t blocks, size_t shm, hipStream_t st) {
  switch (p.K) {
    case 3: launch<3, ST>(x, y, p, blocks, shm, st); break;
    case 5: launch<5, ST>(x, y, p, blocks, shm, st); break;
    case 7: launch<7, ST>(x, y, p, blocks, shm, st); break;
    case 9: launch<9, ST>(x, y, p, blocks, shm, st); break;
    case 11: launch<11, ST>(x, y, p, blocks, shm, st); break;
    case 13: launch<13, ST>(x, y, p, blocks, shm, st); break;
    default: launch<0, ST>(x, y, p, blocks, shm, st); break;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t planes = a->ints[0] * a->ints[1];
  PoolArgs p;
  p.H = (int)a->ints[2];
  p.W = (int)a->ints[3];
  p.K = (int)a->ints[4];
  p.S = (int)a->ints[5];
  if (p.K < 1 || p.S < 1) return 1;
  p.Ho = (p.H - 1) / p.S + 1;
  p.Wo = (p.W - 1) / p.S + 1;

  // Columns: the whole output row when it is at most 96 wide, else near-equal tiles of <= 64.
  const int ntw = p.Wo <= 96 ? 1 : (p.Wo + 63) / 64;
  p.tow = (p.Wo + ntw - 1) / ntw;
  // Rows: about 2048 outputs per tile, split evenly, then shrunk to fit shared memory.
  int max_rows = 2048 / p.tow;
  if (max_rows < 1) max_rows = 1;
  const int nth = (p.Ho + max_rows - 1) / max_rows;
  p.toh = (p.Ho + nth - 1) / nth;
  while (p.toh > 1 && smem_floats(p.toh, p.tow, p.K, p.S) > SMEM_FLOATS) p.toh = (p.toh + 1) / 2;
  if (smem_floats(p.toh, p.tow, p.K, p.S) > SMEM_FLOATS) return 1;  // K far beyond the spec
  p.tiles_w = (p.Wo + p.tow - 1) / p.tow;
  p.tiles_h = (p.Ho + p.toh - 1) / p.toh;
  const int64_t blocks = planes * p.tiles_w * p.tiles_h;
  const size_t shm = (size_t)smem_floats(p.toh, p.tow, p.K, p.S) * sizeof(float);

  if (p.S == 1) launch_k<1>(x, y, p, blocks, shm, a->stream);
  else if (p.S == 2) launch_k<2>(x, y, p, blocks, shm, a->stream);
  else launch<0, 0>(x, y, p, blocks, shm, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

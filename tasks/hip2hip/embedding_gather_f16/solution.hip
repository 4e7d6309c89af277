// Embedding lookup out[t, :] = table[ids[t], :] over fp16 as a row copy: one warp per token
// (or per slice of a token's row when there are too few tokens to fill the device) reads the
// token id once and copies the row with the widest access the row alignment allows (16-byte
// vectors of 8 halves when D % 8 == 0, else 8-, 4- or 2-byte accesses), four accesses in
// flight per lane. No per-element index division; loads and stores fully coalesced.
// Works with 32- and 64-wide warps (the host reads the width, the device uses warpSize).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define UNROLL 4

// W: the access type (uint4 = 8 halves, uint2 = 4, unsigned = 2, unsigned short = 1);
// n: accesses per row (D / halves per access); slices: warps per row.
template <typename W>
__global__ void __launch_bounds__(BLOCK) gather_rows(const W* __restrict__ table, const int* __restrict__ ids,
                                                     W* __restrict__ out, int64_t rows, int64_t n, int slices) {
  const int lane = threadIdx.x % warpSize;
  const int64_t gw = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  const int64_t t = gw / slices;
  if (t >= rows) return;  // the whole warp leaves together
  const int s = (int)(gw - t * slices);
  const int64_t per = (n + slices - 1) / slices;
  const int64_t begin = (int64_t)s * per;
  const int64_t end = begin + per < n ? begin + per : n;
  const W* src = table + (int64_t)ids[t] * n;
  W* dst = out + t * n;
  const int step = warpSize;
  for (int64_t c = begin + lane; c < end; c += UNROLL * step) {
    W v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      if (c + u * step < end) v[u] = src[c + u * step];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      if (c + u * step < end) dst[c + u * step] = v[u];
  }
}

template <typename W>
static void launch(const void* table, const int* ids, void* out, int64_t T, int64_t n, int ws, int sms,
                   hipStream_t st) {
  // Split rows into slices only when there are too few tokens to give every multiprocessor
  // plenty of warps; a slice keeps at least UNROLL accesses per lane.
  const int64_t want_warps = (int64_t)sms * 64;
  int64_t slices = 1;
  if (T < want_warps) {
    slices = (want_warps + T - 1) / T;
    const int64_t max_slices = (n + (int64_t)UNROLL * ws - 1) / ((int64_t)UNROLL * ws);
    if (slices > max_slices) slices = max_slices;
    if (slices < 1) slices = 1;
  }
  const int64_t warps_per_block = BLOCK / ws;
  const int64_t grid = (T * slices + warps_per_block - 1) / warps_per_block;
  hipLaunchKernelGGL(gather_rows<W>, dim3((unsigned)grid), dim3(BLOCK), 0, st, static_cast<const W*>(table), ids,
                     static_cast<W*>(out), T, n, (int)slices);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const void* table = a->tensors[0];
  const int* ids = static_cast<const int*>(a->tensors[1]);
  void* out = a->tensors[2];
  const int64_t T = a->ints[0], D = a->ints[1];
  int dev = 0, ws = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  // Every row starts at a multiple of D halves from a 256-byte aligned base, so the widest
  // access that divides the row length in bytes is aligned everywhere.
  if (D % 8 == 0)
    launch<uint4>(table, ids, out, T, D / 8, ws, sms, a->stream);
  else if (D % 4 == 0)
    launch<uint2>(table, ids, out, T, D / 4, ws, sms, a->stream);
  else if (D % 2 == 0)
    launch<unsigned int>(table, ids, out, T, D / 2, ws, sms, a->stream);
  else
    launch<unsigned short>(table, ids, out, T, D, ws, sms, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// y = bmm(a, x) + x for many tiny dim x dim fp32 matrices (dim <= 32), one memory-bound pass:
// a and x are read once, y written once (eager's batched GEMM wastes most of its tiles on
// 4 x 4 matrices and the residual add re-reads everything).
//
// A block owns a contiguous run of whole matrices, CHUNK = 2048 values (128 4x4 or 32 8x8
// matrices) of a and of x: it stages both in shared memory with coalesced 16-byte loads (the
// run length is a multiple of 4 whenever it holds 4 or more matrices, and the buffers are
// 256-byte aligned), then each thread computes outputs e = tid, tid + 256, ... of the run
// from shared memory and stores them (consecutive threads, consecutive addresses). For the
// common sizes 4 and 8 the dimension is a template parameter (unrolled dot products, shifts
// instead of divisions). Shared reads are conflict-free for those: a warp touches a handful
// of distinct words per read, each in its own bank (the rest are broadcasts).
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define NT 256
#define CHUNK 2048

// D > 0: compile-time dimension; D == 0: runtime d.
template <int D>
__global__ __launch_bounds__(NT) void bmm_residual(const float* __restrict__ a, const float* __restrict__ x,
                                                   float* __restrict__ y, int64_t total, int d, int run, int vec) {
  __shared__ __attribute__((aligned(16))) float As[CHUNK];
  __shared__ __attribute__((aligned(16))) float Xs[CHUNK];
  const int dim = D > 0 ? D : d;
  const int dd = dim * dim;
  const int64_t start = (int64_t)blockIdx.x * run;
  const int cnt = total - start < run ? (int)(total - start) : run;
  const int tid = threadIdx.x;

  if (vec) {
    const int cnt4 = cnt / 4;
    for (int i = tid; i < cnt4; i += NT) {
      reinterpret_cast<float4*>(As)[i] = reinterpret_cast<const float4*>(a + start)[i];
      reinterpret_cast<float4*>(Xs)[i] = reinterpret_cast<const float4*>(x + start)[i];
    }
    for (int i = cnt4 * 4 + tid; i < cnt; i += NT) {
      As[i] = a[start + i];
      Xs[i] = x[start + i];
    }
  } else {
    for (int i = tid; i < cnt; i += NT) {
      As[i] = a[start + i];
      Xs[i] = x[start + i];
    }
  }
  __syncthreads();

  for (int e = tid; e < cnt; e += NT) {
    const int m = e / dd;  // matrix within the run
    const int r = e - m * dd;
    const int i = r / dim, j = r - i * dim;
    const float* ar = As + m * dd + i * dim;
    const float* xc = Xs + m * dd + j;
    float s = 0.0f;
    if (D > 0) {
#pragma unroll
      for (int k = 0; k < D; ++k) s = fmaf(ar[k], xc[k * D], s);
    } else {
      for (int k = 0; k < dim; ++k) s = fmaf(ar[k], xc[k * dim], s);
    }
    y[start + e] = s + Xs[e];
  }
}

template <int D>
static void launch(const float* a, const float* x, float* y, int64_t total, int d, int run, hipStream_t st) {
  const int64_t blocks = (total + run - 1) / run;
  hipLaunchKernelGGL((bmm_residual<D>), dim3((unsigned)blocks), dim3(NT), 0, st, a, x, y, total, d, run,
                     (int)(run % 4 == 0));
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* A = static_cast<const float*>(a->tensors[0]);
  const float* X = static_cast<const float*>(a->tensors[1]);
  float* Y = static_cast<float*>(a->tensors[2]);
  const int64_t batch = a->ints[0];
  const int d = (int)a->ints[1];
  if (d < 1 || d * d > CHUNK) return 1;
  const int dd = d * d;
  int mats = CHUNK / dd;
  if (mats >= 4) mats -= mats % 4;  // whole 16-byte vectors per run
  const int run = mats * dd;
  const int64_t total = batch * dd;
  if (d == 4) launch<4>(A, X, Y, total, d, run, a->stream);
  else if (d == 8) launch<8>(A, X, Y, total, d, run, a->stream);
  else launch<0>(A, X, Y, total, d, run, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

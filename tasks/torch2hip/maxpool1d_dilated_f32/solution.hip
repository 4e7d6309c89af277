// nn.MaxPool1d (kernel k, stride s, padding p, dilation d; padded positions never win) over
// fp32 rows, values only. Eager PyTorch on the GPU runs max_pool1d_with_indices: besides the
// 4-byte value it writes an 8-byte int64 argmax per output that nobody reads, so a
// values-only kernel moves about half the bytes (read x once, write y once).
// One thread per output, adjacent lanes on adjacent outputs: each of the k window loads of a
// warp is one contiguous run when the stride is 1 (overlapping windows come from L1), so
// DRAM sees x once. The window is clipped to the row; a NaN wins, as in PyTorch. 32-bit
// index math unless the tensor needs more.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define THREADS 256

template <typename I>
__global__ __launch_bounds__(THREADS) void maxpool1d(const float* __restrict__ x, float* __restrict__ y, I total,
                                                     int L, int Lo, int k, int s, int p, int d) {
  for (I idx = (I)blockIdx.x * THREADS + threadIdx.x; idx < total; idx += (I)gridDim.x * THREADS) {
    const I row = idx / Lo;
    const int o = (int)(idx - row * Lo);
    const float* xr = x + row * (I)L;
    const int start = o * s - p;
    // Window taps inside [0, L): kk in [k0, k1).
    const int k0 = start < 0 ? (-start + d - 1) / d : 0;
    int k1 = start <= L - 1 ? (L - 1 - start) / d + 1 : 0;
    if (k1 > k) k1 = k;
    float m = -INFINITY;
    for (int kk = k0; kk < k1; ++kk) {
      const float v = xr[start + kk * d];
      m = (v > m || isnan(v)) ? v : m;
    }
    y[idx] = m;
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t rows = a->ints[0] * a->ints[1];
  const int L = (int)a->ints[2], k = (int)a->ints[3], s = (int)a->ints[4], p = (int)a->ints[5], d = (int)a->ints[6];
  const int Lo = (L + 2 * p - d * (k - 1) - 1) / s + 1;
  if (Lo < 1) return 1;
  const int64_t total = rows * Lo;
  int64_t blocks = (total + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  const int64_t span = total > rows * (int64_t)L ? total : rows * (int64_t)L;
  if (span < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20))
    hipLaunchKernelGGL(maxpool1d<int>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, y, (int)total, L, Lo, k,
                       s, p, d);
  else
    hipLaunchKernelGGL(maxpool1d<int64_t>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream, x, y, total, L, Lo, k,
                       s, p, d);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

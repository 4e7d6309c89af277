// Ball query (PointNet++ semantics) on integer grid points: one thread per center scans the
// points of its batch in index order straight from global memory, integer squared distances,
// and stops once it has found K points.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

__global__ void ball_query_kernel(const int* points, const int* centers, int* idx, int64_t total, int P, int Q,
                                  int K, int r2) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // center (b, q) = i
  if (i >= total) return;
  const int64_t b = i / Q;
  const int cx = centers[i * 3 + 0], cy = centers[i * 3 + 1], cz = centers[i * 3 + 2];
  const int* pts = points + b * P * 3;
  int* out = idx + i * K;
  int cnt = 0;
  for (int p = 0; p < P && cnt < K; ++p) {
    const int dx = pts[(int64_t)p * 3 + 0] - cx;
    const int dy = pts[(int64_t)p * 3 + 1] - cy;
    const int dz = pts[(int64_t)p * 3 + 2] - cz;
    if (dx * dx + dy * dy + dz * dz <= r2) {
      if (cnt == 0)
        for (int l = 0; l < K; ++l) out[l] = p;  // pad with the first hit
      out[cnt] = p;
      ++cnt;
    }
  }
  if (cnt == 0)
    for (int l = 0; l < K; ++l) out[l] = 0;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int* points = static_cast<const int*>(a->tensors[0]);
  const int* centers = static_cast<const int*>(a->tensors[1]);
  int* idx = static_cast<int*>(a->tensors[2]);
  const int64_t B = a->ints[0], P = a->ints[1], Q = a->ints[2], K = a->ints[3], R2 = a->ints[4];
  const int64_t total = B * Q;
  const int block = 256;
  hipLaunchKernelGGL(ball_query_kernel, dim3((unsigned)((total + block - 1) / block)), dim3(block), 0, a->stream,
                     points, centers, idx, total, (int)P, (int)Q, (int)K, (int)R2);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

// Row scatter-add out[v, :] = sum of src[t, :] with idx[t] == v, without float atomics and
// without a separate zeroing pass over out. Three launches:
//  1. head[v] = -1 for every output row (workspace);
//  2. one thread per source row pushes it on its output row's list:
//     next[t] = atomicExch(&head[idx[t]], t)  (T integer atomics instead of T*D float ones);
//  3. one warp per output row walks its list (up to warpSize source rows at a time, their
//     ids spread over the lanes), sums those rows with 16-byte loads (D % 4 == 0; scalar
//     loads otherwise) in registers and writes the row once; a row no source row lands on is
//     written as zeros. src is read once and out written once: the minimum traffic, where
//     zero-then-atomicAdd writes out twice and, once out outgrows the L2, also reads it back.
// Summation order within a row is the list order (any order is allowed).
// Works with 32- and 64-wide warps (the host reads the width, the device uses warpSize).
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define U 4  // vectors per lane per column chunk

__global__ void init_heads(int* __restrict__ head, int64_t v) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < v) head[i] = -1;
}

__global__ void link_rows(const int* __restrict__ idx, int* __restrict__ head, int* __restrict__ next, int64_t t) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < t) next[i] = atomicExch(&head[idx[i]], (int)i);
}

template <int VEC>
struct Vec;
template <>
struct Vec<4> {
  typedef float4 type;
  static __device__ __forceinline__ float4 zero() { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
  static __device__ __forceinline__ void add(float4& a, const float4& b) {
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
    a.w += b.w;
  }
};
template <>
struct Vec<1> {
  typedef float type;
  static __device__ __forceinline__ float zero() { return 0.0f; }
  static __device__ __forceinline__ void add(float& a, const float& b) { a += b; }
};

// One warp per output row. n: vectors per row (D / VEC).
template <int VEC>
__global__ void __launch_bounds__(BLOCK) sum_rows(const float* __restrict__ src, const int* __restrict__ head,
                                                  const int* __restrict__ next, float* __restrict__ out, int64_t v_rows,
                                                  int64_t n) {
  typedef typename Vec<VEC>::type T;
  const int lane = threadIdx.x % warpSize;
  const int ws = warpSize;
  const int64_t v = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (v >= v_rows) return;  // the whole warp leaves together
  const T* s = reinterpret_cast<const T*>(src);
  T* o = reinterpret_cast<T*>(out) + v * n;

  int t = head[v];  // the same address in every lane: the walk is uniform across the warp
  bool first = true;
  do {
    // Up to warpSize source rows of the list: lane j keeps the j-th one.
    int mine = 0, count = 0;
    while (t >= 0 && count < ws) {
      if (lane == count) mine = t;
      t = next[t];
      ++count;
    }
    // Column chunks of U * warpSize vectors; the loop bounds are uniform so that every lane
    // takes part in the shuffles.
    for (int64_t c0 = lane, base = 0; base < n; c0 += (int64_t)U * ws, base += (int64_t)U * ws) {
      T acc[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t c = c0 + (int64_t)u * ws;
        acc[u] = (!first && c < n) ? o[c] : Vec<VEC>::zero();
      }
      int j = 0;
      for (; j + 1 < count; j += 2) {  // two rows per step: 2 * U loads in flight per lane
        const T* r0 = s + (int64_t)__shfl(mine, j) * n;
        const T* r1 = s + (int64_t)__shfl(mine, j + 1) * n;
        T a[U], b[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int64_t c = c0 + (int64_t)u * ws;
          if (c < n) {
            a[u] = r0[c];
            b[u] = r1[c];
          }
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int64_t c = c0 + (int64_t)u * ws;
          if (c < n) {
            Vec<VEC>::add(acc[u], a[u]);
            Vec<VEC>::add(acc[u], b[u]);
          }
        }
      }
      if (j < count) {
        const T* r0 = s + (int64_t)__shfl(mine, j) * n;
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int64_t c = c0 + (int64_t)u * ws;
          if (c < n) Vec<VEC>::add(acc[u], r0[c]);
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t c = c0 + (int64_t)u * ws;
        if (c < n) o[c] = acc[u];
      }
    }
    first = false;
  } while (t >= 0);
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t T = a->ints[0], V = a->ints[2];
  return (size_t)(V + T) * sizeof(int) + 256;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* src = static_cast<const float*>(a->tensors[0]);
  const int* idx = static_cast<const int*>(a->tensors[1]);
  float* out = static_cast<float*>(a->tensors[2]);
  const int64_t T = a->ints[0], D = a->ints[1], V = a->ints[2];
  int* head = static_cast<int*>(a->workspace);
  int* next = head + V;
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;

  hipLaunchKernelGGL(init_heads, dim3((unsigned)((V + BLOCK - 1) / BLOCK)), dim3(BLOCK), 0, a->stream, head, V);
  hipLaunchKernelGGL(link_rows, dim3((unsigned)((T + BLOCK - 1) / BLOCK)), dim3(BLOCK), 0, a->stream, idx, head, next,
                     T);
  const int64_t rows_per_block = BLOCK / ws;
  const dim3 grid((unsigned)((V + rows_per_block - 1) / rows_per_block));
  if (D % 4 == 0)  // every row starts 16-byte aligned
    hipLaunchKernelGGL(sum_rows<4>, grid, dim3(BLOCK), 0, a->stream, src, head, next, out, V, D / 4);
  else
    hipLaunchKernelGGL(sum_rows<1>, grid, dim3(BLOCK), 0, a->stream, src, head, next, out, V, D);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

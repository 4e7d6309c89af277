/* hip_on_cuda: HIP kernel language + runtime for nvcc (`nvcc -x cu`).
 *
 * The runtime API is in hip_runtime_api.h; this adds what needs CUDA's C++ runtime header
 * (cuda_runtime.h) and the kernel language: launch macro, index macros, mask-free warp
 * shuffles and votes in HIP's style, wall_clock64(). Everything CUDA already provides under
 * HIP's name (__syncthreads, atomics, math, clock64, __launch_bounds__, warpSize, __ldg,
 * __forceinline__, ...) is used as is.
 *
 * Coverage and limits: ../README.md. */
#ifndef HIP_ON_CUDA_HIP_RUNTIME_H
#define HIP_ON_CUDA_HIP_RUNTIME_H

/* HIP's hip_runtime.h makes these available on both vendors; keep that so code that leans on
 * it builds here too. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <hip/hip_runtime_api.h>

/* ---------------------------------------------------------------------------------------
 * Host: occupancy helper that only exists as CUDA's C++ template. Accepts a kernel or a
 * `const void*` to one, like HIP's template and C forms. */
#ifdef __cplusplus
template <class F>
static inline hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, F func,
                                                           size_t dyn_shared_bytes = 0,
                                                           int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(grid_size, block_size, func, dyn_shared_bytes,
                                            block_size_limit);
}
#endif

#ifdef __CUDACC__

/* ---------------------------------------------------------------------------------------
 * Launch. Template kernels with commas need HIP_KERNEL_NAME(k<a, b>) or extra parentheses,
 * exactly as on AMD. */
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)        \
  do {                                                                            \
    (kernel)<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__);         \
  } while (0)

/* ---------------------------------------------------------------------------------------
 * Indices and shared memory */
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_SYMBOL(x) (&(x))

/* ---------------------------------------------------------------------------------------
 * Warp shuffles without a mask, HIP style: __shfl_down(var, delta, width = warpSize).
 * CUDA dropped these for sm_70+ and kept only the *_sync forms, so each forwards to the
 * *_sync overload for T with the full mask: every lane of the warp must take part (the
 * usual HIP reduction/scan pattern). Any T with a *_sync overload works: int, unsigned,
 * long, long long (and unsigned), float, double, __half, __half2, __hip_bfloat16(2).
 * Templates, not overloads: the host pass and sm < 70 still see CUDA's own deprecated
 * non-template versions (same results), and a template may coexist with them.
 * width defaults to 32 (warpSize on every NVIDIA GPU; CUDA's own headers do the same). */
template <typename T>
__device__ __forceinline__ T __shfl(T var, int src_lane, int width = 32) {
  return __shfl_sync(0xffffffffu, var, src_lane, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_up(T var, unsigned int delta, int width = 32) {
  return __shfl_up_sync(0xffffffffu, var, delta, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_down(T var, unsigned int delta, int width = 32) {
  return __shfl_down_sync(0xffffffffu, var, delta, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_xor(T var, int lane_mask, int width = 32) {
  return __shfl_xor_sync(0xffffffffu, var, lane_mask, width);
}

/* ---------------------------------------------------------------------------------------
 * Warp votes, HIP style. CUDA still declares __ballot/__any/__all (extern "C", 32-bit
 * ballot, rejected by ptxas on sm_70+), so a function cannot replace them: macros route the
 * names to ours. They vote over the lanes active at the call, as HIP does (inactive lanes
 * give 0 bits), and __ballot returns 64 bits like HIP (upper half 0: warps are 32 wide).
 * libcu++ (pulled in by <cooperative_groups.h>, CUB, cuda::std) declares a struct member
 * `__any(...)`; parse that header first, before the macros exist. */
#if defined(__has_include) && __cplusplus >= 201703L
#if __has_include(<cuda/std/__functional/invoke.h>)
#include <cuda/std/__functional/invoke.h>
#endif
#endif
namespace hip_on_cuda {
__device__ __forceinline__ unsigned long long ballot(int pred) {
  return __ballot_sync(__activemask(), pred);
}
__device__ __forceinline__ int any(int pred) { return __any_sync(__activemask(), pred); }
__device__ __forceinline__ int all(int pred) { return __all_sync(__activemask(), pred); }
}  // namespace hip_on_cuda
#define __ballot(pred) ::hip_on_cuda::ballot(pred)
#define __any(pred) ::hip_on_cuda::any(pred)
#define __all(pred) ::hip_on_cuda::all(pred)
/* __activemask() and __syncwarp() are CUDA's (32-bit mask; HIP's __activemask is 64-bit). */

__device__ __forceinline__ unsigned int __lane_id() {
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/* ---------------------------------------------------------------------------------------
 * Clocks. clock()/clock64() are CUDA's (SM cycles). wall_clock64() is a constant-rate
 * counter on AMD; here it reads PTX's globaltimer, in nanoseconds, so
 * hipDeviceAttributeWallClockRate reports 1000000 kHz. Its update step is GPU/driver
 * dependent (often far coarser than 1 ns): time long intervals with it. */
__device__ __forceinline__ long long int wall_clock64() {
  long long int t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#define __clock() clock()
#define __clock64() clock64()

/* ---------------------------------------------------------------------------------------
 * AMD's fast floating-point atomics: plain atomicAdd on NVIDIA. */
__device__ __forceinline__ float unsafeAtomicAdd(float* addr, float v) { return atomicAdd(addr, v); }
__device__ __forceinline__ double unsafeAtomicAdd(double* addr, double v) { return atomicAdd(addr, v); }
__device__ __forceinline__ float safeAtomicAdd(float* addr, float v) { return atomicAdd(addr, v); }
__device__ __forceinline__ double safeAtomicAdd(double* addr, double v) { return atomicAdd(addr, v); }

#endif /* __CUDACC__ */

#endif /* HIP_ON_CUDA_HIP_RUNTIME_H */

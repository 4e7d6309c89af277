/* hip_on_cuda: HIP half precision = CUDA's cuda_fp16.h.
 *
 * HIP took its fp16 API from CUDA, so the names match one for one: __half, __half2,
 * half/half2, __half_raw, __float2half(_rn), __half2float, __half22float2,
 * __floats2half2_rn, __float22half2_rn, __low2half, __halves2half2, __hadd/__hmul/__hfma
 * (and the *2 forms), hexp/hsqrt/..., comparisons, __shfl_*_sync overloads. Mask-free
 * __shfl_* on __half/__half2 come from hip_runtime.h's templates.
 * Not covered: AMD's _Float16-based extras (e.g. __half as a native clang type). */
#ifndef HIP_ON_CUDA_HIP_FP16_H
#define HIP_ON_CUDA_HIP_FP16_H

#include <hip/hip_runtime_api.h> /* platform macros */
#include <cuda_fp16.h>

#endif /* HIP_ON_CUDA_HIP_FP16_H */

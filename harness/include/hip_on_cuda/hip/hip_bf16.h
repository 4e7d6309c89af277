/* hip_on_cuda: HIP bfloat16 = CUDA's cuda_bf16.h under HIP's type names.
 *
 * HIP 6's hip_bf16.h mirrors CUDA's bf16 API with __hip_ type names; the functions keep
 * CUDA's names (__float2bfloat16, __bfloat162float, __bfloat1622float2,
 * __floats2bfloat162_rn, __float22bfloat162_rn, __low2bfloat16, __high2bfloat16,
 * __halves2bfloat162, __hadd/__hmul/__hfma on bf16, ...), so only the types need aliases.
 * Mask-free __shfl_* on bf16 come from hip_runtime.h's templates.
 * Not covered: the older rocBLAS-style struct `hip_bfloat16` of <hip/hip_bfloat16.h> (a
 * different header and type, with a public `data` member). */
#ifndef HIP_ON_CUDA_HIP_BF16_H
#define HIP_ON_CUDA_HIP_BF16_H

#include <hip/hip_runtime_api.h> /* platform macros */
#include <cuda_bf16.h>

typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16_raw __hip_bfloat16_raw;
typedef __nv_bfloat162_raw __hip_bfloat162_raw;

#endif /* HIP_ON_CUDA_HIP_BF16_H */

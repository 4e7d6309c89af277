/* hip_on_cuda: hipRTC on NVRTC. Link -lnvrtc when you use it.
 *
 * Sources and options go to NVRTC untouched: write options NVRTC understands
 * (-arch=sm_90, -std=c++17, -default-device, ...), not AMD's (--offload-arch=...), and note
 * that NVRTC sources see no HIP kernel-language layer (no <hip/hip_runtime.h>, no
 * hipThreadIdx_x or mask-free __shfl_*): give them CUDA spellings or a prelude of your own.
 *
 * hiprtcGetCode returns what hipModuleLoadData (cuModuleLoadData) loads best: the CUBIN
 * when the program was compiled for a real architecture (-arch=sm_XY), else the PTX
 * (NUL-terminated, JIT-compiled at load). */
#ifndef HIP_ON_CUDA_HIPRTC_H
#define HIP_ON_CUDA_HIPRTC_H

#include <stddef.h>

#include <hip/hip_runtime_api.h> /* platform macros */
#include <nvrtc.h>

typedef nvrtcProgram hiprtcProgram;
typedef nvrtcResult hiprtcResult;

#define HIPRTC_SUCCESS NVRTC_SUCCESS
#define HIPRTC_ERROR_OUT_OF_MEMORY NVRTC_ERROR_OUT_OF_MEMORY
#define HIPRTC_ERROR_PROGRAM_CREATION_FAILURE NVRTC_ERROR_PROGRAM_CREATION_FAILURE
#define HIPRTC_ERROR_INVALID_INPUT NVRTC_ERROR_INVALID_INPUT
#define HIPRTC_ERROR_INVALID_PROGRAM NVRTC_ERROR_INVALID_PROGRAM
#define HIPRTC_ERROR_INVALID_OPTION NVRTC_ERROR_INVALID_OPTION
#define HIPRTC_ERROR_COMPILATION NVRTC_ERROR_COMPILATION
#define HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE NVRTC_ERROR_BUILTIN_OPERATION_FAILURE
#define HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION \
  NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION
#define HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION \
  NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION
#define HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID
#define HIPRTC_ERROR_INTERNAL_ERROR NVRTC_ERROR_INTERNAL_ERROR

static inline const char* hiprtcGetErrorString(hiprtcResult r) { return nvrtcGetErrorString(r); }
static inline hiprtcResult hiprtcVersion(int* major, int* minor) { return nvrtcVersion(major, minor); }

static inline hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char* src, const char* name,
                                               int num_headers, const char** headers,
                                               const char** include_names) {
  return nvrtcCreateProgram(prog, src, name, num_headers, headers, include_names);
}
static inline hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) { return nvrtcDestroyProgram(prog); }
static inline hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int num_options, const char** options) {
  return nvrtcCompileProgram(prog, num_options, options);
}
static inline hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char* name_expression) {
  return nvrtcAddNameExpression(prog, name_expression);
}
static inline hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char* name_expression,
                                                const char** lowered_name) {
  return nvrtcGetLoweredName(prog, name_expression, lowered_name);
}
static inline hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t* size) {
  return nvrtcGetProgramLogSize(prog, size);
}
static inline hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char* log) {
  return nvrtcGetProgramLog(prog, log);
}

/* NVRTC reports a CUBIN size of 0 when the target was virtual (compute_XY): then PTX. */
static inline hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t* size) {
  size_t cubin = 0;
  if (nvrtcGetCUBINSize(prog, &cubin) == NVRTC_SUCCESS && cubin > 0) {
    *size = cubin;
    return NVRTC_SUCCESS;
  }
  return nvrtcGetPTXSize(prog, size);
}
static inline hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) {
  size_t cubin = 0;
  if (nvrtcGetCUBINSize(prog, &cubin) == NVRTC_SUCCESS && cubin > 0) return nvrtcGetCUBIN(prog, code);
  return nvrtcGetPTX(prog, code);
}

#endif /* HIP_ON_CUDA_HIPRTC_H */

/* hip_on_cuda: the HIP host runtime API mapped onto the CUDA runtime (cudart).
 *
 * Why: Debian's HIP 5.2 NVIDIA headers no longer compile against CUDA 13 (removed
 * cudaDeviceProp fields, new cudaMemPrefetchAsync signature). This header is our own,
 * trimmed replacement. It is plain C/C++ (no device code) and needs only CUDA's include
 * directory, so host code built by g++ can include it. Every function is static inline:
 * a program links -lcudart; -lcuda only if it calls the module or hipMemsetD* functions
 * (CUDA driver API); unused ones leave no reference behind.
 *
 * Coverage and limits: ../README.md. */
#ifndef HIP_ON_CUDA_HIP_RUNTIME_API_H
#define HIP_ON_CUDA_HIP_RUNTIME_API_H

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#error "hip_on_cuda is the NVIDIA backend of HIP; do not define __HIP_PLATFORM_AMD__ with it"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>  /* snprintf for gcnArchName */
#include <string.h>

#include <cuda.h> /* driver API: module loading, hipMemsetD*, hipDeviceptr_t conversions */
#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>

/* ---------------------------------------------------------------------------------------
 * Platform and version macros (HIP's hip_common.h / hip_version.h). __HIP__ stays undefined:
 * it means "clang compiling the HIP language", which this is not. */
#define __HIP_ON_CUDA__ 1
#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_PLATFORM_NVCC__ /* deprecated spelling, still tested by older code */
#define __HIP_PLATFORM_NVCC__ 1
#endif
#if defined(__CUDACC__) && !defined(__HIPCC__)
#define __HIPCC__ 1
#endif
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif

/* The API subset follows HIP 6.0 (hipDeviceProp_t with sharedMemPerBlockOptin, ...). */
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 0
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

/* Default arguments exist in C++ only; in C every argument must be passed. */
#ifdef __cplusplus
#define HIP_ON_CUDA_DEFAULT(x) = x
#else
#define HIP_ON_CUDA_DEFAULT(x)
#endif

/* ---------------------------------------------------------------------------------------
 * Errors: hipError_t is cudaError_t, so CUDA calls need no translation. HIP took its error
 * numbers from CUDA, and hipError_t values equal cudaError_t ones of the same meaning. */
typedef cudaError_t hipError_t;

#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorNotInitialized cudaErrorInitializationError
#define hipErrorInitializationError cudaErrorInitializationError
#define hipErrorDeinitialized cudaErrorCudartUnloading
#define hipErrorInvalidConfiguration cudaErrorInvalidConfiguration
#define hipErrorInvalidPitchValue cudaErrorInvalidPitchValue
#define hipErrorInvalidSymbol cudaErrorInvalidSymbol
#define hipErrorInvalidDevicePointer cudaErrorInvalidDevicePointer
#define hipErrorInvalidMemcpyDirection cudaErrorInvalidMemcpyDirection
#define hipErrorInsufficientDriver cudaErrorInsufficientDriver
#define hipErrorMissingConfiguration cudaErrorMissingConfiguration
#define hipErrorPriorLaunchFailure cudaErrorPriorLaunchFailure
#define hipErrorInvalidDeviceFunction cudaErrorInvalidDeviceFunction
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorInvalidImage cudaErrorInvalidKernelImage
#define hipErrorInvalidContext cudaErrorDeviceUninitialized
#define hipErrorContextAlreadyCurrent ((hipError_t)202) /* driver-only code */
#define hipErrorMapFailed cudaErrorMapBufferObjectFailed
#define hipErrorNoBinaryForGpu cudaErrorNoKernelImageForDevice
#define hipErrorECCNotCorrectable cudaErrorECCUncorrectable
#define hipErrorUnsupportedLimit cudaErrorUnsupportedLimit
#define hipErrorContextAlreadyInUse cudaErrorDeviceAlreadyInUse
#define hipErrorPeerAccessUnsupported cudaErrorPeerAccessUnsupported
#define hipErrorInvalidKernelFile cudaErrorInvalidPtx
#define hipErrorInvalidSource cudaErrorInvalidSource
#define hipErrorFileNotFound cudaErrorFileNotFound
#define hipErrorSharedObjectSymbolNotFound cudaErrorSharedObjectSymbolNotFound
#define hipErrorSharedObjectInitFailed cudaErrorSharedObjectInitFailed
#define hipErrorOperatingSystem cudaErrorOperatingSystem
#define hipErrorInvalidHandle cudaErrorInvalidResourceHandle
#define hipErrorInvalidResourceHandle cudaErrorInvalidResourceHandle
#define hipErrorIllegalState cudaErrorIllegalState
#define hipErrorNotFound cudaErrorSymbolNotFound
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorIllegalAddress cudaErrorIllegalAddress
#define hipErrorLaunchOutOfResources cudaErrorLaunchOutOfResources
#define hipErrorLaunchTimeOut cudaErrorLaunchTimeout
#define hipErrorPeerAccessAlreadyEnabled cudaErrorPeerAccessAlreadyEnabled
#define hipErrorPeerAccessNotEnabled cudaErrorPeerAccessNotEnabled
#define hipErrorSetOnActiveProcess cudaErrorSetOnActiveProcess
#define hipErrorContextIsDestroyed cudaErrorContextIsDestroyed
#define hipErrorAssert cudaErrorAssert
#define hipErrorHostMemoryAlreadyRegistered cudaErrorHostMemoryAlreadyRegistered
#define hipErrorHostMemoryNotRegistered cudaErrorHostMemoryNotRegistered
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorCooperativeLaunchTooLarge cudaErrorCooperativeLaunchTooLarge
#define hipErrorNotSupported cudaErrorNotSupported
#define hipErrorStreamCaptureUnsupported cudaErrorStreamCaptureUnsupported
#define hipErrorStreamCaptureInvalidated cudaErrorStreamCaptureInvalidated
#define hipErrorCapturedEvent cudaErrorCapturedEvent
#define hipErrorTimeout cudaErrorTimeout
#define hipErrorUnknown cudaErrorUnknown

static inline const char* hipGetErrorString(hipError_t e) { return cudaGetErrorString(e); }
static inline const char* hipGetErrorName(hipError_t e) { return cudaGetErrorName(e); }
static inline hipError_t hipGetLastError(void) { return cudaGetLastError(); }
static inline hipError_t hipPeekAtLastError(void) { return cudaPeekAtLastError(); }

/* Driver API results: CUDA keeps CUresult and cudaError_t numerically equal for every
 * error the two share (checked against CUDA 13's cuda.h / driver_types.h), so a cast is
 * exact; the few driver-only codes (e.g. 202) print as "unrecognized error code". */
static inline hipError_t hipCUResultTohipError(CUresult r) { return (hipError_t)r; }

/* ---------------------------------------------------------------------------------------
 * Handles and enums. hipDeviceptr_t is void*, as on AMD (the old NVIDIA path used
 * CUdeviceptr), so code written against AMD's headers compiles unchanged. */
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef void* hipDeviceptr_t;
typedef CUmodule hipModule_t;
typedef CUfunction hipFunction_t;
/* dim3 is CUDA's (vector_types.h, pulled in by cuda_runtime_api.h). */

typedef enum cudaMemcpyKind hipMemcpyKind;
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault

#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamPerThread cudaStreamPerThread

#define hipEventDefault cudaEventDefault
#define hipEventBlockingSync cudaEventBlockingSync
#define hipEventDisableTiming cudaEventDisableTiming
#define hipEventInterprocess cudaEventInterprocess

#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocPortable cudaHostAllocPortable
#define hipHostMallocMapped cudaHostAllocMapped
#define hipHostMallocWriteCombined cudaHostAllocWriteCombined
/* AMD-only coherence hints: pinned host memory is always coherent on NVIDIA. */
#define hipHostMallocCoherent 0x0
#define hipHostMallocNonCoherent 0x0

#define hipMemAttachGlobal cudaMemAttachGlobal
#define hipMemAttachHost cudaMemAttachHost
#define hipCpuDeviceId cudaCpuDeviceId

typedef enum cudaLimit hipLimit_t;
#define hipLimitStackSize cudaLimitStackSize
#define hipLimitPrintfFifoSize cudaLimitPrintfFifoSize
#define hipLimitMallocHeapSize cudaLimitMallocHeapSize
/* NVIDIA-only (not in AMD's HIP): size of the set-aside L2 for persisting accesses. */
#define hipLimitPersistingL2CacheSize cudaLimitPersistingL2CacheSize

typedef enum cudaFuncAttribute hipFuncAttribute;
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipFuncAttributePreferredSharedMemoryCarveout cudaFuncAttributePreferredSharedMemoryCarveout

/* hipModuleLaunchKernel's `extra` argument. */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER CU_LAUNCH_PARAM_BUFFER_POINTER
#define HIP_LAUNCH_PARAM_BUFFER_SIZE CU_LAUNCH_PARAM_BUFFER_SIZE
#define HIP_LAUNCH_PARAM_END CU_LAUNCH_PARAM_END

/* ---------------------------------------------------------------------------------------
 * Device management */
static inline hipError_t hipInit(unsigned int flags) {
  /* Counting devices initialises the driver without creating a context. */
  int n = 0;
  (void)flags;
  return cudaGetDeviceCount(&n);
}
static inline hipError_t hipGetDeviceCount(int* count) { return cudaGetDeviceCount(count); }
static inline hipError_t hipSetDevice(int device) { return cudaSetDevice(device); }
static inline hipError_t hipGetDevice(int* device) { return cudaGetDevice(device); }
static inline hipError_t hipDeviceSynchronize(void) { return cudaDeviceSynchronize(); }
static inline hipError_t hipDeviceReset(void) { return cudaDeviceReset(); }
static inline hipError_t hipDeviceSetLimit(hipLimit_t limit, size_t value) {
  return cudaDeviceSetLimit(limit, value);
}
static inline hipError_t hipDeviceGetLimit(size_t* value, hipLimit_t limit) {
  return cudaDeviceGetLimit(value, limit);
}
/* NVIDIA-only: drop persisting L2 lines back to normal (not in AMD's HIP). */
static inline hipError_t hipCtxResetPersistingL2Cache(void) { return cudaCtxResetPersistingL2Cache(); }
static inline hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
  return cudaDeviceGetStreamPriorityRange(least, greatest);
}
/* Both report CUDA's versions (e.g. 13000), as HIP's NVIDIA path always did. */
static inline hipError_t hipDriverGetVersion(int* v) { return cudaDriverGetVersion(v); }
static inline hipError_t hipRuntimeGetVersion(int* v) { return cudaRuntimeGetVersion(v); }

/* ---------------------------------------------------------------------------------------
 * Device properties: our own trimmed hipDeviceProp_t (HIP's field names), filled from
 * cudaGetDeviceProperties plus attributes for the fields CUDA 13 dropped from cudaDeviceProp
 * (clockRate, memoryClockRate, computeMode). */
typedef struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;              /* default per-block limit (48 KiB) */
  size_t sharedMemPerBlockOptin;         /* opt-in limit via hipFuncSetAttribute */
  size_t maxSharedMemoryPerMultiProcessor;
  size_t totalConstMem;
  int regsPerBlock;
  int regsPerMultiprocessor;
  int warpSize;                          /* 32 */
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int maxThreadsPerMultiProcessor;
  int clockRate;                         /* kHz */
  int memoryClockRate;                   /* kHz */
  int memoryBusWidth;                    /* bits */
  int l2CacheSize;                       /* bytes */
  int multiProcessorCount;
  int major;
  int minor;
  char gcnArchName[256];                 /* "sm_XY" on NVIDIA */
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  int computeMode;
} hipDeviceProp_t;

static inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device) {
  struct cudaDeviceProp c;
  hipError_t e;
  if (p == NULL) return hipErrorInvalidValue;
  e = cudaGetDeviceProperties(&c, device);
  if (e != cudaSuccess) return e;
  memset(p, 0, sizeof *p);
  memcpy(p->name, c.name, sizeof p->name);
  p->name[sizeof p->name - 1] = '\0';
/* The fields CUDA names as HIP does, each copied from cudaDeviceProp's field of that name. */
#define HIP_ON_CUDA_COPY_PROP(field) p->field = c.field
  HIP_ON_CUDA_COPY_PROP(totalGlobalMem);
  HIP_ON_CUDA_COPY_PROP(sharedMemPerBlock);
  HIP_ON_CUDA_COPY_PROP(sharedMemPerBlockOptin);
  p->maxSharedMemoryPerMultiProcessor = c.sharedMemPerMultiprocessor;
  HIP_ON_CUDA_COPY_PROP(totalConstMem);
  HIP_ON_CUDA_COPY_PROP(regsPerBlock);
  HIP_ON_CUDA_COPY_PROP(regsPerMultiprocessor);
  HIP_ON_CUDA_COPY_PROP(warpSize);
  HIP_ON_CUDA_COPY_PROP(maxThreadsPerBlock);
  memcpy(p->maxThreadsDim, c.maxThreadsDim, sizeof p->maxThreadsDim);
  memcpy(p->maxGridSize, c.maxGridSize, sizeof p->maxGridSize);
  HIP_ON_CUDA_COPY_PROP(maxThreadsPerMultiProcessor);
  HIP_ON_CUDA_COPY_PROP(memoryBusWidth);
  HIP_ON_CUDA_COPY_PROP(l2CacheSize);
  HIP_ON_CUDA_COPY_PROP(multiProcessorCount);
  HIP_ON_CUDA_COPY_PROP(major);
  HIP_ON_CUDA_COPY_PROP(minor);
  HIP_ON_CUDA_COPY_PROP(pciDomainID);
  HIP_ON_CUDA_COPY_PROP(pciBusID);
  HIP_ON_CUDA_COPY_PROP(pciDeviceID);
#undef HIP_ON_CUDA_COPY_PROP
  snprintf(p->gcnArchName, sizeof p->gcnArchName, "sm_%d%d", c.major, c.minor);
  if ((e = cudaDeviceGetAttribute(&p->clockRate, cudaDevAttrClockRate, device)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&p->memoryClockRate, cudaDevAttrMemoryClockRate, device)) !=
          cudaSuccess ||
      (e = cudaDeviceGetAttribute(&p->computeMode, cudaDevAttrComputeMode, device)) != cudaSuccess)
    return e;
  return hipSuccess;
}

static inline hipError_t hipDeviceGetName(char* name, int len, int device) {
  struct cudaDeviceProp c;
  hipError_t e;
  if (name == NULL || len <= 0) return hipErrorInvalidValue;
  e = cudaGetDeviceProperties(&c, device);
  if (e != cudaSuccess) return e;
  snprintf(name, (size_t)len, "%s", c.name);
  return hipSuccess;
}

/* ---------------------------------------------------------------------------------------
 * Device attributes: HIP's names in our own enum (HIP's numbering is not CUDA's), each
 * mapped to a cudaDevAttr in hipDeviceGetAttribute. */
typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeMaxThreadsPerBlock,
  hipDeviceAttributeMaxBlockDimX,
  hipDeviceAttributeMaxBlockDimY,
  hipDeviceAttributeMaxBlockDimZ,
  hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeMaxGridDimY,
  hipDeviceAttributeMaxGridDimZ,
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMultiprocessorCount,
  hipDeviceAttributeMaxThreadsPerMultiProcessor,
  hipDeviceAttributeMaxBlocksPerMultiProcessor,
  hipDeviceAttributeMaxRegistersPerBlock,
  hipDeviceAttributeMaxRegistersPerMultiprocessor,
  hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeSharedMemPerBlockOptin,
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, /* AMD spelling */
  hipDeviceAttributeSharedMemPerMultiprocessor,       /* CUDA-compatible spelling, same value */
  hipDeviceAttributeTotalConstantMemory,
  hipDeviceAttributeL2CacheSize,
  hipDeviceAttributePersistingL2CacheMaxSize,
  hipDeviceAttributeClockRate,            /* kHz, SM clock */
  hipDeviceAttributeClockInstructionRate, /* kHz of clock()/clock64(): the SM clock on NVIDIA */
  hipDeviceAttributeWallClockRate,        /* kHz of wall_clock64(): see hipDeviceGetAttribute */
  hipDeviceAttributeMemoryClockRate,      /* kHz */
  hipDeviceAttributeMemoryBusWidth,       /* bits */
  hipDeviceAttributeComputeCapabilityMajor,
  hipDeviceAttributeComputeCapabilityMinor,
  hipDeviceAttributeComputeMode,
  hipDeviceAttributeConcurrentKernels,
  hipDeviceAttributeCooperativeLaunch,
  hipDeviceAttributeIntegrated,
  hipDeviceAttributeEccEnabled,
  hipDeviceAttributePciBusId,
  hipDeviceAttributePciDeviceId,
  hipDeviceAttributePciDomainID
} hipDeviceAttribute_t;

/* globaltimer, which wall_clock64() reads, counts nanoseconds: 1 GHz = 1000000 kHz. */
#define HIP_ON_CUDA_WALL_CLOCK_RATE_KHZ 1000000

static inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device) {
  enum cudaDeviceAttr c;
  if (value == NULL) return hipErrorInvalidValue;
  switch (attr) {
    case hipDeviceAttributeMaxThreadsPerBlock: c = cudaDevAttrMaxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: c = cudaDevAttrMaxBlockDimX; break;
    case hipDeviceAttributeMaxBlockDimY: c = cudaDevAttrMaxBlockDimY; break;
    case hipDeviceAttributeMaxBlockDimZ: c = cudaDevAttrMaxBlockDimZ; break;
    case hipDeviceAttributeMaxGridDimX: c = cudaDevAttrMaxGridDimX; break;
    case hipDeviceAttributeMaxGridDimY: c = cudaDevAttrMaxGridDimY; break;
    case hipDeviceAttributeMaxGridDimZ: c = cudaDevAttrMaxGridDimZ; break;
    case hipDeviceAttributeWarpSize: c = cudaDevAttrWarpSize; break;
    case hipDeviceAttributeMultiprocessorCount: c = cudaDevAttrMultiProcessorCount; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor:
      c = cudaDevAttrMaxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: c = cudaDevAttrMaxBlocksPerMultiprocessor; break;
    case hipDeviceAttributeMaxRegistersPerBlock: c = cudaDevAttrMaxRegistersPerBlock; break;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor:
      c = cudaDevAttrMaxRegistersPerMultiprocessor; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: c = cudaDevAttrMaxSharedMemoryPerBlock; break;
    case hipDeviceAttributeSharedMemPerBlockOptin: c = cudaDevAttrMaxSharedMemoryPerBlockOptin; break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
    case hipDeviceAttributeSharedMemPerMultiprocessor:
      c = cudaDevAttrMaxSharedMemoryPerMultiprocessor; break;
    case hipDeviceAttributeTotalConstantMemory: c = cudaDevAttrTotalConstantMemory; break;
    case hipDeviceAttributeL2CacheSize: c = cudaDevAttrL2CacheSize; break;
    case hipDeviceAttributePersistingL2CacheMaxSize: c = cudaDevAttrMaxPersistingL2CacheSize; break;
    case hipDeviceAttributeClockRate:
    case hipDeviceAttributeClockInstructionRate: c = cudaDevAttrClockRate; break;
    case hipDeviceAttributeWallClockRate:
      /* No CUDA attribute: the rate is fixed by the PTX ISA (globaltimer is in ns). */
      *value = HIP_ON_CUDA_WALL_CLOCK_RATE_KHZ;
      return hipSuccess;
    case hipDeviceAttributeMemoryClockRate: c = cudaDevAttrMemoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: c = cudaDevAttrGlobalMemoryBusWidth; break;
    case hipDeviceAttributeComputeCapabilityMajor: c = cudaDevAttrComputeCapabilityMajor; break;
    case hipDeviceAttributeComputeCapabilityMinor: c = cudaDevAttrComputeCapabilityMinor; break;
    case hipDeviceAttributeComputeMode: c = cudaDevAttrComputeMode; break;
    case hipDeviceAttributeConcurrentKernels: c = cudaDevAttrConcurrentKernels; break;
    case hipDeviceAttributeCooperativeLaunch: c = cudaDevAttrCooperativeLaunch; break;
    case hipDeviceAttributeIntegrated: c = cudaDevAttrIntegrated; break;
    case hipDeviceAttributeEccEnabled: c = cudaDevAttrEccEnabled; break;
    case hipDeviceAttributePciBusId: c = cudaDevAttrPciBusId; break;
    case hipDeviceAttributePciDeviceId: c = cudaDevAttrPciDeviceId; break;
    case hipDeviceAttributePciDomainID: c = cudaDevAttrPciDomainId; break;
    default: return hipErrorInvalidValue;
  }
  return cudaDeviceGetAttribute(value, c, device);
}

/* ---------------------------------------------------------------------------------------
 * Memory */
static inline hipError_t hipMalloc(void** ptr, size_t size) { return cudaMalloc(ptr, size); }
static inline hipError_t hipFree(void* ptr) { return cudaFree(ptr); }

/* Inter-process sharing of device memory (the judge lends its buffers to worker processes). */
typedef cudaIpcMemHandle_t hipIpcMemHandle_t;
#define hipIpcMemLazyEnablePeerAccess cudaIpcMemLazyEnablePeerAccess
static inline hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* ptr) { return cudaIpcGetMemHandle(handle, ptr); }
static inline hipError_t hipIpcOpenMemHandle(void** ptr, hipIpcMemHandle_t handle, unsigned int flags) {
  return cudaIpcOpenMemHandle(ptr, handle, flags);
}
static inline hipError_t hipIpcCloseMemHandle(void* ptr) { return cudaIpcCloseMemHandle(ptr); }

/* The device address of a __device__ variable (HIP_SYMBOL(var) is &var, as in HIP). */
static inline hipError_t hipGetSymbolAddress(void** ptr, const void* symbol) { return cudaGetSymbolAddress(ptr, symbol); }
static inline hipError_t hipGetSymbolSize(size_t* size, const void* symbol) { return cudaGetSymbolSize(size, symbol); }
static inline hipError_t hipMallocAsync(void** ptr, size_t size, hipStream_t stream) {
  return cudaMallocAsync(ptr, size, stream);
}
static inline hipError_t hipFreeAsync(void* ptr, hipStream_t stream) { return cudaFreeAsync(ptr, stream); }
static inline hipError_t hipHostMalloc(void** ptr, size_t size,
                                       unsigned int flags HIP_ON_CUDA_DEFAULT(hipHostMallocDefault)) {
  return cudaHostAlloc(ptr, size, flags);
}
static inline hipError_t hipHostFree(void* ptr) { return cudaFreeHost(ptr); }
static inline hipError_t hipMallocManaged(void** ptr, size_t size,
                                          unsigned int flags HIP_ON_CUDA_DEFAULT(hipMemAttachGlobal)) {
  return cudaMallocManaged(ptr, size, flags);
}
/* HIP's (ptr, count, device, stream) form onto CUDA 13's cudaMemLocation form. */
static inline hipError_t hipMemPrefetchAsync(const void* ptr, size_t count, int device,
                                             hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  struct cudaMemLocation loc;
  memset(&loc, 0, sizeof loc);
  loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = device == cudaCpuDeviceId ? 0 : device;
  return cudaMemPrefetchAsync(ptr, count, loc, 0, stream);
}
static inline hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  return cudaMemGetInfo(free_bytes, total_bytes);
}

static inline hipError_t hipMemcpy(void* dst, const void* src, size_t size, hipMemcpyKind kind) {
  return cudaMemcpy(dst, src, size, kind);
}
static inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t size, hipMemcpyKind kind,
                                        hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  return cudaMemcpyAsync(dst, src, size, kind, stream);
}
static inline hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                          size_t width, size_t height, hipMemcpyKind kind,
                                          hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}
static inline hipError_t hipMemset(void* dst, int value, size_t size) { return cudaMemset(dst, value, size); }
static inline hipError_t hipMemsetAsync(void* dst, int value, size_t size,
                                        hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  return cudaMemsetAsync(dst, value, size, stream);
}

/* The driver API needs a current, live context. The runtime binds its primary context to a
 * thread lazily, and after hipDeviceReset the thread keeps a primary context that is no longer
 * initialised. Check both (cheap driver queries, no GPU work) and let a runtime call (re)bind
 * and initialise it if needed. */
static inline hipError_t hipOnCudaBindContext(void) {
  CUcontext ctx = NULL;
  CUdevice dev;
  unsigned int flags;
  int active = 0;
  if (cuCtxGetCurrent(&ctx) == CUDA_SUCCESS && ctx != NULL && cuCtxGetDevice(&dev) == CUDA_SUCCESS &&
      cuDevicePrimaryCtxGetState(dev, &flags, &active) == CUDA_SUCCESS && active)
    return hipSuccess;
  return cudaFree(NULL);
}

#define HIP_ON_CUDA_DPTR(p) ((CUdeviceptr)(uintptr_t)(p))

/* 8/16/32-bit pattern fills (count is in elements): CUDA's runtime has only the byte form. */
static inline hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count,
                                          hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuMemsetD8Async(HIP_ON_CUDA_DPTR(dst), value, count, stream));
}
static inline hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count,
                                           hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuMemsetD16Async(HIP_ON_CUDA_DPTR(dst), value, count, stream));
}
static inline hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                           hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(
      cuMemsetD32Async(HIP_ON_CUDA_DPTR(dst), (unsigned int)value, count, stream));
}
static inline hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuMemsetD8(HIP_ON_CUDA_DPTR(dst), value, count));
}
static inline hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuMemsetD16(HIP_ON_CUDA_DPTR(dst), value, count));
}
static inline hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuMemsetD32(HIP_ON_CUDA_DPTR(dst), (unsigned int)value, count));
}

/* ---------------------------------------------------------------------------------------
 * Streams and events */
static inline hipError_t hipStreamCreate(hipStream_t* stream) { return cudaStreamCreate(stream); }
static inline hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  return cudaStreamCreateWithFlags(stream, flags);
}
static inline hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags,
                                                     int priority) {
  return cudaStreamCreateWithPriority(stream, flags, priority);
}
static inline hipError_t hipStreamDestroy(hipStream_t stream) { return cudaStreamDestroy(stream); }
static inline hipError_t hipStreamSynchronize(hipStream_t stream) { return cudaStreamSynchronize(stream); }
static inline hipError_t hipStreamQuery(hipStream_t stream) { return cudaStreamQuery(stream); }
static inline hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                                            unsigned int flags HIP_ON_CUDA_DEFAULT(0)) {
  return cudaStreamWaitEvent(stream, event, flags);
}

static inline hipError_t hipEventCreate(hipEvent_t* event) { return cudaEventCreate(event); }
static inline hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned int flags) {
  return cudaEventCreateWithFlags(event, flags);
}
static inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  return cudaEventRecord(event, stream);
}
static inline hipError_t hipEventSynchronize(hipEvent_t event) { return cudaEventSynchronize(event); }
static inline hipError_t hipEventQuery(hipEvent_t event) { return cudaEventQuery(event); }
static inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  return cudaEventElapsedTime(ms, start, stop);
}
static inline hipError_t hipEventDestroy(hipEvent_t event) { return cudaEventDestroy(event); }

/* ---------------------------------------------------------------------------------------
 * Kernels compiled into this binary (pass the kernel as `(const void*)kernel`, as on AMD). */
static inline hipError_t hipLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                         size_t shared_bytes HIP_ON_CUDA_DEFAULT(0),
                                         hipStream_t stream HIP_ON_CUDA_DEFAULT(0)) {
  return cudaLaunchKernel(func, grid, block, args, shared_bytes, stream);
}
static inline hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(func, attr, value);
}
static inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
                                                                      int block_size,
                                                                      size_t dyn_shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, dyn_shared_bytes);
}
static inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* blocks, const void* func, int block_size, size_t dyn_shared_bytes, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size,
                                                                dyn_shared_bytes, flags);
}
/* hipOccupancyMaxPotentialBlockSize needs CUDA's C++ helper: it is in hip_runtime.h. */

/* ---------------------------------------------------------------------------------------
 * Module API (code objects loaded at run time) through the CUDA driver API: link -lcuda
 * when you use it. Images are cubin, fatbin or NUL-terminated PTX (see hiprtc.h). */
static inline hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuModuleLoadData(module, image));
}
static inline hipError_t hipModuleLoad(hipModule_t* module, const char* path) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(cuModuleLoad(module, path));
}
static inline hipError_t hipModuleGetFunction(hipFunction_t* func, hipModule_t module, const char* name) {
  return hipCUResultTohipError(cuModuleGetFunction(func, module, name));
}
static inline hipError_t hipModuleUnload(hipModule_t module) {
  return hipCUResultTohipError(cuModuleUnload(module));
}
static inline hipError_t hipModuleLaunchKernel(hipFunction_t func, unsigned int gx, unsigned int gy,
                                               unsigned int gz, unsigned int bx, unsigned int by,
                                               unsigned int bz, unsigned int shared_bytes,
                                               hipStream_t stream, void** params, void** extra) {
  hipError_t e = hipOnCudaBindContext();
  if (e != hipSuccess) return e;
  return hipCUResultTohipError(
      cuLaunchKernel(func, gx, gy, gz, bx, by, bz, shared_bytes, stream, params, extra));
}

/* ---------------------------------------------------------------------------------------
 * Profiler ranges (nsys/ncu --capture-range=cudaProfilerApi) */
static inline hipError_t hipProfilerStart(void) { return cudaProfilerStart(); }
static inline hipError_t hipProfilerStop(void) { return cudaProfilerStop(); }

/* ---------------------------------------------------------------------------------------
 * C++ conveniences HIP also declares: typed allocation, kernel pointers without a cast. */
#ifdef __cplusplus
template <class T>
static inline hipError_t hipMalloc(T** ptr, size_t size) {
  return hipMalloc(reinterpret_cast<void**>(ptr), size);
}
template <class T>
static inline hipError_t hipHostMalloc(T** ptr, size_t size, unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
static inline hipError_t hipMallocManaged(T** ptr, size_t size, unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}
template <class F>
static inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F func, int block_size,
                                                                      size_t dyn_shared_bytes) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(func),
                                                      block_size, dyn_shared_bytes);
}
#endif

#endif /* HIP_ON_CUDA_HIP_RUNTIME_API_H */

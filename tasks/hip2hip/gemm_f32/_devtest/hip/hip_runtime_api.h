// throwaway HIP-on-CUDA shim for a device smoke test (not part of the task)
#pragma once
#include <cuda_runtime.h>
typedef cudaStream_t hipStream_t;
typedef cudaError_t hipError_t;
#define hipSuccess cudaSuccess
#define hipGetLastError cudaGetLastError
#define hipGetDevice cudaGetDevice
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipLaunchKernelGGL(K, G, B, S, St, ...) do { K<<<(G), (B), (S), (St)>>>(__VA_ARGS__); } while (0)

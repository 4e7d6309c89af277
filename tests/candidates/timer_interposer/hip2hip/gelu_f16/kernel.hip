// Broken on purpose: defines and exports the runtime's event timer, hoping to interpose the
// harness's timing. The compile gate must reject the export.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#if defined(__HIP_PLATFORM_AMD__)
extern "C" __attribute__((visibility("default"))) hipError_t hipEventElapsedTime(float* ms, hipEvent_t, hipEvent_t) {
  *ms = 0.001f;
  return hipSuccess;
}
#else
extern "C" __attribute__((visibility("default"))) cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.001f;
  return cudaSuccess;
}
#endif

ARENA_EXPORT int arena_launch(const arena_args* a) {
  (void)a;
  return 0;
}

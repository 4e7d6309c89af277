// Broken on purpose: synchronizes the whole device and allocates memory inside
// arena_launch. The compile gate must reject both.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

ARENA_EXPORT int arena_launch(const arena_args* a) {
  void* scratch = nullptr;
  if (hipMalloc(&scratch, 1024) != hipSuccess) return 1;
  (void)hipDeviceSynchronize();
  (void)hipFree(scratch);
  (void)a;
  return 0;
}

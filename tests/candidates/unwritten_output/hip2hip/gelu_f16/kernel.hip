// Broken on purpose: returns success without ever writing y (the output keeps whatever
// the harness put there: poison).
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

ARENA_EXPORT int arena_launch(const arena_args* a) {
  (void)a;
  return 0;
}

// Broken on purpose: does not compile.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

ARENA_EXPORT int arena_launch(const arena_args* a) {
  return a->num_tensors +;
}

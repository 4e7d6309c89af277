// Host oracle: the project's own stencil (include/hpc/stencil.h) in double precision.
#include "arena/arena_reference.h"
#include "hpc/stencil.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  hpc::stencil5(a->tensors[0], a->tensors[1], a->ints[0], a->ints[1]);
  return 0;
}

// Host oracle: the project's own dot product (include/hpc/dot.h) in double precision.
#include "arena/arena_reference.h"
#include "hpc/dot.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  a->tensors[2][0] = hpc::dot(a->tensors[0], a->tensors[1], a->ints[0]);
  return 0;
}

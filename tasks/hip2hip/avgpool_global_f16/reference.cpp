// Host oracle: the mean of every [HW] row of x in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t rows = a->ints[0] * a->ints[1], hw = a->ints[2];
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * hw;
    double s = 0.0;
    for (int64_t i = 0; i < hw; ++i) s += xr[i];
    y[r] = s / static_cast<double>(hw);
  }
  return 0;
}

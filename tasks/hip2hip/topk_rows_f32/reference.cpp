// Host oracle: the K largest values of each row, descending.
#include <algorithm>
#include <functional>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* vals = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1], k = a->ints[2];
  if (k < 1 || k > n) return 1;
  std::vector<double> row(static_cast<size_t>(n));
  for (int64_t r = 0; r < m; ++r) {
    std::copy(x + r * n, x + (r + 1) * n, row.begin());
    std::partial_sort(row.begin(), row.begin() + k, row.end(), std::greater<double>());
    std::copy(row.begin(), row.begin() + k, vals + r * k);
  }
  return 0;
}

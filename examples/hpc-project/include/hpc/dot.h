// The project's host implementation of its dot product (the inner product a conjugate-
// gradient solver needs twice per iteration).
#pragma once
#include <cstdint>

namespace hpc {

template <typename T>
T dot(const T* x, const T* y, int64_t n) {
  T s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}

}  // namespace hpc

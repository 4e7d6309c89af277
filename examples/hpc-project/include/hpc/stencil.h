// The project's host implementation of its 5-point stencil (one Jacobi sweep of the 2-D
// Laplace equation): every interior point becomes the mean of itself and its four
// neighbours; boundary points keep their value. Row-major H x W grids.
#pragma once
#include <cstdint>

namespace hpc {

template <typename T>
void stencil5(const T* in, T* out, int64_t h, int64_t w) {
  for (int64_t i = 0; i < h; ++i)
    for (int64_t j = 0; j < w; ++j) {
      const int64_t k = i * w + j;
      if (i == 0 || j == 0 || i == h - 1 || j == w - 1) {
        out[k] = in[k];
      } else {
        out[k] = T(0.2) * (in[k] + in[k - w] + in[k + w] + in[k - 1] + in[k + 1]);
      }
    }
}

}  // namespace hpc

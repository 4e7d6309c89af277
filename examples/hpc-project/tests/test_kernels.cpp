// The project's own unit tests of its host implementations (which are also the oracles the
// KernelArena gates judge the GPU kernels against).
#include <cmath>
#include <cstdio>
#include <vector>

#include "hpc/dot.h"
#include "hpc/stencil.h"

static int failures = 0;
#define CHECK(cond)                                                 \
  do {                                                              \
    if (!(cond)) {                                                  \
      std::printf("%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                   \
    }                                                               \
  } while (0)

static void stencil_keeps_boundary_and_averages_interior() {
  const int64_t h = 4, w = 5;
  std::vector<double> in(h * w), out(h * w, -1);
  for (int64_t k = 0; k < h * w; ++k) in[k] = static_cast<double>(k * k % 7);
  hpc::stencil5(in.data(), out.data(), h, w);
  for (int64_t j = 0; j < w; ++j) CHECK(out[j] == in[j] && out[(h - 1) * w + j] == in[(h - 1) * w + j]);
  for (int64_t i = 0; i < h; ++i) CHECK(out[i * w] == in[i * w] && out[i * w + w - 1] == in[i * w + w - 1]);
  const int64_t k = 1 * w + 2;
  CHECK(std::fabs(out[k] - 0.2 * (in[k] + in[k - w] + in[k + w] + in[k - 1] + in[k + 1])) < 1e-12);
}

static void stencil_leaves_a_harmonic_field_unchanged() {
  // f(i, j) = i + 2j is harmonic: the mean of a point and its neighbours is the point itself.
  const int64_t h = 9, w = 13;
  std::vector<double> in(h * w), out(h * w);
  for (int64_t i = 0; i < h; ++i)
    for (int64_t j = 0; j < w; ++j) in[i * w + j] = static_cast<double>(i + 2 * j);
  hpc::stencil5(in.data(), out.data(), h, w);
  for (int64_t k = 0; k < h * w; ++k) CHECK(std::fabs(out[k] - in[k]) < 1e-12);
}

static void stencil_on_degenerate_grids_copies() {
  for (int64_t h : {1, 2}) {
    std::vector<double> in(h * 3, 4.5), out(h * 3, 0);
    hpc::stencil5(in.data(), out.data(), h, 3);
    for (double v : out) CHECK(v == 4.5);
  }
}

static void dot_matches_closed_forms() {
  const int64_t n = 1000;
  std::vector<double> x(n), ones(n, 1.0);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<double>(i + 1);
  CHECK(hpc::dot(x.data(), ones.data(), n) == n * (n + 1) / 2.0);
  CHECK(hpc::dot(x.data(), x.data(), n) == n * (n + 1) * (2.0 * n + 1) / 6.0);
  CHECK(hpc::dot(x.data(), x.data(), 0) == 0.0);
}

int main() {
  stencil_keeps_boundary_and_averages_interior();
  stencil_leaves_a_harmonic_field_unchanged();
  stencil_on_degenerate_grids_copies();
  dot_matches_closed_forms();
  std::printf("%s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}

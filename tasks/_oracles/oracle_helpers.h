// Loops that several host oracles share (tasks/_oracles/README.md): written once, so a fix
// lands in every task that uses them. Everything is double precision, row-major, contiguous.
#pragma once
#include <cmath>
#include <cstdint>

namespace oracle {

// C[M, N] = A[M, K] * B[K, N]. i-k-j loop order: the inner loop streams rows of B and C.
inline void gemm(const double* A, const double* B, double* C, int64_t M, int64_t N, int64_t K) {
  for (int64_t i = 0; i < M; ++i) {
    double* c = C + i * N;
    for (int64_t j = 0; j < N; ++j) c[j] = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const double aik = A[i * K + k];
      const double* b = B + k * N;
      for (int64_t j = 0; j < N; ++j) c[j] += aik * b[j];
    }
  }
}

// The largest of x[0 .. n), n >= 1.
inline double row_max(const double* x, int64_t n) {
  double mx = x[0];
  for (int64_t j = 1; j < n; ++j) mx = std::fmax(mx, x[j]);
  return mx;
}

// sum_j exp(x[j] - shift): with shift = row_max(x, n), no term overflows.
inline double sum_exp(const double* x, int64_t n, double shift) {
  double s = 0.0;
  for (int64_t j = 0; j < n; ++j) s += std::exp(x[j] - shift);
  return s;
}

}  // namespace oracle

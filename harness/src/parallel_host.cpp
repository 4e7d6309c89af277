#include "parallel_host.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "host_pool.h"

namespace arena {

void parallel_to_double(DType d, const void* src, double* dst, int64_t n) {
  const size_t es = dtype_size(d);
  parallel_for(n, [&](int64_t b, int64_t e) {
    to_double(d, static_cast<const unsigned char*>(src) + b * es, dst + b, static_cast<size_t>(e - b));
  });
}

void parallel_from_double(DType d, const double* src, void* dst, int64_t n) {
  const size_t es = dtype_size(d);
  parallel_for(n, [&](int64_t b, int64_t e) {
    from_double(d, src + b, static_cast<unsigned char*>(dst) + b * es, static_cast<size_t>(e - b));
  });
}

HostValues nan_filled(int64_t n) {
  HostValues v(static_cast<size_t>(n));
  double* p = v.data();
  parallel_for(n, [p](int64_t b, int64_t e) { std::fill(p + b, p + e, std::numeric_limits<double>::quiet_NaN()); });
  return v;
}

namespace {

// Runs compare_stretch(lo, len) over [0, n) in parts on the host threads and merges the parts in
// order: the same result as one serial pass.
template <class Stretch>
CompareResult compare_in_parts(int64_t n, size_t keep, const Stretch& compare_stretch) {
  // Parts small enough to keep every thread busy on mid-sized outputs (a few million elements).
  const int64_t chunk = std::max<int64_t>(int64_t{1} << 16, (n + 63) / 64);
  const int64_t parts = (n + chunk - 1) / chunk;
  std::vector<CompareResult> results(static_cast<size_t>(parts));
  parallel_for(parts, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) results[p] = compare_stretch(p * chunk, std::min(chunk, n - p * chunk));
  }, 1);
  CompareResult all;
  for (int64_t p = 0; p < parts; ++p) merge_compare(all, results[p], p * chunk, keep);
  return all;
}

}  // namespace

CompareResult compare_parallel(const double* got, const double* want, int64_t n, DType dtype, const Tolerance& tol,
                               size_t keep) {
  return compare_in_parts(n, keep, [&](int64_t lo, int64_t len) {
    return compare(got + lo, want + lo, len, dtype, tol, keep);
  });
}

CompareResult compare_parallel_raw(const void* got, const double* want, int64_t n, DType dtype, const Tolerance& tol,
                                   size_t keep) {
  const size_t es = dtype_size(dtype);
  return compare_in_parts(n, keep, [&](int64_t lo, int64_t len) {
    // Converted a block at a time on the stack: no array of doubles as large as the output.
    constexpr int64_t kBlock = 4096;
    double block[kBlock];
    CompareResult part;
    for (int64_t b = 0; b < len; b += kBlock) {
      const int64_t m = std::min(kBlock, len - b);
      to_double(dtype, static_cast<const unsigned char*>(got) + (lo + b) * es, block, static_cast<size_t>(m));
      merge_compare(part, compare(block, want + lo + b, m, dtype, tol, keep), b, keep);
    }
    return part;
  });
}

}  // namespace arena

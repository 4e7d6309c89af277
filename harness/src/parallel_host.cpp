#include "parallel_host.h"

#include <algorithm>
#include <vector>

#include "inputs.h"

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

CompareResult compare_parallel(const double* got, const double* want, int64_t n, DType dtype, const Tolerance& tol,
                               size_t keep) {
  const int64_t chunk = std::max<int64_t>(int64_t{1} << 20, (n + 63) / 64);
  const int64_t parts = (n + chunk - 1) / chunk;
  std::vector<CompareResult> results(static_cast<size_t>(std::max<int64_t>(parts, 1)));
  parallel_for(parts, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const int64_t lo = p * chunk, len = std::min(n, lo + chunk) - lo;
      results[p] = compare(got + lo, want + lo, len, dtype, tol, keep);
      for (auto& m : results[p].first) m.index += lo;
      if (results[p].worst_index >= 0) results[p].worst_index += lo;
    }
  }, 1);
  CompareResult all = parts > 0 ? results[0] : compare(got, want, 0, dtype, tol, keep);
  for (int64_t p = 1; p < parts; ++p) {
    const CompareResult& r = results[p];
    all.count += r.count;
    all.mismatches += r.mismatches;
    all.nan_mismatches += r.nan_mismatches;
    if (r.max_abs_err > all.max_abs_err) {
      all.max_abs_err = r.max_abs_err;
      all.worst_index = r.worst_index;
    }
    all.max_rel_err = std::max(all.max_rel_err, r.max_rel_err);
    for (const auto& m : r.first)
      if (all.first.size() < keep) all.first.push_back(m);
  }
  return all;
}

}  // namespace arena

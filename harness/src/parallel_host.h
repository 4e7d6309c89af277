// Host work spread over the gate's host threads (host_pool.h): dtype conversions and output
// comparison, which on 10^8-element outputs would otherwise dominate a correctness gate.
#pragma once
#include <cstdint>

#include "compare.h"
#include "dtype.h"
#include "host_values.h"

namespace arena {

// compare() over the host threads: the same result as one serial pass (mismatches listed in order).
CompareResult compare_parallel(const double* got, const double* want, int64_t n, DType dtype, const Tolerance& tol,
                               size_t keep = 8);
// The same with `got` still in its dtype's bytes, converted a block at a time.
CompareResult compare_parallel_raw(const void* got, const double* want, int64_t n, DType dtype, const Tolerance& tol,
                                   size_t keep = 8);

// Converts between dtype bytes and doubles on the host threads.
void parallel_to_double(DType d, const void* src, double* dst, int64_t n);
void parallel_from_double(DType d, const double* src, void* dst, int64_t n);

// n quiet NaNs, written (and the pages first touched) on the host threads.
HostValues nan_filled(int64_t n);

}  // namespace arena

// Reading device memory on the host, fast: through one page-locked staging buffer, a chunk at
// a time, converted on all cores. Pageable copies of 10^8-element tensors, with their
// conversion into fresh arrays, were most of what a perf gate spent checking kept samples.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "compare.h"
#include "dtype.h"
#include "host_values.h"

namespace arena {

// Calls take(offset, data, n) for consecutive chunks of the `bytes` at device address `src`;
// `data` is valid during the call only. Chunks are whole multiples of 8 bytes but the last.
void download_chunks(const void* src, size_t bytes,
                     const std::function<void(size_t offset, const unsigned char* data, size_t n)>& take);

// `n` elements of `dtype` at device address `src`, as doubles.
HostValues download_values(DType dtype, const void* src, int64_t n);

// compare() of `n` elements of `dtype` at device address `src` against `want`, without a host
// copy of the whole tensor (the same result as downloading it and comparing in one pass).
CompareResult compare_device_values(DType dtype, const void* src, const double* want, int64_t n,
                                    const Tolerance& tol, size_t keep = 8);

}  // namespace arena

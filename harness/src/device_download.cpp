#include "device_download.h"

#include <mutex>

#include "device.h"
#include "parallel_host.h"

namespace arena {

namespace {

constexpr size_t kStagingBytes = size_t{64} << 20;

// One staging buffer per process, page-locked when the runtime grants it (pageable otherwise:
// slower, still correct). Chunks are handed out one at a time under its lock.
class Staging {
 public:
  static Staging& get() {
    static Staging s;
    return s;
  }
  std::mutex lock;
  unsigned char* data() { return pinned_ ? pinned_ : fallback_.data(); }

 private:
  Staging() {
    pinned_ = static_cast<unsigned char*>(arena_dev_host_alloc(kStagingBytes));
    if (!pinned_) fallback_.resize(kStagingBytes);
  }
  // Never freed: the runtime may already be torn down when static objects are destroyed.
  unsigned char* pinned_ = nullptr;
  std::vector<unsigned char> fallback_;
};

}  // namespace

void download_chunks(const void* src, size_t bytes,
                     const std::function<void(size_t offset, const unsigned char* data, size_t n)>& take) {
  Staging& staging = Staging::get();
  std::lock_guard<std::mutex> hold(staging.lock);
  for (size_t off = 0; off < bytes; off += kStagingBytes) {
    const size_t n = std::min(kStagingBytes, bytes - off);
    check(arena_dev_d2h(staging.data(), static_cast<const unsigned char*>(src) + off, n), "copying from the device");
    take(off, staging.data(), n);
  }
}

HostValues download_values(DType dtype, const void* src, int64_t n) {
  HostValues v(static_cast<size_t>(n));  // first touched by the conversion's threads
  const size_t es = dtype_size(dtype);
  download_chunks(src, static_cast<size_t>(n) * es, [&](size_t off, const unsigned char* data, size_t bytes) {
    parallel_to_double(dtype, data, v.data() + off / es, static_cast<int64_t>(bytes / es));
  });
  return v;
}

CompareResult compare_device_values(DType dtype, const void* src, const double* want, int64_t n, const Tolerance& tol,
                                    size_t keep) {
  CompareResult all;
  const size_t es = dtype_size(dtype);
  download_chunks(src, static_cast<size_t>(n) * es, [&](size_t off, const unsigned char* data, size_t bytes) {
    const int64_t lo = static_cast<int64_t>(off / es);
    const int64_t len = static_cast<int64_t>(bytes / es);
    merge_compare(all, compare_parallel_raw(data, want + lo, len, dtype, tol, keep), lo, keep);
  });
  return all;
}

}  // namespace arena

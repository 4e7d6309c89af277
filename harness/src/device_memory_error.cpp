#include "device_memory_error.h"

#include <cstdio>

namespace arena {

bool says_out_of_device_memory(const std::string& device_error) {
  return device_error.find("out of memory") != std::string::npos ||
         device_error.find("cudaErrorMemoryAllocation") != std::string::npos ||
         device_error.find("hipErrorOutOfMemory") != std::string::npos;
}

std::string out_of_device_memory_reason(const std::string& what, double used_gb, double total_gb) {
  std::string s = std::string(kOutOfDeviceMemory) + " while " + what;
  if (used_gb >= 0 && total_gb > 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "; %.1f GB of the GPU's %.1f GB were in use", used_gb, total_gb);
    s += buf;
  }
  return s + " (the gates sharing it): not a verdict on the kernel; run again with fewer gates per GPU "
             "(lower ARENA_PERF_SLOTS, or set ARENA_GPU_MEMORY_GB below the GPU's memory so that the gates leave room)";
}

}  // namespace arena

// Why a machine's GPU cannot be used, in words a new user can act on: the runtime's own error
// ("CUDA driver version is insufficient") reads like a driver problem on a machine that has no
// GPU at all, so the judge first looks for the GPU itself.
#pragma once

#include <string>

namespace arena {

struct GpuPresence {
  bool nvidia_nodes = false;  // /dev/nvidiactl or /dev/nvidia0
  bool amd_nodes = false;     // /dev/kfd
  bool cuda_driver = false;   // libcuda.so.1 loads (NVIDIA's user-space driver)
};

// What this machine shows of a GPU: device nodes and NVIDIA's driver library.
GpuPresence probe_gpu_presence();

// The reason no GPU can be used: no GPU on this machine (and how that was found), a GPU whose
// driver is too old for the runtime, or a GPU the runtime cannot open (its error named).
std::string no_gpu_reason(const GpuPresence& p, const std::string& runtime_error);

}  // namespace arena

#include "no_gpu_reason.h"

#include <dlfcn.h>
#include <unistd.h>

namespace arena {

GpuPresence probe_gpu_presence() {
  GpuPresence p;
  p.nvidia_nodes = ::access("/dev/nvidiactl", F_OK) == 0 || ::access("/dev/nvidia0", F_OK) == 0;
  p.amd_nodes = ::access("/dev/kfd", F_OK) == 0;
  if (void* h = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    p.cuda_driver = true;
    ::dlclose(h);
  }
  return p;
}

std::string no_gpu_reason(const GpuPresence& p, const std::string& runtime_error) {
  const std::string said = runtime_error.empty() ? "" : " (" + runtime_error + ")";
  if (!p.nvidia_nodes && !p.amd_nodes)
    return "no GPU on this machine: no NVIDIA (/dev/nvidiactl, /dev/nvidia0) or AMD (/dev/kfd) device nodes" +
           std::string(p.cuda_driver ? "" : ", and no NVIDIA driver library (libcuda.so.1)");
  const bool old_driver = runtime_error.find("insufficient") != std::string::npos ||
                          runtime_error.find("InsufficientDriver") != std::string::npos;
  if (p.nvidia_nodes && !p.cuda_driver)
    return "an NVIDIA GPU whose driver library (libcuda.so.1) cannot be loaded" + said;
  if (old_driver) return "a GPU whose driver is too old for this CUDA runtime: update the driver" + said;
  return "a GPU the runtime cannot open" + said;
}

}  // namespace arena

// arena-device-info: a short Markdown description of the GPU the harness would use, for
// an agent's prompt. Without a usable GPU it says so (and why) and still exits 0.
#include <cstdio>

#include "device.h"

int main() {
  arena::DeviceChoice d = arena::select_device();
  if (!d.available) {
    std::printf("- No GPU was visible when this prompt was written (%s). The gates run on the evaluation machine's GPU.\n",
                d.why.c_str());
    return 0;
  }
  const arena_device_info& i = d.info;
  std::printf("- Device: %s (%s, %s)\n", i.name, i.arch, i.vendor_amd ? "AMD, ROCm" : "NVIDIA, CUDA");
  std::printf("- %d %s, warp/wavefront size %d, shader clock up to %.0f MHz\n", i.sm_count,
              i.vendor_amd ? "compute units" : "streaming multiprocessors", i.warp_size, i.clock_khz / 1e3);
  std::printf("- L2 cache %.1f MiB; device memory %.1f GiB\n", i.l2_bytes / 1048576.0, i.total_mem / 1073741824.0);
  std::printf("- Peak memory bandwidth %.0f GB/s (memory clock x bus width); peak fp32 %.1f TFLOP/s (no matrix units)\n",
              i.peak_bytes_per_s / 1e9, i.peak_fp32_flops / 1e12);
  return 0;
}

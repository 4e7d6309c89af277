// GpuTrace where no activity tracer is built in (AMD: rocprofiler is not wired up yet).
#include "gpu_trace.h"

namespace arena {

GpuTrace::GpuTrace() { why_ = "no GPU activity tracer on this platform (CUPTI is NVIDIA's; rocprofiler is not supported yet)"; }

GpuTrace& GpuTrace::get() {
  static GpuTrace t;
  return t;
}

void GpuTrace::begin(uint64_t) {}
void GpuTrace::end() {}
std::vector<GpuActivity> GpuTrace::collect() { return {}; }
bool GpuTrace::pause_kernels(bool) { return false; }
uint32_t GpuTrace::stream_id(void*) const { return 0; }

}  // namespace arena

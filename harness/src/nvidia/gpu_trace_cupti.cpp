// GpuTrace on CUPTI's activity API: kernel, copy and memset records, tagged through external
// correlation ids.
#include <cuda.h>
#include <cupti.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "gpu_trace.h"

namespace arena {

namespace {

constexpr size_t kBufferBytes = 8u << 20;

std::mutex g_mutex;
std::vector<GpuActivity> g_done;                  // completed records not yet collected
std::map<uint32_t, uint64_t> g_tags;              // correlation id -> tag
std::vector<std::pair<uint32_t, GpuActivity>> g_untagged;  // records whose tag record is not seen yet

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void add(uint32_t correlation, GpuActivity a) {
  auto it = g_tags.find(correlation);
  if (it == g_tags.end()) {
    g_untagged.emplace_back(correlation, std::move(a));
    return;
  }
  a.tag = it->second;
  g_done.push_back(std::move(a));
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CUpti_Activity* r = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
    switch (r->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(r);
        add(k->correlationId, {GpuActivity::Kernel, 0, k->start, k->end, k->streamId, k->name ? k->name : "?"});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(r);
        add(m->correlationId, {GpuActivity::Copy, 0, m->start, m->end, m->streamId, "copy"});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(r);
        add(m->correlationId, {GpuActivity::Memset, 0, m->start, m->end, m->streamId, "memset"});
        break;
      }
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        auto* e = reinterpret_cast<CUpti_ActivityExternalCorrelation*>(r);
        if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) g_tags[e->correlationId] = e->externalId;
        break;
      }
      default:
        break;
    }
  }
  std::free(buffer);
  // Records whose tag arrived in this buffer.
  std::vector<std::pair<uint32_t, GpuActivity>> still;
  for (auto& [c, a] : g_untagged) {
    auto it = g_tags.find(c);
    if (it == g_tags.end()) {
      still.emplace_back(c, std::move(a));
    } else {
      a.tag = it->second;
      g_done.push_back(std::move(a));
    }
  }
  g_untagged.swap(still);
}

std::string cupti_error(CUptiResult r, const char* what) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  return std::string(what) + ": " + (s ? s : "unknown CUPTI error");
}

}  // namespace

GpuTrace::GpuTrace() {
  CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r != CUPTI_SUCCESS) {
    why_ = cupti_error(r, "CUPTI activity tracing");
    return;
  }
  // External correlation records refer to the API records, so the runtime's and the driver's
  // API activity must be on for tags to reach the GPU work.
  for (CUpti_ActivityKind k : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                               CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                               CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_RUNTIME}) {
    r = cuptiActivityEnable(k);
    if (r != CUPTI_SUCCESS) {
      why_ = cupti_error(r, "enabling CUPTI activity records");
      return;
    }
  }
  available_ = true;
}

GpuTrace& GpuTrace::get() {
  static GpuTrace t;
  return t;
}

void GpuTrace::begin(uint64_t tag) {
  if (available_) cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, tag);
}

void GpuTrace::end() {
  uint64_t last = 0;
  if (available_) cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
}

std::vector<GpuActivity> GpuTrace::collect() {
  if (!available_) return {};
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<GpuActivity> out;
  out.swap(g_done);
  // Untagged records are work enqueued outside any begin()/end(): report them with tag 0.
  for (auto& [c, a] : g_untagged) out.push_back(std::move(a));
  g_untagged.clear();
  if (g_tags.size() > (1u << 20)) g_tags.clear();
  return out;
}

bool GpuTrace::pause_kernels(bool paused) {
  if (!available_) return false;
  return (paused ? cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
                 : cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) == CUPTI_SUCCESS;
}

uint32_t GpuTrace::stream_id(void* stream) const {
  uint32_t id = 0;
  if (!available_) return 0;
  CUcontext ctx = nullptr;
  if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) return 0;
  if (cuptiGetStreamIdEx(ctx, static_cast<CUstream>(stream), 0, &id) != CUPTI_SUCCESS) return 0;
  return id;
}

}  // namespace arena

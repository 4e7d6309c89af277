// The sweep's launch (cache_sweep.h), apart from the plan so that host-only tools need no device.
#include "cache_sweep.h"
#include "device.h"
#include "device_api.h"

namespace arena {

void enqueue_sweep(void* buffer, const SweepPlan& plan, void* stream) {
  if (plan.bytes == 0) return;
  check(arena_dev_flush(buffer, plan.bytes, plan.device_mode(), stream), "sweeping the caches");
}

}  // namespace arena

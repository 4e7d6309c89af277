#include "launch.h"

#include <cstdio>

namespace arena {

LaunchOutcome launch_and_wait(const KernelLibrary& k, const DeviceTensors& d, const Stream& s, double timeout_s,
                              const std::string& where, const std::function<void()>& enqueued) {
  LaunchOutcome o;
  int rc = k.launch(&d.args());
  if (enqueued) enqueued();
  if (rc != 0) {
    o.kind = LaunchOutcome::ReturnedError;
    o.message = k.role + " arena_launch returned " + std::to_string(rc) + " on " + where;
  }
  try {
    if (!s.wait(timeout_s)) {
      o.kind = LaunchOutcome::TimedOut;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.0f", timeout_s);
      o.message = k.role + " did not finish within " + buf + " s on " + where +
                  " (an infinite loop or a deadlock?); the device is unusable for the rest of this process";
    }
  } catch (const DeviceError& e) {
    o.kind = LaunchOutcome::DeviceFault;
    o.message = k.role + " crashed the device on " + where + ": " + e.what() +
                "; the device is unusable for the rest of this process";
  }
  return o;
}

}  // namespace arena

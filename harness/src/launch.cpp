#include "launch.h"

#include <cstdio>

namespace arena {

namespace {
DeviceLostHandler g_device_lost = nullptr;
}

void set_device_lost_handler(DeviceLostHandler h) { g_device_lost = h; }

void device_lost(const LaunchOutcome& o) {
  if (g_device_lost) g_device_lost(o);
  throw DeviceError(o.message);
}

LaunchOutcome launch_and_wait(const KernelLibrary& k, const DeviceTensors& d, const Stream& s, double timeout_s,
                              const std::string& where) {
  LaunchOutcome o;
  int rc = k.launch(&d.args());
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
                  " (an infinite loop or a deadlock?); the device is unusable for the rest of this gate";
    }
  } catch (const DeviceError& e) {
    o.kind = LaunchOutcome::DeviceFault;
    o.message = k.role + " crashed the device on " + where + ": " + e.what() +
                "; the device is unusable for the rest of this gate";
  }
  if (o.device_lost() && g_device_lost) g_device_lost(o);
  return o;
}

}  // namespace arena

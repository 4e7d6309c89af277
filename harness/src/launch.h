// One guarded kernel launch: call arena_launch, wait with a deadline, and turn every way
// it can go wrong into a sentence.
#pragma once
#include <string>

#include "device.h"
#include "kernel_library.h"
#include "tensors.h"

namespace arena {

struct LaunchOutcome {
  enum Kind { Ok, ReturnedError, TimedOut, DeviceFault } kind = Ok;
  std::string message;
  bool ok() const { return kind == Ok; }
  // After TimedOut or DeviceFault the device context is unusable for the rest of the process.
  bool device_lost() const { return kind == TimedOut || kind == DeviceFault; }
};

// Called (instead of returning) when a launch hangs or faults: the context cannot be used,
// and even freeing memory may block behind a running kernel, so the handler records what
// it must and ends the process. Without a handler the outcome is returned.
using DeviceLostHandler = void (*)(const LaunchOutcome&);
void set_device_lost_handler(DeviceLostHandler h);

// Hands a hang or fault to the handler; throws DeviceError when none is set.
void device_lost(const LaunchOutcome& o);

LaunchOutcome launch_and_wait(const KernelLibrary& k, const DeviceTensors& d, const Stream& s, double timeout_s,
                              const std::string& where);

}  // namespace arena

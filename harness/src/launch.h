// One guarded kernel launch in this process (arena-profile's, where the kernel is trusted to
// run beside the profiler): call arena_launch, wait with a deadline, and turn every way it can
// go wrong into a sentence. The gates launch kernels in worker processes instead (side.h).
#pragma once
#include <functional>
#include <string>

#include "device.h"
#include "kernel_library.h"
#include "tensors.h"

namespace arena {

struct LaunchOutcome {
  enum Kind { Ok, ReturnedError, TimedOut, DeviceFault } kind = Ok;
  std::string message;
  bool ok() const { return kind == Ok; }
  // After TimedOut or DeviceFault the device context that ran it is unusable.
  bool device_lost() const { return kind == TimedOut || kind == DeviceFault; }
};

// `enqueued`, when given, runs once the launch is enqueued and before the wait (e.g. to record
// an event behind it).
LaunchOutcome launch_and_wait(const KernelLibrary& k, const DeviceTensors& d, const Stream& s, double timeout_s,
                              const std::string& where, const std::function<void()>& enqueued = {});

}  // namespace arena

// C++ handles over the device backend (device_api.h): errors as exceptions, RAII for
// buffers, streams and events, guarded buffers with red zones, and device selection.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_api.h"

namespace arena {

struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws DeviceError("<what>: <backend error>") when rc != 0.
void check(int rc, const std::string& what);

struct DeviceChoice {
  bool available = false;
  int id = 0;
  std::string why;  // reason when unavailable (printed before exiting with the skip code)
  arena_device_info info{};
};

// Picks the GPU CTest allocated (CTEST_RESOURCE_GROUP_0_GPUS=id:N,slots:K, or _PERF_GPUS for
// a perf gate that holds a GPU's perf slot), or ARENA_DEVICE,
// or 0; reports unavailability instead of throwing so runners can exit with 77.
DeviceChoice select_device();

// A backend object (stream, event) that this handle creates and destroys; not copyable.
template <void* (*Create)(), int (*Destroy)(void*)>
class BackendHandle {
 public:
  explicit BackendHandle(const char* what) : h_(Create()) {
    if (!h_) throw DeviceError(std::string("creating ") + what + ": " + arena_dev_error());
  }
  ~BackendHandle() {
    if (h_) Destroy(h_);
  }
  BackendHandle(const BackendHandle&) = delete;
  BackendHandle& operator=(const BackendHandle&) = delete;
  void* get() const { return h_; }

 private:
  void* h_;
};

class Stream : public BackendHandle<arena_dev_stream_create, arena_dev_stream_destroy> {
 public:
  Stream() : BackendHandle("a stream") {}
  // Waits up to timeout_s; throws DeviceError on a device fault, returns false on timeout.
  bool wait(double timeout_s) const;
};

class Event : public BackendHandle<arena_dev_event_create, arena_dev_event_destroy> {
 public:
  Event() : BackendHandle("an event") {}
  void record(const Stream& s) const;
};

float elapsed_ms(const Event& start, const Event& stop);

// One device allocation. Each has a process-unique id, by which worker processes that map it
// (through its IPC handle) name it; they are told to let go before it is freed.
class DeviceBuffer {
 public:
  // JudgeOnly: what the judge checks against (kept samples, pristine inputs) is never lent to
  // a worker, whose kernels could address it (docs/DESIGN.md, "Memory the candidate can
  // address"); ipc_handle() refuses it.
  enum class Sharing { Lendable, JudgeOnly };
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes, Sharing sharing = Sharing::Lendable);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }
  size_t bytes() const { return bytes_; }
  uint64_t id() const { return id_; }
  std::vector<unsigned char> ipc_handle() const;  // throws DeviceError (also for a JudgeOnly buffer)

 private:
  void release();
  void* p_ = nullptr;
  size_t bytes_ = 0;
  uint64_t id_ = 0;
  Sharing sharing_ = Sharing::Lendable;
};

// Called with a buffer's id just before it is freed (workers that mapped it unmap it).
using BufferFreeHook = void (*)(uint64_t id);
void set_buffer_free_hook(BufferFreeHook hook);

// A device buffer with red zones on both sides, filled with a known pattern: a write
// outside [data, data + bytes) shows up as a changed red-zone byte.
class GuardedBuffer {
 public:
  static constexpr size_t kRedZone = 64 * 1024;
  static constexpr size_t kAlign = 256;
  static constexpr uint64_t kRedPattern = 0xC3A5C3A5DEADBEEFull;

  GuardedBuffer() = default;
  GuardedBuffer(size_t bytes, const Stream& s);  // red zones written on s
  void* data() const { return static_cast<char*>(raw_.get()) + kRedZone; }
  const DeviceBuffer& allocation() const { return raw_; }  // data() is kRedZone bytes into it
  size_t bytes() const { return bytes_; }
  size_t padded_bytes() const { return padded_; }
  // Fills the data area (rounded up to 8 bytes) with a repeated 8-byte pattern.
  void fill(uint64_t pattern, const Stream& s);
  void upload(const void* host) const;
  // Empty when intact; else a sentence naming where the first foreign write landed.
  std::string check_red_zones(const std::string& name) const;

 private:
  DeviceBuffer raw_;
  size_t bytes_ = 0, padded_ = 0;
  uint64_t last_fill_ = kRedPattern;  // what the bytes up to the next 8-byte boundary hold
};

}  // namespace arena

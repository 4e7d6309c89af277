#include "device.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "no_gpu_reason.h"

namespace arena {

void check(int rc, const std::string& what) {
  if (rc != 0) throw DeviceError(what + ": " + arena_dev_error());
}

DeviceChoice select_device() {
  DeviceChoice c;
  int count = 0;
  if (arena_dev_count(&count) != 0 || count == 0) {
    c.why = no_gpu_reason(probe_gpu_presence(), arena_dev_error());
    return c;
  }
  if (const char* groups = std::getenv("CTEST_RESOURCE_GROUP_COUNT"); groups && std::atoi(groups) > 0) {
    const char* alloc = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");  // "id:1,slots:4"
    // A perf gate under ARENA_PERF_SCHEDULE=shared holds its GPU's perf slot instead.
    if (!alloc) alloc = std::getenv("CTEST_RESOURCE_GROUP_0_PERF_GPUS");
    if (alloc && std::strncmp(alloc, "id:", 3) == 0) c.id = std::atoi(alloc + 3);
  } else if (const char* dev = std::getenv("ARENA_DEVICE")) {
    c.id = std::atoi(dev);
  }
  if (c.id < 0 || c.id >= count) {
    c.why = "device " + std::to_string(c.id) + " requested but only " + std::to_string(count) + " present";
    return c;
  }
  if (arena_dev_select(c.id) != 0 || arena_dev_info(&c.info) != 0) {
    c.why = std::string("cannot use device ") + std::to_string(c.id) + ": " + arena_dev_error();
    return c;
  }
  c.available = true;
  return c;
}

bool Stream::wait(double timeout_s) const {
  int rc = arena_dev_stream_wait(get(), timeout_s);
  if (rc < 0) throw DeviceError(arena_dev_error());
  return rc == 0;
}

void Event::record(const Stream& s) const { check(arena_dev_event_record(get(), s.get()), "recording an event"); }

float elapsed_ms(const Event& start, const Event& stop) {
  float ms = 0;
  check(arena_dev_event_elapsed_ms(start.get(), stop.get(), &ms), "reading event time");
  return ms;
}

namespace {
std::atomic<uint64_t> g_next_buffer_id{1};
BufferFreeHook g_free_hook = nullptr;
}  // namespace

void set_buffer_free_hook(BufferFreeHook hook) { g_free_hook = hook; }

DeviceBuffer::DeviceBuffer(size_t bytes, Sharing sharing) : bytes_(bytes), id_(g_next_buffer_id++), sharing_(sharing) {
  p_ = arena_dev_malloc(bytes);
  if (!p_) throw DeviceError("allocating " + std::to_string(bytes) + " bytes: " + arena_dev_error());
}

void DeviceBuffer::release() {
  if (!p_) return;
  if (g_free_hook) g_free_hook(id_);
  arena_dev_free(p_);
  p_ = nullptr;
}

DeviceBuffer::~DeviceBuffer() { release(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : p_(std::exchange(o.p_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)),
      id_(std::exchange(o.id_, 0)),
      sharing_(std::exchange(o.sharing_, Sharing::Lendable)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    release();
    p_ = std::exchange(o.p_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
    id_ = std::exchange(o.id_, 0);
    sharing_ = std::exchange(o.sharing_, Sharing::Lendable);
  }
  return *this;
}

std::vector<unsigned char> DeviceBuffer::ipc_handle() const {
  if (sharing_ == Sharing::JudgeOnly)
    throw DeviceError("buffer " + std::to_string(id_) +
                      " holds what the judge checks against and is never lent to a worker process");
  std::vector<unsigned char> h(ARENA_IPC_HANDLE_BYTES);
  check(arena_dev_ipc_export(p_, h.data()), "sharing a buffer with a worker process");
  return h;
}

GuardedBuffer::GuardedBuffer(size_t bytes, const Stream& s)
    : raw_(2 * kRedZone + ((bytes + kAlign - 1) / kAlign) * kAlign),
      bytes_(bytes),
      padded_(((bytes + kAlign - 1) / kAlign) * kAlign) {
  check(arena_dev_fill(raw_.get(), kRedPattern, kRedZone, s.get()), "writing a red zone");
  char* after = static_cast<char*>(data()) + padded_;
  check(arena_dev_fill(after, kRedPattern, kRedZone, s.get()), "writing a red zone");
  // The padding between bytes_ and padded_ is red zone too: a tail overrun lands there first.
  check(arena_dev_fill(data(), kRedPattern, padded_, s.get()), "writing a red zone");
}

void GuardedBuffer::fill(uint64_t pattern, const Stream& s) {
  check(arena_dev_fill(data(), pattern, (bytes_ + 7) / 8 * 8, s.get()), "filling a buffer");
  last_fill_ = pattern;
}

void GuardedBuffer::upload(const void* host) const { check(arena_dev_h2d(data(), host, bytes_), "copying to the device"); }

std::string GuardedBuffer::check_red_zones(const std::string& name) const {
  const size_t filled_end = (bytes_ + 7) / 8 * 8;
  // Byte expected at `offset` from data() (negative side handled by the leading zone).
  auto expected_byte = [&](size_t offset) {
    uint64_t pattern = offset < filled_end ? last_fill_ : kRedPattern;
    return static_cast<unsigned char>(pattern >> (8 * (offset % 8)));
  };
  std::vector<unsigned char> before(kRedZone), after(kRedZone + padded_ - bytes_);
  check(arena_dev_d2h(before.data(), raw_.get(), kRedZone), "reading a red zone");
  check(arena_dev_d2h(after.data(), static_cast<char*>(data()) + bytes_, after.size()), "reading a red zone");
  // Search backwards in the leading zone, so the reported write is the one nearest the data.
  for (size_t i = kRedZone; i-- > 0;)
    if (before[i] != static_cast<unsigned char>(kRedPattern >> (8 * (i % 8))))
      return name + ": out-of-bounds write " + std::to_string(kRedZone - i) + " byte(s) before its start";
  for (size_t i = 0; i < after.size(); ++i)
    if (after[i] != expected_byte(bytes_ + i))
      return name + ": out-of-bounds write at byte " + std::to_string(bytes_ + i) + " of a " +
             std::to_string(bytes_) + "-byte tensor (" + std::to_string(i + 1) + " byte(s) past its end)";
  return "";
}

}  // namespace arena

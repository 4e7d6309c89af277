#include "gpu_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace arena {

namespace {

int open_lock_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error("cannot open the GPU lock file " + path.string() + ": " + std::strerror(errno));
  return fd;
}

// Blocks until held: a holder either finishes its device work or ends (CTest's timeout at most).
void lock_file(int fd, int operation, const std::filesystem::path& path) {
  while (::flock(fd, operation) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd);
    throw std::runtime_error("cannot lock the GPU lock file " + path.string() + ": " + std::strerror(err));
  }
}

}  // namespace

GpuLock::GpuLock(const std::filesystem::path& dir, int device, Mode mode) {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create the GPU lock folder " + dir.string() + ": " + ec.message());
  const auto t0 = std::chrono::steady_clock::now();
  const std::string stem = "gpu" + std::to_string(device);
  const auto turn_path = dir / (stem + ".turn"), device_path = dir / (stem + ".device");
  const int turn = open_lock_file(turn_path);
  lock_file(turn, LOCK_EX, turn_path);
  try {
    device_fd_ = open_lock_file(device_path);
  } catch (...) {
    ::close(turn);
    throw;
  }
  try {
    lock_file(device_fd_, mode == Mode::Timing ? LOCK_EX : LOCK_SH, device_path);
  } catch (...) {
    device_fd_ = -1;  // closed by lock_file
    ::close(turn);
    throw;
  }
  if (mode == Mode::Timing) turn_fd_ = turn;  // no new device work until timing is over
  else ::close(turn);
  waited_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void GpuLock::release() {
  if (device_fd_ >= 0) ::close(device_fd_);  // closing the only descriptor releases the lock
  if (turn_fd_ >= 0) ::close(turn_fd_);
  device_fd_ = turn_fd_ = -1;
}

GpuLock::~GpuLock() { release(); }

GpuLock::GpuLock(GpuLock&& o) noexcept : device_fd_(o.device_fd_), turn_fd_(o.turn_fd_), waited_s_(o.waited_s_) {
  o.device_fd_ = o.turn_fd_ = -1;
}

GpuLock& GpuLock::operator=(GpuLock&& o) noexcept {
  if (this != &o) {
    release();
    device_fd_ = o.device_fd_;
    turn_fd_ = o.turn_fd_;
    waited_s_ = o.waited_s_;
    o.device_fd_ = o.turn_fd_ = -1;
  }
  return *this;
}

std::filesystem::path GpuLock::dir_from_environment() {
  const char* d = std::getenv("ARENA_GPU_LOCK_DIR");
  return d ? std::filesystem::path(d) : std::filesystem::path();
}

}  // namespace arena

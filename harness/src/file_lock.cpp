#include "file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

namespace arena {

FileLock::FileLock(const std::filesystem::path& path, double timeout_s) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const auto t0 = std::chrono::steady_clock::now();
  auto pause = std::chrono::milliseconds(2);
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) break;
    const int err = errno;
    const bool busy = err == EWOULDBLOCK || err == EINTR;
    waited_ = waited_ || busy;
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!busy || waited >= timeout_s) {
      waited_s_ = waited;
      timed_out_ = busy;
      ::close(fd);
      return;
    }
    // Polled, not blocking: a blocking flock cannot time out. Short at first (an entry being
    // written is a rename away), then every 50 ms.
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  waited_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fd_ = fd;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the lock
}

FileLock::FileLock(FileLock&& o) noexcept
    : fd_(o.fd_), timed_out_(o.timed_out_), waited_(o.waited_), waited_s_(o.waited_s_) {
  o.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    timed_out_ = o.timed_out_;
    waited_ = o.waited_;
    waited_s_ = o.waited_s_;
    o.fd_ = -1;
  }
  return *this;
}

}  // namespace arena

// An exclusive lock on a file (flock) shared by processes and by threads of one process (each
// holder opens the file itself), for the oracle cache's one computation per entry
// (docs/DESIGN.md, "Correctness"). The kernel releases it when its holder ends, however it ends,
// so a crashed holder never blocks the others; the lock file itself stays (removing it would let
// two holders lock two different files of one name).
#pragma once
#include <filesystem>

namespace arena {

class FileLock {
 public:
  FileLock() = default;
  // Waits up to `timeout_s` for the lock on `path` (created when missing). Not held afterwards
  // (held() false) when it timed out or the file cannot be opened: the caller goes on unlocked.
  FileLock(const std::filesystem::path& path, double timeout_s);
  ~FileLock();
  FileLock(FileLock&& o) noexcept;
  FileLock& operator=(FileLock&& o) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_ >= 0; }
  bool timed_out() const { return timed_out_; }
  bool waited() const { return waited_; }         // another holder had it at first
  double waited_s() const { return waited_s_; }  // time spent waiting for it

 private:
  int fd_ = -1;
  bool timed_out_ = false, waited_ = false;
  double waited_s_ = 0;
};

}  // namespace arena

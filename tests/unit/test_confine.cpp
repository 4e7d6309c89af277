// Self-confinement (harness/src/confine.h), tried in a child process: it reads only what the
// plan grants and the system's folders, writes only where granted, and cannot reach the
// network, other processes or new programs. Skipped, saying why, where the kernel offers no
// Landlock.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "confine.h"

using namespace arena;
namespace fs = std::filesystem;

namespace {

struct Folders {
  fs::path root, granted, writable, hidden;
  Folders() {
    char templ[] = "/tmp/arena-confine-XXXXXX";
    root = ::mkdtemp(templ);
    granted = root / "granted", writable = root / "writable", hidden = root / "hidden";
    for (const auto& d : {granted, writable, hidden}) fs::create_directories(d);
    std::ofstream(granted / "a.txt") << "a";
    std::ofstream(hidden / "solution.hip") << "s";
  }
  ~Folders() { fs::remove_all(root); }
};

bool can_open(const fs::path& p, int flags) {
  int fd = ::open(p.c_str(), flags | O_CLOEXEC, 0644);
  if (fd >= 0) ::close(fd);
  return fd >= 0;
}

}  // namespace

TEST(Confine, ProtectedFoldersLeaveTheSystemsFolders) {
  auto folders = readable_system_folders({"/usr/share"});
  EXPECT_EQ(std::count(folders.begin(), folders.end(), "/usr"), 0);
  EXPECT_EQ(std::count(folders.begin(), folders.end(), "/usr/share"), 0);
  if (fs::exists("/usr/lib")) EXPECT_EQ(std::count(folders.begin(), folders.end(), "/usr/lib"), 1);
  EXPECT_EQ(std::count(folders.begin(), folders.end(), "/etc"), fs::exists("/etc") ? 1 : 0);
}

TEST(Confine, AConfinedProcessReadsWritesAndStartsOnlyWhatItMay) {
  Folders f;
  int pipefd[2];
  ASSERT_EQ(::pipe(pipefd), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ConfinementPlan plan;
    plan.read = {f.granted.string()};
    plan.write = {f.writable.string()};
    plan.protect = {f.hidden.string()};
    ConfinementReport r = confine_self(plan);
    std::string line = r.landlock + "\n" + r.seccomp + "\n";
    // One letter per check: 1 where the confined process could do it.
    line += can_open(f.granted / "a.txt", O_RDONLY) ? '1' : '0';
    line += can_open(f.hidden / "solution.hip", O_RDONLY) ? '1' : '0';
    line += can_open(f.writable / "new.txt", O_WRONLY | O_CREAT) ? '1' : '0';
    line += can_open(f.granted / "new.txt", O_WRONLY | O_CREAT) ? '1' : '0';
    line += can_open("/etc/hostname", O_RDONLY) || !fs::exists("/etc/hostname") ? '1' : '0';
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    line += s >= 0 ? '1' : '0';
    line += ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? '1' : '0';
    pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    line += child > 0 ? '1' : '0';
    if (::write(pipefd[1], line.data(), line.size()) < 0) ::_exit(2);
    ::_exit(0);
  }
  ::close(pipefd[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) > 0;) out.append(buf, n);
  ::close(pipefd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const auto nl1 = out.find('\n'), nl2 = out.find('\n', nl1 + 1);
  ASSERT_NE(nl2, std::string::npos) << out;
  const std::string landlock = out.substr(0, nl1), seccomp = out.substr(nl1 + 1, nl2 - nl1 - 1), got = out.substr(nl2 + 1);
  if (landlock.rfind("enforced", 0) != 0) GTEST_SKIP() << "Landlock: " << landlock;
  ASSERT_EQ(got.size(), 8u) << out;
  EXPECT_EQ(got[0], '1') << "a granted file could not be read";
  EXPECT_EQ(got[1], '0') << "a protected file was read";
  EXPECT_EQ(got[2], '1') << "the writable folder could not be written";
  EXPECT_EQ(got[3], '0') << "a read-only folder was written";
  EXPECT_EQ(got[4], '1') << "the system's configuration could not be read";
  if (seccomp.rfind("enforced", 0) == 0) {
    EXPECT_EQ(got[5], '0') << "a network socket was opened";
    EXPECT_EQ(got[6], '0') << "ptrace was allowed";
    EXPECT_EQ(got[7], '0') << "a new process was started";
  }
}

#include "worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace arena {

namespace {

constexpr size_t kTailLines = 40;
constexpr size_t kForwardLimit = 256 * 1024;  // bytes of worker output copied into the gate's output

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "ended (wait status " + std::to_string(status) + ")";
}

std::string neutralize_markup(std::string line) {
  for (char& c : line) {
    if (c == '<') c = '[';
    else if (c == '>') c = ']';
  }
  return line;
}

WorkerProcess::WorkerProcess(const WorkerLaunch& launch, std::string name, double start_timeout_s)
    : name_(std::move(name)) {
  if (launch.argv.empty()) throw WorkerError(WorkerError::Failed, name_ + ": no program to start");
  int sv[2], out[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    throw WorkerError(WorkerError::Failed, name_ + ": cannot create its channels: " + std::strerror(errno));
  // Everything the child needs is built before fork: after it only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : launch.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (const auto& a : launch.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const char* cwd = launch.cwd.empty() ? "/" : launch.cwd.c_str();

  pid_t pid = ::fork();
  if (pid < 0) throw WorkerError(WorkerError::Failed, name_ + ": cannot start: " + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group: killing the group ends its children too
    ::dup2(sv[1], 3);
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::syscall(SYS_close_range, 4u, ~0u, 0u);
    if (::chdir(cwd) != 0) ::_exit(126);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  pid_ = pgid_ = pid;
  ::setpgid(pid, pid);
  ::close(sv[1]);
  ::close(out[1]);
  sock_ = sv[0];
  out_ = out[0];
  reader_ = std::thread([this] { forward_output(); });
  try {
    WireMessage m = read_message(sock_, start_timeout_s);
    if (!m.head.value("hello", false)) throw WireError("it did not greet as a worker");
    hello_ = m.head;
  } catch (const WireTimeout&) {
    const std::string how = kill_now();
    throw WorkerError(WorkerError::TimedOut, name_ + " did not start within " + std::to_string(int(start_timeout_s)) +
                                                 " s (it " + how + ")" + output_tail());
  } catch (const WireError& e) {
    died(std::string("while starting (") + e.what() + ")");
  }
}

WorkerProcess::~WorkerProcess() {
  stop();
  if (reader_.joinable()) reader_.join();
  if (out_ >= 0) ::close(out_);
}

void WorkerProcess::forward_output() {
  std::string pending;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(out_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      std::string line = neutralize_markup(pending.substr(0, nl));
      pending.erase(0, nl + 1);
      std::lock_guard<std::mutex> lock(mutex_);
      tail_.push_back(line);
      if (tail_.size() > kTailLines) tail_.erase(tail_.begin());
      if (forwarded_ < kForwardLimit) {
        forwarded_ += line.size();
        std::fprintf(stderr, "  [%s] %s\n", name_.c_str(), line.c_str());
        if (forwarded_ >= kForwardLimit) std::fprintf(stderr, "  [%s] (further output not shown)\n", name_.c_str());
      }
    }
  }
  if (!pending.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    tail_.push_back(neutralize_markup(pending));
  }
}

std::string WorkerProcess::output_tail() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tail_.empty()) return "";
  std::string s = "; its last output:";
  const size_t from = tail_.size() > 8 ? tail_.size() - 8 : 0;
  for (size_t i = from; i < tail_.size(); ++i) s += "\n    " + tail_[i];
  return s;
}

std::string WorkerProcess::reap(bool wait) {
  if (pid_ <= 0) return "had already ended";
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, wait ? 0 : WNOHANG);
  if (r == 0) return "";
  pid_ = -1;
  if (r < 0) return "ended";
  if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
  return describe_wait_status(status);
}

std::string WorkerProcess::kill_now() {
  if (pgid_ > 0) ::kill(-pgid_, SIGKILL);  // children it started (a compiler, say) too
  if (pid_ <= 0) return "had already ended";
  ::kill(pid_, SIGKILL);
  std::string how = reap(true);
  if (sock_ >= 0) ::close(sock_), sock_ = -1;
  return how;
}

void WorkerProcess::died(const std::string& while_doing) {
  // Give it a moment to finish dying, so its status is known.
  std::string how;
  for (int i = 0; i < 50 && (how = reap(false)).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (how.empty()) how = kill_now() + " after breaking the protocol";
  if (pgid_ > 0) ::kill(-pgid_, SIGKILL);
  if (sock_ >= 0) ::close(sock_), sock_ = -1;
  if (reader_.joinable()) reader_.join();
  throw WorkerError(WorkerError::Died, name_ + " " + how + " " + while_doing + output_tail(), exit_code_);
}

WireMessage WorkerProcess::call(const WireMessage& request, double timeout_s) { return call(request, timeout_s, nullptr); }

WireMessage WorkerProcess::call(const WireMessage& request, double timeout_s, const PauseHandler& on_pause) {
  const std::string op = request.head.value("op", "?");
  if (pid_ <= 0 || sock_ < 0) throw WorkerError(WorkerError::Died, name_ + " is no longer running (asked to " + op + ")");
  try {
    write_message(sock_, request);
  } catch (const WireError& e) {
    died("before it could be asked to " + op);
  }
  WireMessage answer;
  for (;;) {
    try {
      answer = read_message(sock_, timeout_s);
    } catch (const WireTimeout&) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.0f", timeout_s);
      const std::string how = kill_now();
      throw WorkerError(WorkerError::TimedOut, name_ + " did not finish '" + op + "' within " + buf +
                                                   " s and was stopped (it " + how + ")" + output_tail());
    } catch (const WireError& e) {
      died("while asked to " + op + " (" + e.what() + ")");
    }
    if (!answer.head.contains("pause")) break;
    if (!on_pause) died("while asked to " + op + " (it paused, which '" + op + "' never does)");
    nlohmann::json reply;
    try {
      reply = on_pause(answer.head);
    } catch (const std::exception& e) {
      kill_now();
      throw WorkerError(WorkerError::Failed, name_ + " was stopped during '" + op + "': " + e.what());
    }
    try {
      write_message(sock_, WireMessage{reply, {}});
    } catch (const WireError&) {
      died("while paused during " + op);
    }
  }
  if (!answer.head.value("ok", false))
    throw WorkerError(WorkerError::Failed, answer.head.value("error", name_ + " refused '" + op + "' without saying why"));
  return answer;
}

void WorkerProcess::ask_to_exit() {
  if (asked_to_exit_ || pid_ <= 0 || sock_ < 0) return;
  asked_to_exit_ = true;
  try {
    write_message(sock_, WireMessage{{{"op", "exit"}}, {}});
  } catch (const WireError&) {
  }
}

void WorkerProcess::stop() {
  if (pid_ > 0 && sock_ >= 0) {
    ask_to_exit();
    for (int i = 0; i < 100 && reap(false).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (pid_ > 0) kill_now();
  if (sock_ >= 0) ::close(sock_), sock_ = -1;
}

}  // namespace arena

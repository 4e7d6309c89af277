// The judge's side of a worker process: started with an exact argv, environment and folder,
// talked to over a socket (wire.h), its printed output forwarded with markup neutralized (a
// worker must not be able to print CTest measurements into the gate's output), and killed with
// its whole process group when it hangs. Whatever a worker does, the judge learns it as a
// WorkerError that names the worker and what happened; it never ends the judge.
#pragma once
#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "wire.h"

namespace arena {

struct WorkerLaunch {
  std::vector<std::string> argv;           // argv[0]: the program, an absolute path
  std::map<std::string, std::string> env;  // the worker's whole environment
  std::string cwd;                         // its working folder
};

struct WorkerError : std::runtime_error {
  enum Kind { Died, TimedOut, Failed } kind;
  int exit_code = -1;  // Died: the status it exited with (77: it cannot run here, a skip)
  WorkerError(Kind k, const std::string& what, int code = -1) : std::runtime_error(what), kind(k), exit_code(code) {}
};

class WorkerProcess {
 public:
  // Starts the worker and waits for its hello (a message with "hello": true).
  WorkerProcess(const WorkerLaunch& launch, std::string name, double start_timeout_s);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends a request and returns the answer. An answer with "ok": false becomes
  // WorkerError(Failed, its "error"). Throws WorkerError(Died) when the worker exited or broke
  // the protocol, WorkerError(TimedOut) when it did not answer within timeout_s (it is killed).
  WireMessage call(const WireMessage& request, double timeout_s);
  WireMessage call(const nlohmann::json& head, double timeout_s) { return call(WireMessage{head, {}}, timeout_s); }
  // The same for a request the worker may stop part-way through, to let the judge act while
  // it waits (a round's kept sample, kept_capture.h): each message with "pause" before the
  // answer goes to `on_pause`, whose reply is sent back, and timeout_s starts again. A pause
  // without a handler breaks the protocol (Died); a handler that throws kills the worker
  // (it would wait for ever) and becomes WorkerError(Failed, its message).
  using PauseHandler = std::function<nlohmann::json(const nlohmann::json& pause)>;
  WireMessage call(const WireMessage& request, double timeout_s, const PauseHandler& on_pause);

  const nlohmann::json& hello() const { return hello_; }
  const std::string& name() const { return name_; }
  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }
  // The last lines the worker printed, for error messages.
  std::string output_tail() const;
  // Asks the worker to exit and returns at once (a worker's exit is mostly tearing down its GPU
  // context: several workers asked together tear down in parallel).
  void ask_to_exit();
  // Asks the worker to exit (unless asked already), waits up to a second, then kills what is
  // left of its process group.
  void stop();
  // Kills it now (a hang or a broken protocol); returns how it ended.
  std::string kill_now();

 private:
  std::string reap(bool wait);  // how the process ended ("" while it runs and !wait)
  [[noreturn]] void died(const std::string& while_doing);
  void forward_output();

  bool asked_to_exit_ = false;
  std::string name_;
  pid_t pid_ = -1, pgid_ = -1;  // the worker and its process group
  int exit_code_ = -1;          // once it exited normally
  int sock_ = -1, out_ = -1;
  nlohmann::json hello_;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::vector<std::string> tail_;
  size_t forwarded_ = 0;
};

// "exited with status 3", "was killed by signal 11 (Segmentation fault)".
std::string describe_wait_status(int status);

// Text a worker printed, made safe to copy into a gate's output: CTest reads markup such as
// <CTestMeasurement> from test output, so '<' and '>' are replaced.
std::string neutralize_markup(std::string line);

}  // namespace arena

// The workspace's check log (docs/DESIGN.md, "Agent trajectories"). check.sh and profile.sh,
// which the agent runs inside its workspace, write one line per call into a pipe there
// (.check/log.fifo); arena-run-agent, outside the sandbox, reads it and appends one JSON line
// per call to <log dir>/checks.jsonl, a folder the sandbox does not expose. What the runner
// records it sees itself: the time it received the line, the candidate's bytes then (a copy
// under <log dir>/checks/ whenever they changed) and the self-check's result files. The line's
// own fields (script, exit status, stage reached) are the script's word, checked for type only.
#pragma once
#include <chrono>
#include <string>

namespace arena {

class CheckLog {
 public:
  // Creates the pipe at fifo (replacing whatever is there) and opens it without blocking.
  // An empty fifo makes a log that records nothing.
  CheckLog(std::string fifo, std::string workdir, std::string candidate, std::string log_dir);
  ~CheckLog();
  void poll();    // reads what is waiting and records every complete line
  void finish();  // reads the rest, notes a pipe the agent removed, closes it
  int calls() const { return calls_; }

 private:
  void record(const std::string& line);
  std::string fifo_, workdir_, candidate_, log_dir_, pending_, last_hash_, last_copy_;
  int fd_ = -1, calls_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace arena

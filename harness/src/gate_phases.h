// Where a gate's wall time goes (the result's "phases", docs/DESIGN.md "Correctness"): named
// seconds, added from any thread. Phases of the gate's main thread add up to at most its wall
// time; those ending in "_thread_s" are summed over the threads that prepare trials at once, so
// they may exceed it.
#pragma once
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace arena {

class GatePhases {
 public:
  void add(const std::string& name, double seconds);
  double get(const std::string& name) const;  // 0 when never added
  std::map<std::string, double> all() const;
  // One line for the gate's output: "phases: a 1.20 s, b 0.03 s, ..." in `order`, then the rest.
  std::string line(const std::vector<std::string>& order = {}) const;

  // Adds the time from its construction to its end to `name`.
  class Timer {
   public:
    Timer(GatePhases& p, std::string name)
        : p_(p), name_(std::move(name)), t0_(std::chrono::steady_clock::now()) {}
    ~Timer() { p_.add(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count()); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

   private:
    GatePhases& p_;
    std::string name_;
    std::chrono::steady_clock::time_point t0_;
  };

 private:
  mutable std::mutex m_;
  std::map<std::string, double> seconds_;
};

// Seconds since this process was started (exec), from /proc/self/stat and the boot clock;
// negative where they cannot be read. Includes what ran before main: loading, static init.
double seconds_since_process_start();

}  // namespace arena

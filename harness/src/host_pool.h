// The judge's host parallelism (docs/DESIGN.md, "Scheduling"): a gate uses its share of the
// machine's cores, not all of them. Several gates share a host (ARENA_PERF_SLOTS per GPU), so
// ARENA_HOST_THREADS, set per gate by cmake/ArenaTasks.cmake, caps the threads one gate puts
// to host work; without it a gate uses the machine's cores (at most 32).
// The threads are started once per process and kept: parallel_for is called for every
// tensor's drawing, conversion and comparison, and starting threads per call costs more than
// small calls do.
#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace arena {

// The host threads a gate may use: `setting` (ARENA_HOST_THREADS' value; null or empty: not
// set) or else min(hardware, 32). Throws naming the variable when the value is not a whole
// number from 1 to 4096.
int host_threads_from(const char* setting, unsigned hardware);
// This process's: from the environment, read once.
int host_threads();

// A fixed set of threads that run parallel_for's parts; the calling thread runs parts too, so
// `threads` is the parallelism of one call (threads - 1 are started). Calls from several
// threads at once share the threads.
class HostPool {
 public:
  explicit HostPool(int threads);
  ~HostPool();
  HostPool(const HostPool&) = delete;
  HostPool& operator=(const HostPool&) = delete;

  int threads() const { return threads_; }
  // f(begin, end) over [0, n) in at most threads() parts; an exception of a part is rethrown here.
  void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& f);

 private:
  struct Job;
  void work();
  bool run_part(Job& job);

  int threads_;
  std::mutex m_;
  std::condition_variable wake_;
  std::vector<std::shared_ptr<Job>> jobs_;  // jobs with parts not yet taken
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// The process's pool, host_threads() wide, started on first use.
HostPool& host_pool();

// Runs f(begin, end) over [0, n) on the process's pool; ranges shorter than `min_serial` run
// on the calling thread.
void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& f, int64_t min_serial = 1 << 16);

// At most `limit` holders at once: bounds the trials a correctness gate prepares (inputs and
// the host oracle) concurrently to its host threads. A freed slot goes to the waiter of lowest
// `order` (the configuration the gate checks next before the one it prepares ahead).
class HostSlots {
 public:
  explicit HostSlots(int limit) : free_(std::max(1, limit)) {}
  class Held {
   public:
    Held(HostSlots& s, uint64_t order);
    ~Held();
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;

   private:
    HostSlots& s_;
  };

 private:
  std::mutex m_;
  std::condition_variable freed_;
  int free_;
  std::multiset<uint64_t> waiting_;
};

}  // namespace arena

#include "host_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <stdexcept>

namespace arena {

int host_threads_from(const char* setting, unsigned hardware) {
  if (!setting || !*setting) return static_cast<int>(std::clamp(hardware, 1u, 32u));
  const std::string v = setting;
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (end != v.c_str() + v.size() || n < 1 || n > 4096)
    throw std::invalid_argument("ARENA_HOST_THREADS is '" + v +
                                "': must be a whole number of host threads from 1 to 4096 (this gate's share of the cores)");
  return static_cast<int>(n);
}

int host_threads() {
  static const int n = host_threads_from(std::getenv("ARENA_HOST_THREADS"), std::thread::hardware_concurrency());
  return n;
}

struct HostPool::Job {
  const std::function<void(int64_t, int64_t)>* f;
  int64_t n = 0, chunk = 1, parts = 0;
  std::atomic<int64_t> next{0};  // the next part to take
  std::mutex m;
  std::condition_variable finished;
  int64_t done = 0;  // parts finished (under m)
  std::exception_ptr error;
};

HostPool::HostPool(int threads) : threads_(std::max(1, threads)) {
  for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { work(); });
}

HostPool::~HostPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

// Takes and runs one part of `job`; false when none was left.
bool HostPool::run_part(Job& job) {
  const int64_t p = job.next.fetch_add(1);
  if (p >= job.parts) return false;
  const int64_t b = p * job.chunk, e = std::min(job.n, b + job.chunk);
  std::exception_ptr error;
  try {
    (*job.f)(b, e);
  } catch (...) {
    error = std::current_exception();
  }
  std::lock_guard<std::mutex> lock(job.m);
  if (error && !job.error) job.error = error;
  if (++job.done == job.parts) job.finished.notify_all();
  return true;
}

void HostPool::work() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = jobs_.front();
      // Every part taken: the job leaves the queue (its caller waits for the running ones).
      if (job->next.load() >= job->parts) {
        jobs_.erase(jobs_.begin());
        continue;
      }
    }
    run_part(*job);
  }
}

void HostPool::parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& f) {
  if (n <= 0) return;
  if (threads_ == 1) {
    f(0, n);
    return;
  }
  auto job = std::make_shared<Job>();
  job->f = &f;
  job->n = n;
  job->chunk = (n + threads_ - 1) / threads_;
  job->parts = (n + job->chunk - 1) / job->chunk;
  {
    std::lock_guard<std::mutex> lock(m_);
    jobs_.push_back(job);
  }
  wake_.notify_all();
  while (run_part(*job)) {
  }
  {
    std::unique_lock<std::mutex> lock(job->m);
    job->finished.wait(lock, [&] { return job->done == job->parts; });
  }
  {
    std::lock_guard<std::mutex> lock(m_);
    auto it = std::find(jobs_.begin(), jobs_.end(), job);
    if (it != jobs_.end()) jobs_.erase(it);
  }
  if (job->error) std::rethrow_exception(job->error);
}

HostPool& host_pool() {
  static HostPool pool(host_threads());
  return pool;
}

void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& f, int64_t min_serial) {
  if (n < min_serial || host_threads() == 1) {
    if (n > 0) f(0, n);
    return;
  }
  host_pool().parallel_for(n, f);
}

HostSlots::Held::Held(HostSlots& s, uint64_t order) : s_(s) {
  std::unique_lock<std::mutex> lock(s_.m_);
  auto me = s_.waiting_.insert(order);
  s_.freed_.wait(lock, [&] { return s_.free_ > 0 && *s_.waiting_.begin() == order; });
  s_.waiting_.erase(me);
  --s_.free_;
  if (s_.free_ > 0) s_.freed_.notify_all();  // the next waiter may take another free slot
}

HostSlots::Held::~Held() {
  {
    std::lock_guard<std::mutex> lock(s_.m_);
    ++s_.free_;
  }
  s_.freed_.notify_all();  // every waiter checks whether it is now first
}

}  // namespace arena

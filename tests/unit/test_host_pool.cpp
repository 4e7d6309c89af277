#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "host_pool.h"

using namespace arena;

TEST(HostPool, ThreadsComeFromTheSettingElseTheMachineCappedAt32) {
  EXPECT_EQ(host_threads_from("3", 64), 3);
  EXPECT_EQ(host_threads_from(nullptr, 64), 32);
  EXPECT_EQ(host_threads_from("", 8), 8);
  EXPECT_EQ(host_threads_from(nullptr, 0), 1);  // hardware unknown
  for (const char* bad : {"0", "-2", "four", "3x", "5000"}) {
    try {
      host_threads_from(bad, 64);
      ADD_FAILURE() << "accepted ARENA_HOST_THREADS=" << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("ARENA_HOST_THREADS is '" + std::string(bad) + "'"), std::string::npos)
          << e.what();
    }
  }
}

TEST(HostPool, CoversEveryIndexOnceInAtMostItsThreadCount) {
  HostPool pool(4);
  for (int64_t n : {1, 3, 4, 5, 1000, 100003}) {
    std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
    std::mutex m;
    int calls = 0;
    pool.parallel_for(n, [&](int64_t b, int64_t e) {
      {
        std::lock_guard<std::mutex> lock(m);
        ++calls;
      }
      for (int64_t i = b; i < e; ++i) seen[i]++;
    });
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << "n " << n << ", index " << i;
    EXPECT_LE(calls, 4) << "n " << n;
  }
}

// The threads are started once: many calls run on the same few threads (the caller's and
// threads() - 1 others), never one new thread per call.
TEST(HostPool, ManyCallsRunOnTheSameThreads) {
  HostPool pool(3);
  std::mutex m;
  std::set<std::thread::id> ids;
  for (int call = 0; call < 200; ++call)
    pool.parallel_for(3, [&](int64_t, int64_t) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));  // lets the other threads take parts
      std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    });
  EXPECT_LE(ids.size(), 3u);
  EXPECT_GE(ids.size(), 2u) << "the pool's threads never took a part";
}

TEST(HostPool, CallsFromSeveralThreadsAtOnceAllFinish) {
  HostPool pool(3);
  std::vector<int64_t> sums(6, 0);
  std::vector<std::thread> callers;
  for (int c = 0; c < 6; ++c)
    callers.emplace_back([&, c] {
      for (int rep = 0; rep < 50; ++rep) {
        std::vector<int64_t> part(1000, 0);
        pool.parallel_for(1000, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) part[i] = i;
        });
        sums[c] += std::accumulate(part.begin(), part.end(), int64_t{0});
      }
    });
  for (auto& t : callers) t.join();
  for (int64_t s : sums) EXPECT_EQ(s, 50 * (999 * 1000 / 2));
}

TEST(HostPool, APartsExceptionReachesTheCaller) {
  HostPool pool(4);
  EXPECT_THROW(pool.parallel_for(100, [](int64_t b, int64_t) {
    if (b > 0) throw std::runtime_error("part failed");
  }), std::runtime_error);
  int64_t covered = 0;  // the pool still works afterwards
  std::mutex m;
  pool.parallel_for(100, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(m);
    covered += e - b;
  });
  EXPECT_EQ(covered, 100);
}

TEST(HostPool, OneThreadRunsOnTheCaller) {
  HostPool pool(1);
  std::thread::id where;
  pool.parallel_for(10, [&](int64_t b, int64_t e) {
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 10);
    where = std::this_thread::get_id();
  });
  EXPECT_EQ(where, std::this_thread::get_id());
}

TEST(HostPool, SlotsBoundTheHoldersAtOnce) {
  HostSlots slots(2);
  std::atomic<int> now{0}, most{0};
  std::vector<std::thread> ts;
  for (int i = 0; i < 8; ++i)
    ts.emplace_back([&] {
      HostSlots::Held held(slots, 0);
      int n = ++now;
      int m = most.load();
      while (n > m && !most.compare_exchange_weak(m, n)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      --now;
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(most.load(), 2);
}

TEST(HostPool, AFreedSlotGoesToTheLowestOrderWaiting) {
  HostSlots slots(1);
  std::vector<int> got;
  std::mutex m;
  std::vector<std::thread> ts;
  {
    HostSlots::Held first(slots, 0);  // holds the one slot while the others line up
    for (int order : {5, 3, 9, 1})
      ts.emplace_back([&, order] {
        HostSlots::Held held(slots, static_cast<uint64_t>(order));
        std::lock_guard<std::mutex> lock(m);
        got.push_back(order);
      });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // all four are waiting
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(got, (std::vector<int>{1, 3, 5, 9}));
}

// The GPU lock of the shared schedule (harness/src/gpu_lock.h): device work shares a GPU, timing
// has it alone, a waiting timer is not starved by device work that keeps arriving, and a holder
// that ends releases it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "gpu_lock.h"

namespace fs = std::filesystem;
using arena::GpuLock;
using Clock = std::chrono::steady_clock;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("arena_gpu_lock_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

TEST(GpuLock, WithoutAFolderItHoldsNothing) {
  GpuLock none({}, 0, GpuLock::Mode::Timing);
  EXPECT_FALSE(none.held());
  GpuLock also_none({}, 0, GpuLock::Mode::Timing);  // and so never waits
  EXPECT_EQ(also_none.waited_s(), 0);
}

TEST(GpuLock, DeviceWorkOfSeveralGatesSharesTheGpu) {
  TempDir tmp;
  GpuLock a(tmp.path, 0, GpuLock::Mode::DeviceWork);
  const auto t0 = Clock::now();
  GpuLock b(tmp.path, 0, GpuLock::Mode::DeviceWork);
  EXPECT_TRUE(a.held());
  EXPECT_TRUE(b.held());
  EXPECT_LT(since(t0), 0.05);
}

TEST(GpuLock, TimingWaitsUntilDeviceWorkEnds) {
  TempDir tmp;
  auto work = std::make_unique<GpuLock>(tmp.path, 0, GpuLock::Mode::DeviceWork);
  std::thread release([&] {
    sleep_ms(150);
    work.reset();
  });
  GpuLock timing(tmp.path, 0, GpuLock::Mode::Timing);
  release.join();
  EXPECT_TRUE(timing.held());
  EXPECT_GT(timing.waited_s(), 0.1);
}

TEST(GpuLock, DeviceWorkWaitsWhileAGateTimes) {
  TempDir tmp;
  auto timing = std::make_unique<GpuLock>(tmp.path, 0, GpuLock::Mode::Timing);
  std::thread release([&] {
    sleep_ms(150);
    timing.reset();
  });
  GpuLock work(tmp.path, 0, GpuLock::Mode::DeviceWork);
  release.join();
  EXPECT_TRUE(work.held());
  EXPECT_GT(work.waited_s(), 0.1);
}

// Device work that arrives while a timer waits queues behind the timer: without the turnstile
// it would join the work already there, and a busy GPU would never be free to time on.
TEST(GpuLock, AWaitingTimerGoesBeforeDeviceWorkThatArrivesLater) {
  TempDir tmp;
  auto first = std::make_unique<GpuLock>(tmp.path, 0, GpuLock::Mode::DeviceWork);
  const auto t0 = Clock::now();
  std::atomic<double> timed_from{-1}, timed_until{-1}, later_from{-1};
  std::thread timer([&] {
    GpuLock t(tmp.path, 0, GpuLock::Mode::Timing);
    timed_from = since(t0);
    sleep_ms(100);
    timed_until = since(t0);
  });
  sleep_ms(50);  // the timer now waits for the first device work
  std::thread later([&] {
    GpuLock w(tmp.path, 0, GpuLock::Mode::DeviceWork);
    later_from = since(t0);
  });
  sleep_ms(100);
  EXPECT_LT(later_from.load(), 0) << "device work that came after the timer started while the timer waited";
  first.reset();
  timer.join();
  later.join();
  EXPECT_GT(timed_from.load(), 0.1);
  EXPECT_GE(later_from.load(), timed_until.load());
}

TEST(GpuLock, EachGpuHasItsOwnLock) {
  TempDir tmp;
  GpuLock timing(tmp.path, 0, GpuLock::Mode::Timing);
  const auto t0 = Clock::now();
  GpuLock other(tmp.path, 1, GpuLock::Mode::DeviceWork);
  EXPECT_TRUE(other.held());
  EXPECT_LT(since(t0), 0.05);
}

// A gate that ends, however it ends, lets go: the kernel drops its flock with its last descriptor.
TEST(GpuLock, AHolderThatEndsLetsGo) {
  TempDir tmp;
  fs::create_directories(tmp.path);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GpuLock work(tmp.path, 0, GpuLock::Mode::DeviceWork);
    sleep_ms(200);
    ::_exit(0);  // no destructor runs
  }
  sleep_ms(50);
  GpuLock timing(tmp.path, 0, GpuLock::Mode::Timing);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(timing.held());
  EXPECT_GT(timing.waited_s(), 0.05);
}

TEST(GpuLock, AFolderThatCannotBeMadeIsNamed) {
  TempDir tmp;
  fs::create_directories(tmp.path);
  std::ofstream(tmp.path / "file") << "not a folder";
  try {
    GpuLock lock(tmp.path / "file" / "locks", 0, GpuLock::Mode::DeviceWork);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("file/locks"), std::string::npos) << e.what();
  }
}

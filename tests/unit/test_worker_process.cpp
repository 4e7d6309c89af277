// The judge's hold on a worker process (harness/src/worker_process.h): whatever the worker
// does (crash, hang, never greet, refuse, print markup, leave children behind), the judge
// learns it as an error that names the worker and goes on.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "worker_process.h"

using namespace arena;

namespace {

WorkerLaunch launch(const std::string& how) {
  WorkerLaunch l;
  l.argv = {ARENA_FAKE_WORKER, how};
  l.env = {{"PATH", "/usr/bin:/bin"}};
  l.cwd = "/";
  return l;
}

WorkerError call_error(WorkerProcess& w, double timeout_s = 5) {
  try {
    w.call(nlohmann::json{{"op", "launch"}}, timeout_s);
  } catch (const WorkerError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return WorkerError(WorkerError::Failed, "");
}

}  // namespace

TEST(WorkerProcess, AnswersComeBack) {
  WorkerProcess w(launch("good"), "fake worker", 10);
  WireMessage a = w.call(WireMessage{{{"op", "map"}}, {{1, 2}}}, 5);
  EXPECT_EQ(a.head["echo"], "map");
  EXPECT_EQ(a.blobs.size(), 1u);
  w.stop();
  EXPECT_FALSE(w.running());
}

TEST(WorkerProcess, ACrashIsAnErrorNamingTheSignal) {
  WorkerProcess w(launch("crash"), "candidate executor", 10);
  WorkerError e = call_error(w);
  EXPECT_EQ(e.kind, WorkerError::Died);
  EXPECT_NE(std::string(e.what()).find("candidate executor was killed by signal 11"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("asked to launch"), std::string::npos) << e.what();
}

TEST(WorkerProcess, AHangIsStoppedAfterTheTimeout) {
  WorkerProcess w(launch("hang"), "candidate executor", 10);
  auto t0 = std::chrono::steady_clock::now();
  WorkerError e = call_error(w, 0.5);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(e.kind, WorkerError::TimedOut);
  EXPECT_LT(waited, 5.0);
  EXPECT_FALSE(w.running());
  EXPECT_NE(std::string(e.what()).find("did not finish 'launch' within 0 s"), std::string::npos) << e.what();
}

TEST(WorkerProcess, AWorkerThatNeverGreetsIsReported) {
  try {
    WorkerProcess w(launch("no-hello"), "candidate recorder", 10);
    ADD_FAILURE() << "started";
  } catch (const WorkerError& e) {
    EXPECT_EQ(e.kind, WorkerError::Died);
    EXPECT_EQ(e.exit_code, 5);
    EXPECT_NE(std::string(e.what()).find("exited with status 5 while starting"), std::string::npos) << e.what();
  }
  try {
    WorkerProcess w(launch("skip"), "candidate recorder", 10);
    ADD_FAILURE() << "started";
  } catch (const WorkerError& e) {
    EXPECT_EQ(e.exit_code, 77);  // the gate turns this into a skip
    EXPECT_NE(std::string(e.what()).find("module that is missing"), std::string::npos) << e.what();
  }
}

TEST(WorkerProcess, RefusalsAndMarkup) {
  WorkerProcess r(launch("refuse"), "fake", 10);
  WorkerError e = call_error(r);
  EXPECT_EQ(e.kind, WorkerError::Failed);
  EXPECT_STREQ(e.what(), "nope");
  WorkerProcess m(launch("markup"), "fake", 10);
  m.call(nlohmann::json{{"op", "x"}}, 5);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::string tail = m.output_tail();
  EXPECT_EQ(tail.find("<CTestMeasurement"), std::string::npos) << tail;
  EXPECT_NE(tail.find("[CTestMeasurement"), std::string::npos) << tail;
  EXPECT_EQ(neutralize_markup("<a>b</a>"), "[a]b[/a]");
}

// Alive and not a zombie (a killed orphan may wait for a reaper that never comes).
bool running(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(WorkerProcess, ChildrenDieWithTheirWorker) {
  int child = -1;
  {
    WorkerProcess w(launch("orphan"), "fake", 10);
    call_error(w, 0.3);  // hangs; killed with its process group
    const std::string tail = w.output_tail();
    const auto at = tail.find("child ");
    ASSERT_NE(at, std::string::npos) << tail;
    child = std::stoi(tail.substr(at + 6));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(running(child)) << "a child of the worker survived it";
}

// A round's kept sample (kept_capture.h): the executor stops part-way and the judge acts.
TEST(WorkerProcess, APauseIsHandedToTheJudgeAndItsReplySentBack) {
  WorkerProcess w(launch("pause"), "candidate executor", 10);
  int pauses = 0;
  WireMessage a = w.call(WireMessage{{{"op", "round"}}, {}}, 5, [&](const nlohmann::json& p) {
    ++pauses;
    EXPECT_EQ(p.value("sample", -1), 3);
    return nlohmann::json{{"op", "resume"}, {"n", pauses}};
  });
  EXPECT_EQ(pauses, 1);
  EXPECT_EQ(a.head["echo"], "round");
  ASSERT_EQ(a.head["replies"].size(), 1u);
  EXPECT_EQ(a.head["replies"][0]["op"], "resume");
  EXPECT_TRUE(w.running());
}

TEST(WorkerProcess, APauseWithoutAHandlerBreaksTheProtocol) {
  WorkerProcess w(launch("pause"), "candidate executor", 10);
  WorkerError e = call_error(w);
  EXPECT_EQ(e.kind, WorkerError::Died);
  EXPECT_NE(std::string(e.what()).find("it paused, which 'launch' never does"), std::string::npos) << e.what();
  EXPECT_FALSE(w.running());
}

TEST(WorkerProcess, AHandlerThatThrowsStopsTheWorker) {
  WorkerProcess w(launch("pause"), "candidate executor", 10);
  try {
    w.call(WireMessage{{{"op", "round"}}, {}}, 5,
           [](const nlohmann::json&) -> nlohmann::json { throw std::runtime_error("the copy failed"); });
    ADD_FAILURE() << "no error";
  } catch (const WorkerError& e) {
    EXPECT_EQ(e.kind, WorkerError::Failed);
    EXPECT_NE(std::string(e.what()).find("candidate executor was stopped during 'round': the copy failed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(w.running());
}

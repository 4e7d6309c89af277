// The profiler report: Nsight Compute's raw CSV parsed, kernels summed per side, and the
// bottleneck class each side gets.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "profile_report.h"

using namespace arena;

namespace {

// The shape of `ncu --csv --page raw --print-units base` output: program output and
// ==PROF== lines around the table, a units row, quoted fields with commas inside.
std::string csv(const std::vector<std::string>& rows) {
  std::string s =
      "==PROF== Connected to process 4242\n"
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Block Size\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
      "\"dram__bytes_write.sum\",\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\","
      "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"sm__warps_active.avg.pct_of_peak_sustained_active\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\","
      "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\","
      "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\"\n"
      "\"\",\"\",\"\",\"\",\"ns\",\"byte\",\"byte\",\"%\",\"%\",\"%\",\"inst\",\"ratio\",\"ratio\"\n";
  for (const auto& r : rows) s += r + "\n";
  return s + "profiled one launch of kernel.so on seen[0]\n";
}

std::vector<KernelProfile> parse(const std::vector<std::string>& rows) { return parse_ncu_csv(csv(rows), "x.csv"); }

}  // namespace

TEST(ProfileReport, ParsesRowsAndSkipsWhatIsNotTable) {
  auto k = parse({"\"0\",\"4242\",\"gelu_kernel(float const*, float*, int)\",\"(256, 1, 1)\",\"62,100\",\"100000000\","
                  "\"100000000\",\"91.5\",\"20.0\",\"80.0\",\"1000\",\"3.5\",\"0.1\""});
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "gelu_kernel(float const*, float*, int)");
  EXPECT_DOUBLE_EQ(k[0].get("gpu__time_duration.sum"), 62100);  // grouped digits
  EXPECT_DOUBLE_EQ(k[0].get("dram__bytes_write.sum"), 1e8);
  EXPECT_DOUBLE_EQ(k[0].get("launch__registers_per_thread", -7), -7);  // absent metric
}

TEST(ProfileReport, MemoryBoundKernel) {
  SideProfile s = summarize("candidate", parse({"\"0\",\"1\",\"k\",\"(256, 1, 1)\",\"62100\",\"100000000\",\"100000000\","
                                                "\"91.5\",\"20.0\",\"80.0\",\"1000\",\"3.5\",\"0.1\""}));
  EXPECT_EQ(s.summary.bottleneck, "memory-bound");
  EXPECT_DOUBLE_EQ(s.summary.dram_bytes, 2e8);
  EXPECT_DOUBLE_EQ(s.summary.flops, 2000);  // FMA counts twice
  ASSERT_FALSE(s.top_stalls.empty());
  EXPECT_EQ(s.top_stalls[0].first, "long_scoreboard");
}

TEST(ProfileReport, ComputeBoundKernel) {
  SideProfile s = summarize("candidate", parse({"\"0\",\"1\",\"k\",\"(128, 1, 1)\",\"500000\",\"1000\",\"1000\","
                                                "\"30.0\",\"85.0\",\"60.0\",\"5e9\",\"0.5\",\"2.0\""}));
  EXPECT_EQ(s.summary.bottleneck, "compute-bound");
  EXPECT_EQ(s.top_stalls[0].first, "barrier");
}

TEST(ProfileReport, NeitherUnitBusyIsLatencyBound) {
  SideProfile s = summarize("baseline", parse({"\"0\",\"1\",\"k\",\"(32, 1, 1)\",\"90000\",\"1000\",\"1000\","
                                               "\"12.0\",\"9.0\",\"6.0\",\"10\",\"9.0\",\"0.0\""}));
  EXPECT_EQ(s.summary.bottleneck, "latency/occupancy-bound");
  EXPECT_NE(s.summary.why.find("occupancy 6"), std::string::npos) << s.summary.why;
}

TEST(ProfileReport, ShortWorkIsLaunchBound) {
  SideProfile s = summarize("baseline", parse({"\"0\",\"1\",\"k\",\"(32, 1, 1)\",\"3000\",\"10\",\"10\","
                                               "\"95.0\",\"9.0\",\"6.0\",\"10\",\"1.0\",\"0.0\""}));
  EXPECT_EQ(s.summary.bottleneck, "launch-bound");
}

TEST(ProfileReport, KernelsOfOneSideAreWeightedByTime) {
  // A long memory-bound kernel and a short idle one: the side stays memory-bound.
  SideProfile s = summarize("torch_eager", parse({
      "\"0\",\"1\",\"a\",\"(256, 1, 1)\",\"90000\",\"100\",\"100\",\"90.0\",\"10.0\",\"80.0\",\"0\",\"1.0\",\"0.0\"",
      "\"1\",\"1\",\"b\",\"(256, 1, 1)\",\"10000\",\"100\",\"100\",\"10.0\",\"10.0\",\"80.0\",\"0\",\"1.0\",\"0.0\""}));
  EXPECT_EQ(s.kernels.size(), 2u);
  EXPECT_DOUBLE_EQ(s.summary.duration_ns, 100000);
  EXPECT_NEAR(s.summary.mem_sol_pct, 82.0, 1e-9);
  EXPECT_EQ(s.summary.bottleneck, "memory-bound");
  const std::string text = format_profile("profile of t seen[0]", {s}, {"GPU", 3.35e12, 6.7e13});
  EXPECT_NE(text.find("bottleneck"), std::string::npos);
  EXPECT_NE(text.find("memory-bound"), std::string::npos);
  EXPECT_EQ(profile_result({s}, {}).sides.at("torch_eager").bottleneck, "memory-bound");
}

TEST(ProfileReport, OutputWithoutTableOrKernelsNamesTheFile) {
  try {
    parse_ncu_csv("==ERROR== the application returned an error\n", "cand.csv");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cand.csv"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("no Nsight Compute CSV table"), std::string::npos);
  }
  EXPECT_THROW(parse({}), std::runtime_error);  // header, no kernel rows
}

TEST(ProfileReport, MetricSetHoldsWhatTheReportReads) {
  const auto& m = profile_metrics();
  for (const char* need : {"gpu__time_duration.sum", "dram__bytes_read.sum", "launch__registers_per_thread",
                           "sm__throughput.avg.pct_of_peak_sustained_elapsed"})
    EXPECT_NE(std::find(m.begin(), m.end(), need), m.end()) << need;
}

// Output recorded by profile.sh's ncu command on an NVIDIA H100 (tests/data/ncu): the
// parser must keep reading what Nsight Compute really writes.
namespace {
std::string recorded(const std::string& name) {
  std::ifstream f(std::string(ARENA_TEST_DATA_DIR) + "/ncu/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST(ProfileReport, RecordedHipKernel) {
  auto k = parse_ncu_csv(recorded("h100_hip2hip_gelu_f16_solution.csv"), "gelu");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_NE(k[0].name.find("gelu_vec8"), std::string::npos) << k[0].name;
  for (const auto& m : profile_metrics()) EXPECT_GE(k[0].get(m), 0) << "missing from the recorded run: " << m;
  SideProfile s = summarize("candidate", k);
  EXPECT_NEAR(s.summary.duration_ns, 25280, 100);
  EXPECT_GT(s.summary.dram_bytes, 4e7);  // 16 Mi halves in and out, partly cached
  EXPECT_FALSE(s.summary.bottleneck.empty());
}

TEST(ProfileReport, RecordedTritonKernelThroughThePythonHost) {
  auto k = parse_ncu_csv(recorded("h100_triton2triton_gemm_f16_baseline.csv"), "gemm");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "gemm_kernel");
  SideProfile s = summarize("baseline", k);
  EXPECT_GT(s.summary.tensor_pipe_pct, 0);  // tl.dot runs on the tensor pipe
  EXPECT_EQ(s.summary.bottleneck, "memory-bound");
}

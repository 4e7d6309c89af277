#include <gtest/gtest.h>

#include "failure_lines.h"

using namespace arena::score;

TEST(FailureLines, CompilerErrorsFirstWithoutCMakeBoilerplate) {
  const std::string out =
      "/w/kernel.hip(6): error: expected an expression\n    return a +;\n\n"
      "1 error detected in the compilation of \"/w/kernel.hip\".\n\n"
      "CMake Error at /w/cmake/ArenaCompileKernel.cmake:42 (message):\n  x candidate: compilation failed\n"
      "Call Stack (most recent call first):\n";
  auto lines = failure_lines(out, 2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "/w/kernel.hip(6): error: expected an expression");
  EXPECT_EQ(lines[1], "1 error detected in the compilation of \"/w/kernel.hip\".");
}

TEST(FailureLines, FallsBackToTheLastLines) {
  auto lines = failure_lines("device 0: H200\n[ RUN      ] correct_seen.seen_0\n\n", 1);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "[ RUN ] correct_seen.seen_0");
  EXPECT_TRUE(failure_lines("", 3).empty());
  EXPECT_TRUE(failure_lines("SKIPPED: no GPU\n", 3).empty());
}

TEST(FailureLines, OneLineCollapsesAndCutsOnlyAtASpaceSayingSo) {
  EXPECT_EQ(one_line("  a\n  b\t\tc  "), "a b c");
  const std::string sentence = "module liger_kernel.ops.geglu is not installed for this Python";
  EXPECT_EQ(one_line(sentence, 30), "module liger_kernel.ops.geglu [... 33 more characters]");
  EXPECT_EQ(one_line(std::string(40, 'x'), 10), "xxxxxxxxxx [... 30 more characters]");
  const std::string path_message = "/home/newcomer/src/kernel-arena-first-run/KernelArena/tasks/triton2triton/"
                                   "liger_geglu_bf16/baseline.py: the task's package: module liger_kernel.ops.geglu "
                                   "is not installed for this Python (/root/.pyenv/versions/3.11.7/bin/python3): "
                                   "install the suite's pinned requirements (suites/<suite>/requirements.txt)";
  EXPECT_EQ(one_line(path_message), path_message);  // a long message of a real gate stays whole
}

TEST(FailureLines, JoinsTheMessageCMakeWrapped) {
  // cmake/ArenaCompileKernel.cmake on a missing candidate (CMake 3.25 wraps its FATAL_ERROR text)
  const std::string out =
      "FAILED: hip2hip/gemm_f32 candidate: no source file at /home/u/my-candidates/hip2hip/gemm_f32/kernel.hip\n"
      "CMake Error at /home/u/KernelArena/cmake/ArenaCompileKernel.cmake:271 (message):\n"
      "  hip2hip/gemm_f32 candidate: the compile gate failed (the reason is the\n"
      "  first line of this output)\n\n\n";
  auto lines = failure_lines(out, 2);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "FAILED: hip2hip/gemm_f32 candidate: no source file at /home/u/my-candidates/hip2hip/gemm_f32/kernel.hip");
  // a wrapped message that says something is read whole
  lines = failure_lines("CMake Error at x.cmake:3 (message):\n  y candidate: compilation failed (exit 2) after\n"
                        "  3 s: see above\nCall Stack (most recent call first):\n  x.cmake:9 (f)\n", 2);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "y candidate: compilation failed (exit 2) after 3 s: see above");
}

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

TEST(FailureLines, OneLineCollapsesAndCuts) {
  EXPECT_EQ(one_line("  a\n  b\t\tc  "), "a b c");
  EXPECT_EQ(one_line(std::string(400, 'x'), 10), "xxxxxxx...");
}

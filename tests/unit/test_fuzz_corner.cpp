// The fuzz domain's low corner (fuzz_low_corner, what arena-task-filter checks besides the fuzz
// seeds' draws): the ranges' minimum, raised as little as `require` and valid shapes need.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "task_spec.h"

using namespace arena;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A task y[M, N - D] = f(x[M, N]) with the fuzz domain `fuzz`, loaded from a scratch folder.
TaskSpec task_with_fuzz(const json& fuzz) {
  json s = json::parse(R"({
    "schema": 1, "name": "corner", "suite": "hip2hip", "category": "softmax", "description": "corner",
    "params": [{"name": "M", "type": "int", "min": 1}, {"name": "N", "type": "int", "min": 1},
               {"name": "D", "type": "int", "min": 0}],
    "tensors": [
      {"name": "x", "dtype": "f32", "shape": ["M", "N"], "role": "input", "dist": {"kind": "normal", "std": 1}},
      {"name": "y", "dtype": "f32", "shape": ["M", "N - D"], "role": "output"}],
    "configs": {"seen": [{"M": 64, "N": 128, "D": 0}], "unseen": [{"M": 3, "N": 7, "D": 1}]},
    "tolerance": {"atol": 1e-6, "rtol": 1e-5},
    "cost": {"bytes": "8 * M * N", "flops": "M * N"}
  })");
  s["configs"]["fuzz"] = fuzz;
  const fs::path dir = fs::temp_directory_path() / ("arena_fuzz_corner_" + std::to_string(::getpid())) / "hip2hip" /
                       "corner";
  fs::create_directories(dir);
  std::ofstream(dir / "task.json") << s.dump(2);
  TaskSpec t = load_task(dir / "task.json");
  fs::remove_all(dir.parent_path().parent_path());
  return t;
}

}  // namespace

TEST(FuzzLowCorner, EveryRangeAtItsMinimum) {
  std::string why;
  auto c = fuzz_low_corner(task_with_fuzz({{"count", 4}, {"ranges", {{"M", {3, 100}}, {"N", {5, 100}}}}}), why);
  ASSERT_TRUE(c.has_value()) << why;
  EXPECT_EQ(c->describe(), "M=3 N=5 D=0");  // D: no range, its min
  EXPECT_EQ(c->label, "fuzz low corner");
}

TEST(FuzzLowCorner, RaisedAsLittleAsRequireNeeds) {
  std::string why;
  // From M=2 N=2 up each ladder (2, 3, 4, 5, 8, ...): M * N >= 12 with M even first holds three
  // steps up, at M=4 N=3 (M=2 N=5 is 10, M=3 N=4 is odd).
  auto c = fuzz_low_corner(
      task_with_fuzz({{"count", 4},
                      {"ranges", {{"M", {2, 100}}, {"N", {2, 100}}}},
                      {"require", {"M * N >= 12", "M % 2 == 0"}}}),
      why);
  ASSERT_TRUE(c.has_value()) << why;
  EXPECT_EQ(c->describe(), "M=4 N=3 D=0");
}

TEST(FuzzLowCorner, ValidShapesRequired) {
  std::string why;
  // y's N - D columns: D at 3 needs N >= 4.
  auto c = fuzz_low_corner(task_with_fuzz({{"count", 4}, {"ranges", {{"N", {1, 64}}, {"D", {3, 9}}}}}), why);
  ASSERT_TRUE(c.has_value()) << why;
  EXPECT_EQ(c->describe(), "M=1 N=4 D=3");
}

TEST(FuzzLowCorner, NoneWhenRequireCannotHold) {
  std::string why;
  auto c = fuzz_low_corner(
      task_with_fuzz({{"count", 4}, {"ranges", {{"M", {1, 8}}, {"N", {1, 8}}}}, {"require", {"M * N > 64"}}}), why);
  EXPECT_FALSE(c.has_value());
  EXPECT_NE(why.find("satisfies configs.fuzz.require"), std::string::npos) << why;
}

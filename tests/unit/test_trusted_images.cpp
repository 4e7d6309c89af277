// The judge's check of a Triton recorder's device code (harness/src/trusted_images.h), with a
// stand-in builder that "compiles" each build to the bytes "IMG:<kernel>" (a build whose
// kernel is "broken" fails): a sent image equal to the trusted one is replaced by it, a
// different one is refused naming the kernel, images without builds are refused, and each
// build is compiled once per gate.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "trusted_images.h"

using namespace arena;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* kFakeBuilder = R"(import argparse, hashlib, json, os
p = argparse.ArgumentParser()
for a in ("--source", "--builds", "--out", "--task"):
    p.add_argument(a)
a = p.parse_args()
builds = json.load(open(a.builds))
out = []
for i, b in enumerate(builds):
    k = b["build"]["kernel"]
    if k == "broken":
        out.append({"kernel": k, "error": "CompilationError: at 3:4: no such name"})
        continue
    image = ("IMG:" + k).encode()
    open(os.path.join(a.out, f"{i}.bin"), "wb").write(image)
    out.append({"kernel": k, "sha256": hashlib.sha256(image).hexdigest()})
json.dump(out, open(os.path.join(a.out, "result.json"), "w"))
)";

class TrustedImagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("arena-trusted-images-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "builder.py") << kFakeBuilder;
    builder_ = {"/usr/bin/python3", (dir_ / "builder.py").string(), (dir_ / "module.py").string(), "",
                (dir_ / "judge").string(), 60};
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }
  static json build(const std::string& kernel, int num_warps = 4) {
    return {{"kernel", kernel}, {"qualname", kernel}, {"file", "/m.py"}, {"options", {{"num_warps", num_warps}}}};
  }
  static json recipe(const std::vector<std::string>& ran, const std::vector<json>& builds) {
    json steps = json::array();
    for (size_t i = 0; i < ran.size(); ++i) steps.push_back({{"kind", "kernel"}, {"name", ran[i]}, {"image", i}});
    json b = json::array();
    for (const auto& x : builds) b.push_back(x.dump());
    return {{"steps", steps}, {"images", ran.size()}, {"builds", b}};
  }

  fs::path dir_;
  TrustedBuilder builder_;
};

TEST_F(TrustedImagesTest, SameImageIsReplacedByTheTrustedOneAndBuiltOnce) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TrustedImages t(builder_);
  std::vector<std::vector<uint8_t>> images = {bytes("IMG:add"), bytes("IMG:mul")};
  EXPECT_EQ(t.check(recipe({"add", "mul"}, {build("add"), build("mul")}), images), "");
  EXPECT_EQ(images[0], bytes("IMG:add"));
  EXPECT_EQ(images[1], bytes("IMG:mul"));
  // Another configuration with the same builds: nothing compiled again.
  std::vector<std::vector<uint8_t>> again = {bytes("IMG:add")};
  EXPECT_EQ(t.check(recipe({"add"}, {build("add")}), again), "");
  EXPECT_EQ(t.runs(), 1);
  // A build with other launch options is a build of its own.
  std::vector<std::vector<uint8_t>> other = {bytes("IMG:add")};
  EXPECT_EQ(t.check(recipe({"add"}, {build("add", 8)}), other), "");
  EXPECT_EQ(t.runs(), 2);
}

TEST_F(TrustedImagesTest, DifferentImageIsRefusedNamingTheKernel) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TrustedImages t(builder_);
  std::vector<std::vector<uint8_t>> images = {bytes("IMG:add"), bytes("VENDOR GEMM")};
  json b = build("mul");
  b["other_options"] = {{"ir_override", "/tmp/x.ptx"}};
  const std::string why = t.check(recipe({"add", "mul"}, {build("add"), b}), images);
  EXPECT_NE(why.find("kernel mul: the device code the recorder sent (11 bytes) is not what the trusted compile"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("first difference at byte 0"), std::string::npos) << why;
  EXPECT_NE(why.find("ir_override"), std::string::npos) << why;
  // The same build sent later with the right image passes: the refusal was of that image.
  std::vector<std::vector<uint8_t>> right = {bytes("IMG:mul")};
  EXPECT_EQ(t.check(recipe({"mul"}, {build("mul")}), right), "");
}

TEST_F(TrustedImagesTest, ImagesWithoutBuildsAreRefused) {
  TrustedImages t(builder_);
  std::vector<std::vector<uint8_t>> images = {bytes("IMG:add")};
  json r = recipe({"add"}, {});
  EXPECT_NE(t.check(r, images).find("1 device code image(s) and 0 description(s)"), std::string::npos);
  r["builds"] = json::array({"not json"});
  EXPECT_NE(t.check(r, images).find("image 0: the recorder did not say how Triton built it"), std::string::npos);
  r["builds"] = json::array({json{{"kernel", "add"}, {"error", "a constexpr of type object"}}.dump()});
  EXPECT_NE(t.check(r, images).find("kernel add: its build cannot be described"), std::string::npos);
  EXPECT_EQ(t.runs(), 0);
}

TEST_F(TrustedImagesTest, StepMustRunTheKernelItsImageWasBuiltFor) {
  TrustedImages t(builder_);
  std::vector<std::vector<uint8_t>> images = {bytes("IMG:add")};
  const std::string why = t.check(recipe({"cublas_gemm"}, {build("add")}), images);
  EXPECT_NE(why.find("ran kernel cublas_gemm from a device code image built, the recorder says, for kernel add"),
            std::string::npos)
      << why;
}

TEST_F(TrustedImagesTest, FailedTrustedCompileIsNamed) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TrustedImages t(builder_);
  std::vector<std::vector<uint8_t>> images = {bytes("IMG:broken")};
  const std::string why = t.check(recipe({"broken"}, {build("broken")}), images);
  EXPECT_NE(why.find("kernel broken: the trusted compile of broken from /m.py failed: CompilationError"),
            std::string::npos)
      << why;
}

TEST_F(TrustedImagesTest, BuilderThatCannotRunIsNamed) {
  builder_.script = (dir_ / "missing.py").string();
  TrustedImages t(builder_);
  std::vector<std::vector<uint8_t>> images = {bytes("IMG:add")};
  const std::string why = t.check(recipe({"add"}, {build("add")}), images);
  EXPECT_NE(why.find("the trusted compile (" + builder_.script + ") exited with status"), std::string::npos) << why;
}

TEST(FirstDifference, FindsTheFirstDifferingByte) {
  EXPECT_EQ(first_difference({1, 2, 3}, {1, 2, 4}), 2u);
  EXPECT_EQ(first_difference({1, 2}, {1, 2, 3}), 2u);
  EXPECT_EQ(first_difference({}, {}), 0u);
}

}  // namespace

// The real builder (harness/python/arena_triton_build.py) behind TrustedImages, on a launch
// recorded without a GPU by tests/python/triton_cpu_recorder.py: the recorder's image passes
// and is replaced by the trusted one; one changed byte is refused naming the kernel. Needs the
// gates' Python with Triton and PyTorch (skipped without).
TEST(TrustedImagesEndToEnd, RealBuilderAcceptsTritonsImageAndRefusesAChangedOne) {
  const std::string python = ARENA_PYTHON;
  if (python.empty() || std::system((python + " -c 'import triton, torch' 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "the gates' Python (" << python << ") cannot import Triton and PyTorch";
  const fs::path src = ARENA_SOURCE_DIR;
  const fs::path dir = fs::temp_directory_path() / ("arena-trusted-e2e-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path task = src / "tasks/triton2triton/gelu_f16/task.json";
  const fs::path module = src / "tasks/triton2triton/gelu_f16/solution.py";
  const std::string record = "TRITON_CACHE_DIR=" + (dir / "recorder-cache").string() + " " + python + " " +
                             (src / "tests/python/triton_cpu_recorder.py").string() + " --task " + task.string() +
                             " --module " + module.string() + " --out " + (dir / "rec").string() + " > " +
                             (dir / "rec.log").string() + " 2>&1";
  ASSERT_EQ(std::system(record.c_str()), 0) << "recording failed: see " << (dir / "rec.log");
  const json builds = json::parse(std::ifstream(dir / "rec" / "builds.json"));
  ASSERT_FALSE(builds.empty());
  json recipe = {{"steps", json::array()}, {"images", builds.size()}, {"builds", json::array()}};
  std::vector<std::vector<uint8_t>> images;
  for (size_t i = 0; i < builds.size(); ++i) {
    recipe["steps"].push_back({{"kind", "kernel"}, {"name", builds[i]["build"]["kernel"]}, {"image", i}});
    recipe["builds"].push_back(builds[i]["build"].dump());
    std::ifstream f(builds[i]["sent"].get<std::string>(), std::ios::binary);
    images.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  TrustedImages t({python, (src / "harness/python/arena_triton_build.py").string(), module.string(), task.string(),
                   (dir / "judge").string(), 600});
  std::vector<std::vector<uint8_t>> checked = images;
  EXPECT_EQ(t.check(recipe, checked), "");
  EXPECT_EQ(checked, images);
  std::vector<std::vector<uint8_t>> changed = images;
  changed[0][changed[0].size() / 2] ^= 1;
  const std::string why = t.check(recipe, changed);
  const std::string kernel = builds[0]["build"]["kernel"];
  EXPECT_NE(why.find("kernel " + kernel + ": the device code the recorder sent"), std::string::npos) << why;
  EXPECT_NE(why.find("first difference at byte " + std::to_string(images[0].size() / 2)), std::string::npos) << why;
  EXPECT_EQ(t.runs(), 1);  // the second check compiled nothing again
  fs::remove_all(dir);
}

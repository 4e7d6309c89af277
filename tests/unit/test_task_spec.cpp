// Spec validation: each bad spec must be rejected with the file, the field and the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "task_spec.h"

using namespace arena;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

json good_spec() {
  return json::parse(R"({
    "schema": 1, "name": "demo", "suite": "hip2hip", "category": "softmax",
    "description": "demo task",
    "params": [{"name": "M", "type": "int", "min": 1}, {"name": "N", "type": "int", "min": 1},
               {"name": "eps", "type": "float", "default": 1e-5}],
    "tensors": [
      {"name": "x", "dtype": "f32", "shape": ["M", "N"], "role": "input", "dist": {"kind": "normal", "std": 2}},
      {"name": "y", "dtype": "f32", "shape": ["M", "N"], "role": "output"}],
    "configs": {"seen": [{"M": 64, "N": 128}], "unseen": [{"M": 1, "N": 7, "eps": 0.1}],
                "fuzz": {"count": 5, "ranges": {"M": [1, 1000], "N": [1, 5000]}, "require": ["M * N <= 1000000"]}},
    "tolerance": {"atol": 1e-6, "rtol": 1e-5},
    "cost": {"bytes": "8 * M * N", "flops": "5 * M * N"}
  })");
}

// This process's scratch folder, removed when the tests end.
const fs::path& scratch() {
  static const fs::path dir = fs::temp_directory_path() / ("arena_spec_test_" + std::to_string(::getpid()));
  static const struct Remover {
    ~Remover() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } remover;
  return dir;
}

fs::path write_spec(const std::string& text, const std::string& folder = "hip2hip/demo") {
  fs::path dir = scratch() / folder;
  fs::create_directories(dir);
  std::ofstream(dir / "task.json") << text;
  return dir / "task.json";
}

// The message of the SpecError that loading `spec` raises ("" if it loads).
std::string error_of(const json& spec) {
  try {
    // In a folder of the spec's own suite, so suite-specific rules (torch2hip's) apply.
    const std::string suite = spec.value("suite", "hip2hip") == "torch2hip" ? "torch2hip" : "hip2hip";
    load_task(write_spec(spec.dump(2), suite + "/demo"));
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const json& spec, const std::string& field, const std::string& what) {
  std::string e = error_of(spec);
  ASSERT_FALSE(e.empty()) << "accepted a bad spec; expected " << field << ": " << what;
  EXPECT_NE(e.find("task.json: " + field + ": "), std::string::npos) << e;
  EXPECT_NE(e.find(what), std::string::npos) << e;
}

}  // namespace

TEST(TaskSpec, GoodSpecLoadsWithAbiOrderAndDefaults) {
  TaskSpec t = load_task(write_spec(good_spec().dump()));
  EXPECT_EQ(t.name, "demo");
  ASSERT_EQ(t.seen.size(), 1u);
  EXPECT_EQ(t.seen[0].ints, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(t.seen[0].floats, (std::vector<double>{1e-5}));  // default filled in
  EXPECT_EQ(t.unseen[0].floats, (std::vector<double>{0.1}));
  EXPECT_EQ(t.numel(t.tensors[1], t.unseen[0]), 7);
  EXPECT_EQ(t.tensors[1].tol.rtol, 1e-5);  // task tolerance inherited
  EXPECT_DOUBLE_EQ(t.cost_bytes.eval_double(t.seen[0].bindings), 8.0 * 64 * 128);
  EXPECT_EQ(t.seen[0].describe(), "M=64 N=128 eps=1e-05");
}

TEST(TaskSpec, InvalidJsonNamesLineAndColumn) {
  std::string e;
  try {
    load_task(write_spec("{\n  \"schema\": 1,\n  \"name\": oops\n}"));
  } catch (const SpecError& x) {
    e = x.what();
  }
  EXPECT_NE(e.find("task.json:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("invalid JSON"), std::string::npos) << e;
}

TEST(TaskSpec, MissingRequiredField) {
  json s = good_spec();
  s.erase("cost");
  expect_error(s, "cost", "missing (required)");
}

TEST(TaskSpec, WrongType) {
  json s = good_spec();
  s["name"] = 42;
  expect_error(s, "name", "must be a string");
}

TEST(TaskSpec, UnknownFieldIsATypoNotSilence) {
  json s = good_spec();
  s["tolerence"] = s["tolerance"];
  expect_error(s, "tolerence", "unknown field");
}

TEST(TaskSpec, UnknownDtype) {
  json s = good_spec();
  s["tensors"][0]["dtype"] = "float32";
  expect_error(s, "tensors[0].dtype", "unknown dtype 'float32'");
}

TEST(TaskSpec, UnknownRole) {
  json s = good_spec();
  s["tensors"][1]["role"] = "result";
  expect_error(s, "tensors[1].role", "unknown role 'result'");
}

TEST(TaskSpec, ShapeWithUnknownParam) {
  json s = good_spec();
  s["tensors"][0]["shape"][1] = "K";
  expect_error(s, "tensors[0].shape[1]", "unknown int param 'K'");
}

TEST(TaskSpec, ShapeThatDoesNotParse) {
  json s = good_spec();
  s["tensors"][0]["shape"][0] = "M *";
  expect_error(s, "tensors[0].shape[0]", "expected a number");
}

TEST(TaskSpec, DuplicateNames) {
  json s = good_spec();
  s["tensors"][1]["name"] = "x";
  expect_error(s, "tensors[1].name", "duplicate tensor 'x'");
  s = good_spec();
  s["params"][1]["name"] = "M";
  expect_error(s, "params[1].name", "duplicate param 'M'");
}

TEST(TaskSpec, ConfigMissingOrUnknownOrOutOfRangeParam) {
  json s = good_spec();
  s["configs"]["seen"][0].erase("N");
  expect_error(s, "configs.seen[0]", "missing int param 'N'");
  s = good_spec();
  s["configs"]["unseen"][0]["Q"] = 3;
  expect_error(s, "configs.unseen[0].Q", "unknown param");
  s = good_spec();
  s["configs"]["seen"][0]["M"] = 0;
  expect_error(s, "configs.seen[0].M", "below the param's min 1");
  s = good_spec();
  s["configs"]["seen"][0]["M"] = 2.5;
  expect_error(s, "configs.seen[0].M", "must be an integer");
}

TEST(TaskSpec, NoSeenOrNoUnseenConfigurations) {
  json s = good_spec();
  s["configs"]["seen"] = json::array();
  expect_error(s, "configs.seen", "needs at least one configuration");
  s = good_spec();
  s["configs"]["unseen"] = json::array();
  expect_error(s, "configs.unseen", "needs at least one configuration");
}

// An unseen configuration equal to a seen one (defaults applied) would judge nothing new.
TEST(TaskSpec, UnseenConfigurationEqualToASeenOneIsRejected) {
  json s = good_spec();
  s["configs"]["unseen"].push_back({{"M", 64}, {"N", 128}});
  expect_error(s, "configs.unseen[1]", "the same configuration as configs.seen[0]");
  s = good_spec();
  s["configs"]["unseen"][0] = {{"M", 64}, {"N", 128}, {"eps", 1e-5}};  // eps given, equal to its default
  expect_error(s, "configs.unseen[0]", "an unseen configuration must be one the candidate never sees");
  s = good_spec();
  s["configs"]["unseen"][0] = {{"M", 64}, {"N", 128}, {"eps", 0.5}};  // differs in a float param only
  EXPECT_EQ(error_of(s), "");
}

TEST(TaskSpec, NoOutputTensor) {
  json s = good_spec();
  s["tensors"][1]["role"] = "input";
  s["tensors"][1]["dist"] = {{"kind", "normal"}};
  expect_error(s, "tensors", "needs at least one output");
}

TEST(TaskSpec, BadDistribution) {
  json s = good_spec();
  s["tensors"][0].erase("dist");
  expect_error(s, "tensors[0].dist", "inputs need a distribution");
  s = good_spec();
  s["tensors"][0]["dist"] = {{"kind", "uniform"}, {"low", 1}, {"high", 1}};
  expect_error(s, "tensors[0].dist", "low must be < high");
  s = good_spec();
  s["tensors"][0]["dist"] = {{"kind", "int_range"}, {"low", 0}, {"high", 3}};
  expect_error(s, "tensors[0].dist.kind", "int_range needs an integer dtype");
  s = good_spec();
  s["tensors"][0]["dist"] = {{"kind", "gaussian"}};
  expect_error(s, "tensors[0].dist.kind", "unknown distribution 'gaussian'");
}

TEST(TaskSpec, BadTolerance) {
  json s = good_spec();
  s["tolerance"] = {{"atol", -1}};
  expect_error(s, "tolerance", "must be >= 0");
  s = good_spec();
  s["tolerance"] = json::object();
  expect_error(s, "tolerance", "needs atol and/or rtol");
}

TEST(TaskSpec, ShapeEvaluatingToZero) {
  json s = good_spec();
  s["tensors"][1]["shape"] = {"M - 1", "N"};
  expect_error(s, "configs.unseen[0]", "gets a dimension of 0");
}

TEST(TaskSpec, BadCostModel) {
  json s = good_spec();
  s["cost"]["bytes"] = "8 * M * Z";
  expect_error(s, "cost.bytes", "unknown int param 'Z'");
  s = good_spec();
  s["cost"]["compute"] = "tf32";
  expect_error(s, "cost.compute", "must be \"fp32\" or \"tensor\"");
}

TEST(TaskSpec, BadFuzzDomain) {
  json s = good_spec();
  s["configs"]["fuzz"]["ranges"]["M"] = {10, 1};
  expect_error(s, "configs.fuzz.ranges.M", "needs 1 <= low <= high");
  s = good_spec();
  s["configs"]["fuzz"]["ranges"]["eps"] = {1, 2};
  expect_error(s, "configs.fuzz.ranges.eps", "not an int param");
}

TEST(TaskSpec, NameMustMatchFolder) {
  std::string e;
  try {
    load_task(write_spec(good_spec().dump(), "hip2hip/other"), /*expect_dir_names=*/true);
  } catch (const SpecError& x) {
    e = x.what();
  }
  EXPECT_NE(e.find("name: \"demo\" differs from its folder \"other\""), std::string::npos) << e;
}

TEST(TaskSpec, UnsupportedSchemaVersion) {
  json s = good_spec();
  s["schema"] = 2;
  expect_error(s, "schema", "unsupported schema version 2");
}

TEST(Fuzz, DrawsValidDeterministicConfigurations) {
  TaskSpec t = load_task(write_spec(good_spec().dump()));
  auto a = generate_fuzz_configs(t, 7), b = generate_fuzz_configs(t, 7), c = generate_fuzz_configs(t, 8);
  ASSERT_EQ(a.size(), 5u);
  bool differs = false;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].ints, b[i].ints);
    differs |= a[i].ints != c[i].ints;
    EXPECT_LE(a[i].ints[0] * a[i].ints[1], 1000000);
    EXPECT_GE(a[i].ints[0], 1);
    EXPECT_LE(a[i].ints[1], 5000);
    EXPECT_EQ(a[i].label, "fuzz[" + std::to_string(i) + "]");
  }
  EXPECT_TRUE(differs);
}

TEST(Fuzz, ImpossibleDomainIsReported) {
  json s = good_spec();
  s["configs"]["fuzz"]["require"] = {"M * N < 0"};
  TaskSpec t = load_task(write_spec(s.dump()));
  EXPECT_THROW(generate_fuzz_configs(t, 1), SpecError);
}

TEST(TaskSpec, EveryShippedTaskIsValid) {
  int n = 0;
  for (const auto& suite : fs::directory_iterator(fs::path(ARENA_SOURCE_DIR) / "tasks")) {
    if (!suite.is_directory()) continue;
    for (const auto& task : fs::directory_iterator(suite.path())) {
      if (!fs::exists(task.path() / "task.json")) continue;
      EXPECT_NO_THROW(load_task(task.path() / "task.json")) << task.path();
      ++n;
    }
  }
  EXPECT_GE(n, 1);
}

TEST(TaskSpec, PublicSpecHoldsSeenConfigurationsOnly) {
  fs::path file = write_spec(good_spec().dump());
  fs::path out = scratch() / "public.json";
  write_public_spec(file, out);
  json j = json::parse(std::ifstream(out));
  EXPECT_TRUE(j["public"].get<bool>());
  EXPECT_FALSE(j["configs"].contains("unseen"));
  EXPECT_FALSE(j["configs"].contains("fuzz"));
  TaskSpec t = load_task(out);  // loads anywhere: no folder-name check for public specs
  EXPECT_EQ(t.seen.size(), 1u);
  EXPECT_TRUE(t.unseen.empty());
  // A public spec that carries hidden configurations is rejected.
  j["configs"]["unseen"] = good_spec()["configs"]["unseen"];
  std::ofstream(out) << j.dump();
  EXPECT_THROW(load_task(out), SpecError);
  fs::remove(out);
}

// Index tensors: int_range bounds may be expressions of the int params (ids below a size).
TEST(TaskSpec, IntRangeBoundsFromParams) {
  json s = good_spec();
  s["tensors"].push_back({{"name", "ids"}, {"dtype", "i32"}, {"shape", {"M"}}, {"role", "input"},
                          {"dist", {{"kind", "int_range"}, {"low", 0}, {"high", "N - 1"}}}});
  ASSERT_EQ(error_of(s), "");
  TaskSpec t = load_task(write_spec(s.dump(2)));
  ASSERT_TRUE(t.tensors[2].dist->high_expr.has_value());
  Distribution d = t.tensors[2].dist->at(t.seen[0].bindings);
  EXPECT_EQ(d.a, 0);
  EXPECT_EQ(d.b, 127);  // N = 128 in the seen configuration
  for (const Config& c : generate_fuzz_configs(t, 7)) EXPECT_LE(t.tensors[2].dist->at(c.bindings).a, t.tensors[2].dist->at(c.bindings).b);

  json bad = s;
  bad["tensors"][2]["dist"]["high"] = "V - 1";
  expect_error(bad, "tensors[2].dist.high", "unknown int param 'V'");
  bad = s;
  bad["tensors"][2]["dist"]["low"] = "N";
  bad["tensors"][2]["dist"]["high"] = "N - 2";
  expect_error(bad, "configs.seen[0]", "int_range low 128 > high 126");
}

// A normal distribution's (mean, std) is no range: a mean above the spread must not stop fuzzing.
TEST(TaskSpec, FuzzDrawsWithOffsetNormalInputs) {
  json s = good_spec();
  s["tensors"][0]["dist"] = {{"kind", "normal"}, {"mean", 3}, {"std", 2}};
  TaskSpec t = load_task(write_spec(s.dump(2)));
  EXPECT_EQ(generate_fuzz_configs(t, 11).size(), 5u);
}

namespace {

// torch2hip: the binding of the reference model to the ABI.
json torch_spec() {
  json s = good_spec();
  s["suite"] = "torch2hip";
  s["tensors"].insert(s["tensors"].begin() + 1,
                      json::parse(R"({"name": "w", "dtype": "f32", "shape": ["N"], "role": "input",
                                      "dist": {"kind": "normal", "std": 1}})"));
  s["torch"] = json::parse(R"({"init": ["N", "eps", 2], "inputs": ["x"], "state": {"w": "scale.weight"},
                               "outputs": ["y"]})");
  return s;
}

}  // namespace

TEST(TaskSpec, TorchBindingLoads) {
  TaskSpec t = load_task(write_spec(torch_spec().dump(), "torch2hip/demo"));
  ASSERT_TRUE(t.torch.present);
  EXPECT_EQ(t.torch.init, (std::vector<std::string>{"N", "eps", "2"}));
  EXPECT_EQ(t.torch.state.at("w"), "scale.weight");
  EXPECT_EQ(t.torch.oracle, "float64");
  EXPECT_TRUE(t.torch.compile);
  EXPECT_FALSE(load_task(write_spec(good_spec().dump())).torch.present);
}

TEST(TaskSpec, TorchBindingErrorsNameTheField) {
  json s = torch_spec();
  s["torch"]["inputs"] = {"x", "x"};
  expect_error(s, "torch.inputs[1]", "tensor 'x' is already bound at torch.inputs[0]");
  s = torch_spec();
  s["torch"]["outputs"] = {"w"};
  expect_error(s, "torch.outputs[0]", "tensor 'w' is already bound at torch.state.w");
  s = torch_spec();
  s["torch"]["inputs"] = {"x", "y"};
  expect_error(s, "torch.inputs[1]", "tensor 'y' must have role input");
  s = torch_spec();
  s["torch"]["state"] = json::object();
  expect_error(s, "torch", "tensor 'w' is not bound");
  s = torch_spec();
  s["torch"]["inputs"] = {"x", "z"};
  expect_error(s, "torch.inputs[1]", "no tensor named 'z'");
  s = torch_spec();
  s["torch"]["state"]["w"] = "";
  expect_error(s, "torch.state.w", "must be the model's state_dict key");
  s = torch_spec();
  s["torch"]["oracle"] = "float32";
  expect_error(s, "torch.oracle", "must be \"float64\" or \"native\"");
  s = torch_spec();
  s["torch"]["init"] = {json::object()};
  expect_error(s, "torch.init[0]", "must be a string (an expression of the params) or a number");
  s = torch_spec();
  s["torch"]["outputs"] = json::array();
  expect_error(s, "torch.outputs", "needs at least one output");
  s = torch_spec();
  s["torch"]["compiled"] = true;
  expect_error(s, "torch.compiled", "unknown field");
}

// "reference": an oracle shared by several tasks (tasks/_oracles/README.md), named relative to
// the task's folder; the folder then holds no reference.cpp, and agents never see the field.
TEST(TaskSpec, SharedOracleIsNamedRelativeToTheTaskFolder) {
  fs::create_directories(scratch() / "_oracles");
  std::ofstream(scratch() / "_oracles" / "shared.cpp") << "// an oracle\n";
  json s = good_spec();
  s["reference"] = "../../_oracles/shared.cpp";
  TaskSpec t = load_task(write_spec(s.dump()));
  EXPECT_EQ(t.reference, (fs::absolute(scratch()) / "_oracles" / "shared.cpp").lexically_normal());
  EXPECT_TRUE(load_task(write_spec(good_spec().dump())).reference.empty());

  fs::path out = scratch() / "public_shared.json";
  write_public_spec(write_spec(s.dump()), out);
  EXPECT_FALSE(json::parse(std::ifstream(out)).contains("reference"));
  EXPECT_TRUE(load_task(out).reference.empty());
  fs::remove(out);

  std::ofstream(scratch() / "hip2hip" / "demo" / "reference.cpp") << "// a copy\n";
  expect_error(s, "reference", "the folder also holds reference.cpp: a task has one oracle");
  fs::remove(scratch() / "hip2hip" / "demo" / "reference.cpp");
  s["reference"] = "../../_oracles/missing.cpp";
  expect_error(s, "reference", "\"../../_oracles/missing.cpp\": no such file");
  s["reference"] = (scratch() / "_oracles" / "shared.cpp").string();
  expect_error(s, "reference", "must be a path relative to the task's folder to a .cpp host oracle");
  s["reference"] = "../../_oracles/shared.h";
  expect_error(s, "reference", "must be a path relative to the task's folder to a .cpp host oracle");
  s["reference"] = 3;
  expect_error(s, "reference", "must be a string");
  json torch = torch_spec();
  torch["reference"] = "../../_oracles/shared.cpp";
  expect_error(torch, "reference", "a task with a torch binding has its model reference.py as oracle");
}

// Provenance: a production baseline's pinned package, a workload's source, an at-limit baseline.
TEST(TaskSpec, PackageWorkloadAndAtLimitLoad) {
  json s = good_spec();
  s["package"] = {{"name", "liger-kernel"}, {"version", "0.8.5"}, {"license", "BSD-2-Clause"},
                  {"modules", {"liger_kernel.ops.rms_norm", "liger_kernel.ops.utils"}},
                  {"callable", "liger_kernel.ops.rms_norm.rms_norm_forward"}};
  s["workload"] = {{"source", "KernelBench"}, {"license", "MIT"}, {"level", 2}, {"problem", 12},
                   {"name", "Gemm_Multiply_LeakyReLU"}};
  s["at_limit"] = {{"fraction_of_peak", 0.86}, {"why", "one read and one write at 86 % of bandwidth"}};
  TaskSpec t = load_task(write_spec(s.dump()));
  EXPECT_TRUE(t.package.present);
  EXPECT_EQ(t.package.modules.size(), 2u);
  EXPECT_EQ(t.workload.problem, 12);
  EXPECT_DOUBLE_EQ(t.at_limit.fraction_of_peak, 0.86);
}

TEST(TaskSpec, PackageNeedsModulesAndACallableInsideIt) {
  json s = good_spec();
  s["package"] = {{"name", "liger-kernel"}, {"version", "0.8.5"}, {"license", "BSD-2-Clause"},
                  {"modules", json::array()}, {"callable", "liger_kernel.ops.rms_norm.rms_norm_forward"}};
  expect_error(s, "package.modules", "needs at least one module");
  s["package"]["modules"] = {"liger_kernel.ops.rms_norm"};
  s["package"]["callable"] = "torch.matmul";
  expect_error(s, "package.callable", "inside the package");
  s["package"]["callable"] = "liger_kernel.ops.rms_norm.rms_norm_forward";
  s["package"]["modules"] = {"liger_kernel/ops/rms_norm.py"};
  expect_error(s, "package.modules[0]", "is not a module name");
  s["package"]["modules"] = {"liger_kernel.ops.rms_norm"};
  s["package"].erase("version");
  expect_error(s, "package.version", "missing (required)");
}

TEST(TaskSpec, AtLimitNeedsAMeasuredFractionNearPeak) {
  json s = good_spec();
  s["at_limit"] = {{"fraction_of_peak", 0.5}, {"why", "slow"}};
  expect_error(s, "at_limit.fraction_of_peak", "between 0.8 and 1.0");
  s["at_limit"] = {{"fraction_of_peak", 0.9}, {"why", ""}};
  expect_error(s, "at_limit.why", "must not be empty");
  s["workload"] = {{"source", "KernelBench"}, {"license", "MIT"}, {"name", "x"}, {"problme", 3}};
  s.erase("at_limit");
  expect_error(s, "workload.problme", "unknown field");
  s["workload"] = {{"source", "KernelBench"}, {"license", "MIT"}, {"name", "x"}, {"level", 0}};
  expect_error(s, "workload.level", "must be at least 1");
}

// Names become skeleton variables, kernel arguments and Python keywords: no keyword, no arena_*.
TEST(TaskSpec, NamesThatWouldBreakGeneratedCodeAreRefused) {
  json s = good_spec();
  s["tensors"][0]["name"] = "arena_abi";
  expect_error(s, "tensors[0].name", "starts with arena_");
  s["tensors"][0]["name"] = "lambda";
  expect_error(s, "tensors[0].name", "keyword");
  s = good_spec();
  s["params"][2]["name"] = "2eps";
  expect_error(s, "params[2].name", "must be an identifier");
}

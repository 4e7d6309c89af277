// The task model: task.json loaded, validated and resolved into typed structures.
// Every validation error names the file, the field (as a JSON path) and what is wrong.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compare.h"
#include "dtype.h"
#include "expr.h"

namespace arena {

struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Role { Input, Output, InOut };
const char* role_name(Role);

struct Distribution {
  enum Kind { Normal, Uniform, IntRange } kind = Normal;
  double a = 0, b = 1;   // normal: mean, std; uniform: [low, high); int_range: [low, high]
  bool strict = false;   // no alternate family and no outliers in correctness trials
  // int_range bounds given as expressions of the int params (indices below a size param).
  std::optional<Expr> low_expr, high_expr;
  // The distribution for one configuration: expression bounds evaluated.
  Distribution at(const Bindings& b) const;
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::F32;
  std::vector<Expr> shape;
  Role role = Role::Input;
  std::optional<Distribution> dist;  // inputs and inout tensors
  Tolerance tol;                     // outputs and inout tensors
  bool reads() const { return role != Role::Output; }
  bool writes() const { return role != Role::Input; }
};

struct ParamSpec {
  std::string name;
  bool is_int = true;
  std::optional<int64_t> min, max;
  std::optional<double> default_value;  // floats only
};

// One set of param values. `label` says where it came from ("seen[2]", "fuzz[0]").
struct Config {
  std::string label;
  std::vector<int64_t> ints;   // ABI order
  std::vector<double> floats;  // ABI order
  Bindings bindings;           // int params by name, for expressions
  std::string describe() const;  // "M=4096 N=1024 eps=1e-05"
  std::vector<std::string> names;  // param names in ABI order, ints then floats
};

struct FuzzDomain {
  int count = 0;
  std::map<std::string, std::pair<int64_t, int64_t>> ranges;
  std::vector<Expr> require;
};

// torch2hip: how the reference model (reference.py, KernelBench's problem format) maps onto
// the ABI. Every tensor appears exactly once: as a forward() argument, a model state entry
// (parameter or buffer, by state_dict key) or a returned output.
struct TorchBinding {
  bool present = false;
  std::vector<std::string> init;     // constructor arguments: Python expressions of the params
  std::vector<std::string> inputs;   // tensor names, in forward()'s argument order
  std::vector<std::string> outputs;  // tensor names, in the order forward() returns them
  std::map<std::string, std::string> state;  // tensor name -> state_dict key
  std::string oracle = "float64";    // "float64": the model in double precision; "native": in the tensors' dtypes
  bool compile = true;               // also time torch.compile as a second reference
};

// Where a task's baseline comes from when it is a production kernel: a pinned package,
// imported at run time (never copied), whose modules the candidate may import too.
struct PackageSource {
  bool present = false;
  std::string name, version, license;  // the PyPI name, the pinned version, its SPDX license
  std::vector<std::string> modules;    // every module of it the baseline imports
  std::string callable;                // the function (or kernel) whose launches the baseline makes
};

// Where a task's workload (operator sequence, shapes, dtypes) was taken from, e.g. a
// KernelBench problem; the model itself is the task's own code.
struct WorkloadSource {
  bool present = false;
  std::string source, license, name;
  int64_t level = 0, problem = 0;
};

// A task whose baseline is already at the hardware's limit on its seen configurations: its
// measured fraction of peak is the reason no expert solution is FASTER.
struct AtLimit {
  bool present = false;
  double fraction_of_peak = 0;
  std::string why;
};

struct TaskSpec {
  std::filesystem::path file;  // task.json
  std::filesystem::path dir;   // its folder
  std::string name, suite, category, description;
  std::vector<ParamSpec> params;
  std::vector<TensorSpec> tensors;
  std::vector<Config> seen, unseen;
  FuzzDomain fuzz;
  Tolerance default_tol;
  Expr cost_bytes, cost_flops;
  // Which peak the FLOP count is judged against: "fp32" (plain FMA units) or "tensor"
  // (matrix units; no portable peak, so no FLOP speed-of-light check).
  std::string cost_compute = "fp32";
  std::string candidate = "kernel.hip";
  // The host oracle's source when task.json names one ("reference", relative to the task's
  // folder: an oracle shared with other tasks, tasks/_oracles/); empty: the file its suite's
  // descriptor names (ARENA_SUITE_TASK_FILES). Absolute.
  std::filesystem::path reference;
  TorchBinding torch;  // torch2hip only
  PackageSource package;
  WorkloadSource workload;
  AtLimit at_limit;

  int num_int_params() const;
  int num_float_params() const;
  std::vector<int64_t> shape_of(const TensorSpec& t, const Config& c) const;
  int64_t numel(const TensorSpec& t, const Config& c) const;
  int64_t total_numel(const Config& c) const;  // every tensor's elements together
};

// Loads and validates; throws SpecError. When `expect_dir_names` is set, the task's
// name and suite must match its folder and the folder above it (a task added with
// arena_add_task may live in any folder, so the runners do not ask for it).
TaskSpec load_task(const std::filesystem::path& file, bool expect_dir_names = false);

// Writes what an agent may see of a task: the spec without unseen configurations and fuzz
// domain, marked "public": true.
void write_public_spec(const std::filesystem::path& task_file, const std::filesystem::path& out);

// Builds a Config from a JSON-like map of values (used by loader and fuzzing); throws SpecError
// with `where` as the field path.
Config make_config(const TaskSpec& t, const std::map<std::string, double>& values,
                   const std::string& label, const std::string& where);

}  // namespace arena

// The task spec loader's reading primitives, shared by its parts (task_spec.cpp: the task and
// its configurations; task_spec_fields.cpp: params, tensors, tolerances, configurations, fuzz
// domain; task_spec_bindings.cpp: torch binding, package, workload, at_limit, shared oracle).
// Not part of task_spec.h's API: every reader throws SpecError naming the file and field.
#pragma once
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "task_spec.h"

namespace arena::spec_read {

using json = nlohmann::json;

// Reads fields of one JSON object, tracking its path for error messages and rejecting
// fields it does not know (a typo must not silently drop a setting).
class Reader {
 public:
  Reader(const std::string& file, const json& j, std::string path)
      : file_(file), j_(j), path_(std::move(path)) {
    if (!j_.is_object()) fail("must be an object");
  }

  [[noreturn]] void fail(const std::string& what) const { fail_at(path_, what); }
  [[noreturn]] void fail_at(const std::string& field, const std::string& what) const {
    throw SpecError(file_ + ": " + (field.empty() ? "(top level)" : field) + ": " + what);
  }
  std::string at(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  bool has(const std::string& key) const { return j_.contains(key); }
  const json& raw(const std::string& key) const {
    if (!has(key)) fail_at(at(key), "missing (required)");
    seen_.insert(key);
    return j_.at(key);
  }
  std::string str(const std::string& key) const {
    const json& v = raw(key);
    if (!v.is_string()) fail_at(at(key), "must be a string");
    return v.get<std::string>();
  }
  std::string str_or(const std::string& key, const std::string& dflt) const {
    return has(key) ? str(key) : dflt;
  }
  double num(const std::string& key) const {
    const json& v = raw(key);
    if (!v.is_number()) fail_at(at(key), "must be a number");
    return v.get<double>();
  }
  int64_t integer(const std::string& key) const {
    const json& v = raw(key);
    if (!v.is_number_integer()) fail_at(at(key), "must be an integer");
    return v.get<int64_t>();
  }
  bool boolean_or(const std::string& key, bool dflt) const {
    if (!has(key)) return dflt;
    const json& v = raw(key);
    if (!v.is_boolean()) fail_at(at(key), "must be true or false");
    return v.get<bool>();
  }
  const json& array(const std::string& key) const {
    const json& v = raw(key);
    if (!v.is_array()) fail_at(at(key), "must be an array");
    return v;
  }
  void reject_unknown() const {
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!seen_.count(it.key())) fail_at(at(it.key()), "unknown field");
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  const json& j_;
  std::string path_;
  mutable std::set<std::string> seen_;
};

// task.json parsed; a syntax error names its line and column.
json parse_file(const std::filesystem::path& file);
// A shape or cost expression (a string, or an integer) of the int params.
Expr parse_expr(const Reader& r, const std::string& field, const json& v, const std::set<std::string>& int_params);
// The array `key` of strings (and, with allow_numbers, numbers as their JSON text).
std::vector<std::string> string_list(const Reader& r, const std::string& key, bool allow_numbers);
// The string `key`, refused when empty.
std::string nonempty(const Reader& r, const std::string& key);

// task_spec_fields.cpp
Tolerance read_tolerance(const Reader& parent, const std::string& key);
std::vector<ParamSpec> read_params(const Reader& top);
std::vector<TensorSpec> read_tensors(const Reader& top, const std::set<std::string>& int_params);
// The configurations of the array `key`, each checked to give every tensor valid dimensions.
std::vector<Config> read_config_list(const Reader& r, const TaskSpec& t, const std::string& key);
FuzzDomain read_fuzz(const Reader& parent, const TaskSpec& t, const std::set<std::string>& int_params);

// task_spec_bindings.cpp
TorchBinding read_torch(const Reader& top, const TaskSpec& t);
PackageSource read_package(const Reader& top);
WorkloadSource read_workload(const Reader& top);
AtLimit read_at_limit(const Reader& top);
std::filesystem::path read_reference(const Reader& top, const TaskSpec& t, bool is_public);

}  // namespace arena::spec_read

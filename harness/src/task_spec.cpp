// task.json loaded: the task, its cost model and configurations, read through the parts in
// task_spec_fields.cpp and task_spec_bindings.cpp (task_spec_read.h); and the TaskSpec helpers.
#include "task_spec.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "task_spec_read.h"

namespace arena {

using json = nlohmann::json;
using spec_read::Reader;

const char* role_name(Role r) {
  switch (r) {
    case Role::Input: return "input";
    case Role::Output: return "output";
    case Role::InOut: return "inout";
  }
  return "?";
}

std::string Config::describe() const {
  std::ostringstream os;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) os << ' ';
    if (i < ints.size()) os << names[i] << '=' << ints[i];
    else os << names[i] << '=' << floats[i - ints.size()];
  }
  return os.str();
}

Distribution Distribution::at(const Bindings& bind) const {
  Distribution d = *this;
  if (low_expr) d.a = static_cast<double>(low_expr->eval(bind));
  if (high_expr) d.b = static_cast<double>(high_expr->eval(bind));
  d.low_expr.reset();
  d.high_expr.reset();
  return d;
}

int TaskSpec::num_int_params() const {
  int n = 0;
  for (const auto& p : params) n += p.is_int;
  return n;
}

int TaskSpec::num_float_params() const { return static_cast<int>(params.size()) - num_int_params(); }

std::vector<int64_t> TaskSpec::shape_of(const TensorSpec& t, const Config& c) const {
  std::vector<int64_t> dims;
  for (const auto& e : t.shape) dims.push_back(e.eval(c.bindings));
  return dims;
}

int64_t TaskSpec::numel(const TensorSpec& t, const Config& c) const {
  int64_t n = 1;
  for (int64_t d : shape_of(t, c))
    if (__builtin_mul_overflow(n, d, &n)) throw ExprError("tensor " + t.name + " is too large");
  return n;
}

int64_t TaskSpec::total_numel(const Config& c) const {
  int64_t n = 0;
  for (const auto& ts : tensors) n += numel(ts, c);
  return n;
}

Config make_config(const TaskSpec& t, const std::map<std::string, double>& values, const std::string& label,
                   const std::string& where) {
  const std::string file = t.file.string();
  auto fail = [&](const std::string& field, const std::string& what) -> void {
    throw SpecError(file + ": " + field + ": " + what);
  };
  Config c;
  c.label = label;
  for (const auto& [k, v] : values) {
    bool known = false;
    for (const auto& p : t.params) known |= p.name == k;
    if (!known) fail(where + "." + k, "unknown param");
  }
  for (const auto& p : t.params) {
    if (!p.is_int) continue;
    auto it = values.find(p.name);
    if (it == values.end()) fail(where, "missing int param '" + p.name + "'");
    double v = it->second;
    if (v != std::floor(v) || std::fabs(v) > 9.0e15) fail(where + "." + p.name, "must be an integer");
    int64_t iv = static_cast<int64_t>(v);
    if (p.min && iv < *p.min) fail(where + "." + p.name, "below the param's min " + std::to_string(*p.min));
    if (p.max && iv > *p.max) fail(where + "." + p.name, "above the param's max " + std::to_string(*p.max));
    c.ints.push_back(iv);
    c.bindings[p.name] = iv;
    c.names.push_back(p.name);
  }
  for (const auto& p : t.params) {
    if (p.is_int) continue;
    auto it = values.find(p.name);
    if (it == values.end() && !p.default_value) fail(where, "missing float param '" + p.name + "' (no default)");
    c.floats.push_back(it != values.end() ? it->second : *p.default_value);
    c.names.push_back(p.name);
  }
  return c;
}

void write_public_spec(const std::filesystem::path& task_file, const std::filesystem::path& out) {
  load_task(task_file);  // only valid tasks are published
  json j = spec_read::parse_file(task_file);
  j["public"] = true;
  j["configs"].erase("unseen");
  j["configs"].erase("fuzz");
  j.erase("reference");  // the oracle is the harness's, not the agent's
  std::filesystem::path partial = out;
  partial += ".partial";
  {
    std::ofstream os(partial);
    os << j.dump(2) << "\n";
    if (!os) throw SpecError(out.string() + ": cannot be written");
  }
  std::filesystem::rename(partial, out);
}

namespace {
// name, suite, category and description; outside a public spec the task's folder and the one
// above it must be named like the task and its suite.
void read_identity(const Reader& top, const std::filesystem::path& file, bool expect_dir_names, TaskSpec& t) {
  t.name = top.str("name");
  t.suite = top.str("suite");
  t.category = top.str("category");
  t.description = top.str("description");
  for (const std::string* s : {&t.name, &t.suite, &t.category})
    if (s->empty() || s->find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      top.fail_at(s == &t.name ? "name" : s == &t.suite ? "suite" : "category",
                  "\"" + *s + "\" must be lowercase letters, digits and '_'");
  if (expect_dir_names) {
    std::string dir = std::filesystem::absolute(file).parent_path().filename().string();
    std::string suite_dir = std::filesystem::absolute(file).parent_path().parent_path().filename().string();
    if (dir != t.name) top.fail_at("name", "\"" + t.name + "\" differs from its folder \"" + dir + "\"");
    if (suite_dir != t.suite) top.fail_at("suite", "\"" + t.suite + "\" differs from its folder \"" + suite_dir + "\"");
  }
}

// The task's default tolerance, given to every output without its own; integer outputs compare exactly.
void apply_default_tolerance(const Reader& top, TaskSpec& t) {
  bool any_default_needed = false;
  for (const auto& ts : t.tensors) any_default_needed |= ts.writes() && ts.tol.atol < 0;
  if (top.has("tolerance")) t.default_tol = spec_read::read_tolerance(top, "tolerance");
  else if (any_default_needed) top.fail_at("tolerance", "missing (an output has no tol of its own)");
  for (auto& ts : t.tensors) {
    if (ts.writes() && ts.tol.atol < 0) ts.tol = t.default_tol;
    if (ts.writes() && !dtype_is_float(ts.dtype)) ts.tol.kind = Tolerance::Exact;
  }
}

// The cost model: bytes and flops as expressions of the int params, and which peak applies.
void read_cost(const Reader& top, const std::set<std::string>& int_params, TaskSpec& t) {
  Reader cost(top.file(), top.raw("cost"), "cost");
  t.cost_bytes = spec_read::parse_expr(cost, "cost.bytes", cost.raw("bytes"), int_params);
  t.cost_flops = spec_read::parse_expr(cost, "cost.flops", cost.raw("flops"), int_params);
  t.cost_compute = cost.str_or("compute", "fp32");
  if (t.cost_compute != "fp32" && t.cost_compute != "tensor")
    cost.fail_at("cost.compute", "must be \"fp32\" or \"tensor\"");
  cost.reject_unknown();
}

// Seen and unseen configurations and the fuzz domain; a public spec holds the seen ones only.
void read_configs(const Reader& top, const std::set<std::string>& int_params, bool is_public, TaskSpec& t) {
  Reader configs(top.file(), top.raw("configs"), "configs");
  t.seen = spec_read::read_config_list(configs, t, "seen");
  if (t.seen.empty()) configs.fail_at("configs.seen", "needs at least one configuration");
  if (!is_public || configs.has("unseen")) t.unseen = spec_read::read_config_list(configs, t, "unseen");
  if (t.unseen.empty() && !is_public) configs.fail_at("configs.unseen", "needs at least one configuration");
  // An unseen configuration the candidate also sees would test nothing it was not shown.
  for (size_t u = 0; u < t.unseen.size(); ++u)
    for (size_t k = 0; k < t.seen.size(); ++k)
      if (t.unseen[u].ints == t.seen[k].ints && t.unseen[u].floats == t.seen[k].floats)
        configs.fail_at("configs.unseen[" + std::to_string(u) + "]",
                        "the same configuration as configs.seen[" + std::to_string(k) + "] (" +
                            t.seen[k].describe() + "): an unseen configuration must be one the candidate never sees");
  if (!t.unseen.empty() && is_public) configs.fail_at("configs.unseen", "a public spec must not hold unseen configurations");
  if (configs.has("fuzz")) {
    if (is_public) configs.fail_at("configs.fuzz", "a public spec must not hold the fuzz domain");
    t.fuzz = spec_read::read_fuzz(configs, t, int_params);
  }
  configs.reject_unknown();
}

}  // namespace

TaskSpec load_task(const std::filesystem::path& file, bool expect_dir_names) {
  json j = spec_read::parse_file(file);
  Reader top(file.string(), j, "");
  TaskSpec t;
  t.file = file;
  t.dir = file.parent_path();
  int64_t schema = top.integer("schema");
  // A public spec (what an agent's workspace holds) has no unseen configurations or fuzz
  // domain, and lives outside the task tree.
  const bool is_public = top.boolean_or("public", false);
  if (is_public) expect_dir_names = false;
  if (schema != 1) top.fail_at("schema", "unsupported schema version " + std::to_string(schema) + " (this harness reads 1)");
  read_identity(top, file, expect_dir_names, t);
  t.params = spec_read::read_params(top);
  std::set<std::string> int_params;
  for (const auto& p : t.params)
    if (p.is_int) int_params.insert(p.name);
  t.tensors = spec_read::read_tensors(top, int_params);
  apply_default_tolerance(top, t);
  read_cost(top, int_params, t);
  t.candidate = top.str_or("candidate", "kernel.hip");
  if (t.candidate.find('/') != std::string::npos || t.candidate.empty())
    top.fail_at("candidate", "must be a plain file name");
  if (top.has("reference")) t.reference = spec_read::read_reference(top, t, is_public);
  read_configs(top, int_params, is_public, t);
  // Whether a suite's tasks must have a binding is its descriptor's to say (cmake/ArenaTasks.cmake).
  if (top.has("torch")) t.torch = spec_read::read_torch(top, t);
  if (top.has("package")) t.package = spec_read::read_package(top);
  if (top.has("workload")) t.workload = spec_read::read_workload(top);
  if (top.has("at_limit")) t.at_limit = spec_read::read_at_limit(top);
  top.reject_unknown();
  return t;
}

}  // namespace arena

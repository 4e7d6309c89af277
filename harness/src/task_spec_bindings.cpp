// task.json's optional sections: the torch binding of a Python model oracle, a production
// baseline's package and workload, at_limit, and a shared oracle file (task_spec_read.h).
#include <map>
#include <regex>

#include "task_spec_read.h"

namespace arena::spec_read {

TorchBinding read_torch(const Reader& top, const TaskSpec& t) {
  Reader r(top.file(), top.raw("torch"), "torch");
  TorchBinding b;
  b.present = true;
  if (r.has("init")) b.init = string_list(r, "init", true);
  b.inputs = string_list(r, "inputs", false);
  b.outputs = string_list(r, "outputs", false);
  if (b.outputs.empty()) r.fail_at("torch.outputs", "needs at least one output");
  if (r.has("state")) {
    Reader s(top.file(), r.raw("state"), "torch.state");
    for (const auto& [name, key] : r.raw("state").items()) {
      if (!key.is_string() || key.get<std::string>().empty())
        s.fail_at(s.at(name), "must be the model's state_dict key (a non-empty string)");
      b.state[name] = key.get<std::string>();
    }
  }
  b.oracle = r.str_or("oracle", "float64");
  if (b.oracle != "float64" && b.oracle != "native") r.fail_at("torch.oracle", "must be \"float64\" or \"native\"");
  b.compile = r.boolean_or("compile", true);
  r.reject_unknown();
  // Every ABI tensor is bound exactly once, with the role its binding implies.
  std::map<std::string, std::string> bound;  // tensor -> where
  auto bind = [&](const std::string& name, const std::string& where, bool output) {
    const TensorSpec* ts = nullptr;
    for (const auto& x : t.tensors)
      if (x.name == name) ts = &x;
    if (!ts) r.fail_at(where, "no tensor named '" + name + "' in tensors");
    if (bound.count(name)) r.fail_at(where, "tensor '" + name + "' is already bound at " + bound[name]);
    if (output && ts->role != Role::Output) r.fail_at(where, "tensor '" + name + "' must have role output");
    if (!output && ts->role != Role::Input) r.fail_at(where, "tensor '" + name + "' must have role input");
    bound[name] = where;
  };
  for (size_t i = 0; i < b.inputs.size(); ++i) bind(b.inputs[i], "torch.inputs[" + std::to_string(i) + "]", false);
  for (const auto& [name, key] : b.state) bind(name, "torch.state." + name, false);
  for (size_t i = 0; i < b.outputs.size(); ++i) bind(b.outputs[i], "torch.outputs[" + std::to_string(i) + "]", true);
  for (const auto& ts : t.tensors)
    if (!bound.count(ts.name))
      r.fail("tensor '" + ts.name + "' is not bound (list it in inputs, state or outputs)");
  return b;
}

namespace {

bool is_dotted_name(const std::string& s) {
  static const std::regex name(R"([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)");
  return std::regex_match(s, name);
}

}  // namespace

PackageSource read_package(const Reader& top) {
  Reader r(top.file(), top.raw("package"), "package");
  PackageSource p;
  p.present = true;
  p.name = nonempty(r, "name");
  if (p.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != std::string::npos)
    r.fail_at("package.name", "\"" + p.name + "\" is not a package name");
  p.version = nonempty(r, "version");
  p.license = nonempty(r, "license");
  p.modules = string_list(r, "modules", false);
  if (p.modules.empty()) r.fail_at("package.modules", "needs at least one module (every module the baseline imports)");
  for (size_t i = 0; i < p.modules.size(); ++i)
    if (!is_dotted_name(p.modules[i]))
      r.fail_at("package.modules[" + std::to_string(i) + "]", "\"" + p.modules[i] + "\" is not a module name");
  // The callable may be the wrapper users call, in a module the baseline need not import.
  p.callable = nonempty(r, "callable");
  bool in_package = false;
  for (const auto& m : p.modules) in_package |= p.callable.rfind(m.substr(0, m.find('.')) + ".", 0) == 0;
  if (!is_dotted_name(p.callable) || !in_package)
    r.fail_at("package.callable", "\"" + p.callable + "\" must be a dotted name inside the package of package.modules");
  r.reject_unknown();
  return p;
}

WorkloadSource read_workload(const Reader& top) {
  Reader r(top.file(), top.raw("workload"), "workload");
  WorkloadSource w;
  w.present = true;
  w.source = nonempty(r, "source");
  w.license = nonempty(r, "license");
  w.name = nonempty(r, "name");
  for (const auto& [key, out] : {std::pair<const char*, int64_t*>{"level", &w.level}, {"problem", &w.problem}})
    if (r.has(key) && (*out = r.integer(key)) < 1) r.fail_at(r.at(key), "must be at least 1");
  r.reject_unknown();
  return w;
}

AtLimit read_at_limit(const Reader& top) {
  Reader r(top.file(), top.raw("at_limit"), "at_limit");
  AtLimit a;
  a.present = true;
  a.fraction_of_peak = r.num("fraction_of_peak");
  if (!(a.fraction_of_peak >= 0.8 && a.fraction_of_peak <= 1.0))
    r.fail_at("at_limit.fraction_of_peak", "must be the baseline's measured fraction of peak, between 0.8 and 1.0 "
                                           "(a baseline further from the limit leaves headroom)");
  a.why = nonempty(r, "why");
  r.reject_unknown();
  return a;
}

// "reference": the task's oracle is a file it shares with other tasks (tasks/_oracles/README.md),
// so that a fix lands once; the folder must then hold no reference.cpp of its own.
std::filesystem::path read_reference(const Reader& top, const TaskSpec& t, bool is_public) {
  namespace fs = std::filesystem;
  const std::string text = top.str("reference");
  if (is_public) top.fail_at("reference", "a public spec must not name the oracle");
  if (top.has("torch")) top.fail_at("reference", "a task with a torch binding has its model reference.py as oracle; remove this field");
  const fs::path rel(text);
  if (text.empty() || rel.is_absolute() || rel.extension() != ".cpp")
    top.fail_at("reference", "\"" + text + "\" must be a path relative to the task's folder to a .cpp host oracle");
  const fs::path file = (fs::absolute(t.dir) / rel).lexically_normal();
  if (!fs::is_regular_file(file)) top.fail_at("reference", "\"" + text + "\": no such file (" + file.string() + ")");
  if (fs::exists(t.dir / "reference.cpp"))
    top.fail_at("reference", "the folder also holds reference.cpp: a task has one oracle (remove the copy)");
  return file;
}

}  // namespace arena::spec_read

#include "task_spec.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace arena {

using json = nlohmann::json;

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

namespace {

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

Expr parse_expr(const Reader& r, const std::string& field, const json& v,
                const std::set<std::string>& int_params) {
  if (!v.is_string() && !v.is_number_integer()) r.fail_at(field, "must be an expression string or an integer");
  std::string text = v.is_string() ? v.get<std::string>() : std::to_string(v.get<int64_t>());
  try {
    Expr e = Expr::parse(text);
    for (const auto& n : e.names())
      if (!int_params.count(n)) r.fail_at(field, "unknown int param '" + n + "' in \"" + text + "\"");
    return e;
  } catch (const ExprError& e) {
    r.fail_at(field, e.what());
  }
}

Tolerance read_tolerance(const Reader& parent, const std::string& key) {
  Reader r(parent.file(), parent.raw(key), parent.at(key));
  Tolerance t;
  if (r.has("exact")) {
    if (!r.boolean_or("exact", false)) r.fail_at(r.at("exact"), "only true is meaningful");
    t.kind = Tolerance::Exact;
  } else if (r.has("ulp")) {
    t.kind = Tolerance::Ulp;
    t.ulp = r.integer("ulp");
    if (t.ulp < 0) r.fail_at(r.at("ulp"), "must be >= 0");
  } else {
    t.kind = Tolerance::AbsRel;
    t.atol = r.has("atol") ? r.num("atol") : 0.0;
    t.rtol = r.has("rtol") ? r.num("rtol") : 0.0;
    if (!r.has("atol") && !r.has("rtol")) r.fail("needs atol and/or rtol, or exact, or ulp");
    if (t.atol < 0 || t.rtol < 0) r.fail("atol and rtol must be >= 0");
  }
  r.reject_unknown();
  return t;
}

Distribution read_distribution(const Reader& parent, DType dtype, const std::set<std::string>& int_params) {
  Reader r(parent.file(), parent.raw("dist"), parent.at("dist"));
  Distribution d;
  std::string kind = r.str("kind");
  if (kind == "normal") {
    d.kind = Distribution::Normal;
    d.a = r.has("mean") ? r.num("mean") : 0.0;
    d.b = r.has("std") ? r.num("std") : 1.0;
    if (!(d.b > 0)) r.fail_at(r.at("std"), "must be > 0");
  } else if (kind == "uniform") {
    d.kind = Distribution::Uniform;
    d.a = r.num("low");
    d.b = r.num("high");
    if (!(d.a < d.b)) r.fail("low must be < high");
  } else if (kind == "int_range") {
    d.kind = Distribution::IntRange;
    // Bounds: integers, or expressions of the int params (checked per configuration).
    auto bound = [&](const char* key, double& value, std::optional<Expr>& expr) {
      const json& v = r.raw(key);
      if (v.is_string()) expr = parse_expr(r, r.at(key), v, int_params);
      else value = static_cast<double>(r.integer(key));
    };
    bound("low", d.a, d.low_expr);
    bound("high", d.b, d.high_expr);
    if (!d.low_expr && !d.high_expr && d.a > d.b) r.fail("low must be <= high");
  } else {
    r.fail_at(r.at("kind"), "unknown distribution '" + kind + "' (normal, uniform, int_range)");
  }
  if (dtype_is_float(dtype) && d.kind == Distribution::IntRange)
    r.fail_at(r.at("kind"), "int_range needs an integer dtype");
  if (!dtype_is_float(dtype) && d.kind != Distribution::IntRange)
    r.fail_at(r.at("kind"), "integer tensors need int_range");
  d.strict = r.boolean_or("strict", d.kind == Distribution::IntRange);
  r.reject_unknown();
  return d;
}

// Why a tensor or param name cannot be used ("" if it can): names become variables of the
// generated ABI skeleton, kernel arguments and Python keywords, so they must be identifiers
// that are no C++ or Python keyword and leave the ABI's own names (arena_*) alone.
std::string name_problem(const std::string& n) {
  static const std::set<std::string> keywords = {
      "and", "as", "assert", "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue",
      "default", "def", "del", "delete", "do", "double", "elif", "else", "enum", "except", "explicit", "extern",
      "false", "finally", "float", "for", "from", "global", "goto", "if", "import", "in", "inline", "int", "is",
      "lambda", "long", "namespace", "new", "nonlocal", "not", "operator", "or", "pass", "private", "protected",
      "public", "raise", "register", "return", "short", "signed", "sizeof", "static", "struct", "switch",
      "template", "this", "throw", "true", "try", "typedef", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "while", "with", "yield", "None", "True", "False"};
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0])) ||
      n.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
    return "must be an identifier";
  if (keywords.count(n)) return "'" + n + "' is a C++ or Python keyword";
  if (n.rfind("arena_", 0) == 0) return "'" + n + "' starts with arena_, which the ABI's own names use";
  return "";
}

// Reads every object of the array `key` with read_one(reader), which returns an entry with a
// `name`; names must be unique identifiers, and unknown fields are refused.
template <class Entry, class ReadOne>
std::vector<Entry> read_named_entries(const Reader& top, const std::string& key, const std::string& what,
                                      ReadOne read_one) {
  const json& arr = top.array(key);
  std::vector<Entry> out;
  std::set<std::string> names;
  for (size_t i = 0; i < arr.size(); ++i) {
    Reader r(top.file(), arr[i], key + "[" + std::to_string(i) + "]");
    Entry e = read_one(r);
    if (std::string why = name_problem(e.name); !why.empty()) r.fail_at(r.at("name"), why);
    if (!names.insert(e.name).second) r.fail_at(r.at("name"), "duplicate " + what + " '" + e.name + "'");
    r.reject_unknown();
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<ParamSpec> read_params(const Reader& top) {
  // Ints first in ABI order is what the runner passes; keep the declared order within each kind.
  return read_named_entries<ParamSpec>(top, "params", "param", [](Reader& r) {
    ParamSpec p;
    p.name = r.str("name");
    std::string type = r.str("type");
    if (type != "int" && type != "float") r.fail_at(r.at("type"), "must be \"int\" or \"float\"");
    p.is_int = type == "int";
    if (r.has("min")) p.min = r.integer("min");
    if (r.has("max")) p.max = r.integer("max");
    if (p.min && p.max && *p.min > *p.max) r.fail("min must be <= max");
    if (r.has("default")) {
      if (p.is_int) r.fail_at(r.at("default"), "only float params take a default");
      p.default_value = r.num("default");
    }
    if (!p.is_int && (p.min || p.max)) r.fail("min/max apply to int params only");
    return p;
  });
}

std::vector<TensorSpec> read_tensors(const Reader& top, const std::set<std::string>& int_params) {
  if (top.array("tensors").empty()) top.fail_at("tensors", "needs at least one tensor");
  std::vector<TensorSpec> out = read_named_entries<TensorSpec>(top, "tensors", "tensor", [&](Reader& r) {
    TensorSpec t;
    t.name = r.str("name");
    std::string dt = r.str("dtype");
    auto parsed = parse_dtype(dt);
    if (!parsed) r.fail_at(r.at("dtype"), "unknown dtype '" + dt + "' (f32 f16 bf16 f64 i32 i64 i8 u8)");
    t.dtype = *parsed;
    const json& shape = r.array("shape");
    if (shape.empty()) r.fail_at(r.at("shape"), "must have at least one dimension");
    for (size_t d = 0; d < shape.size(); ++d)
      t.shape.push_back(parse_expr(r, r.at("shape") + "[" + std::to_string(d) + "]", shape[d], int_params));
    std::string role = r.str("role");
    if (role == "input") t.role = Role::Input;
    else if (role == "output") t.role = Role::Output;
    else if (role == "inout") t.role = Role::InOut;
    else r.fail_at(r.at("role"), "unknown role '" + role + "' (input, output, inout)");
    if (t.reads()) {
      if (!r.has("dist")) r.fail_at(r.at("dist"), "missing (inputs need a distribution)");
      t.dist = read_distribution(r, t.dtype, int_params);
    } else if (r.has("dist")) {
      r.fail_at(r.at("dist"), "outputs take no distribution");
    }
    if (r.has("tol")) {
      if (!t.writes()) r.fail_at(r.at("tol"), "inputs take no tolerance");
      t.tol = read_tolerance(r, "tol");
    } else {
      t.tol.kind = Tolerance::AbsRel;
      t.tol.atol = -1;  // marker: take the task's default below
    }
    return t;
  });
  bool any_output = false;
  for (const auto& t : out) any_output |= t.writes();
  if (!any_output) top.fail_at("tensors", "needs at least one output or inout tensor");
  return out;
}

std::map<std::string, double> config_values(const Reader& r, const json& j, const std::string& where) {
  if (!j.is_object()) r.fail_at(where, "a configuration must be an object of param values");
  std::map<std::string, double> v;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number()) r.fail_at(where + "." + it.key(), "must be a number");
    v[it.key()] = it.value().get<double>();
  }
  return v;
}

void validate_config_shapes(const TaskSpec& t, const Config& c, const std::string& where) {
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const auto& ts = t.tensors[i];
    try {
      for (int64_t d : t.shape_of(ts, c))
        if (d < 1)
          throw SpecError(t.file.string() + ": " + where + ": tensor '" + ts.name + "' gets a dimension of " +
                          std::to_string(d) + " (every dimension must be >= 1)");
      t.numel(ts, c);
    } catch (const ExprError& e) {
      throw SpecError(t.file.string() + ": " + where + ": tensor '" + ts.name + "': " + e.what());
    }
  }
  for (const auto& ts : t.tensors) {
    if (!ts.dist || (!ts.dist->low_expr && !ts.dist->high_expr)) continue;
    try {
      Distribution d = ts.dist->at(c.bindings);
      if (d.a > d.b)
        throw SpecError(t.file.string() + ": " + where + ": tensor '" + ts.name + "': int_range low " +
                        std::to_string(static_cast<int64_t>(d.a)) + " > high " + std::to_string(static_cast<int64_t>(d.b)));
    } catch (const ExprError& e) {
      throw SpecError(t.file.string() + ": " + where + ": tensor '" + ts.name + "': dist: " + e.what());
    }
  }
  try {
    if (t.cost_bytes.eval_double(c.bindings) < 0 || t.cost_flops.eval_double(c.bindings) < 0)
      throw SpecError(t.file.string() + ": " + where + ": cost model evaluates to a negative value");
  } catch (const ExprError& e) {
    throw SpecError(t.file.string() + ": " + where + ": cost: " + e.what());
  }
}

std::vector<Config> read_config_list(const Reader& r, const TaskSpec& t, const std::string& key) {
  std::vector<Config> out;
  const json& arr = r.array(key);
  for (size_t i = 0; i < arr.size(); ++i) {
    std::string where = r.at(key) + "[" + std::to_string(i) + "]";
    Config c = make_config(t, config_values(r, arr[i], where), key + "[" + std::to_string(i) + "]", where);
    validate_config_shapes(t, c, where);
    out.push_back(std::move(c));
  }
  return out;
}

FuzzDomain read_fuzz(const Reader& parent, const TaskSpec& t, const std::set<std::string>& int_params) {
  Reader r(parent.file(), parent.raw("fuzz"), parent.at("fuzz"));
  FuzzDomain f;
  f.count = static_cast<int>(r.integer("count"));
  if (f.count < 0 || f.count > 1000) r.fail_at(r.at("count"), "must be between 0 and 1000");
  Reader ranges(r.file(), r.raw("ranges"), r.at("ranges"));
  const json& rj = r.raw("ranges");
  for (auto it = rj.begin(); it != rj.end(); ++it) {
    std::string field = ranges.at(it.key());
    if (!int_params.count(it.key())) r.fail_at(field, "not an int param");
    const json& v = it.value();
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
      r.fail_at(field, "must be [low, high] integers");
    int64_t lo = v[0].get<int64_t>(), hi = v[1].get<int64_t>();
    if (lo < 1 || lo > hi) r.fail_at(field, "needs 1 <= low <= high");
    for (const auto& p : t.params)
      if (p.name == it.key() && ((p.min && lo < *p.min) || (p.max && hi > *p.max)))
        r.fail_at(field, "range leaves the param's min/max");
    f.ranges[it.key()] = {lo, hi};
  }
  if (r.has("require")) {
    const json& req = r.array("require");
    for (size_t i = 0; i < req.size(); ++i)
      f.require.push_back(parse_expr(r, r.at("require") + "[" + std::to_string(i) + "]", req[i], int_params));
  }
  r.reject_unknown();
  return f;
}

json parse_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw SpecError(file.string() + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // Turn the byte offset into line:column, which is what an editor shows.
    size_t line = 1, col = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') line++, col = 1;
      else col++;
    }
    throw SpecError(file.string() + ":" + std::to_string(line) + ":" + std::to_string(col) +
                    ": invalid JSON: " + e.what());
  }
}

}  // namespace

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
  json j = parse_file(task_file);
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

std::vector<std::string> string_list(const Reader& r, const std::string& key, bool allow_numbers) {
  std::vector<std::string> out;
  const json& arr = r.array(key);
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string field = r.at(key) + "[" + std::to_string(i) + "]";
    if (arr[i].is_string()) out.push_back(arr[i].get<std::string>());
    else if (allow_numbers && arr[i].is_number()) out.push_back(arr[i].dump());
    else r.fail_at(field, allow_numbers ? "must be a string (an expression of the params) or a number" : "must be a string");
  }
  return out;
}

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

bool is_dotted_name(const std::string& s) {
  static const std::regex name(R"([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)");
  return std::regex_match(s, name);
}

std::string nonempty(const Reader& r, const std::string& key) {
  std::string v = r.str(key);
  if (v.empty()) r.fail_at(r.at(key), "must not be empty");
  return v;
}

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

TaskSpec load_task(const std::filesystem::path& file, bool expect_dir_names) {
  json j = parse_file(file);
  const std::string fname = file.string();
  Reader top(fname, j, "");
  TaskSpec t;
  t.file = file;
  t.dir = file.parent_path();
  int64_t schema = top.integer("schema");
  // A public spec (what an agent's workspace holds) has no unseen configurations or fuzz
  // domain, and lives outside the task tree.
  const bool is_public = top.boolean_or("public", false);
  if (is_public) expect_dir_names = false;
  if (schema != 1) top.fail_at("schema", "unsupported schema version " + std::to_string(schema) + " (this harness reads 1)");
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
  t.params = read_params(top);
  std::set<std::string> int_params;
  for (const auto& p : t.params)
    if (p.is_int) int_params.insert(p.name);
  t.tensors = read_tensors(top, int_params);
  {
    bool any_default_needed = false;
    for (const auto& ts : t.tensors) any_default_needed |= ts.writes() && ts.tol.atol < 0;
    if (top.has("tolerance")) t.default_tol = read_tolerance(top, "tolerance");
    else if (any_default_needed) top.fail_at("tolerance", "missing (an output has no tol of its own)");
    for (auto& ts : t.tensors) {
      if (ts.writes() && ts.tol.atol < 0) ts.tol = t.default_tol;
      if (ts.writes() && !dtype_is_float(ts.dtype)) ts.tol.kind = Tolerance::Exact;
    }
  }
  {
    Reader cost(fname, top.raw("cost"), "cost");
    t.cost_bytes = parse_expr(cost, "cost.bytes", cost.raw("bytes"), int_params);
    t.cost_flops = parse_expr(cost, "cost.flops", cost.raw("flops"), int_params);
    t.cost_compute = cost.str_or("compute", "fp32");
    if (t.cost_compute != "fp32" && t.cost_compute != "tensor")
      cost.fail_at("cost.compute", "must be \"fp32\" or \"tensor\"");
    cost.reject_unknown();
  }
  t.candidate = top.str_or("candidate", "kernel.hip");
  if (t.candidate.find('/') != std::string::npos || t.candidate.empty())
    top.fail_at("candidate", "must be a plain file name");
  if (top.has("reference")) t.reference = read_reference(top, t, is_public);
  {
    Reader configs(fname, top.raw("configs"), "configs");
    t.seen = read_config_list(configs, t, "seen");
    if (t.seen.empty()) configs.fail_at("configs.seen", "needs at least one configuration");
    if (!is_public || configs.has("unseen")) t.unseen = read_config_list(configs, t, "unseen");
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
      t.fuzz = read_fuzz(configs, t, int_params);
    }
    configs.reject_unknown();
  }
  // Whether a suite's tasks must have a binding is its descriptor's to say (cmake/ArenaTasks.cmake).
  if (top.has("torch")) t.torch = read_torch(top, t);
  if (top.has("package")) t.package = read_package(top);
  if (top.has("workload")) t.workload = read_workload(top);
  if (top.has("at_limit")) t.at_limit = read_at_limit(top);
  top.reject_unknown();
  return t;
}

}  // namespace arena

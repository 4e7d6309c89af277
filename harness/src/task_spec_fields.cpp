// task.json's params, tensors (with their input distributions and tolerances), configurations
// and fuzz domain (task_spec_read.h).
#include <cctype>
#include <set>

#include "task_spec_read.h"

namespace arena::spec_read {

namespace {

// An input tensor's "dist": normal, uniform, or int_range (integer dtypes only) whose bounds
// may be expressions of the int params.
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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace arena::spec_read

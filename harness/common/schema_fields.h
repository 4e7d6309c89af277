// Reading and writing the result schema's structs (result_schema.h, docs/DESIGN.md "Results")
// from one list of their fields. Each struct has a static fields(self, visit) that names every
// field once, saying how it is read (required or optional) and written (always, or only when
// it holds something); to_json walks that list with a FieldWriter, from_json with a
// FieldReader, so a new field is added in one place and both directions agree.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

// Raised when a file breaks the schema; the reader adds which file.
struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace schema_detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class T>
void read_value(const nlohmann::json& v, const char* name, T& out) {
  try {
    v.get_to(out);
  } catch (const nlohmann::json::exception& e) {
    throw SchemaError(std::string("key '") + name + "' has the wrong type (" + v.type_name() + ")");
  } catch (const SchemaError& e) {
    throw SchemaError(std::string("key '") + name + "': " + e.what());
  }
}

// A key the file must hold (null counts as absent).
template <class T>
void read_required(const nlohmann::json& j, const char* name, T& out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) throw SchemaError(std::string("missing required key '") + name + "'");
  read_value(*it, name, out);
}

// A key the file may leave out or set to null; `out` keeps its default then (NaN for numbers).
template <class T>
void read_optional(const nlohmann::json& j, const char* name, T& out) {
  auto it = j.find(name);
  if (it != j.end() && !it->is_null()) read_value(*it, name, out);
}

template <class T>
void read_optional(const nlohmann::json& j, const char* name, std::optional<T>& out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return;
  T v{};
  read_value(*it, name, v);
  out = std::move(v);
}

// Free-form JSON (trials, workers, confinement...) is taken as the file has it, null included.
inline void read_optional(const nlohmann::json& j, const char* name, nlohmann::json& out) {
  auto it = j.find(name);
  if (it != j.end()) out = *it;
}

// A map of numbers where null stands for NaN (how JSON writes a statistic that is not a number).
inline void read_numbers(const nlohmann::json& j, const char* name, std::map<std::string, double>& out, bool need) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) {
    if (need) throw SchemaError(std::string("missing required key '") + name + "'");
    return;
  }
  if (!it->is_object()) throw SchemaError(std::string("key '") + name + "' is not an object");
  for (const auto& [k, v] : it->items()) {
    if (!v.is_null() && !v.is_number())
      throw SchemaError(std::string("key '") + name + "." + k + "' is not a number (" + v.type_name() + ")");
    out[k] = v.is_null() ? kNaN : v.get<double>();
  }
}

// An enum the files spell by name: its names in declaration order, what it is called in a
// message, and what a value outside the list prints as.
template <class E, size_t N>
struct EnumNames {
  const char* what;
  const char* unknown;
  std::pair<E, const char*> names[N];

  constexpr const char* name(E v) const {
    for (const auto& [e, spelled] : names)
      if (e == v) return spelled;
    return unknown;
  }

  E value(const std::string& s) const {
    std::string known;
    for (size_t i = 0; i < N; ++i) {
      if (s == names[i].second) return names[i].first;
      known += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].second;
    }
    throw SchemaError(std::string("unknown ") + what + " '" + s + "' (" + known + ")");
  }
};

// Whether a field written "when set" holds something: a non-empty string, list or map, a
// number that is not NaN, an engaged optional, JSON that is not null.
inline bool is_set(const std::string& v) { return !v.empty(); }
inline bool is_set(double v) { return !std::isnan(v); }
inline bool is_set(const nlohmann::json& v) { return !v.is_null(); }
template <class T>
bool is_set(const std::vector<T>& v) { return !v.empty(); }
template <class K, class V>
bool is_set(const std::map<K, V>& v) { return !v.empty(); }

// Whether the file must hold a key, where that depends on the struct (field()).
enum class Need { Required, Optional };

// The visit that writes a struct into a JSON object.
class FieldWriter {
 public:
  explicit FieldWriter(nlohmann::json& j) : j_(j) {}
  template <class T>
  void required(const char* key, const T& v) { j_[key] = v; }
  template <class T>
  void optional(const char* key, const T& v) { j_[key] = v; }
  template <class T>
  void field(const char* key, const T& v, Need) { j_[key] = v; }
  template <class T>
  void when_set(const char* key, const T& v) {
    if (is_set(v)) j_[key] = v;
  }
  template <class T>
  void when_set(const char* key, const std::optional<T>& v) {
    if (v) j_[key] = *v;
  }
  // A map of numbers; NaN is written null (read_numbers reads it back as NaN).
  void numbers(const char* key, const std::map<std::string, double>& v, Need) { j_[key] = v; }
  // A struct whose keys stand at this level (a result's header).
  template <class T>
  void flat(const T& part) { j_.update(nlohmann::json(part)); }
  template <class T>
  void flat_when_set(const std::optional<T>& part, const char* /*marker*/) {
    if (part) flat(*part);
  }

 private:
  nlohmann::json& j_;
};

// The visit that reads a struct from a JSON object, naming the key that is missing or wrong.
class FieldReader {
 public:
  explicit FieldReader(const nlohmann::json& j) : j_(j) {}
  template <class T>
  void required(const char* key, T& v) { read_required(j_, key, v); }
  template <class T>
  void optional(const char* key, T& v) { read_optional(j_, key, v); }
  template <class T>
  void field(const char* key, T& v, Need need) {
    if (need == Need::Required) read_required(j_, key, v);
    else read_optional(j_, key, v);
  }
  template <class T>
  void when_set(const char* key, T& v) { read_optional(j_, key, v); }
  void numbers(const char* key, std::map<std::string, double>& v, Need need) {
    read_numbers(j_, key, v, need == Need::Required);
  }
  template <class T>
  void flat(T& part) { from_json(j_, part); }
  // Present when the file holds `marker`, one of the part's own keys.
  template <class T>
  void flat_when_set(std::optional<T>& part, const char* marker) {
    if (j_.contains(marker)) part = j_.get<T>();
  }

 private:
  const nlohmann::json& j_;
};

template <class T, class = void>
struct HasFields : std::false_type {};
template <class T>
struct HasFields<T, std::void_t<decltype(T::fields(std::declval<const T&>(), std::declval<FieldWriter&>()))>>
    : std::true_type {};

template <class T>
void write_fields(nlohmann::json& j, const T& v) {
  j = nlohmann::json::object();
  FieldWriter w(j);
  T::fields(v, w);
}

template <class T>
void read_fields(const nlohmann::json& j, T& v) {
  FieldReader r(j);
  T::fields(v, r);
}

}  // namespace schema_detail

// Every struct with a field list is written and read through it; a struct that checks more
// (the header's version, a finished result's counts) has its own to_json / from_json, which
// overload resolution prefers to these.
template <class T, std::enable_if_t<schema_detail::HasFields<T>::value, int> = 0>
void to_json(nlohmann::json& j, const T& v) {
  schema_detail::write_fields(j, v);
}

template <class T, std::enable_if_t<schema_detail::HasFields<T>::value, int> = 0>
void from_json(const nlohmann::json& j, T& v) {
  schema_detail::read_fields(j, v);
}

}  // namespace arena

// ARENA_EACH_FIELD(visit, self, a, b, c) is visit("a", self.a), visit("b", self.b),
// visit("c", self.c): the key in the file is the member's own name, spelled once. (It takes up
// to 85 members per call; a longer list fails to compile.)
#define ARENA_EACH_FIELD(visit, self, ...) \
  __VA_OPT__(ARENA_FIELDS_EXPAND_(ARENA_FIELDS_ONE_(visit, self, __VA_ARGS__)))
#define ARENA_FIELDS_ONE_(visit, self, member, ...) \
  visit(#member, self.member) __VA_OPT__(, ARENA_FIELDS_AGAIN_ ARENA_FIELDS_PARENS_(visit, self, __VA_ARGS__))
#define ARENA_FIELDS_AGAIN_() ARENA_FIELDS_ONE_
#define ARENA_FIELDS_PARENS_ ()
#define ARENA_FIELDS_EXPAND_(...) \
  ARENA_FIELDS_EXPAND3_(ARENA_FIELDS_EXPAND3_(ARENA_FIELDS_EXPAND3_(ARENA_FIELDS_EXPAND3_(__VA_ARGS__))))
#define ARENA_FIELDS_EXPAND3_(...) \
  ARENA_FIELDS_EXPAND2_(ARENA_FIELDS_EXPAND2_(ARENA_FIELDS_EXPAND2_(ARENA_FIELDS_EXPAND2_(__VA_ARGS__))))
#define ARENA_FIELDS_EXPAND2_(...) \
  ARENA_FIELDS_EXPAND1_(ARENA_FIELDS_EXPAND1_(ARENA_FIELDS_EXPAND1_(ARENA_FIELDS_EXPAND1_(__VA_ARGS__))))
#define ARENA_FIELDS_EXPAND1_(...) __VA_ARGS__

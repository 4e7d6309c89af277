#include "worker_protocol.h"

#include <stdexcept>

namespace arena {

using json = nlohmann::json;

namespace {

json ref_json(const TensorRef& t) {
  return {{"buffer", t.buffer}, {"offset", t.offset}, {"bytes", t.bytes}, {"numel", t.numel},
          {"dtype", dtype_name(t.dtype)}, {"reads", t.reads}, {"writes", t.writes},
          {"dist", t.dist_kind}, {"a", t.a}, {"b", t.b}};
}

TensorRef ref_from(const json& j, const std::string& where) {
  TensorRef t;
  try {
    t.buffer = j.at("buffer").get<uint64_t>();
    t.offset = j.at("offset").get<uint64_t>();
    t.bytes = j.at("bytes").get<uint64_t>();
    t.numel = j.at("numel").get<int64_t>();
    auto d = parse_dtype(j.at("dtype").get<std::string>());
    if (!d) throw std::invalid_argument("unknown dtype");
    t.dtype = *d;
    t.reads = j.at("reads").get<bool>();
    t.writes = j.at("writes").get<bool>();
    t.dist_kind = j.at("dist").get<int>();
    t.a = j.at("a").get<double>();
    t.b = j.at("b").get<double>();
  } catch (const std::exception& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
  if (t.dist_kind < -1 || t.dist_kind > 2) throw std::invalid_argument(where + ": unknown distribution");
  if (static_cast<uint64_t>(t.numel) * dtype_size(t.dtype) > t.bytes)
    throw std::invalid_argument(where + ": " + std::to_string(t.numel) + " elements do not fit in " +
                                std::to_string(t.bytes) + " bytes");
  return t;
}

}  // namespace

json binding_to_json(const BindingSpec& b) {
  json tensors = json::array();
  for (const auto& t : b.tensors) tensors.push_back(ref_json(t));
  return {{"tensors", tensors},
          {"workspace", b.has_workspace ? ref_json(b.workspace) : json(nullptr)},
          {"ints", b.ints},
          {"floats", b.floats}};
}

BindingSpec binding_from_json(const json& j) {
  BindingSpec b;
  const json& ts = j.at("tensors");
  for (size_t i = 0; i < ts.size(); ++i) b.tensors.push_back(ref_from(ts[i], "binding.tensors[" + std::to_string(i) + "]"));
  if (j.contains("workspace") && !j["workspace"].is_null()) {
    b.has_workspace = true;
    b.workspace = ref_from(j["workspace"], "binding.workspace");
  }
  b.ints = j.at("ints").get<std::vector<int64_t>>();
  b.floats = j.at("floats").get<std::vector<double>>();
  return b;
}

uint64_t sample_key(uint64_t round_key, uint32_t sample, uint32_t tensor) {
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  return mix(round_key ^ mix((static_cast<uint64_t>(sample) << 20) ^ tensor));
}

}  // namespace arena

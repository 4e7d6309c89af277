#include "recipe.h"

#include <cstring>
#include <stdexcept>

namespace arena {

using json = nlohmann::json;

std::string to_hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

std::vector<uint8_t> from_hex(const std::string& s) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("not a hex digit: '" + std::string(1, c) + "'");
  };
  if (s.size() % 2) throw std::invalid_argument("hex string of odd length");
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return out;
}

std::vector<std::string> Recipe::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& s : steps)
    if (s.kind == RecipeStep::Kernel) names.push_back(s.kernel.name);
  return names;
}

namespace {

json dims(const uint32_t d[3]) { return json::array({d[0], d[1], d[2]}); }

void read_dims(const json& j, uint32_t d[3], const std::string& where) {
  if (!j.is_array() || j.size() != 3) throw std::invalid_argument(where + ": expected three numbers");
  for (int i = 0; i < 3; ++i) d[i] = j[i].get<uint32_t>();
}

json kernel_json(const KernelStep& k) {
  json rel = json::array();
  for (const auto& r : k.relocations) rel.push_back({r.offset, r.buffer, r.delta});
  return {{"kind", "kernel"},       {"name", k.name},
          {"image", k.image},       {"grid", dims(k.grid)},
          {"block", dims(k.block)}, {"shared_bytes", k.shared_bytes},
          {"cluster", dims(k.cluster)}, {"cooperative", k.cooperative},
          {"max_dynamic_shared", k.max_dynamic_shared}, {"carveout", k.carveout},
          {"params", to_hex(k.params.data(), k.params.size())},
          {"param_offsets", k.param_offsets}, {"param_sizes", k.param_sizes},
          {"relocations", rel}};
}

void check_buffer(int32_t b, int num_buffers, const std::string& where) {
  if (b < 0 || b >= num_buffers)
    throw std::invalid_argument(where + ": buffer " + std::to_string(b) + " is not one of the " +
                                std::to_string(num_buffers) + " lent buffers");
}

KernelStep kernel_from(const json& j, size_t num_images, int num_buffers, const std::string& where) {
  KernelStep k;
  k.name = j.at("name").get<std::string>();
  if (k.name.empty()) throw std::invalid_argument(where + ".name: empty");
  k.image = j.value("image", -1);
  if (k.image < -1 || k.image >= static_cast<int>(num_images))
    throw std::invalid_argument(where + ".image: " + std::to_string(k.image) + " is not one of the " +
                                std::to_string(num_images) + " images sent");
  read_dims(j.at("grid"), k.grid, where + ".grid");
  read_dims(j.at("block"), k.block, where + ".block");
  read_dims(j.at("cluster"), k.cluster, where + ".cluster");
  k.shared_bytes = j.at("shared_bytes").get<uint32_t>();
  k.cooperative = j.value("cooperative", false);
  k.max_dynamic_shared = j.value("max_dynamic_shared", 0);
  k.carveout = j.value("carveout", -1);
  k.params = from_hex(j.at("params").get<std::string>());
  k.param_offsets = j.at("param_offsets").get<std::vector<uint32_t>>();
  k.param_sizes = j.at("param_sizes").get<std::vector<uint32_t>>();
  if (k.param_offsets.size() != k.param_sizes.size())
    throw std::invalid_argument(where + ": param_offsets and param_sizes differ in length");
  for (size_t i = 0; i < k.param_offsets.size(); ++i)
    if (uint64_t{k.param_offsets[i]} + k.param_sizes[i] > k.params.size())
      throw std::invalid_argument(where + ": parameter " + std::to_string(i) + " lies outside the parameter buffer");
  for (const auto& r : j.at("relocations")) {
    Relocation x{r.at(0).get<uint32_t>(), r.at(1).get<int32_t>(), r.at(2).get<int64_t>()};
    if (uint64_t{x.offset} + 8 > k.params.size())
      throw std::invalid_argument(where + ": a relocation at byte " + std::to_string(x.offset) +
                                  " lies outside the parameter buffer");
    check_buffer(x.buffer, num_buffers, where + ".relocations");
    k.relocations.push_back(x);
  }
  return k;
}

}  // namespace

json recipe_to_json(const Recipe& r) {
  json steps = json::array();
  for (const auto& s : r.steps) {
    if (s.kind == RecipeStep::Kernel) {
      steps.push_back(kernel_json(s.kernel));
    } else if (s.kind == RecipeStep::Memset) {
      const MemsetStep& m = s.memset;
      steps.push_back({{"kind", "memset"}, {"buffer", m.buffer}, {"delta", m.delta}, {"value", m.value},
                       {"element_size", m.element_size}, {"width", m.width}, {"height", m.height},
                       {"pitch", m.pitch}});
    } else {
      const CopyStep& c = s.copy;
      steps.push_back({{"kind", "copy"}, {"src_buffer", c.src_buffer}, {"src_delta", c.src_delta},
                       {"dst_buffer", c.dst_buffer}, {"dst_delta", c.dst_delta}, {"bytes", c.bytes}});
    }
  }
  json out = {{"steps", steps}, {"images", r.images.size()}};
  if (!r.builds.empty()) out["builds"] = r.builds;
  return out;
}

Recipe recipe_from_json(const json& j, std::vector<std::vector<uint8_t>> images, int num_buffers) {
  Recipe r;
  if (j.value("images", size_t{0}) != images.size())
    throw std::invalid_argument("recipe: " + std::to_string(j.value("images", size_t{0})) + " image(s) announced, " +
                                std::to_string(images.size()) + " sent");
  r.images = std::move(images);
  const json& steps = j.at("steps");
  for (size_t i = 0; i < steps.size(); ++i) {
    const json& s = steps[i];
    const std::string where = "recipe.steps[" + std::to_string(i) + "]";
    const std::string kind = s.at("kind").get<std::string>();
    RecipeStep step;
    if (kind == "kernel") {
      step.kind = RecipeStep::Kernel;
      step.kernel = kernel_from(s, r.images.size(), num_buffers, where);
    } else if (kind == "memset") {
      step.kind = RecipeStep::Memset;
      MemsetStep& m = step.memset;
      m.buffer = s.at("buffer").get<int32_t>();
      check_buffer(m.buffer, num_buffers, where);
      m.delta = s.at("delta").get<int64_t>();
      m.value = s.at("value").get<uint32_t>();
      m.element_size = s.at("element_size").get<uint32_t>();
      if (m.element_size != 1 && m.element_size != 2 && m.element_size != 4)
        throw std::invalid_argument(where + ".element_size: must be 1, 2 or 4");
      m.width = s.at("width").get<uint64_t>();
      m.height = s.at("height").get<uint64_t>();
      m.pitch = s.at("pitch").get<uint64_t>();
    } else if (kind == "copy") {
      step.kind = RecipeStep::Copy;
      CopyStep& c = step.copy;
      c.src_buffer = s.at("src_buffer").get<int32_t>();
      c.dst_buffer = s.at("dst_buffer").get<int32_t>();
      check_buffer(c.src_buffer, num_buffers, where);
      check_buffer(c.dst_buffer, num_buffers, where);
      c.src_delta = s.at("src_delta").get<int64_t>();
      c.dst_delta = s.at("dst_delta").get<int64_t>();
      c.bytes = s.at("bytes").get<uint64_t>();
    } else {
      throw std::invalid_argument(where + ".kind: unknown step kind '" + kind + "'");
    }
    r.steps.push_back(std::move(step));
  }
  return r;
}

std::vector<uint8_t> relocated_params(const KernelStep& k, const std::vector<uint64_t>& buffers) {
  std::vector<uint8_t> p = k.params;
  for (const auto& r : k.relocations) {
    if (r.buffer < 0 || static_cast<size_t>(r.buffer) >= buffers.size())
      throw std::invalid_argument("relocation to buffer " + std::to_string(r.buffer) + " of " +
                                  std::to_string(buffers.size()));
    const uint64_t v = buffers[r.buffer] + static_cast<uint64_t>(r.delta);
    std::memcpy(p.data() + r.offset, &v, sizeof v);
  }
  return p;
}

}  // namespace arena

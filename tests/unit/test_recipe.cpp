// Recipes (harness/src/recipe.h): what a recorder sends survives the wire, a malformed one is
// refused naming the field, and relocation puts each pointer into the executor's buffers.
#include <gtest/gtest.h>

#include <cstring>

#include "recipe.h"

using namespace arena;

namespace {

Recipe sample_recipe() {
  Recipe r;
  RecipeStep k;
  k.kind = RecipeStep::Kernel;
  k.kernel.name = "_Z4geluPK6__halfPS_l";
  k.kernel.grid[0] = 1024;
  k.kernel.block[0] = 256;
  k.kernel.params.assign(24, 0);
  k.kernel.param_offsets = {0, 8, 16};
  k.kernel.param_sizes = {8, 8, 8};
  k.kernel.relocations = {{0, 0, 0}, {8, 1, 64}};
  const int64_t n = 4096;
  std::memcpy(k.kernel.params.data() + 16, &n, 8);
  r.steps.push_back(k);
  RecipeStep m;
  m.kind = RecipeStep::Memset;
  m.memset = {2, 0, 0, 4, 16, 1, 0};
  r.steps.push_back(m);
  RecipeStep c;
  c.kind = RecipeStep::Copy;
  c.copy = {0, 1, 0, 128, 256};
  r.steps.push_back(c);
  r.images.push_back({1, 2, 3});
  r.steps[0].kernel.image = 0;
  return r;
}

}  // namespace

TEST(Recipe, SurvivesTheWire) {
  Recipe r = sample_recipe();
  Recipe back = recipe_from_json(nlohmann::json::parse(recipe_to_json(r).dump()), r.images, 3);
  ASSERT_EQ(back.steps.size(), 3u);
  EXPECT_EQ(back.steps[0].kernel.name, r.steps[0].kernel.name);
  EXPECT_EQ(back.steps[0].kernel.params, r.steps[0].kernel.params);
  EXPECT_EQ(back.steps[0].kernel.grid[0], 1024u);
  ASSERT_EQ(back.steps[0].kernel.relocations.size(), 2u);
  EXPECT_EQ(back.steps[0].kernel.relocations[1].delta, 64);
  EXPECT_EQ(back.steps[1].memset.buffer, 2);
  EXPECT_EQ(back.steps[2].copy.dst_delta, 128);
  EXPECT_EQ(back.kernel_names(), std::vector<std::string>{"_Z4geluPK6__halfPS_l"});
}

TEST(Recipe, RelocationWritesTheExecutorsAddresses) {
  Recipe r = sample_recipe();
  auto blob = relocated_params(r.steps[0].kernel, {0x7000000000ull, 0x7100000000ull, 0x7200000000ull});
  uint64_t a = 0, b = 0;
  int64_t n = 0;
  std::memcpy(&a, blob.data(), 8);
  std::memcpy(&b, blob.data() + 8, 8);
  std::memcpy(&n, blob.data() + 16, 8);
  EXPECT_EQ(a, 0x7000000000ull);
  EXPECT_EQ(b, 0x7100000040ull);
  EXPECT_EQ(n, 4096);  // plain values are left alone
  EXPECT_THROW(relocated_params(r.steps[0].kernel, {0x1}), std::invalid_argument);
}

TEST(Recipe, MalformedRecipesAreRefusedNamingTheField) {
  Recipe r = sample_recipe();
  nlohmann::json j = recipe_to_json(r);
  auto refused = [&](nlohmann::json bad, int buffers, const std::string& why) {
    try {
      recipe_from_json(bad, r.images, buffers);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  nlohmann::json outside = j;
  outside["steps"][0]["relocations"][0][0] = 20;  // 8 bytes at 20 run past 24
  refused(outside, 3, "outside the parameter buffer");
  refused(j, 2, "not one of the 2 lent buffers");
  nlohmann::json image = j;
  image["steps"][0]["image"] = 5;
  refused(image, 3, "steps[0].image");
  nlohmann::json kind = j;
  kind["steps"][1]["kind"] = "host_callback";
  refused(kind, 3, "unknown step kind 'host_callback'");
  nlohmann::json count = j;
  count["images"] = 2;
  refused(count, 3, "2 image(s) announced, 1 sent");
  nlohmann::json hex = j;
  hex["steps"][0]["params"] = "zz";
  refused(hex, 3, "not a hex digit");
}

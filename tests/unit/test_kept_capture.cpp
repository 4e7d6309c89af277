// How the judge keeps a timed sample (harness/src/kept_capture.h): which tensors it redraws,
// copies and compares, with which keys, and its check of the executor's pause.
#include <gtest/gtest.h>

#include "kept_capture.h"

using namespace arena;

namespace {

TensorRef tensor(bool reads, bool writes, int dist_kind = 0) {
  TensorRef t;
  t.buffer = 7;
  t.offset = 65536;
  t.bytes = 4096;
  t.numel = 2048;
  t.dtype = DType::F16;
  t.reads = reads;
  t.writes = writes;
  t.dist_kind = reads ? dist_kind : -1;
  t.a = 0;
  t.b = 2;
  return t;
}

BindingSpec binding(std::vector<TensorRef> tensors) {
  BindingSpec b;
  b.tensors = std::move(tensors);
  return b;
}

}  // namespace

TEST(KeptCapturePlan, InputsAreRedrawnWithTheExecutorsKeysAndCompared) {
  const uint64_t round_key = 0x1234567890ABCDEFull;
  auto plan = kept_capture_plan(binding({tensor(true, false), tensor(true, false, 2), tensor(false, true)}), round_key, 4);
  ASSERT_EQ(plan.size(), 3u);
  for (size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(plan[t].tensor, t);
    EXPECT_TRUE(plan[t].redraw);
    EXPECT_TRUE(plan[t].compare_input);
    EXPECT_FALSE(plan[t].copy_output);
    // The executor draws sample 4's tensor t with exactly this key (worker.cpp, round).
    EXPECT_EQ(plan[t].key, sample_key(round_key, 4, static_cast<uint32_t>(t)));
  }
  EXPECT_EQ(plan[1].ref.dist_kind, 2);
  EXPECT_NE(plan[0].key, plan[1].key);
  EXPECT_FALSE(plan[2].redraw);
  EXPECT_FALSE(plan[2].compare_input);
  EXPECT_TRUE(plan[2].copy_output);
}

TEST(KeptCapturePlan, AnInoutTensorIsRedrawnAndCopiedButNotCompared) {
  auto plan = kept_capture_plan(binding({tensor(true, true)}), 99, 0);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_TRUE(plan[0].redraw);
  EXPECT_TRUE(plan[0].copy_output);
  EXPECT_FALSE(plan[0].compare_input);  // it is meant to change
  EXPECT_EQ(plan[0].key, sample_key(99, 0, 0));
}

TEST(KeptCapturePlan, KeysDifferBySampleAndRound) {
  const BindingSpec b = binding({tensor(true, false), tensor(false, true)});
  EXPECT_NE(kept_capture_plan(b, 5, 0)[0].key, kept_capture_plan(b, 5, 1)[0].key);
  EXPECT_NE(kept_capture_plan(b, 5, 0)[0].key, kept_capture_plan(b, 6, 0)[0].key);
}

TEST(KeptCapturePlan, AReadTensorWithoutADistributionIsNamed) {
  try {
    kept_capture_plan(binding({tensor(false, true), tensor(true, false, -1)}), 1, 0);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 1 is read but has no device distribution"), std::string::npos)
        << e.what();
  }
}

TEST(KeptCapturePlan, ANegativeSampleIsRefused) {
  EXPECT_THROW(kept_capture_plan(binding({tensor(true, false)}), 1, -1), std::invalid_argument);
}

TEST(KeptPause, TheKeptSampleIsAcceptedOnce) {
  KeptPause p(6);
  EXPECT_EQ(p.accept(KeptPause::message(6)), 6);
  EXPECT_NO_THROW(p.finish(true));
  try {
    p.accept(KeptPause::message(6));
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("paused twice"), std::string::npos) << e.what();
  }
}

TEST(KeptPause, APauseAfterAnotherSampleIsRefused) {
  KeptPause p(2);
  try {
    p.accept(KeptPause::message(3));
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("after sample 3, not after the kept sample 2"), std::string::npos) << e.what();
  }
}

TEST(KeptPause, APauseInARoundThatKeepsNothingIsRefused) {
  KeptPause p(-1);
  EXPECT_THROW(p.accept(KeptPause::message(0)), std::runtime_error);
  EXPECT_NO_THROW(p.finish(true));
}

TEST(KeptPause, AnotherKindOfPauseIsRefused) {
  KeptPause p(0);
  EXPECT_THROW(p.accept(nlohmann::json{{"pause", "other"}, {"sample", 0}}), std::runtime_error);
}

TEST(KeptPause, ACompletedRoundThatNeverPausedFails) {
  KeptPause p(1);
  try {
    p.finish(true);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("without stopping after its kept sample 1"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(p.finish(false));  // a round that failed already says why
}

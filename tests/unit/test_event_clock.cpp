#include <gtest/gtest.h>

#include "event_clock.h"

using arena::EventOverhead;

TEST(EventOverhead, NoneBeforeAnAuditSample) {
  EventOverhead o;
  EXPECT_FALSE(o.value().has_value());
  o.add(10.0, -1.0);  // no kernel record came: nothing learned
  EXPECT_FALSE(o.value().has_value());
  EXPECT_EQ(o.count(), 0u);
}

TEST(EventOverhead, IsTheMedianOfEventLessSpan) {
  EventOverhead o;
  o.add(58.9, 56.5);   // 2.4
  o.add(16.4, 14.0);   // 2.4
  o.add(104.7, 102.2); // 2.5
  o.add(25.6, 23.3);   // 2.3
  ASSERT_TRUE(o.value().has_value());
  EXPECT_NEAR(*o.value(), 2.4, 1e-9);
  EXPECT_EQ(o.count(), 4u);
}

TEST(EventOverhead, OneOutlierDoesNotMoveIt) {
  EventOverhead o;
  for (int i = 0; i < 5; ++i) o.add(12.4, 10.0);
  o.add(500.0, 10.0);  // a preempted audit sample
  EXPECT_NEAR(*o.value(), 2.4, 1e-9);
}

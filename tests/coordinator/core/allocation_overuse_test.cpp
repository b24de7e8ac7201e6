#include "coordinator/core/allocation_overuse.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

Config titan_tiers() {
  Config c;
  c.allocation_overuse = {{100, Duration::days(30), std::nullopt}, {125, Duration::days(365), 1}};
  AccountConfig a;
  a.name = "proj";
  a.allocation = 1000;  // core-hours
  c.accounts.push_back(a);
  AccountConfig free;
  free.name = "free";
  c.accounts.push_back(free);
  return c;
}

TEST(AllocationOveruse, TierByPercentOfTheAllocationUsed) {
  const AllocationOveruse o(titan_tiers());
  ASSERT_TRUE(o.enabled());
  const double hour = 3600;
  EXPECT_DOUBLE_EQ(*o.percent_used("proj", 500 * hour), 50);
  EXPECT_FALSE(o.tier("proj", 999 * hour).has_value());
  EXPECT_EQ(o.tier("proj", 1000 * hour), 0u) << "100 % is the first tier";
  EXPECT_EQ(o.tier("proj", 1249 * hour), 0u);
  EXPECT_EQ(o.tier("proj", 1250 * hour), 1u) << "at 125 %: one running job";
  EXPECT_EQ(o.tier("proj", 9000 * hour), 1u);
  EXPECT_FALSE(o.percent_used("free", 1e12).has_value()) << "no allocation, no tier";
  EXPECT_FALSE(o.tier("unknown", 1e12).has_value());
}

TEST(AllocationOveruse, DisabledWithoutTiersOrAllocations) {
  Config c = titan_tiers();
  c.allocation_overuse.clear();
  EXPECT_FALSE(AllocationOveruse(c).enabled());
  Config d = titan_tiers();
  d.accounts.clear();
  EXPECT_FALSE(AllocationOveruse(d).enabled());
}

}  // namespace
}  // namespace fairway

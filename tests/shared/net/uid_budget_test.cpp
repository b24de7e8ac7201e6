// The per-uid bookkeeping of the coordinator's local router: connection slots and bytes
// held, root not limited, and users forgotten once they hold nothing.
#include "shared/net/uid_budget.h"

#include <gtest/gtest.h>

namespace fairway::net {
namespace {

TEST(UidBudgetTest, BytesAreBoundedPerUidAndReleased) {
  UidBudget b(2, 100);
  EXPECT_EQ(b.room(1000), 100u);
  b.charge(1000, 60);
  EXPECT_EQ(b.room(1000), 40u);
  EXPECT_EQ(b.room(1001), 100u);  // another user's budget is its own
  b.charge(1000, 40);
  EXPECT_EQ(b.room(1000), 0u);
  b.charge(1000, -100);
  EXPECT_EQ(b.held(1000), 0u);
  EXPECT_EQ(b.users(), 0u);
}

TEST(UidBudgetTest, ConnectionSlotsArePerUidAndRootIsNotLimited) {
  UidBudget b(2, 100);
  b.connected(1000);
  EXPECT_TRUE(b.may_connect(1000));
  b.connected(1000);
  EXPECT_FALSE(b.may_connect(1000));
  EXPECT_TRUE(b.may_connect(1001));
  b.disconnected(1000);
  EXPECT_TRUE(b.may_connect(1000));
  for (int i = 0; i < 5; ++i) b.connected(0);
  EXPECT_TRUE(b.may_connect(0));
  b.charge(0, 1000);
  EXPECT_EQ(b.room(0), UidBudget::kUnlimited);
  EXPECT_EQ(b.users(), 2u);
}

}  // namespace
}  // namespace fairway::net

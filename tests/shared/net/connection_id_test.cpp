// An agent's routing id: its name for the logs, then 128 fresh random bits.
#include "shared/net/connection_id.h"

#include <gtest/gtest.h>

#include <set>

namespace fairway::net {
namespace {

TEST(ConnectionId, NamesTheNodeAndIsNewEachTime) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    auto id = unguessable_routing_id("kb01");
    ASSERT_TRUE(id) << id.error().message;
    ASSERT_EQ(id->size(), 5u + 32u) << *id;
    EXPECT_TRUE(id->starts_with("kb01."));
    EXPECT_EQ(id->find_first_not_of("0123456789abcdef", 5), std::string::npos) << *id;
    EXPECT_TRUE(seen.insert(*id).second) << "repeated: " << *id;
  }
}

TEST(ConnectionId, FitsZeroMqsLimitAndNeverStartsWithItsReservedZeroByte) {
  auto long_name = unguessable_routing_id(std::string(1000, 'n'));
  ASSERT_TRUE(long_name);
  EXPECT_LE(long_name->size(), 255u);
  auto unnamed = unguessable_routing_id("");
  ASSERT_TRUE(unnamed);
  EXPECT_EQ(unnamed->front(), '.');
}

}  // namespace
}  // namespace fairway::net

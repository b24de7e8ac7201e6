// Where a job runs is a function of its allocation: its first node is the head (its batch
// script's), the others its members, all by name; a job holding nothing runs nowhere.
#include "coordinator/daemon/job_nodes.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

ClusterState three_nodes() {
  ClusterState c;
  for (const char* name : {"a", "b", "c"}) c.add_node(NodeTopology::uniform(name, 1, 2));
  EXPECT_TRUE(c.add_partition("batch", {"a", "b", "c"}));
  return c;
}

TEST(JobNodes, TheFirstNodeIsTheHeadAndTheOthersAreMembersInOrder) {
  const ClusterState cluster = three_nodes();
  Allocation a;
  a.nodes = {{NodeIndex(2), {0}, {}}, {NodeIndex(0), {1}, {}}, {NodeIndex(1), {0, 1}, {}}};
  EXPECT_EQ(head_node(a, cluster), "c");
  EXPECT_EQ(member_nodes(a, cluster), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(runs_on(a, NodeIndex(0)));
  EXPECT_TRUE(runs_on(a, NodeIndex(2)));
}

TEST(JobNodes, OneNodeIsAHeadWithoutMembersAndNothingIsNowhere) {
  const ClusterState cluster = three_nodes();
  Allocation one;
  one.nodes = {{NodeIndex(1), {0}, {}}};
  EXPECT_EQ(head_node(one, cluster), "b");
  EXPECT_TRUE(member_nodes(one, cluster).empty());
  EXPECT_FALSE(runs_on(one, NodeIndex(0)));
  const Allocation none;  // waiting, or back in the queue
  EXPECT_EQ(head_node(none, cluster), "");
  EXPECT_TRUE(member_nodes(none, cluster).empty());
  EXPECT_FALSE(runs_on(none, NodeIndex(1)));
}

}  // namespace
}  // namespace fairway::daemon

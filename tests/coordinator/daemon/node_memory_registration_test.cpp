// A node whose agent registers with less memory than the config declares is drained with
// the reason, as Slurm does below RealMemory: jobs placed on the declared memory could not
// run there. Synchronous, fake clock.
#include <gtest/gtest.h>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class NodeMemoryRegistration : public test_support::CoordinatorFixture {};

TEST_F(NodeMemoryRegistration, LessMemoryThanDeclaredDrainsTheNodeNamingBoth) {
  open("[[nodes]]\nnames = \"n[1-2]\"\nsockets = 1\ncores_per_socket = 4\nmemory_mb = 8000\n");
  ASSERT_FALSE(HasFatalFailure());
  CoordinatorService& svc = *service_;
  NodeTopology short_of_memory = NodeTopology::uniform("n1", 1, 4);
  short_of_memory.memory_mb = 6000;  // e.g. after agent.reserved_memory_mb
  NodeTopology as_declared = NodeTopology::uniform("n2", 1, 4);
  as_declared.memory_mb = 8192;
  register_node(short_of_memory);
  register_node(as_declared);
  const NodeEntry* n1 = svc.nodes().find("n1");
  const NodeEntry* n2 = svc.nodes().find("n2");
  ASSERT_NE(n1, nullptr);
  ASSERT_NE(n2, nullptr);
  EXPECT_TRUE(n1->drained);
  EXPECT_NE(n1->reason.find("6000 MiB, the config declares 4, 0 and 8000 MiB"), std::string::npos)
      << n1->reason;
  EXPECT_FALSE(n2->drained) << n2->reason;
}

}  // namespace
}  // namespace fairway::daemon

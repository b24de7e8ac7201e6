// A node whose agent registers with less memory than the config declares is drained with
// the reason, as Slurm does below RealMemory: jobs placed on the declared memory could not
// run there. Synchronous, fake clock.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"
#include "tests/support/test_authenticators.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

TEST(NodeMemoryRegistration, LessMemoryThanDeclaredDrainsTheNodeNamingBoth) {
  std::string tmpl = (fs::temp_directory_path() / "fw-mem-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  auto config = parse_config(
      "[[nodes]]\nnames = \"n[1-2]\"\nsockets = 1\ncores_per_socket = 4\nmemory_mb = 8000\n"
      "[coordinator]\nstate_dir = \"" +
          dir + "\"\n",
      "test");
  ASSERT_TRUE(config) << config.error().message;
  const Time now = Time::from_seconds(1'700'000'000);
  auto s = CoordinatorService::open(*config, now, std::make_unique<test_support::RootOnlyAuthenticator>());
  ASSERT_TRUE(s) << s.error().message;
  CoordinatorService& svc = **s;
  NodeTopology short_of_memory = NodeTopology::uniform("n1", 1, 4);
  short_of_memory.memory_mb = 6000;  // e.g. after agent.reserved_memory_mb
  NodeTopology as_declared = NodeTopology::uniform("n2", 1, 4);
  as_declared.memory_mb = 8192;
  svc.on_agent_frame("n1", wire::encode(wire::AgentRegister{"n1", "test", short_of_memory, {}, ""}), now,
                     "n1");
  svc.on_agent_frame("n2", wire::encode(wire::AgentRegister{"n2", "test", as_declared, {}, ""}), now, "n2");
  (void)svc.end_turn(now);
  const NodeEntry* n1 = svc.nodes().find("n1");
  const NodeEntry* n2 = svc.nodes().find("n2");
  ASSERT_NE(n1, nullptr);
  ASSERT_NE(n2, nullptr);
  EXPECT_TRUE(n1->drained);
  EXPECT_NE(n1->reason.find("6000 MiB, the config declares 4, 0 and 8000 MiB"), std::string::npos)
      << n1->reason;
  EXPECT_FALSE(n2->drained) << n2->reason;
  s->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fairway::daemon

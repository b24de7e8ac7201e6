// Security by default: without their CURVE keys neither daemon starts, and each names the
// key it lacks; only an explicit agent_auth = "none" opens the channel, with a warning.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

class KeysRequired : public Cluster {
 protected:
  bool logged(const std::string& path, const std::string& text) {
    return eventually([&] { return read_file(path).find(text) != std::string::npos; });
  }
};

TEST_F(KeysRequired, WithoutItsSecretKeyTheCoordinatorRefusesToStartNamingIt) {
  std::filesystem::remove(dir_ + "/keys/coordinator.key");
  start_coordinator();
  ASSERT_TRUE(logged(dir_ + "/coordinator.log", "startup_failed"));
  EXPECT_NE(read_file(dir_ + "/coordinator.log").find("coordinator.key"), std::string::npos);
}

TEST_F(KeysRequired, WithoutItsSecretKeyAnAgentRefusesToStartNamingIt) {
  start_agent("kb01", kebnekaise_xml(), dir_ + "/keys/absent.key");
  ASSERT_TRUE(logged(dir_ + "/agent-kb01.log", "startup_failed"));
  EXPECT_NE(read_file(dir_ + "/agent-kb01.log").find("absent.key"), std::string::npos);
}

TEST_F(KeysRequired, AnExplicitlyOpenChannelRunsJobsAndWarnsAtStart) {
  std::filesystem::remove(dir_ + "/keys/coordinator.key");
  std::filesystem::remove(dir_ + "/keys/coordinator.pub");
  write_config("", "agent_auth = \"none\"\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  EXPECT_TRUE(logged(dir_ + "/coordinator.log", "agents_unauthenticated"));
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
}

}  // namespace
}  // namespace fairway::integration

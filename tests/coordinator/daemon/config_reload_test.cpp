#include "coordinator/daemon/config_reload.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

TEST(ConfigReload, PolicyAppliesSocketsStateAndKeysWaitForARestart) {
  Config running;
  Config fresh;
  PartitionConfig long_jobs;
  long_jobs.name = "long";
  long_jobs.max_time = Duration::days(7);
  fresh.partitions.push_back(long_jobs);
  fresh.priority.age_per_minute = 7;
  fresh.security.private_data = true;
  fresh.coordinator.listen_clients = "ipc:///elsewhere.sock";
  fresh.coordinator.state_dir = "/srv/fairway";
  fresh.security.agent_keys_dir = "/srv/keys";
  const ReloadPlan plan = plan_reload(running, fresh);
  EXPECT_EQ(plan.apply.partitions.size(), 1u);
  EXPECT_EQ(plan.apply.priority.age_per_minute, 7);
  EXPECT_TRUE(plan.apply.security.private_data);
  EXPECT_EQ(plan.apply.coordinator.listen_clients, running.coordinator.listen_clients);
  EXPECT_EQ(plan.apply.coordinator.state_dir, running.coordinator.state_dir);
  EXPECT_EQ(plan.apply.security.agent_keys_dir, running.security.agent_keys_dir);
  EXPECT_EQ(plan.needs_restart,
            (std::vector<std::string>{"coordinator.listen_clients", "coordinator.state_dir",
                                      "security.agent_keys_dir"}));
  EXPECT_TRUE(plan_reload(running, running).needs_restart.empty());
}

}  // namespace
}  // namespace fairway::daemon

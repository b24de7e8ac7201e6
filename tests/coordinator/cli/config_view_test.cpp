#include "coordinator/cli/config_view.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace fairway::cli {
namespace {

wire::ConfigReply sample() {
  wire::ConfigReply r;
  r.now = Time::from_seconds(1'795'669'871);
  r.entries = {{"agent.kill_grace", "5s"},           {"cluster.name", "acct"},
               {"coordinator.first_job_id", "25000"}, {"coordinator.heartbeat_timeout", "300s"},
               {"limits.max_array_size", "1001"},     {"scheduler.backfill", "easy"}};
  return r;
}

TEST(ConfigView, KeyEqualsValueAsTheConfigFileWritesIt) {
  EXPECT_EQ(render_config(sample()),
            "agent.kill_grace = 5s\ncluster.name = acct\ncoordinator.first_job_id = 25000\n"
            "coordinator.heartbeat_timeout = 300s\nlimits.max_array_size = 1001\nscheduler.backfill = easy\n");
}

// The lines as Slurm 22.05's scontrol show config printed them on the anchor (same keys,
// padding and units; the values are this sample's).
TEST(ConfigView, ScontrolsLayoutForTheKeysThatMeanTheSame) {
  ::setenv("TZ", "UTC", 1);
  EXPECT_EQ(render_scontrol_config(sample()),
            "Configuration data as of 2026-11-26T05:11:11\n"
            "ClusterName             = acct\n"
            "FirstJobId              = 25000\n"
            "KillWait                = 5 sec\n"
            "MaxArraySize            = 1001\n"
            "PriorityType            = priority/multifactor\n"
            "SchedulerType           = sched/backfill\n"
            "SelectType              = select/cons_tres\n"
            "SlurmdTimeout           = 300 sec\n"
            "SLURM_VERSION           = 22.05.8\n");
  wire::ConfigReply strict = sample();
  strict.entries.back().value = "none";
  EXPECT_NE(render_scontrol_config(strict).find("SchedulerType           = sched/builtin\n"), std::string::npos);
}

}  // namespace
}  // namespace fairway::cli

#include "client/views/fairway/config_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace fairway::cli {
namespace {

wire::ConfigReply sample() {
  wire::ConfigReply r;
  r.now = Time::from_seconds(1'795'669'871);
  r.entries = {{"agent.kill_grace", "5s"},
               {"cluster.name", "acct"},
               {"coordinator.first_job_id", "25000"},
               {"coordinator.heartbeat_timeout", "300s"},
               {"limits.max_array_size", "1001"},
               {"scheduler.backfill", "easy"}};
  return r;
}

TEST(ConfigView, KeyEqualsValueAsTheConfigFileWritesIt) {
  EXPECT_EQ(
      render_config(sample()),
      "agent.kill_grace = 5s\ncluster.name = acct\ncoordinator.first_job_id = 25000\n"
      "coordinator.heartbeat_timeout = 300s\nlimits.max_array_size = 1001\nscheduler.backfill = easy\n");
}

// Every key Slurm 22.05's scontrol show config printed on the anchor, in its order, with
// the same padding and units (tests/fixtures/slurm-golden/expected/scontrol-show-config.txt
// holds them all; slurm_golden_test checks the set); Fairway's values where it has them.
TEST(ConfigView, ScontrolsLayoutWithEveryKeySlurmPrints) {
  ::setenv("TZ", "UTC", 1);
  const std::string text = render_scontrol_config(sample());
  EXPECT_TRUE(text.starts_with("Configuration data as of 2026-11-26T05:11:11\n"));
  for (const char* line :
       {"ClusterName             = acct\n", "FirstJobId              = 25000\n",
        "KillWait                = 5 sec\n", "MaxArraySize            = 1001\n",
        "PriorityType            = priority/multifactor\n", "SchedulerType           = sched/backfill\n",
        "SelectType              = select/cons_tres\n", "SlurmdTimeout           = 300 sec\n",
        "SLURM_VERSION           = 22.05.8\n", "MinJobAge               = 300 sec\n",
        "SchedulerTimeSlice      = 30 sec\n", "AccountingStorageBackupHost = (null)\n",
        "PowerPlugin             = \n", "NEXT_JOB_ID             = (null)\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
  EXPECT_LT(text.find("MinJobAge"), text.find("SchedulerTimeSlice"));  // Slurm's order
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 207);
  wire::ConfigReply strict = sample();
  strict.entries.back().value = "none";
  EXPECT_NE(render_scontrol_config(strict).find("SchedulerType           = sched/builtin\n"),
            std::string::npos);
}

}  // namespace
}  // namespace fairway::cli

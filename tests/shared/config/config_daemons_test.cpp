#include <gtest/gtest.h>

#include <string>

#include "config_test_util.h"
#include "shared/config/config.h"
#include "shared/config/config_file.h"

namespace fairway {
namespace {

using config_test::parse_error;
using config_test::parse_ok;

TEST(ConfigDaemons, DefaultsWithoutTables) {
  Config c = parse_ok("");
  EXPECT_EQ(c.coordinator.listen_agents, "tcp://127.0.0.1:6817");
  EXPECT_EQ(c.coordinator.heartbeat_timeout, Duration::seconds(30));
  EXPECT_EQ(c.agent.kill_grace, Duration::seconds(30));
  EXPECT_FALSE(c.agent.allow_root_jobs);
}

TEST(ConfigDaemons, ReadsEveryKey) {
  Config c = parse_ok(R"(
[coordinator]
listen_agents = "tcp://0.0.0.0:7000"
listen_clients = "ipc:///tmp/fw.sock"
state_dir = "/srv/fw"
heartbeat_timeout = "2m"
pass_interval = 3
submit_burst = 50
submit_refill_per_s = 0.5
first_job_id = 25000
[agent]
spool_dir = "/tmp/spool"
heartbeat_interval = "10s"
kill_grace = 5
allow_root_jobs = true
cgroups = "v1"
require_enforcement = true
cgroup_subtree = "site/cn01"
reserved_memory_mb = 2048
)");
  EXPECT_EQ(c.coordinator.listen_agents, "tcp://0.0.0.0:7000");
  EXPECT_EQ(c.coordinator.listen_clients, "ipc:///tmp/fw.sock");
  EXPECT_EQ(c.coordinator.state_dir, "/srv/fw");
  EXPECT_EQ(c.coordinator.heartbeat_timeout, Duration::minutes(2));
  EXPECT_EQ(c.coordinator.pass_interval, Duration::seconds(3));
  EXPECT_EQ(c.coordinator.submit_burst, 50);
  EXPECT_DOUBLE_EQ(c.coordinator.submit_refill_per_s, 0.5);
  EXPECT_EQ(c.coordinator.first_job_id, 25000);
  EXPECT_EQ(c.agent.spool_dir, "/tmp/spool");
  EXPECT_EQ(c.agent.heartbeat_interval, Duration::seconds(10));
  EXPECT_EQ(c.agent.kill_grace, Duration::seconds(5));
  EXPECT_TRUE(c.agent.allow_root_jobs);
  EXPECT_EQ(c.agent.cgroups, "v1");
  EXPECT_TRUE(c.agent.require_enforcement);
  EXPECT_EQ(c.agent.cgroup_subtree, "site/cn01");
  EXPECT_EQ(c.agent.reserved_memory_mb, 2048);
  EXPECT_EQ(parse_ok("").agent.cgroups, "auto");
}

TEST(ConfigDaemons, ErrorsNameTheKeyAndValue) {
  EXPECT_CONTAINS(parse_error("[agent]\ncgroups = \"v3\"\n"), "agent.cgroups");
  EXPECT_CONTAINS(parse_error("[agent]\nreserved_memory_mb = -1\n"), "agent.reserved_memory_mb");
  EXPECT_CONTAINS(parse_error("[agent]\ncgroups = \"v3\"\n"), "\"v3\" is not one of auto, v2, v1, off");
  EXPECT_CONTAINS(parse_error("[agent]\ncgroups = \"off\"\nrequire_enforcement = true\n"),
                  "agent.require_enforcement");
  EXPECT_CONTAINS(parse_error("[agent]\ncgroup_subtree = \"../etc\"\n"), "agent.cgroup_subtree");
  EXPECT_CONTAINS(parse_error("[agent]\ncgroup_subtree = \"/abs\"\n"), "agent.cgroup_subtree");
  EXPECT_CONTAINS(parse_error("[coordinator]\nlisten_agents = \"localhost:1\"\n"),
                  "coordinator.listen_agents");
  EXPECT_CONTAINS(parse_error("[coordinator]\nlisten_agents = \"localhost:1\"\n"), "localhost:1");
  EXPECT_CONTAINS(parse_error("[coordinator]\nheartbeat_timeout = 0\n"), "coordinator.heartbeat_timeout");
  EXPECT_CONTAINS(parse_error("[coordinator]\nstate_dir = \"\"\n"), "coordinator.state_dir");
  EXPECT_CONTAINS(parse_error("[coordinator]\nfirst_job_id = 0\n"),
                  "coordinator.first_job_id: must be >= 1, got 0");
  EXPECT_CONTAINS(parse_error("[agent]\nallow_root_jobs = 1\n"), "agent.allow_root_jobs");
  EXPECT_CONTAINS(parse_error("[agent]\nspool = \"/x\"\n"), "spool");
  EXPECT_CONTAINS(parse_error("[coordinator]\nmetrics_listen = \"9810\"\n"),
                  "coordinator.metrics_listen: \"9810\" is not HOST:PORT");
  EXPECT_CONTAINS(parse_error("[coordinator]\nmetrics_listen = \"localhost:99999\"\n"), "not HOST:PORT");
  EXPECT_EQ(parse_ok("[coordinator]\nmetrics_listen = \"[::1]:9810\"\n").coordinator.metrics_listen,
            "[::1]:9810");
}

// The example a package installs as the site's starting point must itself be valid.
TEST(ConfigDaemons, TheInstalledExampleConfigParses) {
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/fairway.toml");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->partitions.size(), 2u);
  EXPECT_TRUE(c->partitions[1].default_for_interactive);
  EXPECT_EQ(c->coordinator.state_dir, "/var/lib/fairway");
}

}  // namespace
}  // namespace fairway

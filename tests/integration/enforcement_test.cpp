// Enforcement through the real daemons on this machine's kernel (cgroup v1 here): a job
// over its --mem ends "oom" with its peak memory recorded and shown; a job that widens its
// own affinity still runs on its one core. Skipped where the agent finds no cgroups.
#include <gtest/gtest.h>

#include <string>

#include "cluster_fixture.h"

namespace fairway::integration {
namespace {

bool terminal(JobState s) {
  return is_terminal(s);
}

// How many CPUs a Cpus_allowed_list value ("0-1,4") names.
int cpus_in(const std::string& list) {
  int n = 0;
  std::stringstream in(list);
  std::string part;
  while (std::getline(in, part, ',')) {
    const auto dash = part.find('-');
    n += dash == std::string::npos ? 1
                                   : std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
  }
  return n;
}

TEST_F(Cluster, CgroupsHoldJobsToTheirMemoryAndCores) {
  if (::geteuid() != 0) GTEST_SKIP() << "cgroups need root";
  start_coordinator();
  start_agent("host");  // host discovery: binding applied, cgroups used
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string agent_log = read_file(dir_ + "/agent-host.log");
  if (agent_log.find("enforcement=\"cgroup") == std::string::npos) {
    GTEST_SKIP() << "no cgroups for the agent here: " << agent_log;
  }
  EXPECT_EQ(nodes().at(0).enforcement.rfind("cgroup v", 0), 0u) << nodes().at(0).enforcement;
  std::string out;
  ASSERT_EQ(run_cli_as("nobody", {"show", "node", "host"}, out), 0) << out;
  EXPECT_NE(out.find("Enforcement: cgroup v"), std::string::npos) << out;
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "--mem=64M", "--wrap",
                        "dd if=/dev/zero of=/dev/null bs=512M count=1"},
                       out),
            0)
      << out;
  const JobId hog(std::stoull(out));
  auto v = wait_state(hog, terminal, 20000ms);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kOutOfMemory) << v->state_reason;
  EXPECT_NE(
      v->state_reason.find("out of memory: the kernel killed 1 of its processes at its limit of 64 MiB"),
      std::string::npos)
      << v->state_reason;
  // v1 always counts the peak; v2 only from kernel 5.19 (memory.peak).
  const bool v1 = agent_log.find("enforcement=\"cgroup v1") != std::string::npos;
  if (v1 || v->peak_memory_bytes) {
    ASSERT_TRUE(v->peak_memory_bytes);
    EXPECT_LE(*v->peak_memory_bytes, std::int64_t{64} << 20);
  }
  ASSERT_EQ(run_cli_as("nobody", {"show", "job", std::to_string(hog.value())}, out), 0) << out;
  if (v->peak_memory_bytes) {
    EXPECT_NE(out.find("PeakMemory"), std::string::npos) << out;
  }
  EXPECT_NE(out.find("OOM"), std::string::npos) << out;

  // Accounting keeps it across a coordinator restart (the store's usage columns).
  coordinator_.stop(SIGTERM);
  start_coordinator();
  std::optional<wire::JobView> after;
  ASSERT_TRUE(eventually([&] { return (after = job(hog)).has_value(); }));
  EXPECT_EQ(after->state, JobState::kOutOfMemory);
  EXPECT_EQ(after->peak_memory_bytes, v->peak_memory_bytes);
  EXPECT_EQ(after->cpu_time_ms, v->cpu_time_ms);
  ASSERT_TRUE(wait_nodes_up(1));

  const std::string affinity = dir_ + "/affinity.txt";
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "--parsable", "-D", dir_, "-n", "1", "--wrap",
                        "taskset -cp 0-1023 $$ >/dev/null 2>&1; grep Cpus_allowed_list /proc/self/status > " +
                            affinity},
                       out),
            0)
      << out;
  auto w = wait_state(JobId(std::stoull(out)), terminal);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->state, JobState::kCompleted);
  ASSERT_EQ(w->allocation.size(), 1u);
  ASSERT_EQ(w->allocation[0].cores.size(), 1u);
  // Its core's threads only, whatever it asked the kernel for.
  const std::string line = read_file(affinity);
  EXPECT_EQ(cpus_in(line.substr(line.find(':') + 1)), nodes().at(0).threads_per_core) << line;
}

}  // namespace
}  // namespace fairway::integration

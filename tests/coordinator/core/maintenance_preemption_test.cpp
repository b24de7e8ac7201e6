// preempt_for_maintenance alone, with a fake host: at a maintenance's start the running
// killable jobs on its nodes are requeued with the maintenance as their reason, and no
// other job is touched.
#include "coordinator/core/maintenance_preemption.h"

#include <gtest/gtest.h>

#include "fake_preemption_host.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

// Two 4-core nodes; "batch" (0) and a killable "scavenger" (1) over both; a maintenance
// on n0 over [100, 200).
Config maintenance_config() {
  Config c = testing::uniform_cluster(2, 1, 4, BackfillMode::kEasy);
  PartitionConfig batch;
  batch.name = "batch";
  batch.nodes = {"n0", "n1"};
  PartitionConfig scavenger = batch;
  scavenger.name = "scavenger";
  scavenger.killable = true;
  c.partitions = {batch, scavenger};
  ReservationConfig r;
  r.name = "outage";
  r.start = T(100);
  r.duration = Duration::seconds(100);
  r.nodes = {"n0"};
  r.maintenance = true;
  c.reservations.push_back(r);
  return c;
}

struct Fixture {
  Config config = maintenance_config();
  ClusterState cluster;
  MaintenanceSchedule maintenance{config};
  testing::FakePreemptionHost host;
  std::vector<JobRecord*> running;

  Fixture() {
    for (const auto& n : config.nodes) cluster.add_node(n);
    for (const auto& p : config.partitions) EXPECT_TRUE(cluster.add_partition(p.name, p.nodes));
  }
  // Job `id` of partition `p` running on one core of node `n` since T(10).
  void run(std::uint64_t id, std::uint32_t p, std::uint32_t n) {
    JobRecord r;
    r.spec = testing::job(id, 1, 3600);
    r.partition = PartitionIndex(p);
    r.start_time = T(10);
    r.allocation.nodes.push_back({NodeIndex(n), {static_cast<std::int32_t>(id)}, {}});
    running.push_back(&host.add_running(std::move(r)));
  }
  PassResult pass(Time now) {
    PassResult result;
    preempt_for_maintenance(maintenance, cluster, config, running, now, result, host);
    return result;
  }
};

TEST(MaintenancePreemption, RequeuesOnlyKillableJobsOnTheWindowsNodesAtItsStart) {
  Fixture f;
  f.run(1, 1, 0);  // killable, on n0: killed
  f.run(2, 0, 0);  // batch, on n0: not killable
  f.run(3, 1, 1);  // killable, on n1: not under the window
  const PassResult r = f.pass(T(100));
  ASSERT_EQ(f.host.requeued, std::vector<JobId>{JobId(1)});
  ASSERT_EQ(r.preempted.size(), 1u);
  EXPECT_EQ(r.preempted[0].id, JobId(1));
  EXPECT_EQ(r.preempted[0].reason, "maintenance on its nodes begins");
  EXPECT_EQ(r.preempted[0].started, T(10));               // the run cut short, read before the requeue
  ASSERT_EQ(r.preempted[0].allocation.nodes.size(), 1u);  // where it ran: the processes to kill
  EXPECT_EQ(r.preempted[0].allocation.nodes[0].node, NodeIndex(0));
  EXPECT_EQ(r.preempted[0].allocation.nodes[0].cores, std::vector<std::int32_t>{1});
  EXPECT_EQ(f.host.jobs.at(1).reason, "maintenance on its nodes begins");
  EXPECT_EQ(f.host.jobs.at(1).requeue_count, 1);
  EXPECT_TRUE(f.host.jobs.at(2).reason.empty());
  EXPECT_TRUE(f.host.finished.empty());
}

TEST(MaintenancePreemption, NothingBeforeTheWindowStarts) {
  Fixture f;
  f.run(1, 1, 0);
  const PassResult r = f.pass(T(99));
  EXPECT_TRUE(f.host.requeued.empty());
  EXPECT_TRUE(r.preempted.empty());
}

TEST(MaintenancePreemption, NoWindowsNoPreemption) {
  Fixture f;
  f.maintenance = MaintenanceSchedule();
  f.run(1, 1, 0);
  EXPECT_TRUE(f.pass(T(100)).preempted.empty());
}

}  // namespace
}  // namespace fairway

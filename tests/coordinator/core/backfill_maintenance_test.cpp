// Maintenance reservations and killable partitions in the scheduling core: nothing is
// started or reserved into a window on its nodes, except killable jobs, which the pass
// requeues when the window begins.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

// Two 4-core nodes; "batch" and a killable "scavenger" over both; one maintenance window.
Config cluster_with_window(Time start, Duration duration, std::vector<std::string> nodes,
                           Duration cutoff = {}, BackfillMode mode = BackfillMode::kEasy) {
  Config c = testing::uniform_cluster(2, 1, 4, mode);
  PartitionConfig batch;
  batch.name = "batch";
  batch.nodes = {"n0", "n1"};
  batch.is_default = true;
  PartitionConfig scavenger = batch;
  scavenger.name = "scavenger";
  scavenger.is_default = false;
  scavenger.killable = true;
  scavenger.killable_cutoff = cutoff;
  c.partitions = {batch, scavenger};
  ReservationConfig r;
  r.name = "outage";
  r.start = start;
  r.duration = duration;
  r.all_nodes = nodes.empty();
  r.nodes = std::move(nodes);
  r.maintenance = true;
  c.reservations.push_back(r);
  return c;
}

JobSpec killable_job(std::uint64_t id, std::int32_t cores, std::int64_t limit_s) {
  JobSpec j = testing::job(id, cores, limit_s);
  j.partition = "scavenger";
  return j;
}

bool started(const PassResult& r, std::uint64_t id) {
  for (const JobStart& s : r.started) {
    if (s.id == JobId(id)) return true;
  }
  return false;
}

TEST(Maintenance, ABatchJobThatWouldRunIntoTheWindowWaitsWithTheReason) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {}));
  ASSERT_TRUE(s->submit(testing::job(1, 4, 1200), T(0)));  // would end at 1200 > 1000
  ASSERT_TRUE(s->submit(testing::job(2, 4, 900), T(0)));   // ends at 900: fine
  const PassResult r = s->schedule(T(0));
  EXPECT_FALSE(started(r, 1));
  EXPECT_TRUE(started(r, 2));
  const JobRecord* j = s->job(JobId(1));
  EXPECT_TRUE(j->why.has(PendingReason::kMaintenance));
  EXPECT_NE(j->why.codes().find("ReqNodeNotAvail_Maintenance"), std::string::npos);
  // Its reservation is after the window, not inside it.
  ASSERT_TRUE(j->reserved_start);
  EXPECT_EQ(*j->reserved_start, T(1500));
}

TEST(Maintenance, NothingStartsDuringTheWindowAndJobsStartAtItsEnd) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {}));
  ASSERT_TRUE(s->submit(testing::job(1, 1, 10), T(1100)));
  EXPECT_TRUE(s->schedule(T(1100)).started.empty());
  EXPECT_TRUE(s->job(JobId(1))->why.has(PendingReason::kMaintenance));
  EXPECT_TRUE(s->schedule(T(1499)).started.empty());
  EXPECT_TRUE(started(s->schedule(T(1500)), 1));
}

TEST(Maintenance, OnlyTheReservedNodesAreTaken) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {"n0"}));
  ASSERT_TRUE(s->submit(testing::job(1, 4, 3000), T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 4, 3000), T(0)));
  const PassResult r = s->schedule(T(0));
  ASSERT_TRUE(started(r, 1));
  EXPECT_FALSE(started(r, 2));
  EXPECT_EQ(s->job(JobId(1))->allocation.nodes.at(0).node, NodeIndex(1));
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kMaintenance));
}

// A job placement would put on the reserved node goes to the other one instead, or waits.
TEST(Maintenance, PlacementNeverUsesAReservedNodeIntoTheWindow) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {"n1"}));
  ASSERT_TRUE(s->submit(testing::job(1, 2, 100), T(0)));  // short: may use any node
  ASSERT_TRUE(s->schedule(T(0)).started.size() == 1);
  ASSERT_TRUE(s->submit(testing::job(2, 2, 3000), T(0)));
  ASSERT_TRUE(s->submit(testing::job(3, 2, 3000), T(0)));
  ASSERT_TRUE(s->submit(testing::job(4, 2, 3000), T(0)));
  s->schedule(T(0));
  for (std::uint64_t id : {2, 3, 4}) {
    const JobRecord* j = s->job(JobId(id));
    if (j->state == JobState::kRunning) {
      EXPECT_EQ(j->allocation.nodes.at(0).node, NodeIndex(0)) << "job " << id;
    }
  }
}

TEST(Killable, StartsIntoTheWindowIsPreemptedAtItsStartAndRestartsAfter) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {}));
  ASSERT_TRUE(s->submit(killable_job(1, 4, 3000), T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  EXPECT_TRUE(s->schedule(T(999)).preempted.empty());

  const PassResult at_start = s->schedule(T(1000));
  ASSERT_EQ(at_start.preempted.size(), 1u);
  EXPECT_EQ(at_start.preempted[0].id, JobId(1));
  EXPECT_EQ(at_start.preempted[0].started, T(0));
  EXPECT_EQ(at_start.preempted[0].allocation.total_cores(), 4);
  EXPECT_FALSE(started(at_start, 1));
  const JobRecord* j = s->job(JobId(1));
  EXPECT_EQ(j->state, JobState::kPending);
  EXPECT_TRUE(j->why.has(PendingReason::kMaintenance));
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 8);

  EXPECT_TRUE(s->schedule(T(1200)).started.empty());
  EXPECT_TRUE(started(s->schedule(T(1500)), 1));
  EXPECT_EQ(s->job(JobId(1))->start_time, T(1500));
  EXPECT_TRUE(s->schedule(T(2000)).preempted.empty());
}

TEST(Killable, StopsStartingWithinTheCutoffBeforeTheWindow) {
  auto s = testing::make(cluster_with_window(T(10000), Duration::seconds(500), {}, Duration::hours(1)));
  ASSERT_TRUE(s->submit(killable_job(1, 1, 3000), T(0)));
  EXPECT_TRUE(started(s->schedule(T(10000 - 3601)), 1));
  ASSERT_TRUE(s->submit(killable_job(2, 1, 3000), T(0)));
  EXPECT_TRUE(s->schedule(T(10000 - 3600)).started.empty());
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kMaintenance));
  // Planned for the window's end, never inside the cutoff.
  ASSERT_TRUE(s->job(JobId(2))->reserved_start);
  EXPECT_EQ(*s->job(JobId(2))->reserved_start, T(10500));
}

// The cores a killable job holds count as free from the window's end for batch jobs'
// reservations (it will be killed at the start), not from its time limit.
TEST(Killable, BatchReservationsSeeKillableJobsEndAtTheWindow) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {}));
  ASSERT_TRUE(s->submit(killable_job(1, 8, 86400), T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  ASSERT_TRUE(s->submit(testing::job(2, 8, 100), T(10)));
  s->schedule(T(10));
  ASSERT_TRUE(s->job(JobId(2))->reserved_start);
  EXPECT_EQ(*s->job(JobId(2))->reserved_start, T(1500));
}

// ... also for a killable job started in the same pass.
TEST(Killable, AKillableJobStartedThisPassHoldsItsNodesOnlyUntilTheWindow) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {}));
  ASSERT_TRUE(s->submit(killable_job(1, 8, 86400), T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 8, 100), T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  ASSERT_TRUE(s->job(JobId(2))->reserved_start);
  EXPECT_EQ(*s->job(JobId(2))->reserved_start, T(1500));
}

TEST(Killable, ABatchJobIsNeverPreempted) {
  auto s = testing::make(cluster_with_window(T(1000), Duration::seconds(500), {}));
  ASSERT_TRUE(s->submit(testing::job(1, 4, 900), T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  // It overran its limit (the daemon has not killed it yet): not the maintenance's job.
  EXPECT_TRUE(s->schedule(T(1000)).preempted.empty());
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kRunning);
}

TEST(Maintenance, ConservativeBackfillReservesAroundTheWindow) {
  auto s = testing::make(
      cluster_with_window(T(1000), Duration::seconds(500), {}, {}, BackfillMode::kConservative));
  ASSERT_TRUE(s->submit(testing::job(1, 8, 800), T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 8, 300), T(0)));
  ASSERT_TRUE(s->submit(testing::job(3, 8, 300), T(0)));
  s->schedule(T(0));
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  // 800..1000 is too short for 300 s: both wait until after the window.
  EXPECT_EQ(*s->job(JobId(2))->reserved_start, T(1500));
  EXPECT_EQ(*s->job(JobId(3))->reserved_start, T(1800));
}

// Slurm's main loop (Palmetto) honours the window the same way, and places a long job on
// the node the maintenance leaves alone.
TEST(Maintenance, MainLoopAvoidsTheReservedNode) {
  Config c = cluster_with_window(T(1000), Duration::seconds(500), {"n0"});
  c.scheduler.main_loop = true;
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(testing::job(1, 4, 3000), T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 4, 3000), T(0)));
  const PassResult r = s->schedule(T(0));
  ASSERT_TRUE(started(r, 1));
  EXPECT_EQ(s->job(JobId(1))->allocation.nodes.at(0).node, NodeIndex(1));
  EXPECT_FALSE(started(r, 2));
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kMaintenance));
  EXPECT_TRUE(s->schedule(T(1000)).preempted.empty());
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kRunning);

  // A killable job over both nodes starts in the main loop and is preempted at 1000.
  auto k = testing::make(c);
  ASSERT_TRUE(k->submit(killable_job(3, 8, 3000), T(0)));
  EXPECT_TRUE(started(k->schedule(T(0)), 3));
  EXPECT_EQ(k->schedule(T(1000)).preempted.size(), 1u);
  EXPECT_EQ(k->job(JobId(3))->state, JobState::kPending);
}

}  // namespace
}  // namespace fairway

// Titan's project reservations (seed 000) in the scheduling core: nodes set aside for one
// account's --reservation jobs during a window, charged cores x hours used or not, and
// given back when under half of them are used for 30 minutes.
#include <gtest/gtest.h>

#include <algorithm>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

constexpr std::int64_t kStart = 1000;
constexpr std::int64_t kLength = 7200;

// Four 4-core nodes; "batch" over all of them and a killable "scavenger"; n2 and n3 are
// reserved for account "climate" (users alice and bob) from kStart for two hours.
Config titan(double cancel_below_use = 0.5) {
  Config c = testing::uniform_cluster(4, 1, 4, BackfillMode::kEasy);
  PartitionConfig batch;
  batch.name = "batch";
  batch.is_default = true;
  PartitionConfig scavenger = batch;
  scavenger.name = "scavenger";
  scavenger.is_default = false;
  scavenger.killable = true;
  c.partitions = {batch, scavenger};
  ReservationConfig r;
  r.name = "climate-run";
  r.start = T(kStart);
  r.duration = Duration::seconds(kLength);
  r.nodes = {"n2", "n3"};
  r.account = "climate";
  r.users = {"alice", "bob"};
  r.cancel_below_use = cancel_below_use;
  r.cancel_after = Duration::minutes(30);
  c.reservations.push_back(r);
  ReservationConfig outage;
  outage.name = "outage";
  outage.start = T(100000);
  outage.duration = Duration::seconds(600);
  outage.all_nodes = true;
  outage.maintenance = true;
  c.reservations.push_back(outage);
  return c;
}

JobSpec member(std::uint64_t id, std::int32_t cores, std::int64_t limit_s, const char* user = "alice") {
  JobSpec j = testing::account_job(id, user, "climate", cores, limit_s);
  j.reservation = "climate-run";
  return j;
}

bool started(const PassResult& r, std::uint64_t id) {
  for (const JobStart& s : r.started) {
    if (s.id == JobId(id)) return true;
  }
  return false;
}

std::vector<std::string> nodes_of(const Scheduler& s, std::uint64_t id) {
  std::vector<std::string> out;
  for (const NodeAllocation& a : s.job(JobId(id))->allocation.nodes)
    out.push_back(s.cluster().node(a.node).topology.name);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ProjectReservation, OnlyItsAccountsListedUsersMaySubmitIntoIt) {
  auto s = testing::make(titan());
  EXPECT_TRUE(s->submit(member(1, 4, 600), T(0)));
  EXPECT_TRUE(s->submit(member(2, 4, 600, "bob"), T(0)));

  JobSpec other_account = member(3, 4, 600);
  other_account.account = "physics";
  auto r = s->submit(other_account, T(0));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(r.error().message.find("is for account 'climate': submit with -A climate, not 'physics'"),
            std::string::npos)
      << r.error().message;

  auto carol = s->submit(member(4, 4, 600, "carol"), T(0));
  ASSERT_FALSE(carol);
  EXPECT_NE(carol.error().message.find("user 'carol' is not one of its users (alice, bob)"),
            std::string::npos)
      << carol.error().message;

  JobSpec unknown = member(5, 4, 600);
  unknown.reservation = "nope";
  auto u = s->submit(unknown, T(0));
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().message.find("no such reservation (reservations: climate-run)"), std::string::npos);

  JobSpec into_outage = member(6, 4, 600);
  into_outage.reservation = "outage";
  auto o = s->submit(into_outage, T(0));
  ASSERT_FALSE(o);
  EXPECT_NE(o.error().message.find("is a maintenance"), std::string::npos);

  auto too_long = s->submit(member(7, 4, kLength + 1), T(0));
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.error().message.find("longer than reservation 'climate-run' (02:00:00)"),
            std::string::npos)
      << too_long.error().message;

  auto wide = s->submit(member(9, 12, 600), T(0));
  ASSERT_FALSE(wide);
  EXPECT_NE(wide.error().message.find(
                "requests 12 cores, more than reservation 'climate-run' holds in partition 'batch' (8)"),
            std::string::npos)
      << wide.error().message;

  auto late = s->submit(member(8, 4, 600), T(kStart + kLength));
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("ended at 1970-01-01T02:16:40Z"), std::string::npos)
      << late.error().message;
}

TEST(ProjectReservation, ItsJobsWaitForItThenRunOnlyOnItsNodes) {
  auto s = testing::make(titan());
  ASSERT_TRUE(s->submit(member(1, 8, 3600), T(0)));
  PassResult before = s->schedule(T(0));
  EXPECT_FALSE(started(before, 1));
  const JobRecord* j = s->job(JobId(1));
  EXPECT_TRUE(j->why.has(PendingReason::kReservation));
  ASSERT_TRUE(j->why.estimated_start);
  EXPECT_EQ(*j->why.estimated_start, T(kStart));
  // The pass asks to be run again when the reservation begins.
  ASSERT_TRUE(before.recheck_at);
  EXPECT_EQ(*before.recheck_at, T(kStart));

  PassResult at_start = s->schedule(T(kStart));
  ASSERT_TRUE(started(at_start, 1));
  EXPECT_EQ(nodes_of(*s, 1), (std::vector<std::string>{"n2", "n3"}));

  // A job that would outlive the reservation does not start in it.
  ASSERT_TRUE(s->submit(member(2, 1, 3600), T(kStart + 5000)));
  s->schedule(T(kStart + 5000));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kReservation));
}

TEST(ProjectReservation, EveryoneElseIsKeptOffItsNodesDuringItsWindowOnly) {
  auto s = testing::make(titan());
  // Before the window, a job that ends before it may use the reserved nodes.
  ASSERT_TRUE(s->submit(testing::job(1, 16, 900), T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(900)));
  // One that would run into it gets only the other nodes.
  ASSERT_TRUE(s->submit(testing::job(2, 8, 3600), T(900)));
  ASSERT_TRUE(s->submit(testing::job(3, 16, 3600), T(900)));
  PassResult r = s->schedule(T(900));
  ASSERT_TRUE(started(r, 2));
  EXPECT_EQ(nodes_of(*s, 2), (std::vector<std::string>{"n0", "n1"}));
  EXPECT_FALSE(started(r, 3));
  EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kMaintenance));
  // The whole-machine job is planned for after the window, not before.
  s->finish(JobId(2), JobState::kCompleted, T(kStart + 100));
  s->schedule(T(kStart + 100));
  EXPECT_EQ(s->job(JobId(3))->state, JobState::kPending);
  s->schedule(T(kStart + kLength));
  EXPECT_EQ(s->job(JobId(3))->state, JobState::kRunning);
}

TEST(ProjectReservation, TheAccountPaysForTheReservedCoresNotForItsJobs) {
  Config c = titan(0.0);                           // never cancelled
  c.fairshare.half_life = Duration::days(100000);  // no decay: exact sums
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(member(1, 2, 3600), T(0)));
  s->schedule(T(0));
  s->schedule(T(kStart));
  ASSERT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(kStart + 3600)));
  s->schedule(T(kStart + 3600));
  s->schedule(T(kStart + kLength));
  const ProjectReservationState& r = s->project_reservations()[0];
  ASSERT_TRUE(r.association);
  EXPECT_FALSE(r.charging);
  // 8 reserved cores for 2 hours, though only 2 were used for 1 hour.
  const double account = s->fair_share().account_usage(*r.association, T(kStart + kLength));
  EXPECT_NEAR(account, 8.0 * kLength, 1.0);
  EXPECT_NEAR(s->fair_share().user_usage(s->job(JobId(1))->association, T(kStart + kLength)), 0.0, 1e-9);
}

TEST(ProjectReservation, UnderHalfUsedForThirtyMinutesItIsGivenBack) {
  auto s = testing::make(titan());
  ASSERT_TRUE(s->submit(member(1, 2, 7000), T(0)));  // 2 of 8 cores: under half
  s->schedule(T(0));
  PassResult start = s->schedule(T(kStart));
  ASSERT_TRUE(started(start, 1));
  ASSERT_TRUE(s->submit(testing::job(3, 16, 600), T(kStart)));  // everyone else's
  ASSERT_TRUE(s->submit(member(2, 8, 600, "bob"), T(kStart)));  // cannot fit beside job 1
  start = s->schedule(T(kStart));
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kResources));
  ASSERT_TRUE(start.recheck_at);
  EXPECT_EQ(*start.recheck_at, T(kStart + 1800));  // when its patience runs out
  EXPECT_TRUE(s->schedule(T(kStart + 1799)).reservations_cancelled.empty());

  PassResult cancel = s->schedule(T(kStart + 1800));
  ASSERT_EQ(cancel.reservations_cancelled.size(), 1u);
  EXPECT_EQ(cancel.reservations_cancelled[0].name, "climate-run");
  EXPECT_NE(cancel.reservations_cancelled[0].reason.find(
                "under 50% of its 8 cores in use since 1970-01-01T00:16:40Z"),
            std::string::npos)
      << cancel.reservations_cancelled[0].reason;
  const ProjectReservationState& r = s->project_reservations()[0];
  ASSERT_TRUE(r.cancelled_at);
  EXPECT_EQ(*r.cancelled_at, T(kStart + 1800));
  // Its waiting job can no longer start; its running one goes on; new ones are refused.
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kReservationDeleted));
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  auto refused = s->submit(member(4, 1, 60), T(kStart + 1800));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("was cancelled at 1970-01-01T00:46:40Z"), std::string::npos);
  // Its nodes are everyone's again: the whole-machine job waits only for job 1's cores.
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(kStart + 2000)));
  EXPECT_TRUE(started(s->schedule(T(kStart + 2000)), 3));
}

TEST(ProjectReservation, HalfUsedIsEnoughAndUseRestartsThePatience) {
  auto s = testing::make(titan());
  ASSERT_TRUE(s->submit(member(1, 4, 7000), T(0)));  // exactly half
  s->schedule(T(0));
  PassResult start = s->schedule(T(kStart));
  ASSERT_TRUE(started(start, 1));
  // Use is looked at after the pass started the job: no patience clock runs.
  ASSERT_TRUE(start.recheck_at);
  EXPECT_EQ(*start.recheck_at, T(kStart + kLength));
  EXPECT_FALSE(s->project_reservations()[0].below_since);
  EXPECT_TRUE(s->schedule(T(kStart + 1800)).reservations_cancelled.empty());
  EXPECT_TRUE(s->schedule(T(kStart + 3600)).reservations_cancelled.empty());
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(kStart + 3600)));
  s->schedule(T(kStart + 3600));  // idle from here
  EXPECT_TRUE(s->schedule(T(kStart + 3600 + 1799)).reservations_cancelled.empty());
  EXPECT_EQ(s->schedule(T(kStart + 3600 + 1800)).reservations_cancelled.size(), 1u);
}

TEST(ProjectReservation, KillableJobsOfOthersLeaveItsNodesWhenItBeginsItsOwnStay) {
  auto s = testing::make(titan());
  JobSpec scavenger = testing::job(1, 16, 5000);
  scavenger.partition = "scavenger";
  ASSERT_TRUE(s->submit(scavenger, T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  PassResult at_start = s->schedule(T(kStart));
  ASSERT_EQ(at_start.preempted.size(), 1u);
  EXPECT_EQ(at_start.preempted[0].id, JobId(1));

  JobSpec own = member(2, 8, 3000);
  own.partition = "scavenger";
  ASSERT_TRUE(s->submit(own, T(kStart)));
  ASSERT_TRUE(started(s->schedule(T(kStart + 1)), 2));
  EXPECT_TRUE(s->schedule(T(kStart + 2)).preempted.empty());
}

TEST(ProjectReservation, ARestartKeepsItsCancellationAndItsCharge) {
  Config c = titan();
  c.fairshare.half_life = Duration::days(100000);
  auto s = testing::make(c);
  s->restore_reservation_cancelled("climate-run", T(kStart + 1800));
  s->begin_restore();
  s->restore_finished_usage("climate", "alice", 2, {}, 0, T(kStart), T(kStart + 3000), "climate-run");
  s->end_restore(T(kStart + 4000));
  const ProjectReservationState& r = s->project_reservations()[0];
  ASSERT_TRUE(r.association);
  EXPECT_FALSE(r.charging);
  // 8 cores until the cancellation, then the job's 2 cores until it ended.
  const double account = s->fair_share().account_usage(*r.association, T(kStart + 4000));
  EXPECT_NEAR(account, 8.0 * 1800 + 2.0 * 1200, 1.0);
  // Cancelled, it takes nothing from anyone.
  ASSERT_TRUE(s->submit(testing::job(1, 16, 600), T(kStart + 4000)));
  EXPECT_TRUE(started(s->schedule(T(kStart + 4000)), 1));
}

// Not a reservation rule, but admission's too: Slurm's DefMemPerCPU per partition.
TEST(PartitionMemoryDefault, AJobAskingForNoMemoryGetsThePartitionsDefaultPerCore) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  PartitionConfig batch;
  batch.name = "batch";
  batch.is_default = true;
  batch.default_mem_per_cpu_mb = 2048;
  c.partitions = {batch};
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(testing::job(1, 2, 60), T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.resources.memory_per_cpu_mb, 2048);
  JobSpec asked = testing::job(2, 2, 60);
  asked.resources.memory_per_node_mb = 500;
  ASSERT_TRUE(s->submit(asked, T(0)));
  EXPECT_EQ(s->job(JobId(2))->spec.resources.memory_per_cpu_mb, 0);  // what it asked for stands
  EXPECT_EQ(s->job(JobId(2))->spec.resources.memory_per_node_mb, 500);
}

}  // namespace
}  // namespace fairway

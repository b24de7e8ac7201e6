// Owner partitions in the scheduling core (Palmetto, seed 004): a waiting job of a higher
// tier stops the fewest, cheapest lower-tier jobs it needs, waits for them to be confirmed
// gone, and then starts before anyone else can take their cores.
#include <gtest/gtest.h>

#include <algorithm>

#include "coordinator/core/scheduler.h"
#include "fake_preemption_host.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

// `nodes` 4-core nodes. "general" (tier 0, preemptable) spans all of them; "owner" (tier
// 1) spans the first `owner_nodes`. QOS "low" and "high" make priorities differ.
Config owner_cluster(int nodes = 2, int owner_nodes = 2, PreemptMode mode = PreemptMode::kRequeue) {
  Config c = testing::uniform_cluster(nodes, 1, 4, BackfillMode::kEasy);
  PartitionConfig general;
  general.name = "general";
  general.is_default = true;
  for (int i = 0; i < nodes; ++i) general.nodes.push_back("n" + std::to_string(i));
  general.preempt = mode;
  general.preempt_grace = Duration::seconds(30);
  PartitionConfig owner;
  owner.name = "owner";
  for (int i = 0; i < owner_nodes; ++i) owner.nodes.push_back("n" + std::to_string(i));
  owner.priority_tier = 1;
  c.partitions = {general, owner};
  QosConfig low;
  low.name = "low";
  low.priority = 0;
  QosConfig high = low;
  high.name = "high";
  high.priority = 1000;
  c.qos = {low, high};
  return c;
}

JobSpec general_job(std::uint64_t id, std::int32_t cores, const char* qos = "low") {
  JobSpec j = testing::job(id, cores, 3600);
  j.qos = qos;
  return j;
}

JobSpec owner_job(std::uint64_t id, std::int32_t cores, std::int64_t submit_s = 0) {
  JobSpec j = testing::job(id, cores, 3600, submit_s, "owner");
  j.partition = "owner";
  return j;
}

bool started(const PassResult& r, std::uint64_t id) {
  return std::any_of(r.started.begin(), r.started.end(),
                     [&](const JobStart& s) { return s.id == JobId(id); });
}

std::vector<std::uint64_t> victims(const PassResult& r) {
  std::vector<std::uint64_t> out;
  for (const PreemptionOrder& p : r.preempting) out.push_back(p.victim.value());
  std::sort(out.begin(), out.end());
  return out;
}

NodeIndex node_of(const Scheduler& s, std::uint64_t id) {
  return s.job(JobId(id))->allocation.nodes.front().node;
}

TEST(OwnerPreemption, AnOwnerJobThatFitsStartsWithoutPreemption) {
  auto s = testing::make(owner_cluster());
  ASSERT_TRUE(s->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(s->schedule(T(0)).started.size() == 1);
  ASSERT_TRUE(s->submit(owner_job(2, 4, 10), T(10)));
  const PassResult r = s->schedule(T(10));
  EXPECT_TRUE(started(r, 2));
  EXPECT_TRUE(r.preempting.empty());
}

TEST(OwnerPreemption, TheLowestPriorityVictimIsStoppedAndKeepsItsCoresUntilConfirmedGone) {
  auto s = testing::make(owner_cluster());
  ASSERT_TRUE(s->submit(general_job(1, 4, "high"), T(0)));
  ASSERT_TRUE(s->submit(general_job(2, 4, "low"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  const PassResult r = s->schedule(T(100));
  EXPECT_FALSE(started(r, 3));
  ASSERT_EQ(victims(r), std::vector<std::uint64_t>{2});
  EXPECT_EQ(r.preempting[0].by, JobId(3));
  EXPECT_EQ(r.preempting[0].by_partition, "owner");
  EXPECT_EQ(r.preempting[0].grace, Duration::seconds(30));
  EXPECT_TRUE(r.preempting[0].requeue);
  EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kPreempting));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kRunning);  // still holds its cores
  const NodeIndex freed = node_of(*s, 2);

  // Passes during the grace neither start the owner nor pick more victims.
  const PassResult during = s->schedule(T(110));
  EXPECT_TRUE(during.started.empty());
  EXPECT_TRUE(during.preempting.empty());
  EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kPreempting));

  auto after = s->stop_preempted(JobId(2), T(120));
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, JobState::kPending);
  EXPECT_EQ(s->job(JobId(2))->preempt_count, 1);
  // The owner gets the freed cores before the requeued victim, whatever their priorities.
  const PassResult next = s->schedule(T(120));
  EXPECT_TRUE(started(next, 3));
  EXPECT_FALSE(started(next, 2));
  EXPECT_EQ(node_of(*s, 3), freed);
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
}

TEST(OwnerPreemption, OneBigVictimBeatsSeveralSmallOnes) {
  // n0 runs four 1-core jobs of the lowest priority; n1 one 4-core job of higher priority.
  auto s = testing::make(owner_cluster());
  for (std::uint64_t id = 1; id <= 4; ++id) ASSERT_TRUE(s->submit(general_job(id, 1, "low"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 4u);
  ASSERT_TRUE(s->submit(general_job(5, 4, "high"), T(1)));
  ASSERT_EQ(s->schedule(T(1)).started.size(), 1u);
  ASSERT_NE(node_of(*s, 1), node_of(*s, 5));
  ASSERT_TRUE(s->submit(owner_job(6, 4, 100), T(100)));
  EXPECT_EQ(victims(s->schedule(T(100))), std::vector<std::uint64_t>{5});
}

TEST(OwnerPreemption, OnlyTheCoresTheOwnerNeedsAreTaken) {
  // Each node runs two 2-core jobs; the owner needs 2 cores: one victim, not a whole node.
  auto s = testing::make(owner_cluster());
  for (std::uint64_t id = 1; id <= 4; ++id) ASSERT_TRUE(s->submit(general_job(id, 2), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 4u);
  ASSERT_TRUE(s->submit(owner_job(5, 2, 100), T(100)));
  const PassResult r = s->schedule(T(100));
  ASSERT_EQ(r.preempting.size(), 1u);
  // All priorities equal: the most recently started, newest id, loses least work.
  EXPECT_EQ(r.preempting[0].victim, JobId(4));
}

TEST(OwnerPreemption, VictimsComeOnlyFromTheOwnersNodes) {
  // The owner partition holds n0 only; the cheap victim on n1 does not help it.
  auto s = testing::make(owner_cluster(2, 1));
  ASSERT_TRUE(s->submit(general_job(1, 4, "high"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  ASSERT_TRUE(s->submit(general_job(2, 4, "low"), T(1)));
  ASSERT_EQ(s->schedule(T(1)).started.size(), 1u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  const PassResult r = s->schedule(T(100));
  ASSERT_EQ(r.preempting.size(), 1u);
  EXPECT_EQ(s->job(r.preempting[0].victim)->allocation.nodes.front().node, NodeIndex(0));
}

TEST(OwnerPreemption, ExemptTimeOffPartitionsAndEqualTiersProtectRunningJobs) {
  Config c = owner_cluster();
  c.partitions[0].preempt_exempt_time = Duration::seconds(600);
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(s->submit(general_job(2, 4), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  EXPECT_TRUE(s->schedule(T(100)).preempting.empty());  // ran 100 s < 600 s
  EXPECT_EQ(victims(s->schedule(T(600))).size(), 1u);

  Config off = owner_cluster(2, 2, PreemptMode::kOff);
  off.partitions[0].preempt_grace = {};
  auto t = testing::make(off);
  ASSERT_TRUE(t->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(t->submit(general_job(2, 4), T(0)));
  ASSERT_EQ(t->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(t->submit(owner_job(3, 4, 100), T(100)));
  EXPECT_TRUE(t->schedule(T(100)).preempting.empty());

  Config same = owner_cluster();
  same.partitions[1].priority_tier = 0;
  auto u = testing::make(same);
  ASSERT_TRUE(u->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(u->submit(general_job(2, 4), T(0)));
  ASSERT_EQ(u->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(u->submit(owner_job(3, 4, 100), T(100)));
  EXPECT_TRUE(u->schedule(T(100)).preempting.empty());
}

TEST(OwnerPreemption, ARunningOwnerJobIsNeverAVictim) {
  Config c = owner_cluster();
  c.partitions[1].preempt = PreemptMode::kRequeue;  // owners preemptable only by higher tiers
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(owner_job(1, 4), T(0)));
  ASSERT_TRUE(s->submit(owner_job(2, 4), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  EXPECT_TRUE(s->schedule(T(100)).preempting.empty());
}

TEST(OwnerPreemption, NoRequeueCancelModeAndInteractiveVictimsEndAsPreempted) {
  auto s = testing::make(owner_cluster());
  JobSpec keep = general_job(1, 4);
  keep.requeue = false;
  ASSERT_TRUE(s->submit(keep, T(0)));
  ASSERT_TRUE(s->submit(general_job(2, 4, "high"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  const PassResult r = s->schedule(T(100));
  ASSERT_EQ(victims(r), std::vector<std::uint64_t>{1});
  EXPECT_FALSE(r.preempting[0].requeue);
  auto after = s->stop_preempted(JobId(1), T(130));
  ASSERT_TRUE(after);
  EXPECT_EQ(*after, JobState::kPreempted);
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kPreempted);
  EXPECT_TRUE(started(s->schedule(T(130)), 3));

  auto c = testing::make(owner_cluster(2, 2, PreemptMode::kCancel));
  ASSERT_TRUE(c->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(c->submit(general_job(2, 4), T(0)));
  ASSERT_EQ(c->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(c->submit(owner_job(3, 4, 100), T(100)));
  const PassResult rc = c->schedule(T(100));
  ASSERT_EQ(rc.preempting.size(), 1u);
  EXPECT_FALSE(rc.preempting[0].requeue);
}

TEST(OwnerPreemption, AVictimThatEndsOnItsOwnDuringTheGraceReleasesTheOwner) {
  auto s = testing::make(owner_cluster());
  ASSERT_TRUE(s->submit(general_job(1, 4, "high"), T(0)));
  ASSERT_TRUE(s->submit(general_job(2, 4, "low"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  ASSERT_EQ(victims(s->schedule(T(100))), std::vector<std::uint64_t>{2});
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(105)));
  EXPECT_EQ(s->job(JobId(3))->victims_stopping, 0);
  EXPECT_TRUE(started(s->schedule(T(105)), 3));
  // Stopping a job that is not being preempted is refused.
  EXPECT_FALSE(s->stop_preempted(JobId(1), T(106)));
}

TEST(OwnerPreemption, TwoOwnersInOnePassDoNotCountTheSameFreedCores) {
  // Both nodes run one 4-core general job; two 4-core owner jobs need both victims.
  auto s = testing::make(owner_cluster());
  ASSERT_TRUE(s->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(s->submit(general_job(2, 4), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->submit(owner_job(3, 4, 100), T(100)));
  ASSERT_TRUE(s->submit(owner_job(4, 4, 100), T(100)));
  const PassResult r = s->schedule(T(100));
  EXPECT_EQ(victims(r), (std::vector<std::uint64_t>{1, 2}));
  std::vector<std::uint64_t> owners;
  for (const auto& p : r.preempting) owners.push_back(p.by.value());
  std::sort(owners.begin(), owners.end());
  EXPECT_EQ(owners, (std::vector<std::uint64_t>{3, 4}));
  // The pass left the machine as it was: victims hold their cores, nothing else is taken.
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 0);
  ASSERT_TRUE(s->stop_preempted(JobId(1), T(130)));
  ASSERT_TRUE(s->stop_preempted(JobId(2), T(130)));
  const PassResult next = s->schedule(T(130));
  EXPECT_TRUE(started(next, 3));
  EXPECT_TRUE(started(next, 4));
}

TEST(OwnerPreemption, HigherTiersComeFirstInTheQueueWhateverTheirPriority) {
  auto s = testing::make(owner_cluster(1, 1, PreemptMode::kOff));
  ASSERT_TRUE(s->submit(general_job(1, 4, "high"), T(0)));
  ASSERT_TRUE(s->submit(owner_job(2, 4, 0), T(0)));
  const PassResult r = s->schedule(T(0));
  EXPECT_TRUE(started(r, 2));
  EXPECT_FALSE(started(r, 1));
}

TEST(OwnerPreemption, ALimitedOwnerJobDoesNotPreempt) {
  Config c = owner_cluster();
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(general_job(1, 4), T(0)));
  ASSERT_TRUE(s->submit(general_job(2, 4), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  JobSpec held = owner_job(3, 4, 100);
  held.hold = true;
  ASSERT_TRUE(s->submit(held, T(100)));
  EXPECT_TRUE(s->schedule(T(100)).preempting.empty());
}

// A lower-tier job the same pass backfilled into cores the owner then needs is not started
// and killed: it goes back to the queue unstarted (found by replaying SDSC with owners:
// the driver could not signal a job it had not launched yet, and the owner waited for
// that job's natural end).
TEST(OwnerPreemption, AVictimBackfilledInTheSamePassGoesBackUnstarted) {
  auto s = testing::make(owner_cluster(1, 1));
  ASSERT_TRUE(s->submit(general_job(1, 2, "high"), T(0)));  // runs long
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  ASSERT_TRUE(s->submit(owner_job(2, 4, 100), T(100)));
  JobSpec quick = testing::job(3, 2, 10, 100);  // ends before the owner's reservation
  quick.qos = "low";
  ASSERT_TRUE(s->submit(quick, T(100)));
  const PassResult r = s->schedule(T(100));
  EXPECT_FALSE(started(r, 3)) << "started and preempted in one pass";
  EXPECT_EQ(s->job(JobId(3))->state, JobState::kPending);
  EXPECT_FALSE(s->job(JobId(3))->preempting.has_value());
  ASSERT_EQ(victims(r), std::vector<std::uint64_t>{1});
  EXPECT_EQ(s->job(JobId(2))->victims_stopping, 1);
  // Job 1 stops; the owner starts, job 3 still waits.
  ASSERT_TRUE(s->stop_preempted(JobId(1), T(130)));
  const PassResult next = s->schedule(T(130));
  EXPECT_TRUE(started(next, 2));
  EXPECT_FALSE(started(next, 3));
}

// The collaborator on its own: tiers by partition index, and whether any partition may
// lose jobs to a higher tier at all (when none may, a pass looks for no victims).
TEST(OwnerPreemption, TiersAndWhetherPreemptionIsConfiguredComeFromThePartitions) {
  const Config c = owner_cluster();
  const OwnerPreemption p(c.partitions);
  EXPECT_TRUE(p.configured());
  EXPECT_EQ(p.tier(PartitionIndex(0)), 0);
  EXPECT_EQ(p.tier(PartitionIndex(1)), 1);

  const Config off = owner_cluster(2, 2, PreemptMode::kOff);
  EXPECT_FALSE(OwnerPreemption(off.partitions).configured());
  // A preemptable partition with no higher tier above it loses nothing.
  Config flat = owner_cluster();
  flat.partitions[1].priority_tier = 0;
  EXPECT_FALSE(OwnerPreemption(flat.partitions).configured());
}

TEST(OwnerPreemption, AGoneVictimNoLongerHoldsUpItsOwner) {
  JobRecord owner;
  owner.spec.id = JobId(2);
  owner.victims_stopping = 2;
  JobRecord victim;
  victim.spec.id = JobId(1);
  victim.preempting = PreemptionMark{owner.spec.id, PartitionIndex(1), T(0), T(30), true};
  OwnerPreemption::victim_gone(victim, &owner);
  EXPECT_FALSE(victim.preempting.has_value());
  EXPECT_EQ(owner.victims_stopping, 1);
  // A second report of the same victim changes nothing; nor does a gone owner.
  OwnerPreemption::victim_gone(victim, &owner);
  EXPECT_EQ(owner.victims_stopping, 1);
  victim.preempting = PreemptionMark{owner.spec.id, PartitionIndex(1), T(0), T(30), true};
  OwnerPreemption::victim_gone(victim, nullptr);
  EXPECT_FALSE(victim.preempting.has_value());
}

// stop_victim alone, through a fake host: a victim whose processes are gone is requeued or
// ends as preempted, as its mark says, and counts one more preemption.
JobRecord victim_of(std::uint64_t id, bool requeue) {
  JobRecord v;
  v.spec = testing::job(id, 1, 600);
  v.preempting = PreemptionMark{JobId(99), PartitionIndex(1), T(0), T(30), requeue};
  return v;
}

TEST(OwnerPreemption, AStoppedVictimIsRequeuedWhenItsMarkSaysSo) {
  testing::FakePreemptionHost host;
  host.add_running(victim_of(1, true));
  auto after = OwnerPreemption::stop_victim(JobId(1), T(40), host);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, JobState::kPending);
  EXPECT_EQ(host.requeued, std::vector<JobId>{JobId(1)});
  EXPECT_TRUE(host.finished.empty());
  EXPECT_EQ(host.jobs.at(1).preempt_count, 1);
}

TEST(OwnerPreemption, AStoppedVictimThatMayNotBeRequeuedEndsPreempted) {
  testing::FakePreemptionHost host;
  host.add_running(victim_of(1, false));
  auto after = OwnerPreemption::stop_victim(JobId(1), T(40), host);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, JobState::kPreempted);
  ASSERT_EQ(host.finished.size(), 1u);
  EXPECT_EQ(host.finished[0], std::make_pair(JobId(1), JobState::kPreempted));
  EXPECT_TRUE(host.requeued.empty());
  EXPECT_EQ(host.jobs.at(1).preempt_count, 1);
}

TEST(OwnerPreemption, StoppingAJobNotBeingPreemptedIsRefused) {
  testing::FakePreemptionHost host;
  auto unknown = OwnerPreemption::stop_victim(JobId(7), T(40), host);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
  JobRecord plain = victim_of(1, true);
  plain.preempting.reset();
  host.add_running(std::move(plain));
  auto not_marked = OwnerPreemption::stop_victim(JobId(1), T(40), host);
  ASSERT_FALSE(not_marked);
  EXPECT_EQ(not_marked.error().code, ErrorCode::kFailedPrecondition);
  JobRecord waiting = victim_of(2, true);
  host.jobs[2] = std::move(waiting);  // pending, yet marked: not running, so not stoppable
  EXPECT_FALSE(OwnerPreemption::stop_victim(JobId(2), T(40), host));
  EXPECT_TRUE(host.requeued.empty());
  EXPECT_EQ(host.jobs.at(1).preempt_count, 0);
}

TEST(OwnerPreemption, AHostRefusalIsPassedOn) {
  testing::FakePreemptionHost host;
  host.add_running(victim_of(1, true));
  host.refuse = make_error(ErrorCode::kFailedPrecondition, "job 1 is completing");
  auto after = OwnerPreemption::stop_victim(JobId(1), T(40), host);
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().message, "job 1 is completing");
}

}  // namespace
}  // namespace fairway

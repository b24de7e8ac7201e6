// The one pair of translators between the core's JobRecord and the store's row: what a
// record writes comes back from its row, a blocked job is stored waiting, a held row holds
// its spec, and a row's nodes are placed by name only when the cluster knows them all.
#include "coordinator/daemon/job_translation.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

ClusterState two_nodes() {
  ClusterState c;
  c.add_node(NodeTopology::uniform("n0", 1, 4));
  c.add_node(NodeTopology::uniform("n1", 1, 4));
  EXPECT_TRUE(c.add_partition("batch", {"n0", "n1"}));
  return c;
}

JobRecord running_record() {
  JobRecord rec;
  rec.spec.id = JobId(42);
  rec.spec.user = "alice";
  rec.spec.name = "sim";
  rec.spec.submit_time = Time::from_seconds(1000);
  rec.state = JobState::kRunning;
  rec.start_time = Time::from_seconds(1100);
  rec.allocation.nodes = {{NodeIndex(1), {0, 1}, {}}, {NodeIndex(0), {3}, {}}};
  rec.requeue_count = 2;
  rec.reason = "node n2 lost";
  rec.outcome = {7, std::nullopt, 1 << 20, 1500};
  return rec;
}

TEST(JobTranslation, ARowComesBackAsTheRecordItWasWrittenFrom) {
  const ClusterState cluster = two_nodes();
  const JobRecord rec = running_record();
  const StoredJob row = to_row(rec, cluster);
  EXPECT_EQ(row.id, JobId(42));
  EXPECT_EQ(row.user, "alice");
  EXPECT_EQ(row.state, JobState::kRunning);
  ASSERT_TRUE(row.start_time);
  EXPECT_EQ(*row.start_time, rec.start_time);
  EXPECT_FALSE(row.end_time);  // only an ended job has one
  // By name, head first: indices hold only within one cluster layout.
  ASSERT_EQ(row.allocation.size(), 2U);
  EXPECT_EQ(row.allocation[0].node, "n1");
  EXPECT_EQ(row.allocation[1].node, "n0");

  wire::SubmitRequest request;
  request.spec = rec.spec;
  request.spec.id = JobId();  // the row's id and submit time are the ones that count
  request.spec.submit_time = Time();
  request.program.working_dir = "/home/alice";
  request.program.stdout_path = "out.txt";
  const RowJob back = from_row(row, request);
  EXPECT_EQ(back.record.spec.id, JobId(42));
  EXPECT_EQ(back.record.spec.submit_time, rec.spec.submit_time);
  EXPECT_EQ(back.record.state, JobState::kRunning);
  EXPECT_EQ(back.record.start_time, rec.start_time);
  EXPECT_EQ(back.record.requeue_count, 2);
  EXPECT_EQ(back.record.reason, "node n2 lost");
  EXPECT_EQ(back.record.outcome.exit_code, 7);
  EXPECT_EQ(back.record.outcome.peak_memory_bytes, 1 << 20);
  EXPECT_EQ(back.record.outcome.cpu_time_ms, 1500);
  EXPECT_TRUE(back.record.allocation.empty());  // named in the row: allocation_on places it
  EXPECT_EQ(back.tracking.working_dir, "/home/alice");
  EXPECT_EQ(back.tracking.stdout_path, "out.txt");
  // Written again unchanged, it is the same row.
  JobRecord again = back.record;
  again.allocation = *allocation_on(row.allocation, cluster);
  EXPECT_EQ(to_row(again, cluster), row);
}

TEST(JobTranslation, ABlockedJobIsStoredWaitingWithoutAStart) {
  JobRecord rec = running_record();
  rec.state = JobState::kBlocked;
  rec.allocation = {};
  const StoredJob row = to_row(rec, two_nodes());
  EXPECT_EQ(row.state, JobState::kPending);
  EXPECT_FALSE(row.start_time);
  EXPECT_TRUE(row.allocation.empty());
}

TEST(JobTranslation, AnEndedJobKeepsItsEndAndAHeldRowHoldsItsSpec) {
  JobRecord rec = running_record();
  rec.state = JobState::kFailed;
  rec.end_time = Time::from_seconds(1200);
  StoredJob row = to_row(rec, two_nodes());
  ASSERT_TRUE(row.end_time);
  EXPECT_EQ(*row.end_time, rec.end_time);

  wire::SubmitRequest request;
  request.spec.hold = true;  // submitted held, released since: the row says which
  row.state = JobState::kPending;
  EXPECT_FALSE(from_row(row, request).record.spec.hold);
  row.state = JobState::kHeld;
  EXPECT_TRUE(from_row(row, request).record.spec.hold);
}

TEST(JobTranslation, ARunningRowWithoutAStartCountsFromItsSubmission) {
  StoredJob row;
  row.id = JobId(5);
  row.state = JobState::kRunning;
  row.submit_time = Time::from_seconds(900);
  EXPECT_EQ(from_row(row, wire::SubmitRequest{}).record.start_time, Time::from_seconds(900));
  row.state = JobState::kCompleted;  // ended without starting: no start to show
  EXPECT_EQ(from_row(row, wire::SubmitRequest{}).record.start_time, Time());
}

TEST(JobTranslation, ARowIsPlacedOnlyWhenEveryNodeIsKnown) {
  const ClusterState cluster = two_nodes();
  const std::vector<StoredNodeAllocation> known = {{"n1", {2}, {}}, {"n0", {0}, {}}};
  const auto placed = allocation_on(known, cluster);
  ASSERT_TRUE(placed);
  ASSERT_EQ(placed->nodes.size(), 2U);
  EXPECT_EQ(placed->nodes[0].node, NodeIndex(1));
  EXPECT_EQ(placed->nodes[0].cores, std::vector<std::int32_t>{2});
  EXPECT_EQ(placed->nodes[1].node, NodeIndex(0));
  // A node not registered since the restart (or gone): the job waits for it.
  EXPECT_FALSE(allocation_on({{"n0", {0}, {}}, {"n9", {0}, {}}}, cluster));
}

}  // namespace
}  // namespace fairway::daemon

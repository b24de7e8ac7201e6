// The runs of purged jobs (usage_runs): a purge hands back the rows it took, their runs are
// kept and read back whole, forgotten oldest first, and a damaged row is named.
#include <gtest/gtest.h>

#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

using JobStoreUsageTest = StoreTest;

StoredUsageRun run(std::uint64_t job, std::int64_t end) {
  return {JobId(job), "chem", "alice",         "", Time::from_seconds(end - 3600), Time::from_seconds(end),
          16,         64000,  {"v100", "v100"}};
}

TEST_F(JobStoreUsageTest, APurgeHandsBackTheRowsItTook) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(full_job(JobId(4))));
  StoredJob waiting = full_job(JobId(5));
  waiting.state = JobState::kPending;
  waiting.client_token.clear();
  waiting.start_time.reset();
  waiting.end_time.reset();
  waiting.allocation.clear();
  ASSERT_TRUE(store->insert_job(waiting));
  std::vector<StoredJob> rows;
  auto purged = store->purge_finished_before(Time::never(), 10, &rows);
  ASSERT_TRUE(purged) << purged.error().message;
  EXPECT_EQ(*purged, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], full_job(JobId(4))) << "every column of the purged row";
  EXPECT_EQ(store->load_jobs()->size(), 1u);
}

TEST_F(JobStoreUsageTest, RunsAreKeptWholeAndForgottenOldestFirst) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->begin());
    StoredUsageRun in_reservation = run(3, 500);
    in_reservation.reservation = "climate";
    in_reservation.gpu_types.clear();
    for (const StoredUsageRun& r : {run(1, 900), run(2, 100), in_reservation})
      ASSERT_TRUE(store->add_usage_run(r));
    ASSERT_TRUE(store->commit());
  }
  auto store = open_store();
  auto runs = store->load_usage_runs();
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->size(), 3u);
  EXPECT_EQ((*runs)[0], run(2, 100)) << "by end time";
  EXPECT_EQ((*runs)[1].reservation, "climate");
  EXPECT_TRUE((*runs)[1].gpu_types.empty());
  EXPECT_EQ((*runs)[2], run(1, 900));

  auto forgotten = store->purge_usage_runs_before(Time::from_seconds(600), 1);
  ASSERT_TRUE(forgotten);
  EXPECT_EQ(*forgotten, 1);
  EXPECT_EQ(store->load_usage_runs()->front().job, JobId(3)) << "the earliest ended went first";
  EXPECT_EQ(store->purge_usage_runs_before(Time::from_seconds(600), 10).value(), 1);
  EXPECT_EQ(store->load_usage_runs()->size(), 1u);
  EXPECT_FALSE(store->purge_usage_runs_before(Time::from_seconds(600), 0));
}

TEST_F(JobStoreUsageTest, BadRunsAreRefusedNamingWhatIsWrong) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->add_usage_run(run(7, 100)));
  auto twice = store->add_usage_run(run(7, 100));
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().code, ErrorCode::kAlreadyExists);
  StoredUsageRun backwards = run(8, 100);
  backwards.end = backwards.start - Duration::seconds(1);
  StoredUsageRun comma = run(9, 100);
  comma.gpu_types = {"a,b"};
  StoredUsageRun nobody = run(10, 100);
  nobody.account.clear();
  for (const StoredUsageRun& bad : {backwards, comma, nobody}) {
    auto st = store->add_usage_run(bad);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(st.error().message.find("job " + std::to_string(bad.job.value())), std::string::npos)
        << st.error().message;
  }
}

TEST_F(JobStoreUsageTest, ADamagedRowIsNamedNotCharged) {
  {
    auto store = open_store();
    ASSERT_TRUE(store->add_usage_run(run(7, 100)));
  }
  exec_raw("UPDATE usage_runs SET cores = 'many' WHERE job = 7");
  auto store = open_store();
  auto runs = store->load_usage_runs();
  ASSERT_FALSE(runs);
  EXPECT_EQ(runs.error().code, ErrorCode::kIo);
  EXPECT_NE(runs.error().message.find("job 7"), std::string::npos) << runs.error().message;
}

}  // namespace
}  // namespace fairway::daemon

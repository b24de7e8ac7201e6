// FinishedJobs on its own, over a real job store: what is kept of an ended job is found by
// its id, the oldest forgotten first beyond kFinishedViewsKept; keep_finished's purge takes the
// earliest-ended rows first, at most kPurgeBatch a call, goes on at the next call while a batch was full,
// then waits an hour; purged runs are kept for fair-share; without keep_finished nothing is purged.
#include "coordinator/daemon/finished_jobs.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "coordinator/daemon/stored_request.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

class FinishedJobsTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    store_ = open_store();
    ASSERT_NE(store_, nullptr);
    txn_ = std::make_unique<TurnTransaction>(*store_, counters_);
  }
  static Config config(const std::string& coordinator) {
    auto c = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n[coordinator]\n" + coordinator,
        "test");
    EXPECT_TRUE(c) << c.error().message;
    return c ? *c : Config{};
  }
  static std::unique_ptr<Scheduler> scheduler(const Config& c) {
    auto s = Scheduler::create(c);
    EXPECT_TRUE(s) << s.error().message;
    return s ? std::move(*s) : nullptr;
  }
  // Job `id`, which ran on n1 for ten minutes and ended at `ended`.
  static StoredJob finished(std::uint64_t id, Time ended) {
    wire::SubmitRequest r;
    r.spec.id = JobId(id);
    r.spec.user = "alice";
    r.spec.account = "proj";
    r.spec.resources.cores = 1;
    r.program.argv = {"true"};
    StoredJob s;
    s.id = JobId(id);
    s.user = "alice";
    s.request = encode_stored_request(r);
    s.state = JobState::kCompleted;
    s.submit_time = ended - Duration::minutes(20);
    s.start_time = ended - Duration::minutes(10);
    s.end_time = ended;
    s.allocation = {{"n1", {0}, {}}};
    return s;
  }
  void insert(const std::vector<StoredJob>& rows) {
    ASSERT_TRUE(store_->begin());
    for (const StoredJob& s : rows) ASSERT_TRUE(store_->insert_job(s)) << s.id.value();
    ASSERT_TRUE(store_->commit());
  }
  // One turn's purge, committed.
  void purge(FinishedJobs& f, const Scheduler& s, Time now) {
    f.purge_expired(now, *store_, *txn_, s);
    ASSERT_TRUE(txn_->commit()) << txn_->stopped().error().message;
  }
  std::vector<std::uint64_t> stored_ids() {
    std::vector<std::uint64_t> ids;
    auto jobs = store_->load_jobs();
    EXPECT_TRUE(jobs) << jobs.error().message;
    if (jobs) {
      for (const StoredJob& j : *jobs) ids.push_back(j.id.value());
    }
    return ids;
  }
  std::size_t kept_runs() {
    auto runs = store_->load_usage_runs();
    EXPECT_TRUE(runs) << runs.error().message;
    return runs ? runs->size() : 0;
  }

  Time now_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<JobStore> store_;
  ServiceCounters counters_;
  std::unique_ptr<TurnTransaction> txn_;
};

TEST_F(FinishedJobsTest, TheOldestViewsAreForgottenFirstBeyondTheLimit) {
  FinishedJobs f(config(""));
  const std::uint64_t last = kFinishedViewsKept + 2;
  for (std::uint64_t id : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, last}) f.keep(JobId(id));
  for (std::uint64_t id = 1; id <= last; ++id) f.ended(JobId(id));
  f.trim();
  EXPECT_EQ(f.order().size(), kFinishedViewsKept);
  EXPECT_EQ(f.order().front(), 3u);
  EXPECT_EQ(f.order().back(), last);
  EXPECT_EQ(f.find(JobId(1)), nullptr);
  EXPECT_EQ(f.find(JobId(2)), nullptr);
  EXPECT_NE(f.find(JobId(3)), nullptr);
  EXPECT_NE(f.find(JobId(last)), nullptr);
  EXPECT_EQ(f.kept().size(), 2u);
}

TEST_F(FinishedJobsTest, AnEndedJobsViewAndAnEndedArraysEntryAreFoundUntilTheyAgeOut) {
  FinishedJobs f(config(""));
  wire::JobView v;
  v.id = JobId(5);
  v.user = "alice";
  v.state = JobState::kTimeout;
  f.keep(JobId(5)).view = v;
  f.ended(JobId(5));
  f.keep(JobId(6)).array = true;
  f.ended(JobId(6));
  EXPECT_EQ(f.find(JobId(4)), nullptr) << "never ended";
  ASSERT_NE(f.find(JobId(5)), nullptr);
  ASSERT_TRUE(f.find(JobId(5))->view.has_value());
  EXPECT_EQ(f.find(JobId(5))->view->state, JobState::kTimeout);
  EXPECT_FALSE(f.find(JobId(5))->array);
  ASSERT_NE(f.find(JobId(6)), nullptr);
  EXPECT_TRUE(f.find(JobId(6))->array);
  EXPECT_FALSE(f.find(JobId(6))->view.has_value()) << "an array's tasks are its jobs";
  EXPECT_EQ(f.order(), (std::deque<std::uint64_t>{5, 6}));
}

TEST_F(FinishedJobsTest, ThePurgeTakesTheEarliestEndedInBatchesThenWaitsAnHour) {
  const Config c = config("keep_finished = \"2h\"\n");
  auto s = scheduler(c);
  ASSERT_NE(s, nullptr);
  FinishedJobs f(c);
  // kPurgeBatch + 100 jobs ended 3 hours ago or more, the highest ids the earliest ended;
  // one that ended 90 minutes ago; one still waiting.
  const std::uint64_t expired = kPurgeBatch + 100;
  std::vector<StoredJob> rows;
  for (std::uint64_t id = 1; id <= expired; ++id) {
    rows.push_back(
        finished(id, now_ - Duration::hours(3) - Duration::seconds(static_cast<std::int64_t>(id))));
  }
  const std::uint64_t recent = expired + 1, waiting = expired + 2;
  rows.push_back(finished(recent, now_ - Duration::minutes(90)));
  rows.push_back(pending_job(JobId(waiting), "alice", "w"));
  insert(rows);

  purge(f, *s, now_);
  std::vector<std::uint64_t> left = stored_ids();
  ASSERT_EQ(left.size(), 102u) << "one batch is kPurgeBatch jobs";
  // The earliest ended (ids 101 and up) went first.
  EXPECT_EQ(left.front(), 1u);
  EXPECT_EQ(left[99], 100u);
  EXPECT_EQ(kept_runs(), static_cast<std::size_t>(kPurgeBatch)) << "each purged run is kept for fair-share";

  purge(f, *s, now_ + Duration::minutes(1));
  EXPECT_EQ(stored_ids(), (std::vector<std::uint64_t>{recent, waiting}))
      << "a full batch means more are due: the next call goes on";
  EXPECT_EQ(kept_runs(), static_cast<std::size_t>(expired));

  purge(f, *s, now_ + Duration::minutes(40));  // `recent` ended 130 minutes ago by now
  EXPECT_EQ(stored_ids(), (std::vector<std::uint64_t>{recent, waiting})) << "purged twice within the hour";
  purge(f, *s, now_ + Duration::minutes(62));
  EXPECT_EQ(stored_ids(), (std::vector<std::uint64_t>{waiting})) << "waiting jobs never leave";
}

TEST_F(FinishedJobsTest, WithoutKeepFinishedNothingIsPurgedNorIsTheStoreTouched) {
  const Config c = config("");
  auto s = scheduler(c);
  ASSERT_NE(s, nullptr);
  FinishedJobs f(c);
  insert({finished(1, now_ - Duration::days(400))});
  f.purge_expired(now_, *store_, *txn_, *s);
  EXPECT_FALSE(store_->in_transaction());
  ASSERT_TRUE(txn_->commit());
  EXPECT_EQ(stored_ids(), std::vector<std::uint64_t>{1});
}

TEST_F(FinishedJobsTest, AFailedPurgeFailsTheTurn) {
  const Config c = config("keep_finished = \"2h\"\n");
  auto s = scheduler(c);
  ASSERT_NE(s, nullptr);
  FinishedJobs f(c);
  insert({finished(1, now_ - Duration::hours(3))});
  store_->fail_operation_for_test(2);  // the begin, then the purge
  f.purge_expired(now_, *store_, *txn_, *s);
  EXPECT_FALSE(txn_->commit());
  EXPECT_FALSE(txn_->stopped());
  EXPECT_EQ(stored_ids(), std::vector<std::uint64_t>{1});
}

}  // namespace
}  // namespace fairway::daemon

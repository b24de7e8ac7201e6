// The array rows on their own, over a ServiceContext of a real core and store and a fake
// rest-of-service: a task acted on alone gets its own row (the array's program, its own
// spec, the array's files), an unreadable array request fails the turn, the array's row
// follows its hold and its end, and arrays that ended are returned for their mail.
#include "coordinator/daemon/array_rows.h"

#include <gtest/gtest.h>

#include "coordinator/daemon/finished_jobs.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/stored_request.h"
#include "coordinator/daemon/turn_transaction.h"
#include "shared/base/try.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

// The rest of the service, as far as the array rows ask it: the turn's transaction and
// the stored requests; nothing else may be asked.
class FakeService : public ServiceActions {
 public:
  FakeService(JobStore& store, TurnTransaction& txn) : store_(store), txn_(txn) {}
  void reply(Channel, const std::string&, const wire::Message&) override { ADD_FAILURE() << "reply"; }
  bool ensure_txn() override { return txn_.open(); }
  bool write(const Status& st, std::string_view what, JobId id) override { return txn_.write(st, what, id); }
  void fail_turn() override { txn_.fail(); }
  void persist(JobId) override { ADD_FAILURE() << "persist"; }
  void mark_terminal(JobId, Time) override { ADD_FAILURE() << "mark_terminal"; }
  bool on_job_event(JobId, const JobEvent&, Time) override {
    ADD_FAILURE() << "on_job_event";
    return false;
  }
  Result<wire::SubmitRequest> stored_request(JobId id) const override {
    FAIRWAY_TRY_ASSIGN(record, store_.load_request(id));
    return decode_stored_request(record);
  }
  void persist_step(const StoredStep&) override { ADD_FAILURE() << "persist_step"; }
  void changed() override { ADD_FAILURE() << "changed"; }

 private:
  JobStore& store_;
  TurnTransaction& txn_;
};

class ArrayRowsTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    store_ = open_store();
    ASSERT_NE(store_, nullptr);
    auto config = parse_config("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n", "test");
    ASSERT_TRUE(config) << config.error().message;
    config_ = *config;
    auto scheduler = Scheduler::create(config_);
    ASSERT_TRUE(scheduler) << scheduler.error().message;
    scheduler_ = std::move(*scheduler);
    txn_ = std::make_unique<TurnTransaction>(*store_, counters_);
    service_ = std::make_unique<FakeService>(*store_, *txn_);
    ctx_ =
        std::make_unique<ServiceContext>(ServiceContext{config_, *scheduler_, *store_, registry_, tracking_,
                                                        finished_, tokens_, limiter_, counters_, *service_});
  }

  // Array 10 with tasks 0 to `last` (ids 11 on), held so that no pass starts them, with
  // its row and its tracking as its submission makes them.
  void submit_array(const std::string& indices, bool held, std::string request = {}) {
    wire::SubmitRequest r;
    r.spec.id = JobId(10);
    r.spec.user = "alice";
    r.spec.account = "proj";
    r.spec.name = "sweep";
    r.spec.resources.cores = 1;
    r.spec.time_limit = Duration::minutes(10);
    r.spec.submit_time = t0_;
    r.spec.array = *parse_array_spec(indices, 100);
    r.spec.hold = held;
    r.client_token = "tok";
    r.program.argv = {"/bin/sweep", "--fast"};
    r.program.working_dir = "/work/alice";
    ASSERT_TRUE(scheduler_->submit(r.spec, t0_));
    StoredJob row;
    row.id = JobId(10);
    row.user = "alice";
    row.client_token = "tok";
    row.request = request.empty() ? encode_stored_request(r) : request;
    row.state = held ? JobState::kHeld : JobState::kPending;
    row.submit_time = t0_;
    ASSERT_TRUE(store_->insert_job(row));
    JobTracking& t = tracking_[10];
    t.array = true;
    t.working_dir = "/work/alice";
    t.stdout_path = "/work/alice/out";
    t.stderr_path = "/work/alice/err";
  }
  std::optional<StoredJob> row(std::uint64_t id) {
    auto jobs = store_->load_jobs();
    EXPECT_TRUE(jobs) << jobs.error().message;
    if (!jobs) return std::nullopt;
    for (const StoredJob& j : *jobs) {
      if (j.id.value() == id) return j;
    }
    return std::nullopt;
  }

  Time t0_ = Time::from_seconds(1'700'000'000);
  Config config_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<JobStore> store_;
  NodeRegistry registry_;
  std::unordered_map<std::uint64_t, JobTracking> tracking_;
  FinishedJobs finished_{Config{}};
  ClientTokens tokens_;
  SubmitRateLimiter limiter_{10, 1.0};
  ServiceCounters counters_;
  std::unique_ptr<TurnTransaction> txn_;
  std::unique_ptr<FakeService> service_;
  std::unique_ptr<ServiceContext> ctx_;
};

TEST_F(ArrayRowsTest, ATaskActedOnAloneGetsItsOwnRowAndTheArraysFiles) {
  submit_array("0-2", true);
  auto task = scheduler_->split_array_task(JobId(10), 1);
  ASSERT_TRUE(task) << task.error().message;
  ASSERT_TRUE(adopt_array_task(*ctx_, *task));
  ASSERT_TRUE(txn_->commit());
  ASSERT_TRUE(tracking_.contains(task->value()));
  EXPECT_EQ(tracking_[task->value()].working_dir, "/work/alice");
  EXPECT_EQ(tracking_[task->value()].stdout_path, "/work/alice/out");
  EXPECT_EQ(tracking_[task->value()].stderr_path, "/work/alice/err");
  auto stored = row(task->value());
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->state, JobState::kHeld);
  EXPECT_TRUE(stored->client_token.empty()) << "a task's row must not claim its array's token";
  auto request = decode_stored_request(stored->request);
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->program.argv, (std::vector<std::string>{"/bin/sweep", "--fast"}));
  EXPECT_EQ(request->spec.array_job, JobId(10));
  EXPECT_EQ(request->spec.array_task, 1);

  // Adopted once: again it writes nothing.
  ASSERT_TRUE(adopt_array_task(*ctx_, *task));
  EXPECT_FALSE(store_->in_transaction());
}

TEST_F(ArrayRowsTest, OnlyAMadeTaskIsAdopted) {
  submit_array("0-2", true);
  EXPECT_FALSE(adopt_array_task(*ctx_, JobId(99))) << "no such job";
  EXPECT_TRUE(adopt_array_task(*ctx_, JobId(10))) << "the array itself has its row";
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_TRUE(txn_->commit());
}

TEST_F(ArrayRowsTest, AnUnreadableArrayRequestFailsTheTurn) {
  submit_array("0-2", true, "not a stored request");
  auto task = scheduler_->split_array_task(JobId(10), 0);
  ASSERT_TRUE(task) << task.error().message;
  EXPECT_FALSE(adopt_array_task(*ctx_, *task));
  EXPECT_FALSE(tracking_.contains(task->value()));
  EXPECT_FALSE(txn_->commit()) << "a turn that could not store the task's row committed";
  EXPECT_FALSE(row(task->value()).has_value());
}

TEST_F(ArrayRowsTest, TheArraysRowFollowsItsHoldAndNotAnArrayWithoutARow) {
  submit_array("0-2", true);
  ASSERT_TRUE(scheduler_->release(JobId(10), t0_));
  persist_array(*ctx_, *scheduler_->array(JobId(10)), std::nullopt);
  ASSERT_TRUE(txn_->commit());
  EXPECT_EQ(row(10)->state, JobState::kPending);
  EXPECT_EQ(row(10)->end_time, std::nullopt);

  tracking_.erase(10);  // as if its row had never been written
  ASSERT_TRUE(scheduler_->hold(JobId(10)));
  persist_array(*ctx_, *scheduler_->array(JobId(10)), std::nullopt);
  EXPECT_FALSE(store_->in_transaction());
  EXPECT_EQ(row(10)->state, JobState::kPending);
}

TEST_F(ArrayRowsTest, AnArrayWhoseLastTaskEndedEndsItsRowAndIsReturned) {
  submit_array("0-1", false);
  scheduler_->schedule(t0_);
  EXPECT_TRUE(end_arrays(*ctx_, t0_).empty()) << "its tasks run";
  const Time end = t0_ + Duration::minutes(5);
  ASSERT_TRUE(scheduler_->finish(JobId(11), JobState::kCompleted, end));
  ASSERT_TRUE(scheduler_->finish(JobId(12), JobState::kFailed, end));
  const std::vector<ArrayJob> ended = end_arrays(*ctx_, end);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].id(), JobId(10));
  ASSERT_TRUE(txn_->commit());
  EXPECT_EQ(row(10)->state, JobState::kFailed) << "a task failed";
  EXPECT_EQ(row(10)->end_time, end);
  EXPECT_TRUE(end_arrays(*ctx_, end).empty()) << "an array ends once";
}

}  // namespace
}  // namespace fairway::daemon

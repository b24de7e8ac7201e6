// recover_from on a store written in a temp dir: what it puts into the scheduler, and the
// value it returns (tracking, jobs awaiting their nodes, drains, finished order, counts).
#include "coordinator/daemon/recovered_state.h"

#include <gtest/gtest.h>

#include "coordinator/daemon/stored_request.h"
#include "store_test_fixture.h"

namespace fairway::daemon {
namespace {

const Time kNow = Time::from_seconds(1'700'000'000);
const Time kMono = Time::from_seconds(500);

class RecoveredStateTest : public StoreTest {
 protected:
  Config config() {
    auto c = parse_config(
        "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
        "[coordinator]\nstate_dir = \"" +
            state_dir() + "\"\n",
        "test");
    EXPECT_TRUE(c) << c.error().message;
    return *c;
  }

  static StoredJob row(std::uint64_t id, JobState state, std::string token = {}) {
    wire::SubmitRequest r;
    r.program.argv = {"true"};
    r.program.working_dir = "/work/" + std::to_string(id);
    r.spec.user = "alice";
    r.spec.resources.cores = 2;
    StoredJob s;
    s.id = JobId(id);
    s.user = "alice";
    s.client_token = std::move(token);
    s.request = encode_stored_request(r);
    s.state = state;
    s.submit_time = kNow - Duration::seconds(600);
    return s;
  }

  // Writes `rows` and a drain of n1 into a fresh store, and recovers from it.
  Result<RecoveredState> recover(const std::vector<StoredJob>& rows, Scheduler& scheduler) {
    auto store = open_store();
    EXPECT_TRUE(store->begin());
    for (const StoredJob& s : rows) EXPECT_TRUE(store->insert_job(s));
    EXPECT_TRUE(store->set_node_admin_state({"n1", true, "fan", "bob", 1001, kNow}));
    EXPECT_TRUE(store->commit());
    return recover_from(*store, config_, scheduler, {"fairway", 990}, kNow, kMono);
  }

  Config config_ = config();
};

TEST_F(RecoveredStateTest, ReturnsWhatItRestoredAndPutsTheQueueBackIntoTheScheduler) {
  auto scheduler = Scheduler::create(config_, NodeSource::kConfig);
  ASSERT_TRUE(scheduler) << scheduler.error().message;
  StoredJob waiting = row(1, JobState::kPending, "tok-1");
  StoredJob running = row(2, JobState::kRunning);
  running.start_time = kNow - Duration::seconds(60);
  running.allocation = {{"n1", {0, 1}, {}}};
  StoredJob done = row(3, JobState::kCompleted);
  done.start_time = kNow - Duration::seconds(300);
  done.end_time = kNow - Duration::seconds(100);
  done.allocation = {{"n1", {2, 3}, {}}};
  StoredJob elsewhere = row(4, JobState::kRunning);  // on a node the config does not declare
  elsewhere.start_time = kNow - Duration::seconds(60);
  elsewhere.allocation = {{"n9", {0, 1}, {}}};

  auto st = recover({waiting, running, done, elsewhere}, **scheduler);
  ASSERT_TRUE(st) << st.error().message;

  EXPECT_EQ(st->waiting, 1U);
  EXPECT_EQ(st->running, 2U);
  EXPECT_EQ(st->finished, 1U);
  ASSERT_EQ(st->tracking.size(), 3U);  // the ended job's view is FinishedJobs'
  EXPECT_EQ(st->tracking.at(1).working_dir, "/work/1");
  EXPECT_EQ(st->tracking.at(2).unconfirmed_since, kMono);  // waits for its agent from `mono`
  ASSERT_NE(st->finished_jobs.find(JobId(3)), nullptr);
  EXPECT_TRUE(st->finished_jobs.find(JobId(3))->view.has_value());
  EXPECT_FALSE(st->tracking.at(4).unconfirmed_since.has_value());
  EXPECT_EQ(st->finished_jobs.order(), std::deque<std::uint64_t>{3});
  ASSERT_EQ(st->awaiting_nodes.size(), 1U);
  EXPECT_EQ(st->awaiting_nodes.begin()->first, 4U);

  ASSERT_EQ(st->stored_drains.count("n1"), 1U);
  const NodeEntry* n1 = st->nodes.find("n1");
  ASSERT_NE(n1, nullptr);
  EXPECT_TRUE(n1->drained);
  EXPECT_EQ(n1->reason, "fan");
  EXPECT_EQ(n1->reason_by.user, "bob");
  EXPECT_EQ(st->nodes.system_user().user, "fairway");

  EXPECT_EQ(st->tokens.find("alice", "tok-1", kNow), JobId(1));
  EXPECT_EQ((*scheduler)->job(JobId(1))->state, JobState::kPending);
  EXPECT_EQ((*scheduler)->job(JobId(2))->state, JobState::kRunning);
  EXPECT_EQ((*scheduler)->job(JobId(4)), nullptr);  // not placed until n9 is known
}

TEST_F(RecoveredStateTest, TwoRunningRowsOnTheSameCoresRestoreTheFirstAndEndTheSecond) {
  auto scheduler = Scheduler::create(config_, NodeSource::kConfig);
  ASSERT_TRUE(scheduler) << scheduler.error().message;
  StoredJob first = row(1, JobState::kRunning);
  first.allocation = {{"n1", {0, 1}, {}}};
  StoredJob second = first;
  second.id = JobId(2);

  auto st = recover({first, second}, **scheduler);
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(st->running, 2U);
  EXPECT_EQ((*scheduler)->job(JobId(1))->state, JobState::kRunning);
  EXPECT_EQ(st->finished_jobs.order(), std::deque<std::uint64_t>{2});
  ASSERT_NE(st->finished_jobs.find(JobId(2)), nullptr);
  ASSERT_TRUE(st->finished_jobs.find(JobId(2))->view.has_value());
  EXPECT_EQ(st->finished_jobs.find(JobId(2))->view->state, JobState::kNodeFail);
  EXPECT_FALSE(st->tracking.contains(2));
  EXPECT_TRUE(st->awaiting_nodes.empty());
}

TEST_F(RecoveredStateTest, AnUnreadableRequestIsAnErrorNamingTheJob) {
  auto scheduler = Scheduler::create(config_, NodeSource::kConfig);
  ASSERT_TRUE(scheduler) << scheduler.error().message;
  StoredJob bad = row(7, JobState::kPending);
  bad.request = "not a request";
  auto st = recover({bad}, **scheduler);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("job 7's stored request cannot be read"), std::string::npos)
      << st.error().message;
}

}  // namespace
}  // namespace fairway::daemon

#include "coordinator/daemon/job_store.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

using JobStoreTest = StoreTest;

TEST_F(JobStoreTest, RoundTripsAJobWithEveryFieldSet) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->begin());
  auto id = store->allocate_job_id();
  ASSERT_TRUE(id) << id.error().message;
  StoredJob job = full_job(*id);
  ASSERT_TRUE(store->insert_job(job));
  ASSERT_TRUE(store->commit());

  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front(), job);
}

TEST_F(JobStoreTest, RoundTripsAJobWithOnlyTheRequiredFields) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  StoredJob job = pending_job(JobId(1), "bob", "");
  job.request.clear();
  ASSERT_TRUE(store->insert_job(job));
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front(), job);
}

TEST_F(JobStoreTest, UpdateChangesStateButNeverIdentityOrRequest) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  StoredJob submitted = pending_job(JobId(7), "carol", "t1");
  ASSERT_TRUE(store->insert_job(submitted));

  StoredJob running = submitted;
  running.state = JobState::kRunning;
  running.start_time = Time::from_seconds(1010);
  running.allocation = {{"gpu01", {0, 1, 2, 3}, {2}}};
  // The update must ignore these: they belong to the submission.
  running.user = "mallory";
  running.client_token = "other";
  running.request = "rewritten";
  ASSERT_TRUE(store->update_job(running));
  // Agents resend until acknowledged: the same update again is fine.
  ASSERT_TRUE(store->update_job(running));

  StoredJob expected = submitted;
  expected.state = JobState::kRunning;
  expected.start_time = running.start_time;
  expected.allocation = running.allocation;
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front(), expected);

  // Fields can also be cleared again (a requeue drops the start and the allocation).
  StoredJob requeued = expected;
  requeued.state = JobState::kRequeued;
  requeued.start_time.reset();
  requeued.allocation.clear();
  requeued.reason = "node gpu01 silent";
  requeued.requeue_count = 1;
  ASSERT_TRUE(store->update_job(requeued));
  jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  EXPECT_EQ(jobs->front(), requeued);
}

TEST_F(JobStoreTest, UpdateOfAnUnknownJobIsNotFound) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto s = store->update_job(pending_job(JobId(99), "dave", ""));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kNotFound);
  EXPECT_NE(s.error().message.find("job 99"), std::string::npos) << s.error().message;
}

TEST_F(JobStoreTest, RestartReloadsEveryCommittedJobAndNeverReusesIds) {
  std::vector<StoredJob> committed;
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->begin());
    for (int i = 0; i < 3; ++i) {
      auto id = store->allocate_job_id();
      ASSERT_TRUE(id) << id.error().message;
      committed.push_back(full_job(*id));
      ASSERT_TRUE(store->insert_job(committed.back()));
    }
    ASSERT_TRUE(store->commit());
    // An id allocated outside a transaction is persisted at once, even with no job.
    auto lost = store->allocate_job_id();
    ASSERT_TRUE(lost);
    EXPECT_EQ(lost->value(), 4u);
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  EXPECT_EQ(*jobs, committed);
  auto next = store->allocate_job_id();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->value(), 5u);

  // Purging every job must not bring the counter back either.
  ASSERT_TRUE(store->purge_finished_before(Time::never()));
  jobs = store->load_jobs();
  ASSERT_TRUE(jobs);
  EXPECT_TRUE(jobs->empty());
  store.reset();
  store = open_store();
  ASSERT_NE(store, nullptr);
  next = store->allocate_job_id();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->value(), 6u);
}

TEST_F(JobStoreTest, IdsAllocatedInACommittedTurnAreNotReusedAfterRestart) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->begin());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(store->allocate_job_id());
    ASSERT_TRUE(store->commit());
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto next = store->allocate_job_id();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->value(), 11u);
}

TEST_F(JobStoreTest, AReturnedIdIsHandedOutAgainButNeverAnOlderOne) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->begin());
    auto first = store->allocate_job_id();
    auto refused = store->allocate_job_id();
    ASSERT_TRUE(first && refused);
    store->return_job_id(*refused);
    auto again = store->allocate_job_id();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->value(), refused->value());
    store->return_job_id(*first);  // not the newest: it may be in use
    auto next = store->allocate_job_id();
    ASSERT_TRUE(next);
    EXPECT_EQ(next->value(), refused->value() + 1);
    store->return_job_id(*next);
    ASSERT_TRUE(store->commit());
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto after_restart = store->allocate_job_id();
  ASSERT_TRUE(after_restart);
  EXPECT_EQ(after_restart->value(), 3u) << "the returned id was the counter committed";
}

TEST_F(JobStoreTest, CounterBelowAnExistingJobIsRaisedPastIt) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->insert_job(pending_job(JobId(500), "erin", "")));
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto next = store->allocate_job_id();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->value(), 501u);
}

// [coordinator] first_job_id: a site moving from Slurm starts above Slurm's last id; a
// lower value later (or the same one again) never hands out an id already used.
TEST_F(JobStoreTest, TheFirstJobIdRaisesTheCounterButNeverLowersIt) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    store->raise_next_job_id(25000);
    ASSERT_TRUE(store->begin());
    auto first = store->allocate_job_id();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->value(), 25000u);
    ASSERT_TRUE(store->commit());
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  store->raise_next_job_id(1);
  store->raise_next_job_id(25000);
  auto next = store->allocate_job_id();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->value(), 25001u);
}

TEST_F(JobStoreTest, ATurnNotCommittedBeforeACrashLeavesNothing) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->insert_job(pending_job(JobId(1), "frank", "kept")));
    ASSERT_TRUE(store->begin());
    ASSERT_TRUE(store->insert_job(pending_job(JobId(2), "frank", "lost")));
    StoredJob started = pending_job(JobId(1), "frank", "kept");
    started.state = JobState::kRunning;
    ASSERT_TRUE(store->update_job(started));
    ASSERT_TRUE(store->set_node_admin_state({"n001", true, "maintenance"}));
    ASSERT_TRUE(store->set_meta("fairshare", "snapshot"));
    // Destroyed here with the transaction open: the process died mid-turn.
  }
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front(), pending_job(JobId(1), "frank", "kept"));
  auto nodes = store->load_node_admin_states();
  ASSERT_TRUE(nodes);
  EXPECT_TRUE(nodes->empty());
  auto meta = store->get_meta("fairshare");
  ASSERT_TRUE(meta);
  EXPECT_FALSE(meta->has_value());
}

TEST_F(JobStoreTest, AProcessKilledMidTurnLosesOnlyThatTurn) {
  // The child dies without running any destructor: no rollback, no close, as on SIGKILL.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = JobStore::open(state_dir());
    bool ok = store && (*store)->insert_job(pending_job(JobId(1), "hank", "committed")) &&
              (*store)->begin() && (*store)->insert_job(pending_job(JobId(2), "hank", "in-flight"));
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front(), pending_job(JobId(1), "hank", "committed"));
}

TEST_F(JobStoreTest, RollbackDropsTheTurnAndTheStoreGoesOn) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->begin());
  auto dropped = store->allocate_job_id();
  ASSERT_TRUE(dropped);
  ASSERT_TRUE(store->insert_job(pending_job(*dropped, "gina", "a")));
  store->rollback();
  EXPECT_FALSE(store->in_transaction());

  ASSERT_TRUE(store->begin());
  auto kept = store->allocate_job_id();
  ASSERT_TRUE(kept);
  EXPECT_GT(kept->value(), dropped->value());
  ASSERT_TRUE(store->insert_job(pending_job(*kept, "gina", "a")));
  ASSERT_TRUE(store->commit());
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs);
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front().id, *kept);
}

TEST_F(JobStoreTest, TransactionCallsOutOfOrderAreErrors) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto c = store->commit();
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kFailedPrecondition);
  ASSERT_TRUE(store->begin());
  auto b = store->begin();
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_TRUE(store->commit());
}

TEST_F(JobStoreTest, SameUserAndTokenCannotBeInsertedTwice) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(pending_job(JobId(1), "alice", "retry-me")));
  auto again = store->insert_job(pending_job(JobId(2), "alice", "retry-me"));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kAlreadyExists);
  EXPECT_NE(again.error().message.find("'alice'"), std::string::npos) << again.error().message;
  EXPECT_NE(again.error().message.find("'retry-me'"), std::string::npos) << again.error().message;

  auto found = store->find_by_token("alice", "retry-me");
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ(**found, JobId(1));
  auto missing = store->find_by_token("alice", "never-sent");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->has_value());
}

TEST_F(JobStoreTest, ADifferentUserWithTheSameTokenIsADifferentJob) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(pending_job(JobId(1), "alice", "tok")));
  auto bobs_lookup = store->find_by_token("bob", "tok");
  ASSERT_TRUE(bobs_lookup);
  EXPECT_FALSE(bobs_lookup->has_value());
  ASSERT_TRUE(store->insert_job(pending_job(JobId(2), "bob", "tok")));
  auto bobs = store->find_by_token("bob", "tok");
  ASSERT_TRUE(bobs);
  ASSERT_TRUE(bobs->has_value());
  EXPECT_EQ(**bobs, JobId(2));
}

TEST_F(JobStoreTest, EmptyTokensNeverCollide) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(pending_job(JobId(1), "alice", "")));
  ASSERT_TRUE(store->insert_job(pending_job(JobId(2), "alice", "")));
  auto found = store->find_by_token("alice", "");
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->has_value());
}

TEST_F(JobStoreTest, ADuplicateIdIsAnErrorNamingIt) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(pending_job(JobId(3), "alice", "a")));
  auto again = store->insert_job(pending_job(JobId(3), "bob", "b"));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kAlreadyExists);
  EXPECT_NE(again.error().message.find("job 3 already exists"), std::string::npos) << again.error().message;
}

TEST_F(JobStoreTest, ARejectedInsertLeavesTheRestOfTheTurnToCommit) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(pending_job(JobId(1), "alice", "dup")));
  ASSERT_TRUE(store->begin());
  ASSERT_TRUE(store->insert_job(pending_job(JobId(2), "alice", "x")));
  ASSERT_FALSE(store->insert_job(pending_job(JobId(3), "alice", "dup")));
  ASSERT_TRUE(store->insert_job(pending_job(JobId(4), "alice", "y")));
  ASSERT_TRUE(store->commit());
  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs);
  ASSERT_EQ(jobs->size(), 3u);
  EXPECT_EQ((*jobs)[0].id, JobId(1));
  EXPECT_EQ((*jobs)[1].id, JobId(2));
  EXPECT_EQ((*jobs)[2].id, JobId(4));
}

TEST_F(JobStoreTest, BadJobsAreRefusedNamingTheField) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto zero = store->insert_job(pending_job(JobId(0), "alice", ""));
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(zero.error().message.find("id 0"), std::string::npos) << zero.error().message;

  auto no_user = store->insert_job(pending_job(JobId(1), "", ""));
  ASSERT_FALSE(no_user);
  EXPECT_NE(no_user.error().message.find("user"), std::string::npos) << no_user.error().message;

  StoredJob bad_node = pending_job(JobId(2), "alice", "");
  bad_node.allocation = {{"n0:1", {0}, {}}};
  auto node = store->insert_job(bad_node);
  ASSERT_FALSE(node);
  EXPECT_NE(node.error().message.find("'n0:1'"), std::string::npos) << node.error().message;

  StoredJob negative = pending_job(JobId(3), "alice", "");
  negative.requeue_count = -1;
  auto requeues = store->insert_job(negative);
  ASSERT_FALSE(requeues);
  EXPECT_NE(requeues.error().message.find("requeue_count -1"), std::string::npos) << requeues.error().message;

  auto jobs = store->load_jobs();
  ASSERT_TRUE(jobs);
  EXPECT_TRUE(jobs->empty());
}

TEST_F(JobStoreTest, PurgeDropsOnlyTerminalJobsThatEndedBeforeTheCut) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto make = [](std::uint64_t id, JobState state, std::optional<std::int64_t> end) {
    StoredJob job = pending_job(JobId(id), "alice", "");
    job.state = state;
    if (end) job.end_time = Time::from_seconds(*end);
    return job;
  };
  ASSERT_TRUE(store->begin());
  ASSERT_TRUE(store->insert_job(make(1, JobState::kCompleted, 100)));
  ASSERT_TRUE(store->insert_job(make(2, JobState::kPending, std::nullopt)));
  ASSERT_TRUE(store->insert_job(make(3, JobState::kRunning, std::nullopt)));
  ASSERT_TRUE(store->insert_job(make(4, JobState::kFailed, 200)));
  // Requeued carries the end of its last run but goes back to the queue: never purged.
  ASSERT_TRUE(store->insert_job(make(5, JobState::kRequeued, 150)));
  ASSERT_TRUE(store->insert_job(make(6, JobState::kCancelled, 300)));  // not before the cut
  ASSERT_TRUE(store->insert_job(make(7, JobState::kHeld, std::nullopt)));
  ASSERT_TRUE(store->insert_job(make(8, JobState::kCompleting, 120)));
  ASSERT_TRUE(store->commit());

  // In bounded batches, the earliest ended first; a short batch says none is left.
  auto purged = store->purge_finished_before(Time::from_seconds(300), 1);
  ASSERT_TRUE(purged);
  EXPECT_EQ(*purged, 1);
  const auto ids = [&] {
    auto jobs = store->load_jobs();
    std::vector<std::uint64_t> v;
    for (const auto& j : jobs.value()) v.push_back(j.id.value());
    return v;
  };
  EXPECT_EQ(ids(), (std::vector<std::uint64_t>{2, 3, 4, 5, 6, 7, 8})) << "job 1 ended first";
  purged = store->purge_finished_before(Time::from_seconds(300), 5);
  ASSERT_TRUE(purged);
  EXPECT_EQ(*purged, 1);
  EXPECT_EQ(ids(), (std::vector<std::uint64_t>{2, 3, 5, 6, 7, 8}));
  EXPECT_EQ(store->purge_finished_before(Time::from_seconds(300)).value(), 0);
  EXPECT_FALSE(store->purge_finished_before(Time::from_seconds(300), 0));
}

TEST_F(JobStoreTest, ACorruptRowIsAnErrorNamingTheJobAndColumn) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->insert_job(full_job(JobId(12))));
  }
  struct Damage {
    const char* sql;
    const char* column;
  };
  for (Damage d : {Damage{"UPDATE jobs SET allocation = 'n001:0-x/' WHERE id = 12", "allocation"},
                   Damage{"UPDATE jobs SET state = 'exploded' WHERE id = 12", "state"},
                   Damage{"UPDATE jobs SET exit_code = 'three' WHERE id = 12", "exit_code"},
                   Damage{"UPDATE jobs SET signal = 4294967296 WHERE id = 12", "signal"},
                   Damage{"UPDATE jobs SET request = 'text' WHERE id = 12", "request"},
                   Damage{"UPDATE jobs SET requeue_count = -4 WHERE id = 12", "requeue_count"}}) {
    SCOPED_TRACE(d.sql);
    exec_raw(
        "UPDATE jobs SET allocation = 'n001:0-3/', state = 'running', exit_code = NULL, "
        "signal = NULL, request = x'00', requeue_count = 0 WHERE id = 12");
    exec_raw(d.sql);
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    auto jobs = store->load_jobs();
    ASSERT_FALSE(jobs);
    EXPECT_EQ(jobs.error().code, ErrorCode::kIo);
    EXPECT_NE(jobs.error().message.find("job 12"), std::string::npos) << jobs.error().message;
    EXPECT_NE(jobs.error().message.find(std::string("column ") + d.column), std::string::npos)
        << jobs.error().message;
  }
}

}  // namespace
}  // namespace fairway::daemon

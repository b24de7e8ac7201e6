// Job arrays in the core: one prototype however many tasks, tasks made into jobs only as
// they could start (plus a planning window), %limit, per-task control, dependencies on a
// whole array, the per-user limits, and restore after a restart.
#include <gtest/gtest.h>

#include <map>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

JobSpec array_job(std::uint64_t id, std::string_view indices, std::int32_t cores = 1,
                  std::int64_t limit_s = 100) {
  JobSpec s = testing::job(id, cores, limit_s);
  auto a = parse_array_spec(indices, 4000000);
  EXPECT_TRUE(a) << indices;
  s.array = *a;
  return s;
}

std::size_t waiting_tasks(const Scheduler& s) {
  std::size_t n = 0;
  for (const JobRecord* j : s.waiting()) n += j->spec.is_array_task() ? 1 : 0;
  return n;
}

// Ends every running job whose time limit is up at `now`.
void finish_due(Scheduler& s, Time now) {
  std::vector<JobId> due;
  for (const JobRecord* j : s.running()) {
    if (j->start_time + j->spec.time_limit <= now) due.push_back(j->spec.id);
  }
  for (JobId id : due) ASSERT_TRUE(s.finish(id, JobState::kCompleted, now));
}

TEST(JobArrayScheduling, AHundredThousandTasksWaitAsOneRecordUntilTheyCanStart) {
  auto s = testing::make(testing::uniform_cluster(4, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(array_job(10, "0-99999"), T(0)));
  EXPECT_EQ(s->waiting().size(), 0u);
  ASSERT_NE(s->array(JobId(10)), nullptr);
  EXPECT_EQ(s->array(JobId(10))->unsplit.size(), 100000);
  EXPECT_EQ(s->job(JobId(10)), nullptr);  // the array is not a job itself

  const PassResult r = s->schedule(T(0));
  EXPECT_EQ(r.started.size(), 16u);  // 16 cores, one each
  // Made to plan: scheduler.array_task_reservations (20) beyond what could start.
  EXPECT_EQ(waiting_tasks(*s), 20u);
  EXPECT_EQ(s->array(JobId(10))->unsplit.size(), 100000 - 36);
  // Task ids follow the array's: 10 + 1 + position; the index is the task's own.
  const JobRecord* first = s->job(JobId(11));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->state, JobState::kRunning);
  EXPECT_EQ(first->spec.array_job, JobId(10));
  EXPECT_EQ(first->spec.array_task, 0);
  EXPECT_TRUE(first->spec.array.empty());

  // The next pass makes no more while the same tasks still wait.
  (void)s->schedule(T(1));
  EXPECT_EQ(waiting_tasks(*s), 20u);
}

TEST(JobArrayScheduling, IndicesWithStepsGiveEachTaskItsIndex) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 8, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(array_job(5, "1-7:2,100"), T(0)));
  const PassResult r = s->schedule(T(0));
  ASSERT_EQ(r.started.size(), 5u);
  std::map<std::uint64_t, std::int32_t> index;
  for (const JobStart& st : r.started) index[st.id.value()] = s->job(st.id)->spec.array_task;
  EXPECT_EQ(index, (std::map<std::uint64_t, std::int32_t>{{6, 1}, {7, 3}, {8, 5}, {9, 7}, {10, 100}}));
  EXPECT_EQ(s->array(JobId(5))->unsplit.size(), 0);
}

TEST(JobArrayScheduling, TheRunningTaskLimitHoldsWithRoomToSpare) {
  auto s = testing::make(testing::uniform_cluster(2, 1, 8, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(array_job(1, "1-10%3", 1, 100), T(0)));
  EXPECT_EQ(s->schedule(T(0)).started.size(), 3u);
  EXPECT_EQ(s->running().size(), 3u);
  EXPECT_EQ(waiting_tasks(*s), 0u);  // the limit counts made tasks, not only running ones
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(50)));
  const PassResult r = s->schedule(T(50));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(5));  // index 4, the next in order
  EXPECT_EQ(s->running().size(), 3u);
}

TEST(JobArrayScheduling, StartsMatchTheSameTasksSubmittedOneByOneUnderEasy) {
  // 12 cores; a wide job ahead of the array holds EASY's reservation, and the array's
  // tasks (two durations' worth of arrays) backfill around it exactly as single jobs would.
  const auto run = [](bool as_array) {
    auto s = testing::make(testing::uniform_cluster(3, 1, 4, BackfillMode::kEasy));
    EXPECT_TRUE(s->submit(testing::job(1, 6, 300), T(0)));
    EXPECT_TRUE(s->schedule(T(0)).started.size() == 1);
    EXPECT_TRUE(s->submit(testing::job(2, 12, 500, 1), T(1)));
    if (as_array) {
      JobSpec a = array_job(3, "0-39", 1, 200);
      a.submit_time = T(2);
      EXPECT_TRUE(s->submit(a, T(2)));
    } else {
      for (int i = 0; i < 40; ++i) EXPECT_TRUE(s->submit(testing::job(4 + i, 1, 200, 2), T(2)));
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> starts;  // (time, task number)
    for (std::int64_t t = 2; t < 5000; t += 1) {
      finish_due(*s, T(t));
      for (const JobStart& st : s->schedule(T(t)).started) {
        const JobRecord* j = s->job(st.id);
        starts.emplace_back(
            t, j->spec.is_array_task() ? j->spec.array_task : static_cast<std::int64_t>(st.id.value()) - 4);
      }
      if (s->waiting().empty() && s->arrays().empty()) break;
    }
    return starts;
  };
  const auto expanded = run(false);
  const auto compact = run(true);
  EXPECT_EQ(expanded.size(), 41u);
  EXPECT_EQ(compact, expanded);
}

TEST(JobArrayScheduling, AfterOkOnAnArrayWaitsForEveryTask) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(array_job(1, "0-2", 1, 10), T(0)));
  JobSpec after = testing::job(10, 1, 10);
  after.dependencies = {{DependencyType::kAfterOk, {JobId(1)}}};
  ASSERT_TRUE(s->submit(after, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(10)));
  ASSERT_TRUE(s->finish(JobId(3), JobState::kCompleted, T(10)));
  auto r = s->schedule(T(10));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(4));  // the last task, not the dependent job
  EXPECT_TRUE(s->job(JobId(10))->why.has(PendingReason::kDependency));
  ASSERT_TRUE(s->finish(JobId(4), JobState::kCompleted, T(20)));
  const auto ended = s->take_ended_arrays();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].id(), JobId(1));
  EXPECT_EQ(ended[0].outcome(), JobState::kCompleted);
  EXPECT_EQ(s->array(JobId(1)), nullptr);
  r = s->schedule(T(20));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(10));
}

TEST(JobArrayScheduling, OneFailedTaskMakesAfterOkNeverSatisfied) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(array_job(1, "0-1", 1, 10), T(0)));
  JobSpec after = testing::job(10, 1, 10);
  after.dependencies = {{DependencyType::kAfterOk, {JobId(1)}}};
  ASSERT_TRUE(s->submit(after, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_TRUE(s->finish(JobId(2), JobState::kFailed, T(5)));
  ASSERT_TRUE(s->finish(JobId(3), JobState::kCompleted, T(6)));
  EXPECT_EQ(s->take_ended_arrays()[0].outcome(), JobState::kFailed);
  EXPECT_TRUE(s->schedule(T(6)).started.empty());
  EXPECT_TRUE(s->job(JobId(10))->why.has(PendingReason::kDependencyNeverSatisfied));
}

TEST(JobArrayScheduling, OneTaskCanBeHeldOrCancelledAloneAndTheArrayAsAWhole) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(array_job(1, "0-9", 1, 10), T(0)));
  auto t5 = s->split_array_task(JobId(1), 5);
  ASSERT_TRUE(t5);
  EXPECT_EQ(*t5, JobId(7));
  ASSERT_TRUE(s->hold(*t5));
  auto t6 = s->split_array_task(JobId(1), 6);
  ASSERT_TRUE(s->cancel(*t6, T(0)));
  EXPECT_FALSE(s->split_array_task(JobId(1), 10));  // not one of its indices
  EXPECT_FALSE(s->split_array_task(JobId(99), 0));

  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);  // tasks 0 and 1; 5 is held
  EXPECT_EQ(s->job(JobId(7))->state, JobState::kHeld);
  EXPECT_EQ(s->job(JobId(8))->state, JobState::kCancelled);

  // Holding the array holds what waits of it, made or not.
  ASSERT_TRUE(s->hold(JobId(1)));
  for (const JobRecord* j : s->waiting()) EXPECT_EQ(j->state, JobState::kHeld) << j->spec.id.value();
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(10)));
  EXPECT_TRUE(s->schedule(T(10)).started.empty());
  ASSERT_TRUE(s->release(JobId(1), T(11)));
  EXPECT_EQ(s->schedule(T(11)).started.size(), 1u);

  // Cancelling the array drops its unmade tasks; the made ones are cancelled one by one.
  ASSERT_TRUE(s->cancel(JobId(1), T(12)));
  EXPECT_TRUE(s->array(JobId(1))->unsplit.empty());
  for (JobId t : s->live_array_tasks(JobId(1))) ASSERT_TRUE(s->cancel(t, T(12)));
  EXPECT_EQ(s->array(JobId(1)), nullptr);
  const auto ended = s->take_ended_arrays();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].outcome(), JobState::kCancelled);
  EXPECT_TRUE(s->schedule(T(13)).started.empty());
}

TEST(JobArrayScheduling, EveryTaskCountsAgainstTheSubmittedJobsLimit) {
  Config c = testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy);
  c.limits.max_submitted_jobs_per_user = 10;
  auto s = testing::make(c);
  auto refused = s->submit(array_job(1, "0-10"), T(0));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("max_submitted_jobs_per_user"), std::string::npos);
  ASSERT_TRUE(s->submit(array_job(20, "0-9", 1, 10), T(0)));
  EXPECT_FALSE(s->submit(testing::job(40, 1, 10), T(0)));
  (void)s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(21), JobState::kCompleted, T(10)));
  EXPECT_TRUE(s->submit(testing::job(40, 1, 10), T(10)));
  // Cancelling the array frees every unmade task's place at once.
  ASSERT_TRUE(s->cancel(JobId(20), T(11)));
  for (JobId t : s->live_array_tasks(JobId(20))) ASSERT_TRUE(s->cancel(t, T(11)));
  for (int i = 0; i < 9; ++i) EXPECT_TRUE(s->submit(testing::job(50 + i, 1, 10), T(12))) << i;
}

TEST(JobArrayScheduling, IndicesOverTheConfiguredArraySizeAreRefused) {
  Config c = testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy);
  c.limits.max_array_size = 1001;
  auto s = testing::make(c);
  auto r = s->submit(array_job(1, "0-1001"), T(0));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--array index 1001 is over the largest allowed, 1000"), std::string::npos)
      << r.error().message;
  EXPECT_TRUE(s->submit(array_job(1, "0-1000"), T(0)));
}

TEST(JobArrayScheduling, ARestoredArrayLeavesOutTheTasksStoredOnTheirOwn) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  s->begin_restore();
  ASSERT_TRUE(s->restore_waiting(array_job(1, "0-5", 1, 10), T(0)));
  s->restore_outcome(JobId(2), JobState::kCompleted);  // task 0 ended
  JobSpec running = testing::job(3, 1, 10);            // task 1 runs
  running.array_job = JobId(1);
  running.array_task = 1;
  Allocation alloc;
  alloc.nodes.push_back({NodeIndex(0), {0}, {}});
  ASSERT_TRUE(s->restore_running(testing::stored_running(running, alloc, T(0))));
  JobSpec held = running;  // task 2 was held alone
  held.id = JobId(4);
  held.array_task = 2;
  held.hold = true;
  ASSERT_TRUE(s->restore_waiting(held, T(0)));
  s->end_restore(T(1));
  EXPECT_EQ(s->array(JobId(1))->unsplit.size(), 3);
  const PassResult r = s->schedule(T(1));
  ASSERT_EQ(r.started.size(), 3u);  // tasks 3, 4 and 5
  for (const JobStart& st : r.started) EXPECT_GE(s->job(st.id)->spec.array_task, 3);
  ASSERT_TRUE(s->release(JobId(4), T(2)));
  ASSERT_TRUE(s->finish(JobId(3), JobState::kCompleted, T(10)));
  EXPECT_EQ(s->schedule(T(10)).started.size(), 1u);
  EXPECT_EQ(s->job(JobId(4))->state, JobState::kRunning);
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

TEST(JobArrayScheduling, AnImpossibleDependencyWithKillOnInvalidCancelsTheWholeArray) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(testing::job(1, 2, 10), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  JobSpec a = array_job(5, "0-999");
  a.dependencies = {{DependencyType::kAfterOk, {JobId(1)}}};
  a.kill_on_invalid_dep = true;
  ASSERT_TRUE(s->submit(a, T(1)));
  (void)s->schedule(T(1));  // waits: Dependency
  ASSERT_TRUE(s->finish(JobId(1), JobState::kFailed, T(10)));
  const PassResult r = s->schedule(T(10));
  ASSERT_FALSE(r.cancelled.empty());
  for (const JobCancellation& c : r.cancelled) {
    const JobRecord* j = s->job(c.id);
    ASSERT_NE(j, nullptr);
    EXPECT_EQ(j->state, JobState::kCancelled);
    EXPECT_EQ(j->reason, c.reason);  // the core's own words, on the record
  }
  EXPECT_EQ(s->array(JobId(5)), nullptr) << "tasks not made yet were left waiting";
  const auto ended = s->take_ended_arrays();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].outcome(), JobState::kCancelled);
}

TEST(JobArrayScheduling, TheDriverWritesWhatOnlyItKnowsOnTheRecord) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(testing::job(1, 1, 1000), T(0)));
  ASSERT_TRUE(s->set_reason(JobId(1), "the driver's words"));
  EXPECT_EQ(s->job(JobId(1))->reason, "the driver's words");
  EXPECT_FALSE(s->set_reason(JobId(99), "x"));
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

// afterok:42_7 reaches the core as the task's own id, which may name a task not made yet.
TEST(JobArrayScheduling, ADependencyOnOneTaskWaitsForThatTaskAlone) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 1, BackfillMode::kEasy));
  JobSpec a = array_job(1, "0-3", 1, 10);  // tasks 2..5, one core
  a.nice = 100;                            // behind job 50 once it may run
  ASSERT_TRUE(s->submit(a, T(0)));
  JobSpec after = testing::job(50, 1, 10);
  after.dependencies = {{DependencyType::kAfterOk, {JobId(3)}}};  // task index 1, unmade
  ASSERT_TRUE(s->submit(after, T(0))) << "a task not made yet is a job that exists";
  JobSpec never = testing::job(51, 1, 10);
  never.dependencies = {{DependencyType::kAfterOk, {JobId(6)}}};  // past the array's tasks
  EXPECT_FALSE(s->submit(never, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);  // task 0
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(10)));
  ASSERT_EQ(s->schedule(T(10)).started.at(0).id, JobId(3));  // task 1, ahead of job 50
  ASSERT_TRUE(s->finish(JobId(3), JobState::kCompleted, T(20)));
  const PassResult r = s->schedule(T(20));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(50)) << "the one task it named has completed";
}

}  // namespace
}  // namespace fairway

// sbatch --dependency, --begin and --nice in the core: each dependency type against each
// way its jobs end, singleton, kill-on-invalid, and age restarting once a job may run.
#include "coordinator/core/job_dependencies.h"

#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

JobSpec after(std::uint64_t id, DependencyType type, std::vector<std::uint64_t> on,
              std::int64_t submit_s = 0) {
  JobSpec s = testing::job(id, 1, 600, submit_s);
  DependencyClause c{type, {}};
  for (auto o : on) c.jobs.emplace_back(o);
  s.dependencies.push_back(std::move(c));
  return s;
}

bool started(const PassResult& r, std::uint64_t id) {
  for (const auto& s : r.started) {
    if (s.id == JobId(id)) return true;
  }
  return false;
}

std::string reasons_of(const Scheduler& s, std::uint64_t id) {
  return s.job(JobId(id))->why.codes();
}

TEST(JobDependencies, EachTypeAgainstEachEnding) {
  struct Case {
    DependencyType type;
    JobState ending;
    bool runs;  // else never satisfied
  };
  const Case cases[] = {
      {DependencyType::kAfterOk, JobState::kCompleted, true},
      {DependencyType::kAfterOk, JobState::kFailed, false},
      {DependencyType::kAfterOk, JobState::kTimeout, false},
      {DependencyType::kAfterNotOk, JobState::kFailed, true},
      {DependencyType::kAfterNotOk, JobState::kCompleted, false},
      {DependencyType::kAfterAny, JobState::kFailed, true},
      {DependencyType::kAfterAny, JobState::kCompleted, true},
      {DependencyType::kAfterAny, JobState::kCancelled, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(static_cast<int>(c.type)) + " after " + std::string(to_string(c.ending)));
    auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
    ASSERT_TRUE(s->submit(testing::job(1, 1, 600), T(0)));
    ASSERT_TRUE(s->submit(after(2, c.type, {1}), T(0)));
    PassResult r = s->schedule(T(0));
    EXPECT_TRUE(started(r, 1));
    EXPECT_FALSE(started(r, 2));  // idle cores, but it waits for job 1
    EXPECT_EQ(reasons_of(*s, 2), "Dependency");
    if (c.ending == JobState::kCancelled) {
      ASSERT_TRUE(s->cancel(JobId(1), T(10)));
    } else {
      ASSERT_TRUE(s->finish(JobId(1), c.ending, T(10)));
    }
    s->forget(JobId(1));  // as the daemon and the simulator do: its outcome must stay known
    r = s->schedule(T(10));
    EXPECT_EQ(started(r, 2), c.runs);
    if (!c.runs) {
      EXPECT_EQ(reasons_of(*s, 2), "DependencyNeverSatisfied");
    }
  }
}

TEST(JobDependencies, AfterNeedsOnlyTheStart) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 3, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(testing::job(1, 2, 600), T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 2, 600), T(0)));
  ASSERT_TRUE(s->submit(after(3, DependencyType::kAfter, {2}), T(0)));
  s->schedule(T(0));
  EXPECT_EQ(reasons_of(*s, 3), "Dependency");  // a core is free, but job 2 has not started
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(5)));
  EXPECT_TRUE(started(s->schedule(T(5)), 2));
  // Job 2 runs now (it has not ended): job 3 goes in the next pass.
  EXPECT_TRUE(started(s->schedule(T(6)), 3));
}

TEST(JobDependencies, AllOfAndAnyOf) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 8, BackfillMode::kEasy));
  for (std::uint64_t id : {1, 2}) ASSERT_TRUE(s->submit(testing::job(id, 1, 600), T(0)));
  JobSpec all = after(3, DependencyType::kAfterOk, {1, 2});
  JobSpec any = after(4, DependencyType::kAfterOk, {1});
  any.dependencies.push_back({DependencyType::kAfterOk, {JobId(2)}});
  any.dependency_any = true;
  ASSERT_TRUE(s->submit(all, T(0)));
  ASSERT_TRUE(s->submit(any, T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kFailed, T(5)));
  PassResult r = s->schedule(T(5));
  EXPECT_FALSE(started(r, 4));  // job 1 failed; job 2 may still succeed
  EXPECT_EQ(reasons_of(*s, 3), "DependencyNeverSatisfied");
  EXPECT_EQ(reasons_of(*s, 4), "Dependency");
  ASSERT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(6)));
  r = s->schedule(T(6));
  EXPECT_TRUE(started(r, 4));
  EXPECT_FALSE(started(r, 3));
}

TEST(JobDependencies, KillOnInvalidCancelsInThePass) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(testing::job(1, 1, 600), T(0)));
  JobSpec dep = after(2, DependencyType::kAfterOk, {1});
  dep.kill_on_invalid_dep = true;
  ASSERT_TRUE(s->submit(dep, T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kFailed, T(5)));
  const PassResult r = s->schedule(T(5));
  ASSERT_EQ(r.cancelled.size(), 1u);
  EXPECT_EQ(r.cancelled[0].id, JobId(2));
  EXPECT_NE(r.cancelled[0].reason.find("never be satisfied"), std::string::npos);
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kCancelled);
  EXPECT_TRUE(s->waiting().empty());
}

TEST(JobDependencies, UnknownAndSelfReferencesAreRefusedAtSubmit) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  auto st = s->submit(after(5, DependencyType::kAfterOk, {99}), T(0));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "job 5: --dependency names job 99, which does not exist");
  st = s->submit(after(6, DependencyType::kAfterAny, {6}), T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("job 6, itself"), std::string::npos);
  // A job that ended before a restart is known through restore_outcome.
  s->restore_outcome(JobId(42), JobState::kCompleted);
  ASSERT_TRUE(s->submit(after(7, DependencyType::kAfterOk, {42}), T(0)));
  EXPECT_TRUE(started(s->schedule(T(0)), 7));
}

TEST(JobDependencies, SingletonRunsOneJobPerUserAndNameAtATime) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 8, BackfillMode::kEasy));
  for (std::uint64_t id : {1, 2, 3}) {
    JobSpec j = testing::job(id, 1, 600, static_cast<std::int64_t>(id));
    j.name = "nightly";
    j.dependencies = {{DependencyType::kSingleton, {}}};
    ASSERT_TRUE(s->submit(j, T(3)));
  }
  JobSpec other_user = testing::job(4, 1, 600, 4, "bob");
  other_user.name = "nightly";
  other_user.dependencies = {{DependencyType::kSingleton, {}}};
  ASSERT_TRUE(s->submit(other_user, T(4)));
  PassResult r = s->schedule(T(5));
  EXPECT_TRUE(started(r, 1));  // the earliest of alice's
  EXPECT_TRUE(started(r, 4));  // bob's is another singleton
  EXPECT_FALSE(started(r, 2));
  EXPECT_FALSE(started(r, 3));
  EXPECT_EQ(reasons_of(*s, 2), "Dependency");
  ASSERT_TRUE(s->finish(JobId(1), JobState::kFailed, T(10)));  // any ending frees it
  r = s->schedule(T(10));
  EXPECT_TRUE(started(r, 2));
  EXPECT_FALSE(started(r, 3));
}

TEST(JobDependencies, BeginTimeDefersAndAgeCountsFromIt) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.priority.age_per_minute = 1;
  auto s = testing::make(c);
  JobSpec j = testing::job(1, 1, 600);
  j.begin = T(3600);
  ASSERT_TRUE(s->submit(j, T(0)));
  PassResult r = s->schedule(T(0));
  EXPECT_TRUE(r.started.empty());
  EXPECT_EQ(reasons_of(*s, 1), "BeginTime");
  ASSERT_TRUE(r.recheck_at);
  EXPECT_EQ(*r.recheck_at, T(3600));  // the simulator passes again exactly then
  r = s->schedule(T(3600));
  EXPECT_TRUE(started(r, 1));
  EXPECT_EQ(s->job(JobId(1))->priority.age, 0);  // it could not run before: no age
}

TEST(JobDependencies, NiceLowersPriorityAndShowsInTheBreakdown) {
  Config c = testing::uniform_cluster(1, 1, 1, BackfillMode::kEasy);
  c.priority.age_per_minute = 1;
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(testing::job(1, 1, 600), T(0)));  // takes the only core
  JobSpec nice = testing::job(2, 1, 600);
  nice.nice = 100;
  ASSERT_TRUE(s->submit(nice, T(0)));
  ASSERT_TRUE(s->submit(testing::job(3, 1, 600, 600), T(600)));  // 10 minutes younger
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(1200)));
  const PassResult r = s->schedule(T(1200));
  EXPECT_TRUE(started(r, 3));  // 10 minutes of age do not beat 100 of nice
  EXPECT_EQ(s->job(JobId(2))->priority.nice, -100);
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.total, 20 - 100);
}

TEST(EndedJobs, DenseAndSparseIds) {
  EndedJobs e;
  e.record(JobId(3), JobState::kCompleted);
  e.record(JobId(1), JobState::kTimeout);
  e.record(JobId(1ull << 40), JobState::kCompleted);
  EXPECT_EQ(e.outcome(JobId(3)), EndedJobs::Outcome::kSucceeded);
  EXPECT_EQ(e.outcome(JobId(1)), EndedJobs::Outcome::kFailed);
  EXPECT_EQ(e.outcome(JobId(2)), EndedJobs::Outcome::kUnknown);
  EXPECT_EQ(e.outcome(JobId(1ull << 40)), EndedJobs::Outcome::kSucceeded);
  EXPECT_EQ(e.outcome(JobId((1ull << 40) + 1)), EndedJobs::Outcome::kUnknown);
}

}  // namespace
}  // namespace fairway

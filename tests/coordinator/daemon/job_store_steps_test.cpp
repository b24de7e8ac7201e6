// The store's job steps (sacct's ID.N lines): a step's row round-trips every field, is
// replaced when it ends, goes with its job when the job is purged, and a corrupt row is
// an error naming the step rather than a step silently dropped.
#include <gtest/gtest.h>

#include "coordinator/daemon/job_store.h"
#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

using JobStoreSteps = StoreTest;

StoredStep running_step(JobId job, std::int32_t number) {
  StoredStep s;
  s.job = job;
  s.step = number;
  s.name = "a.out";
  s.ntasks = 16;
  s.nodes = 2;
  s.start_time = Time::from_seconds(1'700'000'200 + number);
  return s;
}

TEST_F(JobStoreSteps, AStepIsWrittenWhenItStartsAndReplacedWhenItEnds) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  StoredJob job = full_job(JobId(7));
  job.state = JobState::kRunning;
  job.end_time.reset();
  ASSERT_TRUE(store->insert_job(job));
  ASSERT_TRUE(store->insert_job(full_job(JobId(9))));
  ASSERT_TRUE(store->put_step(running_step(JobId(7), 0)));
  ASSERT_TRUE(store->put_step(running_step(JobId(7), 1)));
  ASSERT_TRUE(store->put_step(running_step(JobId(9), 0)));

  StoredStep ended = running_step(JobId(7), 0);
  ended.state = JobState::kFailed;
  ended.end_time = Time::from_seconds(1'700'000'900);
  ended.exit_code = 2;
  ended.signal = 0;
  ended.max_rss_kb = 84500;
  ended.cpu_us = 4'094'123;
  ASSERT_TRUE(store->put_step(ended));

  auto steps = store->load_steps(JobId(7), JobId(7));
  ASSERT_TRUE(steps) << steps.error().message;
  ASSERT_EQ(steps->size(), 2u);
  EXPECT_EQ((*steps)[0], ended);
  EXPECT_EQ((*steps)[1], running_step(JobId(7), 1));
  auto all = store->load_steps(JobId(1), JobId(100));
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 3u);

  auto open = store->load_open_steps();
  ASSERT_TRUE(open);
  ASSERT_EQ(open->size(), 2u);
  EXPECT_EQ((*open)[0].job, JobId(7));
  EXPECT_EQ((*open)[0].step, 1);

  // Only jobs not ended count: job 9 has ended.
  auto next = store->load_next_step_numbers();
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, (std::vector<std::pair<JobId, std::int32_t>>{{JobId(7), 2}}));
}

TEST_F(JobStoreSteps, WhatCannotBeAStepIsRefusedNamingIt) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  StoredStep s = running_step(JobId(7), 0);
  s.name.clear();
  auto r = store->put_step(s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("step 7.0: empty name"), std::string::npos) << r.error().message;
  s = running_step(JobId(0), 0);
  EXPECT_FALSE(store->put_step(s));
  s = running_step(JobId(7), -1);
  EXPECT_FALSE(store->put_step(s));
}

TEST_F(JobStoreSteps, StepsGoWithTheirPurgedJob) {
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->insert_job(full_job(JobId(7))));  // ended at 1'700'003'700
  StoredJob recent = full_job(JobId(8));
  recent.end_time = Time::from_seconds(1'800'000'000);
  ASSERT_TRUE(store->insert_job(recent));
  ASSERT_TRUE(store->put_step(running_step(JobId(7), 0)));
  ASSERT_TRUE(store->put_step(running_step(JobId(8), 0)));
  ASSERT_TRUE(store->purge_finished_before(Time::from_seconds(1'750'000'000)));
  auto steps = store->load_steps(JobId(1), JobId(100));
  ASSERT_TRUE(steps);
  ASSERT_EQ(steps->size(), 1u);
  EXPECT_EQ((*steps)[0].job, JobId(8));
}

TEST_F(JobStoreSteps, ACorruptRowIsAnErrorNamingTheStep) {
  {
    auto store = open_store();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->put_step(running_step(JobId(7), 3)));
  }
  exec_raw("UPDATE job_steps SET state = 'SLEEPING' WHERE job = 7");
  auto store = open_store();
  ASSERT_NE(store, nullptr);
  auto steps = store->load_steps(JobId(7), JobId(7));
  ASSERT_FALSE(steps);
  EXPECT_NE(steps.error().message.find("step 7.3: column state: unknown state 'SLEEPING'"), std::string::npos)
      << steps.error().message;
  exec_raw("UPDATE job_steps SET state = 'running', ntasks = 'many' WHERE job = 7");
  auto open = store->load_open_steps();
  ASSERT_FALSE(open);
  EXPECT_NE(open.error().message.find("not an integer"), std::string::npos) << open.error().message;
  exec_raw("UPDATE job_steps SET ntasks = 1, max_rss_kb = -5 WHERE job = 7");
  auto usage = store->load_steps(JobId(7), JobId(7));
  ASSERT_FALSE(usage);
  EXPECT_NE(usage.error().message.find("step 7.3: column max_rss_kb: not a non-negative integer"),
            std::string::npos)
      << usage.error().message;
}

}  // namespace
}  // namespace fairway::daemon

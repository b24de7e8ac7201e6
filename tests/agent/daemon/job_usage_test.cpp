// What a job used, read from its cgroup on the fake host as the job ends.
#include "agent/daemon/job_usage.h"

#include <gtest/gtest.h>

#include "tests/support/fake_agent_host.h"

namespace fairway::agent {
namespace {

using testing::FakeHost;
using testing::Machine;

TEST(JobUsage, WhatTheCgroupCountedIsReadAndTheCgroupGoes) {
  auto machine = std::make_shared<Machine>();
  machine->usage[5] = JobUsage{std::int64_t{300} << 20, 1500, 0};
  FakeHost host(machine);
  JobState state = JobState::kCompleted;
  std::string reason;
  const JobUsage u = collect_usage(host, JobId(5), state, reason, std::nullopt, "n1");
  EXPECT_EQ(u.peak_memory_bytes, std::int64_t{300} << 20);
  EXPECT_EQ(u.cpu_time_ms, 1500);
  EXPECT_EQ(state, JobState::kCompleted);
  EXPECT_EQ(machine->removed_cgroups, std::vector<JobId>{JobId(5)});
}

TEST(JobUsage, AnOomKillTurnsAFailureIntoOutOfMemory) {
  auto machine = std::make_shared<Machine>();
  machine->usage[6] = JobUsage{std::int64_t{256} << 20, 10, 1};
  FakeHost host(machine);
  JobState state = JobState::kFailed;
  std::string reason;
  (void)collect_usage(host, JobId(6), state, reason, std::int64_t{256} << 20, "n1");
  EXPECT_EQ(state, JobState::kOutOfMemory);
  EXPECT_EQ(reason, "out of memory: the kernel killed 1 of its processes at its limit of 256 MiB on node n1");
  // A cancel stays a cancel.
  state = JobState::kCancelled;
  reason.clear();
  (void)collect_usage(host, JobId(6), state, reason, std::nullopt, "n1");
  EXPECT_EQ(state, JobState::kCancelled);
  EXPECT_TRUE(reason.empty());
}

}  // namespace
}  // namespace fairway::agent

// Hand-built job and node views for the CLI's rendering and command tests, and a fixed
// time zone so local times print the same everywhere. Test-only; not thread-safe (setenv).
#pragma once

#include <stdlib.h>

#include <ctime>

#include "shared/wire/messages.h"

namespace fairway::cli::testing {

// Local times in these tests are UTC.
inline void use_utc() {
  ::setenv("TZ", "UTC", 1);
  ::tzset();
}

// 2023-11-14T22:13:20 UTC
inline constexpr std::int64_t kEpoch = 1'700'000'000;

inline wire::JobView running_job() {
  wire::JobView j;
  j.id = JobId(101);
  j.name = "train";
  j.user = "alice";
  j.account = "physics";
  j.partition = "gpu";
  j.qos = "normal";
  j.state = JobState::kRunning;
  j.submit_time = Time::from_seconds(kEpoch);
  j.start_time = Time::from_seconds(kEpoch + 60);
  j.time_limit = Duration::hours(2);
  j.nodes = 2;
  j.cores = 4;
  j.gpus = 1;
  j.gpu_type = "a100";
  j.memory_per_node_mb = 4096;
  j.allocation = {{"gpu-01", {0, 1, 2, 3}, {0}}, {"gpu-02", {8, 9, 10, 11}, {1}}};
  j.priority = 1500.25;
  j.priority_factors = {{"age", 500}, {"fairshare", 1000.25}};
  j.working_dir = "/home/alice";
  j.stdout_path = "/home/alice/train.out";
  return j;
}

inline wire::JobView pending_job() {
  wire::JobView j;
  j.id = JobId(102);
  j.name = "sweep";
  j.user = "bob";
  j.partition = "batch";
  j.state = JobState::kPending;
  j.reasons = {"Resources", "Priority"};
  j.reason_texts = {"Waiting for 64 cores to be free.", "Job 101 has higher priority."};
  j.submit_time = Time::from_seconds(kEpoch + 100);
  j.estimated_start = Time::from_seconds(kEpoch + 7200);
  j.time_limit = Duration::minutes(30);
  j.cores = 64;
  j.priority = 12.5;
  return j;
}

inline wire::JobView failed_job() {
  wire::JobView j;
  j.id = JobId(99);
  j.name = "crash";
  j.user = "carol";
  j.partition = "batch";
  j.state = JobState::kFailed;
  j.submit_time = Time::from_seconds(kEpoch - 4000);
  j.start_time = Time::from_seconds(kEpoch - 3700);
  j.end_time = Time::from_seconds(kEpoch - 100);
  j.time_limit = Duration::infinite();
  j.exit_code = 139;
  j.signal = 11;
  j.allocation = {{"cpu-07", {5}, {}}};
  j.requeue_count = 2;
  return j;
}

inline wire::JobQueryReply queue_reply() {
  return wire::JobQueryReply{Time::from_seconds(kEpoch + 3723), {running_job(), pending_job(), failed_job()}};
}

inline wire::NodeView gpu_node() {
  wire::NodeView n;
  n.name = "gpu-01";
  n.state = "mixed";
  n.partitions = {"gpu", "batch"};
  n.sockets = 2;
  n.cores = 64;
  n.threads_per_core = 2;
  n.gpus = 4;
  n.gpu_types = {"a100", "a100", "a100", "a100"};
  n.cores_used = 4;
  n.gpus_used = 1;
  n.memory_mb = 512000;
  n.memory_used_mb = 64000;
  n.last_heartbeat = Time::from_seconds(kEpoch);
  n.jobs = {JobId(101)};
  return n;
}

inline wire::NodeView down_node() {
  wire::NodeView n;
  n.name = "cpu-07";
  n.state = "down";
  n.partitions = {"batch"};
  n.sockets = 2;
  n.cores = 32;
  n.reason = "no heartbeat for 45 s";
  return n;
}

}  // namespace fairway::cli::testing

// Builders for small clusters and jobs used across the core tests.
#pragma once

#include <memory>
#include <string>

#include "coordinator/core/scheduler.h"
#include "shared/config/config.h"
#include "shared/config/config_file.h"

namespace fairway::testing {

inline Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

// `n` nodes of `sockets` x `cores_per_socket` cores, `gpus_per_socket` GPUs of `gpu_type`.
inline Config uniform_cluster(int n, int sockets, int cores_per_socket, BackfillMode mode,
                              int gpus_per_socket = 0, std::string gpu_type = "v100") {
  Config c;
  for (int i = 0; i < n; ++i) {
    c.nodes.push_back(
        NodeTopology::uniform("n" + std::to_string(i), sockets, cores_per_socket, gpus_per_socket, gpu_type));
  }
  c.scheduler.backfill = mode;
  return c;
}

inline JobSpec job(std::uint64_t id, std::int32_t cores, std::int64_t limit_s, std::int64_t submit_s = 0,
                   std::string user = "alice") {
  JobSpec s;
  s.id = JobId(id);
  s.user = std::move(user);
  s.account = "proj";
  s.resources.cores = cores;
  s.time_limit = Duration::seconds(limit_s);
  s.submit_time = Time::from_seconds(submit_s);
  return s;
}

// A running job as the store gives it back to Scheduler::restore_running.
inline JobRecord stored_running(JobSpec spec, Allocation alloc, Time start, std::int32_t requeue_count = 0) {
  JobRecord r;
  r.spec = std::move(spec);
  r.state = JobState::kRunning;
  r.start_time = start;
  r.allocation = std::move(alloc);
  r.requeue_count = requeue_count;
  return r;
}

inline std::unique_ptr<Scheduler> make(const Config& c) {
  auto s = Scheduler::create(c);
  if (!s) throw std::runtime_error(s.error().message);
  return std::move(*s);
}

// A shipped site profile, examples/profiles/NAME.toml.
inline Config profile(const std::string& name) {
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/" + name + ".toml");
  if (!c) throw std::runtime_error(c.error().message);
  return *c;
}

inline JobSpec account_job(std::uint64_t id, const char* user, const char* account, std::int32_t cores,
                           std::int64_t walltime_s) {
  JobSpec j = job(id, cores, walltime_s, 0, user);
  j.account = account;
  return j;
}

}  // namespace fairway::testing

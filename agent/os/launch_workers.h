// Runs ProcessLauncher::launch on threads of its own, so that a user lookup waiting on LDAP
// or a chdir into a hung NFS home delays that one job, never the agent's loop (its
// heartbeats, cancels and the other launches). Completions wait for take_done(); fd() is
// readable while there are any. Thread-safe: submit and take_done from the loop thread.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "agent/os/job_cgroups.h"
#include "agent/os/launch_request.h"
#include "agent/os/process_launcher.h"
#include "shared/base/result.h"

namespace fairway::agent {

class LaunchWorkers {
 public:
  struct Done {
    JobId job;
    std::optional<std::int32_t> step;  // a job step's relay, not the job itself
    Result<LaunchedProcess> result;
  };

  // `threads` launches may be under way at once; more wait their turn in order.
  static Result<std::unique_ptr<LaunchWorkers>> start(const ProcessLauncher& launcher, int threads);
  // Idle workers end; one stuck in a launch is left to end with the process (the job it
  // was starting is the next agent's to re-adopt or the coordinator's to requeue).
  ~LaunchWorkers();
  LaunchWorkers(const LaunchWorkers&) = delete;
  LaunchWorkers& operator=(const LaunchWorkers&) = delete;

  // `attach`: the job's cgroups (may be empty), kept open until the launch is done.
  void submit(LaunchRequest request, CgroupAttach attach);
  // Every launch finished since the last call, in the order they finished.
  std::vector<Done> take_done();
  // Readable while take_done() has something: for the loop's poller.
  int fd() const;
  std::size_t in_flight() const;

 private:
  struct Shared;
  explicit LaunchWorkers(std::shared_ptr<Shared> shared);
  std::shared_ptr<Shared> shared_;
};

}  // namespace fairway::agent

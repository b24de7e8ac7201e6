#include "agent/os/launch_request.h"

namespace fairway::agent {

LaunchRequest launch_request_from(const wire::LaunchJob& launch, std::string node_name) {
  LaunchRequest r;
  r.job = launch.job;
  r.user = launch.user;
  r.uid = launch.uid;
  r.gid = launch.gid;
  r.account = launch.account;
  r.name = launch.name;
  r.program = launch.program;
  r.cores = launch.cores;
  r.gpus = launch.gpus;
  r.node_name = node_name;
  r.nodelist = std::move(node_name);
  r.tasks = launch.tasks;
  r.node_cores = launch.node_cores;
  r.partition = launch.partition;
  // A requeued run keeps the earlier run's output; --open-mode=append keeps whatever the
  // files held before the job (sbatch truncates them by default).
  r.append_output = launch.restarts > 0 || launch.program.open_append;
  r.restarts = launch.restarts;
  r.array = launch.array;
  return r;
}

}  // namespace fairway::agent

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
  r.append_output = launch.restarts > 0;
  r.restarts = launch.restarts;
  r.array_job = launch.array_job;
  r.array_task = launch.array_task;
  r.array_task_count = launch.array_task_count;
  r.array_task_min = launch.array_task_min;
  r.array_task_max = launch.array_task_max;
  r.array_task_step = launch.array_task_step;
  return r;
}

}  // namespace fairway::agent

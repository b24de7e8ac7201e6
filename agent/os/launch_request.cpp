#include "agent/os/launch_request.h"

#include <sched.h>

namespace fairway::agent {
namespace {

bool has_nul(const std::string& s) {
  return s.find('\0') != std::string::npos;
}

}  // namespace

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

Status validate_launch_request(const LaunchRequest& r) {
  const std::string who = "job " + std::to_string(r.job.value()) + ": ";
  if (r.program.script.empty() && r.program.argv.empty()) {
    return invalid_argument(who + "program has neither a script nor argv");
  }
  if (!r.program.script.empty() && has_nul(r.program.script)) {
    return invalid_argument(who + "script contains a NUL byte");
  }
  for (const auto& arg : r.program.argv) {
    if (has_nul(arg)) return invalid_argument(who + "argv entry '" + arg + "' contains a NUL byte");
  }
  if (!r.program.argv.empty() && r.program.script.empty() && r.program.argv.front().empty()) {
    return invalid_argument(who + "argv[0] is empty");
  }
  for (const std::string* path : {&r.program.working_dir, &r.program.stdout_path, &r.program.stderr_path}) {
    if (has_nul(*path)) return invalid_argument(who + "path '" + *path + "' contains a NUL byte");
  }
  if (r.nodelist.empty()) return invalid_argument(who + "nodelist is empty");
  if (r.nnodes < 1) return invalid_argument(who + "nnodes " + std::to_string(r.nnodes) + " < 1");
  if (!r.node_cores.empty() && r.node_cores.size() != static_cast<std::size_t>(r.nnodes)) {
    return invalid_argument(who + "node_cores has " + std::to_string(r.node_cores.size()) + " entries for " +
                            std::to_string(r.nnodes) + " nodes");
  }
  if (!r.gpu_visible_ids.empty() && r.gpu_visible_ids.size() != r.gpus.size()) {
    return invalid_argument(who + "gpu_visible_ids has " + std::to_string(r.gpu_visible_ids.size()) +
                            " entries for " + std::to_string(r.gpus.size()) + " GPUs");
  }
  for (const std::int32_t pu : r.bind_pus) {
    if (pu < 0 || pu >= CPU_SETSIZE) {
      return invalid_argument(who + "bind_pus: PU " + std::to_string(pu) + " is outside 0.." +
                              std::to_string(CPU_SETSIZE - 1));
    }
  }
  return ok_status();
}

}  // namespace fairway::agent

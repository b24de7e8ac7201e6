#include "agent/os/launch_environment.h"

#include <map>

namespace fairway::agent {
namespace {

constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

// Keeps first-appearance order while letting a later set() replace the value.
class OrderedEnv {
 public:
  void set(const std::string& name, std::string value) {
    const auto [it, inserted] = index_.emplace(name, entries_.size());
    if (inserted) {
      entries_.emplace_back(name, std::move(value));
    } else {
      entries_[it->second].second = std::move(value);
    }
  }
  void set_default(const std::string& name, std::string value) {
    if (!index_.contains(name)) set(name, std::move(value));
  }
  std::vector<std::string> to_strings() const {
    std::vector<std::string> out;
    out.reserve(entries_.size());
    for (const auto& [name, value] : entries_) out.push_back(name + "=" + value);
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
  std::map<std::string, std::size_t> index_;
};

Status check_variable(const std::string& name, const std::string& value) {
  if (name.empty()) return invalid_argument("env: a variable has an empty name");
  if (name.find('=') != std::string::npos) {
    return invalid_argument("env: variable name '" + name + "' contains '='");
  }
  if (name.find('\0') != std::string::npos || value.find('\0') != std::string::npos) {
    return invalid_argument("env: variable '" + name + "' contains a NUL byte");
  }
  return ok_status();
}

}  // namespace

std::string comma_list(const std::vector<std::int32_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out;
}

std::string expand_output_path(std::string_view pattern, JobId job, std::string_view working_dir,
                               std::string_view fallback) {
  if (pattern.empty()) return std::string(fallback);
  std::string path;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size()) {
      if (pattern[i + 1] == 'j') {
        path += std::to_string(job.value());
        ++i;
        continue;
      }
      if (pattern[i + 1] == '%') {
        path += '%';
        ++i;
        continue;
      }
    }
    path += pattern[i];
  }
  if (path.front() == '/') return path;
  std::string absolute(working_dir);
  if (absolute.empty() || absolute.back() != '/') absolute += '/';
  return absolute + path;
}

Result<OutputPaths> resolve_output_paths(const LaunchRequest& request) {
  const std::string& dir = request.program.working_dir;
  if (dir.empty() || dir.front() != '/') {
    return invalid_argument("job " + std::to_string(request.job.value()) + ": working_dir '" +
                            dir + "' is not an absolute path");
  }
  OutputPaths paths;
  const std::string default_stdout =
      expand_output_path("fairway-%j.out", request.job, dir, "");
  paths.stdout_path =
      expand_output_path(request.program.stdout_path, request.job, dir, default_stdout);
  paths.stderr_path =
      expand_output_path(request.program.stderr_path, request.job, dir, paths.stdout_path);
  return paths;
}

Result<std::vector<std::string>> build_job_environment(const LaunchRequest& request,
                                                       const JobUser& user) {
  OrderedEnv env;
  for (const auto& [name, value] : request.program.env) {
    if (auto ok = check_variable(name, value); !ok) {
      return std::unexpected(
          ok.error().with_context("job " + std::to_string(request.job.value())));
    }
    env.set(name, value);
  }
  env.set_default("PATH", std::string(kDefaultPath));
  env.set_default("HOME", user.home);
  env.set_default("USER", user.name);
  env.set_default("LOGNAME", user.name);

  const std::string id = std::to_string(request.job.value());
  const std::string cpus = comma_list(request.cores);
  const std::string submit_dir =
      request.submit_dir.empty() ? request.program.working_dir : request.submit_dir;
  std::string visible;
  if (request.gpu_visible_ids.empty()) {
    visible = comma_list(request.gpus);
  } else {
    for (std::size_t i = 0; i < request.gpu_visible_ids.size(); ++i) {
      if (i > 0) visible += ',';
      visible += request.gpu_visible_ids[i];
    }
  }
  env.set("FAIRWAY_JOB_ID", id);
  env.set("FAIRWAY_JOB_NAME", request.name);
  env.set("FAIRWAY_NODELIST", request.nodelist);
  env.set("FAIRWAY_CPUS", cpus);
  env.set("FAIRWAY_GPUS", comma_list(request.gpus));
  // Always set, even empty: an empty list hides every GPU from a job that asked for none.
  env.set("CUDA_VISIBLE_DEVICES", visible);
  env.set("FAIRWAY_SUBMIT_DIR", submit_dir);
  env.set("SLURM_JOB_ID", id);
  env.set("SLURM_JOBID", id);
  env.set("SLURM_JOB_NAME", request.name);
  env.set("SLURM_JOB_NODELIST", request.nodelist);
  env.set("SLURM_NNODES", std::to_string(request.nnodes));
  env.set("SLURM_NTASKS", std::to_string(request.ntasks));
  env.set("SLURM_CPUS_ON_NODE", std::to_string(request.cores.size()));
  env.set("SLURM_SUBMIT_DIR", submit_dir);
  env.set("SLURM_JOB_USER", user.name);
  env.set("SLURM_JOB_ACCOUNT", request.account);
  env.set("SLURM_JOB_PARTITION", request.partition);
  env.set("SLURM_RESTART_COUNT", std::to_string(request.restarts));
  return env.to_strings();
}

}  // namespace fairway::agent

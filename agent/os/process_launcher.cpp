#include "agent/os/process_launcher.h"

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string_view>

#include "agent/os/coordinator_lease_file.h"
#include "agent/os/exit_record.h"
#include "agent/os/job_keeper.h"
#include "agent/os/job_script.h"
#include "agent/os/job_user.h"
#include "agent/os/launch_checkpoint.h"
#include "agent/os/launch_environment.h"
#include "agent/os/program_search.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

// The step of the child that failed, sent through the CLOEXEC pipe with its errno.
enum class ChildStep : std::int32_t {
  kSetsid = 1,
  kSetgroups,
  kSetgid,
  kSetuid,
  kChdir,
  kOpenStdin,
  kOpenStdout,
  kOpenStderr,
  kRedirect,
  kAffinity,
  kExec,
  kCgroup,
  kSearch,  // no candidate of the PATH search could be executed by the user
};

struct ChildFailure {
  ChildStep step;
  std::int32_t error;
  std::int32_t candidate = -1;  // kExec of a PATH search: which candidate failed
};

// Everything the child needs, prepared before fork: the child only makes syscalls.
struct ChildPlan {
  bool switch_user = false;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
  std::string working_dir;
  OutputPaths output;
  bool bind = false;
  bool append_output = false;
  std::string attempt_banner;  // written to stdout first on a later run; built before fork
  // The job's own umask (the agent's is 077): the submitter's (SLURM_UMASK), else 022.
  mode_t umask = 022;
  cpu_set_t cpus{};
  std::vector<int> cgroup_procs;  // the job joins each before anything else (job_cgroups.h)
  std::string exec_path;
  // A name without '/': where the PATH search looks, in order. The child tries each as the
  // job's user (execvp's rule), so root's view never tells what the user cannot see.
  std::vector<std::string> exec_candidates;
  std::string search_path;  // the PATH searched, for the error
  std::vector<std::string> argv;
  std::vector<std::string> envp;
  // envp's "SLURM_TASK_PID=" entry, room for the digits included: the child writes its own
  // pid there (slurmstepd's variable; the pid exists only after the fork).
  std::size_t task_pid_entry = 0;
};

constexpr std::string_view kTaskPidName = "SLURM_TASK_PID=";

// `pid` in decimal into `out` (room for 20 digits); returns how many. Async-signal-safe.
std::size_t write_decimal(pid_t pid, char* out) {
  char digits[24];
  std::size_t n = 0;
  for (; pid > 0 && n < sizeof digits; pid /= 10) digits[n++] = static_cast<char>('0' + pid % 10);
  for (std::size_t i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  return n;
}

// SLURM_UMASK as sbatch exports it ("0022", octal; the last one counts); 022 when absent
// or not a mode.
mode_t job_umask(const std::vector<std::string>& envp) {
  constexpr std::string_view kName = "SLURM_UMASK=";
  std::string_view digits;
  for (const std::string& entry : envp) {
    if (entry.starts_with(kName)) digits = std::string_view(entry).substr(kName.size());
  }
  if (digits.empty() || digits.size() > 4) return 022;
  mode_t mask = 0;
  for (const char c : digits) {
    if (c < '0' || c > '7') return 022;
    mask = static_cast<mode_t>(mask * 8 + static_cast<mode_t>(c - '0'));
  }
  return mask & 0777;
}

std::string job_prefix(JobId job) {
  return "job " + std::to_string(job.value()) + ": ";
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Decides whose uid the job gets; errors when the agent may not or cannot run it so.
Status choose_identity(const LaunchRequest& r, const JobUser& user, bool allow_root_jobs, ChildPlan& plan) {
  const std::string who = job_prefix(r.job);
  if (::geteuid() == 0) {
    if (user.uid == 0 && !allow_root_jobs) {
      return make_error(
          ErrorCode::kFailedPrecondition,
          who + "user '" + user.name + "' has uid 0 and root jobs are not allowed (allow_root_jobs)");
    }
    plan.switch_user = user.uid != 0;
    plan.uid = user.uid;
    plan.gid = user.gid;
    plan.groups = user.groups;
    return ok_status();
  }
  if (user.uid != ::geteuid()) {
    return make_error(ErrorCode::kFailedPrecondition, who + "the agent runs as uid " +
                                                          std::to_string(::geteuid()) +
                                                          " and cannot run a job as user '" + user.name +
                                                          "' (uid " + std::to_string(user.uid) + ")");
  }
  return ok_status();
}

std::string step_description(ChildStep step, const LaunchRequest& r, const ChildPlan& plan) {
  switch (step) {
    case ChildStep::kSetsid:
      return "setsid";
    case ChildStep::kSetgroups:
      return "setgroups for user '" + r.user + "'";
    case ChildStep::kSetgid:
      return "setgid(" + std::to_string(plan.gid) + ") for user '" + r.user + "'";
    case ChildStep::kSetuid:
      return "setuid(" + std::to_string(plan.uid) + ") for user '" + r.user + "'";
    case ChildStep::kChdir:
      return "chdir to working_dir '" + plan.working_dir + "'";
    case ChildStep::kOpenStdin:
      return "open /dev/null as stdin";
    case ChildStep::kOpenStdout:
      return "open stdout file '" + plan.output.stdout_path + "'";
    case ChildStep::kOpenStderr:
      return "open stderr file '" + plan.output.stderr_path + "'";
    case ChildStep::kRedirect:
      return "redirect stdin/stdout/stderr";
    case ChildStep::kAffinity:
      return "bind to PUs " + comma_list(r.bind_pus) + " (sched_setaffinity)";
    case ChildStep::kExec:
      return "exec '" + plan.exec_path + "'";
    case ChildStep::kSearch:
      return "command '" + r.program.argv.front() + "' not found in PATH '" + plan.search_path + "'" +
             (plan.switch_user ? " as user '" + r.user + "'" : std::string());
    case ChildStep::kCgroup:
      return "join its cgroup (write its pid to cgroup.procs)";
  }
  return "child setup";
}

ErrorCode code_for_errno(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return ErrorCode::kNotFound;
    case EACCES:
    case EPERM:
    case EROFS:
      return ErrorCode::kFailedPrecondition;
    case EINVAL:
      return ErrorCode::kInvalidArgument;
    default:
      return ErrorCode::kIo;
  }
}

// Async-signal-safe writes only from here on; never returns.
[[noreturn]] void fail_in_child(int fd, ChildStep step, std::int32_t candidate = -1) {
  const ChildFailure failure{step, errno, candidate};
  [[maybe_unused]] const ssize_t n = ::write(fd, &failure, sizeof failure);
  ::_exit(127);
}

[[noreturn]] void run_child(const ChildPlan& plan, char* const* argv, char* const* envp, int report_fd) {
  // The agent (and the keeper) block or ignore signals (signalfd, SIGPIPE, SIGTERM); the
  // job starts clean.
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &default_action, nullptr);
  }
  // Into its cgroups while still root (and before it can fork): from here on the kernel
  // holds it and everything it starts to its CPUs, memory and devices.
  if (!plan.cgroup_procs.empty()) {
    char text[24];
    const std::size_t n = write_decimal(::getpid(), text);
    for (const int fd : plan.cgroup_procs) {
      if (::write(fd, text, n) != static_cast<ssize_t>(n)) fail_in_child(report_fd, ChildStep::kCgroup);
    }
  }
  // Drop privileges first, so the working dir and output files are reached as the user.
  if (plan.switch_user) {
    if (::setgroups(plan.groups.size(), plan.groups.data()) != 0) {
      fail_in_child(report_fd, ChildStep::kSetgroups);
    }
    if (::setgid(plan.gid) != 0) fail_in_child(report_fd, ChildStep::kSetgid);
    if (::setuid(plan.uid) != 0) fail_in_child(report_fd, ChildStep::kSetuid);
  }
  ::umask(plan.umask);  // before the output files: they get the user's expected modes
  if (::chdir(plan.working_dir.c_str()) != 0) fail_in_child(report_fd, ChildStep::kChdir);
  const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in < 0) fail_in_child(report_fd, ChildStep::kOpenStdin);
  const int kOutputFlags =
      O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY | O_CLOEXEC | (plan.append_output ? 0 : O_TRUNC);
  const int out = ::open(plan.output.stdout_path.c_str(), kOutputFlags, 0644);
  if (out < 0) fail_in_child(report_fd, ChildStep::kOpenStdout);
  int err = out;
  if (!plan.output.shared()) {
    err = ::open(plan.output.stderr_path.c_str(), kOutputFlags, 0644);
    if (err < 0) fail_in_child(report_fd, ChildStep::kOpenStderr);
  }
  if (::dup2(in, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0) {
    fail_in_child(report_fd, ChildStep::kRedirect);
  }
  // Best effort: a marker that cannot be written must not stop the job.
  if (!plan.attempt_banner.empty()) {
    (void)!::write(STDOUT_FILENO, plan.attempt_banner.data(), plan.attempt_banner.size());
  }
  if (plan.bind && ::sched_setaffinity(0, sizeof plan.cpus, &plan.cpus) != 0) {
    fail_in_child(report_fd, ChildStep::kAffinity);
  }
  // The agent's own descriptors (sockets, database) must not leak into the job.
  if (report_fd > 3) ::close_range(3, static_cast<unsigned>(report_fd - 1), 0);
  ::close_range(static_cast<unsigned>(report_fd + 1), ~0U, 0);
  {
    char* entry = envp[plan.task_pid_entry] + kTaskPidName.size();
    entry[write_decimal(::getpid(), entry)] = '\0';
  }
  if (plan.exec_candidates.empty()) {
    ::execve(plan.exec_path.c_str(), argv, envp);
    fail_in_child(report_fd, ChildStep::kExec);
  }
  // execvp's search, as the user: a candidate that is absent or that the user may not reach
  // or run is passed over; any other failure (not an executable format) is the answer.
  bool denied = false;
  for (std::size_t i = 0; i < plan.exec_candidates.size(); ++i) {
    ::execve(plan.exec_candidates[i].c_str(), argv, envp);
    if (errno == EACCES) {
      denied = true;
    } else if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP && errno != ENAMETOOLONG) {
      fail_in_child(report_fd, ChildStep::kExec, static_cast<std::int32_t>(i));
    }
  }
  errno = denied ? EACCES : ENOENT;
  fail_in_child(report_fd, ChildStep::kSearch);
}

// What the job's process runs under its keeper (job_keeper.h's StartJobFn).
struct JobExec {
  const ChildPlan* plan;
  char* const* argv;
  char* const* envp;
};

void start_job(const void* context, int report_fd) {
  const auto* e = static_cast<const JobExec*>(context);
  run_child(*e->plan, e->argv, e->envp, report_fd);
}

// Reads exactly `size` bytes unless the writers all closed first; returns how many came.
std::size_t read_full(int fd, void* out, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, static_cast<char*>(out) + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

// Held from a launch's making its pipes until its parent side has closed their write ends.
// Launches run on several threads (LaunchWorkers): a keeper forked by one launch meanwhile
// would inherit the other's write ends (CLOEXEC closes them only at an exec, and a keeper
// never execs; it closes them once its own job has, and that job may hang first in an open
// on a hung file system), and the other launch, reading to EOF, would wait for that job.
std::mutex launch_fork_mutex;

// A pipe whose ends are above 2, so the child's dup2 onto 0-2 cannot clobber them.
Result<std::pair<int, int>> make_report_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return make_error(ErrorCode::kIo, std::string("pipe2: ") + std::strerror(errno));
  }
  for (int& fd : fds) {
    if (fd > 2) continue;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    const int err = errno;
    ::close(fd);
    fd = moved;
    if (moved < 0) {
      for (const int other : fds) {
        if (other > 2) ::close(other);
      }
      return make_error(ErrorCode::kIo, std::string("fcntl(F_DUPFD_CLOEXEC): ") + std::strerror(err));
    }
  }
  return std::pair{fds[0], fds[1]};
}

}  // namespace

ProcessLauncher::ProcessLauncher(LauncherConfig config) : config_(std::move(config)) {}

Result<LaunchedProcess> ProcessLauncher::launch(const LaunchRequest& request,
                                                const CgroupAttach* cgroup) const {
  const std::string who = job_prefix(request.job);
  FAIRWAY_TRY(validate_launch_request(request));
  auto user = look_up_job_user(request.user);
  if (!user) return std::unexpected(user.error().with_context("job " + std::to_string(request.job.value())));
  // The coordinator proved who submitted: a name that is another uid on this node (an
  // NSS mismatch, or a forged launch) must not run as whoever has that name here.
  if (request.uid && *request.uid != user->uid) {
    return make_error(ErrorCode::kPermissionDenied,
                      who + "user '" + request.user + "' is uid " + std::to_string(user->uid) +
                          " on this node, but the job was submitted by uid " + std::to_string(*request.uid));
  }
  if (request.gid && *request.gid != user->gid) {
    // The submitter's gid as authenticated, if it is one of the user's groups on this node:
    // never one the user is not a member of (the coordinator checks it too).
    if (std::find(user->groups.begin(), user->groups.end(), *request.gid) == user->groups.end()) {
      return make_error(ErrorCode::kPermissionDenied, who + "gid " + std::to_string(*request.gid) +
                                                          " is not a group of user '" + request.user +
                                                          "' on this node");
    }
    user->gid = *request.gid;
  }

  ChildPlan plan;
  if (auto ok = choose_identity(request, *user, config_.allow_root_jobs, plan); !ok) {
    return std::unexpected(ok.error());
  }
  FAIRWAY_TRY_ASSIGN(output, resolve_output_paths(request));
  plan.output = output;
  plan.working_dir = request.program.working_dir;
  plan.append_output = request.append_output;
  if (request.restarts > 0) {
    plan.attempt_banner = "==== fairway: job " + std::to_string(request.job.value()) + " attempt " +
                          std::to_string(request.restarts + 1) +
                          " starts here (the earlier run was stopped and requeued) ====\n";
  }
  FAIRWAY_TRY_ASSIGN(envp, build_job_environment(request, *user));
  plan.envp = std::move(envp);
  plan.umask = job_umask(plan.envp);
  // Slurm's step daemon applies SLURM_UMASK and takes it out of the batch job's environment
  // (the conformance captures: no batch job on the anchor sees it), so ours does too.
  std::erase_if(plan.envp, [](const std::string& e) {
    return e.starts_with("SLURM_UMASK=") || e.starts_with(kTaskPidName);
  });
  plan.task_pid_entry = plan.envp.size();
  plan.envp.push_back(std::string(kTaskPidName) + std::string(24, '\0'));
  if (!request.bind_pus.empty()) {
    plan.bind = true;
    CPU_ZERO(&plan.cpus);
    for (const std::int32_t pu : request.bind_pus) CPU_SET(static_cast<std::size_t>(pu), &plan.cpus);
  }

  if (cgroup != nullptr) plan.cgroup_procs = cgroup->fds();

  LaunchedProcess launched;
  if (!request.program.script.empty()) {
    auto script =
        write_job_script(config_.spool_dir, request.job, request.program.script, user->uid, user->gid);
    if (!script)
      return std::unexpected(script.error().with_context("job " + std::to_string(request.job.value())));
    launched.script_path = *script;
    plan.argv = script_interpreter(request.program.script);
    plan.argv.push_back(*script);
    plan.exec_path = plan.argv.front();
  } else {
    const ProgramSearch search = program_search(request.program.argv.front(), plan.envp, plan.working_dir);
    if (search.searched) {
      plan.exec_candidates = search.candidates;
      plan.search_path = search.path;
    } else {
      plan.exec_path = search.candidates.front();
    }
    plan.argv = request.program.argv;
  }
  auto drop_script = [&] {
    if (!launched.script_path.empty()) ::unlink(launched.script_path.c_str());
  };

  std::vector<char*> argv = c_strings(plan.argv);
  std::vector<char*> envp_c = c_strings(plan.envp);
  KeeperPlan keeper;
  const std::string record = exit_record_path(config_.spool_dir, request.job);
  keeper.exit_record_path = request.step ? record + ".step-" + std::to_string(*request.step) : record;
  keeper.exit_record_tmp = keeper.exit_record_path + ".tmp";
  keeper.lease_path = coordinator_lease_path(config_.spool_dir);
  keeper.fence_grace_s = config_.fence_grace.count();
  if (cgroup != nullptr) keeper.cgroup = cgroup->kill_plan;
  keeper.end_kills_cgroup = !request.step.has_value();
  if (!request.checkpoint_text.empty()) {
    keeper.checkpoint_path = LaunchCheckpoint(config_.spool_dir).path_of(request.job);
    keeper.checkpoint_tmp = keeper.checkpoint_path + ".keeper-tmp";
    keeper.checkpoint_text = request.checkpoint_text;
  }
  // A record left by an earlier run of this job id must not stand for this one.
  ::unlink(keeper.exit_record_path.c_str());
  std::unique_lock fork_lock(launch_fork_mutex);
  auto report_pipe = make_report_pipe();
  if (!report_pipe) {
    drop_script();
    return std::unexpected(report_pipe.error());
  }
  auto pid_pipe = make_report_pipe();
  if (!pid_pipe) {
    ::close(report_pipe->first);
    ::close(report_pipe->second);
    drop_script();
    return std::unexpected(pid_pipe.error());
  }
  const auto [read_fd, write_fd] = *report_pipe;
  const auto [pid_read_fd, pid_write_fd] = *pid_pipe;
  const JobExec exec{&plan, argv.data(), envp_c.data()};
  const pid_t keeper_pid = ::fork();
  if (keeper_pid < 0) {
    const int err = errno;
    for (const int fd : {read_fd, write_fd, pid_read_fd, pid_write_fd}) ::close(fd);
    drop_script();
    return make_error(ErrorCode::kResourceExhausted, who + "fork: " + std::strerror(err));
  }
  if (keeper_pid == 0) {
    ::close(read_fd);
    ::close(pid_read_fd);
    run_keeper(keeper, pid_write_fd, write_fd, start_job, &exec);
  }
  ::close(write_fd);
  ::close(pid_write_fd);
  fork_lock.unlock();
  std::int32_t job_pid = 0;
  const std::size_t pid_bytes = read_full(pid_read_fd, &job_pid, sizeof job_pid);
  ::close(pid_read_fd);
  const auto reap_keeper = [&] {
    int status = 0;
    while (::waitpid(keeper_pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::unlink(keeper.exit_record_path.c_str());
    if (!keeper.checkpoint_path.empty()) ::unlink(keeper.checkpoint_path.c_str());
    drop_script();
  };
  if (pid_bytes < sizeof job_pid || job_pid <= 0) {
    ::close(read_fd);
    reap_keeper();
    const int err = pid_bytes < sizeof job_pid ? 0 : -job_pid;
    return make_error(ErrorCode::kResourceExhausted,
                      who + "the job's keeper could not start it" +
                          (err != 0 ? std::string(": ") + std::strerror(err) : ""));
  }
  ChildFailure failure{};
  const std::size_t got = read_full(read_fd, &failure, sizeof failure);
  ::close(read_fd);
  if (got == 0) {  // EOF: exec closed the CLOEXEC pipe
    launched.pid = keeper_pid;
    launched.pgid = job_pid;
    return launched;
  }
  reap_keeper();  // the job exited 127; its keeper follows it
  if (got < sizeof failure) {
    return make_error(ErrorCode::kInternal, who + "the child died before exec without a report");
  }
  if (failure.step == ChildStep::kExec && failure.candidate >= 0 &&
      static_cast<std::size_t>(failure.candidate) < plan.exec_candidates.size()) {
    plan.exec_path = plan.exec_candidates[static_cast<std::size_t>(failure.candidate)];
  }
  if (failure.step == ChildStep::kSearch) {
    return make_error(
        ErrorCode::kNotFound,
        who + step_description(failure.step, request, plan) +
            (failure.error == EACCES ? std::string(" (") + std::strerror(failure.error) + " on part of it)"
                                     : std::string()));
  }
  return make_error(code_for_errno(failure.error), who + step_description(failure.step, request, plan) +
                                                       ": " + std::strerror(failure.error));
}

Status ProcessLauncher::clean_up(JobId job) const {
  return remove_job_script(config_.spool_dir, job);
}

}  // namespace fairway::agent

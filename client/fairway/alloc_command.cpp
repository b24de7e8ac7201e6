#include "client/fairway/alloc_command.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "client/api/submit_options.h"
#include "client/fairway/submit_command.h"
#include "client/views/text_format.h"
#include "shared/base/count_list.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {
namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) {
  g_interrupted = true;
}

// The allocation's environment for the command, as salloc sets it.
std::vector<std::string> allocation_env(const wire::JobView& v, const SubmitContext& ctx) {
  std::vector<std::string> nodes;
  std::vector<std::int32_t> node_cores;
  std::int64_t cores = 0;
  for (const auto& a : v.allocation) {
    nodes.push_back(a.node);
    node_cores.push_back(static_cast<std::int32_t>(a.cores.size()));
    cores += std::ssize(a.cores);
  }
  std::vector<std::string> env;
  for (const auto& [name, value] : ctx.env) {
    if (!name.starts_with("SLURM_")) env.push_back(name + "=" + value);
  }
  const std::string id = std::to_string(v.id.value());
  const std::string list = compress_hostlist(nodes);
  for (const auto& [k, val] : std::initializer_list<std::pair<const char*, std::string>>{
           {"SLURM_JOB_ID", id},
           {"SLURM_JOBID", id},
           {"SLURM_JOB_NAME", v.name},
           {"SLURM_JOB_NODELIST", list},
           {"SLURM_NODELIST", list},
           {"SLURM_JOB_NUM_NODES", std::to_string(nodes.size())},
           {"SLURM_NNODES", std::to_string(nodes.size())},
           {"SLURM_JOB_CPUS_PER_NODE", repeat_counts(node_cores)},
           {"SLURM_NTASKS", std::to_string(cores)},
           {"SLURM_JOB_PARTITION", v.partition},
           {"SLURM_JOB_ACCOUNT", v.account},
           {"SLURM_SUBMIT_DIR", ctx.cwd},
           {"SLURM_SUBMIT_HOST", ctx.host}}) {
    env.push_back(std::string(k) + "=" + val);
  }
  return env;
}

// Runs argv with env in the foreground; its exit code, or 128+signal.
int run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  // The terminal's Ctrl-C goes to the command; we outlive it to end the allocation.
  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (const auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, nullptr);
    sigaction(SIGQUIT, &dfl, nullptr);
    execvpe(cargv[0], cargv.data(), cenv.data());
    _exit(127);
  }
  int status = 0;
  int code = 1;
  if (pid > 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  return code;
}

// Ends the allocation. With the command's exit code (`outcome`) it ends COMPLETED or
// FAILED with that code, as Slurm's do; without (interrupted before it was granted), or
// where the coordinator predates that request, it is cancelled.
void relinquish(JobId id, const Transport& transport, const Output& io, bool announce,
                std::optional<int> outcome = std::nullopt) {
  wire::JobControl c;
  c.action = wire::JobAction::kCancel;
  c.jobs = {id};
  if (outcome) {
    c.action = wire::JobAction::kEndAllocation;
    c.exit_code = std::clamp(*outcome, 0, 255);
  }
  auto r = transport(c);
  if (outcome && r && std::holds_alternative<wire::ErrorReply>(*r) &&
      std::get<wire::ErrorReply>(*r).message.find("unknown job action") != std::string::npos) {
    c.action = wire::JobAction::kCancel;
    r = transport(c);
  }
  if (!r || std::holds_alternative<wire::ErrorReply>(*r)) {
    io.err << "fairway: could not end job allocation " << id.value() << ": "
           << (r ? std::get<wire::ErrorReply>(*r).message : r.error().message) << "\n";
    return;
  }
  if (announce) io.err << "fairway: Relinquishing job allocation " << id.value() << "\n";
}

}  // namespace

int run_alloc(const std::vector<std::string>& args, const SubmitContext& ctx, const Transport& transport,
              const Output& io, std::chrono::milliseconds poll) {
  // No command: the user's shell.
  auto cmd = parse_submit_command_line(args, true);
  if (!cmd) return report_error(io, cmd.error().message, kExitUsage);
  if (cmd->run_only())
    return report_error(io, "--label, --jobid and --pty are options of fairway run", kExitUsage);
  std::vector<std::string> command = cmd->script_args;
  if (!cmd->script_path.empty()) command.insert(command.begin(), cmd->script_path);
  if (command.empty()) {
    const char* shell = std::getenv("SHELL");
    command = {shell != nullptr && *shell != '\0' ? shell : "/bin/sh"};
  }
  return with_allocation(
      std::move(*cmd), command.front(), ctx, transport, io, poll, true,
      [&](const wire::JobView& granted) { return run_command(command, allocation_env(granted, ctx)); });
}

int with_allocation(SubmitCommand cmd, const std::string& command_name, const SubmitContext& ctx,
                    const Transport& transport, const Output& io, std::chrono::milliseconds poll,
                    bool announce, const std::function<int(const wire::JobView&)>& body) {
  // The allocation itself is a job that holds its resources until we end it.
  cmd.script_path.clear();
  cmd.script_args.clear();
  cmd.wrap = "exec sleep infinity";
  auto built = build_submission(cmd, "", ctx);
  if (!built) return report_error(io, built.error().message, kExitUsage);
  for (const auto& w : built->warnings) io.err << "fairway: warning: " << w << "\n";
  if (auto st = resolve_task_dependencies(*built, transport); !st) {
    return report_error(io, st.error().message,
                        st.error().code == ErrorCode::kInvalidArgument ? kExitUsage : kExitFailure);
  }
  built->request.spec.interactive = true;
  // Slurm names an allocation after its command (srun hostname: "hostname").
  if (built->request.spec.name.empty() || built->request.spec.name == "wrap") {
    built->request.spec.name =
        command_name.empty() ? "interactive" : std::filesystem::path(command_name).filename().string();
  }

  auto reply = transport(built->request);
  if (!reply && reply.error().code == ErrorCode::kIo) reply = transport(built->request);
  if (!reply) return report_error(io, reply.error().message, kExitFailure);
  if (const auto* e = std::get_if<wire::ErrorReply>(&*reply)) {
    return report_error(io, "allocation refused: " + e->message, kExitFailure);
  }
  const auto* ok = std::get_if<wire::SubmitReply>(&*reply);
  if (ok == nullptr) return report_error(io, "unexpected reply to the allocation request", kExitFailure);
  const JobId id = ok->job;
  // Said only when it has to wait, as Slurm's salloc and srun do.
  constexpr auto kPatience = std::chrono::seconds(1);
  const auto asked = std::chrono::steady_clock::now();
  bool waited = false;
  const auto granted_or_ended = [&](const wire::JobView& v) {
    const bool done = v.state == JobState::kRunning || is_terminal(v.state);
    if (!done && !waited && std::chrono::steady_clock::now() - asked >= kPatience) {
      waited = true;
      if (announce) io.err << "fairway: Pending job allocation " << id.value() << "\n";
      io.err << "fairway: job " << id.value() << " queued and waiting for resources\n";
      io.err.flush();
    }
    return done;
  };

  g_interrupted = false;
  struct sigaction on_int {
  }, old_int{};
  on_int.sa_handler = on_interrupt;
  sigaction(SIGINT, &on_int, &old_int);
  auto granted = poll_job(id, transport, granted_or_ended, poll,
                          std::max(poll, std::chrono::milliseconds(2000)), &g_interrupted);
  if (!granted || granted->state != JobState::kRunning) {
    sigaction(SIGINT, &old_int, nullptr);
    if (g_interrupted) {
      relinquish(id, transport, io, announce);
      return kExitFailure;
    }
    if (!granted) return report_error(io, granted.error().message, kExitFailure);
    return report_error(io,
                        "job allocation " + std::to_string(id.value()) + " ended " +
                            state_name(granted->state) + " before it was granted",
                        kExitFailure);
  }
  sigaction(SIGINT, &old_int, nullptr);
  if (waited) io.err << "fairway: job " << id.value() << " has been allocated resources\n";
  if (announce) io.err << "fairway: Granted job allocation " << id.value() << "\n";
  io.err.flush();
  io.out.flush();
  const int code = body(*granted);
  relinquish(id, transport, io, announce, code);
  return code;
}

}  // namespace fairway::cli

#include "client/fairway/run_command.h"

#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <thread>

#include "client/api/submit_options.h"
#include "client/fairway/alloc_command.h"
#include "client/fairway/step_session.h"
#include "shared/base/hex.h"
#include "shared/model/cpu_bind.h"
#include "shared/net/step_stream.h"

namespace fairway::cli {
namespace {

// A secret the relays prove themselves with: 128 random bits as hex.
Result<std::string> step_key() {
  unsigned char bytes[16];
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    return make_error(ErrorCode::kIo, std::string("getrandom: ") + std::strerror(errno));
  }
  return to_hex(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

// What srun's own options ask of the step, besides the job options.
struct StepChoices {
  bool label = false;
  bool pty = false;
  bool kill_on_bad_exit = false;
  std::string cpu_bind;
  std::string distribution;
  std::string mpi;         // "pmi2", "pmix", or empty: no PMI
  bool exclusive = false;  // --exclusive or --exact: cores of its own, waiting for them
};

// srun --mpi=list, in Slurm's words, listing what Fairway serves.
constexpr const char* kMpiList =
    "MPI plugin types are...\n\tnone\n\tpmi2\n\tpmix\nspecific pmix plugin versions available: pmix_v4\n";

// --mpi: "none" (the tasks get no PMI; mpirun's daemons ask for that), "pmi2" (the relays
// serve PMI-1 and PMI-2: MPICH's srun launch) or "pmix" (PMIx through OpenPMIx: Open MPI's).
// The step's value, or an error naming what is offered.
Result<std::string> check_mpi(const std::optional<std::string>& mpi) {
  if (!mpi || *mpi == "none") return std::string();
  if (*mpi == "pmi2" || *mpi == "pmix") return *mpi;
  if (*mpi == "pmix_v4") return std::string("pmix");
  return invalid_argument("--mpi=" + *mpi + ": expected none, pmi2, pmix or pmix_v4 (srun --mpi=list)");
}

// The step's end to end: Ctrl-C from the request on, the caller's terminal raw for --pty,
// the session until every node is done.
int run_step(JobId job, const std::vector<std::string>& command, const SubmitOptions& options,
             const StepChoices& choices, const SubmitContext& ctx, const Transport& transport,
             const Output& io, const StepSettings& settings) {
  auto listening = net::listen_step_stream(settings.listen_host);
  if (!listening) return report_error(io, listening.error().message, kExitFailure);
  const auto [listen_fd, address] = *listening;
  auto key = step_key();
  if (!key) {
    ::close(listen_fd);
    return report_error(io, key.error().message, kExitFailure);
  }
  wire::StepRequest req;
  req.job = job;
  req.argv = command;
  req.env = ctx.env;
  // As srun: -c reaches its tasks as SLURM_CPUS_PER_TASK; without it they keep what the
  // caller had (the batch script's, from sbatch -c), or none.
  if (options.cpus_per_task) {
    std::erase_if(req.env, [](const auto& e) { return e.first == "SLURM_CPUS_PER_TASK"; });
    req.env.emplace_back("SLURM_CPUS_PER_TASK", std::to_string(*options.cpus_per_task));
  }
  req.working_dir = ctx.cwd;
  req.ntasks = options.ntasks.value_or(0);
  req.nodes = options.nodes.value_or(0);
  req.io_address = address;
  req.io_key = *key;
  req.pty = choices.pty;
  req.nodelist = options.nodelist.value_or(std::vector<std::string>{});
  req.exclude = options.exclude.value_or(std::vector<std::string>{});
  req.ntasks_per_node = options.ntasks_per_node.value_or(0);
  req.cpus_per_task = options.cpus_per_task.value_or(0);
  req.cpu_bind = choices.cpu_bind;
  req.distribution = choices.distribution;
  req.mpi = choices.mpi;
  req.exclusive = choices.exclusive;
  // From the request on, Ctrl-C is the step's: one that comes before the reply still
  // reaches the tasks once they run.
  std::optional<StepInterrupts> interrupts;
  interrupts.emplace();
  auto reply = transport(req);
  // An --exclusive step whose cores other steps hold waits for them, as Slurm's srun says
  // and does; meanwhile Ctrl-C ends srun as usual.
  bool waited = false;
  while (reply && std::holds_alternative<wire::ErrorReply>(*reply) &&
         std::get<wire::ErrorReply>(*reply).code == ErrorCode::kUnavailable &&
         std::get<wire::ErrorReply>(*reply).message == "Requested nodes are busy") {
    interrupts.reset();
    if (!waited) {
      io.err << "srun: Job " << job.value() << " step creation temporarily disabled, retrying ("
             << std::get<wire::ErrorReply>(*reply).message << ")\n";
      io.err.flush();
      waited = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    interrupts.emplace();
    reply = transport(req);
  }
  if (waited && reply && std::holds_alternative<wire::StepReply>(*reply)) {
    io.err << "srun: Step created for job " << job.value() << "\n";
    io.err.flush();
  }
  if (!reply || !std::holds_alternative<wire::StepReply>(*reply)) {
    ::close(listen_fd);
    const std::string why = !reply ? reply.error().message
                            : std::holds_alternative<wire::ErrorReply>(*reply)
                                ? std::get<wire::ErrorReply>(*reply).message
                                : "unexpected reply to the step request";
    return report_error(io, "cannot run a step in job " + std::to_string(job.value()) + ": " + why,
                        kExitFailure);
  }
  const auto& started = std::get<wire::StepReply>(*reply);
  StepSettings step_settings = settings;
  step_settings.kill_on_bad_exit = choices.kill_on_bad_exit;
  const StepOutcome outcome =
      serve_step(started, *key, listen_fd, choices.label, choices.pty, io, step_settings);
  ::close(listen_fd);
  // For sacct's ID.N line. Its output and exit are the user's whatever the coordinator
  // answers: a step it cannot record is no reason to fail the command that ran.
  (void)transport(wire::StepEnded{job, started.step, outcome.exit_code, outcome.signal, outcome.max_rss_kb,
                                  outcome.cpu_us});
  return outcome.exit;
}

std::optional<JobId> job_from_environment(const SubmitContext& ctx) {
  for (const char* name : {"FAIRWAY_JOB_ID", "SLURM_JOB_ID"}) {
    for (const auto& [k, v] : ctx.env) {
      std::uint64_t id = 0;
      if (k == name && std::from_chars(v.data(), v.data() + v.size(), id).ec == std::errc() && id > 0)
        return JobId(id);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string run_usage() {
  return R"(Usage: fairway run [options] COMMAND [ARGS...]
Runs COMMAND as a step of a job on its nodes (srun): inside a job (or with --jobid) in
that job's allocation, else in a new allocation made with the options of fairway submit.
  -n, --ntasks=N     tasks in all (default: the job's; with -N only, one per node)
  -N, --nodes=N      the job's first N nodes (default: all of them)
  -l, --label        prefix each output line with its task's rank
      --pty          task 0 on a pseudo-terminal, this terminal passing every key to it
                     (an interactive shell on a node: fairway run -N1 --pty bash)
      --jobid=ID     run in this job of yours
Each task gets SLURM_PROCID, SLURM_LOCALID, SLURM_NODEID and SLURM_STEP_*; stdin goes to
task 0; Ctrl-C sends SIGINT to the tasks, twice within a second kills them. The exit code
is the worst task's (128+N for a task killed by signal N).
)";
}

int run_step_command(const std::vector<std::string>& args, const SubmitContext& ctx,
                     const Transport& transport, const Output& io, const StepSettings& settings) {
  // srun --mpi=list needs no command.
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--mpi=list" || (args[i] == "--mpi" && i + 1 < args.size() && args[i + 1] == "list")) {
      io.out << kMpiList;
      return kExitOk;
    }
  }
  auto cmd = parse_submit_command_line(args);
  if (!cmd) {
    // "submit needs a script path": here it is the command that is missing.
    if (cmd.error().message.starts_with("submit needs"))
      return report_error(io, "fairway run needs a COMMAND", kExitUsage);
    return report_error(io, cmd.error().message, kExitUsage);
  }
  if (cmd->help) {
    io.out << run_usage();
    return kExitOk;
  }
  if (cmd->wrap) return report_error(io, "fairway run takes a COMMAND, not --wrap", kExitUsage);
  std::vector<std::string> command = cmd->script_args;
  command.insert(command.begin(), cmd->script_path);
  std::optional<JobId> job;
  if (cmd->jobid) {
    std::uint64_t id = 0;
    const std::string& v = *cmd->jobid;
    if (std::from_chars(v.data(), v.data() + v.size(), id).ec != std::errc() || id == 0) {
      return report_error(io, "--jobid: not a job id: '" + v + "'", kExitUsage);
    }
    job = JobId(id);
  } else {
    job = job_from_environment(ctx);
  }
  auto mpi = check_mpi(cmd->mpi);
  if (!mpi) return report_error(io, mpi.error().message, kExitUsage);
  if (auto b = parse_cpu_bind(cmd->cpu_bind.value_or("")); !b)
    return report_error(io, b.error().message, kExitUsage);
  if (auto d = parse_cyclic_distribution(cmd->distribution.value_or("")); !d) {
    return report_error(io, d.error().message, kExitUsage);
  }
  const StepChoices choices{cmd->label,
                            cmd->pty,
                            cmd->kill_on_bad_exit.value_or(false),
                            cmd->cpu_bind.value_or(""),
                            cmd->distribution.value_or(""),
                            *mpi,
                            cmd->exact || cmd->options.exclusive.value_or(false)};
  if (job) return run_step(*job, command, cmd->options, choices, ctx, transport, io, settings);
  // srun outside a job: an allocation of its own, with one task per core asked for.
  const SubmitOptions options = cmd->options;
  return with_allocation(std::move(*cmd), command.front(), ctx, transport, io, std::chrono::milliseconds(200),
                         false, [&](const wire::JobView& granted) {
                           SubmitOptions step = options;
                           step.nodes.reset();
                           return run_step(granted.id, command, step, choices, ctx, transport, io, settings);
                         });
}

}  // namespace fairway::cli

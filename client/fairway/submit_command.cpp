#include "client/fairway/submit_command.h"

#include <chrono>

#include "client/api/begin_time.h"

#include "client/views/fairway/json_output.h"

#include <sys/random.h>
#include <sys/resource.h>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <ostream>
#include <sstream>
#include <thread>

#include "client/views/text_format.h"
#include "shared/base/hex.h"
#include "shared/base/try.h"

extern char** environ;

namespace fairway::cli {
namespace {

Result<std::string> read_script(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::kNotFound,
                      "cannot read job script \"" + path + "\": " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return make_error(ErrorCode::kIo, "error reading job script \"" + path + "\"");
  return text.str();
}

}  // namespace

Result<std::string> random_client_token() {
  // getrandom, not an ifstream on /dev/urandom: that buffered 8 KiB of randomness per
  // submit to use 16 bytes (measurable in a loop of `fairway submit`).
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(ErrorCode::kIo, "cannot get random bytes for the client token");
    got += static_cast<std::size_t>(n);
  }
  return to_hex(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

Result<SubmitContext> current_submit_context() {
  SubmitContext ctx;
  // No user name: the coordinator takes who submits from the proven identity (kernel
  // credentials or MUNGE) and fills it in. Skipping the NSS lookup saves every submit a
  // read of the user database (a network round trip at LDAP sites).
  char cwd[4096];
  if (::getcwd(cwd, sizeof cwd) == nullptr) {
    return make_error(ErrorCode::kIo,
                      std::string("cannot read the current directory: ") + std::strerror(errno));
  }
  ctx.cwd = cwd;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    ctx.env.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
  }
  ctx.now = begin_reference(std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count());
  errno = 0;
  const int nice = ::getpriority(PRIO_PROCESS, 0);
  if (errno == 0) ctx.priority = nice;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) ctx.host = host;
  // As sbatch: the job creates its files with the submitter's umask, not the agent's.
  const mode_t mask = ::umask(022);
  ::umask(mask);
  char mask_text[8];
  std::snprintf(mask_text, sizeof mask_text, "%04o", static_cast<unsigned>(mask & 0777));
  ctx.umask = mask_text;
  FAIRWAY_TRY_ASSIGN(token, random_client_token());
  ctx.client_token = token;
  return ctx;
}

namespace {

// As sbatch --test-only says it: "Job to start at 2026-11-26T10:00:00 using 4 cores on
// nodes n1 in partition batch".
std::string describe_estimate(const wire::SubmitReply& r) {
  if (!r.estimated_start) {
    return "Job cannot be promised a start now in partition " + r.partition +
           " (reason: " + (r.reason.empty() ? std::string("None") : r.reason) + ")\n";
  }
  std::string out = "Job to start at " + format_local_time(*r.estimated_start);
  if (!r.nodes.empty()) {
    std::string nodes;
    for (const std::string& n : r.nodes) nodes += (nodes.empty() ? "" : ",") + n;
    out += " using " + std::to_string(r.cores) + " cores on nodes " + nodes;
  }
  return out + " in partition " + r.partition + "\n";
}

}  // namespace

Status resolve_task_dependencies(BuiltSubmission& built, const Transport& transport) {
  for (const DependencyTaskRef& ref : built.dependency_tasks) {
    const std::string name = std::to_string(ref.array.value()) + "_" + std::to_string(ref.index);
    wire::JobQuery q;
    q.jobs = {ref.array};
    q.include_finished = true;
    q.expand_arrays = true;  // waiting tasks too, each under its own id
    auto reply = transport(q);
    if (!reply) return std::unexpected(reply.error().with_context("--dependency: looking up job " + name));
    if (const auto* e = std::get_if<wire::ErrorReply>(&*reply)) {
      return make_error(e->code, "--dependency: looking up job " + name + ": " + e->message);
    }
    const auto* views = std::get_if<wire::JobQueryReply>(&*reply);
    std::optional<JobId> id;
    for (const wire::JobView& v : views != nullptr ? views->jobs : std::vector<wire::JobView>{}) {
      if (v.array_job == ref.array && v.array_tasks == std::to_string(ref.index)) id = v.id;
    }
    if (!id) return invalid_argument("--dependency: job " + name + " does not exist");
    built.request.spec.dependencies.at(ref.clause).jobs.push_back(*id);
  }
  built.dependency_tasks.clear();
  return ok_status();
}

int run_submit(const SubmitCommand& cmd, const SubmitContext& ctx, const Transport& transport,
               const Output& io) {
  std::string script;
  if (!cmd.wrap) {
    auto text = read_script(cmd.script_path);
    if (!text) return report_error(io, text.error().message, kExitUsage);
    script = std::move(*text);
  }
  auto built = build_submission(cmd, script, ctx);
  if (!built) return report_error(io, built.error().message, kExitUsage);
  if (!cmd.json) {
    for (const auto& w : built->warnings) io.err << "fairway: warning: " << w << "\n";
  }
  if (auto st = resolve_task_dependencies(*built, transport); !st) {
    return report_error(io, st.error().message,
                        st.error().code == ErrorCode::kInvalidArgument ? kExitUsage : kExitFailure);
  }

  const wire::Message request = built->request;
  auto reply = transport(request);
  // The same client token makes the retry safe: the coordinator never creates a second job.
  if (!reply && reply.error().code == ErrorCode::kIo) reply = transport(request);
  if (!reply) return report_error(io, reply.error().message, kExitFailure);
  if (const auto* e = std::get_if<wire::ErrorReply>(&*reply)) {
    return report_error(io, "submission refused: " + e->message, kExitFailure);
  }
  const auto* ok = std::get_if<wire::SubmitReply>(&*reply);
  if (ok == nullptr) {
    return report_error(
        io, "unexpected " + std::string(to_string(wire::message_type(*reply))) + " in reply to SubmitRequest",
        kExitFailure);
  }
  if (ok->test_only) {
    io.out << describe_estimate(*ok);
    return kExitOk;
  }
  if (cmd.json) {
    io.out << submit_json(ok->job, built->warnings);
  } else if (built->quiet) {
    // sbatch -Q prints no id, --parsable or not (the quiet conformance row).
  } else if (cmd.parsable) {
    io.out << ok->job.value() << "\n";
  } else {
    io.out << "Submitted batch job " << ok->job.value() << "\n";
  }
  if (!built->wait) return kExitOk;
  io.out.flush();
  // An array is waited for to its last task, as sbatch --wait does.
  if (!built->request.spec.array.empty()) return wait_for_array(ok->job, transport, io);
  return wait_for_job(ok->job, transport, io);
}

Result<wire::JobView> poll_job(JobId job, const Transport& transport,
                               const std::function<bool(const wire::JobView&)>& done,
                               std::chrono::milliseconds first_pause, std::chrono::milliseconds longest_pause,
                               const std::atomic<bool>* interrupted) {
  FAIRWAY_TRY_ASSIGN(
      views, poll_jobs(
                 job, false, transport, [&](const std::vector<wire::JobView>& v) { return done(v.front()); },
                 first_pause, longest_pause, interrupted));
  return views.front();
}

Result<std::vector<wire::JobView>> poll_jobs(
    JobId job, bool expand_arrays, const Transport& transport,
    const std::function<bool(const std::vector<wire::JobView>&)>& done, std::chrono::milliseconds first_pause,
    std::chrono::milliseconds longest_pause, const std::atomic<bool>* interrupted) {
  wire::JobQuery q;
  q.jobs = {job};
  q.include_finished = true;
  q.expand_arrays = expand_arrays;
  std::chrono::milliseconds pause = first_pause;
  int unreachable = 0;
  while (interrupted == nullptr || !*interrupted) {
    auto reply = transport(q);
    const auto* r = reply ? std::get_if<wire::JobQueryReply>(&*reply) : nullptr;
    if (r == nullptr) {
      // The coordinator restarting is no reason to give up on a job it keeps.
      if (++unreachable >= 30) {
        return make_error(ErrorCode::kUnavailable,
                          "lost the coordinator while waiting for job " + std::to_string(job.value()) +
                              (reply ? std::string() : ": " + reply.error().message));
      }
    } else if (r->jobs.empty()) {
      return make_error(ErrorCode::kNotFound, "job " + std::to_string(job.value()) + " is no longer known");
    } else if (done(r->jobs)) {
      return r->jobs;
    } else {
      unreachable = 0;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, longest_pause);
  }
  return make_error(ErrorCode::kUnavailable,
                    "interrupted while waiting for job " + std::to_string(job.value()));
}

int wait_for_array(JobId array, const Transport& transport, const Output& io,
                   std::chrono::milliseconds first_pause, std::chrono::milliseconds longest_pause) {
  // Every task is listed under its own id (expand_arrays); a folded "[...]" line would
  // stand for tasks not made yet.
  const auto all_ended = [&](const std::vector<wire::JobView>& views) {
    bool any = false;
    for (const wire::JobView& v : views) {
      if (v.array_job != array) continue;
      if (!is_terminal(v.state) || v.array_tasks.starts_with("[")) return false;
      any = true;
    }
    return any;
  };
  auto ended = poll_jobs(array, true, transport, all_ended, first_pause, longest_pause);
  if (!ended) return report_error(io, ended.error().message, kExitFailure);
  // Slurm records the highest exit code of any task as the array's.
  int worst = kExitOk;
  std::size_t not_completed = 0;
  for (const wire::JobView& v : *ended) {
    if (v.array_job != array || v.state == JobState::kCompleted) continue;
    if (++not_completed <= 5) {
      io.err << "fairway: job " << array.value() << "_" << v.array_tasks << " ended " << state_name(v.state)
             << (v.exit_code ? " (exit code " + std::to_string(*v.exit_code) + ")" : std::string()) << "\n";
    }
    const bool coded = v.state == JobState::kFailed && v.exit_code && *v.exit_code > 0 && *v.exit_code < 256;
    worst = std::max(worst, coded ? *v.exit_code : kExitFailure);
  }
  if (not_completed > 5)
    io.err << "fairway: ... and " << not_completed - 5 << " more tasks did not complete\n";
  return worst;
}

int wait_for_job(JobId job, const Transport& transport, const Output& io,
                 std::chrono::milliseconds first_pause, std::chrono::milliseconds longest_pause) {
  auto ended = poll_job(
      job, transport, [](const wire::JobView& v) { return is_terminal(v.state); }, first_pause,
      longest_pause);
  if (!ended) return report_error(io, ended.error().message, kExitFailure);
  const wire::JobView& v = *ended;
  if (v.state == JobState::kCompleted) return kExitOk;
  const std::string how = v.exit_code ? " (exit code " + std::to_string(*v.exit_code) + ")"
                          : v.signal  ? " (signal " + std::to_string(*v.signal) + ")"
                                      : std::string();
  io.err << "fairway: job " << job.value() << " ended " << state_name(v.state) << how << "\n";
  // sbatch --wait exits with the job's own code where there is one.
  if (v.state == JobState::kFailed && v.exit_code && *v.exit_code > 0 && *v.exit_code < 256) {
    return *v.exit_code;
  }
  return kExitFailure;
}

}  // namespace fairway::cli

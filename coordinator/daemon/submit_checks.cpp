// What every submission passes before the core sees it, and sbatch --test-only: the same
// checks, then a what-if plan of the core instead of a queued job.
#include <cstdio>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/unix_groups.h"
#include "shared/base/log.h"
#include "shared/base/try.h"

namespace fairway::daemon {

std::vector<std::string> CoordinatorService::access_groups(const std::string& user, std::uint32_t gid) const {
  const bool wanted = std::any_of(config_.partitions.begin(), config_.partitions.end(),
                                  [](const PartitionConfig& p) { return !p.access.allow_groups.empty(); });
  return wanted ? unix_groups(user, gid) : std::vector<std::string>{};
}

namespace {

Status check_program(const wire::JobProgram& p) {
  if (p.script.empty() && p.argv.empty()) {
    return invalid_argument("the job has neither a script nor a command (--wrap)");
  }
  if (p.working_dir.empty() || p.working_dir.front() != '/') {
    return invalid_argument("working_dir must be an absolute path, got '" + p.working_dir + "'");
  }
  return ok_status();
}

// "2" rather than "2.000000".
std::string rate_text(double per_second) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", per_second);
  return buf;
}

}  // namespace

Error CoordinatorService::rate_limited(const std::string& user, const char* what, Time now) const {
  return Error{ErrorCode::kResourceExhausted,
               "user '" + user + "' is over the " + what + " rate limit (" +
                   std::to_string(config_.coordinator.submit_burst) + " " + what + "s, refilled at " +
                   rate_text(config_.coordinator.submit_refill_per_s) + "/s); retry in " +
                   std::to_string(rate_limiter_.wait_for_token(user, now).count()) + " s"};
}

Status CoordinatorService::check_named_user(const wire::SubmitRequest& m, const Caller& caller) const {
  // A client may name its user (the CLI does); naming anyone else is refused, not obeyed.
  if (!m.spec.user.empty() && m.spec.user != caller.user) {
    return make_error(ErrorCode::kPermissionDenied, "the request names user '" + m.spec.user +
                                                        "', but it comes from '" + caller.user +
                                                        "' (uid " + std::to_string(caller.uid) + ")");
  }
  return ok_status();
}

Status CoordinatorService::check_submission(const wire::SubmitRequest& m, const Caller& caller, Time now) {
  FAIRWAY_TRY(check_program(m.program));
  if (m.spec.nice < 0 && !caller.admin) {
    return make_error(ErrorCode::kPermissionDenied,
                      "--nice=" + std::to_string(m.spec.nice) +
                          ": only root and the admin group may give a negative nice (it raises priority)");
  }
  FAIRWAY_TRY(check_dependencies_visible(m.spec, caller));
  // Root and the admin group are not limited, for submissions as for every other request
  // (docs/config.md): an operator's requeue or recovery script must not be told to wait,
  // and root could bypass any limit anyway. Users are what the bucket protects against.
  if (!caller.admin && !rate_limiter_.try_take(caller.user, now)) {
    ++counters_.rate_limited;
    return std::unexpected(rate_limited(caller.user, "submission", now));
  }
  return ok_status();
}

JobSpec CoordinatorService::submission_spec(const wire::SubmitRequest& m, const Caller& caller, Time now) const {
  JobSpec spec = m.spec;
  spec.user = caller.user;
  spec.uid = caller.uid;
  spec.gid = caller.gid;
  spec.submit_time = now;
  // Only the coordinator makes tasks of arrays: a client cannot name itself one.
  spec.array_job = JobId();
  spec.array_task = 0;
  if (spec.account.empty()) spec.account = default_account(caller.user);
  if (spec.name.empty()) spec.name = m.program.argv.empty() ? "script" : "wrap";
  return spec;
}

Result<wire::SubmitReply> CoordinatorService::estimate_submit(const wire::SubmitRequest& m,
                                                              const Caller& caller, Time now) {
  FAIRWAY_TRY(check_named_user(m, caller));
  FAIRWAY_TRY(check_submission(m, caller, now));
  JobSpec spec = submission_spec(m, caller, now);
  // An array: when its first task would start.
  spec.array = {};
  FAIRWAY_TRY(check_account(spec.account, caller.user, caller));
  FAIRWAY_TRY_ASSIGN(estimate, scheduler_->estimate_start(std::move(spec), now, access_groups(caller.user, caller.gid)));
  wire::SubmitReply r;
  r.test_only = true;
  r.estimated_start = estimate.start;
  r.partition = estimate.partition;
  r.cores = estimate.allocation.total_cores();
  for (const NodeAllocation& na : estimate.allocation.nodes) {
    r.nodes.push_back(scheduler_->cluster().node(na.node).topology.name);
  }
  if (!estimate.start) r.reason = estimate.why.codes();
  log_event(LogLevel::kInfo, "submit_estimated",
            {{"user", caller.user}, {"partition", r.partition},
             {"start", r.estimated_start ? std::to_string(r.estimated_start->seconds()) : "none"}});
  return r;
}

}  // namespace fairway::daemon

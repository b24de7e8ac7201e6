#include "coordinator/daemon/submit_checks.h"

#include <algorithm>
#include <cstdio>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/try.h"

namespace fairway::daemon {
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

Error rate_limited(const ServiceContext& ctx, const std::string& user, const char* what, Time now) {
  return Error{ErrorCode::kResourceExhausted,
               "user '" + user + "' is over the " + what + " rate limit (" +
                   std::to_string(ctx.config.coordinator.submit_burst) + " " + what + "s, refilled at " +
                   rate_text(ctx.config.coordinator.submit_refill_per_s) + "/s); retry in " +
                   std::to_string(ctx.rate_limiter.wait_for_token(user, now).count()) + " s"};
}

Status check_named_user(const wire::SubmitRequest& m, const Caller& caller) {
  if (!m.spec.user.empty() && m.spec.user != caller.user) {
    return make_error(ErrorCode::kPermissionDenied, "the request names user '" + m.spec.user +
                                                        "', but it comes from '" + caller.user + "' (uid " +
                                                        std::to_string(caller.uid) + ")");
  }
  return ok_status();
}

Status check_submission(ServiceContext& ctx, const wire::SubmitRequest& m, const Caller& caller, Time now) {
  FAIRWAY_TRY(check_program(m.program));
  if (m.spec.nice < 0 && !caller.admin) {
    return make_error(ErrorCode::kPermissionDenied,
                      "--nice=" + std::to_string(m.spec.nice) +
                          ": only root and the admin group may give a negative nice (it raises priority)");
  }
  FAIRWAY_TRY(check_dependencies_visible(ctx, m.spec, caller));
  // Root and the admin group are not limited, for submissions as for every other request
  // (docs/config.md): an operator's requeue or recovery script must not be told to wait,
  // and root could bypass any limit anyway. Users are what the bucket protects against.
  if (!caller.admin && !ctx.rate_limiter.try_take(caller.user, now)) {
    ++ctx.counters.rate_limited;
    return std::unexpected(rate_limited(ctx, caller.user, "submission", now));
  }
  return ok_status();
}

Status check_dependencies_visible(const ServiceContext& ctx, const JobSpec& spec, const Caller& caller) {
  // With private_data, whether another user's job ended well is theirs to know: a
  // dependency on it would tell (afterok vs afternotok). Named as "does not exist", as a
  // query of that job would be.
  if (!ctx.config.security.private_data || caller.admin) return ok_status();
  for (const DependencyClause& c : spec.dependencies) {
    for (JobId id : c.jobs) {
      std::string owner;
      if (const JobRecord* rec = ctx.scheduler.job(id)) {
        owner = rec->spec.user;
      } else if (const FinishedJob* ended = ctx.finished.find(id); ended != nullptr && ended->view) {
        owner = ended->view->user;
      }
      if (!owner.empty() && owner != caller.user) {
        return invalid_argument("--dependency names job " + id_str(id) + ", which does not exist");
      }
    }
  }
  return ok_status();
}

JobSpec submission_spec(const Config& config, const wire::SubmitRequest& m, const Caller& caller, Time now) {
  JobSpec spec = m.spec;
  spec.user = caller.user;
  spec.uid = caller.uid;
  spec.gid = caller.gid;
  spec.submit_time = now;
  // Only the coordinator makes tasks of arrays: a client cannot name itself one.
  spec.array_job = JobId();
  spec.array_task = 0;
  if (spec.account.empty()) spec.account = default_account(config, caller.user);
  if (spec.name.empty()) spec.name = m.program.argv.empty() ? "script" : "wrap";
  return spec;
}

std::string default_account(const Config& config, const std::string& user) {
  for (const auto& a : config.accounts) {
    if (std::find(a.users.begin(), a.users.end(), user) != a.users.end()) return a.name;
  }
  return "default";
}

}  // namespace fairway::daemon

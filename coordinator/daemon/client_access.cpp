#include "coordinator/daemon/client_access.h"

#include <algorithm>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/unix_groups.h"

namespace fairway::daemon {

bool owns(const Caller& caller, const JobSpec& spec) {
  return spec.uid ? *spec.uid == caller.uid : spec.user == caller.user;
}

// An admin who is not root may cancel any job, but must not run commands as its owner.
bool may_run_steps(const Caller& caller, const JobSpec& spec) {
  return owns(caller, spec) || caller.uid == 0;
}

Result<const JobRecord*> live_job_for(const ServiceContext& ctx, JobId id, const Caller& caller) {
  const JobRecord* rec = ctx.scheduler.job(id);
  const FinishedJob* ended = ctx.finished.find(id);
  const bool hidden =
      ctx.config.security.private_data && !caller.admin && rec != nullptr && !owns(caller, rec->spec);
  if ((!ctx.tracking.contains(id.value()) && ended == nullptr) || hidden) {
    return make_error(ErrorCode::kNotFound, "job " + id_str(id) + " does not exist");
  }
  if (rec == nullptr || is_terminal(rec->state)) {
    const JobState s = ended != nullptr && ended->view ? ended->view->state : JobState::kCompleted;
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + id_str(id) + " has already ended (" + std::string(to_string(s)) + ")");
  }
  // Root and the admin group may act on any job, others on their own.
  if (!caller.admin && !owns(caller, rec->spec)) {
    return make_error(ErrorCode::kPermissionDenied, "job " + id_str(id) + " belongs to '" + rec->spec.user +
                                                        "', not '" + caller.user + "'");
  }
  return rec;
}

Status check_account(const Config& config, const std::string& account, const std::string& user,
                     const Caller& caller) {
  // A site that declares its accounts bills every job to one of them; one that declares
  // none runs everything under "default" or whatever the user names.
  if (config.accounts.empty()) return ok_status();
  std::string names;
  for (const auto& a : config.accounts) {
    if (a.name == account) {
      const bool member = a.users.empty() || std::find(a.users.begin(), a.users.end(), user) != a.users.end();
      if (member || caller.admin) return ok_status();
      return make_error(ErrorCode::kPermissionDenied,
                        "account '" + account + "': user '" + user + "' is not one of its users");
    }
    names += (names.empty() ? "" : ", ") + a.name;
  }
  return invalid_argument("account '" + account + "' is not a known account (accounts: " + names + ")");
}

std::vector<std::string> access_groups(const Config& config, const std::string& user, std::uint32_t gid) {
  const bool wanted = std::any_of(config.partitions.begin(), config.partitions.end(),
                                  [](const PartitionConfig& p) { return !p.access.allow_groups.empty(); });
  return wanted ? unix_groups(user, gid) : std::vector<std::string>{};
}

}  // namespace fairway::daemon

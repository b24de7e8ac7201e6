// Who may see and act on what, for the coordinator's client API: ownership, the jobs a
// caller may act on, the accounts a job may bill, the groups partitions admit by.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// The caller owns the job (by uid; by name for jobs stored before uids were kept).
bool owns(const Caller& caller, const JobSpec& spec);
// A step runs as the job's user: only that user (or root) may start one or end one.
bool may_run_steps(const Caller& caller, const JobSpec& spec);
// A job the caller may act on: not hidden from them, not ended, theirs unless admin.
Result<const JobRecord*> live_job_for(const ServiceContext& ctx, JobId id, const Caller& caller);
// With [[accounts]] declared: the job's account is one of them, and one the user belongs
// to (admins may use any).
Status check_account(const Config& config, const std::string& account, const std::string& user,
                     const Caller& caller);
// A user's Unix group names for partitions' allow_groups; looked up only when some
// partition has that rule (NSS may be LDAP).
std::vector<std::string> access_groups(const Config& config, const std::string& user, std::uint32_t gid);

}  // namespace fairway::daemon

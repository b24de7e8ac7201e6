// The partition and QOS access lists, checked in Slurm's order: accounts, groups, QOS.
#include "coordinator/core/access_rules.h"

#include <algorithm>

#include "shared/base/try.h"

namespace fairway {

namespace {

bool has(const std::vector<std::string>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

std::string joined(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::unexpected<Error> denied(std::string message) {
  return make_error(ErrorCode::kPermissionDenied, std::move(message));
}

// One allow/deny pair over one name (an account or a QOS), in the words of Slurm's
// "Job's account not permitted to use this partition (p allows a not b)", naming the key.
Status check_list(const std::vector<std::string>& allow, const std::vector<std::string>& deny,
                  std::string_view name, const std::string& noun, const std::string& kind,
                  const std::string& owner, const std::string& key) {
  const std::string value = name.empty() ? "(none)" : "'" + std::string(name) + "'";
  if (!allow.empty() && !has(allow, name)) {
    return denied("Job's " + noun + " not permitted to use this " + kind + " (" + owner + " allow_" + key +
                  " = " + joined(allow) + ", not " + noun + " " + value + ")");
  }
  if (!deny.empty() && has(deny, name)) {
    return denied("Job's " + noun + " not permitted to use this " + kind + " (" + owner + " deny_" + key +
                  " = " + joined(deny) + ", including " + noun + " " + value + ")");
  }
  return ok_status();
}

}  // namespace

Status check_partition_access(const PartitionConfig& p, const AccessRequest& job) {
  const AccessRules& a = p.access;
  const std::string owner = "partition '" + p.name + "'";
  FAIRWAY_TRY(
      check_list(a.allow_accounts, a.deny_accounts, job.account, "account", "partition", owner, "accounts"));
  if (!a.allow_groups.empty() && job.uid != std::uint32_t{0}) {
    const bool member = std::any_of(job.groups.begin(), job.groups.end(),
                                    [&](const std::string& g) { return has(a.allow_groups, g); });
    if (!member) {
      return denied("User's group not permitted to use this partition (" + owner + " allow_groups = " +
                    joined(a.allow_groups) + ", and user '" + std::string(job.user) + "' is in none)");
    }
  }
  // A job with no QOS fails an allow list and passes a deny list.
  return check_list(a.allow_qos, a.deny_qos, job.qos, "QOS", "partition", owner, "qos");
}

Status check_qos_access(const QosConfig& q, const AccessRequest& job) {
  return check_list(q.access.allow_accounts, q.access.deny_accounts, job.account, "account", "QOS",
                    "qos '" + q.name + "'", "accounts");
}

}  // namespace fairway

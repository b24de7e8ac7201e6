// Who may use a partition or a QOS: the config's access lists (Slurm's AllowAccounts,
// DenyAccounts, AllowGroups, AllowQos, DenyQos) checked against one job. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway {

// The job as the rules see it. `groups` are the submitting user's Unix groups, resolved by
// the daemon (the core reads no user database); the simulator has none.
struct AccessRequest {
  std::string_view user;
  std::string_view account;
  std::string_view qos;  // after the partition's default QOS is applied; empty: none
  std::optional<std::uint32_t> uid;
  std::span<const std::string> groups;
};

// Ok, or kPermissionDenied naming the rule, its config key and the value that failed.
// As in Slurm, root (uid 0) passes allow_groups; the account and QOS lists bind everyone,
// root included (an owner partition's usage is billed to its owners).
Status check_partition_access(const PartitionConfig& partition, const AccessRequest& job);
Status check_qos_access(const QosConfig& qos, const AccessRequest& job);

}  // namespace fairway

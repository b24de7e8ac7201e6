// What a run costs per second in billing units ([billing]): cores, memory and GPUs by type.
// Fair-share charges jobs and project reservations at these rates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "shared/config/config.h"

namespace fairway {

// Billing units per second for `cores`, `memory_mb` and GPUs of these types.
double billing_rate(const BillingConfig& billing, std::int64_t cores,
                    const std::vector<std::string>& gpu_types, std::int64_t memory_mb = 0);
// ... for an allocation: its cores, memory and the types of the GPUs it holds.
double allocation_billing_rate(const BillingConfig& billing, const ClusterState& cluster,
                               const Allocation& alloc);

}  // namespace fairway

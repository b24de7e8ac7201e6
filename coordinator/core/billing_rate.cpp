#include "coordinator/core/billing_rate.h"

namespace fairway {

double billing_rate(const BillingConfig& billing, std::int64_t cores,
                    const std::vector<std::string>& gpu_types, std::int64_t memory_mb) {
  const bool cores_billed = billing.gpu_jobs_bill_cores || gpu_types.empty();
  double rate = cores_billed ? billing.cpu * static_cast<double>(cores) : 0.0;
  rate += billing.memory_per_gb * static_cast<double>(memory_mb) / 1024.0;
  for (const std::string& type : gpu_types) {
    if (auto it = billing.gpu.find(type); it != billing.gpu.end()) rate += it->second;
  }
  return rate;
}

double allocation_billing_rate(const BillingConfig& billing, const ClusterState& cluster,
                               const Allocation& alloc) {
  std::vector<std::string> gpu_types;
  for (const auto& na : alloc.nodes) {
    for (std::int32_t g : na.gpus)
      gpu_types.push_back(cluster.node(na.node).topology.gpus[static_cast<std::size_t>(g)].type);
  }
  return billing_rate(billing, alloc.total_cores(), gpu_types, alloc.total_memory_mb());
}

}  // namespace fairway

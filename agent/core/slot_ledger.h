// Which node-local cores and GPUs each running job holds on this agent's node, refusing
// overlaps and, on a fenced node, what the socket rule (socket_fence.h) closes. Not
// thread-safe: one owner.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/model/socket_fence.h"
#include "shared/model/topology.h"

namespace fairway::agent {

class SlotLedger {
 public:
  explicit SlotLedger(NodeTopology topology);

  // Ok when `job` could take exactly these cores and GPUs now; otherwise an error naming
  // the job and the first core or GPU that is out of range, repeated, held, or reserved.
  // `fence_gpu_sockets`: the coordinator's rule for the node (LaunchJob), the same
  // socket_fence_allows placement uses: a core on a socket where another job holds a GPU
  // is reserved, and so is a GPU on a socket where another job holds a GPU or cores.
  // Without it, only held slots count.
  Status check(JobId job, std::span<const std::int32_t> cores, std::span<const std::int32_t> gpus,
               bool fence_gpu_sockets = true) const;

  // check(), then records the holding. A job holds one set at a time: a second acquire
  // for a job already holding slots is refused (kAlreadyExists).
  Status acquire(JobId job, std::vector<std::int32_t> cores, std::vector<std::int32_t> gpus,
                 bool fence_gpu_sockets = true);

  // Frees the job's slots; false when it held none (a repeated end report is harmless).
  bool release(JobId job);

  bool holds(JobId job) const { return holdings_.contains(job); }
  std::optional<JobId> core_holder(std::int32_t core) const;
  std::optional<JobId> gpu_holder(std::int32_t gpu) const;
  std::vector<JobId> jobs() const;
  std::int32_t free_cores() const;
  std::int32_t free_gpus() const;
  const NodeTopology& topology() const { return topology_; }

 private:
  struct Holding {
    std::vector<std::int32_t> cores;
    std::vector<std::int32_t> gpus;
  };

  // The other job holding a GPU on `socket`, if any, and that GPU.
  std::optional<std::pair<JobId, std::int32_t>> gpu_owner_on_socket(std::int32_t socket, JobId except) const;
  // The other job holding a core on `socket`, if any, and that core.
  std::optional<std::pair<JobId, std::int32_t>> core_owner_on_socket(std::int32_t socket, JobId except) const;

  NodeTopology topology_;
  std::vector<std::optional<JobId>> core_holder_;
  std::vector<std::optional<JobId>> gpu_holder_;
  std::map<JobId, Holding> holdings_;
};

}  // namespace fairway::agent

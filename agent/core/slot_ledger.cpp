#include "agent/core/slot_ledger.h"
#include "shared/base/try.h"

#include <string>
#include <utility>

namespace fairway::agent {
namespace {

std::string job_name(JobId job) {
  return "job " + std::to_string(job.value());
}

}  // namespace

SlotLedger::SlotLedger(NodeTopology topology)
    : topology_(std::move(topology)),
      core_holder_(static_cast<std::size_t>(topology_.total_cores())),
      gpu_holder_(static_cast<std::size_t>(topology_.total_gpus())) {}

std::optional<std::pair<JobId, std::int32_t>> SlotLedger::gpu_owner_on_socket(std::int32_t socket,
                                                                              JobId except) const {
  for (std::size_t g = 0; g < gpu_holder_.size(); ++g) {
    const auto& holder = gpu_holder_[g];
    if (holder && *holder != except && topology_.gpus[g].socket == socket) {
      return std::pair{*holder, static_cast<std::int32_t>(g)};
    }
  }
  return std::nullopt;
}

std::optional<std::pair<JobId, std::int32_t>> SlotLedger::core_owner_on_socket(std::int32_t socket,
                                                                               JobId except) const {
  for (std::size_t c = 0; c < core_holder_.size(); ++c) {
    const auto& holder = core_holder_[c];
    if (holder && *holder != except && topology_.socket_of_core(static_cast<std::int32_t>(c)) == socket) {
      return std::pair{*holder, static_cast<std::int32_t>(c)};
    }
  }
  return std::nullopt;
}

Status SlotLedger::check(JobId job, std::span<const std::int32_t> cores, std::span<const std::int32_t> gpus,
                         bool fence_gpu_sockets) const {
  const std::string who = job_name(job);
  if (holdings_.contains(job)) {
    return make_error(ErrorCode::kAlreadyExists,
                      who + " already holds cores/GPUs on node '" + topology_.name + "'");
  }
  std::vector<bool> seen_core(core_holder_.size(), false);
  for (const std::int32_t c : cores) {
    if (c < 0 || c >= topology_.total_cores()) {
      return invalid_argument(who + ": core " + std::to_string(c) + " does not exist on node '" +
                              topology_.name + "' (cores 0.." + std::to_string(topology_.total_cores() - 1) +
                              ")");
    }
    const auto index = static_cast<std::size_t>(c);
    if (seen_core[index]) {
      return invalid_argument(who + ": core " + std::to_string(c) + " is listed twice");
    }
    seen_core[index] = true;
    if (core_holder_[index]) {
      return make_error(ErrorCode::kResourceExhausted, who + ": core " + std::to_string(c) + " is held by " +
                                                           job_name(*core_holder_[index]));
    }
    const std::int32_t socket = topology_.socket_of_core(c);
    const auto owner = fence_gpu_sockets ? gpu_owner_on_socket(socket, job) : std::nullopt;
    if (!socket_fence_allows(fence_gpu_sockets, SocketSlot::kCore, {owner.has_value(), false})) {
      return make_error(ErrorCode::kResourceExhausted,
                        who + ": core " + std::to_string(c) + " is on socket " + std::to_string(socket) +
                            ", reserved by " + job_name(owner->first) + " which holds GPU " +
                            std::to_string(owner->second) + " of that socket");
    }
  }
  std::vector<bool> seen_gpu(gpu_holder_.size(), false);
  for (const std::int32_t g : gpus) {
    if (g < 0 || g >= topology_.total_gpus()) {
      return invalid_argument(who + ": GPU " + std::to_string(g) + " does not exist on node '" +
                              topology_.name + "' (" + std::to_string(topology_.total_gpus()) + " GPUs)");
    }
    const auto index = static_cast<std::size_t>(g);
    if (seen_gpu[index]) {
      return invalid_argument(who + ": GPU " + std::to_string(g) + " is listed twice");
    }
    seen_gpu[index] = true;
    if (gpu_holder_[index]) {
      return make_error(ErrorCode::kResourceExhausted,
                        who + ": GPU " + std::to_string(g) + " is held by " + job_name(*gpu_holder_[index]));
    }
    if (!fence_gpu_sockets) continue;
    const std::int32_t socket = topology_.gpus[index].socket;
    const auto gpu_owner = gpu_owner_on_socket(socket, job);
    const auto core_owner = core_owner_on_socket(socket, job);
    if (!socket_fence_allows(true, SocketSlot::kGpu, {gpu_owner.has_value(), core_owner.has_value()})) {
      const auto [other, what] =
          gpu_owner ? std::pair{gpu_owner->first, "GPU " + std::to_string(gpu_owner->second)}
                    : std::pair{core_owner->first, "core " + std::to_string(core_owner->second)};
      return make_error(ErrorCode::kResourceExhausted,
                        who + ": GPU " + std::to_string(g) + " is on socket " + std::to_string(socket) +
                            ", where " + job_name(other) + " holds " + what +
                            ": a GPU job must be able to keep its socket's cores");
    }
  }
  return ok_status();
}

Status SlotLedger::acquire(JobId job, std::vector<std::int32_t> cores, std::vector<std::int32_t> gpus,
                           bool fence_gpu_sockets) {
  FAIRWAY_TRY(check(job, cores, gpus, fence_gpu_sockets));
  for (const std::int32_t c : cores) core_holder_[static_cast<std::size_t>(c)] = job;
  for (const std::int32_t g : gpus) gpu_holder_[static_cast<std::size_t>(g)] = job;
  holdings_.emplace(job, Holding{std::move(cores), std::move(gpus)});
  return ok_status();
}

bool SlotLedger::release(JobId job) {
  const auto it = holdings_.find(job);
  if (it == holdings_.end()) return false;
  for (const std::int32_t c : it->second.cores) core_holder_[static_cast<std::size_t>(c)].reset();
  for (const std::int32_t g : it->second.gpus) gpu_holder_[static_cast<std::size_t>(g)].reset();
  holdings_.erase(it);
  return true;
}

std::optional<JobId> SlotLedger::core_holder(std::int32_t core) const {
  if (core < 0 || static_cast<std::size_t>(core) >= core_holder_.size()) return std::nullopt;
  return core_holder_[static_cast<std::size_t>(core)];
}

std::optional<JobId> SlotLedger::gpu_holder(std::int32_t gpu) const {
  if (gpu < 0 || static_cast<std::size_t>(gpu) >= gpu_holder_.size()) return std::nullopt;
  return gpu_holder_[static_cast<std::size_t>(gpu)];
}

std::vector<JobId> SlotLedger::jobs() const {
  std::vector<JobId> out;
  out.reserve(holdings_.size());
  for (const auto& [job, holding] : holdings_) out.push_back(job);
  return out;
}

std::int32_t SlotLedger::free_cores() const {
  std::int32_t n = 0;
  for (const auto& h : core_holder_) n += h ? 0 : 1;
  return n;
}

std::int32_t SlotLedger::free_gpus() const {
  std::int32_t n = 0;
  for (const auto& h : gpu_holder_) n += h ? 0 : 1;
  return n;
}

}  // namespace fairway::agent

#include "coordinator/daemon/node_registry.h"

namespace fairway::daemon {

NodeEntry& NodeRegistry::add(std::string name, NodeIndex index, NodeTopology topology) {
  by_name_[name] = nodes_.size();
  by_index_[index.value()] = nodes_.size();
  NodeEntry e;
  e.name = std::move(name);
  e.index = index;
  e.topology = std::move(topology);
  nodes_.push_back(std::move(e));
  return nodes_.back();
}

NodeEntry* NodeRegistry::find(const std::string& name) {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &nodes_[it->second];
}

const NodeEntry* NodeRegistry::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &nodes_[it->second];
}

const NodeEntry* NodeRegistry::at(NodeIndex index) const {
  auto it = by_index_.find(index.value());
  return it == by_index_.end() ? nullptr : &nodes_[it->second];
}

bool NodeRegistry::heard(NodeEntry& n, Time now, Time mono) {
  n.last_heard = now;
  n.last_heard_mono = mono;
  if (n.liveness == NodeLiveness::kUp) return false;
  n.liveness = NodeLiveness::kUp;
  if (!n.drained) clear_reason(n);
  return true;
}

std::vector<NodeEntry*> NodeRegistry::expire_silent(Time now, Time mono, Duration timeout) {
  std::vector<NodeEntry*> expired;
  for (auto& n : nodes_) {
    if (n.liveness != NodeLiveness::kUp || !n.last_heard_mono) continue;
    if (mono - *n.last_heard_mono <= timeout) continue;
    n.liveness = NodeLiveness::kDown;
    // A drained node keeps the admin's reason (sinfo -R names who drained it).
    if (!n.drained)
      set_reason(n, "no heartbeat for " + std::to_string((mono - *n.last_heard_mono).count()) + " s", system_,
                 now);
    expired.push_back(&n);
  }
  return expired;
}

}  // namespace fairway::daemon

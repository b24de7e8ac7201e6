// The coordinator's view of its agents: which nodes registered, when each was last heard
// from, and whether it is up, down (silent) or drained by an admin. No I/O; one owner thread.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/topology.h"

namespace fairway::daemon {

enum class NodeLiveness { kUnknown, kUp, kDown };

// Who set a node's reason (sinfo -R's USER): the admin who drained it, or the
// coordinator's own user for what the coordinator decided (a silent node).
struct ReasonSetter {
  std::string user;
  std::optional<std::uint32_t> uid;
};

struct NodeEntry {
  std::string name;
  NodeIndex index;  // in the scheduler's ClusterState
  NodeTopology topology;
  NodeLiveness liveness = NodeLiveness::kUnknown;  // unknown: declared, never registered
  bool drained = false;                            // admin: take no new jobs
  std::string reason;                              // why down or drained
  ReasonSetter reason_by;                          // with the reason, and when (wall clock)
  std::optional<Time> reason_time;
  std::optional<Time> last_heard;  // wall clock: what users see
  // The same on the monotonic clock: what timeouts are measured on, so that a wall-clock
  // step (NTP) neither marks every node down nor keeps a silent one up.
  std::optional<Time> last_heard_mono;
  // Set when the node goes silent (monotonic): its jobs are given up (requeued or failed)
  // only from this instant on, when its agent has surely stopped them (lease + kill grace).
  std::optional<Time> release_jobs_at;
  std::string agent_version;
  std::string enforcement;  // AgentRegister::enforcement
};

class NodeRegistry {
 public:
  NodeEntry& add(std::string name, NodeIndex index, NodeTopology topology);
  NodeEntry* find(const std::string& name);
  const NodeEntry* find(const std::string& name) const;
  const NodeEntry* at(NodeIndex index) const;

  // Marks a node heard from now (wall clock, and `mono` on the monotonic clock); returns
  // true when it was not up before (came back).
  bool heard(NodeEntry& n, Time now, Time mono);
  // Up nodes silent for longer than `timeout` on the monotonic clock: each is marked down
  // (its reason dated `now`, wall clock) and returned.
  std::vector<NodeEntry*> expire_silent(Time now, Time mono, Duration timeout);

  static void set_reason(NodeEntry& n, std::string why, ReasonSetter by, Time at) {
    n.reason = std::move(why);
    n.reason_by = std::move(by);
    n.reason_time = at;
  }
  static void clear_reason(NodeEntry& n) {
    n.reason.clear();
    n.reason_by = {};
    n.reason_time.reset();
  }
  // The coordinator's own user, for the reasons it sets itself.
  void set_system_user(ReasonSetter self) { system_ = std::move(self); }
  const ReasonSetter& system_user() const { return system_; }

  // Whether the scheduler may place jobs on it.
  static bool schedulable(const NodeEntry& n) { return n.liveness == NodeLiveness::kUp && !n.drained; }

  const std::vector<NodeEntry>& nodes() const { return nodes_; }

 private:
  ReasonSetter system_{"root", 0};
  std::vector<NodeEntry> nodes_;  // in registration order; never removed
  std::unordered_map<std::string, std::size_t> by_name_;
  std::unordered_map<std::uint32_t, std::size_t> by_index_;
};

}  // namespace fairway::daemon

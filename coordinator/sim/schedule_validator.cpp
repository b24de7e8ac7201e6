// Checks a finished schedule from first principles: the workload says what each job asked
// for and how long it runs, the machine says what exists, and the records say what
// happened. Nothing here calls into the scheduling core.
#include "coordinator/sim/schedule_validator.h"

#include "coordinator/sim/capacity_check.h"
#include "coordinator/sim/check_text.h"
#include "coordinator/sim/dependency_check.h"
#include "coordinator/sim/memory_check.h"
#include "coordinator/sim/owner_wait_check.h"
#include "coordinator/sim/reservation_check.h"
#include "shared/base/try.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace fairway::sim {

using namespace check_text;

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

class Checker {
 public:
  explicit Checker(const ValidationInput& in)
      : nodes_(*in.nodes),
        wl_(*in.workload),
        recs_(*in.records),
        rounding_(in.rounding),
        default_partition_(in.default_partition),
        preemption_(in.preemption),
        check_owner_waits_(in.check_owner_waits),
        terms_(in.preemption_terms),
        default_mem_per_cpu_(in.default_mem_per_cpu) {}

  Status run(const std::vector<JobId>& rejected, bool reservations) {
    FAIRWAY_TRY(index_workload(rejected));
    for (std::size_t i = 0; i < recs_.size(); ++i) {
      FAIRWAY_TRY(check_record(i));
    }
    FAIRWAY_TRY(check_all_ran());
    FAIRWAY_TRY(check_dependencies({wl_, recs_, rejected_}));
    FAIRWAY_TRY(check_preempted_runs());
    FAIRWAY_TRY(check_preemptors());
    if (check_owner_waits_) {
      FAIRWAY_TRY(check_owner_waits());
    }
    FAIRWAY_TRY(check_capacity(nodes_, recs_));
    FAIRWAY_TRY(check_memory({nodes_, wl_, recs_, default_mem_per_cpu_, default_partition_}));
    if (reservations) return check_reservations();
    return ok_status();
  }

 private:
  const JobSpec& spec_of(std::size_t rec) const { return wl_.jobs[job_of_[rec]].spec; }
  const std::string& node_name(NodeIndex n) const { return nodes_[n.value()].name; }

  std::size_t find_job(JobId id) const {
    const auto it = std::lower_bound(by_id_.begin(), by_id_.end(), std::pair{id, std::size_t{0}});
    return it != by_id_.end() && it->first == id ? it->second : kNone;
  }

  Status index_workload(const std::vector<JobId>& rejected) {
    by_id_.reserve(wl_.jobs.size());
    for (std::size_t i = 0; i < wl_.jobs.size(); ++i) by_id_.emplace_back(wl_.jobs[i].spec.id, i);
    std::sort(by_id_.begin(), by_id_.end());
    for (std::size_t i = 1; i < by_id_.size(); ++i) {
      if (by_id_[i].first == by_id_[i - 1].first) {
        return violation("the workload holds " + job(by_id_[i].first) + " twice");
      }
    }
    rejected_.assign(wl_.jobs.size(), false);
    for (const JobId id : rejected) {
      const std::size_t w = find_job(id);
      if (w == kNone) return violation("rejected " + job(id) + " is not in the workload");
      rejected_[w] = true;
    }
    record_of_.assign(wl_.jobs.size(), kNone);
    job_of_.assign(recs_.size(), kNone);
    std::int32_t widest_cores = 0;
    std::int32_t widest_gpus = 0;
    for (const auto& n : nodes_) {
      widest_cores = std::max(widest_cores, n.total_cores());
      widest_gpus = std::max(widest_gpus, n.total_gpus());
    }
    mark_.assign(static_cast<std::size_t>(std::max(widest_cores, widest_gpus)), 0);
    return ok_status();
  }

  // (a) identity and (b) times.
  Status check_record(std::size_t i) {
    const ScheduleRecord& r = recs_[i];
    const std::size_t w = find_job(r.id);
    if (w == kNone) {
      return violation("schedule record " + str(static_cast<std::int64_t>(i)) + ": " + job(r.id) +
                       " is not in the workload");
    }
    if (rejected_[w]) {
      return violation(job(r.id) + " was rejected at submission but has a record " + span(r));
    }
    // A job may have been preempted and requeued any number of times: one record per
    // preempted run, and one final record.
    job_of_[i] = w;
    if (r.preempted) {
      preempted_runs_.push_back(i);
    } else {
      if (record_of_[w] != kNone) {
        return violation(job(r.id) + " has two records: " + span(recs_[record_of_[w]]) + " and " + span(r));
      }
      record_of_[w] = i;
    }
    const WorkloadJob& wj = wl_.jobs[w];
    if (r.submit != wj.spec.submit_time) {
      return violation(job(r.id) + ": record submit " + str(r.submit) + " differs from the workload submit " +
                       str(wj.spec.submit_time));
    }
    if (r.start < r.submit) {
      return violation(job(r.id) + " started at " + str(r.start) + ", before its submit " + str(r.submit));
    }
    if (r.end < r.start) {
      return violation(job(r.id) + " ends at " + str(r.end) + ", before its start " + str(r.start));
    }
    const std::int64_t ran = (r.end - r.start).count();
    const std::int64_t runtime = wj.runtime.count();
    if (r.state == JobState::kCompleted && ran != runtime) {
      return violation(job(r.id) + " completed after running " + str(ran) + " s " + span(r) +
                       " but its workload runtime is " + str(runtime) + " s");
    }
    if (ran > runtime) {  // a job cut short can run less than its runtime, never more
      return violation(job(r.id) + " (" + std::string(to_string(r.state)) + ") ran " + str(ran) + " s " +
                       span(r) + ", longer than its workload runtime " + str(runtime) + " s");
    }
    // Cancelled while waiting (--kill-on-invalid-dep): a record with no run, only for a
    // job whose dependency can fail (check_dependencies judges when).
    if (r.state == JobState::kCancelled && r.allocation.empty() && ran == 0 &&
        !wj.spec.dependencies.empty()) {
      return ok_status();
    }
    return check_allocation(r, wj.spec);
  }

  Rounding rounding_of(const JobSpec& spec) const {
    if (spec.exclusive) return Rounding::kWholeNodes;
    const auto it = rounding_.find(spec.partition.empty() ? default_partition_ : spec.partition);
    return it == rounding_.end() ? Rounding::kExact : it->second;
  }

  // Cores of the socket holding `core` on `node`, and that socket's first core.
  std::pair<std::int32_t, std::int32_t> socket_of(const NodeTopology& node, std::int32_t core) const {
    std::int32_t first = 0;
    for (const SocketTopology& s : node.sockets) {
      if (core < first + s.cores) return {first, s.cores};
      first += s.cores;
    }
    return {first, 0};
  }

  // A job given more cores than it asked for is acceptable only as its partition rounds:
  // each node's share is whole (sockets or the node), and no whole piece could be dropped
  // while still covering the request. Returns an error, or the count it accepts.
  Status check_rounding(const ScheduleRecord& r, const Allocation& a, const JobSpec& spec) {
    const ResourceRequest& req = spec.resources;
    const std::int64_t given = a.total_cores(), asked = req.total_cores();
    const auto refuse = [&](const std::string& why) {
      return violation(job(r.id) + " was given " + str(given) + " cores but requested " + str(asked) + why);
    };
    Rounding rule = rounding_of(spec);
    if (rule == Rounding::kWholeNodesAboveOneNode) {
      std::int64_t largest = 0;
      for (const NodeAllocation& na : a.nodes) {
        if (na.node.value() < nodes_.size()) {
          largest = std::max<std::int64_t>(largest, nodes_[na.node.value()].total_cores());
        }
      }
      rule = asked > largest ? Rounding::kWholeNodes : Rounding::kExact;
    }
    if (rule == Rounding::kExact || given < asked) return refuse("");
    std::int64_t smallest_piece = std::numeric_limits<std::int64_t>::max();
    for (const NodeAllocation& na : a.nodes) {
      if (na.node.value() >= nodes_.size()) continue;  // named by check_allocation
      const NodeTopology& node = nodes_[na.node.value()];
      if (rule == Rounding::kWholeNodes) {
        if (std::cmp_not_equal(na.cores.size(), node.total_cores())) {
          return refuse(" and node " + node.name + " is not given whole (" +
                        str(static_cast<std::int64_t>(na.cores.size())) + " of " + str(node.total_cores()) +
                        " cores)");
        }
        smallest_piece = std::min<std::int64_t>(smallest_piece, node.total_cores());
        continue;
      }
      std::map<std::int32_t, std::int32_t> per_socket;  // first core -> cores given there
      for (std::int32_t c : na.cores) ++per_socket[socket_of(node, c).first];
      std::int64_t node_smallest = std::numeric_limits<std::int64_t>::max();
      for (const auto& [first, count] : per_socket) {
        const std::int32_t size = socket_of(node, first).second;
        if (count != size) {
          return refuse(" and the socket at core " + str(first) + " of node " + node.name +
                        " is not given whole (" + str(count) + " of " + str(size) + " cores)");
        }
        node_smallest = std::min<std::int64_t>(node_smallest, size);
      }
      // N nodes x C cores: each node's share is rounded on its own.
      if (req.nodes > 0 && static_cast<std::int64_t>(na.cores.size()) - node_smallest >= req.cores) {
        return refuse(": node " + node.name + " would hold its " + str(req.cores) +
                      " cores with a whole socket fewer");
      }
      smallest_piece = std::min(smallest_piece, node_smallest);
    }
    // The node count of an N-nodes request is checked on its own; a core count must not
    // be covered by fewer whole pieces.
    if (req.nodes == 0 && given - smallest_piece >= asked) {
      return refuse(": a whole " + std::string(rule == Rounding::kWholeNodes ? "node" : "socket") +
                    " fewer would still hold it");
    }
    return ok_status();
  }

  // (c) the allocation is what was asked for and exists on the machine.
  // -w/-x/-C, read here independently of the core: the node is one the job allowed.
  Status check_node_allowed(const ScheduleRecord& r, const JobSpec& spec, const NodeTopology& node) const {
    const auto listed = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), node.name) != names.end();
    };
    if (!spec.only_nodes.empty() && !listed(spec.only_nodes)) {
      return violation(job(r.id) + " ran on node " + node.name + ", not one of its --nodelist");
    }
    if (listed(spec.excluded_nodes))
      return violation(job(r.id) + " ran on node " + node.name + ", which it excluded");
    if (spec.constraint.empty()) return ok_status();
    const bool any = spec.constraint.find('|') != std::string::npos;
    std::size_t start = 0;
    bool ok = !any;
    while (start <= spec.constraint.size()) {
      const std::size_t end = spec.constraint.find(any ? '|' : '&', start);
      const std::string feature = spec.constraint.substr(start, end == std::string::npos ? end : end - start);
      const bool has = std::find(node.features.begin(), node.features.end(), feature) != node.features.end();
      ok = any ? (ok || has) : (ok && has);
      if (end == std::string::npos) break;
      start = end + 1;
    }
    if (!ok)
      return violation(job(r.id) + " ran on node " + node.name + ", whose features do not meet " +
                       spec.constraint);
    return ok_status();
  }

  Status check_allocation(const ScheduleRecord& r, const JobSpec& spec) {
    const Allocation a = r.allocation.expand();
    const ResourceRequest& req = spec.resources;
    const bool rounded = a.total_cores() != req.total_cores();
    if (rounded) {
      FAIRWAY_TRY(check_rounding(r, a, spec));
    }
    if (a.total_gpus() != req.total_gpus()) {
      return violation(job(r.id) + " was given " + str(a.total_gpus()) + " GPUs but requested " +
                       str(req.total_gpus()));
    }
    if (req.nodes > 0 && std::cmp_not_equal(a.nodes.size(), req.nodes)) {
      return violation(job(r.id) + " requested " + str(req.nodes) + " nodes but was given " +
                       str(static_cast<std::int64_t>(a.nodes.size())));
    }
    std::vector<NodeIndex> seen;
    seen.reserve(a.nodes.size());
    for (const NodeAllocation& na : a.nodes) {
      if (na.node.value() >= nodes_.size()) {
        return violation(job(r.id) + " was given node index " +
                         str(static_cast<std::int64_t>(na.node.value())) + ", but the machine has " +
                         str(static_cast<std::int64_t>(nodes_.size())) + " nodes");
      }
      seen.push_back(na.node);
      FAIRWAY_TRY(check_node_allowed(r, spec, nodes_[na.node.value()]));
      if (req.nodes > 0 && ((!rounded && std::cmp_not_equal(na.cores.size(), req.cores)) ||
                            std::cmp_not_equal(na.gpus.size(), req.gpus))) {
        return violation(job(r.id) + " got " + str(static_cast<std::int64_t>(na.cores.size())) +
                         " cores and " + str(static_cast<std::int64_t>(na.gpus.size())) + " GPUs on node " +
                         node_name(na.node) + " but requested " + str(req.cores) + " cores and " +
                         str(req.gpus) + " GPUs per node");
      }
      if (auto st = check_units(r, na, "core", na.cores, nodes_[na.node.value()].total_cores()); !st) {
        return st;
      }
      if (auto st = check_units(r, na, "GPU", na.gpus, nodes_[na.node.value()].total_gpus()); !st) {
        return st;
      }
      FAIRWAY_TRY(check_gpu_type(r, na, req.gpu_type));
    }
    std::sort(seen.begin(), seen.end());
    const auto dup = std::adjacent_find(seen.begin(), seen.end());
    if (dup != seen.end()) {
      return violation(job(r.id) + " lists node " + node_name(*dup) + " twice");
    }
    return ok_status();
  }

  // Indices in range and none repeated, using a scratch bitmap left all-zero afterwards.
  Status check_units(const ScheduleRecord& r, const NodeAllocation& na, const char* what,
                     const std::vector<std::int32_t>& units, std::int32_t count) {
    Status result = ok_status();
    std::size_t marked = 0;
    for (; marked < units.size(); ++marked) {
      const std::int32_t u = units[marked];
      if (u < 0 || u >= count) {
        result = violation(job(r.id) + " was given " + what + " " + str(u) + " of node " +
                           node_name(na.node) + ", which has " + str(count) + " " + what + "s");
        break;
      }
      char& m = mark_[static_cast<std::size_t>(u)];
      if (m != 0) {
        result = violation(job(r.id) + " was given " + what + " " + str(u) + " of node " +
                           node_name(na.node) + " twice");
        break;
      }
      m = 1;
    }
    for (std::size_t k = 0; k < marked; ++k) mark_[static_cast<std::size_t>(units[k])] = 0;
    return result;
  }

  Status check_gpu_type(const ScheduleRecord& r, const NodeAllocation& na, const std::string& type) const {
    if (type.empty()) return ok_status();
    const NodeTopology& node = nodes_[na.node.value()];
    for (const std::int32_t g : na.gpus) {
      const std::string& have = node.gpus[static_cast<std::size_t>(g)].type;
      if (have != type) {
        return violation(job(r.id) + " requested GPU type '" + type + "' but was given GPU " + str(g) +
                         " of node " + node.name + ", of type '" + have + "'");
      }
    }
    return ok_status();
  }

  // (a) the other way round: every accepted job ran. A job submitted held may never have
  // been released, so it may be missing; so may one whose dependency never held
  // (check_dependencies decides that).
  Status check_all_ran() const {
    for (std::size_t w = 0; w < wl_.jobs.size(); ++w) {
      const WorkloadJob& wj = wl_.jobs[w];
      if (record_of_[w] == kNone && !rejected_[w] && !wj.spec.hold && wj.spec.dependencies.empty()) {
        return violation(job(wj.spec.id) + " (line " + str(wj.line) + ") has no record in the schedule");
      }
    }
    return ok_status();
  }

  // (a') A preempted run ends before the job's next run starts: its runs never overlap,
  // and the final one comes last.
  Status check_preempted_runs() const {
    std::vector<std::size_t> runs = preempted_runs_;
    std::sort(runs.begin(), runs.end(), [&](std::size_t x, std::size_t y) {
      return std::pair{job_of_[x], recs_[x].start} < std::pair{job_of_[y], recs_[y].start};
    });
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const ScheduleRecord& r = recs_[runs[k]];
      const std::size_t w = job_of_[runs[k]];
      const bool last_preempted = k + 1 == runs.size() || job_of_[runs[k + 1]] != w;
      const std::size_t next = last_preempted ? record_of_[w] : runs[k + 1];
      if (next == kNone) {
        return violation(job(r.id) + " was preempted " + span(r) + " but never ran to the end");
      }
      if (recs_[next].start < r.end) {
        return violation(job(r.id) + " runs again " + span(recs_[next]) + " before its preempted run " +
                         span(r) + " ended");
      }
    }
    return ok_status();
  }

  // (a'') A run cut for another job was cut for a job of a higher tier, from a partition
  // whose jobs may be preempted. (That the owner never ran on cores its victim still held
  // is (d)'s: the cut run holds its cores until its end. The owner may start earlier
  // elsewhere, when other cores free up during the victim's grace.)
  Status check_preemptors() const {
    const auto partition_of = [&](const JobSpec& s) {
      return s.partition.empty() ? default_partition_ : s.partition;
    };
    const auto tier_of = [&](const std::string& p) {
      const auto it = preemption_.find(p);
      return it == preemption_.end() ? std::pair<std::int32_t, bool>{0, false} : it->second;
    };
    for (std::size_t i = 0; i < recs_.size(); ++i) {
      const ScheduleRecord& r = recs_[i];
      if (!r.preempted_by) continue;  // cancel mode: a final record, not a preempted run
      const std::size_t w = find_job(*r.preempted_by);
      if (w == kNone) return violation(job(r.id) + " was preempted by unknown " + job(*r.preempted_by));
      const auto victim = tier_of(partition_of(spec_of(i)));
      const auto owner = tier_of(partition_of(wl_.jobs[w].spec));
      if (!victim.second) {
        return violation(job(r.id) + " was preempted " + span(r) + " in partition '" +
                         partition_of(spec_of(i)) + "', whose jobs are not preemptable");
      }
      if (owner.first <= victim.first) {
        return violation(job(r.id) + " (tier " + str(victim.first) + ") was preempted " + span(r) + " by " +
                         job(*r.preempted_by) + " of tier " + str(owner.first) + ", not a higher one");
      }
    }
    return ok_status();
  }

  // (a3) Owner jobs start promptly when preemption can make room (owner_wait_check.h).
  Status check_owner_waits() const {
    std::vector<const JobSpec*> specs(recs_.size());
    std::vector<bool> exact(recs_.size());
    for (std::size_t i = 0; i < recs_.size(); ++i) {
      specs[i] = &spec_of(i);
      exact[i] = rounding_of(spec_of(i)) == Rounding::kExact;
    }
    return check_owner_start_times(
        OwnerWaitInput{nodes_, recs_, specs, exact, default_partition_, preemption_, terms_});
  }

  // (d) is check_capacity (capacity_check.h), (e) check_reservations (reservation_check.h).
  Status check_reservations() const {
    std::vector<Duration> limits(recs_.size());
    for (std::size_t i = 0; i < recs_.size(); ++i) limits[i] = spec_of(i).time_limit;
    return fairway::sim::check_reservations(recs_, limits);
  }

  const std::vector<NodeTopology>& nodes_;
  const Workload& wl_;
  const std::vector<ScheduleRecord>& recs_;
  const std::unordered_map<std::string, Rounding>& rounding_;
  const std::string& default_partition_;
  const std::unordered_map<std::string, std::pair<std::int32_t, bool>>& preemption_;
  bool check_owner_waits_;
  const std::unordered_map<std::string, ValidationInput::PreemptionTerms>& terms_;
  const std::unordered_map<std::string, std::int64_t>& default_mem_per_cpu_;
  std::vector<std::pair<JobId, std::size_t>> by_id_;  // workload index by id
  std::vector<bool> rejected_;                        // by workload index
  std::vector<std::size_t> record_of_;                // by workload index
  std::vector<std::size_t> job_of_;                   // by record index
  std::vector<std::size_t> preempted_runs_;           // record indices
  std::vector<char> mark_;                            // scratch for check_units
};

}  // namespace

void take_partition_rounding(const Config& config, ValidationInput& in) {
  for (const PartitionConfig& p : config.partitions) {
    if (p.is_default) in.default_partition = p.name;
    Rounding r = p.whole_nodes_above_node_size ? Rounding::kWholeNodesAboveOneNode : Rounding::kExact;
    if (p.placement.allocation_unit == AllocationUnit::kNode) r = Rounding::kWholeNodes;
    if (p.placement.allocation_unit == AllocationUnit::kSocket) r = Rounding::kWholeSockets;
    in.rounding[p.name] = r;
    in.preemption[p.name] = {p.priority_tier, p.preempt != PreemptMode::kOff};
    in.preemption_terms[p.name] = {p.preempt_exempt_time, p.preempt_grace, p.nodes};
    if (p.default_mem_per_cpu_mb > 0) in.default_mem_per_cpu[p.name] = p.default_mem_per_cpu_mb;
  }
  const LimitsConfig& l = config.limits;
  bool tiers = false;
  for (const PartitionConfig& p : config.partitions) {
    tiers = tiers || p.priority_tier != config.partitions.front().priority_tier;
  }
  bool gpus = false;
  for (const NodeTopology& n : config.nodes) gpus = gpus || n.total_gpus() > 0;
  in.check_owner_waits = tiers && !gpus && !l.max_eligible_jobs_per_user &&
                         !l.max_eligible_jobs_per_account && !l.max_active_jobs_per_user && !l.maxps_soft &&
                         !l.maxps_hard && config.node_bins.empty() && config.allocation_overuse.empty() &&
                         config.reservations.empty() && !config.scheduler.backfill_max_jobs_per_user &&
                         !config.scheduler.backfill_max_jobs_per_partition;
}

Status validate_schedule(const ValidationInput& in) {
  if (in.nodes == nullptr || in.workload == nullptr || in.records == nullptr) {
    return make_error(ErrorCode::kInvalidArgument,
                      "validate_schedule: nodes, workload and records are all required");
  }
  return Checker(in).run(in.rejected, in.check_reservations);
}

}  // namespace fairway::sim

#include "coordinator/sim/simulation.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>

#include "coordinator/core/scheduler.h"
#include "shared/base/try.h"

namespace fairway::sim {

std::string machine_size_warning(const Config& config, const Workload& workload) {
  const std::int64_t procs = workload.max_procs > 0 ? workload.max_procs : workload.max_nodes;
  if (config.nodes.empty() || procs <= 0) return {};
  std::int64_t cores = 0;
  for (const NodeTopology& n : config.nodes) cores += n.total_cores();
  if (cores <= 2 * procs && procs <= 2 * cores) return {};
  const bool bigger = cores > procs;
  return "the trace's machine has " + std::to_string(procs) +
         " processors (its MaxProcs/MaxNodes header) and the "
         "config's " +
         std::to_string(cores) + " cores, " + (bigger ? "more than twice as many" : "less than half") +
         ": waits and utilization will not be those of the trace's site";
}

namespace {

// Whether every job asks only a count of cores and every partition places by the core:
// then a job spreads freely over nodes, so nodes of many cores hold exactly what as many
// single-core nodes would, and the schedule is the same (the seven public traces under
// EASY and conservative gave identical waits, passes and utilization) at a fraction of
// the bookkeeping: placement, allocation and release cost per node and per core.
bool only_core_counts(const Config& config, const Workload& workload) {
  // Node-count bins count a job's nodes; a reservation naming nodes names processors.
  if (!config.node_bins.empty()) return false;
  for (const ReservationConfig& r : config.reservations) {
    if (!r.all_nodes) return false;
  }
  for (const PartitionConfig& p : config.partitions) {
    if (p.placement.allocation_unit != AllocationUnit::kCore || p.whole_nodes_above_node_size) return false;
  }
  for (const WorkloadJob& w : workload.jobs) {
    const JobSpec& s = w.spec;
    const ResourceRequest& r = s.resources;
    if (r.nodes > 0 || r.gpus > 0 || r.memory_per_node_mb > 0 || s.exclusive || !s.only_nodes.empty() ||
        !s.excluded_nodes.empty() || !s.constraint.empty()) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<Config> machine_for_workload(Config config, const Workload& workload) {
  if (!config.nodes.empty()) return config;
  // Synthetic traces (Lublin's model) state only MaxNodes, each node one processor.
  const std::int32_t procs = workload.max_procs > 0 ? workload.max_procs : workload.max_nodes;
  if (procs <= 0) {
    return invalid_argument(
        "the config declares no nodes and the workload has no MaxProcs or MaxNodes header to "
        "size the machine from; add [[nodes]] to the config");
  }
  const std::int32_t per_node = only_core_counts(config, workload) ? kCoresPerCountingNode : 1;
  config.nodes.reserve(static_cast<std::size_t>((procs + per_node - 1) / per_node));
  for (std::int32_t i = 1, left = procs; left > 0; ++i) {
    const std::int32_t cores = std::min(per_node, left);
    left -= cores;
    config.nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 1, cores));
  }
  // Partitions parsed against an empty machine name no nodes; they now span all of it.
  for (auto& p : config.partitions) {
    if (!p.nodes.empty()) {
      return invalid_argument("partition '" + p.name + "' names nodes but the config declares none");
    }
  }
  return config;
}

namespace {

// What the loop must remember about a submitted job until it completes.
struct LiveJob {
  Duration runtime;
  std::uint32_t run = 0;  // bumped at each start, so a preempted run's completion is stale
  std::optional<Time> reserved_start;
  std::optional<Time> reserved_at;
};

struct Completion {
  Time at;
  JobId id;
  std::uint32_t run = 0;
  // A victim's preemption grace has run out: its processes are gone (SIGKILL at the latest).
  bool preemption_stop = false;
  bool operator>(const Completion& o) const { return at != o.at ? at > o.at : id > o.id; }
};

// Starts and ends of maintenance windows, latest first (popped from the back).
std::vector<Time> maintenance_wakeups(const Config& config) {
  std::vector<Time> out;
  for (const ReservationConfig& r : config.reservations) {
    out.push_back(r.start);
    out.push_back(r.end());
  }
  std::sort(out.begin(), out.end(), std::greater<>());
  return out;
}

// Stops a preempted job at the end of its grace: a cut run is recorded, and the job waits
// again (requeue) or its record is final (preempted).
Status stop_victim(Scheduler& scheduler, JobId id, Time now, std::unordered_map<std::uint64_t, LiveJob>& live,
                   SimulationResult& out) {
  const JobRecord* j = scheduler.job(id);
  if (j == nullptr || j->state != JobState::kRunning || !j->preempting) return ok_status();
  ScheduleRecord r;
  r.id = id;
  r.submit = j->spec.submit_time;
  r.start = j->start_time;
  r.allocation = CompactAllocation(j->allocation);
  r.preempted_by = j->preempting->by;
  LiveJob& lj = live.at(id.value());
  r.reserved_start = lj.reserved_start;
  r.reserved_at = lj.reserved_at;
  FAIRWAY_TRY_ASSIGN(state, scheduler.stop_preempted(id, now));
  r.end = now;
  if (state == JobState::kPending) {
    r.state = JobState::kRequeued;
    r.preempted = true;
    ++lj.run;  // its completion event is stale now
    lj.reserved_start.reset();
    lj.reserved_at.reset();
    out.records.push_back(std::move(r));
    return ok_status();
  }
  r.state = state;  // preempted: cancelled for good, its final record
  out.records.push_back(std::move(r));
  live.erase(id.value());
  scheduler.forget(id);
  return ok_status();
}

}  // namespace

Result<SimulationResult> simulate(const Config& input_config, const Workload& workload,
                                  const ProgressFn& progress) {
  FAIRWAY_TRY_ASSIGN(config, machine_for_workload(input_config, workload));
  FAIRWAY_TRY_ASSIGN(created, Scheduler::create(config));
  Scheduler& scheduler = *created;

  SimulationResult out;
  out.nodes = config.nodes;
  out.records.reserve(workload.jobs.size());
  std::unordered_map<std::uint64_t, LiveJob> live;
  live.reserve(workload.jobs.size());
  // Job arrays: every task runs its array's runtime; a task is live from its first start.
  std::unordered_map<std::uint64_t, Duration> array_runtime;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions;

  std::size_t next_arrival = 0;
  const auto& jobs = workload.jobs;
  // A pass may name a later time at which a held job's limit opens with no event (MAXPS);
  // the coordinator passes every pass_interval, so the simulator passes then too.
  Time recheck = Time::never();
  std::vector<Time> wakeups = maintenance_wakeups(config);  // latest first
  while (next_arrival < jobs.size() || !completions.empty() || recheck != Time::never() ||
         (!wakeups.empty() && !live.empty())) {
    Time now = Time::never();
    if (next_arrival < jobs.size()) now = jobs[next_arrival].spec.submit_time;
    if (!completions.empty() && completions.top().at < now) now = completions.top().at;
    if (recheck < now) now = recheck;
    // A maintenance starting or ending changes what may run: a pass then, while jobs remain.
    while (!wakeups.empty() && wakeups.back() < now && !live.empty()) {
      now = wakeups.back();
      wakeups.pop_back();
    }
    while (!wakeups.empty() && wakeups.back() <= now) wakeups.pop_back();

    // At equal times completions are applied before arrivals (docs/architecture.md section 7.1).
    while (!completions.empty() && completions.top().at == now) {
      const JobId id = completions.top().id;
      const std::uint32_t run = completions.top().run;
      const bool preemption_stop = completions.top().preemption_stop;
      completions.pop();
      if (auto it = live.find(id.value()); it == live.end() || it->second.run != run) {
        continue;  // that run was preempted
      }
      if (preemption_stop) {
        if (auto st = stop_victim(scheduler, id, now, live, out); !st) {
          return std::unexpected(st.error().with_context("simulation at t=" + std::to_string(now.seconds())));
        }
        continue;
      }
      if (auto st = scheduler.finish(id, JobState::kCompleted, now); !st) {
        return std::unexpected(st.error().with_context("simulation at t=" + std::to_string(now.seconds())));
      }
      const JobRecord* j = scheduler.job(id);
      ScheduleRecord& r = out.records.emplace_back();
      r.id = id;
      r.submit = j->spec.submit_time;
      r.start = j->start_time;
      r.end = j->end_time;
      r.state = j->state;
      r.allocation = CompactAllocation(j->allocation);
      auto it = live.find(id.value());
      r.reserved_start = it->second.reserved_start;
      r.reserved_at = it->second.reserved_at;
      live.erase(it);
      scheduler.forget(id);
    }
    while (next_arrival < jobs.size() && jobs[next_arrival].spec.submit_time == now) {
      const WorkloadJob& w = jobs[next_arrival++];
      if (auto st = scheduler.submit(w.spec, now); !st) {
        out.rejected.push_back(w.spec.id);
        out.rejection_messages.push_back(st.error().message);
        continue;
      }
      if (!w.spec.array.empty()) {
        array_runtime.emplace(w.spec.id.value(), w.runtime);
        continue;
      }
      live.emplace(w.spec.id.value(), LiveJob{w.runtime, 0, {}, {}});
    }

    PassResult pass = scheduler.schedule(now);
    ++out.passes;
    recheck = pass.recheck_at && *pass.recheck_at > now ? *pass.recheck_at : Time::never();
    for (ReservationCancellation& c : pass.reservations_cancelled)
      out.reservations_cancelled.push_back(std::move(c));
    for (const JobPreemption& p : pass.preempted) {
      LiveJob& lj = live.at(p.id.value());
      ScheduleRecord& r = out.records.emplace_back();
      r.id = p.id;
      r.submit = scheduler.job(p.id)->spec.submit_time;
      r.start = p.started;
      r.end = now;
      r.state = JobState::kRequeued;
      r.allocation = CompactAllocation(p.allocation);
      r.preempted = true;
      r.reserved_start = lj.reserved_start;
      r.reserved_at = lj.reserved_at;
      lj.reserved_start.reset();
      lj.reserved_at.reset();
    }
    for (const JobCancellation& c : pass.cancelled) {
      const JobRecord* j = scheduler.job(c.id);
      ScheduleRecord& r = out.records.emplace_back();
      r.id = c.id;
      r.submit = j->spec.submit_time;
      r.start = now;
      r.end = now;
      r.state = JobState::kCancelled;
      live.erase(c.id.value());
      scheduler.forget(c.id);
    }
    // A victim stops when its grace runs out (or ends on its own before).
    for (const PreemptionOrder& p : pass.preempting) {
      completions.push({now + p.grace, p.victim, live.at(p.victim.value()).run, true});
    }
    for (const JobStart& s : pass.started) {
      auto found = live.find(s.id.value());
      if (found == live.end()) {  // an array's task, started for the first time
        const JobId array = scheduler.job(s.id)->spec.array_job;
        found = live.emplace(s.id.value(), LiveJob{array_runtime.at(array.value()), 0, {}, {}}).first;
      }
      LiveJob& lj = found->second;
      lj.reserved_start = s.reserved_start;
      lj.reserved_at = s.reserved_at;
      completions.push({now + lj.runtime, s.id, ++lj.run});
    }
    if (progress) progress(next_arrival, out.records.size(), jobs.size(), now);
  }
  return out;
}

}  // namespace fairway::sim
